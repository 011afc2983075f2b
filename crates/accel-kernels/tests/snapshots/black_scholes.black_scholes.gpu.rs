fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "black_scholes")?;
        let __b0_shape = opts.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &opts)?;
        let __v1 = r;
        let __v2 = v;
        let __b1_shape: [usize; 1] = __b0_shape;
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
                        name: "black_scholes_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(0usize, 1usize),
                            rt::gpu::launch::Param::In(0usize, 2usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                            rt::gpu::launch::Param::Out(0usize, 1usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Scalar(1usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize, 4usize]],
                acc_leaf_bytes: &[4usize, 4usize],
                at: ::core::option::Option::None,
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b0, &__b0_shape[..])],
                scalars: &[
                    rt::gpu::buffers::DevElem::arg(__v2),
                    rt::gpu::buffers::DevElem::arg(__v1),
                ],
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
            rt::gpu::buffers::output::<(f32, f32), 1>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
