fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "sort_keys")?;
        let __b0_shape = xs.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &xs)?;
        let __b1_shape: [usize; 1] = __b0_shape;
        __err.after_kernels(__SITES, rt::host::extent("sort", &__b1_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b1,) = {
            let __in = __b0_shape;
            __err.after_kernels(__SITES, rt::host::extent("sort", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "sort",
                skeleton: rt::gpu::launch::Skeleton::Sort {
                    key_bits: 32u32,
                    digit_bits: 4u32,
                    tile: 256u32,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_skeys",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("keys"),
                            rt::gpu::launch::Param::Extra("idx"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_scount",
                        params: &[
                            rt::gpu::launch::Param::Extra("counts"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("shift"),
                            rt::gpu::launch::Param::Extra("ksrc"),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_sscan",
                        params: &[
                            rt::gpu::launch::Param::Extra("tn"),
                            rt::gpu::launch::Param::Extra("tper"),
                            rt::gpu::launch::Param::Extra("psum"),
                            rt::gpu::launch::Param::Extra("pmax"),
                            rt::gpu::launch::Param::Extra("stats"),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_sscatter",
                        params: &[
                            rt::gpu::launch::Param::Extra("counts"),
                            rt::gpu::launch::Param::Extra("isrc"),
                            rt::gpu::launch::Param::Extra("kdst"),
                            rt::gpu::launch::Param::Extra("idst"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("shift"),
                            rt::gpu::launch::Param::Extra("ksrc"),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_sgather",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("idx"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_sreduce",
                        params: &[
                            rt::gpu::launch::Param::Extra("tn"),
                            rt::gpu::launch::Param::Extra("bper"),
                            rt::gpu::launch::Param::Extra("psum"),
                            rt::gpu::launch::Param::Extra("part"),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "sort_keys_k0_sapply",
                        params: &[
                            rt::gpu::launch::Param::Extra("tn"),
                            rt::gpu::launch::Param::Extra("tper"),
                            rt::gpu::launch::Param::Extra("psum"),
                            rt::gpu::launch::Param::Extra("bper"),
                            rt::gpu::launch::Param::Extra("part"),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize]],
                acc_leaf_bytes: &[4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:67"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b0, &__b0_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b1_shape[..]],
            };
            let [__b1] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b1,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __result = {
            let (__c, __s) = (__b1, __b1_shape);
            rt::gpu::buffers::output::<i32, 1>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
