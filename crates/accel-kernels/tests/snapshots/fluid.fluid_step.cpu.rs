fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "fluid_step",
            &[
                "kernel 0: generate -> b3   fuses: map",
                "kernel 1: generate -> b5   fuses: stencil",
                "kernel 2: generate -> b7   fuses: map",
                "kernel 3: generate -> b9   fuses: stencil",
                "kernel 4: generate -> b11   fuses: map",
                "kernel 5: generate -> b13   fuses: stencil",
                "kernel 6: generate -> b15   fuses: stencil",
                "kernel 7: generate -> b16   fuses: map",
                "kernel 8: generate -> b18   fuses: stencil",
                "kernel 9: generate -> b20   fuses: stencil",
                "kernel 10: generate -> b21   fuses: stencil",
                "kernel 11: generate -> b22   fuses: generate",
                "kernel 12: generate -> b23   fuses: generate",
                "kernel 13: generate -> b24   fuses: stencil",
                "kernel 14: generate -> b25   fuses: map",
                "kernel 15: generate -> b27   fuses: stencil",
                "kernel 16: generate -> b29   fuses: stencil",
                "kernel 17: generate -> b30   fuses: stencil",
                "kernel 18: generate -> b31   fuses: generate",
            ],
        );
        let __b0_shape = dens.shape();
        let __b0 = dens.try_columns()?;
        let __b0_c0: &[f32] = &__b0[..];
        let __b1_shape = u.shape();
        let __b1 = u.try_columns()?;
        let __b1_c0: &[f32] = &__b1[..];
        let __b2_shape = v.shape();
        let __b2 = v.try_columns()?;
        let __b2_c0: &[f32] = &__b2[..];
        let __v3 = dt;
        let __v4 = visc;
        let __v5 = diff;
        let __v6 = iters;
        let __v180: f32 = rt::ops::ScalarOps::acc_mul(__v5, __v3);
        __ctx.check()?;
        let __v184: usize = __v6;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b3_shape: [usize; 2] = __b0_shape;
        rt::host::extent("map", &__b3_shape)?;
        rt::cpu::reserve::<f32>("map", &__b3_shape)?;
        let __b3: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b3_shape),
            #[inline(always)]
            |__v226: usize| {
                let __v182: f32 = {
                    let __v223: usize = __v226;
                    {
                        let __o: usize = __v223;
                        unsafe { rt::cpu::at(__b0_c0, __o) }
                    }
                };
                __v182
            },
        );
        let __b3_c0: &[f32] = &__b3[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let mut __st0 = ((0usize), (__b3, __b3_shape));
        let (__v228, (__b6, __b6_shape)) = loop {
            let (__v185, (__b4, __b4_shape)) = __st0;
            let __b4_c0: &[f32] = &__b4[..];
            if !((__v185 < __v184)) {
                break (__v185, (__b4, __b4_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(__b4_shape[0], __b0_shape[0]);
            let __h1: usize = rt::ops::ScalarOps::acc_min(__b4_shape[1], __b0_shape[1]);
            let __h2: f32 = rt::ops::ScalarOps::acc_add(
                f32::from_bits(1065353216u32),
                rt::ops::ScalarOps::acc_mul(f32::from_bits(1082130432u32), __v180),
            );
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
                                __b0_shape[0].saturating_sub(0usize),
                            ),
                            __b4_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b5_shape[1],
                                __b0_shape[1].saturating_sub(0usize),
                            ),
                            __b4_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v227: [usize; 2] = __ix;
                        {
                            let __v188: f32 = {
                                let __c: [usize; 2] = __v227;
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
                                let __v190: f32 = {
                                    let __c: [usize; 2] = __v227;
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
                                    let __v192: f32 = {
                                        let __c: [usize; 2] = __v227;
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
                                        let __v194: f32 = {
                                            let __c: [usize; 2] = __v227;
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
                                            let __v196: f32 = {
                                                let __c: [usize; 2] = __v227;
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
                                            rt::ops::ScalarOps::acc_div(
                                                rt::ops::ScalarOps::acc_add(
                                                    __v196,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v180,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v188, __v194),
                                                                __v190,
                                                            ),
                                                            __v192,
                                                        ),
                                                    ),
                                                ),
                                                __h2,
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
                        let __v227: [usize; 2] = __ix;
                        {
                            let __v188: f32 = {
                                let __c: [usize; 2] = __v227;
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
                                let __v190: f32 = {
                                    let __c: [usize; 2] = __v227;
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
                                    let __v192: f32 = {
                                        let __c: [usize; 2] = __v227;
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
                                        let __v194: f32 = {
                                            let __c: [usize; 2] = __v227;
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
                                            let __v196: f32 = {
                                                let __c: [usize; 2] = __v227;
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
                                            rt::ops::ScalarOps::acc_div(
                                                rt::ops::ScalarOps::acc_add(
                                                    __v196,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v180,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v188, __v194),
                                                                __v190,
                                                            ),
                                                            __v192,
                                                        ),
                                                    ),
                                                ),
                                                __h2,
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
            __timer.end(__began, 1usize);
            __ctx.check()?;
            rt::Columns::recycle(__b4);
            let __res0 = rt::ops::ScalarOps::acc_add(__v185, (1usize));
            __st0 = (__res0, (__b5, __b5_shape));
        };
        let __b6_c0: &[f32] = &__b6[..];
        __ctx.check()?;
        let __v207: usize = __b6_shape[0];
        __ctx.check()?;
        let __v208: usize = __b6_shape[1];
        __ctx.check()?;
        let __v8: f32 = rt::ops::ScalarOps::acc_mul(__v4, __v3);
        __ctx.check()?;
        let __v12: usize = __v6;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b7_shape: [usize; 2] = __b1_shape;
        rt::host::extent("map", &__b7_shape)?;
        rt::cpu::reserve::<f32>("map", &__b7_shape)?;
        let __b7: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b7_shape),
            #[inline(always)]
            |__v232: usize| {
                let __v10: f32 = {
                    let __v229: usize = __v232;
                    {
                        let __o: usize = __v229;
                        unsafe { rt::cpu::at(__b1_c0, __o) }
                    }
                };
                __v10
            },
        );
        let __b7_c0: &[f32] = &__b7[..];
        __timer.end(__began, 2usize);
        __ctx.check()?;
        let mut __st1 = ((0usize), (__b7, __b7_shape));
        let (__v234, (__b10, __b10_shape)) = loop {
            let (__v13, (__b8, __b8_shape)) = __st1;
            let __b8_c0: &[f32] = &__b8[..];
            if !((__v13 < __v12)) {
                break (__v13, (__b8, __b8_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(__b8_shape[0], __b1_shape[0]);
            let __h1: usize = rt::ops::ScalarOps::acc_min(__b8_shape[1], __b1_shape[1]);
            let __h2: f32 = rt::ops::ScalarOps::acc_add(
                f32::from_bits(1065353216u32),
                rt::ops::ScalarOps::acc_mul(f32::from_bits(1082130432u32), __v8),
            );
            let __b9_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("stencil", &__b9_shape)?;
            rt::cpu::reserve::<f32>("stencil", &__b9_shape)?;
            let __b9: <f32 as rt::Elem>::Columns = {
                let __ctx = &__ctx;
                rt::cpu::stencil_generate::<
                    _,
                    2,
                >(
                    &__b9_shape,
                    [1usize, 1usize],
                    [
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b9_shape[0],
                                __b1_shape[0].saturating_sub(0usize),
                            ),
                            __b8_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b9_shape[1],
                                __b1_shape[1].saturating_sub(0usize),
                            ),
                            __b8_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v233: [usize; 2] = __ix;
                        {
                            let __v16: f32 = {
                                let __c: [usize; 2] = __v233;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b8_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b8_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b8_c0, __o) }
                                }
                            };
                            {
                                let __v18: f32 = {
                                    let __c: [usize; 2] = __v233;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b8_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b8_shape,
                                            &__c,
                                            [0isize, -1isize],
                                        );
                                        unsafe { rt::cpu::at(__b8_c0, __o) }
                                    }
                                };
                                {
                                    let __v20: f32 = {
                                        let __c: [usize; 2] = __v233;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b8_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b8_shape,
                                                &__c,
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b8_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v22: f32 = {
                                            let __c: [usize; 2] = __v233;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                                });
                                                rt::cpu::verify_elision(
                                                    "stencil interior",
                                                    "stencil",
                                                    &__n,
                                                    &__b8_shape,
                                                );
                                            }
                                            {
                                                let __o: usize = rt::cpu::stencil::offset_in(
                                                    &__b8_shape,
                                                    &__c,
                                                    [1isize, 0isize],
                                                );
                                                unsafe { rt::cpu::at(__b8_c0, __o) }
                                            }
                                        };
                                        {
                                            let __v24: f32 = {
                                                let __c: [usize; 2] = __v233;
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
                                            rt::ops::ScalarOps::acc_div(
                                                rt::ops::ScalarOps::acc_add(
                                                    __v24,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v8,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v16, __v22),
                                                                __v18,
                                                            ),
                                                            __v20,
                                                        ),
                                                    ),
                                                ),
                                                __h2,
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
                        let __v233: [usize; 2] = __ix;
                        {
                            let __v16: f32 = {
                                let __c: [usize; 2] = __v233;
                                match rt::cpu::stencil::resolve(
                                    &__b8_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b8_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v18: f32 = {
                                    let __c: [usize; 2] = __v233;
                                    match rt::cpu::stencil::resolve(
                                        &__b8_shape,
                                        &__c,
                                        [0isize, -1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b8_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v20: f32 = {
                                        let __c: [usize; 2] = __v233;
                                        match rt::cpu::stencil::resolve(
                                            &__b8_shape,
                                            &__c,
                                            [0isize, 1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b8_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v22: f32 = {
                                            let __c: [usize; 2] = __v233;
                                            match rt::cpu::stencil::resolve(
                                                &__b8_shape,
                                                &__c,
                                                [1isize, 0isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    unsafe { rt::cpu::at(__b8_c0, __o) }
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v24: f32 = {
                                                let __c: [usize; 2] = __v233;
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
                                            rt::ops::ScalarOps::acc_div(
                                                rt::ops::ScalarOps::acc_add(
                                                    __v24,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v8,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v16, __v22),
                                                                __v18,
                                                            ),
                                                            __v20,
                                                        ),
                                                    ),
                                                ),
                                                __h2,
                                            )
                                        }
                                    }
                                }
                            }
                        }
                    },
                )
            };
            let __b9_c0: &[f32] = &__b9[..];
            __timer.end(__began, 3usize);
            __ctx.check()?;
            rt::Columns::recycle(__b8);
            let __res0 = rt::ops::ScalarOps::acc_add(__v13, (1usize));
            __st1 = (__res0, (__b9, __b9_shape));
        };
        let __b10_c0: &[f32] = &__b10[..];
        __ctx.check()?;
        let __v31: f32 = rt::ops::ScalarOps::acc_mul(__v4, __v3);
        __ctx.check()?;
        let __v35: usize = __v6;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b11_shape: [usize; 2] = __b2_shape;
        rt::host::extent("map", &__b11_shape)?;
        rt::cpu::reserve::<f32>("map", &__b11_shape)?;
        let __b11: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b11_shape),
            #[inline(always)]
            |__v238: usize| {
                let __v33: f32 = {
                    let __v235: usize = __v238;
                    {
                        let __o: usize = __v235;
                        unsafe { rt::cpu::at(__b2_c0, __o) }
                    }
                };
                __v33
            },
        );
        let __b11_c0: &[f32] = &__b11[..];
        __timer.end(__began, 4usize);
        __ctx.check()?;
        let mut __st2 = ((0usize), (__b11, __b11_shape));
        let (__v240, (__b14, __b14_shape)) = loop {
            let (__v36, (__b12, __b12_shape)) = __st2;
            let __b12_c0: &[f32] = &__b12[..];
            if !((__v36 < __v35)) {
                break (__v36, (__b12, __b12_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(__b12_shape[0], __b2_shape[0]);
            let __h1: usize = rt::ops::ScalarOps::acc_min(__b12_shape[1], __b2_shape[1]);
            let __h2: f32 = rt::ops::ScalarOps::acc_add(
                f32::from_bits(1065353216u32),
                rt::ops::ScalarOps::acc_mul(f32::from_bits(1082130432u32), __v31),
            );
            let __b13_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("stencil", &__b13_shape)?;
            rt::cpu::reserve::<f32>("stencil", &__b13_shape)?;
            let __b13: <f32 as rt::Elem>::Columns = {
                let __ctx = &__ctx;
                rt::cpu::stencil_generate::<
                    _,
                    2,
                >(
                    &__b13_shape,
                    [1usize, 1usize],
                    [
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b13_shape[0],
                                __b2_shape[0].saturating_sub(0usize),
                            ),
                            __b12_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b13_shape[1],
                                __b2_shape[1].saturating_sub(0usize),
                            ),
                            __b12_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v239: [usize; 2] = __ix;
                        {
                            let __v39: f32 = {
                                let __c: [usize; 2] = __v239;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b12_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b12_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b12_c0, __o) }
                                }
                            };
                            {
                                let __v41: f32 = {
                                    let __c: [usize; 2] = __v239;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b12_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b12_shape,
                                            &__c,
                                            [0isize, -1isize],
                                        );
                                        unsafe { rt::cpu::at(__b12_c0, __o) }
                                    }
                                };
                                {
                                    let __v43: f32 = {
                                        let __c: [usize; 2] = __v239;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b12_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b12_shape,
                                                &__c,
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b12_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v45: f32 = {
                                            let __c: [usize; 2] = __v239;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                                });
                                                rt::cpu::verify_elision(
                                                    "stencil interior",
                                                    "stencil",
                                                    &__n,
                                                    &__b12_shape,
                                                );
                                            }
                                            {
                                                let __o: usize = rt::cpu::stencil::offset_in(
                                                    &__b12_shape,
                                                    &__c,
                                                    [1isize, 0isize],
                                                );
                                                unsafe { rt::cpu::at(__b12_c0, __o) }
                                            }
                                        };
                                        {
                                            let __v47: f32 = {
                                                let __c: [usize; 2] = __v239;
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
                                            rt::ops::ScalarOps::acc_div(
                                                rt::ops::ScalarOps::acc_add(
                                                    __v47,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v31,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v39, __v45),
                                                                __v41,
                                                            ),
                                                            __v43,
                                                        ),
                                                    ),
                                                ),
                                                __h2,
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
                        let __v239: [usize; 2] = __ix;
                        {
                            let __v39: f32 = {
                                let __c: [usize; 2] = __v239;
                                match rt::cpu::stencil::resolve(
                                    &__b12_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b12_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v41: f32 = {
                                    let __c: [usize; 2] = __v239;
                                    match rt::cpu::stencil::resolve(
                                        &__b12_shape,
                                        &__c,
                                        [0isize, -1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b12_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v43: f32 = {
                                        let __c: [usize; 2] = __v239;
                                        match rt::cpu::stencil::resolve(
                                            &__b12_shape,
                                            &__c,
                                            [0isize, 1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b12_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v45: f32 = {
                                            let __c: [usize; 2] = __v239;
                                            match rt::cpu::stencil::resolve(
                                                &__b12_shape,
                                                &__c,
                                                [1isize, 0isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    unsafe { rt::cpu::at(__b12_c0, __o) }
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v47: f32 = {
                                                let __c: [usize; 2] = __v239;
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
                                            rt::ops::ScalarOps::acc_div(
                                                rt::ops::ScalarOps::acc_add(
                                                    __v47,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v31,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v39, __v45),
                                                                __v41,
                                                            ),
                                                            __v43,
                                                        ),
                                                    ),
                                                ),
                                                __h2,
                                            )
                                        }
                                    }
                                }
                            }
                        }
                    },
                )
            };
            let __b13_c0: &[f32] = &__b13[..];
            __timer.end(__began, 5usize);
            __ctx.check()?;
            rt::Columns::recycle(__b12);
            let __res0 = rt::ops::ScalarOps::acc_add(__v36, (1usize));
            __st2 = (__res0, (__b13, __b13_shape));
        };
        let __b14_c0: &[f32] = &__b14[..];
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b10_shape[0], __b14_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b10_shape[1], __b14_shape[1]);
        let __b15_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b15_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b15_shape)?;
        let __b15: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b15_shape,
                [1usize, 1usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b15_shape[0],
                            __b14_shape[0].saturating_sub(1usize),
                        ),
                        __b10_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b15_shape[1],
                            __b14_shape[1].saturating_sub(0usize),
                        ),
                        __b10_shape[1].saturating_sub(1usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v241: [usize; 2] = __ix;
                    {
                        let __v56: f32 = {
                            let __c: [usize; 2] = __v241;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b10_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b10_shape,
                                    &__c,
                                    [0isize, -1isize],
                                );
                                unsafe { rt::cpu::at(__b10_c0, __o) }
                            }
                        };
                        {
                            let __v58: f32 = {
                                let __c: [usize; 2] = __v241;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b10_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b10_shape,
                                        &__c,
                                        [0isize, 1isize],
                                    );
                                    unsafe { rt::cpu::at(__b10_c0, __o) }
                                }
                            };
                            {
                                let __v59: f32 = {
                                    let __c: [usize; 2] = __v241;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b14_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b14_shape,
                                            &__c,
                                            [-1isize, 0isize],
                                        );
                                        unsafe { rt::cpu::at(__b14_c0, __o) }
                                    }
                                };
                                {
                                    let __v61: f32 = {
                                        let __c: [usize; 2] = __v241;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b14_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b14_shape,
                                                &__c,
                                                [1isize, 0isize],
                                            );
                                            unsafe { rt::cpu::at(__b14_c0, __o) }
                                        }
                                    };
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(3204448256u32),
                                        rt::ops::ScalarOps::acc_sub(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_sub(__v58, __v56),
                                                __v61,
                                            ),
                                            __v59,
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
                    let __v241: [usize; 2] = __ix;
                    {
                        let __v56: f32 = {
                            let __c: [usize; 2] = __v241;
                            match rt::cpu::stencil::resolve(
                                &__b10_shape,
                                &__c,
                                [0isize, -1isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b10_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v58: f32 = {
                                let __c: [usize; 2] = __v241;
                                match rt::cpu::stencil::resolve(
                                    &__b10_shape,
                                    &__c,
                                    [0isize, 1isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b10_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v59: f32 = {
                                    let __c: [usize; 2] = __v241;
                                    match rt::cpu::stencil::resolve(
                                        &__b14_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b14_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v61: f32 = {
                                        let __c: [usize; 2] = __v241;
                                        match rt::cpu::stencil::resolve(
                                            &__b14_shape,
                                            &__c,
                                            [1isize, 0isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b14_c0, __o) }
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
                                                rt::ops::ScalarOps::acc_sub(__v58, __v56),
                                                __v61,
                                            ),
                                            __v59,
                                        ),
                                    )
                                }
                            }
                        }
                    }
                },
            )
        };
        let __b15_c0: &[f32] = &__b15[..];
        __timer.end(__began, 6usize);
        __ctx.check()?;
        let __v65: usize = __v6;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b16_shape: [usize; 2] = __b15_shape;
        rt::host::extent("map", &__b16_shape)?;
        rt::cpu::reserve::<f32>("map", &__b16_shape)?;
        let __b16: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b16_shape),
            #[inline(always)]
            |__v245: usize| {
                let __v63: f32 = {
                    let __v242: usize = __v245;
                    {
                        let __o: usize = __v242;
                        unsafe { rt::cpu::at(__b15_c0, __o) }
                    }
                };
                f32::from_bits(0u32)
            },
        );
        let __b16_c0: &[f32] = &__b16[..];
        __timer.end(__began, 7usize);
        __ctx.check()?;
        let mut __st3 = ((0usize), (__b16, __b16_shape));
        let (__v247, (__b19, __b19_shape)) = loop {
            let (__v66, (__b17, __b17_shape)) = __st3;
            let __b17_c0: &[f32] = &__b17[..];
            if !((__v66 < __v65)) {
                break (__v66, (__b17, __b17_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(
                __b17_shape[0],
                __b15_shape[0],
            );
            let __h1: usize = rt::ops::ScalarOps::acc_min(
                __b17_shape[1],
                __b15_shape[1],
            );
            let __b18_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("stencil", &__b18_shape)?;
            rt::cpu::reserve::<f32>("stencil", &__b18_shape)?;
            let __b18: <f32 as rt::Elem>::Columns = {
                let __ctx = &__ctx;
                rt::cpu::stencil_generate::<
                    _,
                    2,
                >(
                    &__b18_shape,
                    [1usize, 1usize],
                    [
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b18_shape[0],
                                __b15_shape[0].saturating_sub(0usize),
                            ),
                            __b17_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b18_shape[1],
                                __b15_shape[1].saturating_sub(0usize),
                            ),
                            __b17_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v246: [usize; 2] = __ix;
                        {
                            let __v69: f32 = {
                                let __c: [usize; 2] = __v246;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b17_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b17_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b17_c0, __o) }
                                }
                            };
                            {
                                let __v71: f32 = {
                                    let __c: [usize; 2] = __v246;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b17_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b17_shape,
                                            &__c,
                                            [0isize, -1isize],
                                        );
                                        unsafe { rt::cpu::at(__b17_c0, __o) }
                                    }
                                };
                                {
                                    let __v73: f32 = {
                                        let __c: [usize; 2] = __v246;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b17_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b17_shape,
                                                &__c,
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b17_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v75: f32 = {
                                            let __c: [usize; 2] = __v246;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                                });
                                                rt::cpu::verify_elision(
                                                    "stencil interior",
                                                    "stencil",
                                                    &__n,
                                                    &__b17_shape,
                                                );
                                            }
                                            {
                                                let __o: usize = rt::cpu::stencil::offset_in(
                                                    &__b17_shape,
                                                    &__c,
                                                    [1isize, 0isize],
                                                );
                                                unsafe { rt::cpu::at(__b17_c0, __o) }
                                            }
                                        };
                                        {
                                            let __v77: f32 = {
                                                let __c: [usize; 2] = __v246;
                                                if rt::cpu::VERIFY_ELISIONS {
                                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                        (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                                    });
                                                    rt::cpu::verify_elision(
                                                        "stencil interior",
                                                        "stencil",
                                                        &__n,
                                                        &__b15_shape,
                                                    );
                                                }
                                                {
                                                    let __o: usize = rt::cpu::stencil::offset_in(
                                                        &__b15_shape,
                                                        &__c,
                                                        [0isize, 0isize],
                                                    );
                                                    unsafe { rt::cpu::at(__b15_c0, __o) }
                                                }
                                            };
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(__v77, __v69),
                                                            __v75,
                                                        ),
                                                        __v71,
                                                    ),
                                                    __v73,
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
                        let __v246: [usize; 2] = __ix;
                        {
                            let __v69: f32 = {
                                let __c: [usize; 2] = __v246;
                                match rt::cpu::stencil::resolve(
                                    &__b17_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b17_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v71: f32 = {
                                    let __c: [usize; 2] = __v246;
                                    match rt::cpu::stencil::resolve(
                                        &__b17_shape,
                                        &__c,
                                        [0isize, -1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b17_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v73: f32 = {
                                        let __c: [usize; 2] = __v246;
                                        match rt::cpu::stencil::resolve(
                                            &__b17_shape,
                                            &__c,
                                            [0isize, 1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b17_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v75: f32 = {
                                            let __c: [usize; 2] = __v246;
                                            match rt::cpu::stencil::resolve(
                                                &__b17_shape,
                                                &__c,
                                                [1isize, 0isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    unsafe { rt::cpu::at(__b17_c0, __o) }
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v77: f32 = {
                                                let __c: [usize; 2] = __v246;
                                                match rt::cpu::stencil::resolve(
                                                    &__b15_shape,
                                                    &__c,
                                                    [0isize, 0isize],
                                                    rt::cpu::Bound::Clamp,
                                                ) {
                                                    ::core::option::Option::Some(__l) => {
                                                        let __o: usize = __l;
                                                        unsafe { rt::cpu::at(__b15_c0, __o) }
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
                                                            rt::ops::ScalarOps::acc_add(__v77, __v69),
                                                            __v75,
                                                        ),
                                                        __v71,
                                                    ),
                                                    __v73,
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
            let __b18_c0: &[f32] = &__b18[..];
            __timer.end(__began, 8usize);
            __ctx.check()?;
            rt::Columns::recycle(__b17);
            let __res0 = rt::ops::ScalarOps::acc_add(__v66, (1usize));
            __st3 = (__res0, (__b18, __b18_shape));
        };
        let __b19_c0: &[f32] = &__b19[..];
        __ctx.check()?;
        rt::Columns::recycle(__b15);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b10_shape[0], __b19_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b10_shape[1], __b19_shape[1]);
        let __b20_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b20_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b20_shape)?;
        let __b20: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b20_shape,
                [0usize, 1usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b20_shape[0],
                            __b19_shape[0].saturating_sub(0usize),
                        ),
                        __b10_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b20_shape[1],
                            __b19_shape[1].saturating_sub(1usize),
                        ),
                        __b10_shape[1].saturating_sub(0usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v248: [usize; 2] = __ix;
                    {
                        let __v82: f32 = {
                            let __c: [usize; 2] = __v248;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b10_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b10_shape,
                                    &__c,
                                    [0isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b10_c0, __o) }
                            }
                        };
                        {
                            let __v83: f32 = {
                                let __c: [usize; 2] = __v248;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b19_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b19_shape,
                                        &__c,
                                        [0isize, -1isize],
                                    );
                                    unsafe { rt::cpu::at(__b19_c0, __o) }
                                }
                            };
                            {
                                let __v85: f32 = {
                                    let __c: [usize; 2] = __v248;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b19_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b19_shape,
                                            &__c,
                                            [0isize, 1isize],
                                        );
                                        unsafe { rt::cpu::at(__b19_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v82,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v85, __v83),
                                    ),
                                )
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v248: [usize; 2] = __ix;
                    {
                        let __v82: f32 = {
                            let __c: [usize; 2] = __v248;
                            match rt::cpu::stencil::resolve(
                                &__b10_shape,
                                &__c,
                                [0isize, 0isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b10_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v83: f32 = {
                                let __c: [usize; 2] = __v248;
                                match rt::cpu::stencil::resolve(
                                    &__b19_shape,
                                    &__c,
                                    [0isize, -1isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b19_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v85: f32 = {
                                    let __c: [usize; 2] = __v248;
                                    match rt::cpu::stencil::resolve(
                                        &__b19_shape,
                                        &__c,
                                        [0isize, 1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b19_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v82,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v85, __v83),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b20_c0: &[f32] = &__b20[..];
        __timer.end(__began, 9usize);
        __ctx.check()?;
        rt::Columns::recycle(__b10);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b14_shape[0], __b19_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b14_shape[1], __b19_shape[1]);
        let __b21_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b21_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b21_shape)?;
        let __b21: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b21_shape,
                [1usize, 0usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b21_shape[0],
                            __b19_shape[0].saturating_sub(1usize),
                        ),
                        __b14_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b21_shape[1],
                            __b19_shape[1].saturating_sub(0usize),
                        ),
                        __b14_shape[1].saturating_sub(0usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v249: [usize; 2] = __ix;
                    {
                        let __v87: f32 = {
                            let __c: [usize; 2] = __v249;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b14_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b14_shape,
                                    &__c,
                                    [0isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b14_c0, __o) }
                            }
                        };
                        {
                            let __v88: f32 = {
                                let __c: [usize; 2] = __v249;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b19_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b19_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b19_c0, __o) }
                                }
                            };
                            {
                                let __v90: f32 = {
                                    let __c: [usize; 2] = __v249;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b19_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b19_shape,
                                            &__c,
                                            [1isize, 0isize],
                                        );
                                        unsafe { rt::cpu::at(__b19_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v87,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v90, __v88),
                                    ),
                                )
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v249: [usize; 2] = __ix;
                    {
                        let __v87: f32 = {
                            let __c: [usize; 2] = __v249;
                            match rt::cpu::stencil::resolve(
                                &__b14_shape,
                                &__c,
                                [0isize, 0isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b14_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v88: f32 = {
                                let __c: [usize; 2] = __v249;
                                match rt::cpu::stencil::resolve(
                                    &__b19_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b19_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v90: f32 = {
                                    let __c: [usize; 2] = __v249;
                                    match rt::cpu::stencil::resolve(
                                        &__b19_shape,
                                        &__c,
                                        [1isize, 0isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b19_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v87,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v90, __v88),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b21_c0: &[f32] = &__b21[..];
        __timer.end(__began, 10usize);
        __ctx.check()?;
        rt::Columns::recycle(__b14);
        rt::Columns::recycle(__b19);
        let __v100: usize = __b20_shape[0];
        __ctx.check()?;
        let __v101: usize = __b20_shape[1];
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: f32 = (rt::ops::ScalarOps::acc_sub(__v101, (1usize)) as f32);
        let __h1: f32 = (rt::ops::ScalarOps::acc_sub(__v100, (1usize)) as f32);
        let __h2: usize = rt::ops::ScalarOps::acc_sub(__v101, (1usize));
        let __h3: usize = rt::ops::ScalarOps::acc_sub(__v100, (1usize));
        let __b22_shape: [usize; 2] = [__v100, __v101];
        rt::host::extent("generate", &__b22_shape)?;
        rt::cpu::reserve::<f32>("generate", &__b22_shape)?;
        let __b22: <f32 as rt::Elem>::Columns = if (([__v100, __v101])[0])
            <= (__b21_shape)[0] && (([__v100, __v101])[1]) <= (__b21_shape)[1]
        {
            {
                let (__rows, __len) = rt::cpu::rows_of(&__b22_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b22_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v102: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v103: usize = __v102[0];
                            {
                                let __v104: usize = __v102[1];
                                {
                                    let __v105: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v104 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v250 = [__v103, __v104];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "inside the iteration space",
                                                            "index",
                                                            &__v250,
                                                            &__b20_shape,
                                                        );
                                                    }
                                                    {
                                                        let __o: usize = rt::shape::to_linear(
                                                            &__b20_shape,
                                                            &__v250,
                                                        );
                                                        unsafe { rt::cpu::at(__b20_c0, __o) }
                                                    }
                                                },
                                            ),
                                        ),
                                        f32::from_bits(0u32),
                                        __h0,
                                    );
                                    {
                                        let __v106: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v103 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v251 = [__v103, __v104];
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            rt::cpu::verify_elision(
                                                                "extents compared at kernel entry",
                                                                "index",
                                                                &__v251,
                                                                &__b21_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::shape::to_linear(
                                                                &__b21_shape,
                                                                &__v251,
                                                            );
                                                            unsafe { rt::cpu::at(__b21_c0, __o) }
                                                        }
                                                    },
                                                ),
                                            ),
                                            f32::from_bits(0u32),
                                            __h1,
                                        );
                                        {
                                            let __v107: usize = (<f32>::floor(__v105) as usize);
                                            {
                                                let __v108: usize = (<f32>::floor(__v106) as usize);
                                                {
                                                    let __v109: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v107, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v110: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v108, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v111: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v105,
                                                                (__v107 as f32),
                                                            );
                                                            {
                                                                let __v112: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v106,
                                                                    (__v108 as f32),
                                                                );
                                                                {
                                                                    let __v113: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v111,
                                                                    );
                                                                    {
                                                                        let __v114: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v112,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v113,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v114,
                                                                                        {
                                                                                            let __v252 = [__v108, __v107];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v252,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v252,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v112,
                                                                                        {
                                                                                            let __v253 = [__v110, __v107];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v253,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v253,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v111,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v114,
                                                                                        {
                                                                                            let __v254 = [__v108, __v109];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v254,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v254,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v112,
                                                                                        {
                                                                                            let __v255 = [__v110, __v109];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v255,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v255,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
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
                let (__rows, __len) = rt::cpu::rows_of(&__b22_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b22_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v102: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v103: usize = __v102[0];
                            {
                                let __v104: usize = __v102[1];
                                {
                                    let __v105: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v104 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v250 = [__v103, __v104];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "inside the iteration space",
                                                            "index",
                                                            &__v250,
                                                            &__b20_shape,
                                                        );
                                                    }
                                                    {
                                                        let __o: usize = rt::shape::to_linear(
                                                            &__b20_shape,
                                                            &__v250,
                                                        );
                                                        unsafe { rt::cpu::at(__b20_c0, __o) }
                                                    }
                                                },
                                            ),
                                        ),
                                        f32::from_bits(0u32),
                                        __h0,
                                    );
                                    {
                                        let __v106: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v103 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v251 = [__v103, __v104];
                                                        if __ctx
                                                            .index(
                                                                "index",
                                                                ::core::option::Option::Some(
                                                                    ::core::concat!(::core::file!(), ":1:726"),
                                                                ),
                                                                __v251,
                                                                __b21_shape,
                                                            )
                                                            .is_some()
                                                        {
                                                            {
                                                                let __o: usize = rt::shape::to_linear(
                                                                    &__b21_shape,
                                                                    &__v251,
                                                                );
                                                                unsafe { rt::cpu::at(__b21_c0, __o) }
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
                                            let __v107: usize = (<f32>::floor(__v105) as usize);
                                            {
                                                let __v108: usize = (<f32>::floor(__v106) as usize);
                                                {
                                                    let __v109: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v107, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v110: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v108, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v111: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v105,
                                                                (__v107 as f32),
                                                            );
                                                            {
                                                                let __v112: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v106,
                                                                    (__v108 as f32),
                                                                );
                                                                {
                                                                    let __v113: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v111,
                                                                    );
                                                                    {
                                                                        let __v114: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v112,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v113,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v114,
                                                                                        {
                                                                                            let __v252 = [__v108, __v107];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v252,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v252,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v112,
                                                                                        {
                                                                                            let __v253 = [__v110, __v107];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v253,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v253,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v111,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v114,
                                                                                        {
                                                                                            let __v254 = [__v108, __v109];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v254,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v254,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v112,
                                                                                        {
                                                                                            let __v255 = [__v110, __v109];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v255,
                                                                                                    __b20_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b20_shape,
                                                                                                        &__v255,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b20_c0, __o) }
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
        let __b22_c0: &[f32] = &__b22[..];
        __timer.end(__began, 11usize);
        __ctx.check()?;
        let __v121: usize = __b21_shape[0];
        __ctx.check()?;
        let __v122: usize = __b21_shape[1];
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: f32 = (rt::ops::ScalarOps::acc_sub(__v122, (1usize)) as f32);
        let __h1: f32 = (rt::ops::ScalarOps::acc_sub(__v121, (1usize)) as f32);
        let __h2: usize = rt::ops::ScalarOps::acc_sub(__v122, (1usize));
        let __h3: usize = rt::ops::ScalarOps::acc_sub(__v121, (1usize));
        let __b23_shape: [usize; 2] = [__v121, __v122];
        rt::host::extent("generate", &__b23_shape)?;
        rt::cpu::reserve::<f32>("generate", &__b23_shape)?;
        let __b23: <f32 as rt::Elem>::Columns = if (([__v121, __v122])[0])
            <= (__b20_shape)[0] && (([__v121, __v122])[1]) <= (__b20_shape)[1]
        {
            {
                let (__rows, __len) = rt::cpu::rows_of(&__b23_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b23_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v123: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v124: usize = __v123[0];
                            {
                                let __v125: usize = __v123[1];
                                {
                                    let __v126: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v125 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v256 = [__v124, __v125];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "extents compared at kernel entry",
                                                            "index",
                                                            &__v256,
                                                            &__b20_shape,
                                                        );
                                                    }
                                                    {
                                                        let __o: usize = rt::shape::to_linear(
                                                            &__b20_shape,
                                                            &__v256,
                                                        );
                                                        unsafe { rt::cpu::at(__b20_c0, __o) }
                                                    }
                                                },
                                            ),
                                        ),
                                        f32::from_bits(0u32),
                                        __h0,
                                    );
                                    {
                                        let __v127: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v124 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v257 = [__v124, __v125];
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            rt::cpu::verify_elision(
                                                                "inside the iteration space",
                                                                "index",
                                                                &__v257,
                                                                &__b21_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::shape::to_linear(
                                                                &__b21_shape,
                                                                &__v257,
                                                            );
                                                            unsafe { rt::cpu::at(__b21_c0, __o) }
                                                        }
                                                    },
                                                ),
                                            ),
                                            f32::from_bits(0u32),
                                            __h1,
                                        );
                                        {
                                            let __v128: usize = (<f32>::floor(__v126) as usize);
                                            {
                                                let __v129: usize = (<f32>::floor(__v127) as usize);
                                                {
                                                    let __v130: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v128, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v131: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v129, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v132: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v126,
                                                                (__v128 as f32),
                                                            );
                                                            {
                                                                let __v133: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v127,
                                                                    (__v129 as f32),
                                                                );
                                                                {
                                                                    let __v134: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v132,
                                                                    );
                                                                    {
                                                                        let __v135: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v133,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v134,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v135,
                                                                                        {
                                                                                            let __v258 = [__v129, __v128];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v258,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v258,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v133,
                                                                                        {
                                                                                            let __v259 = [__v131, __v128];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v259,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v259,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v132,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v135,
                                                                                        {
                                                                                            let __v260 = [__v129, __v130];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v260,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v260,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v133,
                                                                                        {
                                                                                            let __v261 = [__v131, __v130];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v261,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v261,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
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
                let (__rows, __len) = rt::cpu::rows_of(&__b23_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b23_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v123: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v124: usize = __v123[0];
                            {
                                let __v125: usize = __v123[1];
                                {
                                    let __v126: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v125 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v256 = [__v124, __v125];
                                                    if __ctx
                                                        .index(
                                                            "index",
                                                            ::core::option::Option::Some(
                                                                ::core::concat!(::core::file!(), ":1:655"),
                                                            ),
                                                            __v256,
                                                            __b20_shape,
                                                        )
                                                        .is_some()
                                                    {
                                                        {
                                                            let __o: usize = rt::shape::to_linear(
                                                                &__b20_shape,
                                                                &__v256,
                                                            );
                                                            unsafe { rt::cpu::at(__b20_c0, __o) }
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
                                        let __v127: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v124 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v257 = [__v124, __v125];
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            rt::cpu::verify_elision(
                                                                "inside the iteration space",
                                                                "index",
                                                                &__v257,
                                                                &__b21_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::shape::to_linear(
                                                                &__b21_shape,
                                                                &__v257,
                                                            );
                                                            unsafe { rt::cpu::at(__b21_c0, __o) }
                                                        }
                                                    },
                                                ),
                                            ),
                                            f32::from_bits(0u32),
                                            __h1,
                                        );
                                        {
                                            let __v128: usize = (<f32>::floor(__v126) as usize);
                                            {
                                                let __v129: usize = (<f32>::floor(__v127) as usize);
                                                {
                                                    let __v130: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v128, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v131: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v129, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v132: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v126,
                                                                (__v128 as f32),
                                                            );
                                                            {
                                                                let __v133: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v127,
                                                                    (__v129 as f32),
                                                                );
                                                                {
                                                                    let __v134: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v132,
                                                                    );
                                                                    {
                                                                        let __v135: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v133,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v134,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v135,
                                                                                        {
                                                                                            let __v258 = [__v129, __v128];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v258,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v258,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v133,
                                                                                        {
                                                                                            let __v259 = [__v131, __v128];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v259,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v259,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v132,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v135,
                                                                                        {
                                                                                            let __v260 = [__v129, __v130];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v260,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v260,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v133,
                                                                                        {
                                                                                            let __v261 = [__v131, __v130];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v261,
                                                                                                    __b21_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(
                                                                                                        &__b21_shape,
                                                                                                        &__v261,
                                                                                                    );
                                                                                                    unsafe { rt::cpu::at(__b21_c0, __o) }
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
        let __b23_c0: &[f32] = &__b23[..];
        __timer.end(__began, 12usize);
        __ctx.check()?;
        rt::Columns::recycle(__b20);
        rt::Columns::recycle(__b21);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b22_shape[0], __b23_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b22_shape[1], __b23_shape[1]);
        let __b24_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b24_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b24_shape)?;
        let __b24: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b24_shape,
                [1usize, 1usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b24_shape[0],
                            __b23_shape[0].saturating_sub(1usize),
                        ),
                        __b22_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b24_shape[1],
                            __b23_shape[1].saturating_sub(0usize),
                        ),
                        __b22_shape[1].saturating_sub(1usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v262: [usize; 2] = __ix;
                    {
                        let __v140: f32 = {
                            let __c: [usize; 2] = __v262;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b22_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b22_shape,
                                    &__c,
                                    [0isize, -1isize],
                                );
                                unsafe { rt::cpu::at(__b22_c0, __o) }
                            }
                        };
                        {
                            let __v142: f32 = {
                                let __c: [usize; 2] = __v262;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b22_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b22_shape,
                                        &__c,
                                        [0isize, 1isize],
                                    );
                                    unsafe { rt::cpu::at(__b22_c0, __o) }
                                }
                            };
                            {
                                let __v143: f32 = {
                                    let __c: [usize; 2] = __v262;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b23_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b23_shape,
                                            &__c,
                                            [-1isize, 0isize],
                                        );
                                        unsafe { rt::cpu::at(__b23_c0, __o) }
                                    }
                                };
                                {
                                    let __v145: f32 = {
                                        let __c: [usize; 2] = __v262;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b23_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b23_shape,
                                                &__c,
                                                [1isize, 0isize],
                                            );
                                            unsafe { rt::cpu::at(__b23_c0, __o) }
                                        }
                                    };
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(3204448256u32),
                                        rt::ops::ScalarOps::acc_sub(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_sub(__v142, __v140),
                                                __v145,
                                            ),
                                            __v143,
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
                    let __v262: [usize; 2] = __ix;
                    {
                        let __v140: f32 = {
                            let __c: [usize; 2] = __v262;
                            match rt::cpu::stencil::resolve(
                                &__b22_shape,
                                &__c,
                                [0isize, -1isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b22_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v142: f32 = {
                                let __c: [usize; 2] = __v262;
                                match rt::cpu::stencil::resolve(
                                    &__b22_shape,
                                    &__c,
                                    [0isize, 1isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b22_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v143: f32 = {
                                    let __c: [usize; 2] = __v262;
                                    match rt::cpu::stencil::resolve(
                                        &__b23_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b23_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v145: f32 = {
                                        let __c: [usize; 2] = __v262;
                                        match rt::cpu::stencil::resolve(
                                            &__b23_shape,
                                            &__c,
                                            [1isize, 0isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b23_c0, __o) }
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
                                                rt::ops::ScalarOps::acc_sub(__v142, __v140),
                                                __v145,
                                            ),
                                            __v143,
                                        ),
                                    )
                                }
                            }
                        }
                    }
                },
            )
        };
        let __b24_c0: &[f32] = &__b24[..];
        __timer.end(__began, 13usize);
        __ctx.check()?;
        let __v149: usize = __v6;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b25_shape: [usize; 2] = __b24_shape;
        rt::host::extent("map", &__b25_shape)?;
        rt::cpu::reserve::<f32>("map", &__b25_shape)?;
        let __b25: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b25_shape),
            #[inline(always)]
            |__v266: usize| {
                let __v147: f32 = {
                    let __v263: usize = __v266;
                    {
                        let __o: usize = __v263;
                        unsafe { rt::cpu::at(__b24_c0, __o) }
                    }
                };
                f32::from_bits(0u32)
            },
        );
        let __b25_c0: &[f32] = &__b25[..];
        __timer.end(__began, 14usize);
        __ctx.check()?;
        let mut __st4 = ((0usize), (__b25, __b25_shape));
        let (__v268, (__b28, __b28_shape)) = loop {
            let (__v150, (__b26, __b26_shape)) = __st4;
            let __b26_c0: &[f32] = &__b26[..];
            if !((__v150 < __v149)) {
                break (__v150, (__b26, __b26_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(
                __b26_shape[0],
                __b24_shape[0],
            );
            let __h1: usize = rt::ops::ScalarOps::acc_min(
                __b26_shape[1],
                __b24_shape[1],
            );
            let __b27_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("stencil", &__b27_shape)?;
            rt::cpu::reserve::<f32>("stencil", &__b27_shape)?;
            let __b27: <f32 as rt::Elem>::Columns = {
                let __ctx = &__ctx;
                rt::cpu::stencil_generate::<
                    _,
                    2,
                >(
                    &__b27_shape,
                    [1usize, 1usize],
                    [
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b27_shape[0],
                                __b24_shape[0].saturating_sub(0usize),
                            ),
                            __b26_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b27_shape[1],
                                __b24_shape[1].saturating_sub(0usize),
                            ),
                            __b26_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v267: [usize; 2] = __ix;
                        {
                            let __v153: f32 = {
                                let __c: [usize; 2] = __v267;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b26_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b26_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b26_c0, __o) }
                                }
                            };
                            {
                                let __v155: f32 = {
                                    let __c: [usize; 2] = __v267;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b26_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b26_shape,
                                            &__c,
                                            [0isize, -1isize],
                                        );
                                        unsafe { rt::cpu::at(__b26_c0, __o) }
                                    }
                                };
                                {
                                    let __v157: f32 = {
                                        let __c: [usize; 2] = __v267;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b26_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b26_shape,
                                                &__c,
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b26_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v159: f32 = {
                                            let __c: [usize; 2] = __v267;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                                });
                                                rt::cpu::verify_elision(
                                                    "stencil interior",
                                                    "stencil",
                                                    &__n,
                                                    &__b26_shape,
                                                );
                                            }
                                            {
                                                let __o: usize = rt::cpu::stencil::offset_in(
                                                    &__b26_shape,
                                                    &__c,
                                                    [1isize, 0isize],
                                                );
                                                unsafe { rt::cpu::at(__b26_c0, __o) }
                                            }
                                        };
                                        {
                                            let __v161: f32 = {
                                                let __c: [usize; 2] = __v267;
                                                if rt::cpu::VERIFY_ELISIONS {
                                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                        (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                                    });
                                                    rt::cpu::verify_elision(
                                                        "stencil interior",
                                                        "stencil",
                                                        &__n,
                                                        &__b24_shape,
                                                    );
                                                }
                                                {
                                                    let __o: usize = rt::cpu::stencil::offset_in(
                                                        &__b24_shape,
                                                        &__c,
                                                        [0isize, 0isize],
                                                    );
                                                    unsafe { rt::cpu::at(__b24_c0, __o) }
                                                }
                                            };
                                            rt::ops::ScalarOps::acc_mul(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(__v161, __v153),
                                                            __v159,
                                                        ),
                                                        __v155,
                                                    ),
                                                    __v157,
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
                        let __v267: [usize; 2] = __ix;
                        {
                            let __v153: f32 = {
                                let __c: [usize; 2] = __v267;
                                match rt::cpu::stencil::resolve(
                                    &__b26_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b26_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v155: f32 = {
                                    let __c: [usize; 2] = __v267;
                                    match rt::cpu::stencil::resolve(
                                        &__b26_shape,
                                        &__c,
                                        [0isize, -1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b26_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v157: f32 = {
                                        let __c: [usize; 2] = __v267;
                                        match rt::cpu::stencil::resolve(
                                            &__b26_shape,
                                            &__c,
                                            [0isize, 1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b26_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v159: f32 = {
                                            let __c: [usize; 2] = __v267;
                                            match rt::cpu::stencil::resolve(
                                                &__b26_shape,
                                                &__c,
                                                [1isize, 0isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    unsafe { rt::cpu::at(__b26_c0, __o) }
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v161: f32 = {
                                                let __c: [usize; 2] = __v267;
                                                match rt::cpu::stencil::resolve(
                                                    &__b24_shape,
                                                    &__c,
                                                    [0isize, 0isize],
                                                    rt::cpu::Bound::Clamp,
                                                ) {
                                                    ::core::option::Option::Some(__l) => {
                                                        let __o: usize = __l;
                                                        unsafe { rt::cpu::at(__b24_c0, __o) }
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
                                                            rt::ops::ScalarOps::acc_add(__v161, __v153),
                                                            __v159,
                                                        ),
                                                        __v155,
                                                    ),
                                                    __v157,
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
            let __b27_c0: &[f32] = &__b27[..];
            __timer.end(__began, 15usize);
            __ctx.check()?;
            rt::Columns::recycle(__b26);
            let __res0 = rt::ops::ScalarOps::acc_add(__v150, (1usize));
            __st4 = (__res0, (__b27, __b27_shape));
        };
        let __b28_c0: &[f32] = &__b28[..];
        __ctx.check()?;
        rt::Columns::recycle(__b24);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b22_shape[0], __b28_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b22_shape[1], __b28_shape[1]);
        let __b29_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b29_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b29_shape)?;
        let __b29: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b29_shape,
                [0usize, 1usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b29_shape[0],
                            __b28_shape[0].saturating_sub(0usize),
                        ),
                        __b22_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b29_shape[1],
                            __b28_shape[1].saturating_sub(1usize),
                        ),
                        __b22_shape[1].saturating_sub(0usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v269: [usize; 2] = __ix;
                    {
                        let __v166: f32 = {
                            let __c: [usize; 2] = __v269;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b22_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b22_shape,
                                    &__c,
                                    [0isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b22_c0, __o) }
                            }
                        };
                        {
                            let __v167: f32 = {
                                let __c: [usize; 2] = __v269;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b28_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b28_shape,
                                        &__c,
                                        [0isize, -1isize],
                                    );
                                    unsafe { rt::cpu::at(__b28_c0, __o) }
                                }
                            };
                            {
                                let __v169: f32 = {
                                    let __c: [usize; 2] = __v269;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b28_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b28_shape,
                                            &__c,
                                            [0isize, 1isize],
                                        );
                                        unsafe { rt::cpu::at(__b28_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v166,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v169, __v167),
                                    ),
                                )
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v269: [usize; 2] = __ix;
                    {
                        let __v166: f32 = {
                            let __c: [usize; 2] = __v269;
                            match rt::cpu::stencil::resolve(
                                &__b22_shape,
                                &__c,
                                [0isize, 0isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b22_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v167: f32 = {
                                let __c: [usize; 2] = __v269;
                                match rt::cpu::stencil::resolve(
                                    &__b28_shape,
                                    &__c,
                                    [0isize, -1isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b28_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v169: f32 = {
                                    let __c: [usize; 2] = __v269;
                                    match rt::cpu::stencil::resolve(
                                        &__b28_shape,
                                        &__c,
                                        [0isize, 1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b28_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v166,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v169, __v167),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b29_c0: &[f32] = &__b29[..];
        __timer.end(__began, 16usize);
        __ctx.check()?;
        rt::Columns::recycle(__b22);
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b23_shape[0], __b28_shape[0]);
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b23_shape[1], __b28_shape[1]);
        let __b30_shape: [usize; 2] = [__h0, __h1];
        rt::host::extent("stencil", &__b30_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b30_shape)?;
        let __b30: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b30_shape,
                [1usize, 0usize],
                [
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b30_shape[0],
                            __b28_shape[0].saturating_sub(1usize),
                        ),
                        __b23_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(
                        ::core::cmp::min(
                            __b30_shape[1],
                            __b28_shape[1].saturating_sub(0usize),
                        ),
                        __b23_shape[1].saturating_sub(0usize),
                    ),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v270: [usize; 2] = __ix;
                    {
                        let __v171: f32 = {
                            let __c: [usize; 2] = __v270;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b23_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b23_shape,
                                    &__c,
                                    [0isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b23_c0, __o) }
                            }
                        };
                        {
                            let __v172: f32 = {
                                let __c: [usize; 2] = __v270;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b28_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b28_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b28_c0, __o) }
                                }
                            };
                            {
                                let __v174: f32 = {
                                    let __c: [usize; 2] = __v270;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b28_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b28_shape,
                                            &__c,
                                            [1isize, 0isize],
                                        );
                                        unsafe { rt::cpu::at(__b28_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v171,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v174, __v172),
                                    ),
                                )
                            }
                        }
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v270: [usize; 2] = __ix;
                    {
                        let __v171: f32 = {
                            let __c: [usize; 2] = __v270;
                            match rt::cpu::stencil::resolve(
                                &__b23_shape,
                                &__c,
                                [0isize, 0isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b23_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v172: f32 = {
                                let __c: [usize; 2] = __v270;
                                match rt::cpu::stencil::resolve(
                                    &__b28_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b28_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v174: f32 = {
                                    let __c: [usize; 2] = __v270;
                                    match rt::cpu::stencil::resolve(
                                        &__b28_shape,
                                        &__c,
                                        [1isize, 0isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b28_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                rt::ops::ScalarOps::acc_sub(
                                    __v171,
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1056964608u32),
                                        rt::ops::ScalarOps::acc_sub(__v174, __v172),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b30_c0: &[f32] = &__b30[..];
        __timer.end(__began, 17usize);
        __ctx.check()?;
        rt::Columns::recycle(__b23);
        rt::Columns::recycle(__b28);
        let __began = __timer.begin();
        let __h0: f32 = (rt::ops::ScalarOps::acc_sub(__v208, (1usize)) as f32);
        let __h1: f32 = (rt::ops::ScalarOps::acc_sub(__v207, (1usize)) as f32);
        let __h2: usize = rt::ops::ScalarOps::acc_sub(__v208, (1usize));
        let __h3: usize = rt::ops::ScalarOps::acc_sub(__v207, (1usize));
        let __b31_shape: [usize; 2] = [__v207, __v208];
        rt::host::extent("generate", &__b31_shape)?;
        rt::cpu::reserve::<f32>("generate", &__b31_shape)?;
        let __b31: <f32 as rt::Elem>::Columns = if (([__v207, __v208])[0])
            <= (__b29_shape)[0] && (([__v207, __v208])[1]) <= (__b29_shape)[1]
            && (([__v207, __v208])[0]) <= (__b30_shape)[0]
            && (([__v207, __v208])[1]) <= (__b30_shape)[1]
        {
            {
                let (__rows, __len) = rt::cpu::rows_of(&__b31_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b31_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v209: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v210: usize = __v209[0];
                            {
                                let __v211: usize = __v209[1];
                                {
                                    let __v212: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v211 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v271 = [__v210, __v211];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "extents compared at kernel entry",
                                                            "index",
                                                            &__v271,
                                                            &__b29_shape,
                                                        );
                                                    }
                                                    {
                                                        let __o: usize = rt::shape::to_linear(
                                                            &__b29_shape,
                                                            &__v271,
                                                        );
                                                        unsafe { rt::cpu::at(__b29_c0, __o) }
                                                    }
                                                },
                                            ),
                                        ),
                                        f32::from_bits(0u32),
                                        __h0,
                                    );
                                    {
                                        let __v213: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v210 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v272 = [__v210, __v211];
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            rt::cpu::verify_elision(
                                                                "extents compared at kernel entry",
                                                                "index",
                                                                &__v272,
                                                                &__b30_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::shape::to_linear(
                                                                &__b30_shape,
                                                                &__v272,
                                                            );
                                                            unsafe { rt::cpu::at(__b30_c0, __o) }
                                                        }
                                                    },
                                                ),
                                            ),
                                            f32::from_bits(0u32),
                                            __h1,
                                        );
                                        {
                                            let __v214: usize = (<f32>::floor(__v212) as usize);
                                            {
                                                let __v215: usize = (<f32>::floor(__v213) as usize);
                                                {
                                                    let __v216: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v214, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v217: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v215, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v218: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v212,
                                                                (__v214 as f32),
                                                            );
                                                            {
                                                                let __v219: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v213,
                                                                    (__v215 as f32),
                                                                );
                                                                {
                                                                    let __v220: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v218,
                                                                    );
                                                                    {
                                                                        let __v221: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v219,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v220,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v221,
                                                                                        {
                                                                                            let __v273 = [__v215, __v214];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v273,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v273);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v219,
                                                                                        {
                                                                                            let __v274 = [__v217, __v214];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v274,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v274);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v218,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v221,
                                                                                        {
                                                                                            let __v275 = [__v215, __v216];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v275,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v275);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v219,
                                                                                        {
                                                                                            let __v276 = [__v217, __v216];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v276,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v276);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
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
                let (__rows, __len) = rt::cpu::rows_of(&__b31_shape);
                #[allow(unused_variables)]
                let __rows_at = rt::cpu::IndexOf::new(&__b31_shape);
                rt::cpu::generate_rows::<
                    <f32 as rt::Elem>::Columns,
                >(
                    __rows,
                    __len,
                    #[inline(always)]
                    |__r: usize, __j: usize| {
                        #[allow(unused_variables)]
                        let __i: usize = __r * __len + __j;
                        let __v209: [usize; 2] = __rows_at.row(__r, __j);
                        {
                            let __v210: usize = __v209[0];
                            {
                                let __v211: usize = __v209[1];
                                {
                                    let __v212: f32 = rt::ops::MathOps::acc_clamp(
                                        rt::ops::ScalarOps::acc_sub(
                                            (__v211 as f32),
                                            rt::ops::ScalarOps::acc_mul(
                                                __v3,
                                                {
                                                    let __v271 = [__v210, __v211];
                                                    if __ctx
                                                        .index(
                                                            "index",
                                                            ::core::option::Option::Some(
                                                                ::core::concat!(::core::file!(), ":1:655"),
                                                            ),
                                                            __v271,
                                                            __b29_shape,
                                                        )
                                                        .is_some()
                                                    {
                                                        {
                                                            let __o: usize = rt::shape::to_linear(
                                                                &__b29_shape,
                                                                &__v271,
                                                            );
                                                            unsafe { rt::cpu::at(__b29_c0, __o) }
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
                                        let __v213: f32 = rt::ops::MathOps::acc_clamp(
                                            rt::ops::ScalarOps::acc_sub(
                                                (__v210 as f32),
                                                rt::ops::ScalarOps::acc_mul(
                                                    __v3,
                                                    {
                                                        let __v272 = [__v210, __v211];
                                                        if __ctx
                                                            .index(
                                                                "index",
                                                                ::core::option::Option::Some(
                                                                    ::core::concat!(::core::file!(), ":1:726"),
                                                                ),
                                                                __v272,
                                                                __b30_shape,
                                                            )
                                                            .is_some()
                                                        {
                                                            {
                                                                let __o: usize = rt::shape::to_linear(
                                                                    &__b30_shape,
                                                                    &__v272,
                                                                );
                                                                unsafe { rt::cpu::at(__b30_c0, __o) }
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
                                            let __v214: usize = (<f32>::floor(__v212) as usize);
                                            {
                                                let __v215: usize = (<f32>::floor(__v213) as usize);
                                                {
                                                    let __v216: usize = rt::ops::ScalarOps::acc_min(
                                                        rt::ops::ScalarOps::acc_add(__v214, (1usize)),
                                                        __h2,
                                                    );
                                                    {
                                                        let __v217: usize = rt::ops::ScalarOps::acc_min(
                                                            rt::ops::ScalarOps::acc_add(__v215, (1usize)),
                                                            __h3,
                                                        );
                                                        {
                                                            let __v218: f32 = rt::ops::ScalarOps::acc_sub(
                                                                __v212,
                                                                (__v214 as f32),
                                                            );
                                                            {
                                                                let __v219: f32 = rt::ops::ScalarOps::acc_sub(
                                                                    __v213,
                                                                    (__v215 as f32),
                                                                );
                                                                {
                                                                    let __v220: f32 = rt::ops::ScalarOps::acc_sub(
                                                                        f32::from_bits(1065353216u32),
                                                                        __v218,
                                                                    );
                                                                    {
                                                                        let __v221: f32 = rt::ops::ScalarOps::acc_sub(
                                                                            f32::from_bits(1065353216u32),
                                                                            __v219,
                                                                        );
                                                                        rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v220,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v221,
                                                                                        {
                                                                                            let __v273 = [__v215, __v214];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1007"),
                                                                                                    ),
                                                                                                    __v273,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v273);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v219,
                                                                                        {
                                                                                            let __v274 = [__v217, __v214];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1029"),
                                                                                                    ),
                                                                                                    __v274,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v274);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                ),
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v218,
                                                                                rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v221,
                                                                                        {
                                                                                            let __v275 = [__v215, __v216];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1058"),
                                                                                                    ),
                                                                                                    __v275,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v275);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
                                                                                                }
                                                                                            } else {
                                                                                                ::core::default::Default::default()
                                                                                            }
                                                                                        },
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        __v219,
                                                                                        {
                                                                                            let __v276 = [__v217, __v216];
                                                                                            if __ctx
                                                                                                .index(
                                                                                                    "index",
                                                                                                    ::core::option::Option::Some(
                                                                                                        ::core::concat!(::core::file!(), ":1:1080"),
                                                                                                    ),
                                                                                                    __v276,
                                                                                                    __b6_shape,
                                                                                                )
                                                                                                .is_some()
                                                                                            {
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b6_shape, &__v276);
                                                                                                    unsafe { rt::cpu::at(__b6_c0, __o) }
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
        let __b31_c0: &[f32] = &__b31[..];
        __timer.end(__began, 18usize);
        __ctx.check()?;
        rt::Columns::recycle(__b6);
        let __result = (
            {
                let (__c, __s) = (__b31, __b31_shape);
                rt::Array::<f32, 2>::from_columns(__s, __c)?
            },
            {
                let (__c, __s) = (__b29, __b29_shape);
                rt::Array::<f32, 2>::from_columns(__s, __c)?
            },
            {
                let (__c, __s) = (__b30, __b30_shape);
                rt::Array::<f32, 2>::from_columns(__s, __c)?
            },
        );
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
