//! A stream's blocks: runs of elements of one shape, stored one after the
//! other, from which elements and chunks are taken.

use crate::array::Array;
use crate::elem::{Columns, Elem};
use crate::error::Result;

/// A run of elements of one shape, `row`, stored one after the other in
/// `flat` (shared with the array they came in: nothing is copied).
pub(super) struct Block<T: Elem, const R: usize> {
    pub(super) flat: Array<T, 1>,
    pub(super) row: [usize; R],
    pub(super) rows: usize,
    /// The first row not pulled yet.
    pub(super) next: usize,
}

impl<T: Elem, const R: usize> Block<T, R> {
    pub(super) fn of_element(x: Array<T, R>) -> Self {
        let row = x.shape();
        let n = x.len();
        Block {
            flat: x.reshaped([n]).expect("an array's size is its length"),
            row,
            rows: 1,
            next: 0,
        }
    }

    pub(super) fn of_rows<const R1: usize>(b: Array<T, R1>) -> Self {
        let dims = b.shape();
        let mut row = [0; R];
        row.copy_from_slice(&dims[1..]);
        let n = b.len();
        Block {
            flat: b.reshaped([n]).expect("an array's size is its length"),
            row,
            rows: dims[0],
            next: 0,
        }
    }

    pub(super) fn row_len(&self) -> usize {
        crate::shape::size(&self.row)
    }

    pub(super) fn left(&self) -> usize {
        self.rows - self.next
    }

    /// Rows `next..next + k` as one array of shape `[k, row..]`: the block's
    /// own storage when that is all of it.
    pub(super) fn take<const R1: usize>(&mut self, k: usize) -> Result<Array<T, R1>> {
        let mut dims = [0; R1];
        dims[0] = k;
        dims[1..].copy_from_slice(&self.row);
        let flat = self.take_flat(k)?;
        Ok(flat.reshaped(dims).expect("a block's size is its rows'"))
    }

    /// Rows `next..next + k`, their elements one after the other.
    pub(super) fn take_flat(&mut self, k: usize) -> Result<Array<T, 1>> {
        let whole = self.next == 0 && k == self.rows;
        let (lo, w) = (self.next, self.row_len());
        self.next += k;
        if whole {
            return Ok(self.flat.clone());
        }
        let mut cols = T::Columns::with_capacity(k * w);
        cols.extend_from(self.flat.try_columns()?, lo * w..(lo + k) * w);
        Array::from_columns([k * w], cols)
    }
}

/// `R1 = R + 1`, checked when [`Stream::chunks`] is instantiated.
pub(super) struct RankUp<const R: usize, const R1: usize>;

impl<const R: usize, const R1: usize> RankUp<R, R1> {
    pub(super) const CHECK: () = assert!(
        R1 == R + 1,
        "Stream::chunks takes blocks one rank higher than the stream's elements"
    );
}
