fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "sieve",
            &[
                "kernel 0: generate -> b1   fuses: generate",
                "kernel 1: expand_permute -> b2   fuses: expand -> map -> permute",
            ],
        );
        let __b0_shape = ps.shape();
        let __b0 = ps.try_columns()?;
        let __b0_c0: &[u64] = &__b0[..];
        let __v1 = n;
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_add(__v1, (1usize));
        let __b1_shape: [usize; 1] = [__h0];
        rt::host::extent("generate", &__b1_shape)?;
        rt::cpu::reserve::<bool>("generate", &__b1_shape)?;
        let __b1: <bool as rt::Elem>::Columns = rt::cpu::generate::<
            <bool as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b1_shape),
            #[inline(always)]
            |__v24: usize| {
                let __v2: [usize; 1] = [__v24];
                {
                    let __v3: usize = __v2[0];
                    (__v3 >= (2usize))
                }
            },
        );
        let __b1_c0: &[bool] = &__b1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: u64 = (__v1 as u64);
        let __b2_shape: [usize; 1] = __b1_shape;
        rt::host::extent("permute", &__b2_shape)?;
        rt::cpu::reserve::<bool>("permute", &__b2_shape)?;
        let __in2 = __b0_shape;
        rt::host::extent("permute", &__in2)?;
        let __src = {
            #[inline(always)]
            |__v25: usize| {
                let __o: usize = __v25;
                unsafe { rt::cpu::at(__b0_c0, __o) }
            }
        };
        let __count = |__x: &u64| -> usize {
            let __v9: u64 = *__x;
            ({
                let __v6: u64 = __v9;
                if (rt::ops::ScalarOps::acc_mul(__v6, __v6) <= __h0) {
                    rt::ops::ScalarOps::acc_add(
                        rt::ops::ScalarOps::acc_div(
                            rt::ops::ScalarOps::acc_sub(
                                __h0,
                                rt::ops::ScalarOps::acc_mul(__v6, __v6),
                            ),
                            __v6,
                        ),
                        (1u64),
                    )
                } else {
                    (0u64)
                }
            } as usize)
        };
        let __exp = rt::cpu::Expansion::new(rt::shape::size(&__in2), &__src, &__count);
        __ctx.check()?;
        let mut __b2: <bool as rt::Elem>::Columns = __b1;
        __exp
            .permute::<
                _,
                _,
                _,
                <bool as rt::Elem>::Columns,
            >(
                &mut __b2,
                &__src,
                &__count,
                |__x: &u64| {
                    let __v7: u64 = *__x;
                    (true, (__h0,))
                },
                rt::cpu::whole_runs,
                #[inline(always)]
                |
                    __x: &u64,
                    __p: &_,
                    __row: &_,
                    __i: usize,
                    __k: usize,
                    __j: usize,
                | -> ::core::option::Option<(usize, bool)> {
                    let __v7: u64 = *__x;
                    let (_, (__h0,)) = *__p;
                    let __v27: usize = __k;
                    let __v23: u64 = {
                        let __v8: u64 = (__v27 as u64);
                        rt::ops::ScalarOps::acc_add(
                            rt::ops::ScalarOps::acc_mul(__v7, __v7),
                            rt::ops::ScalarOps::acc_mul(__v8, __v7),
                        )
                    };
                    let __v23: u64 = __v23;
                    let __v28: usize = __j;
                    match {
                        let __v19: [usize; 1] = [__v28];
                        {
                            let __v20: usize = __v19[0];
                            ::core::option::Option::Some([(__v23 as usize)])
                        }
                    } {
                        ::core::option::Option::Some(__t) => {
                            __ctx
                                .index(
                                    "permute",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:425"),
                                    ),
                                    __t,
                                    __b2_shape,
                                )
                                .map(|__t| (
                                    __t,
                                    {
                                        let __v: bool = {
                                            let __v18: u64 = __v23;
                                            false
                                        };
                                        __v
                                    },
                                ))
                        }
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                },
                { #[inline(always)] |__v21: bool, __v22: bool| -> bool { __v21 } },
            );
        let __b2_c0: &[bool] = &__b2[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b2, __b2_shape);
            rt::Array::<bool, 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
