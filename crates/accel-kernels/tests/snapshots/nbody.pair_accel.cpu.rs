fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start("pair_accel", &[]);
        let __v0 = pi;
        let __v1 = pj;
        let __v2 = mj;
        let __v3 = eps2;
        let __res0 = {
            (
                rt::ops::ScalarOps::acc_mul(
                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                    rt::ops::ScalarOps::acc_mul(
                        rt::ops::ScalarOps::acc_mul(
                            rt::ops::ScalarOps::acc_mul(
                                __v2,
                                rt::ops::ScalarOps::acc_div(
                                    f32::from_bits(1065353216u32),
                                    <f32>::sqrt(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_mul(
                                                        rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                        rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                        rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                    ),
                                                ),
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                ),
                                            ),
                                            __v3,
                                        ),
                                    ),
                                ),
                            ),
                            rt::ops::ScalarOps::acc_div(
                                f32::from_bits(1065353216u32),
                                <f32>::sqrt(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                ),
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                ),
                                            ),
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                            ),
                                        ),
                                        __v3,
                                    ),
                                ),
                            ),
                        ),
                        rt::ops::ScalarOps::acc_div(
                            f32::from_bits(1065353216u32),
                            <f32>::sqrt(
                                rt::ops::ScalarOps::acc_add(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                            ),
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                            ),
                                        ),
                                        rt::ops::ScalarOps::acc_mul(
                                            rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                            rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                        ),
                                    ),
                                    __v3,
                                ),
                            ),
                        ),
                    ),
                ),
                rt::ops::ScalarOps::acc_mul(
                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                    rt::ops::ScalarOps::acc_mul(
                        rt::ops::ScalarOps::acc_mul(
                            rt::ops::ScalarOps::acc_mul(
                                __v2,
                                rt::ops::ScalarOps::acc_div(
                                    f32::from_bits(1065353216u32),
                                    <f32>::sqrt(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_mul(
                                                        rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                        rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                        rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                    ),
                                                ),
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                ),
                                            ),
                                            __v3,
                                        ),
                                    ),
                                ),
                            ),
                            rt::ops::ScalarOps::acc_div(
                                f32::from_bits(1065353216u32),
                                <f32>::sqrt(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                ),
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                ),
                                            ),
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                            ),
                                        ),
                                        __v3,
                                    ),
                                ),
                            ),
                        ),
                        rt::ops::ScalarOps::acc_div(
                            f32::from_bits(1065353216u32),
                            <f32>::sqrt(
                                rt::ops::ScalarOps::acc_add(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                            ),
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                            ),
                                        ),
                                        rt::ops::ScalarOps::acc_mul(
                                            rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                            rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                        ),
                                    ),
                                    __v3,
                                ),
                            ),
                        ),
                    ),
                ),
                rt::ops::ScalarOps::acc_mul(
                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                    rt::ops::ScalarOps::acc_mul(
                        rt::ops::ScalarOps::acc_mul(
                            rt::ops::ScalarOps::acc_mul(
                                __v2,
                                rt::ops::ScalarOps::acc_div(
                                    f32::from_bits(1065353216u32),
                                    <f32>::sqrt(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_mul(
                                                        rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                        rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                        rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                    ),
                                                ),
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                    rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                ),
                                            ),
                                            __v3,
                                        ),
                                    ),
                                ),
                            ),
                            rt::ops::ScalarOps::acc_div(
                                f32::from_bits(1065353216u32),
                                <f32>::sqrt(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                    rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                ),
                                                rt::ops::ScalarOps::acc_mul(
                                                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                    rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                ),
                                            ),
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                                rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                            ),
                                        ),
                                        __v3,
                                    ),
                                ),
                            ),
                        ),
                        rt::ops::ScalarOps::acc_div(
                            f32::from_bits(1065353216u32),
                            <f32>::sqrt(
                                rt::ops::ScalarOps::acc_add(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_add(
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                                rt::ops::ScalarOps::acc_sub(__v1.0, __v0.0),
                                            ),
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                                rt::ops::ScalarOps::acc_sub(__v1.1, __v0.1),
                                            ),
                                        ),
                                        rt::ops::ScalarOps::acc_mul(
                                            rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                            rt::ops::ScalarOps::acc_sub(__v1.2, __v0.2),
                                        ),
                                    ),
                                    __v3,
                                ),
                            ),
                        ),
                    ),
                ),
            )
        };
        let __result = __res0;
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
