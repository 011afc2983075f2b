//! CPU skeletons: the parallel loops that generated code calls with its fused
//! element functions.
//!
//! Every element function receives a linear (row-major) index into the iteration
//! space; generated code turns it into a multi-dimensional index where needed.
//! The skeletons split work into contiguous chunks so that inner loops are plain
//! counted loops the compiler can vectorise.

mod ctx;
mod fold;
mod permute;
mod scan;

pub use ctx::Ctx;
pub use fold::{fold1_all, fold1_rows, fold_all, fold_rows};
pub use permute::permute;
pub use scan::{scan_exclusive, scan_inclusive, scan_with_init, ScanDir};

use crate::elem::Columns;
use rayon::prelude::*;
use std::ops::Range;

/// Fewest elements worth giving to one task: below this, splitting costs more
/// than it saves.
pub(crate) const MIN_CHUNK: usize = 1 << 14;

/// Splits `0..n` into contiguous ranges for parallel work: a few per thread for
/// load balance, none smaller than `MIN_CHUNK` (except the last).
pub(crate) fn chunks(n: usize) -> impl IndexedParallelIterator<Item = Range<usize>> {
    let threads = rayon::current_num_threads().max(1);
    let size = n.div_ceil(threads * 4).max(MIN_CHUNK);
    let count = n.div_ceil(size);
    (0..count).into_par_iter().map(move |c| c * size..((c + 1) * size).min(n))
}

/// An array of `n` elements, element `i` being `f(i)`.
pub fn generate<C: Columns>(n: usize, f: impl Fn(usize) -> C::Elem + Sync) -> C {
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    chunks(n).for_each(|r| {
        for i in r {
            // SAFETY: `i < n` = the capacity, and the chunks are disjoint.
            unsafe { C::write(out, i, f(i)) }
        }
    });
    // SAFETY: the chunks cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generate_covers_every_index() {
        for n in [0, 1, 7, MIN_CHUNK - 1, MIN_CHUNK + 3, 5 * MIN_CHUNK + 11] {
            let v: Vec<usize> = generate(n, |i| i * 2);
            assert_eq!(v, (0..n).map(|i| i * 2).collect::<Vec<_>>());
            let (a, b): (Vec<u8>, Vec<f64>) = generate(n, |i| (i as u8, i as f64));
            assert_eq!(a.len(), n);
            assert!(b.iter().enumerate().all(|(i, &x)| x == i as f64));
        }
    }
}
