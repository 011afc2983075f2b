fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1007")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1029")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1058")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1080")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:726")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:655")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "fluid_step")?;
        let __b0_shape = dens.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &dens)?;
        let __b1_shape = u.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &u)?;
        let __b2_shape = v.shape();
        let __b2 = rt::gpu::buffers::input(__dev, &v)?;
        let __v3 = dt;
        let __v4 = visc;
        let __v5 = diff;
        let __v6 = iters;
        let __v180: f32 = rt::ops::ScalarOps::acc_mul(__v5, __v3);
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v184: usize = __v6;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b3_shape: [usize; 2] = __b0_shape;
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
                        name: "fluid_step_k0_generate",
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
        let mut __st0 = ((0usize), (__b3, __b3_shape));
        let (__v228, (__b6, __b6_shape)) = loop {
            let (__v185, (__b4, __b4_shape)) = __st0;
            if !((__v185 < __v184)) {
                break (__v185, (__b4, __b4_shape));
            }
            let __b5_shape: [usize; 2] = [
                rt::ops::ScalarOps::acc_min(__b4_shape[0], __b0_shape[0]),
                rt::ops::ScalarOps::acc_min(__b4_shape[1], __b0_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__b5_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b5,) = {
                let __in = [
                    rt::ops::ScalarOps::acc_min(__b4_shape[0], __b0_shape[0]),
                    rt::ops::ScalarOps::acc_min(__b4_shape[1], __b0_shape[1]),
                ];
                __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "stencil",
                    skeleton: rt::gpu::launch::Skeleton::Generate {
                        segments: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "fluid_step_k1_generate",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::IterDim(0usize),
                                rt::gpu::launch::Param::IterDim(1usize),
                                rt::gpu::launch::Param::InDim(0usize, 0usize),
                                rt::gpu::launch::Param::InDim(0usize, 1usize),
                                rt::gpu::launch::Param::InDim(1usize, 0usize),
                                rt::gpu::launch::Param::InDim(1usize, 1usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
                                rt::gpu::launch::Param::In(0usize, 0usize),
                                rt::gpu::launch::Param::Scalar(0usize),
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
                    bufs: &[(&__b0, &__b0_shape[..]), (&__b4, &__b4_shape[..])],
                    scalars: &[rt::gpu::buffers::DevElem::arg(__v180)],
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
            let __res0 = rt::ops::ScalarOps::acc_add(__v185, (1usize));
            __st0 = (__res0, (__b5, __b5_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v207: usize = __b6_shape[0];
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v208: usize = __b6_shape[1];
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v8: f32 = rt::ops::ScalarOps::acc_mul(__v4, __v3);
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v12: usize = __v6;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b7_shape: [usize; 2] = __b1_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b7_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b7,) = {
            let __in = __b1_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k2_generate",
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
                bufs: &[(&__b1, &__b1_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b7_shape[..]],
            };
            let [__b7] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b7,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let mut __st1 = ((0usize), (__b7, __b7_shape));
        let (__v234, (__b10, __b10_shape)) = loop {
            let (__v13, (__b8, __b8_shape)) = __st1;
            if !((__v13 < __v12)) {
                break (__v13, (__b8, __b8_shape));
            }
            let __b9_shape: [usize; 2] = [
                rt::ops::ScalarOps::acc_min(__b8_shape[0], __b1_shape[0]),
                rt::ops::ScalarOps::acc_min(__b8_shape[1], __b1_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__b9_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b9,) = {
                let __in = [
                    rt::ops::ScalarOps::acc_min(__b8_shape[0], __b1_shape[0]),
                    rt::ops::ScalarOps::acc_min(__b8_shape[1], __b1_shape[1]),
                ];
                __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "stencil",
                    skeleton: rt::gpu::launch::Skeleton::Generate {
                        segments: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "fluid_step_k3_generate",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::IterDim(0usize),
                                rt::gpu::launch::Param::IterDim(1usize),
                                rt::gpu::launch::Param::InDim(0usize, 0usize),
                                rt::gpu::launch::Param::InDim(0usize, 1usize),
                                rt::gpu::launch::Param::InDim(1usize, 0usize),
                                rt::gpu::launch::Param::InDim(1usize, 1usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
                                rt::gpu::launch::Param::In(0usize, 0usize),
                                rt::gpu::launch::Param::Scalar(0usize),
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
                    bufs: &[(&__b1, &__b1_shape[..]), (&__b8, &__b8_shape[..])],
                    scalars: &[rt::gpu::buffers::DevElem::arg(__v8)],
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
            ::core::mem::drop(__b8);
            let __res0 = rt::ops::ScalarOps::acc_add(__v13, (1usize));
            __st1 = (__res0, (__b9, __b9_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v31: f32 = rt::ops::ScalarOps::acc_mul(__v4, __v3);
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v35: usize = __v6;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b11_shape: [usize; 2] = __b2_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b11_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b11,) = {
            let __in = __b2_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k4_generate",
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
                bufs: &[(&__b2, &__b2_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b11_shape[..]],
            };
            let [__b11] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b11,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let mut __st2 = ((0usize), (__b11, __b11_shape));
        let (__v240, (__b14, __b14_shape)) = loop {
            let (__v36, (__b12, __b12_shape)) = __st2;
            if !((__v36 < __v35)) {
                break (__v36, (__b12, __b12_shape));
            }
            let __b13_shape: [usize; 2] = [
                rt::ops::ScalarOps::acc_min(__b12_shape[0], __b2_shape[0]),
                rt::ops::ScalarOps::acc_min(__b12_shape[1], __b2_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__b13_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b13,) = {
                let __in = [
                    rt::ops::ScalarOps::acc_min(__b12_shape[0], __b2_shape[0]),
                    rt::ops::ScalarOps::acc_min(__b12_shape[1], __b2_shape[1]),
                ];
                __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "stencil",
                    skeleton: rt::gpu::launch::Skeleton::Generate {
                        segments: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "fluid_step_k5_generate",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::IterDim(0usize),
                                rt::gpu::launch::Param::IterDim(1usize),
                                rt::gpu::launch::Param::InDim(0usize, 0usize),
                                rt::gpu::launch::Param::InDim(0usize, 1usize),
                                rt::gpu::launch::Param::InDim(1usize, 0usize),
                                rt::gpu::launch::Param::InDim(1usize, 1usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
                                rt::gpu::launch::Param::In(0usize, 0usize),
                                rt::gpu::launch::Param::Scalar(0usize),
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
                    bufs: &[(&__b2, &__b2_shape[..]), (&__b12, &__b12_shape[..])],
                    scalars: &[rt::gpu::buffers::DevElem::arg(__v31)],
                    z: &__zargs,
                    iter: &__in[..],
                    outs: &[&__b13_shape[..]],
                };
                let [__b13] = rt::gpu::launch::outputs(
                    rt::gpu::launch::kernel(
                        __dev,
                        __ACCEL_PTX,
                        &__err,
                        __SITES,
                        &__KERNEL,
                        &__io,
                    )?,
                )?;
                (__b13,)
            };
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            ::core::mem::drop(__b12);
            let __res0 = rt::ops::ScalarOps::acc_add(__v36, (1usize));
            __st2 = (__res0, (__b13, __b13_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b15_shape: [usize; 2] = [
            rt::ops::ScalarOps::acc_min(__b10_shape[0], __b14_shape[0]),
            rt::ops::ScalarOps::acc_min(__b10_shape[1], __b14_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b15_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b15,) = {
            let __in = [
                rt::ops::ScalarOps::acc_min(__b10_shape[0], __b14_shape[0]),
                rt::ops::ScalarOps::acc_min(__b10_shape[1], __b14_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k6_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                bufs: &[(&__b14, &__b14_shape[..]), (&__b10, &__b10_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b15_shape[..]],
            };
            let [__b15] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b15,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v65: usize = __v6;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b16_shape: [usize; 2] = __b15_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b16_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b16,) = {
            let __in = __b15_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k7_generate",
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
                bufs: &[(&__b15, &__b15_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b16_shape[..]],
            };
            let [__b16] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b16,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let mut __st3 = ((0usize), (__b16, __b16_shape));
        let (__v247, (__b19, __b19_shape)) = loop {
            let (__v66, (__b17, __b17_shape)) = __st3;
            if !((__v66 < __v65)) {
                break (__v66, (__b17, __b17_shape));
            }
            let __b18_shape: [usize; 2] = [
                rt::ops::ScalarOps::acc_min(__b17_shape[0], __b15_shape[0]),
                rt::ops::ScalarOps::acc_min(__b17_shape[1], __b15_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__b18_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b18,) = {
                let __in = [
                    rt::ops::ScalarOps::acc_min(__b17_shape[0], __b15_shape[0]),
                    rt::ops::ScalarOps::acc_min(__b17_shape[1], __b15_shape[1]),
                ];
                __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "stencil",
                    skeleton: rt::gpu::launch::Skeleton::Generate {
                        segments: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "fluid_step_k8_generate",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::IterDim(0usize),
                                rt::gpu::launch::Param::IterDim(1usize),
                                rt::gpu::launch::Param::InDim(0usize, 0usize),
                                rt::gpu::launch::Param::InDim(0usize, 1usize),
                                rt::gpu::launch::Param::InDim(1usize, 0usize),
                                rt::gpu::launch::Param::InDim(1usize, 1usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
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
                    bufs: &[(&__b15, &__b15_shape[..]), (&__b17, &__b17_shape[..])],
                    scalars: &[],
                    z: &__zargs,
                    iter: &__in[..],
                    outs: &[&__b18_shape[..]],
                };
                let [__b18] = rt::gpu::launch::outputs(
                    rt::gpu::launch::kernel(
                        __dev,
                        __ACCEL_PTX,
                        &__err,
                        __SITES,
                        &__KERNEL,
                        &__io,
                    )?,
                )?;
                (__b18,)
            };
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            ::core::mem::drop(__b17);
            let __res0 = rt::ops::ScalarOps::acc_add(__v66, (1usize));
            __st3 = (__res0, (__b18, __b18_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b15);
        let __b20_shape: [usize; 2] = [
            rt::ops::ScalarOps::acc_min(__b10_shape[0], __b19_shape[0]),
            rt::ops::ScalarOps::acc_min(__b10_shape[1], __b19_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b20_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b20,) = {
            let __in = [
                rt::ops::ScalarOps::acc_min(__b10_shape[0], __b19_shape[0]),
                rt::ops::ScalarOps::acc_min(__b10_shape[1], __b19_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k9_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                bufs: &[(&__b19, &__b19_shape[..]), (&__b10, &__b10_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b20_shape[..]],
            };
            let [__b20] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b20,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b10);
        let __b21_shape: [usize; 2] = [
            rt::ops::ScalarOps::acc_min(__b14_shape[0], __b19_shape[0]),
            rt::ops::ScalarOps::acc_min(__b14_shape[1], __b19_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b21_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b21,) = {
            let __in = [
                rt::ops::ScalarOps::acc_min(__b14_shape[0], __b19_shape[0]),
                rt::ops::ScalarOps::acc_min(__b14_shape[1], __b19_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k10_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                bufs: &[(&__b19, &__b19_shape[..]), (&__b14, &__b14_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b21_shape[..]],
            };
            let [__b21] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b21,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b14);
        ::core::mem::drop(__b19);
        let __v100: usize = __b20_shape[0];
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v101: usize = __b20_shape[1];
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b22_shape: [usize; 2] = [__v100, __v101];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b22_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b22,) = {
            let __in = [__v100, __v101];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k11_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Scalar(1usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(2usize),
                            rt::gpu::launch::Param::Err,
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
                bufs: &[(&__b21, &__b21_shape[..]), (&__b20, &__b20_shape[..])],
                scalars: &[
                    rt::gpu::buffers::DevElem::arg(__v3),
                    rt::gpu::buffers::DevElem::arg(__v101),
                    rt::gpu::buffers::DevElem::arg(__v100),
                ],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b22_shape[..]],
            };
            let [__b22] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b22,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v121: usize = __b21_shape[0];
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v122: usize = __b21_shape[1];
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b23_shape: [usize; 2] = [__v121, __v122];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b23_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b23,) = {
            let __in = [__v121, __v122];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k12_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Scalar(2usize),
                            rt::gpu::launch::Param::Err,
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
                bufs: &[(&__b20, &__b20_shape[..]), (&__b21, &__b21_shape[..])],
                scalars: &[
                    rt::gpu::buffers::DevElem::arg(__v3),
                    rt::gpu::buffers::DevElem::arg(__v122),
                    rt::gpu::buffers::DevElem::arg(__v121),
                ],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b23_shape[..]],
            };
            let [__b23] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b23,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b20);
        ::core::mem::drop(__b21);
        let __b24_shape: [usize; 2] = [
            rt::ops::ScalarOps::acc_min(__b22_shape[0], __b23_shape[0]),
            rt::ops::ScalarOps::acc_min(__b22_shape[1], __b23_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b24_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b24,) = {
            let __in = [
                rt::ops::ScalarOps::acc_min(__b22_shape[0], __b23_shape[0]),
                rt::ops::ScalarOps::acc_min(__b22_shape[1], __b23_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k13_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                bufs: &[(&__b23, &__b23_shape[..]), (&__b22, &__b22_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b24_shape[..]],
            };
            let [__b24] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b24,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __v149: usize = __v6;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b25_shape: [usize; 2] = __b24_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b25_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b25,) = {
            let __in = __b24_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k14_generate",
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
                bufs: &[(&__b24, &__b24_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b25_shape[..]],
            };
            let [__b25] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b25,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let mut __st4 = ((0usize), (__b25, __b25_shape));
        let (__v268, (__b28, __b28_shape)) = loop {
            let (__v150, (__b26, __b26_shape)) = __st4;
            if !((__v150 < __v149)) {
                break (__v150, (__b26, __b26_shape));
            }
            let __b27_shape: [usize; 2] = [
                rt::ops::ScalarOps::acc_min(__b26_shape[0], __b24_shape[0]),
                rt::ops::ScalarOps::acc_min(__b26_shape[1], __b24_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__b27_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b27,) = {
                let __in = [
                    rt::ops::ScalarOps::acc_min(__b26_shape[0], __b24_shape[0]),
                    rt::ops::ScalarOps::acc_min(__b26_shape[1], __b24_shape[1]),
                ];
                __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "stencil",
                    skeleton: rt::gpu::launch::Skeleton::Generate {
                        segments: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "fluid_step_k15_generate",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::IterDim(0usize),
                                rt::gpu::launch::Param::IterDim(1usize),
                                rt::gpu::launch::Param::InDim(0usize, 0usize),
                                rt::gpu::launch::Param::InDim(0usize, 1usize),
                                rt::gpu::launch::Param::InDim(1usize, 0usize),
                                rt::gpu::launch::Param::InDim(1usize, 1usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
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
                    bufs: &[(&__b24, &__b24_shape[..]), (&__b26, &__b26_shape[..])],
                    scalars: &[],
                    z: &__zargs,
                    iter: &__in[..],
                    outs: &[&__b27_shape[..]],
                };
                let [__b27] = rt::gpu::launch::outputs(
                    rt::gpu::launch::kernel(
                        __dev,
                        __ACCEL_PTX,
                        &__err,
                        __SITES,
                        &__KERNEL,
                        &__io,
                    )?,
                )?;
                (__b27,)
            };
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            ::core::mem::drop(__b26);
            let __res0 = rt::ops::ScalarOps::acc_add(__v150, (1usize));
            __st4 = (__res0, (__b27, __b27_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b24);
        let __b29_shape: [usize; 2] = [
            rt::ops::ScalarOps::acc_min(__b22_shape[0], __b28_shape[0]),
            rt::ops::ScalarOps::acc_min(__b22_shape[1], __b28_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b29_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b29,) = {
            let __in = [
                rt::ops::ScalarOps::acc_min(__b22_shape[0], __b28_shape[0]),
                rt::ops::ScalarOps::acc_min(__b22_shape[1], __b28_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k16_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                bufs: &[(&__b28, &__b28_shape[..]), (&__b22, &__b22_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b29_shape[..]],
            };
            let [__b29] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b29,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b22);
        let __b30_shape: [usize; 2] = [
            rt::ops::ScalarOps::acc_min(__b23_shape[0], __b28_shape[0]),
            rt::ops::ScalarOps::acc_min(__b23_shape[1], __b28_shape[1]),
        ];
        __err.after_kernels(__SITES, rt::host::extent("stencil", &__b30_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b30,) = {
            let __in = [
                rt::ops::ScalarOps::acc_min(__b23_shape[0], __b28_shape[0]),
                rt::ops::ScalarOps::acc_min(__b23_shape[1], __b28_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "stencil",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k17_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                bufs: &[(&__b28, &__b28_shape[..]), (&__b23, &__b23_shape[..])],
                scalars: &[],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b30_shape[..]],
            };
            let [__b30] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b30,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b23);
        ::core::mem::drop(__b28);
        let __b31_shape: [usize; 2] = [__v207, __v208];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b31_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b31,) = {
            let __in = [__v207, __v208];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "fluid_step_k18_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 1usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(1usize, 1usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Scalar(2usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 1usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
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
                bufs: &[
                    (&__b29, &__b29_shape[..]),
                    (&__b30, &__b30_shape[..]),
                    (&__b6, &__b6_shape[..]),
                ],
                scalars: &[
                    rt::gpu::buffers::DevElem::arg(__v3),
                    rt::gpu::buffers::DevElem::arg(__v208),
                    rt::gpu::buffers::DevElem::arg(__v207),
                ],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b31_shape[..]],
            };
            let [__b31] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b31,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        ::core::mem::drop(__b6);
        let __result = (
            {
                let (__c, __s) = (__b31, __b31_shape);
                rt::gpu::buffers::output::<f32, 2>(__s, __c)?
            },
            {
                let (__c, __s) = (__b29, __b29_shape);
                rt::gpu::buffers::output::<f32, 2>(__s, __c)?
            },
            {
                let (__c, __s) = (__b30, __b30_shape);
                rt::gpu::buffers::output::<f32, 2>(__s, __c)?
            },
        );
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
