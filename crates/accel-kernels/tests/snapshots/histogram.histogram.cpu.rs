fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "histogram",
            &[
                "kernel 0: generate -> b1   fuses: generate",
                "kernel 1: permute -> b2   fuses: map -> permute",
            ],
        );
        let __b0_shape = xs.shape();
        let __b0 = xs.try_columns()?;
        let __b0_c0: &[u32] = &__b0[..];
        let __v1 = bins;
        let __began = __timer.begin();
        let __b1_shape: [usize; 1] = [__v1];
        rt::host::extent("generate", &__b1_shape)?;
        rt::cpu::reserve::<u32>("generate", &__b1_shape)?;
        let __b1: <u32 as rt::Elem>::Columns = rt::cpu::generate::<
            <u32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b1_shape),
            #[inline(always)]
            |__v9: usize| {
                let __v2: [usize; 1] = [__v9];
                (0u32)
            },
        );
        let __b1_c0: &[u32] = &__b1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __began = __timer.begin();
        let __h0: <usize as rt::ops::FastDiv>::Divisor = rt::ops::FastDiv::divisor(__v1);
        let __b2_shape: [usize; 1] = __b1_shape;
        rt::host::extent("permute", &__b2_shape)?;
        rt::cpu::reserve::<u32>("permute", &__b2_shape)?;
        let __in2 = __b0_shape;
        rt::host::extent("permute", &__in2)?;
        let __index_of = rt::cpu::IndexOf::new(&__in2);
        let mut __b2: <u32 as rt::Elem>::Columns = __b1;
        {
            let __ctx = &__ctx;
            rt::cpu::permute_atomic::<
                u32,
            >(
                &mut __b2,
                rt::shape::size(&__in2),
                #[inline(always)]
                move |__i: usize| {
                    let __v5: [usize; 1] = __index_of.at(__i);
                    match {
                        let __v6: usize = __v5[0];
                        ::core::option::Option::Some([
                            rt::ops::FastDiv::fast_rem(
                                ({
                                    let __v14 = [__v6];
                                    if rt::cpu::VERIFY_ELISIONS {
                                        rt::cpu::verify_elision(
                                            "inside the iteration space",
                                            "index",
                                            &__v14,
                                            &__b0_shape,
                                        );
                                    }
                                    {
                                        let __o: usize = rt::shape::to_linear(&__b0_shape, &__v14);
                                        unsafe { rt::cpu::at(__b0_c0, __o) }
                                    }
                                } as usize),
                                __h0,
                            ),
                        ])
                    } {
                        ::core::option::Option::Some(__t) => {
                            __ctx
                                .index(
                                    "permute",
                                    ::core::option::Option::Some(
                                        ::core::concat!(::core::file!(), ":1:196"),
                                    ),
                                    __t,
                                    __b2_shape,
                                )
                        }
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                },
                #[inline(always)]
                move |__v13: usize| {
                    let __v4: u32 = {
                        let __v10: usize = __v13;
                        {
                            let __o: usize = __v10;
                            unsafe { rt::cpu::at(__b0_c0, __o) }
                        }
                    };
                    (1u32)
                },
                rt::cpu::AtomicOp::Add,
            );
        }
        let __b2_c0: &[u32] = &__b2[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b2, __b2_shape);
            rt::Array::<u32, 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
