fn program() {
    {
        let __ctx = rt::host::Ctx::new();
        let __timer = rt::cpu::timing::CallTimer::start(
            "mandelbrot_unrolled",
            &[
                "kernel 0: generate -> b0   fuses: generate",
                "kernel 1: generate -> b1   fuses: map",
                "kernel 2: generate -> b3   fuses: zip_with -> zip_with -> zip_with -> zip_with -> zip_with -> zip_with -> zip_with -> zip_with",
                "kernel 3: generate -> b5   fuses: map",
            ],
        );
        let __v0 = w;
        let __v1 = h;
        let __v2 = limit;
        let __v3 = x0;
        let __v4 = y0;
        let __v5 = dx;
        let __v6 = dy;
        let __began = __timer.begin();
        let __b0_shape: [usize; 2] = [__v1, __v0];
        rt::host::extent("generate", &__b0_shape)?;
        rt::cpu::reserve::<(f32, f32)>("generate", &__b0_shape)?;
        let __b0: <(f32, f32) as rt::Elem>::Columns = {
            let (__rows, __len) = rt::cpu::rows_of(&__b0_shape);
            #[allow(unused_variables)]
            let __rows_at = rt::cpu::IndexOf::new(&__b0_shape);
            rt::cpu::generate_rows::<
                <(f32, f32) as rt::Elem>::Columns,
            >(
                __rows,
                __len,
                #[inline(always)]
                |__r: usize, __j: usize| {
                    #[allow(unused_variables)]
                    let __i: usize = __r * __len + __j;
                    let __v7: [usize; 2] = __rows_at.row(__r, __j);
                    {
                        let __v8: usize = __v7[0];
                        {
                            let __v9: usize = __v7[1];
                            {
                                (
                                    rt::ops::ScalarOps::acc_add(
                                        __v3,
                                        rt::ops::ScalarOps::acc_mul((__v9 as f32), __v5),
                                    ),
                                    rt::ops::ScalarOps::acc_add(
                                        __v4,
                                        rt::ops::ScalarOps::acc_mul((__v8 as f32), __v6),
                                    ),
                                )
                            }
                        }
                    }
                },
            )
        };
        let __b0_c0: &[f32] = &__b0.0[..];
        let __b0_c1: &[f32] = &__b0.1[..];
        __timer.end(__began, 0usize);
        __ctx.check()?;
        let __v13: u32 = rt::ops::ScalarOps::acc_div(__v2, (8u32));
        __ctx.check()?;
        let __began = __timer.begin();
        let __b1_shape: [usize; 2] = __b0_shape;
        rt::host::extent("map", &__b1_shape)?;
        rt::cpu::reserve::<(f32, f32, u32)>("map", &__b1_shape)?;
        let __b1: <(f32, f32, u32) as rt::Elem>::Columns = rt::cpu::generate::<
            <(f32, f32, u32) as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b1_shape),
            #[inline(always)]
            |__v81: usize| {
                let __v11: (f32, f32) = {
                    let __v78: usize = __v81;
                    {
                        let __o: usize = __v78;
                        (
                            unsafe { rt::cpu::at(__b0_c0, __o) },
                            unsafe { rt::cpu::at(__b0_c1, __o) },
                        )
                    }
                };
                { (f32::from_bits(0u32), f32::from_bits(0u32), (0u32)) }
            },
        );
        let __b1_c0: &[f32] = &__b1.0[..];
        let __b1_c1: &[f32] = &__b1.1[..];
        let __b1_c2: &[u32] = &__b1.2[..];
        __timer.end(__began, 1usize);
        __ctx.check()?;
        let mut __st0 = ((0u32), (__b1, __b1_shape));
        let (__v108, (__b4, __b4_shape)) = loop {
            let (__v14, (__b2, __b2_shape)) = __st0;
            let __b2_c0: &[f32] = &__b2.0[..];
            let __b2_c1: &[f32] = &__b2.1[..];
            let __b2_c2: &[u32] = &__b2.2[..];
            if !((__v14 < __v13)) {
                break (__v14, (__b2, __b2_shape));
            }
            let __began = __timer.begin();
            let __h0: usize = rt::ops::ScalarOps::acc_min(
                rt::ops::ScalarOps::acc_min(
                    rt::ops::ScalarOps::acc_min(
                        rt::ops::ScalarOps::acc_min(
                            rt::ops::ScalarOps::acc_min(
                                rt::ops::ScalarOps::acc_min(
                                    rt::ops::ScalarOps::acc_min(
                                        rt::ops::ScalarOps::acc_min(__b2_shape[0], __b0_shape[0]),
                                        __b0_shape[0],
                                    ),
                                    __b0_shape[0],
                                ),
                                __b0_shape[0],
                            ),
                            __b0_shape[0],
                        ),
                        __b0_shape[0],
                    ),
                    __b0_shape[0],
                ),
                __b0_shape[0],
            );
            let __h1: usize = rt::ops::ScalarOps::acc_min(
                rt::ops::ScalarOps::acc_min(
                    rt::ops::ScalarOps::acc_min(
                        rt::ops::ScalarOps::acc_min(
                            rt::ops::ScalarOps::acc_min(
                                rt::ops::ScalarOps::acc_min(
                                    rt::ops::ScalarOps::acc_min(
                                        rt::ops::ScalarOps::acc_min(__b2_shape[1], __b0_shape[1]),
                                        __b0_shape[1],
                                    ),
                                    __b0_shape[1],
                                ),
                                __b0_shape[1],
                            ),
                            __b0_shape[1],
                        ),
                        __b0_shape[1],
                    ),
                    __b0_shape[1],
                ),
                __b0_shape[1],
            );
            let __b3_shape: [usize; 2] = [__h0, __h1];
            rt::host::extent("zip_with", &__b3_shape)?;
            rt::cpu::reserve::<(f32, f32, u32)>("zip_with", &__b3_shape)?;
            let __b3: <(f32, f32, u32) as rt::Elem>::Columns = if __b0_shape
                == __b3_shape && __b2_shape == __b3_shape
            {
                {
                    let (__rows, __len) = rt::cpu::rows_of(&__b3_shape);
                    #[allow(unused_variables)]
                    let __rows_at = rt::cpu::IndexOf::new(&__b3_shape);
                    rt::cpu::generate_rows::<
                        <(f32, f32, u32) as rt::Elem>::Columns,
                    >(
                        __rows,
                        __len,
                        #[inline(always)]
                        |__r: usize, __j: usize| {
                            #[allow(unused_variables)]
                            let __i: usize = __r * __len + __j;
                            let __v107: [usize; 2] = __rows_at.row(__r, __j);
                            {
                                let __v65: (f32, f32, u32) = {
                                    let __v104: [usize; 2] = __v107;
                                    {
                                        let __v58: (f32, f32, u32) = {
                                            let __v101: [usize; 2] = __v104;
                                            {
                                                let __v51: (f32, f32, u32) = {
                                                    let __v98: [usize; 2] = __v101;
                                                    {
                                                        let __v44: (f32, f32, u32) = {
                                                            let __v95: [usize; 2] = __v98;
                                                            {
                                                                let __v37: (f32, f32, u32) = {
                                                                    let __v92: [usize; 2] = __v95;
                                                                    {
                                                                        let __v30: (f32, f32, u32) = {
                                                                            let __v89: [usize; 2] = __v92;
                                                                            {
                                                                                let __v23: (f32, f32, u32) = {
                                                                                    let __v86: [usize; 2] = __v89;
                                                                                    {
                                                                                        let __v16: (f32, f32, u32) = {
                                                                                            let __v83: [usize; 2] = __v86;
                                                                                            {
                                                                                                let __o: usize = __i;
                                                                                                (
                                                                                                    unsafe { rt::cpu::at(__b2_c0, __o) },
                                                                                                    unsafe { rt::cpu::at(__b2_c1, __o) },
                                                                                                    unsafe { rt::cpu::at(__b2_c2, __o) },
                                                                                                )
                                                                                            }
                                                                                        };
                                                                                        {
                                                                                            let __v17: (f32, f32) = {
                                                                                                let __v85: [usize; 2] = __v86;
                                                                                                {
                                                                                                    let __o: usize = __i;
                                                                                                    (
                                                                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                                                    )
                                                                                                }
                                                                                            };
                                                                                            {
                                                                                                let __v18: (f32, f32) = __v17;
                                                                                                {
                                                                                                    let __v19: (f32, f32, u32) = __v16;
                                                                                                    {
                                                                                                        let __v20: f32 = __v19.0;
                                                                                                        {
                                                                                                            let __v21: f32 = __v19.1;
                                                                                                            {
                                                                                                                let __v22: u32 = __v19.2;
                                                                                                                if (rt::ops::ScalarOps::acc_add(
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v20, __v20),
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                                                ) > f32::from_bits(1082130432u32))
                                                                                                                {
                                                                                                                    __v19
                                                                                                                } else {
                                                                                                                    {
                                                                                                                        (
                                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                                                                    rt::ops::ScalarOps::acc_mul(__v20, __v20),
                                                                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                                                                ),
                                                                                                                                __v18.0,
                                                                                                                            ),
                                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                                                                        f32::from_bits(1073741824u32),
                                                                                                                                        __v20,
                                                                                                                                    ),
                                                                                                                                    __v21,
                                                                                                                                ),
                                                                                                                                __v18.1,
                                                                                                                            ),
                                                                                                                            rt::ops::ScalarOps::acc_add(__v22, (1u32)),
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
                                                                                };
                                                                                {
                                                                                    let __v24: (f32, f32) = {
                                                                                        let __v88: [usize; 2] = __v89;
                                                                                        {
                                                                                            let __o: usize = __i;
                                                                                            (
                                                                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                                            )
                                                                                        }
                                                                                    };
                                                                                    {
                                                                                        let __v25: (f32, f32) = __v24;
                                                                                        {
                                                                                            let __v26: (f32, f32, u32) = __v23;
                                                                                            {
                                                                                                let __v27: f32 = __v26.0;
                                                                                                {
                                                                                                    let __v28: f32 = __v26.1;
                                                                                                    {
                                                                                                        let __v29: u32 = __v26.2;
                                                                                                        if (rt::ops::ScalarOps::acc_add(
                                                                                                            rt::ops::ScalarOps::acc_mul(__v27, __v27),
                                                                                                            rt::ops::ScalarOps::acc_mul(__v28, __v28),
                                                                                                        ) > f32::from_bits(1082130432u32))
                                                                                                        {
                                                                                                            __v26
                                                                                                        } else {
                                                                                                            {
                                                                                                                (
                                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                                        rt::ops::ScalarOps::acc_sub(
                                                                                                                            rt::ops::ScalarOps::acc_mul(__v27, __v27),
                                                                                                                            rt::ops::ScalarOps::acc_mul(__v28, __v28),
                                                                                                                        ),
                                                                                                                        __v25.0,
                                                                                                                    ),
                                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                                                f32::from_bits(1073741824u32),
                                                                                                                                __v27,
                                                                                                                            ),
                                                                                                                            __v28,
                                                                                                                        ),
                                                                                                                        __v25.1,
                                                                                                                    ),
                                                                                                                    rt::ops::ScalarOps::acc_add(__v29, (1u32)),
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
                                                                        };
                                                                        {
                                                                            let __v31: (f32, f32) = {
                                                                                let __v91: [usize; 2] = __v92;
                                                                                {
                                                                                    let __o: usize = __i;
                                                                                    (
                                                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                                    )
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v32: (f32, f32) = __v31;
                                                                                {
                                                                                    let __v33: (f32, f32, u32) = __v30;
                                                                                    {
                                                                                        let __v34: f32 = __v33.0;
                                                                                        {
                                                                                            let __v35: f32 = __v33.1;
                                                                                            {
                                                                                                let __v36: u32 = __v33.2;
                                                                                                if (rt::ops::ScalarOps::acc_add(
                                                                                                    rt::ops::ScalarOps::acc_mul(__v34, __v34),
                                                                                                    rt::ops::ScalarOps::acc_mul(__v35, __v35),
                                                                                                ) > f32::from_bits(1082130432u32))
                                                                                                {
                                                                                                    __v33
                                                                                                } else {
                                                                                                    {
                                                                                                        (
                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v34, __v34),
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v35, __v35),
                                                                                                                ),
                                                                                                                __v32.0,
                                                                                                            ),
                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                                                        f32::from_bits(1073741824u32),
                                                                                                                        __v34,
                                                                                                                    ),
                                                                                                                    __v35,
                                                                                                                ),
                                                                                                                __v32.1,
                                                                                                            ),
                                                                                                            rt::ops::ScalarOps::acc_add(__v36, (1u32)),
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
                                                                };
                                                                {
                                                                    let __v38: (f32, f32) = {
                                                                        let __v94: [usize; 2] = __v95;
                                                                        {
                                                                            let __o: usize = __i;
                                                                            (
                                                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                            )
                                                                        }
                                                                    };
                                                                    {
                                                                        let __v39: (f32, f32) = __v38;
                                                                        {
                                                                            let __v40: (f32, f32, u32) = __v37;
                                                                            {
                                                                                let __v41: f32 = __v40.0;
                                                                                {
                                                                                    let __v42: f32 = __v40.1;
                                                                                    {
                                                                                        let __v43: u32 = __v40.2;
                                                                                        if (rt::ops::ScalarOps::acc_add(
                                                                                            rt::ops::ScalarOps::acc_mul(__v41, __v41),
                                                                                            rt::ops::ScalarOps::acc_mul(__v42, __v42),
                                                                                        ) > f32::from_bits(1082130432u32))
                                                                                        {
                                                                                            __v40
                                                                                        } else {
                                                                                            {
                                                                                                (
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_sub(
                                                                                                            rt::ops::ScalarOps::acc_mul(__v41, __v41),
                                                                                                            rt::ops::ScalarOps::acc_mul(__v42, __v42),
                                                                                                        ),
                                                                                                        __v39.0,
                                                                                                    ),
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                                f32::from_bits(1073741824u32),
                                                                                                                __v41,
                                                                                                            ),
                                                                                                            __v42,
                                                                                                        ),
                                                                                                        __v39.1,
                                                                                                    ),
                                                                                                    rt::ops::ScalarOps::acc_add(__v43, (1u32)),
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
                                                        };
                                                        {
                                                            let __v45: (f32, f32) = {
                                                                let __v97: [usize; 2] = __v98;
                                                                {
                                                                    let __o: usize = __i;
                                                                    (
                                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                    )
                                                                }
                                                            };
                                                            {
                                                                let __v46: (f32, f32) = __v45;
                                                                {
                                                                    let __v47: (f32, f32, u32) = __v44;
                                                                    {
                                                                        let __v48: f32 = __v47.0;
                                                                        {
                                                                            let __v49: f32 = __v47.1;
                                                                            {
                                                                                let __v50: u32 = __v47.2;
                                                                                if (rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(__v48, __v48),
                                                                                    rt::ops::ScalarOps::acc_mul(__v49, __v49),
                                                                                ) > f32::from_bits(1082130432u32))
                                                                                {
                                                                                    __v47
                                                                                } else {
                                                                                    {
                                                                                        (
                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                                    rt::ops::ScalarOps::acc_mul(__v48, __v48),
                                                                                                    rt::ops::ScalarOps::acc_mul(__v49, __v49),
                                                                                                ),
                                                                                                __v46.0,
                                                                                            ),
                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                                        f32::from_bits(1073741824u32),
                                                                                                        __v48,
                                                                                                    ),
                                                                                                    __v49,
                                                                                                ),
                                                                                                __v46.1,
                                                                                            ),
                                                                                            rt::ops::ScalarOps::acc_add(__v50, (1u32)),
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
                                                };
                                                {
                                                    let __v52: (f32, f32) = {
                                                        let __v100: [usize; 2] = __v101;
                                                        {
                                                            let __o: usize = __i;
                                                            (
                                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                                            )
                                                        }
                                                    };
                                                    {
                                                        let __v53: (f32, f32) = __v52;
                                                        {
                                                            let __v54: (f32, f32, u32) = __v51;
                                                            {
                                                                let __v55: f32 = __v54.0;
                                                                {
                                                                    let __v56: f32 = __v54.1;
                                                                    {
                                                                        let __v57: u32 = __v54.2;
                                                                        if (rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(__v55, __v55),
                                                                            rt::ops::ScalarOps::acc_mul(__v56, __v56),
                                                                        ) > f32::from_bits(1082130432u32))
                                                                        {
                                                                            __v54
                                                                        } else {
                                                                            {
                                                                                (
                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                        rt::ops::ScalarOps::acc_sub(
                                                                                            rt::ops::ScalarOps::acc_mul(__v55, __v55),
                                                                                            rt::ops::ScalarOps::acc_mul(__v56, __v56),
                                                                                        ),
                                                                                        __v53.0,
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                f32::from_bits(1073741824u32),
                                                                                                __v55,
                                                                                            ),
                                                                                            __v56,
                                                                                        ),
                                                                                        __v53.1,
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_add(__v57, (1u32)),
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
                                        };
                                        {
                                            let __v59: (f32, f32) = {
                                                let __v103: [usize; 2] = __v104;
                                                {
                                                    let __o: usize = __i;
                                                    (
                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                    )
                                                }
                                            };
                                            {
                                                let __v60: (f32, f32) = __v59;
                                                {
                                                    let __v61: (f32, f32, u32) = __v58;
                                                    {
                                                        let __v62: f32 = __v61.0;
                                                        {
                                                            let __v63: f32 = __v61.1;
                                                            {
                                                                let __v64: u32 = __v61.2;
                                                                if (rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_mul(__v62, __v62),
                                                                    rt::ops::ScalarOps::acc_mul(__v63, __v63),
                                                                ) > f32::from_bits(1082130432u32))
                                                                {
                                                                    __v61
                                                                } else {
                                                                    {
                                                                        (
                                                                            rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                    rt::ops::ScalarOps::acc_mul(__v62, __v62),
                                                                                    rt::ops::ScalarOps::acc_mul(__v63, __v63),
                                                                                ),
                                                                                __v60.0,
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        f32::from_bits(1073741824u32),
                                                                                        __v62,
                                                                                    ),
                                                                                    __v63,
                                                                                ),
                                                                                __v60.1,
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_add(__v64, (1u32)),
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
                                };
                                {
                                    let __v66: (f32, f32) = {
                                        let __v106: [usize; 2] = __v107;
                                        {
                                            let __o: usize = __i;
                                            (
                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                            )
                                        }
                                    };
                                    {
                                        let __v67: (f32, f32) = __v66;
                                        {
                                            let __v68: (f32, f32, u32) = __v65;
                                            {
                                                let __v69: f32 = __v68.0;
                                                {
                                                    let __v70: f32 = __v68.1;
                                                    {
                                                        let __v71: u32 = __v68.2;
                                                        if (rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_mul(__v69, __v69),
                                                            rt::ops::ScalarOps::acc_mul(__v70, __v70),
                                                        ) > f32::from_bits(1082130432u32))
                                                        {
                                                            __v68
                                                        } else {
                                                            {
                                                                (
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_sub(
                                                                            rt::ops::ScalarOps::acc_mul(__v69, __v69),
                                                                            rt::ops::ScalarOps::acc_mul(__v70, __v70),
                                                                        ),
                                                                        __v67.0,
                                                                    ),
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                f32::from_bits(1073741824u32),
                                                                                __v69,
                                                                            ),
                                                                            __v70,
                                                                        ),
                                                                        __v67.1,
                                                                    ),
                                                                    rt::ops::ScalarOps::acc_add(__v71, (1u32)),
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
                        },
                    )
                }
            } else {
                {
                    let (__rows, __len) = rt::cpu::rows_of(&__b3_shape);
                    #[allow(unused_variables)]
                    let __rows_at = rt::cpu::IndexOf::new(&__b3_shape);
                    rt::cpu::generate_rows::<
                        <(f32, f32, u32) as rt::Elem>::Columns,
                    >(
                        __rows,
                        __len,
                        #[inline(always)]
                        |__r: usize, __j: usize| {
                            #[allow(unused_variables)]
                            let __i: usize = __r * __len + __j;
                            let __v107: [usize; 2] = __rows_at.row(__r, __j);
                            {
                                let __v65: (f32, f32, u32) = {
                                    let __v104: [usize; 2] = __v107;
                                    {
                                        let __v58: (f32, f32, u32) = {
                                            let __v101: [usize; 2] = __v104;
                                            {
                                                let __v51: (f32, f32, u32) = {
                                                    let __v98: [usize; 2] = __v101;
                                                    {
                                                        let __v44: (f32, f32, u32) = {
                                                            let __v95: [usize; 2] = __v98;
                                                            {
                                                                let __v37: (f32, f32, u32) = {
                                                                    let __v92: [usize; 2] = __v95;
                                                                    {
                                                                        let __v30: (f32, f32, u32) = {
                                                                            let __v89: [usize; 2] = __v92;
                                                                            {
                                                                                let __v23: (f32, f32, u32) = {
                                                                                    let __v86: [usize; 2] = __v89;
                                                                                    {
                                                                                        let __v16: (f32, f32, u32) = {
                                                                                            let __v83: [usize; 2] = __v86;
                                                                                            {
                                                                                                let __o: usize = rt::shape::to_linear(&__b2_shape, &__v83);
                                                                                                (
                                                                                                    unsafe { rt::cpu::at(__b2_c0, __o) },
                                                                                                    unsafe { rt::cpu::at(__b2_c1, __o) },
                                                                                                    unsafe { rt::cpu::at(__b2_c2, __o) },
                                                                                                )
                                                                                            }
                                                                                        };
                                                                                        {
                                                                                            let __v17: (f32, f32) = {
                                                                                                let __v85: [usize; 2] = __v86;
                                                                                                {
                                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v85);
                                                                                                    (
                                                                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                                                    )
                                                                                                }
                                                                                            };
                                                                                            {
                                                                                                let __v18: (f32, f32) = __v17;
                                                                                                {
                                                                                                    let __v19: (f32, f32, u32) = __v16;
                                                                                                    {
                                                                                                        let __v20: f32 = __v19.0;
                                                                                                        {
                                                                                                            let __v21: f32 = __v19.1;
                                                                                                            {
                                                                                                                let __v22: u32 = __v19.2;
                                                                                                                if (rt::ops::ScalarOps::acc_add(
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v20, __v20),
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                                                ) > f32::from_bits(1082130432u32))
                                                                                                                {
                                                                                                                    __v19
                                                                                                                } else {
                                                                                                                    {
                                                                                                                        (
                                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                                                                    rt::ops::ScalarOps::acc_mul(__v20, __v20),
                                                                                                                                    rt::ops::ScalarOps::acc_mul(__v21, __v21),
                                                                                                                                ),
                                                                                                                                __v18.0,
                                                                                                                            ),
                                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                                                                        f32::from_bits(1073741824u32),
                                                                                                                                        __v20,
                                                                                                                                    ),
                                                                                                                                    __v21,
                                                                                                                                ),
                                                                                                                                __v18.1,
                                                                                                                            ),
                                                                                                                            rt::ops::ScalarOps::acc_add(__v22, (1u32)),
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
                                                                                };
                                                                                {
                                                                                    let __v24: (f32, f32) = {
                                                                                        let __v88: [usize; 2] = __v89;
                                                                                        {
                                                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v88);
                                                                                            (
                                                                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                                            )
                                                                                        }
                                                                                    };
                                                                                    {
                                                                                        let __v25: (f32, f32) = __v24;
                                                                                        {
                                                                                            let __v26: (f32, f32, u32) = __v23;
                                                                                            {
                                                                                                let __v27: f32 = __v26.0;
                                                                                                {
                                                                                                    let __v28: f32 = __v26.1;
                                                                                                    {
                                                                                                        let __v29: u32 = __v26.2;
                                                                                                        if (rt::ops::ScalarOps::acc_add(
                                                                                                            rt::ops::ScalarOps::acc_mul(__v27, __v27),
                                                                                                            rt::ops::ScalarOps::acc_mul(__v28, __v28),
                                                                                                        ) > f32::from_bits(1082130432u32))
                                                                                                        {
                                                                                                            __v26
                                                                                                        } else {
                                                                                                            {
                                                                                                                (
                                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                                        rt::ops::ScalarOps::acc_sub(
                                                                                                                            rt::ops::ScalarOps::acc_mul(__v27, __v27),
                                                                                                                            rt::ops::ScalarOps::acc_mul(__v28, __v28),
                                                                                                                        ),
                                                                                                                        __v25.0,
                                                                                                                    ),
                                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                                                f32::from_bits(1073741824u32),
                                                                                                                                __v27,
                                                                                                                            ),
                                                                                                                            __v28,
                                                                                                                        ),
                                                                                                                        __v25.1,
                                                                                                                    ),
                                                                                                                    rt::ops::ScalarOps::acc_add(__v29, (1u32)),
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
                                                                        };
                                                                        {
                                                                            let __v31: (f32, f32) = {
                                                                                let __v91: [usize; 2] = __v92;
                                                                                {
                                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v91);
                                                                                    (
                                                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                                    )
                                                                                }
                                                                            };
                                                                            {
                                                                                let __v32: (f32, f32) = __v31;
                                                                                {
                                                                                    let __v33: (f32, f32, u32) = __v30;
                                                                                    {
                                                                                        let __v34: f32 = __v33.0;
                                                                                        {
                                                                                            let __v35: f32 = __v33.1;
                                                                                            {
                                                                                                let __v36: u32 = __v33.2;
                                                                                                if (rt::ops::ScalarOps::acc_add(
                                                                                                    rt::ops::ScalarOps::acc_mul(__v34, __v34),
                                                                                                    rt::ops::ScalarOps::acc_mul(__v35, __v35),
                                                                                                ) > f32::from_bits(1082130432u32))
                                                                                                {
                                                                                                    __v33
                                                                                                } else {
                                                                                                    {
                                                                                                        (
                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v34, __v34),
                                                                                                                    rt::ops::ScalarOps::acc_mul(__v35, __v35),
                                                                                                                ),
                                                                                                                __v32.0,
                                                                                                            ),
                                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                                                        f32::from_bits(1073741824u32),
                                                                                                                        __v34,
                                                                                                                    ),
                                                                                                                    __v35,
                                                                                                                ),
                                                                                                                __v32.1,
                                                                                                            ),
                                                                                                            rt::ops::ScalarOps::acc_add(__v36, (1u32)),
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
                                                                };
                                                                {
                                                                    let __v38: (f32, f32) = {
                                                                        let __v94: [usize; 2] = __v95;
                                                                        {
                                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v94);
                                                                            (
                                                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                            )
                                                                        }
                                                                    };
                                                                    {
                                                                        let __v39: (f32, f32) = __v38;
                                                                        {
                                                                            let __v40: (f32, f32, u32) = __v37;
                                                                            {
                                                                                let __v41: f32 = __v40.0;
                                                                                {
                                                                                    let __v42: f32 = __v40.1;
                                                                                    {
                                                                                        let __v43: u32 = __v40.2;
                                                                                        if (rt::ops::ScalarOps::acc_add(
                                                                                            rt::ops::ScalarOps::acc_mul(__v41, __v41),
                                                                                            rt::ops::ScalarOps::acc_mul(__v42, __v42),
                                                                                        ) > f32::from_bits(1082130432u32))
                                                                                        {
                                                                                            __v40
                                                                                        } else {
                                                                                            {
                                                                                                (
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_sub(
                                                                                                            rt::ops::ScalarOps::acc_mul(__v41, __v41),
                                                                                                            rt::ops::ScalarOps::acc_mul(__v42, __v42),
                                                                                                        ),
                                                                                                        __v39.0,
                                                                                                    ),
                                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                                f32::from_bits(1073741824u32),
                                                                                                                __v41,
                                                                                                            ),
                                                                                                            __v42,
                                                                                                        ),
                                                                                                        __v39.1,
                                                                                                    ),
                                                                                                    rt::ops::ScalarOps::acc_add(__v43, (1u32)),
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
                                                        };
                                                        {
                                                            let __v45: (f32, f32) = {
                                                                let __v97: [usize; 2] = __v98;
                                                                {
                                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v97);
                                                                    (
                                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                                    )
                                                                }
                                                            };
                                                            {
                                                                let __v46: (f32, f32) = __v45;
                                                                {
                                                                    let __v47: (f32, f32, u32) = __v44;
                                                                    {
                                                                        let __v48: f32 = __v47.0;
                                                                        {
                                                                            let __v49: f32 = __v47.1;
                                                                            {
                                                                                let __v50: u32 = __v47.2;
                                                                                if (rt::ops::ScalarOps::acc_add(
                                                                                    rt::ops::ScalarOps::acc_mul(__v48, __v48),
                                                                                    rt::ops::ScalarOps::acc_mul(__v49, __v49),
                                                                                ) > f32::from_bits(1082130432u32))
                                                                                {
                                                                                    __v47
                                                                                } else {
                                                                                    {
                                                                                        (
                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                                    rt::ops::ScalarOps::acc_mul(__v48, __v48),
                                                                                                    rt::ops::ScalarOps::acc_mul(__v49, __v49),
                                                                                                ),
                                                                                                __v46.0,
                                                                                            ),
                                                                                            rt::ops::ScalarOps::acc_add(
                                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                                        f32::from_bits(1073741824u32),
                                                                                                        __v48,
                                                                                                    ),
                                                                                                    __v49,
                                                                                                ),
                                                                                                __v46.1,
                                                                                            ),
                                                                                            rt::ops::ScalarOps::acc_add(__v50, (1u32)),
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
                                                };
                                                {
                                                    let __v52: (f32, f32) = {
                                                        let __v100: [usize; 2] = __v101;
                                                        {
                                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v100);
                                                            (
                                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                                            )
                                                        }
                                                    };
                                                    {
                                                        let __v53: (f32, f32) = __v52;
                                                        {
                                                            let __v54: (f32, f32, u32) = __v51;
                                                            {
                                                                let __v55: f32 = __v54.0;
                                                                {
                                                                    let __v56: f32 = __v54.1;
                                                                    {
                                                                        let __v57: u32 = __v54.2;
                                                                        if (rt::ops::ScalarOps::acc_add(
                                                                            rt::ops::ScalarOps::acc_mul(__v55, __v55),
                                                                            rt::ops::ScalarOps::acc_mul(__v56, __v56),
                                                                        ) > f32::from_bits(1082130432u32))
                                                                        {
                                                                            __v54
                                                                        } else {
                                                                            {
                                                                                (
                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                        rt::ops::ScalarOps::acc_sub(
                                                                                            rt::ops::ScalarOps::acc_mul(__v55, __v55),
                                                                                            rt::ops::ScalarOps::acc_mul(__v56, __v56),
                                                                                        ),
                                                                                        __v53.0,
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_add(
                                                                                        rt::ops::ScalarOps::acc_mul(
                                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                                f32::from_bits(1073741824u32),
                                                                                                __v55,
                                                                                            ),
                                                                                            __v56,
                                                                                        ),
                                                                                        __v53.1,
                                                                                    ),
                                                                                    rt::ops::ScalarOps::acc_add(__v57, (1u32)),
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
                                        };
                                        {
                                            let __v59: (f32, f32) = {
                                                let __v103: [usize; 2] = __v104;
                                                {
                                                    let __o: usize = rt::shape::to_linear(&__b0_shape, &__v103);
                                                    (
                                                        unsafe { rt::cpu::at(__b0_c0, __o) },
                                                        unsafe { rt::cpu::at(__b0_c1, __o) },
                                                    )
                                                }
                                            };
                                            {
                                                let __v60: (f32, f32) = __v59;
                                                {
                                                    let __v61: (f32, f32, u32) = __v58;
                                                    {
                                                        let __v62: f32 = __v61.0;
                                                        {
                                                            let __v63: f32 = __v61.1;
                                                            {
                                                                let __v64: u32 = __v61.2;
                                                                if (rt::ops::ScalarOps::acc_add(
                                                                    rt::ops::ScalarOps::acc_mul(__v62, __v62),
                                                                    rt::ops::ScalarOps::acc_mul(__v63, __v63),
                                                                ) > f32::from_bits(1082130432u32))
                                                                {
                                                                    __v61
                                                                } else {
                                                                    {
                                                                        (
                                                                            rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_sub(
                                                                                    rt::ops::ScalarOps::acc_mul(__v62, __v62),
                                                                                    rt::ops::ScalarOps::acc_mul(__v63, __v63),
                                                                                ),
                                                                                __v60.0,
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_add(
                                                                                rt::ops::ScalarOps::acc_mul(
                                                                                    rt::ops::ScalarOps::acc_mul(
                                                                                        f32::from_bits(1073741824u32),
                                                                                        __v62,
                                                                                    ),
                                                                                    __v63,
                                                                                ),
                                                                                __v60.1,
                                                                            ),
                                                                            rt::ops::ScalarOps::acc_add(__v64, (1u32)),
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
                                };
                                {
                                    let __v66: (f32, f32) = {
                                        let __v106: [usize; 2] = __v107;
                                        {
                                            let __o: usize = rt::shape::to_linear(&__b0_shape, &__v106);
                                            (
                                                unsafe { rt::cpu::at(__b0_c0, __o) },
                                                unsafe { rt::cpu::at(__b0_c1, __o) },
                                            )
                                        }
                                    };
                                    {
                                        let __v67: (f32, f32) = __v66;
                                        {
                                            let __v68: (f32, f32, u32) = __v65;
                                            {
                                                let __v69: f32 = __v68.0;
                                                {
                                                    let __v70: f32 = __v68.1;
                                                    {
                                                        let __v71: u32 = __v68.2;
                                                        if (rt::ops::ScalarOps::acc_add(
                                                            rt::ops::ScalarOps::acc_mul(__v69, __v69),
                                                            rt::ops::ScalarOps::acc_mul(__v70, __v70),
                                                        ) > f32::from_bits(1082130432u32))
                                                        {
                                                            __v68
                                                        } else {
                                                            {
                                                                (
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_sub(
                                                                            rt::ops::ScalarOps::acc_mul(__v69, __v69),
                                                                            rt::ops::ScalarOps::acc_mul(__v70, __v70),
                                                                        ),
                                                                        __v67.0,
                                                                    ),
                                                                    rt::ops::ScalarOps::acc_add(
                                                                        rt::ops::ScalarOps::acc_mul(
                                                                            rt::ops::ScalarOps::acc_mul(
                                                                                f32::from_bits(1073741824u32),
                                                                                __v69,
                                                                            ),
                                                                            __v70,
                                                                        ),
                                                                        __v67.1,
                                                                    ),
                                                                    rt::ops::ScalarOps::acc_add(__v71, (1u32)),
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
                        },
                    )
                }
            };
            let __b3_c0: &[f32] = &__b3.0[..];
            let __b3_c1: &[f32] = &__b3.1[..];
            let __b3_c2: &[u32] = &__b3.2[..];
            __timer.end(__began, 2usize);
            __ctx.check()?;
            rt::Columns::recycle(__b2);
            let __res0 = rt::ops::ScalarOps::acc_add(__v14, (1u32));
            __st0 = (__res0, (__b3, __b3_shape));
        };
        let __b4_c0: &[f32] = &__b4.0[..];
        let __b4_c1: &[f32] = &__b4.1[..];
        let __b4_c2: &[u32] = &__b4.2[..];
        __ctx.check()?;
        rt::Columns::recycle(__b0);
        let __began = __timer.begin();
        let __b5_shape: [usize; 2] = __b4_shape;
        rt::host::extent("map", &__b5_shape)?;
        rt::cpu::reserve::<u32>("map", &__b5_shape)?;
        let __b5: <u32 as rt::Elem>::Columns = rt::cpu::generate::<
            <u32 as rt::Elem>::Columns,
        >(
            rt::shape::size(&__b5_shape),
            #[inline(always)]
            |__v112: usize| {
                let __v76: (f32, f32, u32) = {
                    let __v109: usize = __v112;
                    {
                        let __o: usize = __v109;
                        (
                            unsafe { rt::cpu::at(__b4_c0, __o) },
                            unsafe { rt::cpu::at(__b4_c1, __o) },
                            unsafe { rt::cpu::at(__b4_c2, __o) },
                        )
                    }
                };
                {
                    let __v77: u32 = __v76.2;
                    __v77
                }
            },
        );
        let __b5_c0: &[u32] = &__b5[..];
        __timer.end(__began, 3usize);
        __ctx.check()?;
        rt::Columns::recycle(__b4);
        let __result = {
            let (__c, __s) = (__b5, __b5_shape);
            rt::Array::<u32, 2>::from_columns(__s, __c)?
        };
        __ctx.check()?;
        ::core::result::Result::Ok(__result)
    }
}
