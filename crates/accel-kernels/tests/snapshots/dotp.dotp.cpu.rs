fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "dotp",
            &["kernel 0: fold -> b2   fuses: zip_with -> fold"],
        );
        let __b0_shape = xs.shape();
        let __b0 = xs.try_columns()?;
        let __b0_c0: &[f32] = &__b0[..];
        let __b1_shape = ys.shape();
        let __b1 = ys.try_columns()?;
        let __b1_c0: &[f32] = &__b1[..];
        let __began = __timer.begin();
        let __h0: usize = rt::ops::ScalarOps::acc_min(__b0_shape[0], __b1_shape[0]);
        let __b2_shape: [usize; 0] = [];
        rt::host::extent("fold", &__b2_shape)?;
        rt::cpu::reserve::<f32>("fold", &__b2_shape)?;
        let __in2 = [__h0];
        rt::host::extent("fold", &__in2)?;
        let (__rows, __len) = rt::cpu::rows_of(&__in2);
        #[allow(unused_variables)]
        let __rows_at = rt::cpu::IndexOf::new(&__in2);
        let __b2: <f32 as rt::Elem>::Columns = rt::Columns::from_elems(
            &[
                (|__x: f32| -> f32 {
                    __x
                })(
                    rt::cpu::fold_all(
                        rt::cpu::Order::Commutative,
                        rt::shape::size(&__in2),
                        #[inline(always)]
                        |__v11: usize| {
                            let __v2: f32 = {
                                let __v6: usize = __v11;
                                {
                                    let __o: usize = __v6;
                                    unsafe { rt::cpu::at(__b0_c0, __o) }
                                }
                            };
                            {
                                let __v3: f32 = {
                                    let __v8: usize = __v11;
                                    {
                                        let __o: usize = __v8;
                                        unsafe { rt::cpu::at(__b1_c0, __o) }
                                    }
                                };
                                rt::ops::ScalarOps::acc_mul(__v2, __v3)
                            }
                        },
                        f32::from_bits(0u32),
                        {
                            #[inline(always)]
                            |__v4: f32, __v5: f32| -> f32 {
                                rt::ops::ScalarOps::acc_add(__v4, __v5)
                            }
                        },
                    ),
                ),
            ],
        );
        let __b2_c0: &[f32] = &__b2[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b2, __b2_shape);
            rt::Array::<f32, 0>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
