fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:230")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "permute",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:196")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "histogram")?;
        let __b0_shape = xs.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &xs)?;
        let __v1 = bins;
        let __b1_shape: [usize; 1] = [__v1];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b1_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b1,) = {
            let __in = [__v1];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "histogram_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize]],
                acc_leaf_bytes: &[4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[],
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
        let __b2_shape: [usize; 1] = __b1_shape;
        __err.after_kernels(__SITES, rt::host::extent("permute", &__b2_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b2,) = {
            let __in = __b0_shape;
            __err.after_kernels(__SITES, rt::host::extent("permute", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "permute",
                skeleton: rt::gpu::launch::Skeleton::Permute {
                    defaults: 0usize,
                    private_bins: 4096usize,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "histogram_k1_permute",
                        params: &[
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "histogram_k1_permute_private",
                        params: &[
                            rt::gpu::launch::Param::Extra("nout"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize]],
                acc_leaf_bytes: &[4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:196"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b1, &__b1_shape[..]), (&__b0, &__b0_shape[..])],
                scalars: &[rt::gpu::buffers::DevElem::arg(__v1)],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b2_shape[..]],
            };
            let [__b2] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b2,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b1);
        let __result = {
            let (__c, __s) = (__b2, __b2_shape);
            rt::gpu::buffers::output::<u32, 1>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
