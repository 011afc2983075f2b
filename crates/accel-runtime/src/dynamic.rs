//! Dynamically typed values: what the reference interpreter computes with, and
//! what tests compare compiled results against.

use crate::array::Array;
use crate::elem::{Columns, Elem, Prim};
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
            _ => return None,
        })
    }

    /// Equality that treats floats as equal when within `rel` relative (or
    /// absolute, near zero) tolerance, and NaN as equal to NaN.
    pub fn approx_eq(&self, other: &Value, rel: f64) -> bool {
        fn close(a: f64, b: f64, rel: f64) -> bool {
            if a.is_nan() || b.is_nan() {
                return a.is_nan() && b.is_nan();
            }
            if a == b {
                return true;
            }
            let scale = a.abs().max(b.abs()).max(1.0);
            (a - b).abs() <= rel * scale
        }
        match (self, other) {
            (Value::F32(a), Value::F32(b)) => close(*a as f64, *b as f64, rel),
            (Value::F64(a), Value::F64(b)) => close(*a, *b, rel),
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.approx_eq(y, rel))
            }
            _ => self == other,
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

/// A program's argument or result: an array, a scalar, or a tuple of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Dyn {
    Array(DynArray),
    Scalar(Value),
    Tuple(Vec<Dyn>),
}

impl Dyn {
    /// Structural equality with float tolerance `rel` (see [`Value::approx_eq`]).
    pub fn approx_eq(&self, other: &Dyn, rel: f64) -> bool {
        match (self, other) {
            (Dyn::Array(a), Dyn::Array(b)) => {
                a.shape == b.shape
                    && a.elems.len() == b.elems.len()
                    && a.elems.iter().zip(&b.elems).all(|(x, y)| x.approx_eq(y, rel))
            }
            (Dyn::Scalar(a), Dyn::Scalar(b)) => a.approx_eq(b, rel),
            (Dyn::Tuple(a), Dyn::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.approx_eq(y, rel))
            }
            _ => false,
        }
    }
}

/// Conversion of typed values (arrays, scalar parameters, tuples of arrays) into
/// their dynamic form.
pub trait ToDyn {
    fn to_dyn(&self) -> Dyn;
}

impl<T: Elem, const R: usize> ToDyn for Array<T, R> {
    fn to_dyn(&self) -> Dyn {
        Dyn::Array(DynArray {
            shape: self.shape().to_vec(),
            elems: self
                .columns()
                .to_elems()
                .into_iter()
                .map(Elem::to_value)
                .collect(),
        })
    }
}

impl<T: ToDyn + ?Sized> ToDyn for &T {
    fn to_dyn(&self) -> Dyn {
        (**self).to_dyn()
    }
}

macro_rules! prim_to_dyn {
    ($($t:ty),*) => {$(
        impl ToDyn for $t {
            fn to_dyn(&self) -> Dyn { Dyn::Scalar(self.to_value()) }
        }
    )*};
}
prim_to_dyn!(bool, i8, i16, i32, i64, u8, u16, u32, u64, usize, f32, f64);

macro_rules! tuple_to_dyn {
    ($(($($T:ident $i:tt),+))*) => {$(
        impl<$($T: ToDyn),+> ToDyn for ($($T,)+) {
            fn to_dyn(&self) -> Dyn { Dyn::Tuple(vec![$(self.$i.to_dyn()),+]) }
        }
    )*};
}
tuple_to_dyn! {
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
}
