fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "dotp")?;
        let __b0_shape = xs.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &xs)?;
        let __b1_shape = ys.shape();
        let __b1 = rt::gpu::buffers::input(__dev, &ys)?;
        let __b2_shape: [usize; 0] = [];
        __err.after_kernels(__SITES, rt::host::extent("fold", &__b2_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b2,) = {
            let __in = [rt::ops::ScalarOps::acc_min(__b0_shape[0], __b1_shape[0])];
            __err.after_kernels(__SITES, rt::host::extent("fold", &__in))?;
            let __z: f32 = f32::from_bits(0u32);
            let __zargs = [rt::gpu::buffers::DevElem::arg(__z)];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "fold",
                skeleton: rt::gpu::launch::Skeleton::FoldAll {
                    z: true,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "dotp_k0_fold_part",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::In(0usize, 0usize),
                            rt::gpu::launch::Param::In(1usize, 0usize),
                            rt::gpu::launch::Param::Part(0usize),
                        ],
                    },
                    rt::gpu::launch::Entry {
                        name: "dotp_k0_fold_final",
                        params: &[
                            rt::gpu::launch::Param::Extra("nparts"),
                            rt::gpu::launch::Param::Extra("per"),
                            rt::gpu::launch::Param::Part(0usize),
                            rt::gpu::launch::Param::Z(0usize),
                            rt::gpu::launch::Param::Out(0usize, 0usize),
                        ],
                    },
                ],
                out_leaf_bytes: &[&[4usize]],
                acc_leaf_bytes: &[4usize],
                at: ::core::option::Option::Some(
                    ::core::concat!(::core::file!(), ":1:119"),
                ),
                empty_at: ::core::option::Option::None,
            };
            let __io = rt::gpu::launch::Io {
                bufs: &[(&__b1, &__b1_shape[..]), (&__b0, &__b0_shape[..])],
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
        let __result = {
            let (__c, __s) = (__b2, __b2_shape);
            rt::gpu::buffers::output::<f32, 0>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
