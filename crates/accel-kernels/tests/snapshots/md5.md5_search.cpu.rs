fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "md5_search",
            &[
                "kernel 0: generate -> b2   fuses: generate",
                "kernel 1: fold_all -> b5   fuses: generate -> fold1_all",
                "kernel 2: generate -> b6   fuses: generate",
                "kernel 3: generate -> b8   fuses: map",
            ],
        );
        let __b0_shape = target.shape();
        let __b0 = target.try_columns()?;
        let __b0_c0: &[u32] = &__b0[..];
        let __b1_shape = k.shape();
        let __b1 = k.try_columns()?;
        let __b1_c0: &[u32] = &__b1[..];
        let __v55 = __chunk_len;
        let __v56 = __chunk_elems;
        let __began = __timer.begin();
        let __b2_shape: [usize; 0] = [];
        rt::host::extent("generate", &__b2_shape)?;
        rt::cpu::reserve::<(u64, u64)>("generate", &__b2_shape)?;
        let __b2: <(u64, u64) as rt::Elem>::Columns = rt::cpu::generate::<
            <(u64, u64) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b2_shape),
            #[inline(always)]
            |__v63: usize| {
                let __v61: [usize; 0] = [];
                { ((0u64), (18446744073709551615u64)) }
            },
        );
        let __b2_c0: &[u64] = &__b2.0[..];
        let __b2_c1: &[u64] = &__b2.1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let mut __st0 = ((0usize), (__b2, __b2_shape));
        let (__v72, (__b7, __b7_shape)) = loop {
            let __item3 = match rt::seq::next_chunk::<
                _,
                1,
                2,
            >(&mut blocks, __v55, __v56)? {
                ::core::option::Option::Some(__x) => __x,
                ::core::option::Option::None => break __st0,
            };
            let __b3_shape = __item3.shape();
            let __b3 = __item3.try_columns()?;
            let __b3_c0: &[u32] = &__b3[..];
            let (__v57, (__b4, __b4_shape)) = __st0;
            let __b4_c0: &[u64] = &__b4.0[..];
            let __b4_c1: &[u64] = &__b4.1[..];
            if !(true) {
                break (__v57, (__b4, __b4_shape));
            }
            let __began = __timer.begin();
            let __b5_shape: [usize; 0] = [];
            rt::host::extent("fold1_all", &__b5_shape)?;
            rt::cpu::reserve::<(u64, u64)>("fold1_all", &__b5_shape)?;
            let __in5 = [__b3_shape[0]];
            rt::host::extent("fold1_all", &__in5)?;
            let (__rows, __len) = rt::cpu::rows_of(&__in5);
            #[allow(unused_variables)]
            let __rows_at = rt::cpu::IndexOf::new(&__in5);
            let __b5: <(u64, u64) as rt::Elem>::Columns = if ((0usize)) < (__b0_shape)[0]
                && ((1usize)) < (__b0_shape)[0] && ((2usize)) < (__b0_shape)[0]
                && ((3usize)) < (__b0_shape)[0]
            {
                match rt::cpu::fold1_all_fields(
                    rt::cpu::Order::Indexed,
                    rt::shape::size(&__in5),
                    #[inline(always)]
                    |__v70: usize| {
                        let __v59: [usize; 1] = [__v70];
                        {
                            let __v4: [usize; 0] = [];
                            {
                                let __v5: u32 = (1732584193u32);
                                {
                                    let __v6: u32 = (4023233417u32);
                                    {
                                        let __v7: u32 = (2562383102u32);
                                        {
                                            let __v8: u32 = (271733878u32);
                                            {
                                                let __v9: usize = (64usize);
                                                {
                                                    let __v43: (usize, u32, u32, u32, u32) = {
                                                        if (__v9) <= (__b1_shape)[0] {
                                                            {
                                                                let mut __state = { ((0usize), __v5, __v6, __v7, __v8) };
                                                                loop {
                                                                    let (__v10, __v11, __v12, __v13, __v14) = __state;
                                                                    if !((__v10 < __v9)) {
                                                                        break __state;
                                                                    }
                                                                    __state = {
                                                                        let __shared0 = {
                                                                            let __v34: (u32, usize, u32) = if (__v10 < (16usize)) {
                                                                                {
                                                                                    let __v18: u32 = ((__v12 & __v13) | ((!__v12) & __v14));
                                                                                    {
                                                                                        let __v19: usize = __v10;
                                                                                        {
                                                                                            let __v21: u32 = {
                                                                                                let __v20: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    __v10,
                                                                                                    (4usize),
                                                                                                );
                                                                                                {
                                                                                                    let __then = (7u32);
                                                                                                    let __else = {
                                                                                                        let __then = (12u32);
                                                                                                        let __else = {
                                                                                                            let __then = (17u32);
                                                                                                            let __else = (22u32);
                                                                                                            if (__v20 == (2usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v20 == (1usize)) { __then } else { __else }
                                                                                                    };
                                                                                                    if (__v20 == (0usize)) { __then } else { __else }
                                                                                                }
                                                                                            };
                                                                                            { (__v18, __v19, __v21) }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (__v10 < (32usize)) {
                                                                                    {
                                                                                        let __v22: u32 = ((__v14 & __v12) | ((!__v14) & __v13));
                                                                                        {
                                                                                            let __v23: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                rt::ops::ScalarOps::acc_add(
                                                                                                    rt::ops::ScalarOps::acc_mul((5usize), __v10),
                                                                                                    (1usize),
                                                                                                ),
                                                                                                (16usize),
                                                                                            );
                                                                                            {
                                                                                                let __v25: u32 = {
                                                                                                    let __v24: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                        __v10,
                                                                                                        (4usize),
                                                                                                    );
                                                                                                    {
                                                                                                        let __then = (5u32);
                                                                                                        let __else = {
                                                                                                            let __then = (9u32);
                                                                                                            let __else = {
                                                                                                                let __then = (14u32);
                                                                                                                let __else = (20u32);
                                                                                                                if (__v24 == (2usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v24 == (1usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v24 == (0usize)) { __then } else { __else }
                                                                                                    }
                                                                                                };
                                                                                                { (__v22, __v23, __v25) }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                } else {
                                                                                    if (__v10 < (48usize)) {
                                                                                        {
                                                                                            let __v26: u32 = ((__v12 ^ __v13) ^ __v14);
                                                                                            {
                                                                                                let __v27: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_mul((3usize), __v10),
                                                                                                        (5usize),
                                                                                                    ),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v29: u32 = {
                                                                                                        let __v28: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (4u32);
                                                                                                            let __else = {
                                                                                                                let __then = (11u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (16u32);
                                                                                                                    let __else = (23u32);
                                                                                                                    if (__v28 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v28 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v28 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v26, __v27, __v29) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    } else {
                                                                                        {
                                                                                            let __v30: u32 = (__v13 ^ (__v12 | (!__v14)));
                                                                                            {
                                                                                                let __v31: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_mul((7usize), __v10),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v33: u32 = {
                                                                                                        let __v32: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (6u32);
                                                                                                            let __else = {
                                                                                                                let __then = (10u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (15u32);
                                                                                                                    let __else = (21u32);
                                                                                                                    if (__v32 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v32 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v32 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v30, __v31, __v33) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v35: u32 = __v34.0;
                                                                                {
                                                                                    let __v36: usize = __v34.1;
                                                                                    {
                                                                                        let __v37: u32 = __v34.2;
                                                                                        {
                                                                                            let __v38: u32 = <u32>::wrapping_add(
                                                                                                <u32>::wrapping_add(
                                                                                                    <u32>::wrapping_add(__v11, __v35),
                                                                                                    {
                                                                                                        let __v64 = [__v10];
                                                                                                        if rt::cpu::VERIFY_ELISIONS {
                                                                                                            rt::cpu::verify_elision(
                                                                                                                "loop bound tested before the loop",
                                                                                                                "index",
                                                                                                                &__v64,
                                                                                                                &__b1_shape,
                                                                                                            );
                                                                                                        }
                                                                                                        {
                                                                                                            let __o: usize = rt::shape::to_linear(&__b1_shape, &__v64);
                                                                                                            unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                                        }
                                                                                                    },
                                                                                                ),
                                                                                                {
                                                                                                    let __v65 = [__v59[0], __v36];
                                                                                                    if __ctx
                                                                                                        .index(
                                                                                                            "index",
                                                                                                            ::core::option::Option::None,
                                                                                                            __v65,
                                                                                                            __b3_shape,
                                                                                                        )
                                                                                                        .is_some()
                                                                                                    {
                                                                                                        {
                                                                                                            let __o: usize = rt::shape::to_linear(&__b3_shape, &__v65);
                                                                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                                        }
                                                                                                    } else {
                                                                                                        ::core::default::Default::default()
                                                                                                    }
                                                                                                },
                                                                                            );
                                                                                            {
                                                                                                let __v39: u32 = __v14;
                                                                                                {
                                                                                                    let __v40: u32 = __v13;
                                                                                                    {
                                                                                                        let __v41: u32 = __v12;
                                                                                                        {
                                                                                                            let __v42: u32 = <u32>::wrapping_add(
                                                                                                                __v12,
                                                                                                                <u32>::rotate_left(__v38, __v37),
                                                                                                            );
                                                                                                            { (__v39, __v42, __v41, __v40) }
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
                                                                            rt::ops::ScalarOps::acc_add(__v10, (1usize)),
                                                                            __shared0.0,
                                                                            __shared0.1,
                                                                            __shared0.2,
                                                                            __shared0.3,
                                                                        )
                                                                    };
                                                                }
                                                            }
                                                        } else {
                                                            {
                                                                let mut __state = { ((0usize), __v5, __v6, __v7, __v8) };
                                                                loop {
                                                                    let (__v10, __v11, __v12, __v13, __v14) = __state;
                                                                    if !((__v10 < __v9)) {
                                                                        break __state;
                                                                    }
                                                                    __state = {
                                                                        let __shared0 = {
                                                                            let __v34: (u32, usize, u32) = if (__v10 < (16usize)) {
                                                                                {
                                                                                    let __v18: u32 = ((__v12 & __v13) | ((!__v12) & __v14));
                                                                                    {
                                                                                        let __v19: usize = __v10;
                                                                                        {
                                                                                            let __v21: u32 = {
                                                                                                let __v20: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    __v10,
                                                                                                    (4usize),
                                                                                                );
                                                                                                {
                                                                                                    let __then = (7u32);
                                                                                                    let __else = {
                                                                                                        let __then = (12u32);
                                                                                                        let __else = {
                                                                                                            let __then = (17u32);
                                                                                                            let __else = (22u32);
                                                                                                            if (__v20 == (2usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v20 == (1usize)) { __then } else { __else }
                                                                                                    };
                                                                                                    if (__v20 == (0usize)) { __then } else { __else }
                                                                                                }
                                                                                            };
                                                                                            { (__v18, __v19, __v21) }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (__v10 < (32usize)) {
                                                                                    {
                                                                                        let __v22: u32 = ((__v14 & __v12) | ((!__v14) & __v13));
                                                                                        {
                                                                                            let __v23: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                rt::ops::ScalarOps::acc_add(
                                                                                                    rt::ops::ScalarOps::acc_mul((5usize), __v10),
                                                                                                    (1usize),
                                                                                                ),
                                                                                                (16usize),
                                                                                            );
                                                                                            {
                                                                                                let __v25: u32 = {
                                                                                                    let __v24: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                        __v10,
                                                                                                        (4usize),
                                                                                                    );
                                                                                                    {
                                                                                                        let __then = (5u32);
                                                                                                        let __else = {
                                                                                                            let __then = (9u32);
                                                                                                            let __else = {
                                                                                                                let __then = (14u32);
                                                                                                                let __else = (20u32);
                                                                                                                if (__v24 == (2usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v24 == (1usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v24 == (0usize)) { __then } else { __else }
                                                                                                    }
                                                                                                };
                                                                                                { (__v22, __v23, __v25) }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                } else {
                                                                                    if (__v10 < (48usize)) {
                                                                                        {
                                                                                            let __v26: u32 = ((__v12 ^ __v13) ^ __v14);
                                                                                            {
                                                                                                let __v27: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_mul((3usize), __v10),
                                                                                                        (5usize),
                                                                                                    ),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v29: u32 = {
                                                                                                        let __v28: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (4u32);
                                                                                                            let __else = {
                                                                                                                let __then = (11u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (16u32);
                                                                                                                    let __else = (23u32);
                                                                                                                    if (__v28 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v28 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v28 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v26, __v27, __v29) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    } else {
                                                                                        {
                                                                                            let __v30: u32 = (__v13 ^ (__v12 | (!__v14)));
                                                                                            {
                                                                                                let __v31: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_mul((7usize), __v10),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v33: u32 = {
                                                                                                        let __v32: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (6u32);
                                                                                                            let __else = {
                                                                                                                let __then = (10u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (15u32);
                                                                                                                    let __else = (21u32);
                                                                                                                    if (__v32 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v32 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v32 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v30, __v31, __v33) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v35: u32 = __v34.0;
                                                                                {
                                                                                    let __v36: usize = __v34.1;
                                                                                    {
                                                                                        let __v37: u32 = __v34.2;
                                                                                        {
                                                                                            let __v38: u32 = <u32>::wrapping_add(
                                                                                                <u32>::wrapping_add(
                                                                                                    <u32>::wrapping_add(__v11, __v35),
                                                                                                    {
                                                                                                        let __v64 = [__v10];
                                                                                                        if __ctx
                                                                                                            .index(
                                                                                                                "index",
                                                                                                                ::core::option::Option::Some(
                                                                                                                    ::core::concat!(::core::file!(), ":1:1115"),
                                                                                                                ),
                                                                                                                __v64,
                                                                                                                __b1_shape,
                                                                                                            )
                                                                                                            .is_some()
                                                                                                        {
                                                                                                            {
                                                                                                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v64);
                                                                                                                unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                                            }
                                                                                                        } else {
                                                                                                            ::core::default::Default::default()
                                                                                                        }
                                                                                                    },
                                                                                                ),
                                                                                                {
                                                                                                    let __v65 = [__v59[0], __v36];
                                                                                                    if __ctx
                                                                                                        .index(
                                                                                                            "index",
                                                                                                            ::core::option::Option::None,
                                                                                                            __v65,
                                                                                                            __b3_shape,
                                                                                                        )
                                                                                                        .is_some()
                                                                                                    {
                                                                                                        {
                                                                                                            let __o: usize = rt::shape::to_linear(&__b3_shape, &__v65);
                                                                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                                        }
                                                                                                    } else {
                                                                                                        ::core::default::Default::default()
                                                                                                    }
                                                                                                },
                                                                                            );
                                                                                            {
                                                                                                let __v39: u32 = __v14;
                                                                                                {
                                                                                                    let __v40: u32 = __v13;
                                                                                                    {
                                                                                                        let __v41: u32 = __v12;
                                                                                                        {
                                                                                                            let __v42: u32 = <u32>::wrapping_add(
                                                                                                                __v12,
                                                                                                                <u32>::rotate_left(__v38, __v37),
                                                                                                            );
                                                                                                            { (__v39, __v42, __v41, __v40) }
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
                                                                            rt::ops::ScalarOps::acc_add(__v10, (1usize)),
                                                                            __shared0.0,
                                                                            __shared0.1,
                                                                            __shared0.2,
                                                                            __shared0.3,
                                                                        )
                                                                    };
                                                                }
                                                            }
                                                        }
                                                    };
                                                    {
                                                        let __v44: (u32, u32, u32, u32) = {
                                                            (__v43.1, __v43.2, __v43.3, __v43.4)
                                                        };
                                                        {
                                                            let __v45: u32 = __v44.0;
                                                            {
                                                                let __v46: u32 = __v44.1;
                                                                {
                                                                    let __v47: u32 = __v44.2;
                                                                    {
                                                                        let __v48: u32 = __v44.3;
                                                                        {
                                                                            let __v49: bool = ((((<u32>::wrapping_add(
                                                                                __v45,
                                                                                (1732584193u32),
                                                                            )
                                                                                == {
                                                                                    let __v66 = [(0usize)];
                                                                                    if rt::cpu::VERIFY_ELISIONS {
                                                                                        rt::cpu::verify_elision(
                                                                                            "extents compared at kernel entry",
                                                                                            "index",
                                                                                            &__v66,
                                                                                            &__b0_shape,
                                                                                        );
                                                                                    }
                                                                                    {
                                                                                        let __o: usize = rt::shape::to_linear(&__b0_shape, &__v66);
                                                                                        unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                    }
                                                                                })
                                                                                && (<u32>::wrapping_add(__v46, (4023233417u32))
                                                                                    == {
                                                                                        let __v67 = [(1usize)];
                                                                                        if rt::cpu::VERIFY_ELISIONS {
                                                                                            rt::cpu::verify_elision(
                                                                                                "extents compared at kernel entry",
                                                                                                "index",
                                                                                                &__v67,
                                                                                                &__b0_shape,
                                                                                            );
                                                                                        }
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v67);
                                                                                            unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                        }
                                                                                    }))
                                                                                && (<u32>::wrapping_add(__v47, (2562383102u32))
                                                                                    == {
                                                                                        let __v68 = [(2usize)];
                                                                                        if rt::cpu::VERIFY_ELISIONS {
                                                                                            rt::cpu::verify_elision(
                                                                                                "extents compared at kernel entry",
                                                                                                "index",
                                                                                                &__v68,
                                                                                                &__b0_shape,
                                                                                            );
                                                                                        }
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v68);
                                                                                            unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                        }
                                                                                    }))
                                                                                && (<u32>::wrapping_add(__v48, (271733878u32))
                                                                                    == {
                                                                                        let __v69 = [(3usize)];
                                                                                        if rt::cpu::VERIFY_ELISIONS {
                                                                                            rt::cpu::verify_elision(
                                                                                                "extents compared at kernel entry",
                                                                                                "index",
                                                                                                &__v69,
                                                                                                &__b0_shape,
                                                                                            );
                                                                                        }
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v69);
                                                                                            unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                        }
                                                                                    }));
                                                                            {
                                                                                (
                                                                                    (1u64),
                                                                                    {
                                                                                        let __then = (0u64);
                                                                                        let __else = (18446744073709551615u64);
                                                                                        if __v49 { __then } else { __else }
                                                                                    },
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
                            }
                        }
                    },
                    {
                        #[inline(always)]
                        |__v51: (u64, u64), __v52: (u64, u64)| -> (u64, u64) {
                            {
                                (
                                    rt::ops::ScalarOps::acc_add(__v51.0, __v52.0),
                                    {
                                        let __then = __v51.1;
                                        let __else = {
                                            let __then = rt::ops::ScalarOps::acc_add(__v51.0, __v52.1);
                                            let __else = (18446744073709551615u64);
                                            if (__v52.1 != (18446744073709551615u64)) {
                                                __then
                                            } else {
                                                __else
                                            }
                                        };
                                        if (__v51.1 != (18446744073709551615u64)) {
                                            __then
                                        } else {
                                            __else
                                        }
                                    },
                                )
                            }
                        }
                    },
                ) {
                    ::core::option::Option::Some(__x) => {
                        rt::Columns::from_elems(
                            &[(|__x: (u64, u64)| -> (u64, u64) { __x })(__x)],
                        )
                    }
                    ::core::option::Option::None => {
                        return ::core::result::Result::Err(
                            rt::cpu::empty_reduction("fold1_all")
                                .or_at(::core::option::Option::None),
                        );
                    }
                }
            } else {
                match rt::cpu::fold1_all_fields(
                    rt::cpu::Order::Indexed,
                    rt::shape::size(&__in5),
                    #[inline(always)]
                    |__v70: usize| {
                        let __v59: [usize; 1] = [__v70];
                        {
                            let __v4: [usize; 0] = [];
                            {
                                let __v5: u32 = (1732584193u32);
                                {
                                    let __v6: u32 = (4023233417u32);
                                    {
                                        let __v7: u32 = (2562383102u32);
                                        {
                                            let __v8: u32 = (271733878u32);
                                            {
                                                let __v9: usize = (64usize);
                                                {
                                                    let __v43: (usize, u32, u32, u32, u32) = {
                                                        if (__v9) <= (__b1_shape)[0] {
                                                            {
                                                                let mut __state = { ((0usize), __v5, __v6, __v7, __v8) };
                                                                loop {
                                                                    let (__v10, __v11, __v12, __v13, __v14) = __state;
                                                                    if !((__v10 < __v9)) {
                                                                        break __state;
                                                                    }
                                                                    __state = {
                                                                        let __shared0 = {
                                                                            let __v34: (u32, usize, u32) = if (__v10 < (16usize)) {
                                                                                {
                                                                                    let __v18: u32 = ((__v12 & __v13) | ((!__v12) & __v14));
                                                                                    {
                                                                                        let __v19: usize = __v10;
                                                                                        {
                                                                                            let __v21: u32 = {
                                                                                                let __v20: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    __v10,
                                                                                                    (4usize),
                                                                                                );
                                                                                                {
                                                                                                    let __then = (7u32);
                                                                                                    let __else = {
                                                                                                        let __then = (12u32);
                                                                                                        let __else = {
                                                                                                            let __then = (17u32);
                                                                                                            let __else = (22u32);
                                                                                                            if (__v20 == (2usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v20 == (1usize)) { __then } else { __else }
                                                                                                    };
                                                                                                    if (__v20 == (0usize)) { __then } else { __else }
                                                                                                }
                                                                                            };
                                                                                            { (__v18, __v19, __v21) }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (__v10 < (32usize)) {
                                                                                    {
                                                                                        let __v22: u32 = ((__v14 & __v12) | ((!__v14) & __v13));
                                                                                        {
                                                                                            let __v23: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                rt::ops::ScalarOps::acc_add(
                                                                                                    rt::ops::ScalarOps::acc_mul((5usize), __v10),
                                                                                                    (1usize),
                                                                                                ),
                                                                                                (16usize),
                                                                                            );
                                                                                            {
                                                                                                let __v25: u32 = {
                                                                                                    let __v24: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                        __v10,
                                                                                                        (4usize),
                                                                                                    );
                                                                                                    {
                                                                                                        let __then = (5u32);
                                                                                                        let __else = {
                                                                                                            let __then = (9u32);
                                                                                                            let __else = {
                                                                                                                let __then = (14u32);
                                                                                                                let __else = (20u32);
                                                                                                                if (__v24 == (2usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v24 == (1usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v24 == (0usize)) { __then } else { __else }
                                                                                                    }
                                                                                                };
                                                                                                { (__v22, __v23, __v25) }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                } else {
                                                                                    if (__v10 < (48usize)) {
                                                                                        {
                                                                                            let __v26: u32 = ((__v12 ^ __v13) ^ __v14);
                                                                                            {
                                                                                                let __v27: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_mul((3usize), __v10),
                                                                                                        (5usize),
                                                                                                    ),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v29: u32 = {
                                                                                                        let __v28: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (4u32);
                                                                                                            let __else = {
                                                                                                                let __then = (11u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (16u32);
                                                                                                                    let __else = (23u32);
                                                                                                                    if (__v28 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v28 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v28 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v26, __v27, __v29) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    } else {
                                                                                        {
                                                                                            let __v30: u32 = (__v13 ^ (__v12 | (!__v14)));
                                                                                            {
                                                                                                let __v31: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_mul((7usize), __v10),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v33: u32 = {
                                                                                                        let __v32: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (6u32);
                                                                                                            let __else = {
                                                                                                                let __then = (10u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (15u32);
                                                                                                                    let __else = (21u32);
                                                                                                                    if (__v32 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v32 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v32 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v30, __v31, __v33) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v35: u32 = __v34.0;
                                                                                {
                                                                                    let __v36: usize = __v34.1;
                                                                                    {
                                                                                        let __v37: u32 = __v34.2;
                                                                                        {
                                                                                            let __v38: u32 = <u32>::wrapping_add(
                                                                                                <u32>::wrapping_add(
                                                                                                    <u32>::wrapping_add(__v11, __v35),
                                                                                                    {
                                                                                                        let __v64 = [__v10];
                                                                                                        if rt::cpu::VERIFY_ELISIONS {
                                                                                                            rt::cpu::verify_elision(
                                                                                                                "loop bound tested before the loop",
                                                                                                                "index",
                                                                                                                &__v64,
                                                                                                                &__b1_shape,
                                                                                                            );
                                                                                                        }
                                                                                                        {
                                                                                                            let __o: usize = rt::shape::to_linear(&__b1_shape, &__v64);
                                                                                                            unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                                        }
                                                                                                    },
                                                                                                ),
                                                                                                {
                                                                                                    let __v65 = [__v59[0], __v36];
                                                                                                    if __ctx
                                                                                                        .index(
                                                                                                            "index",
                                                                                                            ::core::option::Option::None,
                                                                                                            __v65,
                                                                                                            __b3_shape,
                                                                                                        )
                                                                                                        .is_some()
                                                                                                    {
                                                                                                        {
                                                                                                            let __o: usize = rt::shape::to_linear(&__b3_shape, &__v65);
                                                                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                                        }
                                                                                                    } else {
                                                                                                        ::core::default::Default::default()
                                                                                                    }
                                                                                                },
                                                                                            );
                                                                                            {
                                                                                                let __v39: u32 = __v14;
                                                                                                {
                                                                                                    let __v40: u32 = __v13;
                                                                                                    {
                                                                                                        let __v41: u32 = __v12;
                                                                                                        {
                                                                                                            let __v42: u32 = <u32>::wrapping_add(
                                                                                                                __v12,
                                                                                                                <u32>::rotate_left(__v38, __v37),
                                                                                                            );
                                                                                                            { (__v39, __v42, __v41, __v40) }
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
                                                                            rt::ops::ScalarOps::acc_add(__v10, (1usize)),
                                                                            __shared0.0,
                                                                            __shared0.1,
                                                                            __shared0.2,
                                                                            __shared0.3,
                                                                        )
                                                                    };
                                                                }
                                                            }
                                                        } else {
                                                            {
                                                                let mut __state = { ((0usize), __v5, __v6, __v7, __v8) };
                                                                loop {
                                                                    let (__v10, __v11, __v12, __v13, __v14) = __state;
                                                                    if !((__v10 < __v9)) {
                                                                        break __state;
                                                                    }
                                                                    __state = {
                                                                        let __shared0 = {
                                                                            let __v34: (u32, usize, u32) = if (__v10 < (16usize)) {
                                                                                {
                                                                                    let __v18: u32 = ((__v12 & __v13) | ((!__v12) & __v14));
                                                                                    {
                                                                                        let __v19: usize = __v10;
                                                                                        {
                                                                                            let __v21: u32 = {
                                                                                                let __v20: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    __v10,
                                                                                                    (4usize),
                                                                                                );
                                                                                                {
                                                                                                    let __then = (7u32);
                                                                                                    let __else = {
                                                                                                        let __then = (12u32);
                                                                                                        let __else = {
                                                                                                            let __then = (17u32);
                                                                                                            let __else = (22u32);
                                                                                                            if (__v20 == (2usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v20 == (1usize)) { __then } else { __else }
                                                                                                    };
                                                                                                    if (__v20 == (0usize)) { __then } else { __else }
                                                                                                }
                                                                                            };
                                                                                            { (__v18, __v19, __v21) }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            } else {
                                                                                if (__v10 < (32usize)) {
                                                                                    {
                                                                                        let __v22: u32 = ((__v14 & __v12) | ((!__v14) & __v13));
                                                                                        {
                                                                                            let __v23: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                rt::ops::ScalarOps::acc_add(
                                                                                                    rt::ops::ScalarOps::acc_mul((5usize), __v10),
                                                                                                    (1usize),
                                                                                                ),
                                                                                                (16usize),
                                                                                            );
                                                                                            {
                                                                                                let __v25: u32 = {
                                                                                                    let __v24: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                        __v10,
                                                                                                        (4usize),
                                                                                                    );
                                                                                                    {
                                                                                                        let __then = (5u32);
                                                                                                        let __else = {
                                                                                                            let __then = (9u32);
                                                                                                            let __else = {
                                                                                                                let __then = (14u32);
                                                                                                                let __else = (20u32);
                                                                                                                if (__v24 == (2usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v24 == (1usize)) { __then } else { __else }
                                                                                                        };
                                                                                                        if (__v24 == (0usize)) { __then } else { __else }
                                                                                                    }
                                                                                                };
                                                                                                { (__v22, __v23, __v25) }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                } else {
                                                                                    if (__v10 < (48usize)) {
                                                                                        {
                                                                                            let __v26: u32 = ((__v12 ^ __v13) ^ __v14);
                                                                                            {
                                                                                                let __v27: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_mul((3usize), __v10),
                                                                                                        (5usize),
                                                                                                    ),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v29: u32 = {
                                                                                                        let __v28: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (4u32);
                                                                                                            let __else = {
                                                                                                                let __then = (11u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (16u32);
                                                                                                                    let __else = (23u32);
                                                                                                                    if (__v28 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v28 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v28 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v26, __v27, __v29) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    } else {
                                                                                        {
                                                                                            let __v30: u32 = (__v13 ^ (__v12 | (!__v14)));
                                                                                            {
                                                                                                let __v31: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                    rt::ops::ScalarOps::acc_mul((7usize), __v10),
                                                                                                    (16usize),
                                                                                                );
                                                                                                {
                                                                                                    let __v33: u32 = {
                                                                                                        let __v32: usize = rt::ops::ScalarOps::acc_rem(
                                                                                                            __v10,
                                                                                                            (4usize),
                                                                                                        );
                                                                                                        {
                                                                                                            let __then = (6u32);
                                                                                                            let __else = {
                                                                                                                let __then = (10u32);
                                                                                                                let __else = {
                                                                                                                    let __then = (15u32);
                                                                                                                    let __else = (21u32);
                                                                                                                    if (__v32 == (2usize)) { __then } else { __else }
                                                                                                                };
                                                                                                                if (__v32 == (1usize)) { __then } else { __else }
                                                                                                            };
                                                                                                            if (__v32 == (0usize)) { __then } else { __else }
                                                                                                        }
                                                                                                    };
                                                                                                    { (__v30, __v31, __v33) }
                                                                                                }
                                                                                            }
                                                                                        }
                                                                                    }
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v35: u32 = __v34.0;
                                                                                {
                                                                                    let __v36: usize = __v34.1;
                                                                                    {
                                                                                        let __v37: u32 = __v34.2;
                                                                                        {
                                                                                            let __v38: u32 = <u32>::wrapping_add(
                                                                                                <u32>::wrapping_add(
                                                                                                    <u32>::wrapping_add(__v11, __v35),
                                                                                                    {
                                                                                                        let __v64 = [__v10];
                                                                                                        if __ctx
                                                                                                            .index(
                                                                                                                "index",
                                                                                                                ::core::option::Option::Some(
                                                                                                                    ::core::concat!(::core::file!(), ":1:1115"),
                                                                                                                ),
                                                                                                                __v64,
                                                                                                                __b1_shape,
                                                                                                            )
                                                                                                            .is_some()
                                                                                                        {
                                                                                                            {
                                                                                                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v64);
                                                                                                                unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                                            }
                                                                                                        } else {
                                                                                                            ::core::default::Default::default()
                                                                                                        }
                                                                                                    },
                                                                                                ),
                                                                                                {
                                                                                                    let __v65 = [__v59[0], __v36];
                                                                                                    if __ctx
                                                                                                        .index(
                                                                                                            "index",
                                                                                                            ::core::option::Option::None,
                                                                                                            __v65,
                                                                                                            __b3_shape,
                                                                                                        )
                                                                                                        .is_some()
                                                                                                    {
                                                                                                        {
                                                                                                            let __o: usize = rt::shape::to_linear(&__b3_shape, &__v65);
                                                                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                                        }
                                                                                                    } else {
                                                                                                        ::core::default::Default::default()
                                                                                                    }
                                                                                                },
                                                                                            );
                                                                                            {
                                                                                                let __v39: u32 = __v14;
                                                                                                {
                                                                                                    let __v40: u32 = __v13;
                                                                                                    {
                                                                                                        let __v41: u32 = __v12;
                                                                                                        {
                                                                                                            let __v42: u32 = <u32>::wrapping_add(
                                                                                                                __v12,
                                                                                                                <u32>::rotate_left(__v38, __v37),
                                                                                                            );
                                                                                                            { (__v39, __v42, __v41, __v40) }
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
                                                                            rt::ops::ScalarOps::acc_add(__v10, (1usize)),
                                                                            __shared0.0,
                                                                            __shared0.1,
                                                                            __shared0.2,
                                                                            __shared0.3,
                                                                        )
                                                                    };
                                                                }
                                                            }
                                                        }
                                                    };
                                                    {
                                                        let __v44: (u32, u32, u32, u32) = {
                                                            (__v43.1, __v43.2, __v43.3, __v43.4)
                                                        };
                                                        {
                                                            let __v45: u32 = __v44.0;
                                                            {
                                                                let __v46: u32 = __v44.1;
                                                                {
                                                                    let __v47: u32 = __v44.2;
                                                                    {
                                                                        let __v48: u32 = __v44.3;
                                                                        {
                                                                            let __v49: bool = ((((<u32>::wrapping_add(
                                                                                __v45,
                                                                                (1732584193u32),
                                                                            )
                                                                                == {
                                                                                    let __v66 = [(0usize)];
                                                                                    if __ctx
                                                                                        .index(
                                                                                            "index",
                                                                                            ::core::option::Option::Some(
                                                                                                ::core::concat!(::core::file!(), ":1:1267"),
                                                                                            ),
                                                                                            __v66,
                                                                                            __b0_shape,
                                                                                        )
                                                                                        .is_some()
                                                                                    {
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v66);
                                                                                            unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                        }
                                                                                    } else {
                                                                                        ::core::default::Default::default()
                                                                                    }
                                                                                })
                                                                                && (<u32>::wrapping_add(__v46, (4023233417u32))
                                                                                    == {
                                                                                        let __v67 = [(1usize)];
                                                                                        if __ctx
                                                                                            .index(
                                                                                                "index",
                                                                                                ::core::option::Option::Some(
                                                                                                    ::core::concat!(::core::file!(), ":1:1316"),
                                                                                                ),
                                                                                                __v67,
                                                                                                __b0_shape,
                                                                                            )
                                                                                            .is_some()
                                                                                        {
                                                                                            {
                                                                                                let __o: usize = rt::shape::to_linear(&__b0_shape, &__v67);
                                                                                                unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                            }
                                                                                        } else {
                                                                                            ::core::default::Default::default()
                                                                                        }
                                                                                    }))
                                                                                && (<u32>::wrapping_add(__v47, (2562383102u32))
                                                                                    == {
                                                                                        let __v68 = [(2usize)];
                                                                                        if __ctx
                                                                                            .index(
                                                                                                "index",
                                                                                                ::core::option::Option::Some(
                                                                                                    ::core::concat!(::core::file!(), ":1:1365"),
                                                                                                ),
                                                                                                __v68,
                                                                                                __b0_shape,
                                                                                            )
                                                                                            .is_some()
                                                                                        {
                                                                                            {
                                                                                                let __o: usize = rt::shape::to_linear(&__b0_shape, &__v68);
                                                                                                unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                            }
                                                                                        } else {
                                                                                            ::core::default::Default::default()
                                                                                        }
                                                                                    }))
                                                                                && (<u32>::wrapping_add(__v48, (271733878u32))
                                                                                    == {
                                                                                        let __v69 = [(3usize)];
                                                                                        if __ctx
                                                                                            .index(
                                                                                                "index",
                                                                                                ::core::option::Option::Some(
                                                                                                    ::core::concat!(::core::file!(), ":1:1414"),
                                                                                                ),
                                                                                                __v69,
                                                                                                __b0_shape,
                                                                                            )
                                                                                            .is_some()
                                                                                        {
                                                                                            {
                                                                                                let __o: usize = rt::shape::to_linear(&__b0_shape, &__v69);
                                                                                                unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                                            }
                                                                                        } else {
                                                                                            ::core::default::Default::default()
                                                                                        }
                                                                                    }));
                                                                            {
                                                                                (
                                                                                    (1u64),
                                                                                    {
                                                                                        let __then = (0u64);
                                                                                        let __else = (18446744073709551615u64);
                                                                                        if __v49 { __then } else { __else }
                                                                                    },
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
                            }
                        }
                    },
                    {
                        #[inline(always)]
                        |__v51: (u64, u64), __v52: (u64, u64)| -> (u64, u64) {
                            {
                                (
                                    rt::ops::ScalarOps::acc_add(__v51.0, __v52.0),
                                    {
                                        let __then = __v51.1;
                                        let __else = {
                                            let __then = rt::ops::ScalarOps::acc_add(__v51.0, __v52.1);
                                            let __else = (18446744073709551615u64);
                                            if (__v52.1 != (18446744073709551615u64)) {
                                                __then
                                            } else {
                                                __else
                                            }
                                        };
                                        if (__v51.1 != (18446744073709551615u64)) {
                                            __then
                                        } else {
                                            __else
                                        }
                                    },
                                )
                            }
                        }
                    },
                ) {
                    ::core::option::Option::Some(__x) => {
                        rt::Columns::from_elems(
                            &[(|__x: (u64, u64)| -> (u64, u64) { __x })(__x)],
                        )
                    }
                    ::core::option::Option::None => {
                        return ::core::result::Result::Err(
                            rt::cpu::empty_reduction("fold1_all")
                                .or_at(::core::option::Option::None),
                        );
                    }
                }
            };
            let __b5_c0: &[u64] = &__b5.0[..];
            let __b5_c1: &[u64] = &__b5.1[..];
            __timer.end(__began, 1usize);
            __ctx.check()?;
            let __began = __timer.begin();
            let __b6_shape: [usize; 0] = [];
            rt::host::extent("generate", &__b6_shape)?;
            rt::cpu::reserve::<(u64, u64)>("generate", &__b6_shape)?;
            let __b6: <(u64, u64) as rt::Elem>::Columns = rt::cpu::generate::<
                <(u64, u64) as rt::Elem>::Columns,
            >(
                rt::shape::size(&__b6_shape),
                #[inline(always)]
                |__v71: usize| {
                    let __v62: [usize; 0] = [];
                    {
                        let __v51: (u64, u64) = {
                            let __o: usize = (0usize);
                            (
                                unsafe { rt::cpu::at(__b4_c0, __o) },
                                unsafe { rt::cpu::at(__b4_c1, __o) },
                            )
                        };
                        {
                            let __v52: (u64, u64) = {
                                let __o: usize = (0usize);
                                (
                                    unsafe { rt::cpu::at(__b5_c0, __o) },
                                    unsafe { rt::cpu::at(__b5_c1, __o) },
                                )
                            };
                            {
                                (
                                    rt::ops::ScalarOps::acc_add(__v51.0, __v52.0),
                                    {
                                        let __then = __v51.1;
                                        let __else = {
                                            let __then = rt::ops::ScalarOps::acc_add(__v51.0, __v52.1);
                                            let __else = (18446744073709551615u64);
                                            if (__v52.1 != (18446744073709551615u64)) {
                                                __then
                                            } else {
                                                __else
                                            }
                                        };
                                        if (__v51.1 != (18446744073709551615u64)) {
                                            __then
                                        } else {
                                            __else
                                        }
                                    },
                                )
                            }
                        }
                    }
                },
            );
            let __b6_c0: &[u64] = &__b6.0[..];
            let __b6_c1: &[u64] = &__b6.1[..];
            __timer.end(__began, 2usize);
            __ctx.check()?;
            rt::Columns::recycle(__b4);
            rt::Columns::recycle(__b5);
            let __res0 = rt::ops::ScalarOps::acc_add(__v57, __b3_shape[0]);
            __st0 = (__res0, (__b6, __b6_shape));
        };
        let __b7_c0: &[u64] = &__b7.0[..];
        let __b7_c1: &[u64] = &__b7.1[..];
        __ctx.check()?;
        let __began = __timer.begin();
        let __b8_shape: [usize; 0] = __b7_shape;
        rt::host::extent("map", &__b8_shape)?;
        rt::cpu::reserve::<u64>("map", &__b8_shape)?;
        let __b8: <u64 as rt::Elem>::Columns = rt::cpu::generate::<
            <u64 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b8_shape),
            #[inline(always)]
            |__v76: usize| {
                let __v54: (u64, u64) = {
                    let __v73: usize = __v76;
                    {
                        let __o: usize = __v73;
                        (
                            unsafe { rt::cpu::at(__b7_c0, __o) },
                            unsafe { rt::cpu::at(__b7_c1, __o) },
                        )
                    }
                };
                __v54.1
            },
        );
        let __b8_c0: &[u64] = &__b8[..];
        __timer.end(__began, 3usize);
        __ctx.check()?;
        rt::Columns::recycle(__b7);
        let __result = {
            let (__c, __s) = (__b8, __b8_shape);
            rt::Array::<u64, 0>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
