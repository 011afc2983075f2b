fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "black_scholes",
            &["kernel 0: generate -> b1   fuses: map"],
        );
        let __b0_shape = opts.shape();
        let __b0 = opts.try_columns()?;
        let __b0_c0: &[f32] = &__b0.0[..];
        let __b0_c1: &[f32] = &__b0.1[..];
        let __b0_c2: &[f32] = &__b0.2[..];
        let __v1 = r;
        let __v2 = v;
        let __began = __timer.begin();
        let __h0: f32 = rt::ops::ScalarOps::acc_add(
            __v1,
            rt::ops::ScalarOps::acc_mul(
                rt::ops::ScalarOps::acc_mul(f32::from_bits(1056964608u32), __v2),
                __v2,
            ),
        );
        let __h1: f32 = rt::ops::ScalarOps::acc_neg(__v1);
        let __b1_shape: [usize; 1] = __b0_shape;
        rt::host::extent("map", &__b1_shape)?;
        rt::cpu::reserve::<(f32, f32)>("map", &__b1_shape)?;
        let __b1: <(f32, f32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f32, f32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b1_shape),
            #[inline(always)]
            |__v24: usize| {
                let __v3: (f32, f32, f32) = {
                    let __v21: usize = __v24;
                    {
                        let __o: usize = __v21;
                        (
                            unsafe { rt::cpu::at(__b0_c0, __o) },
                            unsafe { rt::cpu::at(__b0_c1, __o) },
                            unsafe { rt::cpu::at(__b0_c2, __o) },
                        )
                    }
                };
                {
                    let __v4: f32 = __v3.0;
                    {
                        let __v5: f32 = __v3.1;
                        {
                            let __v6: f32 = __v3.2;
                            {
                                let __v7: f32 = rt::ops::ScalarOps::acc_mul(
                                    __v2,
                                    <f32>::sqrt(__v6),
                                );
                                {
                                    let __v8: f32 = rt::ops::ScalarOps::acc_div(
                                        rt::ops::ScalarOps::acc_add(
                                            <f32>::ln(rt::ops::ScalarOps::acc_div(__v4, __v5)),
                                            rt::ops::ScalarOps::acc_mul(__h0, __v6),
                                        ),
                                        __v7,
                                    );
                                    {
                                        let __v9: f32 = rt::ops::ScalarOps::acc_sub(__v8, __v7);
                                        {
                                            let __v14: f32 = {
                                                let __v10: f32 = __v8;
                                                {
                                                    let __v11: f32 = rt::ops::ScalarOps::acc_div(
                                                        f32::from_bits(1065353216u32),
                                                        rt::ops::ScalarOps::acc_add(
                                                            f32::from_bits(1065353216u32),
                                                            rt::ops::ScalarOps::acc_mul(
                                                                f32::from_bits(1047344009u32),
                                                                rt::ops::ScalarOps::acc_abs(__v10),
                                                            ),
                                                        ),
                                                    );
                                                    {
                                                        let __v12: f32 = rt::ops::ScalarOps::acc_mul(
                                                            __v11,
                                                            rt::ops::ScalarOps::acc_add(
                                                                f32::from_bits(1050904058u32),
                                                                rt::ops::ScalarOps::acc_mul(
                                                                    __v11,
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        f32::from_bits(3199635335u32),
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            __v11,
                                                                            rt::ops::ScalarOps::acc_add(
                                                                                f32::from_bits(1071908728u32),
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    __v11,
                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                        f32::from_bits(3219726058u32),
                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                            __v11,
                                                                                            f32::from_bits(1068123759u32),
                                                                                        ),
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                        ),
                                                                    ),
                                                                ),
                                                            ),
                                                        );
                                                        {
                                                            let __v13: f32 = rt::ops::ScalarOps::acc_mul(
                                                                rt::ops::ScalarOps::acc_mul(
                                                                    f32::from_bits(1053573674u32),
                                                                    <f32>::exp(
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                f32::from_bits(3204448256u32),
                                                                                __v10,
                                                                            ),
                                                                            __v10,
                                                                        ),
                                                                    ),
                                                                ),
                                                                __v12,
                                                            );
                                                            {
                                                                let __then = rt::ops::ScalarOps::acc_sub(
                                                                    f32::from_bits(1065353216u32),
                                                                    __v13,
                                                                );
                                                                let __else = __v13;
                                                                if (__v10 > f32::from_bits(0u32)) { __then } else { __else }
                                                            }
                                                        }
                                                    }
                                                }
                                            };
                                            {
                                                let __v19: f32 = {
                                                    let __v15: f32 = __v9;
                                                    {
                                                        let __v16: f32 = rt::ops::ScalarOps::acc_div(
                                                            f32::from_bits(1065353216u32),
                                                            rt::ops::ScalarOps::acc_add(
                                                                f32::from_bits(1065353216u32),
                                                                rt::ops::ScalarOps::acc_mul(
                                                                    f32::from_bits(1047344009u32),
                                                                    rt::ops::ScalarOps::acc_abs(__v15),
                                                                ),
                                                            ),
                                                        );
                                                        {
                                                            let __v17: f32 = rt::ops::ScalarOps::acc_mul(
                                                                __v16,
                                                                rt::ops::ScalarOps::acc_add(
                                                                    f32::from_bits(1050904058u32),
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        __v16,
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            f32::from_bits(3199635335u32),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v16,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    f32::from_bits(1071908728u32),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v16,
                                                                                        rt::ops::ScalarOps::acc_add(
                                                                                            f32::from_bits(3219726058u32),
                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                __v16,
                                                                                                f32::from_bits(1068123759u32),
                                                                                            ),
                                                                                        ),
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                        ),
                                                                    ),
                                                                ),
                                                            );
                                                            {
                                                                let __v18: f32 = rt::ops::ScalarOps::acc_mul(
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        f32::from_bits(1053573674u32),
                                                                        <f32>::exp(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    f32::from_bits(3204448256u32),
                                                                                    __v15,
                                                                                ),
                                                                                __v15,
                                                                            ),
                                                                        ),
                                                                    ),
                                                                    __v17,
                                                                );
                                                                {
                                                                    let __then = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v18,
                                                                    );
                                                                    let __else = __v18;
                                                                    if (__v15 > f32::from_bits(0u32)) { __then } else { __else }
                                                                }
                                                            }
                                                        }
                                                    }
                                                };
                                                {
                                                    let __v20: f32 = rt::ops::ScalarOps::acc_mul(
                                                        __v5,
                                                        <f32>::exp(rt::ops::ScalarOps::acc_mul(__h1, __v6)),
                                                    );
                                                    {
                                                        (
                                                            rt::ops::ScalarOps::acc_sub(
                                                                rt::ops::ScalarOps::acc_mul(__v4, __v14),
                                                                rt::ops::ScalarOps::acc_mul(__v20, __v19),
                                                            ),
                                                            rt::ops::ScalarOps::acc_sub(
                                                                rt::ops::ScalarOps::acc_mul(
                                                                    __v20,
                                                                    rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v19,
                                                                    ),
                                                                ),
                                                                rt::ops::ScalarOps::acc_mul(
                                                                    __v4,
                                                                    rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v14,
                                                                    ),
                                                                ),
                                                            ),
                                                        )
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            },
        );
        let __b1_c0: &[f32] = &__b1.0[..];
        let __b1_c1: &[f32] = &__b1.1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b1, __b1_shape);
            rt::Array::<(f32, f32), 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
