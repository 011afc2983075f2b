fn program() {
    {
        const __SITES: &[rt::gpu::error_word::ErrSite] = &[];
        let __ctx = rt::host::Ctx::new();
        let __err = rt::gpu::error_word::ErrWord::new(__dev, "mandelbrot_while")?;
        let __v0 = w;
        let __v1 = h;
        let __v2 = limit;
        let __v3 = x0;
        let __v4 = y0;
        let __v5 = dx;
        let __v6 = dy;
        let __b0_shape: [usize; 2] = [__v1, __v0];
        __err.after_kernels(__SITES, rt::host::extent("generate", &__b0_shape))?;
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let (__b0,) = {
            let __in = [__v1, __v0];
            __err.after_kernels(__SITES, rt::host::extent("generate", &__in))?;
            let __zargs: [rt::gpu::KernelArg; 0] = [];
            static __KERNEL: rt::gpu::launch::Kernel<'static> = rt::gpu::launch::Kernel {
                op: "generate",
                skeleton: rt::gpu::launch::Skeleton::Generate {
                    segments: false,
                },
                entries: &[
                    rt::gpu::launch::Entry {
                        name: "mandelbrot_while_k0_generate",
                        params: &[
                            rt::gpu::launch::Param::Extra("n"),
                            rt::gpu::launch::Param::IterDim(0usize),
                            rt::gpu::launch::Param::IterDim(1usize),
                            rt::gpu::launch::Param::Scalar(0usize),
                            rt::gpu::launch::Param::Scalar(1usize),
                            rt::gpu::launch::Param::Scalar(2usize),
                            rt::gpu::launch::Param::Scalar(3usize),
                            rt::gpu::launch::Param::Scalar(4usize),
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
                bufs: &[],
                scalars: &[
                    rt::gpu::buffers::DevElem::arg(__v3),
                    rt::gpu::buffers::DevElem::arg(__v5),
                    rt::gpu::buffers::DevElem::arg(__v4),
                    rt::gpu::buffers::DevElem::arg(__v6),
                    rt::gpu::buffers::DevElem::arg(__v2),
                ],
                z: &__zargs,
                iter: &__in[..],
                outs: &[&__b0_shape[..]],
            };
            let [__b0] = rt::gpu::launch::outputs(
                rt::gpu::launch::kernel(
                    __dev,
                    __ACCEL_PTX,
                    &__err,
                    __SITES,
                    &__KERNEL,
                    &__io,
                )?,
            )?;
            (__b0,)
        };
        rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;
        let __result = {
            let (__c, __s) = (__b0, __b0_shape);
            rt::gpu::buffers::output::<u32, 2>(__s, __c)?
        };
        __err.check(__SITES)?;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
