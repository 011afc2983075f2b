fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:375")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:404")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:448")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:439")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:582")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "permute",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:523")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "bfs_step")?;
        let __b0_shape = frontier.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &frontier)?;
        let __b1_shape = offsets.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &offsets)?;
        let __b2_shape = edges.shape();
        let __b2 = rt::gpu::buffers::input(__dev, &edges)?;
        let __b3_shape = dist.shape();
        let __b3 = rt::gpu::buffers::input(__dev, &dist)?;
        let __v4 = level;
        let __b4_shape: [usize; 1] = __b3_shape;
        __err.after_kernels(__SITES, rt::host::extent("permute", &__b4_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b4,) = {
            let __in = __b0_shape;
            __err.after_kernels(__SITES, rt::host::extent("permute", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "permute",
                skeleton: rt::gpu::launch::Skeleton::ExpandPermute {
                    defaults: 0usize,
                    chunk: 256u32,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xcount",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("iper"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("psum"),
                            rt::gpu::launch::Param::Extra("pmax"),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xscan",
                        params: &[
                            rt::gpu::launch::Param::Extra("tn"),
                            rt::gpu::launch::Param::Extra("tper"),
                            rt::gpu::launch::Param::Extra("psum"),
                            rt::gpu::launch::Param::Extra("pmax"),
                            rt::gpu::launch::Param::Extra("stats"),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xoffs",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("iper"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("psum"),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xthread",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("total"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::InDim(3usize, 0usize),
                            rt::gpu::launch::Param::In(3usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xwarp",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("total"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::InDim(3usize, 0usize),
                            rt::gpu::launch::Param::In(3usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xblock",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("total"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::InDim(3usize, 0usize),
                            rt::gpu::launch::Param::In(3usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xprefix",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("total"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::InDim(3usize, 0usize),
                            rt::gpu::launch::Param::In(3usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "bfs_step_k0_xchunk",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("total"),
                            rt::gpu::launch::Param::Extra("offs"),
                            rt::gpu::launch::Param::Extra("lock"),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::InDim(3usize, 0usize),
                            rt::gpu::launch::Param::In(3usize, 0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::OutDim(0usize, 0usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize]],
                acc_leaf_bytes: &[4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:523"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[
                    (&__b3, &__b3_shape[..]),
                    (&__b0, &__b0_shape[..]),
                    (&__b1, &__b1_shape[..]),
                    (&__b2, &__b2_shape[..]),
                ],
                scalars: &[rt::gpu::buffers::DevElem::arg(__v4)],
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
        let __result = {
            let (__c, __s) = (__b4, __b4_shape);
            rt::gpu::buffers::output::<u32, 1>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
