fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1450")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "permute",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1450")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "canny")?;
        let __b0_shape = img.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &img)?;
        let __v1 = low;
        let __v2 = high;
        let __b1_shape: [usize; 2] = __b0_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b1_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b1,) = {
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
                        name: "canny_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
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
        let __b2_shape: [usize; 2] = __b1_shape;
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b2_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b2,) = {
            let __in = __b1_shape;
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k1_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
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
                bufs: &[(&__b1, &__b1_shape[..])],
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
        ::core::mem::drop(__b1);
        let __b3_shape: [usize; 2] = __b2_shape;
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b3_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b3,) = {
            let __in = __b2_shape;
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k2_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
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
                bufs: &[(&__b2, &__b2_shape[..])],
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
        ::core::mem::drop(__b2);
        let __b4_shape: [usize; 2] = __b3_shape;
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b4_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b4,) = {
            let __in = __b3_shape;
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k3_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
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
                bufs: &[(&__b3, &__b3_shape[..])],
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
        ::core::mem::drop(__b3);
        let __b5_shape: [usize; 2] = __b4_shape;
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b5_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b5,) = {
            let __in = __b4_shape;
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k4_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Scalar(1usize),
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
                bufs: &[(&__b4, &__b4_shape[..])],
                scalars: &[
                    rt::gpu::buffers::DevElem::arg(__v1),
                    rt::gpu::buffers::DevElem::arg(__v2),
                ],
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
        __err
            .after_kernels(
                __SITES,
                rt::host::check_reshape(
                        &__b5_shape,
                        &[rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1])],
                    )
                    .map_err(|__e| {
                        __e
                            .or_at(
                                ::core::option::Option::Some(
                                    ::core::concat!(::core::file!(), ":1:1422"),
                                ),
                            )
                    }),
            )?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b6_shape: [usize; 1] = [
            rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("scan", &__b6_shape))?;
        let __b7_shape: [usize; 0] = [];
        __err.after_kernels(__SITES, rt::host::extent("scan", &__b7_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b6, __b7) = {
            let __in = [rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1])];
            __err.after_kernels(__SITES, rt::host::extent("scan", &__in))?;
            let __z: usize = (0usize);
            let __zargs = [rt::gpu::buffers::DevElem::arg(__z)];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "scan",
                skeleton: rt::gpu::launch::Skeleton::Scan {
                    scan_leaves: 1usize,
                    empty_fold: ::core::option::Option::None,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k5_scan",
                        params: &[
                            rt::gpu::launch::Param::Z(0usize),
                            rt::gpu::launch::Param::Extra("len"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::Extra("rows"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(1usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "canny_k5_scan_lookback",
                        params: &[
                            rt::gpu::launch::Param::Z(0usize),
                            rt::gpu::launch::Param::Extra("len"),
                            rt::gpu::launch::Param::Extra("tpr"),
                            rt::gpu::launch::Param::Extra("tiles"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::Extra("status"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Part(0usize),
                            rt::gpu::launch::Param::Out(1usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "canny_k5_scan_warp",
                        params: &[
                            rt::gpu::launch::Param::Z(0usize),
                            rt::gpu::launch::Param::Extra("len"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::Extra("rows"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(1usize, 0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize], &[8usize]],
                acc_leaf_bytes: &[8usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:1450"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b5, &__b5_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b6_shape[..], &__b7_shape[..]],
            };
            let [__b6, __b7] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b6, __b7)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b8_shape: [usize; 1] = {
            __err.check(__SITES)?;
            let __b7_h0: ::std::vec::Vec<usize> = __b7
                .download::<usize>(__dev, 0usize, rt::shape::size(&__b7_shape))?;
            let __b7_c0: &[usize] = &__b7_h0;
            [
                {
                    let __o: usize = (0usize);
                    unsafe { rt::cpu::at(__b7_c0, __o) }
                },
            ]
        };
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b8_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b8,) = {
            let __in = {
                __err.check(__SITES)?;
                let __b7_h0: ::std::vec::Vec<usize> = __b7
                    .download::<usize>(__dev, 0usize, rt::shape::size(&__b7_shape))?;
                let __b7_c0: &[usize] = &__b7_h0;
                [
                    {
                        let __o: usize = (0usize);
                        unsafe { rt::cpu::at(__b7_c0, __o) }
                    },
                ]
            };
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k6_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize, 4usize]],
                acc_leaf_bytes: &[8usize, 4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b8_shape[..]],
            };
            let [__b8] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b8,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        __err
            .after_kernels(
                __SITES,
                rt::host::check_reshape(
                        &__b5_shape,
                        &[rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1])],
                    )
                    .map_err(|__e| {
                        __e
                            .or_at(
                                ::core::option::Option::Some(
                                    ::core::concat!(::core::file!(), ":1:1422"),
                                ),
                            )
                    }),
            )?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b9_shape: [usize; 1] = __b8_shape;
        __err.after_kernels(__SITES, rt::host::extent("permute", &__b9_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b9,) = {
            let __in = [rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1])];
            __err.after_kernels(__SITES, rt::host::extent("permute", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "permute",
                skeleton: rt::gpu::launch::Skeleton::Permute {
                    defaults: 0usize,
                    private_bins: 0usize,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k7_permute",
                        params: &[
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::In(3usize, 0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize, 4usize]],
                acc_leaf_bytes: &[8usize, 4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:1450"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[
                    (&__b8, &__b8_shape[..]),
                    (&__b5, &__b5_shape[..]),
                    (&__b6, &__b6_shape[..]),
                    (&__b7, &__b7_shape[..]),
                ],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b9_shape[..]],
            };
            let [__b9] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b9,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b6);
        ::core::mem::drop(__b7);
        ::core::mem::drop(__b8);
        let __b10_shape: [usize; 1] = __b9_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b10_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b10,) = {
            let __in = __b9_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "canny_k8_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
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
                bufs: &[(&__b9, &__b9_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b10_shape[..]],
            };
            let [__b10] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b10,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b9);
        let __result = (
            {
                let (__c, __s) = (__b5, __b5_shape);
                rt::gpu::buffers::output::<f32, 2>(__s, __c)?
            },
            {
                let (__c, __s) = (__b10, __b10_shape);
                rt::gpu::buffers::output::<usize, 1>(__s, __c)?
            },
        );
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
