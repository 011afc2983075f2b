fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:695")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "permute",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:629")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "kmeans_step")?;
        let __b0_shape = points.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &points)?;
        let __b1_shape = centroids.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &centroids)?;
        let __b2_shape: [usize; 1] = [__b1_shape[0]];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b2_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b2,) = {
            let __in = [__b1_shape[0]];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "kmeans_step_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize, 8usize, 4usize]],
                acc_leaf_bytes: &[8usize, 8usize, 4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[],
                scalars: &[],
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
        let __b3_shape: [usize; 1] = __b0_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b3_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b3,) = {
            let __in = __b0_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "kmeans_step_k1_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize]],
                acc_leaf_bytes: &[8usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b0, &__b0_shape[..]), (&__b1, &__b1_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b3_shape[..]],
            };
            let [__b3] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b3,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b4_shape: [usize; 1] = __b2_shape;
        __err.after_kernels(__SITES, rt::host::extent("permute", &__b4_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b4,) = {
            let __in = __b0_shape;
            __err.after_kernels(__SITES, rt::host::extent("permute", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "permute",
                skeleton: rt::gpu::launch::Skeleton::Permute {
                    defaults: 0usize,
                    private_bins: 819usize,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "kmeans_step_k2_permute",
                        params: &[
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "kmeans_step_k2_permute_private",
                        params: &[
                            rt::gpu::launch::Param::Extra("nout"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize, 8usize, 4usize]],
                acc_leaf_bytes: &[8usize, 8usize, 4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:629"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[
                    (&__b2, &__b2_shape[..]),
                    (&__b3, &__b3_shape[..]),
                    (&__b0, &__b0_shape[..]),
                ],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b4_shape[..]],
            };
            let [__b4] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b4,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b2);
        ::core::mem::drop(__b3);
        let __b5_shape: [usize; 1] = [
            rt::ops::ScalarOps::acc_min(__b4_shape[0], __b1_shape[0]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("zip_with", &__b5_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b5,) = {
            let __in = [rt::ops::ScalarOps::acc_min(__b4_shape[0], __b1_shape[0])];
            __err.after_kernels(__SITES, rt::host::extent("zip_with", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "zip_with",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "kmeans_step_k3_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 2usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize, 4usize]],
                acc_leaf_bytes: &[4usize, 4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b1, &__b1_shape[..]), (&__b4, &__b4_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b5_shape[..]],
            };
            let [__b5] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b5,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b4);
        let __result = {
            let (__c, __s) = (__b5, __b5_shape);
            rt::gpu::buffers::output::<(f32, f32), 1>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
