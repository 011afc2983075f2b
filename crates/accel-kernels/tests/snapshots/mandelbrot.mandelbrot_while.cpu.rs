fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "mandelbrot_while",
            &["kernel 0: generate -> b0   fuses: generate"],
        );
        let __v0 = w;
        let __v1 = h;
        let __v2 = limit;
        let __v3 = x0;
        let __v4 = y0;
        let __v5 = dx;
        let __v6 = dy;
        let __began = __timer.begin();
        let __b0_shape: [usize; 2] = [__v1, __v0];
        rt::host::extent("generate", &__b0_shape)?;
        rt::cpu::reserve::<u32>("generate", &__b0_shape)?;
        let __b0: <u32 as rt::Elem>::Columns = rt::cpu::generate_lanes::<
            <u32 as rt::Elem>::Columns,
            4usize,
        >(
            rt::shape::size(&__b0_shape),
            #[inline(always)]
            |__i: usize| {
                let __v7: [usize; 2] = rt::cpu::index_at(&__b0_shape, __i);
                {
                    let __v8: usize = __v7[0];
                    {
                        let __v9: usize = __v7[1];
                        {
                            let __v10: f32 = rt::ops::ScalarOps::acc_add(
                                __v3,
                                rt::ops::ScalarOps::acc_mul((__v9 as f32), __v5),
                            );
                            {
                                let __v11: f32 = rt::ops::ScalarOps::acc_add(
                                    __v4,
                                    rt::ops::ScalarOps::acc_mul((__v8 as f32), __v6),
                                );
                                {
                                    let __v12: f32 = f32::from_bits(0u32);
                                    {
                                        let __v13: f32 = f32::from_bits(0u32);
                                        {
                                            let __v14: u32 = (0u32);
                                            {
                                                let __v22: (u32, f32, f32) = {
                                                    let mut __state = { (__v14, __v13, __v12) };
                                                    loop {
                                                        let (__v15, __v16, __v17) = __state;
                                                        if !(((__v15 < __v2)
                                                            && (rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_mul(__v17, __v17),
                                                                rt::ops::ScalarOps::acc_mul(__v16, __v16),
                                                            ) <= f32::from_bits(1082130432u32))))
                                                        {
                                                            break __state;
                                                        }
                                                        __state = {
                                                            let __shared0 = {
                                                                let __v18: f32 = rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_sub(
                                                                        rt::ops::ScalarOps::acc_mul(__v17, __v17),
                                                                        rt::ops::ScalarOps::acc_mul(__v16, __v16),
                                                                    ),
                                                                    __v10,
                                                                );
                                                                {
                                                                    let __v19: f32 = rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                f32::from_bits(1073741824u32),
                                                                                __v17,
                                                                            ),
                                                                            __v16,
                                                                        ),
                                                                        __v11,
                                                                    );
                                                                    {
                                                                        let __v20: f32 = __v18;
                                                                        {
                                                                            let __v21: u32 = rt::ops::ScalarOps::acc_add(__v15, (1u32));
                                                                            { (__v21, __v19, __v20) }
                                                                        }
                                                                    }
                                                                }
                                                            };
                                                            (__shared0.0, __shared0.1, __shared0.2)
                                                        };
                                                    }
                                                };
                                                {
                                                    let __v23: u32 = __v22.0;
                                                    __v23
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
            |__i0: usize| -> [u32; 4] {
                let __v7 = ::core::array::from_fn::<
                    _,
                    4,
                    _,
                >(|__l| rt::cpu::index_at(&__b0_shape, __i0 + __l));
                {
                    let __v8: [usize; 4] = {
                        let __r: [usize; 4] = ::core::array::from_fn(|__l| {
                            let __v7 = __v7[__l];
                            __v7[0]
                        });
                        __r
                    };
                    {
                        let __v9: [usize; 4] = {
                            let __r: [usize; 4] = ::core::array::from_fn(|__l| {
                                let __v7 = __v7[__l];
                                __v7[1]
                            });
                            __r
                        };
                        {
                            let __v10: [f32; 4] = {
                                let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                    let __v9 = __v9[__l];
                                    rt::ops::ScalarOps::acc_add(
                                        __v3,
                                        rt::ops::ScalarOps::acc_mul((__v9 as f32), __v5),
                                    )
                                });
                                __r
                            };
                            {
                                let __v11: [f32; 4] = {
                                    let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                        let __v8 = __v8[__l];
                                        rt::ops::ScalarOps::acc_add(
                                            __v4,
                                            rt::ops::ScalarOps::acc_mul((__v8 as f32), __v6),
                                        )
                                    });
                                    __r
                                };
                                {
                                    let __v12: [f32; 4] = {
                                        let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                            f32::from_bits(0u32)
                                        });
                                        __r
                                    };
                                    {
                                        let __v13: [f32; 4] = {
                                            let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                                f32::from_bits(0u32)
                                            });
                                            __r
                                        };
                                        {
                                            let __v14: [u32; 4] = {
                                                let __r: [u32; 4] = ::core::array::from_fn(|__l| {
                                                    (0u32)
                                                });
                                                __r
                                            };
                                            {
                                                let __v22: [(u32, f32, f32); 4] = {
                                                    let mut __v15: [u32; 4] = {
                                                        let __r: [u32; 4] = ::core::array::from_fn(|__l| {
                                                            let __v14 = __v14[__l];
                                                            __v14
                                                        });
                                                        __r
                                                    };
                                                    let mut __v16: [f32; 4] = {
                                                        let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                                            let __v13 = __v13[__l];
                                                            __v13
                                                        });
                                                        __r
                                                    };
                                                    let mut __v17: [f32; 4] = {
                                                        let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                                            let __v12 = __v12[__l];
                                                            __v12
                                                        });
                                                        __r
                                                    };
                                                    let mut __live0: [bool; 4] = [true; 4];
                                                    loop {
                                                        let __c: [bool; 4] = {
                                                            let __r: [bool; 4] = ::core::array::from_fn(|__l| {
                                                                let __v15 = __v15[__l];
                                                                let __v16 = __v16[__l];
                                                                let __v17 = __v17[__l];
                                                                ((__v15 < __v2)
                                                                    & (rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_mul(__v17, __v17),
                                                                        rt::ops::ScalarOps::acc_mul(__v16, __v16),
                                                                    ) <= f32::from_bits(1082130432u32)))
                                                            });
                                                            __r
                                                        };
                                                        __live0 = ::core::array::from_fn(|__l| {
                                                            __live0[__l] & __c[__l]
                                                        });
                                                        if !__live0.iter().fold(false, |__a, __b| __a | *__b) {
                                                            break;
                                                        }
                                                        let __body4 = {
                                                            let __r: [(u32, f32, f32); 4] = ::core::array::from_fn(|
                                                                __l|
                                                            {
                                                                let __v10 = __v10[__l];
                                                                let __v11 = __v11[__l];
                                                                let __v15 = __v15[__l];
                                                                let __v16 = __v16[__l];
                                                                let __v17 = __v17[__l];
                                                                {
                                                                    let __v18: f32 = rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_sub(
                                                                            rt::ops::ScalarOps::acc_mul(__v17, __v17),
                                                                            rt::ops::ScalarOps::acc_mul(__v16, __v16),
                                                                        ),
                                                                        __v10,
                                                                    );
                                                                    {
                                                                        let __v19: f32 = rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    f32::from_bits(1073741824u32),
                                                                                    __v17,
                                                                                ),
                                                                                __v16,
                                                                            ),
                                                                            __v11,
                                                                        );
                                                                        {
                                                                            let __v20: f32 = __v18;
                                                                            {
                                                                                let __v21: u32 = rt::ops::ScalarOps::acc_add(__v15, (1u32));
                                                                                { (__v21, __v19, __v20) }
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            });
                                                            __r
                                                        };
                                                        let __next1: [u32; 4] = {
                                                            let __r: [u32; 4] = ::core::array::from_fn(|__l| {
                                                                __body4[__l].0
                                                            });
                                                            __r
                                                        };
                                                        let __next2: [f32; 4] = {
                                                            let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                                                __body4[__l].1
                                                            });
                                                            __r
                                                        };
                                                        let __next3: [f32; 4] = {
                                                            let __r: [f32; 4] = ::core::array::from_fn(|__l| {
                                                                __body4[__l].2
                                                            });
                                                            __r
                                                        };
                                                        __v15 = ::core::array::from_fn(|__l| {
                                                            if __live0[__l] { __next1[__l] } else { __v15[__l] }
                                                        });
                                                        __v16 = ::core::array::from_fn(|__l| {
                                                            if __live0[__l] { __next2[__l] } else { __v16[__l] }
                                                        });
                                                        __v17 = ::core::array::from_fn(|__l| {
                                                            if __live0[__l] { __next3[__l] } else { __v17[__l] }
                                                        });
                                                    }
                                                    let __r: [(u32, f32, f32); 4] = ::core::array::from_fn(|
                                                        __l|
                                                    (__v15[__l], __v16[__l], __v17[__l]));
                                                    __r
                                                };
                                                {
                                                    let __r: [u32; 4] = ::core::array::from_fn(|__l| {
                                                        let __v22 = __v22[__l];
                                                        {
                                                            let __v23: u32 = __v22.0;
                                                            __v23
                                                        }
                                                    });
                                                    __r
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
        let __b0_c0: &[u32] = &__b0[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b0, __b0_shape);
            rt::Array::<u32, 2>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
