fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:331")),
            ),
            (
                rt::ErrorKind::InvalidArgument,
                "fold_seg_offsets",
                "segment offsets decrease",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:331")),
            ),
            (
                rt::ErrorKind::IndexOutOfBounds,
                "index",
                "index out of bounds",
                ::core::option::Option::Some(::core::concat!(::core::file!(), ":1:311")),
            ),
        ];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "spmv")?;
        let __b0_shape = offsets.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &offsets)?;
        let __b1_shape = cols.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &cols)?;
        let __b2_shape = vals.shape();
        let __b2 = rt::gpu::buffers::input(__dev, &vals)?;
        let __b3_shape = x.shape();
        let __b3 = rt::gpu::buffers::input(__dev, &x)?;
        let __b4_shape: [usize; 1] = [
            rt::ops::ScalarOps::acc_sub(
                __b0_shape[0],
                rt::ops::ScalarOps::acc_min(__b0_shape[0], (1usize)),
            ),
        ];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b4_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b4,) = {
            let __in = [
                rt::ops::ScalarOps::acc_sub(
                    __b0_shape[0],
                    rt::ops::ScalarOps::acc_min(__b0_shape[0], (1usize)),
                ),
            ];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: true,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "spmv_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("spread"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::InDim(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::Err,
                            rt::gpu::launch::Param::InDim(1usize, 0usize),
                            rt::gpu::launch::Param::InDim(2usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::In(2usize, 0usize),
                            rt::gpu::launch::Param::InDim(3usize, 0usize),
                            rt::gpu::launch::Param::In(3usize, 0usize),
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
                    (&__b0, &__b0_shape[..]),
                    (&__b2, &__b2_shape[..]),
                    (&__b1, &__b1_shape[..]),
                    (&__b3, &__b3_shape[..]),
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
        let __result = {
            let (__c, __s) = (__b4, __b4_shape);
            rt::gpu::buffers::output::<f32, 1>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
