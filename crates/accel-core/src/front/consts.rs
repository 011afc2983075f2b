//! The associated constants of the primitive types (`i32::MAX`, `f32::EPSILON`)
//! and the float constants modules (`std::f64::consts::PI`).

use crate::ir::Prim;

/// The constant a path names, as (type, bits), or `None` if the path is not one
/// of them. `std::` and `core::` prefixes are accepted.
pub(crate) fn lookup(segments: &[String]) -> Option<(Prim, u64)> {
    let segs: Vec<&str> = segments.iter().map(String::as_str).collect();
    let segs = strip_std(&segs);
    match segs {
        [ty, "consts", name] => float_math_const(Prim::from_name(ty)?, name),
        [ty, name] => assoc_const(Prim::from_name(ty)?, name),
        _ => None,
    }
}

/// A path without its `std::`/`core::` and `primitive::` prefixes.
pub(crate) fn strip_std<'a, 'b>(segs: &'a [&'b str]) -> &'a [&'b str] {
    let segs = match segs {
        ["std" | "core", rest @ ..] => rest,
        rest => rest,
    };
    match segs {
        ["primitive", rest @ ..] => rest,
        rest => rest,
    }
}

/// The names the error messages list.
pub(crate) fn names(p: Prim) -> &'static str {
    if p.is_float() {
        "MIN, MAX, MIN_POSITIVE, EPSILON, INFINITY, NEG_INFINITY, NAN, RADIX, MANTISSA_DIGITS, \
         DIGITS, MIN_EXP, MAX_EXP, MIN_10_EXP, MAX_10_EXP, and in `consts`: PI, TAU, E, SQRT_2, \
         FRAC_1_SQRT_2, LN_2, LN_10, LOG2_E, LOG2_10, LOG10_E, LOG10_2, FRAC_PI_2, FRAC_PI_3, \
         FRAC_PI_4, FRAC_PI_6, FRAC_PI_8, FRAC_1_PI, FRAC_2_PI, FRAC_2_SQRT_PI"
    } else if p == Prim::Bool {
        "none"
    } else {
        "MIN, MAX, BITS"
    }
}

fn float_math_const(p: Prim, name: &str) -> Option<(Prim, u64)> {
    macro_rules! table {
        ($($n:ident),*) => {
            match (p, name) {
                $((Prim::F32, stringify!($n)) => Some(f32_bits(std::f32::consts::$n)),
                  (Prim::F64, stringify!($n)) => Some(f64_bits(std::f64::consts::$n)),
                  (Prim::F16, stringify!($n)) => Some(f16_bits(half::f16::from_f64(std::f64::consts::$n))),
                  (Prim::BF16, stringify!($n)) => Some(bf16_bits(half::bf16::from_f64(std::f64::consts::$n))),)*
                _ => None,
            }
        };
    }
    table!(
        PI,
        TAU,
        E,
        SQRT_2,
        FRAC_1_SQRT_2,
        LN_2,
        LN_10,
        LOG2_E,
        LOG2_10,
        LOG10_E,
        LOG10_2,
        FRAC_PI_2,
        FRAC_PI_3,
        FRAC_PI_4,
        FRAC_PI_6,
        FRAC_PI_8,
        FRAC_1_PI,
        FRAC_2_PI,
        FRAC_2_SQRT_PI
    )
}

fn assoc_const(p: Prim, name: &str) -> Option<(Prim, u64)> {
    macro_rules! float {
        ($t:ty, $bits:ident) => {
            match name {
                "MIN" => Some($bits(<$t>::MIN)),
                "MAX" => Some($bits(<$t>::MAX)),
                "MIN_POSITIVE" => Some($bits(<$t>::MIN_POSITIVE)),
                "EPSILON" => Some($bits(<$t>::EPSILON)),
                "INFINITY" => Some($bits(<$t>::INFINITY)),
                "NEG_INFINITY" => Some($bits(<$t>::NEG_INFINITY)),
                "NAN" => Some($bits(<$t>::NAN)),
                "RADIX" => Some((Prim::U32, <$t>::RADIX as u64)),
                "MANTISSA_DIGITS" => Some((Prim::U32, <$t>::MANTISSA_DIGITS as u64)),
                "DIGITS" => Some((Prim::U32, <$t>::DIGITS as u64)),
                "MIN_EXP" => Some(i32_bits(<$t>::MIN_EXP)),
                "MAX_EXP" => Some(i32_bits(<$t>::MAX_EXP)),
                "MIN_10_EXP" => Some(i32_bits(<$t>::MIN_10_EXP)),
                "MAX_10_EXP" => Some(i32_bits(<$t>::MAX_10_EXP)),
                _ => None,
            }
        };
    }
    macro_rules! int {
        ($t:ident) => {
            match name {
                // Two's-complement bits, as the IR stores integer literals.
                "MIN" => Some((p, $t::MIN as i64 as u64)),
                "MAX" => Some((p, $t::MAX as i64 as u64)),
                "BITS" => Some((Prim::U32, $t::BITS as u64)),
                _ => None,
            }
        };
    }
    match p {
        Prim::F32 => float!(f32, f32_bits),
        Prim::F64 => float!(f64, f64_bits),
        Prim::F16 => float!(half::f16, f16_bits),
        Prim::BF16 => float!(half::bf16, bf16_bits),
        Prim::I8 => int!(i8),
        Prim::I16 => int!(i16),
        Prim::I32 => int!(i32),
        Prim::I64 => int!(i64),
        Prim::U8 => int!(u8),
        Prim::U16 => int!(u16),
        Prim::U32 => int!(u32),
        Prim::U64 => int!(u64),
        Prim::Usize => match name {
            "MIN" => Some((p, 0)),
            "MAX" => Some((p, usize::MAX as u64)),
            "BITS" => Some((Prim::U32, usize::BITS as u64)),
            _ => None,
        },
        Prim::Bool => None,
    }
}

fn f32_bits(x: f32) -> (Prim, u64) {
    (Prim::F32, x.to_bits() as u64)
}

fn f64_bits(x: f64) -> (Prim, u64) {
    (Prim::F64, x.to_bits())
}

fn f16_bits(x: half::f16) -> (Prim, u64) {
    (Prim::F16, x.to_bits() as u64)
}

fn bf16_bits(x: half::bf16) -> (Prim, u64) {
    (Prim::BF16, x.to_bits() as u64)
}

fn i32_bits(x: i32) -> (Prim, u64) {
    (Prim::I32, x as i64 as u64)
}
