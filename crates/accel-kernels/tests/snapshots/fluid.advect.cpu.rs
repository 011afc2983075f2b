fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "advect",
            &["kernel 0: generate -> b3   fuses: generate"],
        );
        let __b0_shape = d0.shape();
        let __b0 = d0.try_columns()?;
        let __b0_c0: &[f32] = &__b0[..];
        let __b1_shape = u.shape();
        let __b1 = u.try_columns()?;
        let __b1_c0: &[f32] = &__b1[..];
        let __b2_shape = v.shape();
        let __b2 = v.try_columns()?;
        let __b2_c0: &[f32] = &__b2[..];
        let __v3 = dt;
        let __began = __timer.begin();
        let __h0: f32 = (rt::ops::ScalarOps::acc_sub(__b0_shape[1], (1usize)) as f32);
        let __h1: f32 = (rt::ops::ScalarOps::acc_sub(__b0_shape[0], (1usize)) as f32);
        let __h2: usize = rt::ops::ScalarOps::acc_sub(__b0_shape[1], (1usize));
        let __h3: usize = rt::ops::ScalarOps::acc_sub(__b0_shape[0], (1usize));
        let __b3_shape: [usize; 2] = [__b0_shape[0], __b0_shape[1]];
        rt::host::extent("generate", &__b3_shape)?;
        rt::cpu::reserve::<f32>("generate", &__b3_shape)?;
        let __b3: <f32 as rt::Elem>::Columns = if (([__b0_shape[0], __b0_shape[1]])[0])
            <= (__b1_shape)[0]
            && (([__b0_shape[0], __b0_shape[1]])[1]) <= (__b1_shape)[1]
            && (([__b0_shape[0], __b0_shape[1]])[0]) <= (__b2_shape)[0]
            && (([__b0_shape[0], __b0_shape[1]])[1]) <= (__b2_shape)[1]
        {
            {
                let (__rows, __len) = rt::cpu::rows_of(&__b3_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b3_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v7: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v8: usize = __v7[0];
                            {
                                let __v9: usize = __v7[1];
                                {
                                    let __v10: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v9 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v20 = [__v8, __v9];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "extents compared at kernel entry",
                                                            "index",
                                                            &__v20,
                                                            &__b1_shape,
                                                        );
                                                    }
                                                    {
                                                        let __o: usize = rt::shape::to_linear(&__b1_shape, &__v20);
                                                        unsafe { rt::cpu::at(__b1_c0, __o) }
                                                    }
                                                },
                                            ),
                                        ),
                                        f32::from_bits(0u32),
                                        __h0,
                                    );
                                    {
                                        let __v11: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v8 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v21 = [__v8, __v9];
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            rt::cpu::verify_elision(
                                                                "extents compared at kernel entry",
                                                                "index",
                                                                &__v21,
                                                                &__b2_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::shape::to_linear(&__b2_shape, &__v21);
                                                            unsafe { rt::cpu::at(__b2_c0, __o) }
                                                        }
                                                    },
                                                ),
                                            ),
                                            f32::from_bits(0u32),
                                            __h1,
                                        );
                                        {
                                            let __v12: usize = (<f32>::floor(__v10) as usize);
                                            {
                                                let __v13: usize = (<f32>::floor(__v11) as usize);
                                                {
                                                    let __v14: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v12, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v15: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v13, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v16: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v10,
                                                                (__v12 as f32),
                                                            );
                                                            {
                                                                let __v17: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v11,
                                                                    (__v13 as f32),
                                                                );
                                                                {
                                                                    let __v18: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v16,
                                                                    );
                                                                    {
                                                                        let __v19: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v17,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v18,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v19,
                                                                                        {
                                                                                            let __v22 = [__v13, __v12];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v22,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v22);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v17,
                                                                                        {
                                                                                            let __v23 = [__v15, __v12];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v23,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v23);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v16,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v19,
                                                                                        {
                                                                                            let __v24 = [__v13, __v14];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v24,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v24);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v17,
                                                                                        {
                                                                                            let __v25 = [__v15, __v14];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v25,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v25);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
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
                            }
                        }
                    },
                )
            }
        } else {
            {
                let (__rows, __len) = rt::cpu::rows_of(&__b3_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b3_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v7: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v8: usize = __v7[0];
                            {
                                let __v9: usize = __v7[1];
                                {
                                    let __v10: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v9 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v20 = [__v8, __v9];
                                                    if __ctx
                                                        .index(
                                                            "index",
                                                            ::core::option::Option::Some(
                                                                ::core::concat!(::core::file!(), ":1:655"),
                                                            ),
                                                            __v20,
                                                            __b1_shape,
                                                        )
                                                        .is_some()
                                                    {
                                                        {
                                                            let __o: usize = rt::shape::to_linear(&__b1_shape, &__v20);
                                                            unsafe { rt::cpu::at(__b1_c0, __o) }
                                                        }
                                                    } else {
                                                        ::core::default::Default::default()
                                                    }
                                                },
                                            ),
                                        ),
                                        f32::from_bits(0u32),
                                        __h0,
                                    );
                                    {
                                        let __v11: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v8 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v21 = [__v8, __v9];
                                                        if __ctx
                                                            .index(
                                                                "index",
                                                                ::core::option::Option::Some(
                                                                    ::core::concat!(::core::file!(), ":1:726"),
                                                                ),
                                                                __v21,
                                                                __b2_shape,
                                                            )
                                                            .is_some()
                                                        {
                                                            {
                                                                let __o: usize = rt::shape::to_linear(&__b2_shape, &__v21);
                                                                unsafe { rt::cpu::at(__b2_c0, __o) }
                                                            }
                                                        } else {
                                                            ::core::default::Default::default()
                                                        }
                                                    },
                                                ),
                                            ),
                                            f32::from_bits(0u32),
                                            __h1,
                                        );
                                        {
                                            let __v12: usize = (<f32>::floor(__v10) as usize);
                                            {
                                                let __v13: usize = (<f32>::floor(__v11) as usize);
                                                {
                                                    let __v14: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v12, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v15: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v13, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v16: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v10,
                                                                (__v12 as f32),
                                                            );
                                                            {
                                                                let __v17: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v11,
                                                                    (__v13 as f32),
                                                                );
                                                                {
                                                                    let __v18: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v16,
                                                                    );
                                                                    {
                                                                        let __v19: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v17,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v18,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v19,
                                                                                        {
                                                                                            let __v22 = [__v13, __v12];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v22,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v22);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v17,
                                                                                        {
                                                                                            let __v23 = [__v15, __v12];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v23,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v23);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v16,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v19,
                                                                                        {
                                                                                            let __v24 = [__v13, __v14];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v24,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v24);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v17,
                                                                                        {
                                                                                            let __v25 = [__v15, __v14];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v25,
                                                                                                    __b0_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v25);
                                                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
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
                            }
                        }
                    },
                )
            }
        };
        let __b3_c0: &[f32] = &__b3[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b3, __b3_shape);
            rt::Array::<f32, 2>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
