//! Conversions to and from `ndarray` (the `ndarray` feature of `accel`).
//!
//! An `ndarray` array of any layout becomes an accel array of the same rank
//! (its elements in logical, row-major order: a view in standard layout is
//! copied as one slice, any other layout element by element), and
//! [`Array::to_ndarray`] gives an owned array in standard layout.

use crate::array::Array;
use crate::elem::Elem;
use ndarray::{ArrayBase, Data, Dim, Dimension, IntoDimension, Ix};

/// A shape as an accel shape (ndarray's arrays of `Dim<[Ix; R]>` have `R` extents).
fn shape_of<const R: usize>(extents: &[usize]) -> [usize; R] {
    let mut shape = [0; R];
    shape.copy_from_slice(extents);
    shape
}

impl<T: Elem, S: Data<Elem = T>, const R: usize> From<&ArrayBase<S, Dim<[Ix; R]>>> for Array<T, R>
where
    Dim<[Ix; R]>: Dimension,
{
    fn from(a: &ArrayBase<S, Dim<[Ix; R]>>) -> Self {
        let shape = shape_of::<R>(a.shape());
        let elems: Vec<T> = match a.as_slice() {
            Some(elems) => elems.to_vec(),
            None => a.iter().copied().collect(),
        };
        // ndarray's shape holds exactly its number of elements.
        Array::from_vec(shape, elems)
            .unwrap_or_else(|_| unreachable!("an ndarray's shape matches its elements"))
    }
}

impl<T: Elem, const R: usize> From<ndarray::Array<T, Dim<[Ix; R]>>> for Array<T, R>
where
    Dim<[Ix; R]>: Dimension,
{
    fn from(a: ndarray::Array<T, Dim<[Ix; R]>>) -> Self {
        Array::from(&a)
    }
}

impl<T: Elem, const R: usize> Array<T, R>
where
    [usize; R]: IntoDimension<Dim = Dim<[Ix; R]>>,
    Dim<[Ix; R]>: Dimension,
{
    /// The elements as an owned `ndarray` array of the same shape, in
    /// standard (row-major) layout.
    ///
    /// # Panics
    /// As [`Array::to_vec`]: only when the device holding the elements failed.
    pub fn to_ndarray(&self) -> ndarray::Array<T, Dim<[Ix; R]>> {
        let elems = self.to_vec();
        // The shape holds exactly `elems.len()` elements.
        ndarray::Array::from_shape_vec(self.shape().into_dimension(), elems)
            .unwrap_or_else(|_| unreachable!("an accel array's shape matches its elements"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{array, s, Array3};

    #[test]
    fn round_trips_keep_shape_and_order() {
        let m = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let a: Array<f32, 2> = Array::from(&m);
        assert_eq!(
            (a.shape(), a.to_vec()),
            ([2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        );
        assert_eq!(a.to_ndarray(), m);
        // Views of other layouts: a transpose, a strided slice.
        let t: Array<f32, 2> = Array::from(&m.t());
        assert_eq!(
            (t.shape(), t.to_vec()),
            ([3, 2], vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0])
        );
        let cols: Array<f32, 2> = Array::from(&m.slice(s![.., ..;2]));
        assert_eq!(cols.to_vec(), vec![1.0, 3.0, 4.0, 6.0]);
        // Owned, rank 3 and tuples; empty arrays.
        let c = Array3::from_shape_fn((2, 0, 4), |(i, j, k)| (i + j + k) as i64);
        let b = Array::from(c.clone());
        assert_eq!(b.shape(), [2, 0, 4]);
        assert_eq!(b.to_ndarray(), c);
        let pairs = ndarray::Array1::from_vec(vec![(1u8, true), (2, false)]);
        assert_eq!(Array::from(&pairs).to_ndarray(), pairs);
    }
}
