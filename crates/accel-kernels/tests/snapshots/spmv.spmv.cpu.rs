fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "spmv",
            &["kernel 0: generate -> b4   fuses: generate"],
        );
        let __b0_shape = offsets.shape();
        let __b0 = offsets.try_columns()?;
        let __b0_c0: &[u32] = &__b0[..];
        let __b1_shape = cols.shape();
        let __b1 = cols.try_columns()?;
        let __b1_c0: &[u32] = &__b1[..];
        let __b2_shape = vals.shape();
        let __b2 = vals.try_columns()?;
        let __b2_c0: &[f32] = &__b2[..];
        let __b3_shape = x.shape();
        let __b3 = x.try_columns()?;
        let __b3_c0: &[f32] = &__b3[..];
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_sub(
            __b0_shape[0],
            rt::ops::ScalarOps::acc_min(__b0_shape[0], (1usize)),
        );
        let __h1: usize = rt::ops::ScalarOps::acc_min(__b2_shape[0], __b1_shape[0]);
        let __b4_shape: [usize; 1] = [__h0];
        rt::host::extent("generate", &__b4_shape)?;
        rt::cpu::reserve::<f32>("generate", &__b4_shape)?;
        let __b4: <f32 as rt::Elem>::Columns = if (([__h0])[0]) <= (__b0_shape)[0] {
            rt::cpu::generate_uneven::<
                <f32 as rt::Elem>::Columns,
            >(
                rt::shape::size(&__b4_shape),
                #[inline(always)]
                |__v46: usize| {
                    let __v9: [usize; 1] = [__v46];
                    {
                        let __v10: usize = {
                            let __v22 = [rt::ops::ScalarOps::acc_add(__v9[0], (1usize))];
                            if __ctx
                                .index(
                                    "index",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:331"),
                                    ),
                                    __v22,
                                    __b0_shape,
                                )
                                .is_some()
                            {
                                {
                                    let __v20: [usize; 1] = __v22;
                                    {
                                        let __v8: u32 = {
                                            let __v19: [usize; 1] = __v20;
                                            {
                                                let __o: usize = rt::shape::to_linear(&__b0_shape, &__v19);
                                                unsafe { rt::cpu::at(__b0_c0, __o) }
                                            }
                                        };
                                        (__v8 as usize)
                                    }
                                }
                            } else {
                                ::core::default::Default::default()
                            }
                        };
                        {
                            if !(({
                                let __v31 = [__v9[0]];
                                if rt::cpu::VERIFY_ELISIONS {
                                    rt::cpu::verify_elision(
                                        "extents compared at kernel entry",
                                        "index",
                                        &__v31,
                                        &__b0_shape,
                                    );
                                }
                                {
                                    let __v29: [usize; 1] = __v31;
                                    {
                                        let __v8: u32 = {
                                            let __v28: [usize; 1] = __v29;
                                            {
                                                let __o: usize = rt::shape::to_linear(&__b0_shape, &__v28);
                                                unsafe { rt::cpu::at(__b0_c0, __o) }
                                            }
                                        };
                                        (__v8 as usize)
                                    }
                                }
                            } <= __v10))
                            {
                                __ctx
                                    .fail(
                                        rt::Error::with_kind(
                                                rt::ErrorKind::InvalidArgument,
                                                "fold_seg_offsets",
                                                "segment offsets decrease",
                                            )
                                            .or_at(
                                                ::core::option::Option::Some(
                                                    ::core::concat!(::core::file!(), ":1:331"),
                                                ),
                                            ),
                                    );
                            }
                            {
                                if (__v10) <= ([__h1])[0] {
                                    {
                                        let mut __state = {
                                            (
                                                {
                                                    let __v31 = [__v9[0]];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "extents compared at kernel entry",
                                                            "index",
                                                            &__v31,
                                                            &__b0_shape,
                                                        );
                                                    }
                                                    {
                                                        let __v29: [usize; 1] = __v31;
                                                        {
                                                            let __v8: u32 = {
                                                                let __v28: [usize; 1] = __v29;
                                                                {
                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v28);
                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                }
                                                            };
                                                            (__v8 as usize)
                                                        }
                                                    }
                                                },
                                                f32::from_bits(0u32),
                                            )
                                        };
                                        loop {
                                            let (__v11, __v12) = __state;
                                            if !((__v11 < __v10)) {
                                                break __state;
                                            }
                                            __state = {
                                                (
                                                    rt::ops::ScalarOps::acc_add(__v11, (1usize)),
                                                    {
                                                        let __v6: f32 = __v12;
                                                        {
                                                            let __v7: f32 = {
                                                                let __v45 = [__v11];
                                                                if rt::cpu::VERIFY_ELISIONS {
                                                                    rt::cpu::verify_elision(
                                                                        "loop bound tested before the loop",
                                                                        "index",
                                                                        &__v45,
                                                                        &[__h1],
                                                                    );
                                                                }
                                                                {
                                                                    let __v43: [usize; 1] = __v45;
                                                                    {
                                                                        let __v4: f32 = {
                                                                            let __v40: [usize; 1] = __v43;
                                                                            {
                                                                                let __o: usize = rt::shape::to_linear(&__b2_shape, &__v40);
                                                                                unsafe { rt::cpu::at(__b2_c0, __o) }
                                                                            }
                                                                        };
                                                                        {
                                                                            let __v5: u32 = {
                                                                                let __v42: [usize; 1] = __v43;
                                                                                {
                                                                                    let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                                                    unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                }
                                                                            };
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v4,
                                                                                {
                                                                                    let __v36 = [(__v5 as usize)];
                                                                                    if __ctx
                                                                                        .index(
                                                                                            "index",
                                                                                            ::core::option::Option::Some(
                                                                                                ::core::concat!(::core::file!(), ":1:311"),
                                                                                            ),
                                                                                            __v36,
                                                                                            __b3_shape,
                                                                                        )
                                                                                        .is_some()
                                                                                    {
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b3_shape, &__v36);
                                                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                        }
                                                                                    } else {
                                                                                        ::core::default::Default::default()
                                                                                    }
                                                                                },
                                                                            )
                                                                        }
                                                                    }
                                                                }
                                                            };
                                                            rt::ops::ScalarOps::acc_add(__v6, __v7)
                                                        }
                                                    },
                                                )
                                            };
                                        }
                                    }
                                } else {
                                    {
                                        let mut __state = {
                                            (
                                                {
                                                    let __v31 = [__v9[0]];
                                                    if rt::cpu::VERIFY_ELISIONS {
                                                        rt::cpu::verify_elision(
                                                            "extents compared at kernel entry",
                                                            "index",
                                                            &__v31,
                                                            &__b0_shape,
                                                        );
                                                    }
                                                    {
                                                        let __v29: [usize; 1] = __v31;
                                                        {
                                                            let __v8: u32 = {
                                                                let __v28: [usize; 1] = __v29;
                                                                {
                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v28);
                                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                }
                                                            };
                                                            (__v8 as usize)
                                                        }
                                                    }
                                                },
                                                f32::from_bits(0u32),
                                            )
                                        };
                                        loop {
                                            let (__v11, __v12) = __state;
                                            if !((__v11 < __v10)) {
                                                break __state;
                                            }
                                            __state = {
                                                (
                                                    rt::ops::ScalarOps::acc_add(__v11, (1usize)),
                                                    {
                                                        let __v6: f32 = __v12;
                                                        {
                                                            let __v7: f32 = {
                                                                let __v45 = [__v11];
                                                                if __ctx
                                                                    .index(
                                                                        "index",
                                                                        ::core::option::Option::Some(
                                                                            ::core::concat!(::core::file!(), ":1:331"),
                                                                        ),
                                                                        __v45,
                                                                        [__h1],
                                                                    )
                                                                    .is_some()
                                                                {
                                                                    {
                                                                        let __v43: [usize; 1] = __v45;
                                                                        {
                                                                            let __v4: f32 = {
                                                                                let __v40: [usize; 1] = __v43;
                                                                                {
                                                                                    let __o: usize = rt::shape::to_linear(&__b2_shape, &__v40);
                                                                                    unsafe { rt::cpu::at(__b2_c0, __o) }
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v5: u32 = {
                                                                                    let __v42: [usize; 1] = __v43;
                                                                                    {
                                                                                        let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                                                        unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                    }
                                                                                };
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    __v4,
                                                                                    {
                                                                                        let __v36 = [(__v5 as usize)];
                                                                                        if __ctx
                                                                                            .index(
                                                                                                "index",
                                                                                                ::core::option::Option::Some(
                                                                                                    ::core::concat!(::core::file!(), ":1:311"),
                                                                                                ),
                                                                                                __v36,
                                                                                                __b3_shape,
                                                                                            )
                                                                                            .is_some()
                                                                                        {
                                                                                            {
                                                                                                let __o: usize = rt::shape::to_linear(&__b3_shape, &__v36);
                                                                                                unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                            }
                                                                                        } else {
                                                                                            ::core::default::Default::default()
                                                                                        }
                                                                                    },
                                                                                )
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    ::core::default::Default::default()
                                                                }
                                                            };
                                                            rt::ops::ScalarOps::acc_add(__v6, __v7)
                                                        }
                                                    },
                                                )
                                            };
                                        }
                                    }
                                }
                            }
                                .1
                        }
                    }
                },
            )
        } else {
            rt::cpu::generate_uneven::<
                <f32 as rt::Elem>::Columns,
            >(
                rt::shape::size(&__b4_shape),
                #[inline(always)]
                |__v46: usize| {
                    let __v9: [usize; 1] = [__v46];
                    {
                        let __v10: usize = {
                            let __v22 = [rt::ops::ScalarOps::acc_add(__v9[0], (1usize))];
                            if __ctx
                                .index(
                                    "index",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:331"),
                                    ),
                                    __v22,
                                    __b0_shape,
                                )
                                .is_some()
                            {
                                {
                                    let __v20: [usize; 1] = __v22;
                                    {
                                        let __v8: u32 = {
                                            let __v19: [usize; 1] = __v20;
                                            {
                                                let __o: usize = rt::shape::to_linear(&__b0_shape, &__v19);
                                                unsafe { rt::cpu::at(__b0_c0, __o) }
                                            }
                                        };
                                        (__v8 as usize)
                                    }
                                }
                            } else {
                                ::core::default::Default::default()
                            }
                        };
                        {
                            if !(({
                                let __v31 = [__v9[0]];
                                if __ctx
                                    .index(
                                        "index",
                                        ::core::option::Option::Some(
                                            ::core::concat!(::core::file!(), ":1:331"),
                                        ),
                                        __v31,
                                        __b0_shape,
                                    )
                                    .is_some()
                                {
                                    {
                                        let __v29: [usize; 1] = __v31;
                                        {
                                            let __v8: u32 = {
                                                let __v28: [usize; 1] = __v29;
                                                {
                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v28);
                                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                                }
                                            };
                                            (__v8 as usize)
                                        }
                                    }
                                } else {
                                    ::core::default::Default::default()
                                }
                            } <= __v10))
                            {
                                __ctx
                                    .fail(
                                        rt::Error::with_kind(
                                                rt::ErrorKind::InvalidArgument,
                                                "fold_seg_offsets",
                                                "segment offsets decrease",
                                            )
                                            .or_at(
                                                ::core::option::Option::Some(
                                                    ::core::concat!(::core::file!(), ":1:331"),
                                                ),
                                            ),
                                    );
                            }
                            {
                                if (__v10) <= ([__h1])[0] {
                                    {
                                        let mut __state = {
                                            (
                                                {
                                                    let __v31 = [__v9[0]];
                                                    if __ctx
                                                        .index(
                                                            "index",
                                                            ::core::option::Option::Some(
                                                                ::core::concat!(::core::file!(), ":1:331"),
                                                            ),
                                                            __v31,
                                                            __b0_shape,
                                                        )
                                                        .is_some()
                                                    {
                                                        {
                                                            let __v29: [usize; 1] = __v31;
                                                            {
                                                                let __v8: u32 = {
                                                                    let __v28: [usize; 1] = __v29;
                                                                    {
                                                                        let __o: usize = rt::shape::to_linear(&__b0_shape, &__v28);
                                                                        unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                    }
                                                                };
                                                                (__v8 as usize)
                                                            }
                                                        }
                                                    } else {
                                                        ::core::default::Default::default()
                                                    }
                                                },
                                                f32::from_bits(0u32),
                                            )
                                        };
                                        loop {
                                            let (__v11, __v12) = __state;
                                            if !((__v11 < __v10)) {
                                                break __state;
                                            }
                                            __state = {
                                                (
                                                    rt::ops::ScalarOps::acc_add(__v11, (1usize)),
                                                    {
                                                        let __v6: f32 = __v12;
                                                        {
                                                            let __v7: f32 = {
                                                                let __v45 = [__v11];
                                                                if rt::cpu::VERIFY_ELISIONS {
                                                                    rt::cpu::verify_elision(
                                                                        "loop bound tested before the loop",
                                                                        "index",
                                                                        &__v45,
                                                                        &[__h1],
                                                                    );
                                                                }
                                                                {
                                                                    let __v43: [usize; 1] = __v45;
                                                                    {
                                                                        let __v4: f32 = {
                                                                            let __v40: [usize; 1] = __v43;
                                                                            {
                                                                                let __o: usize = rt::shape::to_linear(&__b2_shape, &__v40);
                                                                                unsafe { rt::cpu::at(__b2_c0, __o) }
                                                                            }
                                                                        };
                                                                        {
                                                                            let __v5: u32 = {
                                                                                let __v42: [usize; 1] = __v43;
                                                                                {
                                                                                    let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                                                    unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                }
                                                                            };
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                __v4,
                                                                                {
                                                                                    let __v36 = [(__v5 as usize)];
                                                                                    if __ctx
                                                                                        .index(
                                                                                            "index",
                                                                                            ::core::option::Option::Some(
                                                                                                ::core::concat!(::core::file!(), ":1:311"),
                                                                                            ),
                                                                                            __v36,
                                                                                            __b3_shape,
                                                                                        )
                                                                                        .is_some()
                                                                                    {
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b3_shape, &__v36);
                                                                                            unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                        }
                                                                                    } else {
                                                                                        ::core::default::Default::default()
                                                                                    }
                                                                                },
                                                                            )
                                                                        }
                                                                    }
                                                                }
                                                            };
                                                            rt::ops::ScalarOps::acc_add(__v6, __v7)
                                                        }
                                                    },
                                                )
                                            };
                                        }
                                    }
                                } else {
                                    {
                                        let mut __state = {
                                            (
                                                {
                                                    let __v31 = [__v9[0]];
                                                    if __ctx
                                                        .index(
                                                            "index",
                                                            ::core::option::Option::Some(
                                                                ::core::concat!(::core::file!(), ":1:331"),
                                                            ),
                                                            __v31,
                                                            __b0_shape,
                                                        )
                                                        .is_some()
                                                    {
                                                        {
                                                            let __v29: [usize; 1] = __v31;
                                                            {
                                                                let __v8: u32 = {
                                                                    let __v28: [usize; 1] = __v29;
                                                                    {
                                                                        let __o: usize = rt::shape::to_linear(&__b0_shape, &__v28);
                                                                        unsafe { rt::cpu::at(__b0_c0, __o) }
                                                                    }
                                                                };
                                                                (__v8 as usize)
                                                            }
                                                        }
                                                    } else {
                                                        ::core::default::Default::default()
                                                    }
                                                },
                                                f32::from_bits(0u32),
                                            )
                                        };
                                        loop {
                                            let (__v11, __v12) = __state;
                                            if !((__v11 < __v10)) {
                                                break __state;
                                            }
                                            __state = {
                                                (
                                                    rt::ops::ScalarOps::acc_add(__v11, (1usize)),
                                                    {
                                                        let __v6: f32 = __v12;
                                                        {
                                                            let __v7: f32 = {
                                                                let __v45 = [__v11];
                                                                if __ctx
                                                                    .index(
                                                                        "index",
                                                                        ::core::option::Option::Some(
                                                                            ::core::concat!(::core::file!(), ":1:331"),
                                                                        ),
                                                                        __v45,
                                                                        [__h1],
                                                                    )
                                                                    .is_some()
                                                                {
                                                                    {
                                                                        let __v43: [usize; 1] = __v45;
                                                                        {
                                                                            let __v4: f32 = {
                                                                                let __v40: [usize; 1] = __v43;
                                                                                {
                                                                                    let __o: usize = rt::shape::to_linear(&__b2_shape, &__v40);
                                                                                    unsafe { rt::cpu::at(__b2_c0, __o) }
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v5: u32 = {
                                                                                    let __v42: [usize; 1] = __v43;
                                                                                    {
                                                                                        let __o: usize = rt::shape::to_linear(&__b1_shape, &__v42);
                                                                                        unsafe { rt::cpu::at(__b1_c0, __o) }
                                                                                    }
                                                                                };
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    __v4,
                                                                                    {
                                                                                        let __v36 = [(__v5 as usize)];
                                                                                        if __ctx
                                                                                            .index(
                                                                                                "index",
                                                                                                ::core::option::Option::Some(
                                                                                                    ::core::concat!(::core::file!(), ":1:311"),
                                                                                                ),
                                                                                                __v36,
                                                                                                __b3_shape,
                                                                                            )
                                                                                            .is_some()
                                                                                        {
                                                                                            {
                                                                                                let __o: usize = rt::shape::to_linear(&__b3_shape, &__v36);
                                                                                                unsafe { rt::cpu::at(__b3_c0, __o) }
                                                                                            }
                                                                                        } else {
                                                                                            ::core::default::Default::default()
                                                                                        }
                                                                                    },
                                                                                )
                                                                            }
                                                                        }
                                                                    }
                                                                } else {
                                                                    ::core::default::Default::default()
                                                                }
                                                            };
                                                            rt::ops::ScalarOps::acc_add(__v6, __v7)
                                                        }
                                                    },
                                                )
                                            };
                                        }
                                    }
                                }
                            }
                                .1
                        }
                    }
                },
            )
        };
        let __b4_c0: &[f32] = &__b4[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b4, __b4_shape);
            rt::Array::<f32, 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
