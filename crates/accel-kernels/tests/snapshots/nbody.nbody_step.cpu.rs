fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "nbody_step",
            &[
                "kernel 0: fold -> b3   fuses: generate -> fold",
                "kernel 1: generate -> b4   fuses: zip_with",
                "kernel 2: generate -> b5   fuses: zip_with",
            ],
        );
        let __b0_shape = pos.shape();
        let __b0 = pos.try_columns()?;
        let __b0_c0: &[f32] = &__b0.0[..];
        let __b0_c1: &[f32] = &__b0.1[..];
        let __b0_c2: &[f32] = &__b0.2[..];
        let __b1_shape = vel.shape();
        let __b1 = vel.try_columns()?;
        let __b1_c0: &[f32] = &__b1.0[..];
        let __b1_c1: &[f32] = &__b1.1[..];
        let __b1_c2: &[f32] = &__b1.2[..];
        let __b2_shape = mass.shape();
        let __b2 = mass.try_columns()?;
        let __b2_c0: &[f32] = &__b2[..];
        let __v3 = dt;
        let __v4 = eps2;
        let __began = __timer.begin();
        let __b3_shape: [usize; 1] = [__b0_shape[0]];
        rt::host::extent("fold", &__b3_shape)?;
        rt::cpu::reserve::<(f32, f32, f32)>("fold", &__b3_shape)?;
        let __in3 = [__b0_shape[0], __b0_shape[0]];
        rt::host::extent("fold", &__in3)?;
        let (__rows, __len) = rt::cpu::rows_of(&__in3);
        #[allow(unused_variables)]
        let __rows_at = rt::cpu::IndexOf::new(&__in3);
        let __b3: <(f32, f32, f32) as rt::Elem>::Columns = if (([
            __b0_shape[0],
            __b0_shape[0],
        ])[1]) <= (__b2_shape)[0]
        {
            rt::cpu::fold_columns_then::<
                <(f32, f32, f32) as rt::Elem>::Columns,
                <(f32, f32, f32) as rt::Elem>::Columns,
                _,
            >(
                &__in3,
                |__v6: [usize; 2]| {
                    let __v7: usize = __v6[0];
                    {
                        let __v8: usize = __v6[1];
                        {
                            let __v9: (f32, f32, f32) = {
                                let __v32 = [__v7];
                                if rt::cpu::VERIFY_ELISIONS {
                                    rt::cpu::verify_elision(
                                        "inside the iteration space",
                                        "index",
                                        &__v32,
                                        &__b0_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v32);
                                    (
                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                        unsafe { rt::cpu::at(__b0_c2, __o) },
                                    )
                                }
                            };
                            {
                                let __v10: (f32, f32, f32) = {
                                    let __v33 = [__v8];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v33,
                                            &__b0_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b0_shape, &__v33);
                                        (
                                            unsafe { rt::cpu::at(__b0_c0, __o) },
                                            unsafe { rt::cpu::at(__b0_c1, __o) },
                                            unsafe { rt::cpu::at(__b0_c2, __o) },
                                        )
                                    }
                                };
                                {
                                    let __v11: f32 = {
                                        let __v34 = [__v8];
                                        if rt::cpu::VERIFY_ELISIONS {
                                            rt::cpu::verify_elision(
                                                "extents compared at kernel entry",
                                                "index",
                                                &__v34,
                                                &__b2_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::shape::to_linear(&__b2_shape, &__v34);
                                            unsafe { rt::cpu::at(__b2_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v12: f32 = __v4;
                                        {
                                            let __v13: f32 = rt::ops::ScalarOps::acc_sub(
                                                __v10.0,
                                                __v9.0,
                                            );
                                            {
                                                let __v14: f32 = rt::ops::ScalarOps::acc_sub(
                                                    __v10.1,
                                                    __v9.1,
                                                );
                                                {
                                                    let __v15: f32 = rt::ops::ScalarOps::acc_sub(
                                                        __v10.2,
                                                        __v9.2,
                                                    );
                                                    {
                                                        let __v16: f32 = rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_mul(__v13, __v13),
                                                                    rt::ops::ScalarOps::acc_mul(__v14, __v14),
                                                                ),
                                                                rt::ops::ScalarOps::acc_mul(__v15, __v15),
                                                            ),
                                                            __v12,
                                                        );
                                                        {
                                                            let __v17: f32 = rt::ops::ScalarOps::acc_div(
                                                                f32::from_bits(1065353216u32),
                                                                <f32>::sqrt(__v16),
                                                            );
                                                            {
                                                                let __v18: f32 = rt::ops::ScalarOps::acc_mul(
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        rt::ops::ScalarOps::acc_mul(__v11, __v17),
                                                                        __v17,
                                                                    ),
                                                                    __v17,
                                                                );
                                                                {
                                                                    (
                                                                        rt::ops::ScalarOps::acc_mul(__v13, __v18),
                                                                        rt::ops::ScalarOps::acc_mul(__v14, __v18),
                                                                        rt::ops::ScalarOps::acc_mul(__v15, __v18),
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
                        }
                    }
                },
                { (f32::from_bits(0u32), f32::from_bits(0u32), f32::from_bits(0u32)) },
                {
                    #[inline(always)]
                    |__v19: (f32, f32, f32), __v20: (f32, f32, f32)| -> (f32, f32, f32) {
                        {
                            (
                                rt::ops::ScalarOps::acc_add(__v19.0, __v20.0),
                                rt::ops::ScalarOps::acc_add(__v19.1, __v20.1),
                                rt::ops::ScalarOps::acc_add(__v19.2, __v20.2),
                            )
                        }
                    }
                },
                |__x: (f32, f32, f32)| -> (f32, f32, f32) { __x },
            )
        } else {
            rt::cpu::fold_columns_then::<
                <(f32, f32, f32) as rt::Elem>::Columns,
                <(f32, f32, f32) as rt::Elem>::Columns,
                _,
            >(
                &__in3,
                |__v6: [usize; 2]| {
                    let __v7: usize = __v6[0];
                    {
                        let __v8: usize = __v6[1];
                        {
                            let __v9: (f32, f32, f32) = {
                                let __v32 = [__v7];
                                if rt::cpu::VERIFY_ELISIONS {
                                    rt::cpu::verify_elision(
                                        "inside the iteration space",
                                        "index",
                                        &__v32,
                                        &__b0_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v32);
                                    (
                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                        unsafe { rt::cpu::at(__b0_c2, __o) },
                                    )
                                }
                            };
                            {
                                let __v10: (f32, f32, f32) = {
                                    let __v33 = [__v8];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v33,
                                            &__b0_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b0_shape, &__v33);
                                        (
                                            unsafe { rt::cpu::at(__b0_c0, __o) },
                                            unsafe { rt::cpu::at(__b0_c1, __o) },
                                            unsafe { rt::cpu::at(__b0_c2, __o) },
                                        )
                                    }
                                };
                                {
                                    let __v11: f32 = {
                                        let __v34 = [__v8];
                                        if __ctx
                                            .index(
                                                "index",
                                                ::core::option::Option::Some(
                                                    ::core::concat!(::core::file!(), ":1:866"),
                                                ),
                                                __v34,
                                                __b2_shape,
                                            )
                                            .is_some()
                                        {
                                            {
                                                let __o: usize = rt::shape::to_linear(&__b2_shape, &__v34);
                                                unsafe { rt::cpu::at(__b2_c0, __o) }
                                            }
                                        } else {
                                            ::core::default::Default::default()
                                        }
                                    };
                                    {
                                        let __v12: f32 = __v4;
                                        {
                                            let __v13: f32 = rt::ops::ScalarOps::acc_sub(
                                                __v10.0,
                                                __v9.0,
                                            );
                                            {
                                                let __v14: f32 = rt::ops::ScalarOps::acc_sub(
                                                    __v10.1,
                                                    __v9.1,
                                                );
                                                {
                                                    let __v15: f32 = rt::ops::ScalarOps::acc_sub(
                                                        __v10.2,
                                                        __v9.2,
                                                    );
                                                    {
                                                        let __v16: f32 = rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_mul(__v13, __v13),
                                                                    rt::ops::ScalarOps::acc_mul(__v14, __v14),
                                                                ),
                                                                rt::ops::ScalarOps::acc_mul(__v15, __v15),
                                                            ),
                                                            __v12,
                                                        );
                                                        {
                                                            let __v17: f32 = rt::ops::ScalarOps::acc_div(
                                                                f32::from_bits(1065353216u32),
                                                                <f32>::sqrt(__v16),
                                                            );
                                                            {
                                                                let __v18: f32 = rt::ops::ScalarOps::acc_mul(
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        rt::ops::ScalarOps::acc_mul(__v11, __v17),
                                                                        __v17,
                                                                    ),
                                                                    __v17,
                                                                );
                                                                {
                                                                    (
                                                                        rt::ops::ScalarOps::acc_mul(__v13, __v18),
                                                                        rt::ops::ScalarOps::acc_mul(__v14, __v18),
                                                                        rt::ops::ScalarOps::acc_mul(__v15, __v18),
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
                        }
                    }
                },
                { (f32::from_bits(0u32), f32::from_bits(0u32), f32::from_bits(0u32)) },
                {
                    #[inline(always)]
                    |__v19: (f32, f32, f32), __v20: (f32, f32, f32)| -> (f32, f32, f32) {
                        {
                            (
                                rt::ops::ScalarOps::acc_add(__v19.0, __v20.0),
                                rt::ops::ScalarOps::acc_add(__v19.1, __v20.1),
                                rt::ops::ScalarOps::acc_add(__v19.2, __v20.2),
                            )
                        }
                    }
                },
                |__x: (f32, f32, f32)| -> (f32, f32, f32) { __x },
            )
        };
        let __b3_c0: &[f32] = &__b3.0[..];
        let __b3_c1: &[f32] = &__b3.1[..];
        let __b3_c2: &[f32] = &__b3.2[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b1_shape[0], __b3_shape[0]);
        let __b4_shape: [usize; 1] = [__h0];
        rt::host::extent("zip_with", &__b4_shape)?;
        rt::cpu::reserve::<(f32, f32, f32)>("zip_with", &__b4_shape)?;
        let __b4: <(f32, f32, f32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f32, f32, f32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b4_shape),
            #[inline(always)]
            |__v38: usize| {
                let __v22: (f32, f32, f32) = {
                    let __v30: usize = __v38;
                    {
                        let __o: usize = __v30;
                        (
                            unsafe { rt::cpu::at(__b1_c0, __o) },
                            unsafe { rt::cpu::at(__b1_c1, __o) },
                            unsafe { rt::cpu::at(__b1_c2, __o) },
                        )
                    }
                };
                {
                    let __v23: (f32, f32, f32) = {
                        let __v35: usize = __v38;
                        {
                            let __o: usize = __v35;
                            (
                                unsafe { rt::cpu::at(__b3_c0, __o) },
                                unsafe { rt::cpu::at(__b3_c1, __o) },
                                unsafe { rt::cpu::at(__b3_c2, __o) },
                            )
                        }
                    };
                    {
                        (
                            rt::ops::ScalarOps::acc_add(
                                __v22.0,
                                rt::ops::ScalarOps::acc_mul(__v23.0, __v3),
                            ),
                            rt::ops::ScalarOps::acc_add(
                                __v22.1,
                                rt::ops::ScalarOps::acc_mul(__v23.1, __v3),
                            ),
                            rt::ops::ScalarOps::acc_add(
                                __v22.2,
                                rt::ops::ScalarOps::acc_mul(__v23.2, __v3),
                            ),
                        )
                    }
                }
            },
        );
        let __b4_c0: &[f32] = &__b4.0[..];
        let __b4_c1: &[f32] = &__b4.1[..];
        let __b4_c2: &[f32] = &__b4.2[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        rt::Columns::recycle(__b3);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b0_shape[0], __b4_shape[0]);
        let __b5_shape: [usize; 1] = [__h0];
        rt::host::extent("zip_with", &__b5_shape)?;
        rt::cpu::reserve::<(f32, f32, f32)>("zip_with", &__b5_shape)?;
        let __b5: <(f32, f32, f32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f32, f32, f32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b5_shape),
            #[inline(always)]
            |__v42: usize| {
                let __v25: (f32, f32, f32) = {
                    let __v28: usize = __v42;
                    {
                        let __o: usize = __v28;
                        (
                            unsafe { rt::cpu::at(__b0_c0, __o) },
                            unsafe { rt::cpu::at(__b0_c1, __o) },
                            unsafe { rt::cpu::at(__b0_c2, __o) },
                        )
                    }
                };
                {
                    let __v26: (f32, f32, f32) = {
                        let __v39: usize = __v42;
                        {
                            let __o: usize = __v39;
                            (
                                unsafe { rt::cpu::at(__b4_c0, __o) },
                                unsafe { rt::cpu::at(__b4_c1, __o) },
                                unsafe { rt::cpu::at(__b4_c2, __o) },
                            )
                        }
                    };
                    {
                        (
                            rt::ops::ScalarOps::acc_add(
                                __v25.0,
                                rt::ops::ScalarOps::acc_mul(__v26.0, __v3),
                            ),
                            rt::ops::ScalarOps::acc_add(
                                __v25.1,
                                rt::ops::ScalarOps::acc_mul(__v26.1, __v3),
                            ),
                            rt::ops::ScalarOps::acc_add(
                                __v25.2,
                                rt::ops::ScalarOps::acc_mul(__v26.2, __v3),
                            ),
                        )
                    }
                }
            },
        );
        let __b5_c0: &[f32] = &__b5.0[..];
        let __b5_c1: &[f32] = &__b5.1[..];
        let __b5_c2: &[f32] = &__b5.2[..];
        __timer.end(__began, 2usize);
        __ctx.check()?;
        let __result = (
            {
                let (__c, __s) = (__b5, __b5_shape);
                rt::Array::<(f32, f32, f32), 1>::from_columns(__s, __c)?
            },
            {
                let (__c, __s) = (__b4, __b4_shape);
                rt::Array::<(f32, f32, f32), 1>::from_columns(__s, __c)?
            },
        );
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
