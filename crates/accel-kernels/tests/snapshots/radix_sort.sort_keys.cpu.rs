fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "sort_keys",
            &["kernel 0: sort -> b1   fuses: sort"],
        );
        let __b0_shape = xs.shape();
        let __b0 = xs.try_columns()?;
        let __b0_c0: &[i32] = &__b0[..];
        let __began = __timer.begin();
        let __b1_shape: [usize; 1] = __b0_shape;
        rt::host::extent("sort", &__b1_shape)?;
        rt::cpu::reserve::<i32>("sort", &__b1_shape)?;
        let __in1 = __b0_shape;
        rt::host::extent("sort", &__in1)?;
        let __b1: <i32 as rt::Elem>::Columns = rt::cpu::sort_by_key::<
            <i32 as rt::Elem>::Columns,
            u32,
        >(
            rt::shape::size(&__in1),
            #[inline(always)]
            |__v3: usize| {
                let __o: usize = __v3;
                unsafe { rt::cpu::at(__b0_c0, __o) }
            },
            |__v2: i32| -> u32 {
                (({
                    let __v1: i32 = __v2;
                    __v1
                } as u32) ^ (2147483648u32))
            },
        );
        let __b1_c0: &[i32] = &__b1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __result = {
            let (__c, __s) = (__b1, __b1_shape);
            rt::Array::<i32, 1>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
