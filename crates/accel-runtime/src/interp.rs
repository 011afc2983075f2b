//! The `interp` backend (`Backend::interp`, `ACCEL_BACKEND=interp`): a
//! program runs on accel's reference interpreter, compiled from its source
//! text when called. The interpreter is the oracle of every test: no fusion,
//! one thread, every intermediate array built, each operation written for
//! obviousness. Use it to tell a wrong program from a wrong compiler.

use crate::array::Array;
use crate::dynamic::{Dyn, DynArray, ToDyn};
use crate::elem::Elem;
use crate::error::{Error, Result};

/// Conversion of a program's result from its dynamic form.
pub trait FromDyn: Sized {
    fn from_dyn(d: Dyn) -> Option<Self>;
}

impl<T: Elem, const R: usize> FromDyn for Array<T, R> {
    fn from_dyn(d: Dyn) -> Option<Self> {
        let Dyn::Array(DynArray { shape, elems }) = d else {
            return None;
        };
        let shape: [usize; R] = shape.try_into().ok()?;
        let elems: Vec<T> = elems.iter().map(T::from_value).collect::<Option<_>>()?;
        Array::from_columns(shape, T::columns_from_vec(elems)).ok()
    }
}

macro_rules! prim_from_dyn {
    ($($t:ty),*) => {$(
        impl FromDyn for $t {
            fn from_dyn(d: Dyn) -> Option<Self> {
                match d {
                    Dyn::Scalar(v) => <$t as Elem>::from_value(&v),
                    _ => None,
                }
            }
        }
    )*};
}
crate::elem::for_each_prim!(prim_from_dyn);

macro_rules! tuple_from_dyn {
    ($(($($T:ident),+))*) => {$(
        impl<$($T: FromDyn),+> FromDyn for ($($T,)+) {
            fn from_dyn(d: Dyn) -> Option<Self> {
                let Dyn::Tuple(parts) = d else {
                    return None;
                };
                let mut parts = parts.into_iter();
                let out = ($($T::from_dyn(parts.next()?)?,)+);
                parts.next().is_none().then_some(out)
            }
        }
    )*};
}
tuple_from_dyn! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
}

/// An argument in its dynamic form.
pub fn arg(x: &impl ToDyn) -> Dyn {
    x.to_dyn()
}

/// Runs function `name` of `source` (a program's `SOURCE`) on the reference
/// interpreter.
pub fn run<T: FromDyn>(source: &str, name: &str, args: &[Dyn]) -> Result<T> {
    #[cfg(feature = "interp")]
    {
        let out = accel_core::interpret_source(source, name, args)?;
        T::from_dyn(out).ok_or_else(|| {
            Error::new(
                name,
                "the interpreter's result does not have the program's result type (a bug in accel)",
            )
        })
    }
    #[cfg(not(feature = "interp"))]
    {
        let _ = (source, args);
        Err(Error::with_kind(
            crate::error::ErrorKind::BackendUnavailable,
            name,
            "this build of accel has no `interp` backend: enable the `interp` feature of the `accel` crate",
        ))
    }
}
