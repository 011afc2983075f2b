//! Scalar operations on dynamically typed values, with the same meaning as the
//! generated code (`accel_types::ops`: wrapping integers, defined division by
//! zero, shift amounts modulo the width, Rust's `as`).

use crate::ir::{BinOp, Lit, MathFn, Prim, UnOp};
use accel_types::dynamic::Value;
use accel_types::ops::{MathOps, ScalarOps, ShiftOps};

pub fn lit(l: Lit) -> Value {
    let b = l.bits;
    match l.prim {
        Prim::Bool => Value::Bool(b != 0),
        Prim::I8 => Value::I8(b as i8),
        Prim::I16 => Value::I16(b as i16),
        Prim::I32 => Value::I32(b as i32),
        Prim::I64 => Value::I64(b as i64),
        Prim::U8 => Value::U8(b as u8),
        Prim::U16 => Value::U16(b as u16),
        Prim::U32 => Value::U32(b as u32),
        Prim::U64 => Value::U64(b),
        Prim::Usize => Value::Usize(b as usize),
        Prim::F32 => Value::F32(f32::from_bits(b as u32)),
        Prim::F64 => Value::F64(f64::from_bits(b)),
        Prim::F16 => Value::F16(half::f16::from_bits(b as u16)),
        Prim::BF16 => Value::BF16(half::bf16::from_bits(b as u16)),
    }
}

/// A half-precision value as the `f32` of the same value (exact), and its
/// type: operations on `f16` and `bf16` compute in `f32` and round the result
/// back (`accel_types::ops::Half`).
fn widen(v: &Value) -> Option<(Value, Prim)> {
    match v {
        Value::F16(x) => Some((Value::F32(x.to_f32()), Prim::F16)),
        Value::BF16(x) => Some((Value::F32(x.to_f32()), Prim::BF16)),
        _ => None,
    }
}

/// An `f32` result rounded to the half-precision type `p` (to nearest, ties
/// to even); other results (a comparison's `bool`) as they are.
fn narrow(v: Value, p: Prim) -> Value {
    match (v, p) {
        (Value::F32(x), Prim::F16) => Value::F16(half::f16::from_f32(x)),
        (Value::F32(x), Prim::BF16) => Value::BF16(half::bf16::from_f32(x)),
        (v, _) => v,
    }
}

/// `f` applied to `xs` with their half-precision values in `f32`, the
/// result rounded back; `None` when no value is half-precision.
fn via_f32(xs: &[&Value], f: impl FnOnce(&[Value]) -> Value) -> Option<Value> {
    let p = xs.iter().find_map(|x| widen(x).map(|w| w.1))?;
    let wide: Vec<Value> = xs
        .iter()
        .map(|x| widen(x).map_or_else(|| (*x).clone(), |w| w.0))
        .collect();
    Some(narrow(f(&wide), p))
}

/// Applies a generic operation to a value of any numeric primitive type.
macro_rules! on_numeric {
    ($v:expr, |$x:ident| $body:expr) => {
        match $v {
            Value::I8($x) => Value::I8($body),
            Value::I16($x) => Value::I16($body),
            Value::I32($x) => Value::I32($body),
            Value::I64($x) => Value::I64($body),
            Value::U8($x) => Value::U8($body),
            Value::U16($x) => Value::U16($body),
            Value::U32($x) => Value::U32($body),
            Value::U64($x) => Value::U64($body),
            Value::Usize($x) => Value::Usize($body),
            Value::F32($x) => Value::F32($body),
            Value::F64($x) => Value::F64($body),
            Value::Bool($x) => Value::Bool($body),
            other => other.clone(),
        }
    };
}

macro_rules! on_pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr, $other:expr) => {
        match ($a, $b) {
            (Value::I8($x), Value::I8($y)) => Value::I8($body),
            (Value::I16($x), Value::I16($y)) => Value::I16($body),
            (Value::I32($x), Value::I32($y)) => Value::I32($body),
            (Value::I64($x), Value::I64($y)) => Value::I64($body),
            (Value::U8($x), Value::U8($y)) => Value::U8($body),
            (Value::U16($x), Value::U16($y)) => Value::U16($body),
            (Value::U32($x), Value::U32($y)) => Value::U32($body),
            (Value::U64($x), Value::U64($y)) => Value::U64($body),
            (Value::Usize($x), Value::Usize($y)) => Value::Usize($body),
            (Value::F32($x), Value::F32($y)) => Value::F32($body),
            (Value::F64($x), Value::F64($y)) => Value::F64($body),
            (Value::Bool($x), Value::Bool($y)) => Value::Bool($body),
            _ => $other,
        }
    };
}

macro_rules! on_int_pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr, $other:expr) => {
        match ($a, $b) {
            (Value::I8($x), Value::I8($y)) => Value::I8($body),
            (Value::I16($x), Value::I16($y)) => Value::I16($body),
            (Value::I32($x), Value::I32($y)) => Value::I32($body),
            (Value::I64($x), Value::I64($y)) => Value::I64($body),
            (Value::U8($x), Value::U8($y)) => Value::U8($body),
            (Value::U16($x), Value::U16($y)) => Value::U16($body),
            (Value::U32($x), Value::U32($y)) => Value::U32($body),
            (Value::U64($x), Value::U64($y)) => Value::U64($body),
            (Value::Usize($x), Value::Usize($y)) => Value::Usize($body),
            (Value::Bool($x), Value::Bool($y)) => Value::Bool($body),
            _ => $other,
        }
    };
}

macro_rules! on_shift {
    ($a:expr, $by:expr, |$x:ident| $body:expr) => {
        match $a {
            Value::I8($x) => Value::I8($body),
            Value::I16($x) => Value::I16($body),
            Value::I32($x) => Value::I32($body),
            Value::I64($x) => Value::I64($body),
            Value::U8($x) => Value::U8($body),
            Value::U16($x) => Value::U16($body),
            Value::U32($x) => Value::U32($body),
            Value::U64($x) => Value::U64($body),
            Value::Usize($x) => Value::Usize($body),
            other => other.clone(),
        }
    };
}

/// A numeric operation of two arguments of the same type (no bool).
macro_rules! on_num_pair {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr, $other:expr) => {
        match ($a, $b) {
            (Value::I8($x), Value::I8($y)) => Value::I8($body),
            (Value::I16($x), Value::I16($y)) => Value::I16($body),
            (Value::I32($x), Value::I32($y)) => Value::I32($body),
            (Value::I64($x), Value::I64($y)) => Value::I64($body),
            (Value::U8($x), Value::U8($y)) => Value::U8($body),
            (Value::U16($x), Value::U16($y)) => Value::U16($body),
            (Value::U32($x), Value::U32($y)) => Value::U32($body),
            (Value::U64($x), Value::U64($y)) => Value::U64($body),
            (Value::Usize($x), Value::Usize($y)) => Value::Usize($body),
            (Value::F32($x), Value::F32($y)) => Value::F32($body),
            (Value::F64($x), Value::F64($y)) => Value::F64($body),
            _ => $other,
        }
    };
}

macro_rules! signed_int1 {
    ($a:expr, |$x:ident| $body:expr) => {
        match $a {
            Value::I8($x) => Value::Bool($body),
            Value::I16($x) => Value::Bool($body),
            Value::I32($x) => Value::Bool($body),
            Value::I64($x) => Value::Bool($body),
            other => other.clone(),
        }
    };
}

fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    use Value::*;
    match (a, b) {
        (Bool(x), Bool(y)) => x.partial_cmp(y),
        (I8(x), I8(y)) => x.partial_cmp(y),
        (I16(x), I16(y)) => x.partial_cmp(y),
        (I32(x), I32(y)) => x.partial_cmp(y),
        (I64(x), I64(y)) => x.partial_cmp(y),
        (U8(x), U8(y)) => x.partial_cmp(y),
        (U16(x), U16(y)) => x.partial_cmp(y),
        (U32(x), U32(y)) => x.partial_cmp(y),
        (U64(x), U64(y)) => x.partial_cmp(y),
        (Usize(x), Usize(y)) => x.partial_cmp(y),
        (F32(x), F32(y)) => x.partial_cmp(y),
        (F64(x), F64(y)) => x.partial_cmp(y),
        _ => None,
    }
}

pub fn unary(op: UnOp, x: &Value) -> Value {
    if let Some(v) = via_f32(&[x], |w| unary(op, &w[0])) {
        return v;
    }
    match op {
        UnOp::Neg => on_numeric!(x, |a| a.acc_neg()),
        UnOp::Not => match x {
            Value::Bool(b) => Value::Bool(!b),
            other => on_shift!(other, 0, |a| !*a),
        },
    }
}

/// A binary operation other than the short-circuit ones.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Value {
    if let Some(v) = via_f32(&[a, b], |w| binary(op, &w[0], &w[1])) {
        return v;
    }
    let bad = Value::Bool(false);
    match op {
        BinOp::Add => on_pair!(a, b, |x, y| x.acc_add(*y), bad),
        BinOp::Sub => on_pair!(a, b, |x, y| x.acc_sub(*y), bad),
        BinOp::Mul => on_pair!(a, b, |x, y| x.acc_mul(*y), bad),
        BinOp::Div => on_pair!(a, b, |x, y| x.acc_div(*y), bad),
        BinOp::Rem => on_pair!(a, b, |x, y| x.acc_rem(*y), bad),
        BinOp::BitAnd => on_int_pair!(a, b, |x, y| *x & *y, bad),
        BinOp::BitOr => on_int_pair!(a, b, |x, y| *x | *y, bad),
        BinOp::BitXor => on_int_pair!(a, b, |x, y| *x ^ *y, bad),
        BinOp::Shl | BinOp::Shr => {
            let by = match b {
                Value::U32(n) => *n,
                _ => 0,
            };
            if op == BinOp::Shl {
                on_shift!(a, by, |x| x.acc_shl(by))
            } else {
                on_shift!(a, by, |x| x.acc_shr(by))
            }
        }
        BinOp::Eq => Value::Bool(compare(a, b) == Some(std::cmp::Ordering::Equal)),
        BinOp::Ne => Value::Bool(compare(a, b) != Some(std::cmp::Ordering::Equal)),
        BinOp::Lt => Value::Bool(compare(a, b) == Some(std::cmp::Ordering::Less)),
        BinOp::Le => Value::Bool(matches!(
            compare(a, b),
            Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
        )),
        BinOp::Gt => Value::Bool(compare(a, b) == Some(std::cmp::Ordering::Greater)),
        BinOp::Ge => Value::Bool(matches!(
            compare(a, b),
            Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal)
        )),
        BinOp::And => Value::Bool(matches!((a, b), (Value::Bool(true), Value::Bool(true)))),
        BinOp::Or => Value::Bool(matches!(a, Value::Bool(true)) || matches!(b, Value::Bool(true))),
    }
}

/// Rust's `as` (bool converts through `u8`).
pub fn cast(v: &Value, to: Prim) -> Value {
    // Half-precision values convert through `f32`, both ways.
    if let Some((w, _)) = widen(v) {
        return cast(&w, to);
    }
    if to.is_half() {
        return narrow(cast(v, Prim::F32), to);
    }
    macro_rules! to {
        ($x:expr) => {
            match to {
                Prim::Bool => Value::Bool($x as u64 != 0),
                Prim::I8 => Value::I8($x as i8),
                Prim::I16 => Value::I16($x as i16),
                Prim::I32 => Value::I32($x as i32),
                Prim::I64 => Value::I64($x as i64),
                Prim::U8 => Value::U8($x as u8),
                Prim::U16 => Value::U16($x as u16),
                Prim::U32 => Value::U32($x as u32),
                Prim::U64 => Value::U64($x as u64),
                Prim::Usize => Value::Usize($x as usize),
                Prim::F32 => Value::F32($x as f32),
                Prim::F64 => Value::F64($x as f64),
                Prim::F16 | Prim::BF16 => narrow(Value::F32($x as f32), to),
            }
        };
    }
    match *v {
        Value::Bool(x) => {
            if to == Prim::Bool {
                Value::Bool(x)
            } else {
                to!(x as u8)
            }
        }
        Value::I8(x) => to!(x),
        Value::I16(x) => to!(x),
        Value::I32(x) => to!(x),
        Value::I64(x) => to!(x),
        Value::U8(x) => to!(x),
        Value::U16(x) => to!(x),
        Value::U32(x) => to!(x),
        Value::U64(x) => to!(x),
        Value::Usize(x) => to!(x),
        Value::F32(x) => to!(x),
        Value::F64(x) => to!(x),
        _ => v.clone(),
    }
}

pub fn math(f: MathFn, xs: &[Value]) -> Value {
    // Most calls have no half-precision argument: no list of them then.
    if xs.iter().any(|x| widen(x).is_some()) {
        let refs: Vec<&Value> = xs.iter().collect();
        if let Some(v) = via_f32(&refs, |w| math(f, w)) {
            return v;
        }
    }
    use accel_types::dynamic::ToValue;
    // Each macro applies `$body` to the arguments of one concrete type; the
    // body's result (of any `Elem` type) becomes the value.
    macro_rules! float1 {
        (|$x:ident| $body:expr) => {
            match &xs[0] {
                Value::F32($x) => $body.to_value(),
                Value::F64($x) => $body.to_value(),
                other => other.clone(),
            }
        };
    }
    macro_rules! float2 {
        (|$x:ident, $y:ident| $body:expr) => {
            match (&xs[0], &xs[1]) {
                (Value::F32($x), Value::F32($y)) => $body.to_value(),
                (Value::F64($x), Value::F64($y)) => $body.to_value(),
                (other, _) => other.clone(),
            }
        };
    }
    macro_rules! int1 {
        (|$x:ident| $body:expr) => {
            match &xs[0] {
                Value::I8($x) => $body.to_value(),
                Value::I16($x) => $body.to_value(),
                Value::I32($x) => $body.to_value(),
                Value::I64($x) => $body.to_value(),
                Value::U8($x) => $body.to_value(),
                Value::U16($x) => $body.to_value(),
                Value::U32($x) => $body.to_value(),
                Value::U64($x) => $body.to_value(),
                Value::Usize($x) => $body.to_value(),
                other => other.clone(),
            }
        };
    }
    macro_rules! int2 {
        (|$x:ident, $y:ident| $body:expr) => {
            match (&xs[0], &xs[1]) {
                (Value::I8($x), Value::I8($y)) => $body.to_value(),
                (Value::I16($x), Value::I16($y)) => $body.to_value(),
                (Value::I32($x), Value::I32($y)) => $body.to_value(),
                (Value::I64($x), Value::I64($y)) => $body.to_value(),
                (Value::U8($x), Value::U8($y)) => $body.to_value(),
                (Value::U16($x), Value::U16($y)) => $body.to_value(),
                (Value::U32($x), Value::U32($y)) => $body.to_value(),
                (Value::U64($x), Value::U64($y)) => $body.to_value(),
                (Value::Usize($x), Value::Usize($y)) => $body.to_value(),
                (other, _) => other.clone(),
            }
        };
    }
    /// An integer with a `u32` argument.
    macro_rules! int_u32 {
        (|$x:ident, $n:ident| $body:expr) => {{
            let $n = match &xs[1] {
                Value::U32(n) => *n,
                _ => 0,
            };
            int1!(|$x| $body)
        }};
    }
    macro_rules! signed1 {
        (|$x:ident| $body:expr) => {
            match &xs[0] {
                Value::I8($x) => $body.to_value(),
                Value::I16($x) => $body.to_value(),
                Value::I32($x) => $body.to_value(),
                Value::I64($x) => $body.to_value(),
                Value::F32($x) => $body.to_value(),
                Value::F64($x) => $body.to_value(),
                other => other.clone(),
            }
        };
    }
    match f {
        MathFn::Sqrt => float1!(|x| x.sqrt()),
        MathFn::Cbrt => float1!(|x| x.cbrt()),
        MathFn::Exp => float1!(|x| x.exp()),
        MathFn::Exp2 => float1!(|x| x.exp2()),
        MathFn::ExpM1 => float1!(|x| x.exp_m1()),
        MathFn::Ln => float1!(|x| x.ln()),
        MathFn::Ln1p => float1!(|x| x.ln_1p()),
        MathFn::Log2 => float1!(|x| x.log2()),
        MathFn::Log10 => float1!(|x| x.log10()),
        MathFn::Log => float2!(|x, b| x.log(*b)),
        MathFn::Sin => float1!(|x| x.sin()),
        MathFn::Cos => float1!(|x| x.cos()),
        MathFn::Tan => float1!(|x| x.tan()),
        MathFn::Asin => float1!(|x| x.asin()),
        MathFn::Acos => float1!(|x| x.acos()),
        MathFn::Atan => float1!(|x| x.atan()),
        MathFn::Atan2 => float2!(|x, y| x.atan2(*y)),
        MathFn::Sinh => float1!(|x| x.sinh()),
        MathFn::Cosh => float1!(|x| x.cosh()),
        MathFn::Tanh => float1!(|x| x.tanh()),
        MathFn::Asinh => float1!(|x| x.asinh()),
        MathFn::Acosh => float1!(|x| x.acosh()),
        MathFn::Atanh => float1!(|x| x.atanh()),
        MathFn::Hypot => float2!(|x, y| x.hypot(*y)),
        MathFn::Powf => float2!(|x, y| x.powf(*y)),
        MathFn::Powi => match (&xs[0], &xs[1]) {
            (Value::F32(x), Value::I32(n)) => Value::F32(x.powi(*n)),
            (Value::F64(x), Value::I32(n)) => Value::F64(x.powi(*n)),
            (other, _) => other.clone(),
        },
        MathFn::Recip => float1!(|x| x.recip()),
        MathFn::ToDegrees => float1!(|x| x.to_degrees()),
        MathFn::ToRadians => float1!(|x| x.to_radians()),
        MathFn::Floor => float1!(|x| x.floor()),
        MathFn::Ceil => float1!(|x| x.ceil()),
        MathFn::Round => float1!(|x| x.round()),
        MathFn::Trunc => float1!(|x| x.trunc()),
        MathFn::Fract => float1!(|x| x.fract()),
        MathFn::MulAdd => match (&xs[0], &xs[1], &xs[2]) {
            (Value::F32(x), Value::F32(y), Value::F32(z)) => Value::F32(x.mul_add(*y, *z)),
            (Value::F64(x), Value::F64(y), Value::F64(z)) => Value::F64(x.mul_add(*y, *z)),
            (other, _, _) => other.clone(),
        },
        MathFn::Copysign => float2!(|x, y| x.copysign(*y)),
        MathFn::IsNan => float1!(|x| x.is_nan()),
        MathFn::IsInfinite => float1!(|x| x.is_infinite()),
        MathFn::IsFinite => float1!(|x| x.is_finite()),
        MathFn::IsNormal => float1!(|x| x.is_normal()),
        MathFn::IsSignNegative => float1!(|x| x.is_sign_negative()),
        MathFn::IsSignPositive => float1!(|x| x.is_sign_positive()),
        MathFn::ToBits => float1!(|x| x.to_bits()),
        MathFn::FromBits => match &xs[0] {
            Value::U32(b) => Value::F32(f32::from_bits(*b)),
            Value::U64(b) => Value::F64(f64::from_bits(*b)),
            other => other.clone(),
        },
        MathFn::Abs => on_numeric!(&xs[0], |x| x.acc_abs()),
        MathFn::Signum => signed1!(|x| x.signum()),
        MathFn::Min => on_pair!(&xs[0], &xs[1], |x, y| x.acc_min(*y), xs[0].clone()),
        MathFn::Max => on_pair!(&xs[0], &xs[1], |x, y| x.acc_max(*y), xs[0].clone()),
        MathFn::Clamp => {
            macro_rules! clamp {
                ($($v:ident),*) => {
                    match (&xs[0], &xs[1], &xs[2]) {
                        $((Value::$v(x), Value::$v(lo), Value::$v(hi)) => Value::$v(x.acc_clamp(*lo, *hi)),)*
                        (other, _, _) => other.clone(),
                    }
                };
            }
            clamp!(I8, I16, I32, I64, U8, U16, U32, U64, Usize, F32, F64)
        }
        MathFn::DivEuclid => {
            on_num_pair!(&xs[0], &xs[1], |x, y| x.acc_div_euclid(*y), xs[0].clone())
        }
        MathFn::RemEuclid => {
            on_num_pair!(&xs[0], &xs[1], |x, y| x.acc_rem_euclid(*y), xs[0].clone())
        }
        MathFn::CountOnes => int1!(|x| x.count_ones()),
        MathFn::CountZeros => int1!(|x| x.count_zeros()),
        MathFn::LeadingZeros => int1!(|x| x.leading_zeros()),
        MathFn::TrailingZeros => int1!(|x| x.trailing_zeros()),
        MathFn::LeadingOnes => int1!(|x| x.leading_ones()),
        MathFn::TrailingOnes => int1!(|x| x.trailing_ones()),
        MathFn::RotateLeft => int_u32!(|x, n| x.rotate_left(n)),
        MathFn::RotateRight => int_u32!(|x, n| x.rotate_right(n)),
        MathFn::SwapBytes => int1!(|x| x.swap_bytes()),
        MathFn::ReverseBits => int1!(|x| x.reverse_bits()),
        MathFn::Pow => int_u32!(|x, n| x.wrapping_pow(n)),
        MathFn::WrappingAdd => int2!(|x, y| x.wrapping_add(*y)),
        MathFn::WrappingSub => int2!(|x, y| x.wrapping_sub(*y)),
        MathFn::WrappingMul => int2!(|x, y| x.wrapping_mul(*y)),
        MathFn::WrappingNeg => int1!(|x| x.wrapping_neg()),
        MathFn::SaturatingAdd => int2!(|x, y| x.saturating_add(*y)),
        MathFn::SaturatingSub => int2!(|x, y| x.saturating_sub(*y)),
        MathFn::SaturatingMul => int2!(|x, y| x.saturating_mul(*y)),
        MathFn::AbsDiff => int2!(|x, y| x.abs_diff(*y)),
        MathFn::IsPositive => signed_int1!(&xs[0], |x| x.is_positive()),
        MathFn::IsNegative => signed_int1!(&xs[0], |x| x.is_negative()),
        MathFn::IsPowerOfTwo => match &xs[0] {
            Value::U8(x) => Value::Bool(x.is_power_of_two()),
            Value::U16(x) => Value::Bool(x.is_power_of_two()),
            Value::U32(x) => Value::Bool(x.is_power_of_two()),
            Value::U64(x) => Value::Bool(x.is_power_of_two()),
            Value::Usize(x) => Value::Bool(x.is_power_of_two()),
            other => other.clone(),
        },
    }
}

/// The default value of a scalar type (what a failed read yields).
pub fn default_of(ty: &crate::ir::Ty) -> Value {
    use crate::ir::Ty;
    match ty {
        Ty::Prim(p) => cast(&Value::U8(0), *p),
        Ty::Tuple(ts) => Value::Tuple(ts.iter().map(default_of).collect()),
        Ty::Index(r) => Value::Index(vec![0; *r]),
        Ty::Option(_) => Value::Option(None),
        Ty::Array(..) | Ty::Seq(_) => Value::Tuple(vec![]),
    }
}
