fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "diffuse",
            &[
                "kernel 0: generate -> b1   fuses: map",
                "kernel 1: generate -> b3   fuses: stencil",
            ],
        );
        let __b0_shape = x0.shape();
        let __b0 = x0.try_columns()?;
        let __b0_c0: &[f32] = &__b0[..];
        let __v1 = a;
        let __v2 = iters;
        let __v5: usize = __v2;
        __ctx.check()?;
        let __began = __timer.begin();
        let __b1_shape: [usize; 2] = __b0_shape;
        rt::host::extent("map", &__b1_shape)?;
        rt::cpu::reserve::<f32>("map", &__b1_shape)?;
        let __b1: <f32 as rt::Elem>::Columns = rt::cpu::generate::<
            <f32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b1_shape),
            #[inline(always)]
            |__v25: usize| {
                let __v3: f32 = {
                    let __v22: usize = __v25;
                    {
                        let __o: usize = __v22;
                        unsafe { rt::cpu::at(__b0_c0, __o) }
                    }
                };
                __v3
            },
        );
        let __b1_c0: &[f32] = &__b1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let mut __st0 = ((0usize), (__b1, __b1_shape));
        let (__v27, (__b4, __b4_shape)) = loop {
            let (__v6, (__b2, __b2_shape)) = __st0;
            let __b2_c0: &[f32] = &__b2[..];
            if !((__v6 < __v5)) {
                break (__v6, (__b2, __b2_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(__b2_shape[0], __b0_shape[0]);
            let __h1: usize = rt::ops::ScalarOps::acc_min(__b2_shape[1], __b0_shape[1]);
            let __h2: f32 = rt::ops::ScalarOps::acc_add(
                f32::from_bits(1065353216u32),
                rt::ops::ScalarOps::acc_mul(f32::from_bits(1082130432u32), __v1),
            );
            let __b3_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("stencil", &__b3_shape)?;
            rt::cpu::reserve::<f32>("stencil", &__b3_shape)?;
            let __b3: <f32 as rt::Elem>::Columns = {
                let __ctx = &__ctx;
                rt::cpu::stencil_generate::<
                    _,
                    2,
                >(
                    &__b3_shape,
                    [1usize, 1usize],
                    [
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b3_shape[0],
                                __b0_shape[0].saturating_sub(0usize),
                            ),
                            __b2_shape[0].saturating_sub(1usize),
                        ),
                        ::core::cmp::min(
                            ::core::cmp::min(
                                __b3_shape[1],
                                __b0_shape[1].saturating_sub(0usize),
                            ),
                            __b2_shape[1].saturating_sub(1usize),
                        ),
                    ],
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; 2]| {
                        let __v26: [usize; 2] = __ix;
                        {
                            let __v9: f32 = {
                                let __c: [usize; 2] = __v26;
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
                                let __v11: f32 = {
                                    let __c: [usize; 2] = __v26;
                                    if rt::cpu::VERIFY_ELISIONS {
                                        let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                            (__c[__d] as isize + [0isize, -1isize][__d]) as usize
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
                                            [0isize, -1isize],
                                        );
                                        unsafe { rt::cpu::at(__b2_c0, __o) }
                                    }
                                };
                                {
                                    let __v13: f32 = {
                                        let __c: [usize; 2] = __v26;
                                        if rt::cpu::VERIFY_ELISIONS {
                                            let __n: [usize; 2] = ::core::array::from_fn(|__d| {
                                                (__c[__d] as isize + [0isize, 1isize][__d]) as usize
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
                                                [0isize, 1isize],
                                            );
                                            unsafe { rt::cpu::at(__b2_c0, __o) }
                                        }
                                    };
                                    {
                                        let __v15: f32 = {
                                            let __c: [usize; 2] = __v26;
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
                                            let __v17: f32 = {
                                                let __c: [usize; 2] = __v26;
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
                                                    __v17,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v1,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v9, __v15),
                                                                __v11,
                                                            ),
                                                            __v13,
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
                        let __v26: [usize; 2] = __ix;
                        {
                            let __v9: f32 = {
                                let __c: [usize; 2] = __v26;
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
                                let __v11: f32 = {
                                    let __c: [usize; 2] = __v26;
                                    match rt::cpu::stencil::resolve(
                                        &__b2_shape,
                                        &__c,
                                        [0isize, -1isize],
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
                                    let __v13: f32 = {
                                        let __c: [usize; 2] = __v26;
                                        match rt::cpu::stencil::resolve(
                                            &__b2_shape,
                                            &__c,
                                            [0isize, 1isize],
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
                                            let __c: [usize; 2] = __v26;
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
                                            let __v17: f32 = {
                                                let __c: [usize; 2] = __v26;
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
                                                    __v17,
                                                    rt::ops::ScalarOps::acc_mul(
                                                        __v1,
                                                        rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_add(
                                                                rt::ops::ScalarOps::acc_add(__v9, __v15),
                                                                __v11,
                                                            ),
                                                            __v13,
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
            let __b3_c0: &[f32] = &__b3[..];
            __timer.end(__began, 1usize);
            __ctx.check()?;
            rt::Columns::recycle(__b2);
            let __res0 = rt::ops::ScalarOps::acc_add(__v6, (1usize));
            __st0 = (__res0, (__b3, __b3_shape));
        };
        let __b4_c0: &[f32] = &__b4[..];
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b4, __b4_shape);
            rt::Array::<f32, 2>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
