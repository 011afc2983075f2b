//! Dynamically typed values: what the reference interpreter computes with, and
//! what tests compare compiled results against.

use crate::Prim;
use std::fmt;

/// One scalar value (an array element, an index component, a kernel parameter).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    Usize(usize),
    F32(f32),
    F64(f64),
    F16(half::f16),
    BF16(half::bf16),
    Tuple(Vec<Value>),
    /// An array index `[i, j, ..]`.
    Index(Vec<usize>),
    /// `Option` values appear only in permute's index functions.
    Option(Option<Box<Value>>),
}

impl Value {
    pub fn prim(&self) -> Option<Prim> {
        Some(match self {
            Value::Bool(_) => Prim::Bool,
            Value::I8(_) => Prim::I8,
            Value::I16(_) => Prim::I16,
            Value::I32(_) => Prim::I32,
            Value::I64(_) => Prim::I64,
            Value::U8(_) => Prim::U8,
            Value::U16(_) => Prim::U16,
            Value::U32(_) => Prim::U32,
            Value::U64(_) => Prim::U64,
            Value::Usize(_) => Prim::Usize,
            Value::F32(_) => Prim::F32,
            Value::F64(_) => Prim::F64,
            Value::F16(_) => Prim::F16,
            Value::BF16(_) => Prim::BF16,
            _ => return None,
        })
    }

    /// Equality that treats floats as equal when within `rel` relative
    /// tolerance (see [`Tolerance`]): NaN equals NaN only, an infinity equals
    /// only the infinity of the same sign, and finite values `a`, `b` are
    /// equal when `|a - b| <= rel * max(|a|, |b|, m)` where `m` is the
    /// smallest normal number of the type (so the test is relative down to
    /// the subnormals, where a difference of rounding is all there is).
    pub fn approx_eq(&self, other: &Value, rel: f64) -> bool {
        self.approx_eq_tol(other, Tolerance::rel(rel))
    }

    /// [`Value::approx_eq`] with a caller-given magnitude of the terms (see
    /// [`Tolerance::mag`]).
    pub fn approx_eq_tol(&self, other: &Value, tol: Tolerance) -> bool {
        fn close(a: f64, b: f64, tol: Tolerance, floor: f64) -> bool {
            if a.is_nan() || b.is_nan() {
                return a.is_nan() && b.is_nan();
            }
            if a == b {
                return true;
            }
            if a.is_infinite() || b.is_infinite() {
                // Not equal (checked above): an infinity matches only itself.
                return false;
            }
            let scale = a.abs().max(b.abs()).max(tol.mag).max(floor);
            (a - b).abs() <= tol.rel * scale
        }
        match (self, other) {
            (Value::F32(a), Value::F32(b)) => close(*a as f64, *b as f64, tol, f32::MIN_POSITIVE as f64),
            (Value::F64(a), Value::F64(b)) => close(*a, *b, tol, f64::MIN_POSITIVE),
            (Value::F16(a), Value::F16(b)) => {
                close(a.to_f64(), b.to_f64(), tol, half::f16::MIN_POSITIVE.to_f64())
            }
            (Value::BF16(a), Value::BF16(b)) => {
                close(a.to_f64(), b.to_f64(), tol, half::bf16::MIN_POSITIVE.to_f64())
            }
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.approx_eq_tol(y, tol))
            }
            _ => self == other,
        }
    }
}

/// A float tolerance for [`Value::approx_eq_tol`] and [`Dyn::approx_eq_tol`].
///
/// Finite floats `a` and `b` are equal when `|a - b| <= rel * scale`, with
/// `scale = max(|a|, |b|, mag, MIN_POSITIVE of the type)`. `rel` bounds the
/// rounding error relative to the size of the numbers involved; by default
/// (`mag` = 0) that is the size of the results themselves. Where a result is
/// computed from terms that may cancel (a sum, a dot product), its rounding
/// error is relative to the terms, not to the result: give their magnitude
/// in `mag` (for a sum, the sum of the absolute values of its terms) so that
/// a result near zero from large terms is compared at the terms' scale.
/// NaN and the infinities are compared exactly in every case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance (0 for exact comparison).
    pub rel: f64,
    /// Magnitude of the terms a result was computed from (0 if unknown).
    pub mag: f64,
}

impl Tolerance {
    /// Relative tolerance `rel`, scaled by the results.
    pub const fn rel(rel: f64) -> Tolerance {
        Tolerance { rel, mag: 0.0 }
    }

    /// Relative tolerance `rel`, scaled by at least `mag` (the magnitude of
    /// the terms, e.g. the sum of their absolute values for a sum).
    pub const fn with_mag(rel: f64, mag: f64) -> Tolerance {
        Tolerance { rel, mag }
    }
}

impl From<f64> for Tolerance {
    fn from(rel: f64) -> Tolerance {
        Tolerance::rel(rel)
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.mag == 0.0 {
            write!(f, "{}", self.rel)
        } else {
            write!(f, "{} of max(result, {})", self.rel, self.mag)
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(x) => write!(f, "{x}"),
            Value::I8(x) => write!(f, "{x}"),
            Value::I16(x) => write!(f, "{x}"),
            Value::I32(x) => write!(f, "{x}"),
            Value::I64(x) => write!(f, "{x}"),
            Value::U8(x) => write!(f, "{x}"),
            Value::U16(x) => write!(f, "{x}"),
            Value::U32(x) => write!(f, "{x}"),
            Value::U64(x) => write!(f, "{x}"),
            Value::Usize(x) => write!(f, "{x}"),
            Value::F32(x) => write!(f, "{x:?}"),
            Value::F64(x) => write!(f, "{x:?}"),
            Value::F16(x) => write!(f, "{x:?}"),
            Value::BF16(x) => write!(f, "{x:?}"),
            Value::Tuple(xs) => {
                write!(f, "(")?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, ")")
            }
            Value::Index(ix) => write!(f, "{ix:?}"),
            Value::Option(None) => write!(f, "None"),
            Value::Option(Some(v)) => write!(f, "Some({v})"),
        }
    }
}

/// An array of dynamically typed elements, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct DynArray {
    pub shape: Vec<usize>,
    pub elems: Vec<Value>,
}

/// A program's argument or result: an array, a scalar, a tuple of them, or
/// (an argument) a sequence of arrays.
#[derive(Clone, Debug, PartialEq)]
pub enum Dyn {
    Array(DynArray),
    Scalar(Value),
    Tuple(Vec<Dyn>),
    Seq(Vec<DynArray>),
}

impl Dyn {
    /// Structural equality with float tolerance `rel` (see [`Value::approx_eq`]).
    pub fn approx_eq(&self, other: &Dyn, rel: f64) -> bool {
        self.approx_eq_tol(other, Tolerance::rel(rel))
    }

    /// Structural equality with float tolerance `tol` (see [`Tolerance`]);
    /// the same tolerance applies to every element.
    pub fn approx_eq_tol(&self, other: &Dyn, tol: Tolerance) -> bool {
        match (self, other) {
            (Dyn::Array(a), Dyn::Array(b)) => {
                a.shape == b.shape
                    && a.elems.len() == b.elems.len()
                    && a.elems.iter().zip(&b.elems).all(|(x, y)| x.approx_eq_tol(y, tol))
            }
            (Dyn::Scalar(a), Dyn::Scalar(b)) => a.approx_eq_tol(b, tol),
            (Dyn::Tuple(a), Dyn::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.approx_eq_tol(y, tol))
            }
            (Dyn::Seq(a), Dyn::Seq(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|(x, y)| Dyn::Array(x.clone()).approx_eq_tol(&Dyn::Array(y.clone()), tol))
            }
            _ => false,
        }
    }
}

/// A primitive value as a [`Value`] (the runtime's `Elem::to_value` covers
/// tuples and arrays too).
pub trait ToValue {
    fn to_value(self) -> Value;
}

macro_rules! prim_to_value {
    ($($t:ty => $p:ident),*) => {$(
        impl ToValue for $t {
            fn to_value(self) -> Value { Value::$p(self) }
        }
    )*};
}
prim_to_value!(bool => Bool, i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, usize => Usize, f32 => F32, f64 => F64, half::f16 => F16, half::bf16 => BF16);

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(a: f32, b: f32, rel: f64) -> bool {
        Value::F32(a).approx_eq(&Value::F32(b), rel)
    }

    fn f64s(a: f64, b: f64, rel: f64) -> bool {
        Value::F64(a).approx_eq(&Value::F64(b), rel)
    }

    #[test]
    fn specials_compare_exactly() {
        for rel in [0.0, 1e-4, 0.5] {
            assert!(f32s(f32::NAN, f32::NAN, rel));
            assert!(!f32s(f32::NAN, 0.0, rel));
            assert!(!f32s(1.0, f32::NAN, rel));
            assert!(!f32s(f32::NAN, f32::INFINITY, rel));
            assert!(f32s(f32::INFINITY, f32::INFINITY, rel));
            assert!(f32s(f32::NEG_INFINITY, f32::NEG_INFINITY, rel));
            assert!(!f32s(f32::INFINITY, f32::NEG_INFINITY, rel));
            assert!(!f32s(f32::NEG_INFINITY, f32::INFINITY, rel));
            assert!(!f32s(f32::INFINITY, f32::MAX, rel));
            assert!(!f32s(1.0, f32::INFINITY, rel));
            assert!(!f32s(f32::NEG_INFINITY, -1.0, rel));
            assert!(!f64s(f64::INFINITY, 0.0, rel));
            assert!(!f64s(f64::MAX, f64::INFINITY, rel));
            assert!(!f64s(f64::INFINITY, f64::NEG_INFINITY, rel));
            assert!(f64s(f64::NEG_INFINITY, f64::NEG_INFINITY, rel));
            assert!(f64s(0.0, -0.0, rel));
        }
    }

    #[test]
    fn small_values_are_compared_relatively() {
        // Formerly equal under the 1.0 floor of the scale.
        assert!(!f32s(1e-5, 2e-5, 1e-4));
        assert!(!f32s(0.0, 1e-6, 1e-4));
        assert!(!f64s(1e-12, 3e-12, 1e-9));
        assert!(!f64s(0.0, 1e-300, 1e-9));
        // Rounding-sized differences stay equal at any magnitude.
        assert!(f32s(1e-20, 1e-20 * (1.0 + 1e-6), 1e-4));
        assert!(f64s(1e-200, 1e-200 * (1.0 + 1e-12), 1e-9));
        assert!(f32s(3e30, 3e30 * (1.0 + 1e-5), 1e-4));
        assert!(!f32s(3e30, 3e30 * (1.0 + 1e-3), 1e-4));
        // Exact comparison.
        assert!(!f32s(1.0, 1.0 + f32::EPSILON, 0.0));
        assert!(!f64s(0.0, f64::from_bits(1), 0.0));
        // Subnormals differ at the scale of the smallest normal.
        assert!(f32s(1e-44, 2e-44, 1e-4));
        assert!(!f32s(1e-39, 3e-39, 1e-4));
    }

    #[test]
    fn magnitude_of_the_terms() {
        let (a, b) = (Value::F32(1e-3), Value::F32(2e-3));
        // A sum of terms of size ~100 that cancels: rounding of 1e-3 is fine.
        assert!(!a.approx_eq(&b, 1e-4));
        assert!(a.approx_eq_tol(&b, Tolerance::with_mag(1e-4, 100.0)));
        assert!(!a.approx_eq_tol(&b, Tolerance::with_mag(1e-4, 1.0)));
        // The magnitude never makes specials match.
        let inf = Value::F64(f64::INFINITY);
        assert!(!inf.approx_eq_tol(&Value::F64(1.0), Tolerance::with_mag(1e-4, f64::MAX)));
        // It applies inside arrays and tuples.
        let x = Dyn::Array(DynArray {
            shape: vec![2],
            elems: vec![a.clone(), Value::F32(5.0)],
        });
        let y = Dyn::Array(DynArray {
            shape: vec![2],
            elems: vec![b.clone(), Value::F32(5.0)],
        });
        assert!(!x.approx_eq(&y, 1e-4));
        assert!(x.approx_eq_tol(&y, Tolerance::with_mag(1e-4, 100.0)));
        let t = Value::Tuple(vec![Value::I32(1), a]);
        let u = Value::Tuple(vec![Value::I32(1), b]);
        assert!(!t.approx_eq(&u, 1e-4));
        assert!(t.approx_eq_tol(&u, Tolerance::with_mag(1e-4, 100.0)));
    }
}

/// `trace!`'s message: `fmt` with `args` in its placeholders, as Rust's
/// `format!` writes them: `{}` by `Display` (numbers and `bool` only, as in
/// Rust), `{:?}` by `Debug` (also tuples, indices and options); `{{` and `}}`
/// are braces. The front end has checked that the placeholders and the
/// arguments agree; a mismatch here writes what it can.
pub fn format_trace(fmt: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut rest = fmt;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if let Some(r) = rest.strip_prefix("{{").or_else(|| rest.strip_prefix("}}")) {
            out.push_str(&rest[..1]);
            rest = r;
        } else if let Some(r) = rest.strip_prefix("{}") {
            if let Some(v) = args.next() {
                write_value(&mut out, v, false);
            }
            rest = r;
        } else if let Some(r) = rest.strip_prefix("{:?}") {
            if let Some(v) = args.next() {
                write_value(&mut out, v, true);
            }
            rest = r;
        } else {
            out.push_str(&rest[..1]);
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

/// `v` as Rust's `Display` (`debug` false) or `Debug` writes it.
fn write_value(out: &mut String, v: &Value, debug: bool) {
    use fmt::Write;
    let _ = match (v, debug) {
        (Value::F32(x), false) => write!(out, "{x}"),
        (Value::F64(x), false) => write!(out, "{x}"),
        (Value::F32(x), true) => write!(out, "{x:?}"),
        (Value::F64(x), true) => write!(out, "{x:?}"),
        (Value::F16(x), false) => write!(out, "{x}"),
        (Value::BF16(x), false) => write!(out, "{x}"),
        (Value::F16(x), true) => write!(out, "{x:?}"),
        (Value::BF16(x), true) => write!(out, "{x:?}"),
        (Value::Tuple(xs), _) => {
            out.push('(');
            for (i, x) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, x, true);
            }
            if xs.len() == 1 {
                out.push(',');
            }
            out.push(')');
            Ok(())
        }
        (Value::Option(Some(x)), _) => {
            out.push_str("Some(");
            write_value(out, x, true);
            out.push(')');
            Ok(())
        }
        // Integers, `bool`, indices and `None`: `Display` and `Debug` agree.
        (v, _) => write!(out, "{v}"),
    };
}

#[cfg(test)]
mod trace_tests {
    use super::*;

    #[test]
    fn trace_messages_are_formatted_as_rust_formats_them() {
        let args = [
            Value::F32(1.0),
            Value::F64(0.1),
            Value::I32(-3),
            Value::Tuple(vec![Value::F32(2.0), Value::Usize(7)]),
            Value::Tuple(vec![Value::Bool(true)]),
            Value::Index(vec![1, 2]),
        ];
        let s = format_trace("{} {:?} {} {:?} {:?} {:?} {{x}}", &args);
        let rust = format!(
            "{} {:?} {} {:?} {:?} {:?} {{x}}",
            1.0f32,
            0.1f64,
            -3,
            (2.0f32, 7usize),
            (true,),
            [1usize, 2]
        );
        assert_eq!(s, rust);
    }
}
