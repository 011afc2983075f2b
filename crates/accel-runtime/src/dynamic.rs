//! Dynamically typed values (`accel_types::dynamic`), and the conversion of
//! typed arrays and scalars into them.

pub use accel_types::dynamic::{Dyn, DynArray, Tolerance, Value};

use crate::array::Array;
use crate::elem::{Columns, Elem};

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
crate::elem::for_each_prim!(prim_to_dyn);

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
