fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "project",
            &[
                "kernel 0: generate -> b2   fuses: stencil",
                "kernel 1: generate -> b3   fuses: map",
                "kernel 2: generate -> b5   fuses: stencil",
                "kernel 3: generate -> b7   fuses: stencil",
                "kernel 4: generate -> b8   fuses: stencil",
            ],
        );
        let __b0_shape = u.shape();
        let __b0 = u.try_columns()?;
        let __b0_c0: &[f32] = &__b0[..];
        let __b1_shape = v.shape();
        let __b1 = v.try_columns()?;
        let __b1_c0: &[f32] = &__b1[..];
        let __v2 = iters;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b0_shape[0], __b1_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b0_shape[1], __b1_shape[1]);
        let __b2_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b2_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b2_shape)?;
        let __b2: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b2_shape,
                [1usize, 1usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b2_shape[0],
                            __b1_shape[0].saturating_sub(1usize),
                        ),
                        __b0_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b2_shape[1],
                            __b1_shape[1].saturating_sub(0usize),
                        ),
                        __b0_shape[1].saturating_sub(1usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v39: [usize; 2] = __ix;
                    {
                        let __v3: f32 = {
                            let __c: [usize; 2] = __v39;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b0_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b0_shape,
                                    &__c,
                                    [0isize, -1isize],
                                );
                                unsafe { rt::cpu::at(__b0_c0, __o) }
                            }
                        };
                        {
                            let __v5: f32 = {
                                let __c: [usize; 2] = __v39;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b0_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b0_shape,
                                        &__c,
                                        [0isize, 1isize],
                                    );
                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                }
                            };
                            {
                                let __v6: f32 = {
                                    let __c: [usize; 2] = __v39;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b1_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b1_shape,
                                            &__c,
                                            [-1isize, 0isize],
                                        );
                                        unsafe { rt::cpu::at(__b1_c0, __o) }
                                    }
                                };
                                {
                                    let __v8: f32 = {
                                        let __c: [usize; 2] = __v39;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b1_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b1_shape,
                                                &__c,
                                                [1isize, 0isize],
                                            );
                                            unsafe { rt::cpu::at(__b1_c0, __o) }
                                        }
                                    };
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(3204448256u32),
                                        rt::ops::ScalarOps::acc_sub(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_sub(__v5, __v3),
                                                __v8,
                                            ),
                                            __v6,
                                        ),
                                    )
                                }
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v39: [usize; 2] = __ix;
                    {
                        let __v3: f32 = {
                            let __c: [usize; 2] = __v39;
                            match rt::cpu::stencil::resolve(
                                &__b0_shape,
                                &__c,
                                [0isize, -1isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v5: f32 = {
                                let __c: [usize; 2] = __v39;
                                match rt::cpu::stencil::resolve(
                                    &__b0_shape,
                                    &__c,
                                    [0isize, 1isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b0_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v6: f32 = {
                                    let __c: [usize; 2] = __v39;
                                    match rt::cpu::stencil::resolve(
                                        &__b1_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b1_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v8: f32 = {
                                        let __c: [usize; 2] = __v39;
                                        match rt::cpu::stencil::resolve(
                                            &__b1_shape,
                                            &__c,
                                            [1isize, 0isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b1_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(3204448256u32),
                                        rt::ops::ScalarOps::acc_sub(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_sub(__v5, __v3),
                                                __v8,
                                            ),
                                            __v6,
                                        ),
                                    )
                                }
                            }
                        }
                    }
                },
            )
        };
        let __b2_c0: &[f32] = &__b2[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __v12: usize = __v2;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b3_shape: [usize; 2] = __b2_shape;
        rt::host::extent("map", &__b3_shape)?;
        rt::cpu::reserve::<f32>("map", &__b3_shape)?;
        let __b3: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b3_shape),
            #[inline(always)]
            |__v43: usize| {
                let __v10: f32 = {
                    let __v40: usize = __v43;
                    {
                        let __o: usize = __v40;
                        unsafe { rt::cpu::at(__b2_c0, __o) }
                    }
                };
                f32::from_bits(0u32)
            },
        );
        let __b3_c0: &[f32] = &__b3[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        let mut __st0 = ((0usize), (__b3, __b3_shape));
        let (__v45, (__b6, __b6_shape)) = loop {
            let (__v13, (__b4, __b4_shape)) = __st0;
            let __b4_c0: &[f32] = &__b4[..];
            if !((__v13 < __v12)) {
                break (__v13, (__b4, __b4_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(__b4_shape[0], __b2_shape[0]);
            let __h1: usize = rt::ops::ScalarOps::acc_min(__b4_shape[1], __b2_shape[1]);
            let __b5_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("stencil", &__b5_shape)?;
            rt::cpu::reserve::<f32>("stencil", &__b5_shape)?;
            let __b5: <f32 as rt::Elem>::Columns = {
                let __ctx = &__ctx;
                rt::cpu::stencil_generate::<
                    _,
                    2,
                >(
                    &__b5_shape,
                    [1usize, 1usize],
                    [
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b5_shape[0],
                                __b2_shape[0].saturating_sub(0usize),
                            ),
                            __b4_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b5_shape[1],
                                __b2_shape[1].saturating_sub(0usize),
                            ),
                            __b4_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v44: [usize; 2] = __ix;
                        {
                            let __v16: f32 = {
                                let __c: [usize; 2] = __v44;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b4_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b4_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b4_c0, __o) }
                                }
                            };
                            {
                                let __v18: f32 = {
                                    let __c: [usize; 2] = __v44;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b4_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b4_shape,
                                            &__c,
                                            [0isize, -1isize],
                                        );
                                        unsafe { rt::cpu::at(__b4_c0, __o) }
                                    }
                                };
                                {
                                    let __v20: f32 = {
                                        let __c: [usize; 2] = __v44;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b4_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b4_shape,
                                                &__c,
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b4_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v22: f32 = {
                                            let __c: [usize; 2] = __v44;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                                });
                                                rt::cpu::verify_elision(
                                                    "stencil interior",
                                                    "stencil",
                                                    &__n,
                                                    &__b4_shape,
                                                );
                                            }
                                            {
                                                let __o: usize = rt::cpu::stencil::offset_in(
                                                    &__b4_shape,
                                                    &__c,
                                                    [1isize, 0isize],
                                                );
                                                unsafe { rt::cpu::at(__b4_c0, __o) }
                                            }
                                        };
                                        {
                                            let __v24: f32 = {
                                                let __c: [usize; 2] = __v44;
                                                if rt::cpu::VERIFY_ELISIONS {
                                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                        (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                                    });
                                                    rt::cpu::verify_elision(
                                                        "stencil interior",
                                                        "stencil",
                                                        &__n,
                                                        &__b2_shape,
                                                    );
                                                }
                                                {
                                                    let __o: usize = rt::cpu::stencil::offset_in(
                                                        &__b2_shape,
                                                        &__c,
                                                        [0isize, 0isize],
                                                    );
                                                    unsafe { rt::cpu::at(__b2_c0, __o) }
                                                }
                                            };
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(__v24, __v16),
                                                            __v22,
                                                        ),
                                                        __v18,
                                                    ),
                                                    __v20,
                                                ),
                                                f32::from_bits(1048576000u32),
                                            )
                                        }
                                    }
                                }
                            }
                        }
                    },
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v44: [usize; 2] = __ix;
                        {
                            let __v16: f32 = {
                                let __c: [usize; 2] = __v44;
                                match rt::cpu::stencil::resolve(
                                    &__b4_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b4_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v18: f32 = {
                                    let __c: [usize; 2] = __v44;
                                    match rt::cpu::stencil::resolve(
                                        &__b4_shape,
                                        &__c,
                                        [0isize, -1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b4_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v20: f32 = {
                                        let __c: [usize; 2] = __v44;
                                        match rt::cpu::stencil::resolve(
                                            &__b4_shape,
                                            &__c,
                                            [0isize, 1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b4_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v22: f32 = {
                                            let __c: [usize; 2] = __v44;
                                            match rt::cpu::stencil::resolve(
                                                &__b4_shape,
                                                &__c,
                                                [1isize, 0isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    unsafe { rt::cpu::at(__b4_c0, __o) }
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v24: f32 = {
                                                let __c: [usize; 2] = __v44;
                                                match rt::cpu::stencil::resolve(
                                                    &__b2_shape,
                                                    &__c,
                                                    [0isize, 0isize],
                                                    rt::cpu::Bound::Clamp,
                                                ) {
                                                    ::core::option::Option::Some(__l) => {
                                                        let __o: usize = __l;
                                                        unsafe { rt::cpu::at(__b2_c0, __o) }
                                                    }
                                                    ::core::option::Option::None => {
                                                        ::core::default::Default::default()
                                                    }
                                                }
                                            };
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(__v24, __v16),
                                                            __v22,
                                                        ),
                                                        __v18,
                                                    ),
                                                    __v20,
                                                ),
                                                f32::from_bits(1048576000u32),
                                            )
                                        }
                                    }
                                }
                            }
                        }
                    },
                )
            };
            let __b5_c0: &[f32] = &__b5[..];
            __timer.end(__began, 2usize);
            __ctx.check()?;
            rt::Columns::recycle(__b4);
            let __res0 = rt::ops::ScalarOps::acc_add(__v13, (1usize));
            __st0 = (__res0, (__b5, __b5_shape));
        };
        let __b6_c0: &[f32] = &__b6[..];
        __ctx.check()?;
        rt::Columns::recycle(__b2);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b0_shape[0], __b6_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b0_shape[1], __b6_shape[1]);
        let __b7_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b7_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b7_shape)?;
        let __b7: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b7_shape,
                [0usize, 1usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b7_shape[0],
                            __b6_shape[0].saturating_sub(0usize),
                        ),
                        __b0_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b7_shape[1],
                            __b6_shape[1].saturating_sub(1usize),
                        ),
                        __b0_shape[1].saturating_sub(0usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v46: [usize; 2] = __ix;
                    {
                        let __v29: f32 = {
                            let __c: [usize; 2] = __v46;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b0_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b0_shape,
                                    &__c,
                                    [0isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b0_c0, __o) }
                            }
                        };
                        {
                            let __v30: f32 = {
                                let __c: [usize; 2] = __v46;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b6_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b6_shape,
                                        &__c,
                                        [0isize, -1isize],
                                    );
                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                }
                            };
                            {
                                let __v32: f32 = {
                                    let __c: [usize; 2] = __v46;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b6_shape,
                                            &__c,
                                            [0isize, 1isize],
                                        );
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v29,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v32, __v30),
                                    ),
                                )
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v46: [usize; 2] = __ix;
                    {
                        let __v29: f32 = {
                            let __c: [usize; 2] = __v46;
                            match rt::cpu::stencil::resolve(
                                &__b0_shape,
                                &__c,
                                [0isize, 0isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v30: f32 = {
                                let __c: [usize; 2] = __v46;
                                match rt::cpu::stencil::resolve(
                                    &__b6_shape,
                                    &__c,
                                    [0isize, -1isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v32: f32 = {
                                    let __c: [usize; 2] = __v46;
                                    match rt::cpu::stencil::resolve(
                                        &__b6_shape,
                                        &__c,
                                        [0isize, 1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b6_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v29,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v32, __v30),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b7_c0: &[f32] = &__b7[..];
        __timer.end(__began, 3usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b1_shape[0], __b6_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b1_shape[1], __b6_shape[1]);
        let __b8_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b8_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b8_shape)?;
        let __b8: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b8_shape,
                [1usize, 0usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b8_shape[0],
                            __b6_shape[0].saturating_sub(1usize),
                        ),
                        __b1_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b8_shape[1],
                            __b6_shape[1].saturating_sub(0usize),
                        ),
                        __b1_shape[1].saturating_sub(0usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v47: [usize; 2] = __ix;
                    {
                        let __v34: f32 = {
                            let __c: [usize; 2] = __v47;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b1_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b1_shape,
                                    &__c,
                                    [0isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b1_c0, __o) }
                            }
                        };
                        {
                            let __v35: f32 = {
                                let __c: [usize; 2] = __v47;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b6_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b6_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                }
                            };
                            {
                                let __v37: f32 = {
                                    let __c: [usize; 2] = __v47;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b6_shape,
                                            &__c,
                                            [1isize, 0isize],
                                        );
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v34,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v37, __v35),
                                    ),
                                )
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v47: [usize; 2] = __ix;
                    {
                        let __v34: f32 = {
                            let __c: [usize; 2] = __v47;
                            match rt::cpu::stencil::resolve(
                                &__b1_shape,
                                &__c,
                                [0isize, 0isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b1_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v35: f32 = {
                                let __c: [usize; 2] = __v47;
                                match rt::cpu::stencil::resolve(
                                    &__b6_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v37: f32 = {
                                    let __c: [usize; 2] = __v47;
                                    match rt::cpu::stencil::resolve(
                                        &__b6_shape,
                                        &__c,
                                        [1isize, 0isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b6_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v34,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v37, __v35),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b8_c0: &[f32] = &__b8[..];
        __timer.end(__began, 4usize);
        __ctx.check()?;
        rt::Columns::recycle(__b6);
        let __result = (
            {
                let (__c, __s) = (__b7, __b7_shape);
                rt::Array::<f32, 2>::from_columns(__s, __c)?
            },
            {
                let (__c, __s) = (__b8, __b8_shape);
                rt::Array::<f32, 2>::from_columns(__s, __c)?
            },
        );
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
