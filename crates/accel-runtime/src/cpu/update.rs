//! In-place updates: a `generate` that changes an array only inside a box of
//! indices (an LU step's pivot row, a border) writes that box into the dead
//! array's own storage instead of building a new array.
//!
//! When the element function reads the array, the box's new elements are
//! computed first, into a buffer of their own, while every read still sees
//! the old array; then they are written into it ([`generate_box`],
//! [`write_box`]). So the element function may read any element of the
//! array, changed ones included, and still sees the old values, as the
//! functional program says. When it does not read the array (a Jacobi sweep
//! `b = generate(.. if inside { f(a) } else { b[[i]] } ..)`), the box is
//! computed straight into it ([`update_box`]): no buffer, no copy, and the
//! elements outside the box are not touched at all.

use crate::elem::{Columns, OutPtr};
use std::cell::UnsafeCell;

/// The box `lo..hi` clipped to `shape`: per dimension its start and length.
fn clip<const R: usize>(shape: &[usize; R], lo: [usize; R], hi: [usize; R]) -> ([usize; R], [usize; R]) {
    let start: [usize; R] = std::array::from_fn(|d| lo[d].min(shape[d]));
    let len: [usize; R] = std::array::from_fn(|d| hi[d].min(shape[d]).saturating_sub(start[d]));
    (start, len)
}

/// Whether updating the box `lo..hi` of an array of shape `shape` in place
/// pays: the box's elements are computed, then copied, so only when it
/// holds at most half the array; a larger update builds a new array (from
/// the pool of dead ones) in one pass.
pub fn box_pays<const R: usize>(shape: &[usize; R], lo: [usize; R], hi: [usize; R]) -> bool {
    let (_, len) = clip(shape, lo, hi);
    2 * crate::shape::size(&len) <= crate::shape::size(shape)
}

/// The elements of the box `lo..hi` of an array of shape `shape`, row-major:
/// element `ix` is `f(i, ix)`, `i` its offset in `shape`. `uneven`: the
/// elements' cost varies (they run loops), so the work is split finely.
pub fn generate_box<C: Columns, const R: usize>(
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    uneven: bool,
    f: impl Fn(usize, [usize; R]) -> C::Elem + Sync,
) -> C {
    let (start, len) = clip(shape, lo, hi);
    let n = crate::shape::size(&len);
    let at = |k: usize| {
        let b = crate::shape::from_linear(&len, k);
        let ix: [usize; R] = std::array::from_fn(|d| start[d] + b[d]);
        (crate::shape::to_linear(shape, &ix), ix)
    };
    let ranges = if uneven {
        super::fine_chunks(n)
    } else {
        super::chunks(n)
    };
    super::generate_in_at(ranges, n, at, f)
}

/// [`generate_box`] computing `L` neighbouring elements of a row of the box
/// at a time with `g` (`g(i, ix)` gives the elements at offsets `i..i + L`,
/// along the innermost dimension from index `ix`), the rest of each row with
/// `f`: for element functions whose loops run the same trips along a row
/// (the compiler's row lanes).
pub fn generate_box_lanes<C: Columns, const R: usize, const L: usize>(
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    uneven: bool,
    f: impl Fn(usize, [usize; R]) -> C::Elem + Sync,
    g: impl Fn(usize, [usize; R]) -> [C::Elem; L] + Sync,
) -> C {
    if R == 0 {
        return generate_box(shape, lo, hi, uneven, f);
    }
    let (start, len) = clip(shape, lo, hi);
    let n = crate::shape::size(&len);
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    let fill = |r: std::ops::Range<usize>| {
        runs(shape, start, len, r, |k, at0, ix0, m| {
            // SAFETY: box elements `k..k + m` lie below `n` = the capacity;
            // the ranges are disjoint.
            run_in_lanes(at0, ix0, m, &f, &g, |s, x| unsafe { C::write(out, k + s, x) })
        })
    };
    lane_split::<L>(n, uneven).for_each(fill);
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

/// The split of `n` box elements for row lanes of `L`: as `fine_chunks`
/// for `uneven` work, but ranges of whole groups; else as `chunks`.
fn lane_split<const L: usize>(n: usize, uneven: bool) -> super::par::Split {
    if uneven {
        let size = n.div_ceil(super::threads() * 64).next_multiple_of(L).max(L);
        super::par::Split::new(n, size)
    } else {
        super::chunks(n)
    }
}

/// The `m` elements of a run (one row of a box, from offset `at0` and index
/// `ix0`): `L` at a time with `g`, the rest one at a time with `f`; element
/// `s` of the run goes to `put(s, ..)`.
#[inline(always)]
fn run_in_lanes<T, const R: usize, const L: usize>(
    at0: usize,
    ix0: [usize; R],
    m: usize,
    f: &impl Fn(usize, [usize; R]) -> T,
    g: &impl Fn(usize, [usize; R]) -> [T; L],
    mut put: impl FnMut(usize, T),
) {
    let at = |s: usize| {
        let mut ix = ix0;
        ix[R - 1] += s;
        (at0 + s, ix)
    };
    let mut s = 0;
    while s + L <= m {
        let (i, ix) = at(s);
        for (l, x) in g(i, ix).into_iter().enumerate() {
            put(s + l, x);
        }
        s += L;
    }
    for t in s..m {
        let (i, ix) = at(t);
        put(t, f(i, ix));
    }
}

/// Walks the box elements `r` (row-major in the box starting at `start`,
/// of extents `len`, in an array of shape `shape`) a run at a time:
/// `run(k, at, ix, m)` for `m` consecutive elements of one row of the box,
/// the first being box element `k`, at offset `at` and index `ix` in the
/// array. One offset is computed per run, not per element.
fn runs<const R: usize>(
    shape: &[usize; R],
    start: [usize; R],
    len: [usize; R],
    r: std::ops::Range<usize>,
    mut run: impl FnMut(usize, usize, [usize; R], usize),
) {
    let row = if R == 0 { 1 } else { len[R - 1] };
    let mut k = r.start;
    while k < r.end {
        let b = crate::shape::from_linear(&len, k);
        let ix: [usize; R] = std::array::from_fn(|d| start[d] + b[d]);
        let end = r.end.min((k / row + 1) * row);
        run(k, crate::shape::to_linear(shape, &ix), ix, end - k);
        k = end;
    }
}

/// Writes `vals`, the elements of the box `lo..hi` of `cols` (of shape
/// `shape`) in row-major order, into their places.
pub fn write_box<C: Columns, const R: usize>(
    cols: &mut C,
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    mut vals: C,
) {
    let (start, len) = clip(shape, lo, hi);
    let n = crate::shape::size(&len);
    assert!(
        vals.len() == n && cols.len() == crate::shape::size(shape),
        "accel internal error: a box of {} elements for {n}",
        vals.len()
    );
    let (out, src) = (cols.out_ptr(), vals.out_ptr());
    let copy = |r: std::ops::Range<usize>| {
        runs(shape, start, len, r, |k, at, _, m| {
            // SAFETY: the run's elements lie in the box, inside `shape`, so
            // `at..at + m` is below `cols.len()`, and `k..k + m` below `n` =
            // `vals.len()`; the ranges of box elements are disjoint and so
            // are their offsets, so one task writes each slot; `vals` is
            // only read.
            unsafe { C::write_range(out, at..at + m, &|i| C::read(src, k + (i - at))) }
        })
    };
    if n < super::MIN_CHUNK {
        copy(0..n);
    } else {
        super::chunks(n).for_each(copy);
    }
    vals.recycle();
}

/// The box `lo..hi` of `cols` (of shape `shape`) that an update changes:
/// its start, extents and size; `None` when it is empty.
fn update_extent<C: Columns, const R: usize>(
    cols: &C,
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
) -> Option<([usize; R], [usize; R], usize)> {
    let (start, len) = clip(shape, lo, hi);
    let n = crate::shape::size(&len);
    assert!(
        cols.len() == crate::shape::size(shape),
        "accel internal error: an update of {} elements for shape {shape:?}",
        cols.len()
    );
    (n > 0 && R > 0).then_some((start, len, n))
}

/// Computes the elements of the box `lo..hi` of `cols` (of shape `shape`)
/// straight into their places: element `ix` becomes `f(i, ix)`, `i` its
/// offset. For an element function that does not read `cols`'s array (the
/// compiler checks): nothing sees a changed element too early. `uneven`: as
/// in [`generate_box`].
pub fn update_box<C: Columns, const R: usize>(
    cols: &mut C,
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    uneven: bool,
    f: impl Fn(usize, [usize; R]) -> C::Elem + Sync + Copy,
) {
    let Some(extent) = update_extent(cols, shape, lo, hi) else {
        return;
    };
    // SAFETY: `cols` is borrowed mutably for the whole call and `f` does not
    // read it (the caller's contract).
    unsafe { update_runs::<C, R>(cols.out_ptr(), shape, extent, uneven, f) }
}

/// A dying array's storage as an element-wise update in place reads it
/// ([`update_box_reading`]): slots read and written through one pointer.
/// Generated code reads it with [`InPlace::at`].
#[doc(hidden)]
pub struct InPlace<'a, T> {
    cells: &'a [UnsafeCell<T>],
}

// Copied whatever `T` is (a derive would ask `T: Copy`).
impl<T> Clone for InPlace<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for InPlace<'_, T> {}

// SAFETY: the threads of an update touch disjoint slots: element `i` reads
// and writes slot `i` alone (see `update_box_reading`).
unsafe impl<T: Send + Sync> Sync for InPlace<'_, T> {}
unsafe impl<T: Send + Sync> Send for InPlace<'_, T> {}

impl<T: Copy> InPlace<'_, T> {
    /// Element `i`, as [`super::at`] reads a slice.
    ///
    /// # Safety
    /// `i` is below the array's length.
    #[inline(always)]
    pub unsafe fn at(self, i: usize) -> T {
        debug_assert!(
            i < self.cells.len(),
            "accel internal error: read at {i} of {}",
            self.cells.len()
        );
        // SAFETY: `i` is in bounds (the caller's contract), and no thread
        // writes slot `i` while this reads it: only element `i` reads it,
        // before it is written.
        unsafe { *self.cells.get_unchecked(i).get() }
    }
}

/// [`update_box`] for an element function that reads the array it updates,
/// but only at the element's own index (`x[[i, j]] - 0.5 * (..)`): `f(x, i,
/// ix)` reads slot `i` of `x`, the array's old value there, before the new
/// value is written to it. No element reads another's slot, so none sees a
/// changed element, whatever the order. The compiler checks that `f` reads
/// `x` only so; then no buffer of the new elements is needed, and the box
/// may be the whole array (an FDTD field update).
pub fn update_box_reading<T: Copy + Send + Sync, const R: usize>(
    x: &mut Vec<T>,
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    uneven: bool,
    f: impl Fn(InPlace<'_, T>, usize, [usize; R]) -> T + Sync + Copy,
) where
    Vec<T>: Columns<Elem = T, Out = OutPtr<T>>,
{
    let Some(extent) = update_extent(x, shape, lo, hi) else {
        return;
    };
    let out = x.out_ptr();
    // The reads go through the same raw pointer as the writes: no reference
    // to `x`'s elements is made while they change. `UnsafeCell<T>` has
    // `T`'s layout.
    // SAFETY: `out` points at `x.len()` initialised elements, and `x` is
    // borrowed mutably for the whole call, so nothing else reaches them.
    let view = InPlace {
        cells: unsafe { std::slice::from_raw_parts(out.0 as *const UnsafeCell<T>, x.len()) },
    };
    // SAFETY: element `i` of the box writes slot `i` alone, after `f` has
    // read it, and `f` reads no other slot of `x` (the caller's contract).
    unsafe { update_runs::<Vec<T>, R>(out, shape, extent, uneven, move |i, ix| f(view, i, ix)) }
}

/// Element `ix` of the box `extent` (its start, extents and size, from
/// [`update_extent`]) of the array behind `out` (of shape `shape`) becomes
/// `f(i, ix)`, `i` its offset; rows in runs, runs split between threads.
///
/// # Safety
/// `out` points at the array's storage, which nothing else writes during
/// the call, and nothing reads a slot of the box after its element is
/// written but element `i`'s own `f` (which reads before it writes).
unsafe fn update_runs<C: Columns, const R: usize>(
    out: C::Out,
    shape: &[usize; R],
    (start, len, n): ([usize; R], [usize; R], usize),
    uneven: bool,
    f: impl Fn(usize, [usize; R]) -> C::Elem + Sync + Copy,
) {
    let update = |r: std::ops::Range<usize>| {
        runs(shape, start, len, r, |_, at0, ix0, m| {
            // The element's offset and index, for `f`.
            let at = move |i: usize| {
                let mut ix = ix0;
                ix[R - 1] += i - at0;
                (i, ix)
            };
            // SAFETY: the run's elements lie in the box (the last component
            // below `start + len`), inside `shape`, so their offsets
            // `at0..at0 + m` are below the array's length; the ranges are
            // disjoint and the box's elements have distinct offsets, so one
            // task writes each slot (and the caller's contract on reads).
            unsafe { C::write_range_at(out, at0..at0 + m, &at, &f) }
        })
    };
    if uneven {
        super::fine_chunks(n).for_each(update);
    } else {
        super::chunks(n).for_each(update);
    }
}

/// [`update_box`] computing `L` neighbouring elements of a run at a time
/// with `g` (`g(i, ix)` gives the elements at offsets `i..i + L`, along the
/// innermost dimension from index `ix`), the rest of each run with `f`: for
/// element functions whose loops run the same trips along a row (the
/// compiler's row lanes).
#[allow(clippy::too_many_arguments)]
pub fn update_box_lanes<C: Columns, const R: usize, const L: usize>(
    cols: &mut C,
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    uneven: bool,
    f: impl Fn(usize, [usize; R]) -> C::Elem + Sync + Copy,
    g: impl Fn(usize, [usize; R]) -> [C::Elem; L] + Sync + Copy,
) {
    let Some((start, len, n)) = update_extent(cols, shape, lo, hi) else {
        return;
    };
    let out = cols.out_ptr();
    let update = |r: std::ops::Range<usize>| {
        runs(shape, start, len, r, |_, at0, ix0, m| {
            // SAFETY: as in `update_box`: the run's offsets `at0..at0 + m`
            // lie below `cols.len()`, and one task writes each.
            run_in_lanes(at0, ix0, m, &f, &g, |s, x| unsafe { C::write(out, at0 + s, x) })
        })
    };
    lane_split::<L>(n, uneven).for_each(update);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_computed_and_written_in_place() {
        for (shape, lo, hi) in [
            ([4usize, 5], [1usize, 2], [3usize, 5]),
            ([4, 5], [0, 0], [9, 9]),
            ([4, 5], [3, 1], [2, 4]),
            ([0, 5], [0, 0], [1, 1]),
            ([300, 301], [2, 0], [299, 300]),
            ([5, 70000], [1, 1], [4, 69999]),
        ] {
            let n = shape[0] * shape[1];
            let mut a: Vec<usize> = (0..n).collect();
            let vals: Vec<usize> = generate_box(&shape, lo, hi, false, |i, ix| {
                assert_eq!(i, ix[0] * shape[1] + ix[1]);
                i + 1_000_000
            });
            write_box(&mut a, &shape, lo, hi, vals);
            let mut b: Vec<usize> = (0..n).collect();
            for uneven in [false, true] {
                update_box(&mut b, &shape, lo, hi, uneven, |i, ix| {
                    assert_eq!(i, ix[0] * shape[1] + ix[1]);
                    i + 1_000_000
                });
                assert_eq!(a, b, "{shape:?} {lo:?} {hi:?}");
            }
            // Reading the old element in place: the same values, from an
            // array of the elements' offsets.
            for uneven in [false, true] {
                let mut c: Vec<usize> = (0..n).collect();
                update_box_reading(&mut c, &shape, lo, hi, uneven, |x, i, ix| {
                    assert_eq!(i, ix[0] * shape[1] + ix[1]);
                    // SAFETY: `i` is inside the array.
                    unsafe { x.at(i) + 1_000_000 }
                });
                assert_eq!(a, c, "reading: {shape:?} {lo:?} {hi:?}");
            }
            for (i, x) in a.into_iter().enumerate() {
                let ix = [i / shape[1], i % shape[1]];
                let inside = (0..2).all(|d| lo[d] <= ix[d] && ix[d] < hi[d]);
                assert_eq!(
                    x,
                    if inside { i + 1_000_000 } else { i },
                    "{shape:?} {lo:?} {hi:?} at {ix:?}"
                );
            }
        }
    }
}
