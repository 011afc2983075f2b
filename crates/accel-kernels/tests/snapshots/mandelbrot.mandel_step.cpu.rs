fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start("mandel_step", &[]);
        let __v0 = c;
        let __v1 = z;
        let __res0 = if (rt::ops::ScalarOps::acc_add(
            rt::ops::ScalarOps::acc_mul(__v1.0, __v1.0),
            rt::ops::ScalarOps::acc_mul(__v1.1, __v1.1),
        ) > f32::from_bits(1082130432u32))
        {
            __v1
        } else {
            {
                (
                    rt::ops::ScalarOps::acc_add(
                        rt::ops::ScalarOps::acc_sub(
                            rt::ops::ScalarOps::acc_mul(__v1.0, __v1.0),
                            rt::ops::ScalarOps::acc_mul(__v1.1, __v1.1),
                        ),
                        __v0.0,
                    ),
                    rt::ops::ScalarOps::acc_add(
                        rt::ops::ScalarOps::acc_mul(
                            rt::ops::ScalarOps::acc_mul(
                                f32::from_bits(1073741824u32),
                                __v1.0,
                            ),
                            __v1.1,
                        ),
                        __v0.1,
                    ),
                    rt::ops::ScalarOps::acc_add(__v1.2, (1u32)),
                )
            }
        };
        let __result = __res0;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
