//! An uneven layout for the distributed checks (`checks.rs`) and the random
//! programs' `dist` executor (`tests/random_programs.rs`): a program by rows
//! on it must move rows.

use accel::dist::{Comm, DistArray, WireColumns};
use accel::Array;
use std::sync::Arc;

/// `whole` (the same on every rank) laid out unevenly: later ranks hold
/// more rows (rank `r` from row `n r² / P²`).
pub fn skewed<T: accel::Elem, const R: usize>(
    comm: &Arc<dyn Comm>,
    whole: &Array<T, R>,
) -> accel::Result<DistArray<T, R>>
where
    T::Columns: WireColumns,
{
    let shape = whole.shape();
    let (n, p, r) = (shape[0], comm.size(), comm.rank());
    let row = shape[1..].iter().product::<usize>();
    let start = |r: usize| n * r * r / (p * p);
    let mut part_shape = shape;
    part_shape[0] = start(r + 1) - start(r);
    let elems = whole.to_vec()[start(r) * row..start(r + 1) * row].to_vec();
    DistArray::local(comm, Array::from_vec(part_shape, elems)?)
}
