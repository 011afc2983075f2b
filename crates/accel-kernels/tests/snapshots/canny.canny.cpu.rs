fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "canny",
            &[
                "kernel 0: generate -> b1   fuses: map",
                "kernel 1: generate -> b2   fuses: stencil",
                "kernel 2: generate -> b3   fuses: stencil",
                "kernel 3: generate -> b4   fuses: stencil",
                "kernel 4: generate -> b5   fuses: stencil",
                "kernel 5: scan -> b6, b7   fuses: generate -> reshape -> zip_with -> map -> scan",
                "kernel 6: generate -> b8   fuses: generate",
                "kernel 7: permute -> b9   fuses: generate -> reshape -> zip_with -> permute",
                "kernel 8: generate -> b10   fuses: map",
            ],
        );
        let __b0_shape = img.shape();
        let __b0 = img.try_columns()?;
        let __b0_c0: &[u32] = &__b0[..];
        let __v1 = low;
        let __v2 = high;
        let __began = __timer.begin();
        let __b1_shape: [usize; 2] = __b0_shape;
        rt::host::extent("map", &__b1_shape)?;
        rt::cpu::reserve::<f32>("map", &__b1_shape)?;
        let __b1: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b1_shape),
            #[inline(always)]
            |__v72: usize| {
                let __v3: u32 = {
                    let __v69: usize = __v72;
                    {
                        let __o: usize = __v69;
                        unsafe { rt::cpu::at(__b0_c0, __o) }
                    }
                };
                {
                    let __v4: f32 = ((__v3 & (255u32)) as f32);
                    {
                        let __v5: f32 = ((rt::ops::ShiftOps::acc_shr(
                            __v3,
                            ((8i32) as u32),
                        ) & (255u32)) as f32);
                        {
                            let __v6: f32 = ((rt::ops::ShiftOps::acc_shr(
                                __v3,
                                ((16i32) as u32),
                            ) & (255u32)) as f32);
                            rt::ops::ScalarOps::acc_div(
                                rt::ops::ScalarOps::acc_add(
                                    rt::ops::ScalarOps::acc_add(
                                        rt::ops::ScalarOps::acc_mul(
                                            f32::from_bits(1050253722u32),
                                            __v4,
                                        ),
                                        rt::ops::ScalarOps::acc_mul(
                                            f32::from_bits(1058474557u32),
                                            __v5,
                                        ),
                                    ),
                                    rt::ops::ScalarOps::acc_mul(
                                        f32::from_bits(1038174126u32),
                                        __v6,
                                    ),
                                ),
                                f32::from_bits(1132396544u32),
                            )
                        }
                    }
                }
            },
        );
        let __b1_c0: &[f32] = &__b1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __b2_shape: [usize; 2] = __b1_shape;
        rt::host::extent("stencil", &__b2_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b2_shape)?;
        let __b2: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b2_shape,
                [0usize, 2usize],
                [
                    ::core::cmp::min(
                        __b2_shape[0],
                        __b1_shape[0].saturating_sub(0usize),
                    ),
                    ::core::cmp::min(__b2_shape[1], __b1_shape[1].saturating_sub(2usize)),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v73: [usize; 2] = __ix;
                    {
                        let __v8: f32 = {
                            let __c: [usize; 2] = __v73;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [0isize, -2isize][__d]) as usize
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
                                    [0isize, -2isize],
                                );
                                unsafe { rt::cpu::at(__b1_c0, __o) }
                            }
                        };
                        {
                            let __v9: f32 = {
                                let __c: [usize; 2] = __v73;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [0isize, -1isize][__d]) as usize
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
                                        [0isize, -1isize],
                                    );
                                    unsafe { rt::cpu::at(__b1_c0, __o) }
                                }
                            };
                            {
                                let __v10: f32 = {
                                    let __c: [usize; 2] = __v73;
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
                                    let __v11: f32 = {
                                        let __c: [usize; 2] = __v73;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
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
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b1_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v12: f32 = {
                                            let __c: [usize; 2] = __v73;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [0isize, 2isize][__d]) as usize
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
                                                    [0isize, 2isize],
                                                );
                                                unsafe { rt::cpu::at(__b1_c0, __o) }
                                            }
                                        };
                                        rt::ops::ScalarOps::acc_div(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            __v8,
                                                            rt::ops::ScalarOps::acc_mul(
                                                                f32::from_bits(1082130432u32),
                                                                __v9,
                                                            ),
                                                        ),
                                                        rt::ops::ScalarOps::acc_mul(
                                                            f32::from_bits(1086324736u32),
                                                            __v10,
                                                        ),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        f32::from_bits(1082130432u32),
                                                        __v11,
                                                    ),
                                                ),
                                                __v12,
                                            ),
                                            f32::from_bits(1098907648u32),
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
                    let __v73: [usize; 2] = __ix;
                    {
                        let __v8: f32 = {
                            let __c: [usize; 2] = __v73;
                            match rt::cpu::stencil::resolve(
                                &__b1_shape,
                                &__c,
                                [0isize, -2isize],
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
                            let __v9: f32 = {
                                let __c: [usize; 2] = __v73;
                                match rt::cpu::stencil::resolve(
                                    &__b1_shape,
                                    &__c,
                                    [0isize, -1isize],
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
                                let __v10: f32 = {
                                    let __c: [usize; 2] = __v73;
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
                                    let __v11: f32 = {
                                        let __c: [usize; 2] = __v73;
                                        match rt::cpu::stencil::resolve(
                                            &__b1_shape,
                                            &__c,
                                            [0isize, 1isize],
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
                                        let __v12: f32 = {
                                            let __c: [usize; 2] = __v73;
                                            match rt::cpu::stencil::resolve(
                                                &__b1_shape,
                                                &__c,
                                                [0isize, 2isize],
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
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            __v8,
                                                            rt::ops::ScalarOps::acc_mul(
                                                                f32::from_bits(1082130432u32),
                                                                __v9,
                                                            ),
                                                        ),
                                                        rt::ops::ScalarOps::acc_mul(
                                                            f32::from_bits(1086324736u32),
                                                            __v10,
                                                        ),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        f32::from_bits(1082130432u32),
                                                        __v11,
                                                    ),
                                                ),
                                                __v12,
                                            ),
                                            f32::from_bits(1098907648u32),
                                        )
                                    }
                                }
                            }
                        }
                    }
                },
            )
        };
        let __b2_c0: &[f32] = &__b2[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        rt::Columns::recycle(__b1);
        let __began = __timer.begin();
        let __b3_shape: [usize; 2] = __b2_shape;
        rt::host::extent("stencil", &__b3_shape)?;
        rt::cpu::reserve::<f32>("stencil", &__b3_shape)?;
        let __b3: <f32 as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b3_shape,
                [2usize, 0usize],
                [
                    ::core::cmp::min(
                        __b3_shape[0],
                        __b2_shape[0].saturating_sub(2usize),
                    ),
                    ::core::cmp::min(__b3_shape[1], __b2_shape[1].saturating_sub(0usize)),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v74: [usize; 2] = __ix;
                    {
                        let __v14: f32 = {
                            let __c: [usize; 2] = __v74;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [-2isize, 0isize][__d]) as usize
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
                                    [-2isize, 0isize],
                                );
                                unsafe { rt::cpu::at(__b2_c0, __o) }
                            }
                        };
                        {
                            let __v15: f32 = {
                                let __c: [usize; 2] = __v74;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
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
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b2_c0, __o) }
                                }
                            };
                            {
                                let __v16: f32 = {
                                    let __c: [usize; 2] = __v74;
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
                                {
                                    let __v17: f32 = {
                                        let __c: [usize; 2] = __v74;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [1isize, 0isize][__d]) as usize
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
                                                [1isize, 0isize],
                                            );
                                            unsafe { rt::cpu::at(__b2_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v18: f32 = {
                                            let __c: [usize; 2] = __v74;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [2isize, 0isize][__d]) as usize
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
                                                    [2isize, 0isize],
                                                );
                                                unsafe { rt::cpu::at(__b2_c0, __o) }
                                            }
                                        };
                                        rt::ops::ScalarOps::acc_div(
                                            rt::ops::ScalarOps::acc_add(
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            __v14,
                                                            rt::ops::ScalarOps::acc_mul(
                                                                f32::from_bits(1082130432u32),
                                                                __v15,
                                                            ),
                                                        ),
                                                        rt::ops::ScalarOps::acc_mul(
                                                            f32::from_bits(1086324736u32),
                                                            __v16,
                                                        ),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        f32::from_bits(1082130432u32),
                                                        __v17,
                                                    ),
                                                ),
                                                __v18,
                                            ),
                                            f32::from_bits(1098907648u32),
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
                    let __v74: [usize; 2] = __ix;
                    {
                        let __v14: f32 = {
                            let __c: [usize; 2] = __v74;
                            match rt::cpu::stencil::resolve(
                                &__b2_shape,
                                &__c,
                                [-2isize, 0isize],
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
                        {
                            let __v15: f32 = {
                                let __c: [usize; 2] = __v74;
                                match rt::cpu::stencil::resolve(
                                    &__b2_shape,
                                    &__c,
                                    [-1isize, 0isize],
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
                            {
                                let __v16: f32 = {
                                    let __c: [usize; 2] = __v74;
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
                                {
                                    let __v17: f32 = {
                                        let __c: [usize; 2] = __v74;
                                        match rt::cpu::stencil::resolve(
                                            &__b2_shape,
                                            &__c,
                                            [1isize, 0isize],
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
                                    {
                                        let __v18: f32 = {
                                            let __c: [usize; 2] = __v74;
                                            match rt::cpu::stencil::resolve(
                                                &__b2_shape,
                                                &__c,
                                                [2isize, 0isize],
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
                                                rt::ops::ScalarOps::acc_add(
                                                    rt::ops::ScalarOps::acc_add(
                                                        rt::ops::ScalarOps::acc_add(
                                                            __v14,
                                                            rt::ops::ScalarOps::acc_mul(
                                                                f32::from_bits(1082130432u32),
                                                                __v15,
                                                            ),
                                                        ),
                                                        rt::ops::ScalarOps::acc_mul(
                                                            f32::from_bits(1086324736u32),
                                                            __v16,
                                                        ),
                                                    ),
                                                    rt::ops::ScalarOps::acc_mul(
                                                        f32::from_bits(1082130432u32),
                                                        __v17,
                                                    ),
                                                ),
                                                __v18,
                                            ),
                                            f32::from_bits(1098907648u32),
                                        )
                                    }
                                }
                            }
                        }
                    }
                },
            )
        };
        let __b3_c0: &[f32] = &__b3[..];
        __timer.end(__began, 2usize);
        __ctx.check()?;
        rt::Columns::recycle(__b2);
        let __began = __timer.begin();
        let __b4_shape: [usize; 2] = __b3_shape;
        rt::host::extent("stencil", &__b4_shape)?;
        rt::cpu::reserve::<(f32, i32)>("stencil", &__b4_shape)?;
        let __b4: <(f32, i32) as rt::Elem>::Columns = {
            let __ctx = &__ctx;
            rt::cpu::stencil_generate::<
                _,
                2,
            >(
                &__b4_shape,
                [1usize, 1usize],
                [
                    ::core::cmp::min(
                        __b4_shape[0],
                        __b3_shape[0].saturating_sub(1usize),
                    ),
                    ::core::cmp::min(__b4_shape[1], __b3_shape[1].saturating_sub(1usize)),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v75: [usize; 2] = __ix;
                    {
                        let __v20: f32 = {
                            let __c: [usize; 2] = __v75;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [-1isize, -1isize][__d]) as usize
                                });
                                rt::cpu::verify_elision(
                                    "stencil interior",
                                    "stencil",
                                    &__n,
                                    &__b3_shape,
                                );
                            }
                            {
                                let __o: usize = rt::cpu::stencil::offset_in(
                                    &__b3_shape,
                                    &__c,
                                    [-1isize, -1isize],
                                );
                                unsafe { rt::cpu::at(__b3_c0, __o) }
                            }
                        };
                        {
                            let __v21: f32 = {
                                let __c: [usize; 2] = __v75;
                                if rt::cpu::VERIFY_ELISIONS {
                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                        (__c[__d] as isize + [-1isize, 0isize][__d]) as usize
                                    });
                                    rt::cpu::verify_elision(
                                        "stencil interior",
                                        "stencil",
                                        &__n,
                                        &__b3_shape,
                                    );
                                }
                                {
                                    let __o: usize = rt::cpu::stencil::offset_in(
                                        &__b3_shape,
                                        &__c,
                                        [-1isize, 0isize],
                                    );
                                    unsafe { rt::cpu::at(__b3_c0, __o) }
                                }
                            };
                            {
                                let __v22: f32 = {
                                    let __c: [usize; 2] = __v75;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [-1isize, 1isize][__d]) as usize
                                        });
                                        rt::cpu::verify_elision(
                                            "stencil interior",
                                            "stencil",
                                            &__n,
                                            &__b3_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::cpu::stencil::offset_in(
                                            &__b3_shape,
                                            &__c,
                                            [-1isize, 1isize],
                                        );
                                        unsafe { rt::cpu::at(__b3_c0, __o) }
                                    }
                                };
                                {
                                    let __v23: f32 = {
                                        let __c: [usize; 2] = __v75;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, -1isize][__d]) as usize
                                            });
                                            rt::cpu::verify_elision(
                                                "stencil interior",
                                                "stencil",
                                                &__n,
                                                &__b3_shape,
                                            );
                                        }
                                        {
                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                &__b3_shape,
                                                &__c,
                                                [0isize, -1isize],
                                            );
                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v25: f32 = {
                                            let __c: [usize; 2] = __v75;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [0isize, 1isize][__d]) as usize
                                                });
                                                rt::cpu::verify_elision(
                                                    "stencil interior",
                                                    "stencil",
                                                    &__n,
                                                    &__b3_shape,
                                                );
                                            }
                                            {
                                                let __o: usize = rt::cpu::stencil::offset_in(
                                                    &__b3_shape,
                                                    &__c,
                                                    [0isize, 1isize],
                                                );
                                                unsafe { rt::cpu::at(__b3_c0, __o) }
                                            }
                                        };
                                        {
                                            let __v26: f32 = {
                                                let __c: [usize; 2] = __v75;
                                                if rt::cpu::VERIFY_ELISIONS {
                                                    let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                        (__c[__d] as isize + [1isize, -1isize][__d]) as usize
                                                    });
                                                    rt::cpu::verify_elision(
                                                        "stencil interior",
                                                        "stencil",
                                                        &__n,
                                                        &__b3_shape,
                                                    );
                                                }
                                                {
                                                    let __o: usize = rt::cpu::stencil::offset_in(
                                                        &__b3_shape,
                                                        &__c,
                                                        [1isize, -1isize],
                                                    );
                                                    unsafe { rt::cpu::at(__b3_c0, __o) }
                                                }
                                            };
                                            {
                                                let __v27: f32 = {
                                                    let __c: [usize; 2] = __v75;
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                            (__c[__d] as isize + [1isize, 0isize][__d]) as usize
                                                        });
                                                        rt::cpu::verify_elision(
                                                            "stencil interior",
                                                            "stencil",
                                                            &__n,
                                                            &__b3_shape,
                                                        );
                                                    }
                                                    {
                                                        let __o: usize = rt::cpu::stencil::offset_in(
                                                            &__b3_shape,
                                                            &__c,
                                                            [1isize, 0isize],
                                                        );
                                                        unsafe { rt::cpu::at(__b3_c0, __o) }
                                                    }
                                                };
                                                {
                                                    let __v28: f32 = {
                                                        let __c: [usize; 2] = __v75;
                                                        if rt::cpu::VERIFY_ELISIONS {
                                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                                (__c[__d] as isize + [1isize, 1isize][__d]) as usize
                                                            });
                                                            rt::cpu::verify_elision(
                                                                "stencil interior",
                                                                "stencil",
                                                                &__n,
                                                                &__b3_shape,
                                                            );
                                                        }
                                                        {
                                                            let __o: usize = rt::cpu::stencil::offset_in(
                                                                &__b3_shape,
                                                                &__c,
                                                                [1isize, 1isize],
                                                            );
                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                        }
                                                    };
                                                    {
                                                        let __v29: f32 = rt::ops::ScalarOps::acc_sub(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    __v22,
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        f32::from_bits(1073741824u32),
                                                                        __v25,
                                                                    ),
                                                                ),
                                                                __v28,
                                                            ),
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    __v20,
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        f32::from_bits(1073741824u32),
                                                                        __v23,
                                                                    ),
                                                                ),
                                                                __v26,
                                                            ),
                                                        );
                                                        {
                                                            let __v30: f32 = rt::ops::ScalarOps::acc_sub(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        __v26,
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            f32::from_bits(1073741824u32),
                                                                            __v27,
                                                                        ),
                                                                    ),
                                                                    __v28,
                                                                ),
                                                                rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        __v20,
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            f32::from_bits(1073741824u32),
                                                                            __v21,
                                                                        ),
                                                                    ),
                                                                    __v22,
                                                                ),
                                                            );
                                                            {
                                                                let __v31: f32 = <f32>::sqrt(
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_mul(__v29, __v29),
                                                                        rt::ops::ScalarOps::acc_mul(__v30, __v30),
                                                                    ),
                                                                );
                                                                {
                                                                    let __v32: i32 = (<f32>::round(
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            <f32>::atan2(__v30, __v29),
                                                                            rt::ops::ScalarOps::acc_div(
                                                                                f32::from_bits(1082130432u32),
                                                                                f32::from_bits(1078530011u32),
                                                                            ),
                                                                        ),
                                                                    ) as i32);
                                                                    {
                                                                        (
                                                                            __v31,
                                                                            rt::ops::ScalarOps::acc_rem(
                                                                                rt::ops::ScalarOps::acc_add(__v32, (4i32)),
                                                                                (4i32),
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
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v75: [usize; 2] = __ix;
                    {
                        let __v20: f32 = {
                            let __c: [usize; 2] = __v75;
                            match rt::cpu::stencil::resolve(
                                &__b3_shape,
                                &__c,
                                [-1isize, -1isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    unsafe { rt::cpu::at(__b3_c0, __o) }
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v21: f32 = {
                                let __c: [usize; 2] = __v75;
                                match rt::cpu::stencil::resolve(
                                    &__b3_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        unsafe { rt::cpu::at(__b3_c0, __o) }
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v22: f32 = {
                                    let __c: [usize; 2] = __v75;
                                    match rt::cpu::stencil::resolve(
                                        &__b3_shape,
                                        &__c,
                                        [-1isize, 1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v23: f32 = {
                                        let __c: [usize; 2] = __v75;
                                        match rt::cpu::stencil::resolve(
                                            &__b3_shape,
                                            &__c,
                                            [0isize, -1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                unsafe { rt::cpu::at(__b3_c0, __o) }
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v25: f32 = {
                                            let __c: [usize; 2] = __v75;
                                            match rt::cpu::stencil::resolve(
                                                &__b3_shape,
                                                &__c,
                                                [0isize, 1isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    unsafe { rt::cpu::at(__b3_c0, __o) }
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v26: f32 = {
                                                let __c: [usize; 2] = __v75;
                                                match rt::cpu::stencil::resolve(
                                                    &__b3_shape,
                                                    &__c,
                                                    [1isize, -1isize],
                                                    rt::cpu::Bound::Clamp,
                                                ) {
                                                    ::core::option::Option::Some(__l) => {
                                                        let __o: usize = __l;
                                                        unsafe { rt::cpu::at(__b3_c0, __o) }
                                                    }
                                                    ::core::option::Option::None => {
                                                        ::core::default::Default::default()
                                                    }
                                                }
                                            };
                                            {
                                                let __v27: f32 = {
                                                    let __c: [usize; 2] = __v75;
                                                    match rt::cpu::stencil::resolve(
                                                        &__b3_shape,
                                                        &__c,
                                                        [1isize, 0isize],
                                                        rt::cpu::Bound::Clamp,
                                                    ) {
                                                        ::core::option::Option::Some(__l) => {
                                                            let __o: usize = __l;
                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                        }
                                                        ::core::option::Option::None => {
                                                            ::core::default::Default::default()
                                                        }
                                                    }
                                                };
                                                {
                                                    let __v28: f32 = {
                                                        let __c: [usize; 2] = __v75;
                                                        match rt::cpu::stencil::resolve(
                                                            &__b3_shape,
                                                            &__c,
                                                            [1isize, 1isize],
                                                            rt::cpu::Bound::Clamp,
                                                        ) {
                                                            ::core::option::Option::Some(__l) => {
                                                                let __o: usize = __l;
                                                                unsafe { rt::cpu::at(__b3_c0, __o) }
                                                            }
                                                            ::core::option::Option::None => {
                                                                ::core::default::Default::default()
                                                            }
                                                        }
                                                    };
                                                    {
                                                        let __v29: f32 = rt::ops::ScalarOps::acc_sub(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    __v22,
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        f32::from_bits(1073741824u32),
                                                                        __v25,
                                                                    ),
                                                                ),
                                                                __v28,
                                                            ),
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    __v20,
                                                                    rt::ops::ScalarOps::acc_mul(
                                                                        f32::from_bits(1073741824u32),
                                                                        __v23,
                                                                    ),
                                                                ),
                                                                __v26,
                                                            ),
                                                        );
                                                        {
                                                            let __v30: f32 = rt::ops::ScalarOps::acc_sub(
                                                                rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        __v26,
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            f32::from_bits(1073741824u32),
                                                                            __v27,
                                                                        ),
                                                                    ),
                                                                    __v28,
                                                                ),
                                                                rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        __v20,
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            f32::from_bits(1073741824u32),
                                                                            __v21,
                                                                        ),
                                                                    ),
                                                                    __v22,
                                                                ),
                                                            );
                                                            {
                                                                let __v31: f32 = <f32>::sqrt(
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_mul(__v29, __v29),
                                                                        rt::ops::ScalarOps::acc_mul(__v30, __v30),
                                                                    ),
                                                                );
                                                                {
                                                                    let __v32: i32 = (<f32>::round(
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            <f32>::atan2(__v30, __v29),
                                                                            rt::ops::ScalarOps::acc_div(
                                                                                f32::from_bits(1082130432u32),
                                                                                f32::from_bits(1078530011u32),
                                                                            ),
                                                                        ),
                                                                    ) as i32);
                                                                    {
                                                                        (
                                                                            __v31,
                                                                            rt::ops::ScalarOps::acc_rem(
                                                                                rt::ops::ScalarOps::acc_add(__v32, (4i32)),
                                                                                (4i32),
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
                    }
                },
            )
        };
        let __b4_c0: &[f32] = &__b4.0[..];
        let __b4_c1: &[i32] = &__b4.1[..];
        __timer.end(__began, 3usize);
        __ctx.check()?;
        rt::Columns::recycle(__b3);
        let __began = __timer.begin();
        let __b5_shape: [usize; 2] = __b4_shape;
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
                        __b5_shape[0],
                        __b4_shape[0].saturating_sub(1usize),
                    ),
                    ::core::cmp::min(__b5_shape[1], __b4_shape[1].saturating_sub(1usize)),
                ],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v76: [usize; 2] = __ix;
                    {
                        let __v34: (f32, i32) = {
                            let __c: [usize; 2] = __v76;
                            if rt::cpu::VERIFY_ELISIONS {
                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                    (__c[__d] as isize + [-1isize, -1isize][__d]) as usize
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
                                    [-1isize, -1isize],
                                );
                                (
                                    unsafe { rt::cpu::at(__b4_c0, __o) },
                                    unsafe { rt::cpu::at(__b4_c1, __o) },
                                )
                            }
                        };
                        {
                            let __v35: (f32, i32) = {
                                let __c: [usize; 2] = __v76;
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
                                    (
                                        unsafe { rt::cpu::at(__b4_c0, __o) },
                                        unsafe { rt::cpu::at(__b4_c1, __o) },
                                    )
                                }
                            };
                            {
                                let __v36: (f32, i32) = {
                                    let __c: [usize; 2] = __v76;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [-1isize, 1isize][__d]) as usize
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
                                            [-1isize, 1isize],
                                        );
                                        (
                                            unsafe { rt::cpu::at(__b4_c0, __o) },
                                            unsafe { rt::cpu::at(__b4_c1, __o) },
                                        )
                                    }
                                };
                                {
                                    let __v37: (f32, i32) = {
                                        let __c: [usize; 2] = __v76;
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
                                            (
                                                unsafe { rt::cpu::at(__b4_c0, __o) },
                                                unsafe { rt::cpu::at(__b4_c1, __o) },
                                            )
                                        }
                                    };
                                    {
                                        let __v38: (f32, i32) = {
                                            let __c: [usize; 2] = __v76;
                                            if rt::cpu::VERIFY_ELISIONS {
                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                    (__c[__d] as isize + [0isize, 0isize][__d]) as usize
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
                                                    [0isize, 0isize],
                                                );
                                                (
                                                    unsafe { rt::cpu::at(__b4_c0, __o) },
                                                    unsafe { rt::cpu::at(__b4_c1, __o) },
                                                )
                                            }
                                        };
                                        {
                                            let __v39: (f32, i32) = {
                                                let __c: [usize; 2] = __v76;
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
                                                    (
                                                        unsafe { rt::cpu::at(__b4_c0, __o) },
                                                        unsafe { rt::cpu::at(__b4_c1, __o) },
                                                    )
                                                }
                                            };
                                            {
                                                let __v40: (f32, i32) = {
                                                    let __c: [usize; 2] = __v76;
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                            (__c[__d] as isize + [1isize, -1isize][__d]) as usize
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
                                                            [1isize, -1isize],
                                                        );
                                                        (
                                                            unsafe { rt::cpu::at(__b4_c0, __o) },
                                                            unsafe { rt::cpu::at(__b4_c1, __o) },
                                                        )
                                                    }
                                                };
                                                {
                                                    let __v41: (f32, i32) = {
                                                        let __c: [usize; 2] = __v76;
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
                                                            (
                                                                unsafe { rt::cpu::at(__b4_c0, __o) },
                                                                unsafe { rt::cpu::at(__b4_c1, __o) },
                                                            )
                                                        }
                                                    };
                                                    {
                                                        let __v42: (f32, i32) = {
                                                            let __c: [usize; 2] = __v76;
                                                            if rt::cpu::VERIFY_ELISIONS {
                                                                let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                                    (__c[__d] as isize + [1isize, 1isize][__d]) as usize
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
                                                                    [1isize, 1isize],
                                                                );
                                                                (
                                                                    unsafe { rt::cpu::at(__b4_c0, __o) },
                                                                    unsafe { rt::cpu::at(__b4_c1, __o) },
                                                                )
                                                            }
                                                        };
                                                        {
                                                            let __v43: f32 = __v38.0;
                                                            {
                                                                let __v44: i32 = __v38.1;
                                                                {
                                                                    let __v46: (f32, f32) = {
                                                                        let __v45: i32 = __v44;
                                                                        {
                                                                            let __then = { (__v37.0, __v39.0) };
                                                                            let __else = {
                                                                                let __then = { (__v34.0, __v42.0) };
                                                                                let __else = {
                                                                                    let __then = { (__v35.0, __v41.0) };
                                                                                    let __else = { (__v36.0, __v40.0) };
                                                                                    if (__v45 == (2i32)) { __then } else { __else }
                                                                                };
                                                                                if (__v45 == (1i32)) { __then } else { __else }
                                                                            };
                                                                            if (__v45 == (0i32)) { __then } else { __else }
                                                                        }
                                                                    };
                                                                    {
                                                                        let __v47: f32 = __v46.0;
                                                                        {
                                                                            let __v48: f32 = __v46.1;
                                                                            {
                                                                                let __v49: f32 = {
                                                                                    let __then = f32::from_bits(0u32);
                                                                                    let __else = {
                                                                                        let __then = f32::from_bits(1065353216u32);
                                                                                        let __else = f32::from_bits(1056964608u32);
                                                                                        if (__v43 >= __v2) { __then } else { __else }
                                                                                    };
                                                                                    if (((__v43 < __v1) || (__v43 < __v47)) || (__v43 < __v48))
                                                                                    {
                                                                                        __then
                                                                                    } else {
                                                                                        __else
                                                                                    }
                                                                                };
                                                                                __v49
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
                    }
                },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; 2]| {
                    let __v76: [usize; 2] = __ix;
                    {
                        let __v34: (f32, i32) = {
                            let __c: [usize; 2] = __v76;
                            match rt::cpu::stencil::resolve(
                                &__b4_shape,
                                &__c,
                                [-1isize, -1isize],
                                rt::cpu::Bound::Clamp,
                            ) {
                                ::core::option::Option::Some(__l) => {
                                    let __o: usize = __l;
                                    (
                                        unsafe { rt::cpu::at(__b4_c0, __o) },
                                        unsafe { rt::cpu::at(__b4_c1, __o) },
                                    )
                                }
                                ::core::option::Option::None => {
                                    ::core::default::Default::default()
                                }
                            }
                        };
                        {
                            let __v35: (f32, i32) = {
                                let __c: [usize; 2] = __v76;
                                match rt::cpu::stencil::resolve(
                                    &__b4_shape,
                                    &__c,
                                    [-1isize, 0isize],
                                    rt::cpu::Bound::Clamp,
                                ) {
                                    ::core::option::Option::Some(__l) => {
                                        let __o: usize = __l;
                                        (
                                            unsafe { rt::cpu::at(__b4_c0, __o) },
                                            unsafe { rt::cpu::at(__b4_c1, __o) },
                                        )
                                    }
                                    ::core::option::Option::None => {
                                        ::core::default::Default::default()
                                    }
                                }
                            };
                            {
                                let __v36: (f32, i32) = {
                                    let __c: [usize; 2] = __v76;
                                    match rt::cpu::stencil::resolve(
                                        &__b4_shape,
                                        &__c,
                                        [-1isize, 1isize],
                                        rt::cpu::Bound::Clamp,
                                    ) {
                                        ::core::option::Option::Some(__l) => {
                                            let __o: usize = __l;
                                            (
                                                unsafe { rt::cpu::at(__b4_c0, __o) },
                                                unsafe { rt::cpu::at(__b4_c1, __o) },
                                            )
                                        }
                                        ::core::option::Option::None => {
                                            ::core::default::Default::default()
                                        }
                                    }
                                };
                                {
                                    let __v37: (f32, i32) = {
                                        let __c: [usize; 2] = __v76;
                                        match rt::cpu::stencil::resolve(
                                            &__b4_shape,
                                            &__c,
                                            [0isize, -1isize],
                                            rt::cpu::Bound::Clamp,
                                        ) {
                                            ::core::option::Option::Some(__l) => {
                                                let __o: usize = __l;
                                                (
                                                    unsafe { rt::cpu::at(__b4_c0, __o) },
                                                    unsafe { rt::cpu::at(__b4_c1, __o) },
                                                )
                                            }
                                            ::core::option::Option::None => {
                                                ::core::default::Default::default()
                                            }
                                        }
                                    };
                                    {
                                        let __v38: (f32, i32) = {
                                            let __c: [usize; 2] = __v76;
                                            match rt::cpu::stencil::resolve(
                                                &__b4_shape,
                                                &__c,
                                                [0isize, 0isize],
                                                rt::cpu::Bound::Clamp,
                                            ) {
                                                ::core::option::Option::Some(__l) => {
                                                    let __o: usize = __l;
                                                    (
                                                        unsafe { rt::cpu::at(__b4_c0, __o) },
                                                        unsafe { rt::cpu::at(__b4_c1, __o) },
                                                    )
                                                }
                                                ::core::option::Option::None => {
                                                    ::core::default::Default::default()
                                                }
                                            }
                                        };
                                        {
                                            let __v39: (f32, i32) = {
                                                let __c: [usize; 2] = __v76;
                                                match rt::cpu::stencil::resolve(
                                                    &__b4_shape,
                                                    &__c,
                                                    [0isize, 1isize],
                                                    rt::cpu::Bound::Clamp,
                                                ) {
                                                    ::core::option::Option::Some(__l) => {
                                                        let __o: usize = __l;
                                                        (
                                                            unsafe { rt::cpu::at(__b4_c0, __o) },
                                                            unsafe { rt::cpu::at(__b4_c1, __o) },
                                                        )
                                                    }
                                                    ::core::option::Option::None => {
                                                        ::core::default::Default::default()
                                                    }
                                                }
                                            };
                                            {
                                                let __v40: (f32, i32) = {
                                                    let __c: [usize; 2] = __v76;
                                                    match rt::cpu::stencil::resolve(
                                                        &__b4_shape,
                                                        &__c,
                                                        [1isize, -1isize],
                                                        rt::cpu::Bound::Clamp,
                                                    ) {
                                                        ::core::option::Option::Some(__l) => {
                                                            let __o: usize = __l;
                                                            (
                                                                unsafe { rt::cpu::at(__b4_c0, __o) },
                                                                unsafe { rt::cpu::at(__b4_c1, __o) },
                                                            )
                                                        }
                                                        ::core::option::Option::None => {
                                                            ::core::default::Default::default()
                                                        }
                                                    }
                                                };
                                                {
                                                    let __v41: (f32, i32) = {
                                                        let __c: [usize; 2] = __v76;
                                                        match rt::cpu::stencil::resolve(
                                                            &__b4_shape,
                                                            &__c,
                                                            [1isize, 0isize],
                                                            rt::cpu::Bound::Clamp,
                                                        ) {
                                                            ::core::option::Option::Some(__l) => {
                                                                let __o: usize = __l;
                                                                (
                                                                    unsafe { rt::cpu::at(__b4_c0, __o) },
                                                                    unsafe { rt::cpu::at(__b4_c1, __o) },
                                                                )
                                                            }
                                                            ::core::option::Option::None => {
                                                                ::core::default::Default::default()
                                                            }
                                                        }
                                                    };
                                                    {
                                                        let __v42: (f32, i32) = {
                                                            let __c: [usize; 2] = __v76;
                                                            match rt::cpu::stencil::resolve(
                                                                &__b4_shape,
                                                                &__c,
                                                                [1isize, 1isize],
                                                                rt::cpu::Bound::Clamp,
                                                            ) {
                                                                ::core::option::Option::Some(__l) => {
                                                                    let __o: usize = __l;
                                                                    (
                                                                        unsafe { rt::cpu::at(__b4_c0, __o) },
                                                                        unsafe { rt::cpu::at(__b4_c1, __o) },
                                                                    )
                                                                }
                                                                ::core::option::Option::None => {
                                                                    ::core::default::Default::default()
                                                                }
                                                            }
                                                        };
                                                        {
                                                            let __v43: f32 = __v38.0;
                                                            {
                                                                let __v44: i32 = __v38.1;
                                                                {
                                                                    let __v46: (f32, f32) = {
                                                                        let __v45: i32 = __v44;
                                                                        {
                                                                            let __then = { (__v37.0, __v39.0) };
                                                                            let __else = {
                                                                                let __then = { (__v34.0, __v42.0) };
                                                                                let __else = {
                                                                                    let __then = { (__v35.0, __v41.0) };
                                                                                    let __else = { (__v36.0, __v40.0) };
                                                                                    if (__v45 == (2i32)) { __then } else { __else }
                                                                                };
                                                                                if (__v45 == (1i32)) { __then } else { __else }
                                                                            };
                                                                            if (__v45 == (0i32)) { __then } else { __else }
                                                                        }
                                                                    };
                                                                    {
                                                                        let __v47: f32 = __v46.0;
                                                                        {
                                                                            let __v48: f32 = __v46.1;
                                                                            {
                                                                                let __v49: f32 = {
                                                                                    let __then = f32::from_bits(0u32);
                                                                                    let __else = {
                                                                                        let __then = f32::from_bits(1065353216u32);
                                                                                        let __else = f32::from_bits(1056964608u32);
                                                                                        if (__v43 >= __v2) { __then } else { __else }
                                                                                    };
                                                                                    if (((__v43 < __v1) || (__v43 < __v47)) || (__v43 < __v48))
                                                                                    {
                                                                                        __then
                                                                                    } else {
                                                                                        __else
                                                                                    }
                                                                                };
                                                                                __v49
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
                    }
                },
            )
        };
        let __b5_c0: &[f32] = &__b5[..];
        __timer.end(__began, 4usize);
        __ctx.check()?;
        rt::Columns::recycle(__b4);
        rt::host::check_reshape(
                &__b5_shape,
                &[rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1])],
            )
            .map_err(|__e| {
                __e
                    .or_at(
                        ::core::option::Option::Some(
                            ::core::concat!(::core::file!(), ":1:1422"),
                        ),
                    )
            })?;
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1]);
        let __b6_shape: [usize; 1] = [__h0];
        rt::host::extent("scan", &__b6_shape)?;
        rt::cpu::reserve::<usize>("scan", &__b6_shape)?;
        let __b7_shape: [usize; 0] = [];
        rt::host::extent("scan", &__b7_shape)?;
        rt::cpu::reserve::<usize>("scan", &__b7_shape)?;
        let __in6 = [__h0];
        rt::host::extent("scan", &__in6)?;
        let (__rows, __len) = rt::cpu::rows_of(&__in6);
        #[allow(unused_variables)]
        let __rows_at = rt::cpu::IndexOf::new(&__in6);
        let (__b6, __b7): (<usize as rt::Elem>::Columns, <usize as rt::Elem>::Columns) = {
            let __ctx = &__ctx;
            rt::cpu::scan_exclusive::<
                <usize as rt::Elem>::Columns,
            >(
                __rows,
                __len,
                rt::cpu::ScanDir::Left,
                #[inline(always)]
                move |__r: usize, __j: usize| {
                    let __v84: usize = __r * __len + __j;
                    {
                        let __v57: (usize, f32) = {
                            let __v82: usize = __v84;
                            {
                                let __v52: usize = {
                                    let __v77: usize = __v82;
                                    {
                                        let __v51: [usize; 1] = [__v77];
                                        __v51[0]
                                    }
                                };
                                {
                                    let __v53: f32 = {
                                        let __v78: usize = __v82;
                                        {
                                            let __o: usize = __v78;
                                            unsafe { rt::cpu::at(__b5_c0, __o) }
                                        }
                                    };
                                    { (__v52, __v53) }
                                }
                            }
                        };
                        (({
                            let __v55: (usize, f32) = __v57;
                            {
                                let __v56: f32 = __v55.1;
                                (__v56 == f32::from_bits(1065353216u32))
                            }
                        } as u8) as usize)
                    }
                },
                (0usize),
                {
                    #[inline(always)]
                    |__v58: usize, __v59: usize| -> usize {
                        rt::ops::ScalarOps::acc_add(__v58, __v59)
                    }
                },
            )
        };
        let __b6_c0: &[usize] = &__b6[..];
        let __b7_c0: &[usize] = &__b7[..];
        __timer.end(__began, 5usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __b8_shape: [usize; 1] = [
            {
                let __o: usize = (0usize);
                unsafe { rt::cpu::at(__b7_c0, __o) }
            },
        ];
        rt::host::extent("generate", &__b8_shape)?;
        rt::cpu::reserve::<(usize, f32)>("generate", &__b8_shape)?;
        let __b8: <(usize, f32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(usize, f32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b8_shape),
            #[inline(always)]
            |__v85: usize| {
                let __v60: [usize; 1] = [__v85];
                { ((0usize), f32::from_bits(0u32)) }
            },
        );
        let __b8_c0: &[usize] = &__b8.0[..];
        let __b8_c1: &[f32] = &__b8.1[..];
        __timer.end(__began, 6usize);
        __ctx.check()?;
        rt::host::check_reshape(
                &__b5_shape,
                &[rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1])],
            )
            .map_err(|__e| {
                __e
                    .or_at(
                        ::core::option::Option::Some(
                            ::core::concat!(::core::file!(), ":1:1422"),
                        ),
                    )
            })?;
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_mul(__b5_shape[0], __b5_shape[1]);
        let __b9_shape: [usize; 1] = __b8_shape;
        rt::host::extent("permute", &__b9_shape)?;
        rt::cpu::reserve::<(usize, f32)>("permute", &__b9_shape)?;
        let __in9 = [__h0];
        rt::host::extent("permute", &__in9)?;
        let __index_of = rt::cpu::IndexOf::new(&__in9);
        let mut __b9: <(usize, f32) as rt::Elem>::Columns = __b8;
        {
            let __ctx = &__ctx;
            if ([__h0][0]) <= (__b6_shape)[0] {
                rt::cpu::permute::<
                    <(usize, f32) as rt::Elem>::Columns,
                >(
                    &mut __b9,
                    rt::shape::size(&__in9),
                    #[inline(always)]
                    move |__i: usize| {
                        let __v61: [usize; 1] = __index_of.at(__i);
                        match {
                            let __then = ::core::option::Option::Some([
                                {
                                    let __v93 = [__v61[0]];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v93,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b6_shape, &__v93);
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                },
                            ]);
                            let __else = ::core::option::Option::None;
                            if (if (rt::ops::ScalarOps::acc_add(__v61[0], (1usize))
                                < [__h0][0])
                            {
                                {
                                    let __v92 = [
                                        rt::ops::ScalarOps::acc_add(__v61[0], (1usize)),
                                    ];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "extents compared at kernel entry",
                                            "index",
                                            &__v92,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b6_shape, &__v92);
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                }
                            } else {
                                {
                                    let __o: usize = (0usize);
                                    unsafe { rt::cpu::at(__b7_c0, __o) }
                                }
                            }
                                != {
                                    let __v93 = [__v61[0]];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v93,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b6_shape, &__v93);
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                })
                            {
                                __then
                            } else {
                                __else
                            }
                        } {
                            ::core::option::Option::Some(__t) => {
                                __ctx
                                    .index(
                                        "permute",
                                        ::core::option::Option::Some(
                                            ::core::concat!(::core::file!(), ":1:1450"),
                                        ),
                                        __t,
                                        __b9_shape,
                                    )
                            }
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    },
                    #[inline(always)]
                    move |__v91: usize| {
                        let __v52: usize = {
                            let __v86: usize = __v91;
                            {
                                let __v51: [usize; 1] = [__v86];
                                __v51[0]
                            }
                        };
                        {
                            let __v53: f32 = {
                                let __v87: usize = __v91;
                                {
                                    let __o: usize = __v87;
                                    unsafe { rt::cpu::at(__b5_c0, __o) }
                                }
                            };
                            { (__v52, __v53) }
                        }
                    },
                    {
                        #[inline(always)]
                        |__v62: (usize, f32), __v63: (usize, f32)| -> (usize, f32) {
                            __v62
                        }
                    },
                );
            } else {
                rt::cpu::permute::<
                    <(usize, f32) as rt::Elem>::Columns,
                >(
                    &mut __b9,
                    rt::shape::size(&__in9),
                    #[inline(always)]
                    move |__i: usize| {
                        let __v61: [usize; 1] = __index_of.at(__i);
                        match {
                            let __then = ::core::option::Option::Some([
                                {
                                    let __v93 = [__v61[0]];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v93,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b6_shape, &__v93);
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                },
                            ]);
                            let __else = ::core::option::Option::None;
                            if (if (rt::ops::ScalarOps::acc_add(__v61[0], (1usize))
                                < [__h0][0])
                            {
                                {
                                    let __v92 = [
                                        rt::ops::ScalarOps::acc_add(__v61[0], (1usize)),
                                    ];
                                    if __ctx
                                        .index(
                                            "index",
                                            ::core::option::Option::Some(
                                                ::core::concat!(::core::file!(), ":1:1450"),
                                            ),
                                            __v92,
                                            __b6_shape,
                                        )
                                        .is_some()
                                    {
                                        {
                                            let __o: usize = rt::shape::to_linear(&__b6_shape, &__v92);
                                            unsafe { rt::cpu::at(__b6_c0, __o) }
                                        }
                                    } else {
                                        ::core::default::Default::default()
                                    }
                                }
                            } else {
                                {
                                    let __o: usize = (0usize);
                                    unsafe { rt::cpu::at(__b7_c0, __o) }
                                }
                            }
                                != {
                                    let __v93 = [__v61[0]];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v93,
                                            &__b6_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b6_shape, &__v93);
                                        unsafe { rt::cpu::at(__b6_c0, __o) }
                                    }
                                })
                            {
                                __then
                            } else {
                                __else
                            }
                        } {
                            ::core::option::Option::Some(__t) => {
                                __ctx
                                    .index(
                                        "permute",
                                        ::core::option::Option::Some(
                                            ::core::concat!(::core::file!(), ":1:1450"),
                                        ),
                                        __t,
                                        __b9_shape,
                                    )
                            }
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    },
                    #[inline(always)]
                    move |__v91: usize| {
                        let __v52: usize = {
                            let __v86: usize = __v91;
                            {
                                let __v51: [usize; 1] = [__v86];
                                __v51[0]
                            }
                        };
                        {
                            let __v53: f32 = {
                                let __v87: usize = __v91;
                                {
                                    let __o: usize = __v87;
                                    unsafe { rt::cpu::at(__b5_c0, __o) }
                                }
                            };
                            { (__v52, __v53) }
                        }
                    },
                    {
                        #[inline(always)]
                        |__v62: (usize, f32), __v63: (usize, f32)| -> (usize, f32) {
                            __v62
                        }
                    },
                );
            }
        }
        let __b9_c0: &[usize] = &__b9.0[..];
        let __b9_c1: &[f32] = &__b9.1[..];
        __timer.end(__began, 7usize);
        __ctx.check()?;
        rt::Columns::recycle(__b6);
        rt::Columns::recycle(__b7);
        let __began = __timer.begin();
        let __b10_shape: [usize; 1] = __b9_shape;
        rt::host::extent("map", &__b10_shape)?;
        rt::cpu::reserve::<usize>("map", &__b10_shape)?;
        let __b10: <usize as rt::Elem>::Columns = rt::cpu::generate::<
            <usize as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b10_shape),
            #[inline(always)]
            |__v97: usize| {
                let __v66: (usize, f32) = {
                    let __v94: usize = __v97;
                    {
                        let __o: usize = __v94;
                        (
                            unsafe { rt::cpu::at(__b9_c0, __o) },
                            unsafe { rt::cpu::at(__b9_c1, __o) },
                        )
                    }
                };
                {
                    let __v67: usize = __v66.0;
                    __v67
                }
            },
        );
        let __b10_c0: &[usize] = &__b10[..];
        __timer.end(__began, 8usize);
        __ctx.check()?;
        rt::Columns::recycle(__b9);
        let __result = (
            {
                let (__c, __s) = (__b5, __b5_shape);
                rt::Array::<f32, 2>::from_columns(__s, __c)?
            },
            {
                let (__c, __s) = (__b10, __b10_shape);
                rt::Array::<usize, 1>::from_columns(__s, __c)?
            },
        );
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
