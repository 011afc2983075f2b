//! `Array<T, R>`: a rank-`R` array of elements `T`, row-major, struct-of-arrays.

use crate::elem::{Columns, Elem};
use crate::error::{Error, Result};
use crate::shape;
use std::fmt;

/// A rank-`R` array. Row-major: the last index varies fastest.
#[derive(Clone, PartialEq)]
pub struct Array<T: Elem, const R: usize> {
    shape: [usize; R],
    columns: T::Columns,
}

/// A rank-0 array: one element.
pub type Scalar<T> = Array<T, 0>;
/// A rank-1 array.
pub type Vector<T> = Array<T, 1>;
/// A rank-2 array.
pub type Matrix<T> = Array<T, 2>;

impl<T: Elem, const R: usize> Array<T, R> {
    /// An array of the given shape holding `data` in row-major order; `Err` when
    /// `data.len()` is not the product of the shape.
    pub fn from_vec(shape: [usize; R], data: Vec<T>) -> Result<Self> {
        let size = shape::checked_size(&shape)
            .ok_or_else(|| Error::new("Array::from_vec", format!("shape {shape:?} overflows usize")))?;
        if size != data.len() {
            return Err(Error::new(
                "Array::from_vec",
                format!(
                    "shape {shape:?} holds {size} elements but {} were given",
                    data.len()
                ),
            ));
        }
        Ok(Array {
            shape,
            columns: T::Columns::from_elems(&data),
        })
    }

    /// An array whose element at each index is `f(index)`.
    pub fn from_fn(shape: [usize; R], mut f: impl FnMut([usize; R]) -> T) -> Self {
        let size = shape::size(&shape);
        let mut columns = T::Columns::with_capacity(size);
        for i in 0..size {
            columns.push(f(shape::from_linear(&shape, i)));
        }
        Array { shape, columns }
    }

    /// An array from columns built by a kernel; `Err` when the columns do not hold
    /// exactly the shape's number of elements.
    pub fn from_columns(shape: [usize; R], columns: T::Columns) -> Result<Self> {
        if shape::checked_size(&shape) != Some(columns.len()) {
            return Err(Error::new(
                "Array::from_columns",
                format!("shape {shape:?} does not match {} elements", columns.len()),
            ));
        }
        Ok(Array { shape, columns })
    }

    pub fn shape(&self) -> [usize; R] {
        self.shape
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The struct-of-arrays storage: one `Vec` per primitive leaf of `T`.
    pub fn columns(&self) -> &T::Columns {
        &self.columns
    }

    pub fn into_columns(self) -> T::Columns {
        self.columns
    }

    /// The elements in row-major order.
    pub fn to_vec(&self) -> Vec<T> {
        self.columns.to_elems()
    }

    /// The element at `ix`, or `None` when `ix` is outside the shape.
    pub fn get(&self, ix: [usize; R]) -> Option<T> {
        shape::to_linear_checked(&self.shape, &ix).and_then(|i| self.columns.get(i))
    }
}

impl<T: Elem> Array<T, 0> {
    /// A rank-0 array holding `v`.
    pub fn new(v: T) -> Self {
        let mut columns = T::Columns::with_capacity(1);
        columns.push(v);
        Array { shape: [], columns }
    }

    /// The single element.
    pub fn value(&self) -> T {
        // A rank-0 array always holds exactly one element: every constructor
        // checks it.
        self.columns.get(0).unwrap_or_default()
    }
}

impl<T: Elem> From<Vec<T>> for Array<T, 1> {
    fn from(data: Vec<T>) -> Self {
        Array {
            shape: [data.len()],
            columns: T::Columns::from_elems(&data),
        }
    }
}

impl<T: Elem> From<&[T]> for Array<T, 1> {
    fn from(data: &[T]) -> Self {
        Array {
            shape: [data.len()],
            columns: T::Columns::from_elems(data),
        }
    }
}

impl<T: Elem> FromIterator<T> for Array<T, 1> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Array::from(iter.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Elem, const R: usize> fmt::Debug for Array<T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 16;
        let elems = self.columns.to_elems();
        write!(f, "Array{:?} ", self.shape)?;
        if elems.len() <= SHOWN {
            write!(f, "{elems:?}")
        } else {
            write!(f, "{:?} .. ({} elements)", &elems[..SHOWN], elems.len())
        }
    }
}
