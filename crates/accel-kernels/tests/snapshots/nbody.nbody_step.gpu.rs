fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:866")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "nbody_step")?;
        let __b0_shape = pos.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &pos)?;
        let __b1_shape = vel.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &vel)?;
        let __b2_shape = mass.shape();
        let __b2 = rt::gpu::buffers::input(__dev, &mass)?;
        let __v3 = dt;
        let __v4 = eps2;
        let __b3_shape: [usize; 1] = [__b0_shape[0]];
        __err.after_kernels(__SITES, rt::host::extent("fold", &__b3_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b3,) = {
            let __in = [__b0_shape[0], __b0_shape[0]];
            __err.after_kernels(__SITES, rt::host::extent("fold", &__in))?;
            let __z: (f32, f32, f32) = {
                (f32::from_bits(0u32), f32::from_bits(0u32), f32::from_bits(0u32))
            };
            let __zargs = [
                rt::gpu::buffers::DevElem::arg(__z.0),
                rt::gpu::buffers::DevElem::arg(__z.1),
                rt::gpu::buffers::DevElem::arg(__z.2),
            ];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "fold",
                skeleton: rt::gpu::launch::Skeleton::FoldRows {
                    z: true,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "nbody_step_k0_fold_rows",
                        params: &[
                            rt::gpu::launch::Param::Extra("len"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::Extra("rows"),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 2usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::Z(0usize),
                            rt::gpu::launch::Param::Z(1usize),
                            rt::gpu::launch::Param::Z(2usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "nbody_step_k0_fold_rows_warp",
                        params: &[
                            rt::gpu::launch::Param::Extra("len"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::Extra("rows"),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 2usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::Z(0usize),
                            rt::gpu::launch::Param::Z(1usize),
                            rt::gpu::launch::Param::Z(2usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize, 4usize, 4usize]],
                acc_leaf_bytes: &[4usize, 4usize, 4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:888"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b2, &__b2_shape[..]), (&__b0, &__b0_shape[..])],
                scalars: &[rt::gpu::buffers::DevElem::arg(__v4)],
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
        let __b4_shape: [usize; 1] = [
            rt::ops::ScalarOps::acc_min(__b1_shape[0], __b3_shape[0]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("zip_with", &__b4_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b4,) = {
            let __in = [rt::ops::ScalarOps::acc_min(__b1_shape[0], __b3_shape[0])];
            __err.after_kernels(__SITES, rt::host::extent("zip_with", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "zip_with",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "nbody_step_k1_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 2usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 2usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize, 4usize, 4usize]],
                acc_leaf_bytes: &[4usize, 4usize, 4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b3, &__b3_shape[..]), (&__b1, &__b1_shape[..])],
                scalars: &[rt::gpu::buffers::DevElem::arg(__v3)],
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
        ::core::mem::drop(__b3);
        let __b5_shape: [usize; 1] = [
            rt::ops::ScalarOps::acc_min(__b0_shape[0], __b4_shape[0]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("zip_with", &__b5_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b5,) = {
            let __in = [rt::ops::ScalarOps::acc_min(__b0_shape[0], __b4_shape[0])];
            __err.after_kernels(__SITES, rt::host::extent("zip_with", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "zip_with",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "nbody_step_k2_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 2usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 2usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Out(0usize, 2usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize, 4usize, 4usize]],
                acc_leaf_bytes: &[4usize, 4usize, 4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b4, &__b4_shape[..]), (&__b0, &__b0_shape[..])],
                scalars: &[rt::gpu::buffers::DevElem::arg(__v3)],
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
        let __result = (
            {
                let (__c, __s) = (__b5, __b5_shape);
                rt::gpu::buffers::output::<(f32, f32, f32), 1>(__s, __c)?
            },
            {
                let (__c, __s) = (__b4, __b4_shape);
                rt::gpu::buffers::output::<(f32, f32, f32), 1>(__s, __c)?
            },
        );
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
