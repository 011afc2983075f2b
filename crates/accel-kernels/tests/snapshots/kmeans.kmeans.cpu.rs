fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "kmeans",
            &[
                "kernel 0: generate -> b2   fuses: map",
                "kernel 1: generate -> b4   fuses: generate",
                "kernel 2: generate -> b5   fuses: map",
                "kernel 3: permute -> b6   fuses: map -> permute",
                "kernel 4: generate -> b7   fuses: zip_with",
            ],
        );
        let __b0_shape = points.shape();
        let __b0 = points.try_columns()?;
        let __b0_c0: &[f32] = &__b0.0[..];
        let __b0_c1: &[f32] = &__b0.1[..];
        let __b1_shape = initial.shape();
        let __b1 = initial.try_columns()?;
        let __b1_c0: &[f32] = &__b1.0[..];
        let __b1_c1: &[f32] = &__b1.1[..];
        let __v2 = iters;
        let __v5: usize = __v2;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b2_shape: [usize; 1] = __b1_shape;
        rt::host::extent("map", &__b2_shape)?;
        rt::cpu::reserve::<(f32, f32)>("map", &__b2_shape)?;
        let __b2: <(f32, f32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f32, f32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b2_shape),
            #[inline(always)]
            |__v50: usize| {
                let __v3: (f32, f32) = {
                    let __v47: usize = __v50;
                    {
                        let __o: usize = __v47;
                        (
                            unsafe { rt::cpu::at(__b1_c0, __o) },
                            unsafe { rt::cpu::at(__b1_c1, __o) },
                        )
                    }
                };
                __v3
            },
        );
        let __b2_c0: &[f32] = &__b2.0[..];
        let __b2_c1: &[f32] = &__b2.1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let mut __st0 = ((0usize), (__b2, __b2_shape));
        let (__v68, (__b8, __b8_shape)) = loop {
            let (__v6, (__b3, __b3_shape)) = __st0;
            let __b3_c0: &[f32] = &__b3.0[..];
            let __b3_c1: &[f32] = &__b3.1[..];
            if !((__v6 < __v5)) {
                break (__v6, (__b3, __b3_shape));
            }
            let __began = __timer.begin();
            let __b4_shape: [usize; 1] = [__b3_shape[0]];
            rt::host::extent("generate", &__b4_shape)?;
            rt::cpu::reserve::<(f64, f64, u32)>("generate", &__b4_shape)?;
            let __b4: <(f64, f64, u32) as rt::Elem>::Columns = rt::cpu::generate::<
                <(f64, f64, u32) as rt::Elem>::Columns,
            >(
                rt::shape::size(&__b4_shape),
                #[inline(always)]
                |__v51: usize| {
                    let __v35: [usize; 1] = [__v51];
                    { (f64::from_bits(0u64), f64::from_bits(0u64), (0u32)) }
                },
            );
            let __b4_c0: &[f64] = &__b4.0[..];
            let __b4_c1: &[f64] = &__b4.1[..];
            let __b4_c2: &[u32] = &__b4.2[..];
            __timer.end(__began, 1usize);
            __ctx.check()?;
            let __began = __timer.begin();
            let __b5_shape: [usize; 1] = __b0_shape;
            rt::host::extent("map", &__b5_shape)?;
            rt::cpu::reserve::<usize>("map", &__b5_shape)?;
            let __b5: <usize as rt::Elem>::Columns = rt::cpu::generate_row_lanes::<
                <usize as rt::Elem>::Columns,
                8usize,
            >(
                rt::shape::size(&__b5_shape),
                __b5_shape[0],
                #[inline(always)]
                |__v60: usize| {
                    let __v11: (f32, f32) = {
                        let __v56: usize = __v60;
                        {
                            let __o: usize = __v56;
                            (
                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                unsafe { rt::cpu::at(__b0_c1, __o) },
                            )
                        }
                    };
                    {
                        let __v12: usize = (0usize);
                        {
                            let __v13: f32 = f32::from_bits(2139095040u32);
                            {
                                let __v14: usize = __b3_shape[0];
                                {
                                    let __v29: (usize, usize, f32) = {
                                        if (__v14) <= (__b3_shape)[0] {
                                            {
                                                let mut __state = { ((0usize), __v12, __v13) };
                                                loop {
                                                    let (__v15, __v16, __v17) = __state;
                                                    if !((__v15 < __v14)) {
                                                        break __state;
                                                    }
                                                    __state = {
                                                        let __shared0 = {
                                                            let __v18: (f32, f32) = {
                                                                let __v58 = [__v15];
                                                                if rt::cpu::VERIFY_ELISIONS {
                                                                    rt::cpu::verify_elision(
                                                                        "loop counter below the extent",
                                                                        "index",
                                                                        &__v58,
                                                                        &__b3_shape,
                                                                    );
                                                                }
                                                                {
                                                                    let __o: usize = rt::shape::to_linear(&__b3_shape, &__v58);
                                                                    (
                                                                        unsafe { rt::cpu::at(__b3_c0, __o) },
                                                                        unsafe { rt::cpu::at(__b3_c1, __o) },
                                                                    )
                                                                }
                                                            };
                                                            {
                                                                let __v19: f32 = __v18.0;
                                                                {
                                                                    let __v20: f32 = __v18.1;
                                                                    {
                                                                        let __v21: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            __v11.0,
                                                                            __v19,
                                                                        );
                                                                        {
                                                                            let __v22: f32 = rt::ops::ScalarOps::acc_sub(
                                                                                __v11.1,
                                                                                __v20,
                                                                            );
                                                                            {
                                                                                let __v23: f32 = rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                    rt::ops::ScalarOps::acc_mul(__v22, __v22),
                                                                                );
                                                                                {
                                                                                    let __v26: (usize, f32) = {
                                                                                        let __then = {
                                                                                            let __v24: f32 = __v23;
                                                                                            {
                                                                                                let __v25: usize = __v15;
                                                                                                { (__v25, __v24) }
                                                                                            }
                                                                                        };
                                                                                        let __else = { (__v16, __v17) };
                                                                                        if (__v23 < __v17) { __then } else { __else }
                                                                                    };
                                                                                    {
                                                                                        let __v27: usize = __v26.0;
                                                                                        {
                                                                                            let __v28: f32 = __v26.1;
                                                                                            { (__v27, __v28) }
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
                                                            rt::ops::ScalarOps::acc_add(__v15, (1usize)),
                                                            __shared0.0,
                                                            __shared0.1,
                                                        )
                                                    };
                                                }
                                            }
                                        } else {
                                            {
                                                let mut __state = { ((0usize), __v12, __v13) };
                                                loop {
                                                    let (__v15, __v16, __v17) = __state;
                                                    if !((__v15 < __v14)) {
                                                        break __state;
                                                    }
                                                    __state = {
                                                        let __shared0 = {
                                                            let __v18: (f32, f32) = {
                                                                let __v58 = [__v15];
                                                                if rt::cpu::VERIFY_ELISIONS {
                                                                    rt::cpu::verify_elision(
                                                                        "loop counter below the extent",
                                                                        "index",
                                                                        &__v58,
                                                                        &__b3_shape,
                                                                    );
                                                                }
                                                                {
                                                                    let __o: usize = rt::shape::to_linear(&__b3_shape, &__v58);
                                                                    (
                                                                        unsafe { rt::cpu::at(__b3_c0, __o) },
                                                                        unsafe { rt::cpu::at(__b3_c1, __o) },
                                                                    )
                                                                }
                                                            };
                                                            {
                                                                let __v19: f32 = __v18.0;
                                                                {
                                                                    let __v20: f32 = __v18.1;
                                                                    {
                                                                        let __v21: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            __v11.0,
                                                                            __v19,
                                                                        );
                                                                        {
                                                                            let __v22: f32 = rt::ops::ScalarOps::acc_sub(
                                                                                __v11.1,
                                                                                __v20,
                                                                            );
                                                                            {
                                                                                let __v23: f32 = rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                    rt::ops::ScalarOps::acc_mul(__v22, __v22),
                                                                                );
                                                                                {
                                                                                    let __v26: (usize, f32) = {
                                                                                        let __then = {
                                                                                            let __v24: f32 = __v23;
                                                                                            {
                                                                                                let __v25: usize = __v15;
                                                                                                { (__v25, __v24) }
                                                                                            }
                                                                                        };
                                                                                        let __else = { (__v16, __v17) };
                                                                                        if (__v23 < __v17) { __then } else { __else }
                                                                                    };
                                                                                    {
                                                                                        let __v27: usize = __v26.0;
                                                                                        {
                                                                                            let __v28: f32 = __v26.1;
                                                                                            { (__v27, __v28) }
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
                                                            rt::ops::ScalarOps::acc_add(__v15, (1usize)),
                                                            __shared0.0,
                                                            __shared0.1,
                                                        )
                                                    };
                                                }
                                            }
                                        }
                                    };
                                    {
                                        let __v30: (usize, f32) = { (__v29.1, __v29.2) };
                                        {
                                            let __v31: usize = __v30.0;
                                            __v31
                                        }
                                    }
                                }
                            }
                        }
                    }
                },
                |__i0: usize| -> [usize; 8] {
                    let __v60: [usize; 8] = ::core::array::from_fn(|__l| __i0 + __l);
                    {
                        let __v11: [(f32, f32); 8] = {
                            let __r: [(f32, f32); 8] = ::core::array::from_fn(|__l| {
                                let __v60 = __v60[__l];
                                {
                                    let __v56: usize = __v60;
                                    {
                                        let __o: usize = __v56;
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
                            let __v12: usize = { (0usize) };
                            {
                                let __v13: f32 = { f32::from_bits(2139095040u32) };
                                {
                                    let __v14: usize = { __b3_shape[0] };
                                    {
                                        let __v29: [(usize, usize, f32); 8] = {
                                            let mut __v15: usize = { (0usize) };
                                            let mut __v16: [usize; 8] = [{ __v12 }; 8];
                                            let mut __v17: [f32; 8] = [{ __v13 }; 8];
                                            loop {
                                                if !({ (__v15 < __v14) }) {
                                                    break;
                                                }
                                                let __body3 = {
                                                    let __once4 = {
                                                        {
                                                            let __v58 = [__v15];
                                                            if rt::cpu::VERIFY_ELISIONS {
                                                                rt::cpu::verify_elision(
                                                                    "loop counter below the extent",
                                                                    "index",
                                                                    &__v58,
                                                                    &__b3_shape,
                                                                );
                                                            }
                                                            {
                                                                let __o: usize = rt::shape::to_linear(&__b3_shape, &__v58);
                                                                (
                                                                    unsafe { rt::cpu::at(__b3_c0, __o) },
                                                                    unsafe { rt::cpu::at(__b3_c1, __o) },
                                                                )
                                                            }
                                                        }
                                                    };
                                                    let __r: [(usize, f32); 8] = ::core::array::from_fn(|__l| {
                                                        let __v11 = __v11[__l];
                                                        let __v16 = __v16[__l];
                                                        let __v17 = __v17[__l];
                                                        {
                                                            let __v18: (f32, f32) = __once4;
                                                            {
                                                                let __v19: f32 = __v18.0;
                                                                {
                                                                    let __v20: f32 = __v18.1;
                                                                    {
                                                                        let __v21: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            __v11.0,
                                                                            __v19,
                                                                        );
                                                                        {
                                                                            let __v22: f32 = rt::ops::ScalarOps::acc_sub(
                                                                                __v11.1,
                                                                                __v20,
                                                                            );
                                                                            {
                                                                                let __v23: f32 = rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                    rt::ops::ScalarOps::acc_mul(__v22, __v22),
                                                                                );
                                                                                {
                                                                                    let __v26: (usize, f32) = {
                                                                                        let __then = {
                                                                                            let __v24: f32 = __v23;
                                                                                            {
                                                                                                let __v25: usize = __v15;
                                                                                                { (__v25, __v24) }
                                                                                            }
                                                                                        };
                                                                                        let __else = { (__v16, __v17) };
                                                                                        if (__v23 < __v17) { __then } else { __else }
                                                                                    };
                                                                                    {
                                                                                        let __v27: usize = __v26.0;
                                                                                        {
                                                                                            let __v28: f32 = __v26.1;
                                                                                            { (__v27, __v28) }
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
                                                    rt::ops::ScalarOps::acc_add(__v15, (1usize))
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
                                                __v15 = __next0;
                                                __v16 = __next1;
                                                __v17 = __next2;
                                            }
                                            let __r: [(usize, usize, f32); 8] = ::core::array::from_fn(|
                                                __l|
                                            (__v15, __v16[__l], __v17[__l]));
                                            __r
                                        };
                                        {
                                            let __r: [usize; 8] = ::core::array::from_fn(|__l| {
                                                let __v29 = __v29[__l];
                                                {
                                                    let __v30: (usize, f32) = { (__v29.1, __v29.2) };
                                                    {
                                                        let __v31: usize = __v30.0;
                                                        __v31
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
            let __b5_c0: &[usize] = &__b5[..];
            __timer.end(__began, 2usize);
            __ctx.check()?;
            let __began = __timer.begin();
            let __b6_shape: [usize; 1] = __b4_shape;
            rt::host::extent("permute", &__b6_shape)?;
            rt::cpu::reserve::<(f64, f64, u32)>("permute", &__b6_shape)?;
            let __in6 = __b0_shape;
            rt::host::extent("permute", &__in6)?;
            let __index_of = rt::cpu::IndexOf::new(&__in6);
            let mut __b6: <(f64, f64, u32) as rt::Elem>::Columns = __b4;
            {
                let __ctx = &__ctx;
                rt::cpu::permute::<
                    <(f64, f64, u32) as rt::Elem>::Columns,
                >(
                    &mut __b6,
                    rt::shape::size(&__in6),
                    #[inline(always)]
                    move |__i: usize| {
                        let __v36: [usize; 1] = __index_of.at(__i);
                        match {
                            let __v37: usize = __v36[0];
                            ::core::option::Option::Some([
                                {
                                    let __v61 = [__v37];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v61,
                                            &__b5_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b5_shape, &__v61);
                                        unsafe { rt::cpu::at(__b5_c0, __o) }
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
                                        __b6_shape,
                                    )
                            }
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    },
                    #[inline(always)]
                    move |__v55: usize| {
                        let __v34: (f32, f32) = {
                            let __v52: usize = __v55;
                            {
                                let __o: usize = __v52;
                                (
                                    unsafe { rt::cpu::at(__b0_c0, __o) },
                                    unsafe { rt::cpu::at(__b0_c1, __o) },
                                )
                            }
                        };
                        { ((__v34.0 as f64), (__v34.1 as f64), (1u32)) }
                    },
                    {
                        #[inline(always)]
                        |
                            __v38: (f64, f64, u32),
                            __v39: (f64, f64, u32),
                        | -> (f64, f64, u32) {
                            {
                                (
                                    rt::ops::ScalarOps::acc_add(__v38.0, __v39.0),
                                    rt::ops::ScalarOps::acc_add(__v38.1, __v39.1),
                                    rt::ops::ScalarOps::acc_add(__v38.2, __v39.2),
                                )
                            }
                        }
                    },
                );
            }
            let __b6_c0: &[f64] = &__b6.0[..];
            let __b6_c1: &[f64] = &__b6.1[..];
            let __b6_c2: &[u32] = &__b6.2[..];
            __timer.end(__began, 3usize);
            __ctx.check()?;
            rt::Columns::recycle(__b5);
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(__b6_shape[0], __b3_shape[0]);
            let __b7_shape: [usize; 1] = [__h0];
            rt::host::extent("zip_with", &__b7_shape)?;
            rt::cpu::reserve::<(f32, f32)>("zip_with", &__b7_shape)?;
            let __b7: <(f32, f32) as rt::Elem>::Columns = rt::cpu::generate::<
                <(f32, f32) as rt::Elem>::Columns,
            >(
                rt::shape::size(&__b7_shape),
                #[inline(always)]
                |__v67: usize| {
                    let __v41: (f64, f64, u32) = {
                        let __v62: usize = __v67;
                        {
                            let __o: usize = __v62;
                            (
                                unsafe { rt::cpu::at(__b6_c0, __o) },
                                unsafe { rt::cpu::at(__b6_c1, __o) },
                                unsafe { rt::cpu::at(__b6_c2, __o) },
                            )
                        }
                    };
                    {
                        let __v42: (f32, f32) = {
                            let __v64: usize = __v67;
                            {
                                let __o: usize = __v64;
                                (
                                    unsafe { rt::cpu::at(__b3_c0, __o) },
                                    unsafe { rt::cpu::at(__b3_c1, __o) },
                                )
                            }
                        };
                        if (__v41.2 > (0u32)) {
                            {
                                (
                                    (rt::ops::ScalarOps::acc_div(__v41.0, (__v41.2 as f64))
                                        as f32),
                                    (rt::ops::ScalarOps::acc_div(__v41.1, (__v41.2 as f64))
                                        as f32),
                                )
                            }
                        } else {
                            __v42
                        }
                    }
                },
            );
            let __b7_c0: &[f32] = &__b7.0[..];
            let __b7_c1: &[f32] = &__b7.1[..];
            __timer.end(__began, 4usize);
            __ctx.check()?;
            rt::Columns::recycle(__b3);
            rt::Columns::recycle(__b6);
            let __res0 = rt::ops::ScalarOps::acc_add(__v6, (1usize));
            __st0 = (__res0, (__b7, __b7_shape));
        };
        let __b8_c0: &[f32] = &__b8.0[..];
        let __b8_c1: &[f32] = &__b8.1[..];
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b8, __b8_shape);
            rt::Array::<(f32, f32), 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
