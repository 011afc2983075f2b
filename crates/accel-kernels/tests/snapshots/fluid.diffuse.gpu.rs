fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "diffuse")?;
        let __b0_shape = x0.shape();
        let __b0 = rt::gpu::buffers::input(__dev, &x0)?;
        let __v1 = a;
        let __v2 = iters;
        let __v5: usize = __v2;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
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
                        name: "diffuse_k0_generate",
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
        let mut __st0 = ((0usize), (__b1, __b1_shape));
        let (__v27, (__b4, __b4_shape)) = loop {
            let (__v6, (__b2, __b2_shape)) = __st0;
            if !((__v6 < __v5)) {
                break (__v6, (__b2, __b2_shape));
            }
            let __b3_shape: [usize; 2] = [
                rt::ops::ScalarOps::acc_min(__b2_shape[0], __b0_shape[0]),
                rt::ops::ScalarOps::acc_min(__b2_shape[1], __b0_shape[1]),
            ];
            __err.after_kernels(__SITES, rt::host::extent("stencil", &__b3_shape))?;
            rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
            let (__b3,) = {
                let __in = [
                    rt::ops::ScalarOps::acc_min(__b2_shape[0], __b0_shape[0]),
                    rt::ops::ScalarOps::acc_min(__b2_shape[1], __b0_shape[1]),
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
                            name: "diffuse_k1_generate",
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
                    bufs: &[(&__b0, &__b0_shape[..]), (&__b2, &__b2_shape[..])],
                    scalars: &[rt::gpu::buffers::DevElem::arg(__v1)],
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
            let __res0 = rt::ops::ScalarOps::acc_add(__v6, (1usize));
            __st0 = (__res0, (__b3, __b3_shape));
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __result = {
            let (__c, __s) = (__b4, __b4_shape);
            rt::gpu::buffers::output::<f32, 2>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
