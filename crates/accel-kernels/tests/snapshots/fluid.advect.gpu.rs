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
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:655")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:726")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "advect")?;
        let __b0_shape = d0.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &d0)?;
        let __b1_shape = u.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &u)?;
        let __b2_shape = v.shape();
        let __b2 = rt::gpu::buffers::input(__dev, &v)?;
        let __v3 = dt;
        let __b3_shape: [usize; 2] = [__b0_shape[0], __b0_shape[1]];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b3_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b3,) = {
            let __in = [__b0_shape[0], __b0_shape[1]];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "advect_k0_generate",
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
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 1usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
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
                    (&__b1, &__b1_shape[..]),
                    (&__b2, &__b2_shape[..]),
                    (&__b0, &__b0_shape[..]),
                ],
                scalars: &[rt::gpu::buffers::DevElem::arg(__v3)],
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
        let __result = {
            let (__c, __s) = (__b3, __b3_shape);
            rt::gpu::buffers::output::<f32, 2>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
