fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "bfs_step",
            &["kernel 0: expand_permute -> b4   fuses: expand -> map -> permute"],
        );
        let __b0_shape = frontier.shape();
        let __b0 = frontier.try_columns()?;
        let __b0_c0: &[u32] = &__b0[..];
        let __b1_shape = offsets.shape();
        let __b1 = offsets.try_columns()?;
        let __b1_c0: &[u32] = &__b1[..];
        let __b2_shape = edges.shape();
        let __b2 = edges.try_columns()?;
        let __b2_c0: &[u32] = &__b2[..];
        let __b3_shape = dist.shape();
        let __b3 = dist.try_columns()?;
        let __b3_c0: &[u32] = &__b3[..];
        let __v4 = level;
        let __began = __timer.begin();
        let __h0: u32 = rt::ops::ScalarOps::acc_add(__v4, (1u32));
        let __b4_shape: [usize; 1] = __b3_shape;
        rt::host::extent("permute", &__b4_shape)?;
        rt::cpu::reserve::<u32>("permute", &__b4_shape)?;
        let __in4 = __b0_shape;
        rt::host::extent("permute", &__in4)?;
        let __src = {
            #[inline(always)]
            |__v24: usize| {
                let __o: usize = __v24;
                unsafe { rt::cpu::at(__b0_c0, __o) }
            }
        };
        let __count = |__x: &u32| -> usize {
            let __v8: u32 = *__x;
            ({
                let __v5: u32 = __v8;
                rt::ops::ScalarOps::acc_sub(
                    {
                        let __v26 = [
                            rt::ops::ScalarOps::acc_add((__v5 as usize), (1usize)),
                        ];
                        if __ctx
                            .index(
                                "index",
                                ::core::option::Option::Some(
                                    ::core::concat!(::core::file!(), ":1:375"),
                                ),
                                __v26,
                                __b1_shape,
                            )
                            .is_some()
                        {
                            {
                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v26);
                                unsafe { rt::cpu::at(__b1_c0, __o) }
                            }
                        } else {
                            ::core::default::Default::default()
                        }
                    },
                    {
                        let __v27 = [(__v5 as usize)];
                        if __ctx
                            .index(
                                "index",
                                ::core::option::Option::Some(
                                    ::core::concat!(::core::file!(), ":1:404"),
                                ),
                                __v27,
                                __b1_shape,
                            )
                            .is_some()
                        {
                            {
                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v27);
                                unsafe { rt::cpu::at(__b1_c0, __o) }
                            }
                        } else {
                            ::core::default::Default::default()
                        }
                    },
                )
            } as usize)
        };
        let __exp = rt::cpu::Expansion::new(rt::shape::size(&__in4), &__src, &__count);
        __ctx.check()?;
        let mut __b4: <u32 as rt::Elem>::Columns = rt::Columns::copy(__b3);
        __exp
            .permute_atomic(
                &mut __b4,
                &__src,
                &__count,
                |__x: &u32| {
                    let __v6: u32 = *__x;
                    (true, (__v4, __h0))
                },
                rt::cpu::whole_runs,
                #[inline(always)]
                |
                    __x: &u32,
                    __p: &_,
                    __row: &_,
                    __i: usize,
                    __k: usize,
                    __j: usize,
                | -> ::core::option::Option<(usize, u32)> {
                    let __v6: u32 = *__x;
                    let (_, (__v4, __h0)) = *__p;
                    let __v28: usize = __k;
                    let __v23: u32 = {
                        let __v7: u32 = (__v28 as u32);
                        {
                            let __v30 = [
                                (rt::ops::ScalarOps::acc_add(
                                    {
                                        let __v29 = [(__v6 as usize)];
                                        if __ctx
                                            .index(
                                                "index",
                                                ::core::option::Option::Some(
                                                    ::core::concat!(::core::file!(), ":1:448"),
                                                ),
                                                __v29,
                                                __b1_shape,
                                            )
                                            .is_some()
                                        {
                                            {
                                                let __o: usize = rt::shape::to_linear(&__b1_shape, &__v29);
                                                unsafe { rt::cpu::at(__b1_c0, __o) }
                                            }
                                        } else {
                                            ::core::default::Default::default()
                                        }
                                    },
                                    __v7,
                                ) as usize),
                            ];
                            if __ctx
                                .index(
                                    "index",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:439"),
                                    ),
                                    __v30,
                                    __b2_shape,
                                )
                                .is_some()
                            {
                                {
                                    let __o: usize = rt::shape::to_linear(&__b2_shape, &__v30);
                                    unsafe { rt::cpu::at(__b2_c0, __o) }
                                }
                            } else {
                                ::core::default::Default::default()
                            }
                        }
                    };
                    let __v23: u32 = __v23;
                    let __v31: usize = __j;
                    match {
                        let __v18: [usize; 1] = [__v31];
                        {
                            let __v19: usize = __v18[0];
                            {
                                let __v20: usize = (__v23 as usize);
                                {
                                    let __then = ::core::option::Option::Some([__v20]);
                                    let __else = ::core::option::Option::None;
                                    if ({
                                        let __v32 = [__v20];
                                        if __ctx
                                            .index(
                                                "index",
                                                ::core::option::Option::Some(
                                                    ::core::concat!(::core::file!(), ":1:582"),
                                                ),
                                                __v32,
                                                __b3_shape,
                                            )
                                            .is_some()
                                        {
                                            {
                                                let __o: usize = rt::shape::to_linear(&__b3_shape, &__v32);
                                                unsafe { rt::cpu::at(__b3_c0, __o) }
                                            }
                                        } else {
                                            ::core::default::Default::default()
                                        }
                                    } == (4294967295u32))
                                    {
                                        __then
                                    } else {
                                        __else
                                    }
                                }
                            }
                        }
                    } {
                        ::core::option::Option::Some(__t) => {
                            __ctx
                                .index(
                                    "permute",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:523"),
                                    ),
                                    __t,
                                    __b4_shape,
                                )
                                .map(|__t| (
                                    __t,
                                    {
                                        let __v: u32 = {
                                            let __v17: u32 = __v23;
                                            __h0
                                        };
                                        __v
                                    },
                                ))
                        }
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                },
                rt::cpu::AtomicOp::Min,
            );
        let __b4_c0: &[u32] = &__b4[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b4, __b4_shape);
            rt::Array::<u32, 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
