fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "kmeans_step",
            &[
                "kernel 0: generate -> b2   fuses: generate",
                "kernel 1: generate -> b3   fuses: map",
                "kernel 2: permute -> b4   fuses: map -> permute",
                "kernel 3: generate -> b5   fuses: zip_with",
            ],
        );
        let __b0_shape = points.shape();
        let __b0 = points.try_columns()?;
        let __b0_c0: &[f32] = &__b0.0[..];
        let __b0_c1: &[f32] = &__b0.1[..];
        let __b1_shape = centroids.shape();
        let __b1 = centroids.try_columns()?;
        let __b1_c0: &[f32] = &__b1.0[..];
        let __b1_c1: &[f32] = &__b1.1[..];
        let __began = __timer.begin();
        let __b2_shape: [usize; 1] = [__b1_shape[0]];
        rt::host::extent("generate", &__b2_shape)?;
        rt::cpu::reserve::<(f64, f64, u32)>("generate", &__b2_shape)?;
        let __b2: <(f64, f64, u32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f64, f64, u32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b2_shape),
            #[inline(always)]
            |__v35: usize| {
                let __v27: [usize; 1] = [__v35];
                { (f64::from_bits(0u64), f64::from_bits(0u64), (0u32)) }
            },
        );
        let __b2_c0: &[f64] = &__b2.0[..];
        let __b2_c1: &[f64] = &__b2.1[..];
        let __b2_c2: &[u32] = &__b2.2[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __b3_shape: [usize; 1] = __b0_shape;
        rt::host::extent("map", &__b3_shape)?;
        rt::cpu::reserve::<usize>("map", &__b3_shape)?;
        let __b3: <usize as rt::Elem>::Columns = rt::cpu::generate_row_lanes::<
            <usize as rt::Elem>::Columns,
            8usize,
        >(
            rt::shape::size(&__b3_shape),
            __b3_shape[0],
            #[inline(always)]
            |__v44: usize| {
                let __v3: (f32, f32) = {
                    let __v40: usize = __v44;
                    {
                        let __o: usize = __v40;
                        (
                            unsafe { rt::cpu::at(__b0_c0, __o) },
                            unsafe { rt::cpu::at(__b0_c1, __o) },
                        )
                    }
                };
                {
                    let __v4: usize = (0usize);
                    {
                        let __v5: f32 = f32::from_bits(2139095040u32);
                        {
                            let __v6: usize = __b1_shape[0];
                            {
                                let __v21: (usize, usize, f32) = {
                                    if (__v6) <= (__b1_shape)[0] {
                                        {
                                            let mut __state = { ((0usize), __v4, __v5) };
                                            loop {
                                                let (__v7, __v8, __v9) = __state;
                                                if !((__v7 < __v6)) {
                                                    break __state;
                                                }
                                                __state = {
                                                    let __shared0 = {
                                                        let __v10: (f32, f32) = {
                                                            let __v42 = [__v7];
                                                            if rt::cpu::VERIFY_ELISIONS {
                                                                rt::cpu::verify_elision(
                                                                    "loop counter below the extent",
                                                                    "index",
                                                                    &__v42,
                                                                    &__b1_shape,
                                                                );
                                                            }
                                                            {
                                                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                                (
                                                                    unsafe { rt::cpu::at(__b1_c0, __o) },
                                                                    unsafe { rt::cpu::at(__b1_c1, __o) },
                                                                )
                                                            }
                                                        };
                                                        {
                                                            let __v11: f32 = __v10.0;
                                                            {
                                                                let __v12: f32 = __v10.1;
                                                                {
                                                                    let __v13: f32 = rt::ops::ScalarOps::acc_sub(__v3.0, __v11);
                                                                    {
                                                                        let __v14: f32 = rt::ops::ScalarOps::acc_sub(__v3.1, __v12);
                                                                        {
                                                                            let __v15: f32 = rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_mul(__v13, __v13),
                                                                                rt::ops::ScalarOps::acc_mul(__v14, __v14),
                                                                            );
                                                                            {
                                                                                let __v18: (usize, f32) = {
                                                                                    let __then = {
                                                                                        let __v16: f32 = __v15;
                                                                                        {
                                                                                            let __v17: usize = __v7;
                                                                                            { (__v17, __v16) }
                                                                                        }
                                                                                    };
                                                                                    let __else = { (__v8, __v9) };
                                                                                    if (__v15 < __v9) { __then } else { __else }
                                                                                };
                                                                                {
                                                                                    let __v19: usize = __v18.0;
                                                                                    {
                                                                                        let __v20: f32 = __v18.1;
                                                                                        { (__v19, __v20) }
                                                                                    }
                                                                                }
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    };
                                                    (
                                                        rt::ops::ScalarOps::acc_add(__v7, (1usize)),
                                                        __shared0.0,
                                                        __shared0.1,
                                                    )
                                                };
                                            }
                                        }
                                    } else {
                                        {
                                            let mut __state = { ((0usize), __v4, __v5) };
                                            loop {
                                                let (__v7, __v8, __v9) = __state;
                                                if !((__v7 < __v6)) {
                                                    break __state;
                                                }
                                                __state = {
                                                    let __shared0 = {
                                                        let __v10: (f32, f32) = {
                                                            let __v42 = [__v7];
                                                            if rt::cpu::VERIFY_ELISIONS {
                                                                rt::cpu::verify_elision(
                                                                    "loop counter below the extent",
                                                                    "index",
                                                                    &__v42,
                                                                    &__b1_shape,
                                                                );
                                                            }
                                                            {
                                                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                                (
                                                                    unsafe { rt::cpu::at(__b1_c0, __o) },
                                                                    unsafe { rt::cpu::at(__b1_c1, __o) },
                                                                )
                                                            }
                                                        };
                                                        {
                                                            let __v11: f32 = __v10.0;
                                                            {
                                                                let __v12: f32 = __v10.1;
                                                                {
                                                                    let __v13: f32 = rt::ops::ScalarOps::acc_sub(__v3.0, __v11);
                                                                    {
                                                                        let __v14: f32 = rt::ops::ScalarOps::acc_sub(__v3.1, __v12);
                                                                        {
                                                                            let __v15: f32 = rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_mul(__v13, __v13),
                                                                                rt::ops::ScalarOps::acc_mul(__v14, __v14),
                                                                            );
                                                                            {
                                                                                let __v18: (usize, f32) = {
                                                                                    let __then = {
                                                                                        let __v16: f32 = __v15;
                                                                                        {
                                                                                            let __v17: usize = __v7;
                                                                                            { (__v17, __v16) }
                                                                                        }
                                                                                    };
                                                                                    let __else = { (__v8, __v9) };
                                                                                    if (__v15 < __v9) { __then } else { __else }
                                                                                };
                                                                                {
                                                                                    let __v19: usize = __v18.0;
                                                                                    {
                                                                                        let __v20: f32 = __v18.1;
                                                                                        { (__v19, __v20) }
                                                                                    }
                                                                                }
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    };
                                                    (
                                                        rt::ops::ScalarOps::acc_add(__v7, (1usize)),
                                                        __shared0.0,
                                                        __shared0.1,
                                                    )
                                                };
                                            }
                                        }
                                    }
                                };
                                {
                                    let __v22: (usize, f32) = { (__v21.1, __v21.2) };
                                    {
                                        let __v23: usize = __v22.0;
                                        __v23
                                    }
                                }
                            }
                        }
                    }
                }
            },
            |__i0: usize| -> [usize; 8] {
                let __v44: [usize; 8] = ::core::array::from_fn(|__l| __i0 + __l);
                {
                    let __v3: [(f32, f32); 8] = {
                        let __r: [(f32, f32); 8] = ::core::array::from_fn(|__l| {
                            let __v44 = __v44[__l];
                            {
                                let __v40: usize = __v44;
                                {
                                    let __o: usize = __v40;
                                    (
                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                    )
                                }
                            }
                        });
                        __r
                    };
                    {
                        let __v4: usize = { (0usize) };
                        {
                            let __v5: f32 = { f32::from_bits(2139095040u32) };
                            {
                                let __v6: usize = { __b1_shape[0] };
                                {
                                    let __v21: [(usize, usize, f32); 8] = {
                                        let mut __v7: usize = { (0usize) };
                                        let mut __v8: [usize; 8] = [{ __v4 }; 8];
                                        let mut __v9: [f32; 8] = [{ __v5 }; 8];
                                        loop {
                                            if !({ (__v7 < __v6) }) {
                                                break;
                                            }
                                            let __body3 = {
                                                let __once4 = {
                                                    {
                                                        let __v42 = [__v7];
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            rt::cpu::verify_elision(
                                                                "loop counter below the extent",
                                                                "index",
                                                                &__v42,
                                                                &__b1_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                            (
                                                                unsafe { rt::cpu::at(__b1_c0, __o) },
                                                                unsafe { rt::cpu::at(__b1_c1, __o) },
                                                            )
                                                        }
                                                    }
                                                };
                                                let __r: [(usize, f32); 8] = ::core::array::from_fn(|__l| {
                                                    let __v3 = __v3[__l];
                                                    let __v8 = __v8[__l];
                                                    let __v9 = __v9[__l];
                                                    {
                                                        let __v10: (f32, f32) = __once4;
                                                        {
                                                            let __v11: f32 = __v10.0;
                                                            {
                                                                let __v12: f32 = __v10.1;
                                                                {
                                                                    let __v13: f32 = rt::ops::ScalarOps::acc_sub(__v3.0, __v11);
                                                                    {
                                                                        let __v14: f32 = rt::ops::ScalarOps::acc_sub(__v3.1, __v12);
                                                                        {
                                                                            let __v15: f32 = rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_mul(__v13, __v13),
                                                                                rt::ops::ScalarOps::acc_mul(__v14, __v14),
                                                                            );
                                                                            {
                                                                                let __v18: (usize, f32) = {
                                                                                    let __then = {
                                                                                        let __v16: f32 = __v15;
                                                                                        {
                                                                                            let __v17: usize = __v7;
                                                                                            { (__v17, __v16) }
                                                                                        }
                                                                                    };
                                                                                    let __else = { (__v8, __v9) };
                                                                                    if (__v15 < __v9) { __then } else { __else }
                                                                                };
                                                                                {
                                                                                    let __v19: usize = __v18.0;
                                                                                    {
                                                                                        let __v20: f32 = __v18.1;
                                                                                        { (__v19, __v20) }
                                                                                    }
                                                                                }
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    }
                                                });
                                                __r
                                            };
                                            let __next0: usize = {
                                                rt::ops::ScalarOps::acc_add(__v7, (1usize))
                                            };
                                            let __next1: [usize; 8] = {
                                                let __r: [usize; 8] = ::core::array::from_fn(|__l| {
                                                    __body3[__l].0
                                                });
                                                __r
                                            };
                                            let __next2: [f32; 8] = {
                                                let __r: [f32; 8] = ::core::array::from_fn(|__l| {
                                                    __body3[__l].1
                                                });
                                                __r
                                            };
                                            __v7 = __next0;
                                            __v8 = __next1;
                                            __v9 = __next2;
                                        }
                                        let __r: [(usize, usize, f32); 8] = ::core::array::from_fn(|
                                            __l|
                                        (__v7, __v8[__l], __v9[__l]));
                                        __r
                                    };
                                    {
                                        let __r: [usize; 8] = ::core::array::from_fn(|__l| {
                                            let __v21 = __v21[__l];
                                            {
                                                let __v22: (usize, f32) = { (__v21.1, __v21.2) };
                                                {
                                                    let __v23: usize = __v22.0;
                                                    __v23
                                                }
                                            }
                                        });
                                        __r
                                    }
                                }
                            }
                        }
                    }
                }
            },
        );
        let __b3_c0: &[usize] = &__b3[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __b4_shape: [usize; 1] = __b2_shape;
        rt::host::extent("permute", &__b4_shape)?;
        rt::cpu::reserve::<(f64, f64, u32)>("permute", &__b4_shape)?;
        let __in4 = __b0_shape;
        rt::host::extent("permute", &__in4)?;
        let __index_of = rt::cpu::IndexOf::new(&__in4);
        let mut __b4: <(f64, f64, u32) as rt::Elem>::Columns = __b2;
        {
            let __ctx = &__ctx;
            rt::cpu::permute::<
                <(f64, f64, u32) as rt::Elem>::Columns,
            >(
                &mut __b4,
                rt::shape::size(&__in4),
                #[inline(always)]
                move |__i: usize| {
                    let __v28: [usize; 1] = __index_of.at(__i);
                    match {
                        let __v29: usize = __v28[0];
                        ::core::option::Option::Some([
                            {
                                let __v45 = [__v29];
                                if rt::cpu::VERIFY_ELISIONS {
                                    rt::cpu::verify_elision(
                                        "inside the iteration space",
                                        "index",
                                        &__v45,
                                        &__b3_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::shape::to_linear(&__b3_shape, &__v45);
                                    unsafe { rt::cpu::at(__b3_c0, __o) }
                                }
                            },
                        ])
                    } {
                        ::core::option::Option::Some(__t) => {
                            __ctx
                                .index(
                                    "permute",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:629"),
                                    ),
                                    __t,
                                    __b4_shape,
                                )
                        }
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                },
                #[inline(always)]
                move |__v39: usize| {
                    let __v26: (f32, f32) = {
                        let __v36: usize = __v39;
                        {
                            let __o: usize = __v36;
                            (
                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                unsafe { rt::cpu::at(__b0_c1, __o) },
                            )
                        }
                    };
                    { ((__v26.0 as f64), (__v26.1 as f64), (1u32)) }
                },
                {
                    #[inline(always)]
                    |__v30: (f64, f64, u32), __v31: (f64, f64, u32)| -> (f64, f64, u32) {
                        {
                            (
                                rt::ops::ScalarOps::acc_add(__v30.0, __v31.0),
                                rt::ops::ScalarOps::acc_add(__v30.1, __v31.1),
                                rt::ops::ScalarOps::acc_add(__v30.2, __v31.2),
                            )
                        }
                    }
                },
            );
        }
        let __b4_c0: &[f64] = &__b4.0[..];
        let __b4_c1: &[f64] = &__b4.1[..];
        let __b4_c2: &[u32] = &__b4.2[..];
        __timer.end(__began, 2usize);
        __ctx.check()?;
        rt::Columns::recycle(__b3);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b4_shape[0], __b1_shape[0]);
        let __b5_shape: [usize; 1] = [__h0];
        rt::host::extent("zip_with", &__b5_shape)?;
        rt::cpu::reserve::<(f32, f32)>("zip_with", &__b5_shape)?;
        let __b5: <(f32, f32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f32, f32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b5_shape),
            #[inline(always)]
            |__v51: usize| {
                let __v33: (f64, f64, u32) = {
                    let __v46: usize = __v51;
                    {
                        let __o: usize = __v46;
                        (
                            unsafe { rt::cpu::at(__b4_c0, __o) },
                            unsafe { rt::cpu::at(__b4_c1, __o) },
                            unsafe { rt::cpu::at(__b4_c2, __o) },
                        )
                    }
                };
                {
                    let __v34: (f32, f32) = {
                        let __v48: usize = __v51;
                        {
                            let __o: usize = __v48;
                            (
                                unsafe { rt::cpu::at(__b1_c0, __o) },
                                unsafe { rt::cpu::at(__b1_c1, __o) },
                            )
                        }
                    };
                    if (__v33.2 > (0u32)) {
                        {
                            (
                                (rt::ops::ScalarOps::acc_div(__v33.0, (__v33.2 as f64))
                                    as f32),
                                (rt::ops::ScalarOps::acc_div(__v33.1, (__v33.2 as f64))
                                    as f32),
                            )
                        }
                    } else {
                        __v34
                    }
                }
            },
        );
        let __b5_c0: &[f32] = &__b5.0[..];
        let __b5_c1: &[f32] = &__b5.1[..];
        __timer.end(__began, 3usize);
        __ctx.check()?;
        rt::Columns::recycle(__b4);
        let __result = {
            let (__c, __s) = (__b5, __b5_shape);
            rt::Array::<(f32, f32), 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
