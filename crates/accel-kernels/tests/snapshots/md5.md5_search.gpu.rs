fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::None,
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1115")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1267")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1316")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1365")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:1414")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "md5_search")?;
        let __b0_shape = target.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &target)?;
        let __b1_shape = k.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &k)?;
        let __v55 = __chunk_len;
        let __v56 = __chunk_elems;
        let __b2_shape: [usize; 0] = [];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b2_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b2,) = {
            let __in = [];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "md5_search_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[8usize, 8usize]],
                acc_leaf_bytes: &[8usize, 8usize],
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
        let mut __st0 = ((0usize), (__b2, __b2_shape));
        let (__v72, (__b7, __b7_shape)) = loop {
            let __item3 = match rt::seq::next_chunk::<
                _,
                1,
                2,
            >(&mut blocks, __v55, __v56)? {
                ::core::option::Option::Some(__x) => __x,
                ::core::option::Option::None => break __st0,
            };
            let __b3_shape = __item3.shape();
            let __b3 = rt::gpu::buffers::pulled(__dev, &__item3)?;
            let (__v57, (__b4, __b4_shape)) = __st0;
            if !(true) {
                break (__v57, (__b4, __b4_shape));
            }
            let __b5_shape: [usize; 0] = [];
            __err.after_kernels(__SITES, rt::host::extent("fold1_all", &__b5_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b5,) = {
                let __in = [__b3_shape[0]];
                __err.after_kernels(__SITES, rt::host::extent("fold1_all", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "fold1_all",
                    skeleton: rt::gpu::launch::Skeleton::FoldAll {
                        z: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "md5_search_k1_fold_part",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::Extra("per"),
                                rt::gpu::launch::Param::InDim(0usize, 0usize),
                                rt::gpu::launch::Param::InDim(1usize, 0usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
                                rt::gpu::launch::Param::InDim(2usize, 0usize),
                                rt::gpu::launch::Param::InDim(2usize, 1usize),
                                rt::gpu::launch::Param::In(2usize, 0usize),
                                rt::gpu::launch::Param::Err,
                                rt::gpu::launch::Param::In(0usize, 0usize),
                                rt::gpu::launch::Param::Part(0usize),
                                rt::gpu::launch::Param::Part(1usize),
                            ],
                        },
                        rt::gpu::launch::Entry {
                            name: "md5_search_k1_fold_final",
                            params: &[
                                rt::gpu::launch::Param::Extra("nparts"),
                                rt::gpu::launch::Param::Extra("per"),
                                rt::gpu::launch::Param::Part(0usize),
                                rt::gpu::launch::Param::Part(1usize),
                                rt::gpu::launch::Param::Out(0usize, 0usize),
                                rt::gpu::launch::Param::Out(0usize, 1usize),
                            ],
                        },
                    ],
                    out_leaf_bytes: &[&[8usize, 8usize]],
                    acc_leaf_bytes: &[8usize, 8usize],
                    at: ::core::option::Option::None,
                    empty_at: ::core::option::Option::None,
                };
                let __io = rt::gpu::launch::Io {
                    bufs: &[
                        (&__b0, &__b0_shape[..]),
                        (&__b1, &__b1_shape[..]),
                        (&__b3, &__b3_shape[..]),
                    ],
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
            let __b6_shape: [usize; 0] = [];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__b6_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b6,) = {
                let __in = [];
                __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
                let __zargs: [rt::gpu::KernelArg; 0] = [];
                static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                    op: "generate",
                    skeleton: rt::gpu::launch::Skeleton::Generate {
                        segments: false,
                    },
                    entries: &[
                        rt::gpu::launch::Entry {
                            name: "md5_search_k2_generate",
                            params: &[
                                rt::gpu::launch::Param::Extra("n"),
                                rt::gpu::launch::Param::Out(0usize, 0usize),
                                rt::gpu::launch::Param::Out(0usize, 1usize),
                                rt::gpu::launch::Param::In(0usize, 0usize),
                                rt::gpu::launch::Param::In(0usize, 1usize),
                                rt::gpu::launch::Param::In(1usize, 0usize),
                                rt::gpu::launch::Param::In(1usize, 1usize),
                            ],
                        },
                    ],
                    out_leaf_bytes: &[&[8usize, 8usize]],
                    acc_leaf_bytes: &[8usize, 8usize],
                    at: ::core::option::Option::None,
                    empty_at: ::core::option::Option::None,
                };
                let __io = rt::gpu::launch::Io {
                    bufs: &[(&__b4, &__b4_shape[..]), (&__b5, &__b5_shape[..])],
                    scalars: &[],
                    z: &__zargs,
                    iter: &__in[..],
                    outs: &[&__b6_shape[..]],
                };
                let [__b6] = rt::gpu::launch::outputs(
                    rt::gpu::launch::kernel(
                        __dev,
                        __ACCEL_PTX,
                        &__err,
                        __SITES,
                        &__KERNEL,
                        &__io,
                    )?,
                )?;
                (__b6,)
            };
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            ::core::mem::drop(__b4);
            ::core::mem::drop(__b5);
            let __res0 = rt::ops::ScalarOps::acc_add(__v57, __b3_shape[0]);
            __st0 = (__res0, (__b6, __b6_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __b8_shape: [usize; 0] = __b7_shape;
        __err.after_kernels(__SITES, rt::host::extent("map", &__b8_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b8,) = {
            let __in = __b7_shape;
            __err.after_kernels(__SITES, rt::host::extent("map", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "map",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "md5_search_k3_generate",
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
                bufs: &[(&__b7, &__b7_shape[..])],
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
        ::core::mem::drop(__b7);
        let __result = {
            let (__c, __s) = (__b8, __b8_shape);
            rt::gpu::buffers::output::<u64, 0>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
