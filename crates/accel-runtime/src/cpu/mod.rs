//! CPU skeletons: the parallel loops that generated code calls with its fused
//! element functions.
//!
//! Every element function receives a linear (row-major) index into the iteration
//! space; generated code turns it into a multi-dimensional index where needed.
//! The skeletons split work into contiguous chunks so that inner loops are plain
//! counted loops the compiler can vectorise.

mod bucket;
mod columns;
mod expand;
mod fold;
mod par;
mod permute;
pub mod pool;
mod scan;
mod sort;
pub mod stencil;
#[cfg(test)]
mod testing;
pub mod timing;
mod update;

pub use columns::{fold1_columns_then, fold_columns_then};
// The run's context and host checks, used by the skeletons too.
pub use crate::host::{check_reshape, extent, Ctx};
pub use expand::{set_expand_strategy, whole_runs, ExpandStrategy, Expansion, Rows};
pub use fold::{
    fold1_all, fold1_all_fields, fold1_all_lanes, fold1_rows, fold1_rows_then, fold_all, fold_all_fields,
    fold_all_lanes, fold_rows, fold_rows_then, fold_rows_wanted_then, Order,
};
pub use permute::{
    permute, permute_atomic, permute_atomic_by_rows, permute_rows_atomic, scatter_store, AtomicOp,
    AtomicPrim, StorePrim,
};
pub use scan::{
    combine_some, scan_exclusive, scan_inclusive, scan_inclusive_folds, scan_inclusive_then, scan_with_init,
    scan_with_init_folds, scan_with_init_then, Folds, ScanDir,
};
pub use sort::{sort_by_key, sort_by_stored_key, RadixKey};
pub use stencil::{stencil_generate, Bound};
pub use update::{
    box_pays, generate_box, generate_box_lanes, update_box, update_box_lanes, update_box_reading, write_box,
    InPlace,
};

use crate::elem::Columns;
use par::{threads, Split};
use std::mem::MaybeUninit;

/// Fewest elements worth giving to one task: below this, splitting costs more
/// than it saves.
pub(crate) const MIN_CHUNK: usize = 1 << 14;

/// Splits `0..n` into contiguous ranges of about equal size for parallel
/// work: a few per thread for load balance, none smaller than `MIN_CHUNK`.
/// Equal sizes, not `MIN_CHUNK`s and a short rest: the call lasts as long as
/// its longest range, and a range of the rest alone costs a task (waking a
/// thread) for little work (1.3 `MIN_CHUNK`s took twice as long as one thread).
pub(crate) fn chunks(n: usize) -> Split {
    Split::into_parts(n, (n / MIN_CHUNK).clamp(1, threads() * 4))
}

/// Splits `0..n` into many small ranges (down to one element), for work whose
/// cost per element varies with the data: rayon's work stealing then
/// balances the threads, where [`chunks`]' few large ranges would leave one
/// thread with the expensive part.
pub(crate) fn fine_chunks(n: usize) -> Split {
    Split::new(n, n.div_ceil(threads() * 64))
}

/// Splits `rows` rows of `len` elements each into contiguous ranges of rows for
/// parallel work, as [`chunks`] does for elements.
pub(crate) fn chunks_of(rows: usize, len: usize) -> Split {
    let per = MIN_CHUNK.div_ceil(len.max(1));
    Split::new(rows, rows.div_ceil(threads() * 4).max(per))
}

/// Element `i` of a column, without a bounds check.
///
/// # Safety
/// `i < s.len()`. Generated code calls this only for offsets the compiler has
/// proven in bounds (an offset inside the iteration space of a kernel whose
/// extent is at most the array's); every read whose index comes from user code
/// goes through [`Ctx::index`] first.
#[doc(hidden)]
#[inline(always)]
pub unsafe fn at<T: Copy>(s: &[T], i: usize) -> T {
    debug_assert!(i < s.len(), "accel internal error: read at {i} of {}", s.len());
    // SAFETY: the caller guarantees `i < s.len()`.
    unsafe { *s.get_unchecked(i) }
}

/// Whether reads the code generator proved in bounds are checked anyway: a
/// wrong proof then stops the program with a message naming it, instead of
/// reading out of bounds. On with debug assertions (debug builds, and so every
/// test suite of this project) and with the feature `verify-elisions` (to
/// check an optimised build); off, the check is compiled out.
#[doc(hidden)]
pub const VERIFY_ELISIONS: bool = cfg!(any(feature = "verify-elisions", debug_assertions));

/// Under [`VERIFY_ELISIONS`]: panics unless `ix` lies inside `shape`. A
/// failure is a bug in accel (the proof `proof` that let the read go
/// unchecked was wrong), never in the user's program, so it is a panic.
#[doc(hidden)]
#[cold]
#[inline(never)]
pub fn verify_elision<const R: usize>(proof: &str, op: &str, ix: &[usize; R], shape: &[usize; R]) {
    if ix.iter().zip(shape).any(|(i, n)| i >= n) {
        panic!("accel internal error: the bounds proof `{proof}` was wrong: {op} read index {ix:?} of shape {shape:?}");
    }
}

/// The index at row-major offset `l` of `shape`, for `l` inside `shape`
/// ([`crate::shape::from_linear`] without its last division: the outermost
/// component is what the inner ones leave, so a vector's index costs nothing).
#[doc(hidden)]
#[inline(always)]
pub fn index_at<const R: usize>(shape: &[usize; R], mut l: usize) -> [usize; R] {
    let mut ix = [0; R];
    for d in (1..R).rev() {
        let n = shape[d];
        if n != 0 {
            ix[d] = l % n;
            l /= n;
        }
    }
    if R > 0 {
        ix[0] = l;
    }
    ix
}

/// [`index_at`] for many offsets of one shape: the divisions by the extents
/// done as multiplications by their reciprocals, computed once (a permute
/// over the pairs `[i, j]` of a matrix finds each source's index from its
/// offset, a fold over the rows of a rank-3 space each row's index; a
/// hardware division would be most of the cost of a cheap element).
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct IndexOf<const R: usize> {
    shape: [usize; R],
    divisors: [<usize as crate::ops::FastDiv>::Divisor; R],
}

impl<const R: usize> IndexOf<R> {
    pub fn new(shape: &[usize; R]) -> IndexOf<R> {
        use crate::ops::FastDiv;
        IndexOf {
            shape: *shape,
            divisors: std::array::from_fn(|d| shape[d].divisor()),
        }
    }

    /// The index at row-major offset `l`, for `l` inside the shape.
    #[inline(always)]
    pub fn at(&self, l: usize) -> [usize; R] {
        let mut ix = [0; R];
        self.split(&mut ix, l, R);
        ix
    }

    /// The index of element `j` of row `r` (the rows along the innermost
    /// dimension), for `r` below the rows' count: what a fold, scan or
    /// generate over rows (`rows_of`) computes its elements from.
    #[inline(always)]
    pub fn row(&self, r: usize, j: usize) -> [usize; R] {
        let mut ix = [0; R];
        if R > 0 {
            ix[R - 1] = j;
            self.split(&mut ix, r, R - 1);
        }
        ix
    }

    /// Sets the first `axes` components of `ix` to the index at row-major
    /// offset `l` over the first `axes` axes: the outermost takes what is
    /// left, so it needs no division.
    #[inline(always)]
    fn split(&self, ix: &mut [usize; R], mut l: usize, axes: usize) {
        use crate::ops::FastDiv;
        if axes == 0 {
            return;
        }
        for d in (1..axes).rev() {
            let q = l.fast_div(self.divisors[d]);
            ix[d] = l - q * self.shape[d];
            l = q;
        }
        ix[0] = l;
    }
}

/// `(rows, row length)` of an array reduced or scanned along its innermost
/// dimension.
#[inline]
pub fn rows_of<const R: usize>(shape: &[usize; R]) -> (usize, usize) {
    match shape.split_last() {
        Some((len, rest)) => (crate::shape::size(rest), *len),
        None => (1, 1),
    }
}

/// The error of a reduction without initial value over an empty row.
/// `Err(OutOfMemory)` when an array of `shape` with elements of type `T`
/// cannot be allocated (`Vec` allocations abort the process instead). Only
/// large arrays are tried: a probe that reserves the bytes and gives them back,
/// before the kernel that fills the array.
#[inline]
pub fn reserve<T>(op: &str, shape: &[usize]) -> crate::Result<()> {
    /// Smaller arrays are not tried (the probe costs an allocation).
    const LARGE: usize = 1 << 28;
    let bytes = crate::shape::size(shape).saturating_mul(std::mem::size_of::<T>().max(1));
    if bytes < LARGE || Vec::<u8>::new().try_reserve_exact(bytes).is_ok() {
        return Ok(());
    }
    Err(crate::Error::with_kind(
        crate::ErrorKind::OutOfMemory,
        op,
        format!("cannot allocate {bytes} bytes for an array of shape {shape:?}"),
    ))
}

/// Runs `f`, compiled for 256-bit vectors (AVX2) where the CPU has them:
/// a kernel's loop, with its element function inlined into it, then runs
/// twice the lanes per instruction. The same operations in the same order
/// either way (no fused multiply-add is enabled), so the results are the
/// same bit for bit; only the width of the vectors LLVM picks changes.
#[inline(always)]
pub(crate) fn wide<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if columns::wide_vectors() {
        // SAFETY: the CPU has AVX2.
        return unsafe { with_avx2(f) };
    }
    f()
}

/// `f()` compiled with AVX2 enabled, `f` inlined into it.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Writes `f(start + k)` to each `slots[k]`, in order.
///
/// The loop is not inlined into its caller, so that `slots` is a parameter:
/// the compiler then knows that the writes alias nothing else, and hoists out
/// of the loop what the element function loads through its captures (the
/// slices it reads), which lets the loop vectorise. Inlined, the stores could
/// change those pointers as far as it knew: histo's `u32 -> u8` map reloaded
/// its input's address for every element and ran scalar. Compiled for AVX2
/// where the CPU has it.
///
/// The loop has two copies (AVX2 and plain), so `f` is called from two
/// places: the code generator marks element functions `#[inline(always)]`,
/// else a large one would be called, not inlined, for every element. For
/// the same reason what stands between `f` and the loop ([`Element`]) is
/// inlined always.
pub fn fill_slots<T, F: Fn(usize) -> T>(slots: &mut [MaybeUninit<T>], start: usize, f: &F) {
    fill(slots, start, &ByPosition(f))
}

/// [`fill_slots`] writing `f(j, a)` with `(j, a) = at(i)` at each position
/// `i = start + k`: `at` finds what the element function takes from the
/// position (its offset and multi-dimensional index, as a stencil's do).
pub fn fill_slots_at<T, A, G: Fn(usize) -> (usize, A), F: Fn(usize, A) -> T>(
    slots: &mut [MaybeUninit<T>],
    start: usize,
    at: &G,
    f: &F,
) {
    fill(slots, start, &ByOffset(at, f))
}

/// The value of the element at a position, for the fill loop.
trait Element<T> {
    fn at(&self, i: usize) -> T;
}

/// `f(i)`.
struct ByPosition<'a, F>(&'a F);

impl<T, F: Fn(usize) -> T> Element<T> for ByPosition<'_, F> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        (self.0)(i)
    }
}

/// `f(j, a)` with `(j, a) = at(i)`.
struct ByOffset<'a, G, F>(&'a G, &'a F);

impl<T, A, G: Fn(usize) -> (usize, A), F: Fn(usize, A) -> T> Element<T> for ByOffset<'_, G, F> {
    #[inline(always)]
    fn at(&self, i: usize) -> T {
        let (j, a) = (self.0)(i);
        (self.1)(j, a)
    }
}

fn fill<T, E: Element<T>>(slots: &mut [MaybeUninit<T>], start: usize, e: &E) {
    #[cfg(target_arch = "x86_64")]
    if columns::wide_vectors() {
        // SAFETY: the CPU has AVX2.
        return unsafe { fill_avx2(slots, start, e) };
    }
    fill_plain(slots, start, e)
}

#[inline(never)]
fn fill_plain<T, E: Element<T>>(slots: &mut [MaybeUninit<T>], start: usize, e: &E) {
    fill_loop(slots, start, e)
}

/// [`fill_plain`] compiled for AVX2.
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn fill_avx2<T, E: Element<T>>(slots: &mut [MaybeUninit<T>], start: usize, e: &E) {
    fill_loop(slots, start, e)
}

#[inline(always)]
fn fill_loop<T, E: Element<T>>(slots: &mut [MaybeUninit<T>], start: usize, e: &E) {
    for (k, slot) in slots.iter_mut().enumerate() {
        slot.write(e.at(start + k));
    }
}

pub fn empty_reduction(op: &str) -> crate::Error {
    crate::Error::with_kind(
        crate::ErrorKind::EmptyReduction,
        op,
        "reduction of an empty row has no value",
    )
}

/// An array of `n` elements, element `i` being `f(i)`.
pub fn generate<C: Columns>(n: usize, f: impl Fn(usize) -> C::Elem + Sync) -> C {
    generate_in(chunks(n), n, f)
}

/// [`generate`] over `rows` rows of `len` elements, `f(r, j)` giving the
/// element at offset `r * len + j`: a multi-dimensional index space walked
/// row by row, so that the element function finds its index without dividing
/// each offset by the extents. Few rows are split into chunks instead (one
/// division per element), to keep every thread busy.
pub fn generate_rows<C: Columns>(rows: usize, len: usize, f: impl Fn(usize, usize) -> C::Elem + Sync) -> C {
    let n = rows * len;
    if len == 0 || rows < 4 * threads() {
        return generate_in_at(chunks(n), n, |i| (i / len, i % len), f);
    }
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    fold::row_groups(rows, len).for_each(|group| {
        for r in group {
            let base = r * len;
            // Through the fill loop (`fill_slots`), whose slots alias
            // nothing: what `f` loads through its captures stays out of the
            // loop, which then vectorises (writes through `out` inline may
            // change them as far as the compiler knows).
            // SAFETY: `r < rows`, so the row lies below `n` = the capacity;
            // the row groups are disjoint.
            unsafe { C::write_range(out, base..base + len, &|i| f(r, i - base)) }
        }
    });
    // SAFETY: the row groups cover `0..rows`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

/// [`generate_rows`] whose element function takes what is the same along a
/// row, `row(r)`, computed once per row (before its first element): `f(&s,
/// r, j)` with `s = row(r)`.
pub fn generate_rows_with<C: Columns, S>(
    rows: usize,
    len: usize,
    row: impl Fn(usize) -> S + Sync,
    f: impl Fn(&S, usize, usize) -> C::Elem + Sync,
) -> C {
    let n = rows * len;
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    // Writes the elements `lo..hi` (linear offsets), a row's values computed
    // where its first element in the range is.
    let run = |lo: usize, hi: usize| {
        let mut i = lo;
        while i < hi {
            let r = i / len;
            let end = hi.min((r + 1) * len);
            let (s, base) = (row(r), r * len);
            // Through the fill loop, as in `generate_rows`.
            // SAFETY: `i..end` lies below `hi <= n` = the capacity; the
            // ranges given to `run` are disjoint.
            unsafe { C::write_range(out, i..end, &|i| f(&s, r, i - base)) }
            i = end;
        }
    };
    if len > 0 && rows >= 4 * threads() {
        fold::row_groups(rows, len).for_each(|group| run(group.start * len, group.end * len));
    } else {
        chunks(n).for_each(|r| run(r.start, r.end));
    }
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

/// [`generate_rows`] that also folds the elements as it writes them (a
/// fold and a map of different ranks in one pass, seed 004): every element,
/// with its row and its position in the row, goes to `folds.elem`, and the
/// values are combined per row in index order by `folds.combine`. Returns
/// the array and each row's fold.
pub fn generate_folds<C: Columns, A: Copy + Send + Sync>(
    rows: usize,
    len: usize,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    folds: Folds<A, impl Fn(usize, usize, C::Elem) -> A + Sync, impl Fn(A, A) -> A + Sync>,
) -> (C, Vec<A>)
where
    C::Elem: Copy,
{
    let n = rows * len;
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    // Each task writes the elements `lo..hi` (linear offsets) and returns
    // the fold of each row's part of them, in order.
    let run = |lo: usize, hi: usize| {
        let mut parts = Vec::new();
        let mut i = lo;
        while i < hi {
            let (r, j0) = (i / len, i % len);
            let end = hi.min((r + 1) * len);
            // The first element seeds the accumulator, so that it holds
            // every field from the start (the generated folds' `Option`s
            // are then `Some` throughout, and their tests fold away).
            let v = f(r, j0);
            // SAFETY: `i..end` lies below `hi <= n` = the capacity; the
            // ranges given to `run` are disjoint.
            unsafe { C::write(out, i, v) };
            let mut acc = (folds.elem)(r, j0, v);
            // SAFETY: as above.
            unsafe {
                C::write_each(out, i + 1..end, false, &mut |k| {
                    let j = j0 + (k - i);
                    let v = f(r, j);
                    acc = (folds.combine)(acc, (folds.elem)(r, j, v));
                    v
                })
            }
            parts.push((r, acc));
            i = end;
        }
        parts
    };
    let tasks = if len > 0 && rows >= 4 * threads() {
        fold::row_groups(rows, len).map(|g| run(g.start * len, g.end * len))
    } else {
        chunks(n).map(|c| run(c.start, c.end))
    };
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    // The parts come in task order and, within a task, in row order.
    let mut folded = vec![folds.empty; rows];
    for (r, p) in tasks.into_iter().flatten() {
        folded[r] = (folds.combine)(folded[r], p);
    }
    (cols, folded)
}

/// [`generate`] for elements whose cost varies (each runs a loop): split
/// finely, balanced by work stealing.
pub fn generate_uneven<C: Columns>(n: usize, f: impl Fn(usize) -> C::Elem + Sync) -> C {
    generate_in(fine_chunks(n), n, f)
}

/// [`generate`] whose element function also takes a cursor, `f(&mut cur,
/// i)`, that carries state from element to element along a thread's range:
/// `usize::MAX` before the range's first element, then whatever `f` left
/// there. The ranges are in increasing order, so `f` may walk forward from
/// the previous element's answer (an expand's source search, see
/// `accel-kernels/src/cpu/walk.rs`).
pub fn generate_walk<C: Columns>(n: usize, f: impl Fn(&mut usize, usize) -> C::Elem + Sync) -> C {
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    // Small ranges, for balance (the rest of `f` may loop); each costs one
    // first element without the cursor.
    fine_chunks(n).for_each(|r| {
        let mut cur = usize::MAX;
        for i in r {
            // SAFETY: `i < n` = the capacity, and the chunks are disjoint.
            unsafe { C::write(out, i, f(&mut cur, i)) }
        }
    });
    // SAFETY: the chunks cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

/// [`generate_uneven`] computing `L` neighbouring elements at a time with `g`
/// (`g(i)` gives elements `i..i + L`), and the elements left over at the end
/// of a range with `f`. The compiler emits `g` for element functions whose
/// loops then run in lockstep over the `L` elements, in vector registers.
pub fn generate_lanes<C: Columns, const L: usize>(
    n: usize,
    f: impl Fn(usize) -> C::Elem + Sync,
    g: impl Fn(usize) -> [C::Elem; L] + Sync,
) -> C {
    // As `fine_chunks`, but whole groups of `L`.
    let split = Split::new(n, n.div_ceil(threads() * 64).next_multiple_of(L).max(L));
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    split.for_each(|r| {
        let (mut i, end) = (r.start, r.end);
        while i + L <= end {
            for (l, x) in g(i).into_iter().enumerate() {
                // SAFETY: `i + l < end <= n` = the capacity; the ranges are disjoint.
                unsafe { C::write(out, i + l, x) }
            }
            i += L;
        }
        for j in i..end {
            // SAFETY: as above.
            unsafe { C::write(out, j, f(j)) }
        }
    });
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

/// [`generate_uneven`] over rows of `len` elements, computing `L`
/// neighbouring elements of one row at a time with `g` (`g(i)` gives
/// elements `i..i + L`, all in the row of `i`), and the elements left over
/// at the end of a row or of a range with `f`. The compiler emits `g` for
/// element functions whose loops run the same trips along a row, then run
/// once for the `L` elements.
pub fn generate_row_lanes<C: Columns, const L: usize>(
    n: usize,
    len: usize,
    f: impl Fn(usize) -> C::Elem + Sync,
    g: impl Fn(usize) -> [C::Elem; L] + Sync,
) -> C {
    let len = len.max(1);
    let split = Split::new(n, n.div_ceil(threads() * 64).next_multiple_of(L).max(L));
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    split.for_each(|r| {
        let (mut i, end) = (r.start, r.end);
        while i < end {
            // The group, or the elements to the end of the row or range.
            let stop = end.min(i + (len - i % len));
            while i + L <= stop {
                for (l, x) in g(i).into_iter().enumerate() {
                    // SAFETY: `i + l < stop <= end <= n` = the capacity; the ranges are disjoint.
                    unsafe { C::write(out, i + l, x) }
                }
                i += L;
            }
            for j in i..stop {
                // SAFETY: as above.
                unsafe { C::write(out, j, f(j)) }
            }
            i = stop;
        }
    });
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

/// [`generate_in`] writing `f(j, a)` with `(j, a) = at(i)` at each `i`
/// (see [`fill_slots_at`]).
fn generate_in_at<C: Columns, A>(
    ranges: Split,
    n: usize,
    at: impl Fn(usize) -> (usize, A) + Sync,
    f: impl Fn(usize, A) -> C::Elem + Sync,
) -> C {
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    ranges.for_each(|r| {
        // SAFETY: `r` lies below `n` = the capacity, and the chunks are disjoint.
        unsafe { C::write_range_at(out, r, &at, &f) }
    });
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

fn generate_in<C: Columns>(ranges: Split, n: usize, f: impl Fn(usize) -> C::Elem + Sync) -> C {
    let mut cols = C::with_capacity(n);
    let out = cols.out_ptr();
    ranges.for_each(|r| {
        // SAFETY: `r` lies below `n` = the capacity, and the chunks are disjoint.
        unsafe { C::write_range(out, r, &f) }
    });
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

#[cfg(test)]
mod tests {
    /// Both copies of the fill loop (AVX2 where the CPU has it, and plain)
    /// write `f` of every position, from any start, of any length.
    #[test]
    fn fill_loops_write_every_slot() {
        use super::{fill_plain, fill_slots, fill_slots_at, ByOffset, ByPosition};
        use std::mem::MaybeUninit;
        let src: Vec<u32> = (0..1100u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> 20)
            .collect();
        let f = |i: usize| src[i].min(255) as u8;
        let g = |j: usize, (a, b): (usize, usize)| (src[j] as u64) * 7 + (a * 1000 + b) as u64;
        let at = |i: usize| (i, (i / 10, i % 10));
        for (start, len) in [(0, 0), (3, 1), (5, 7), (0, 33), (17, 1000)] {
            let want_f: Vec<u8> = (start..start + len).map(f).collect();
            let want_g: Vec<u64> = (start..start + len)
                .map(|i| {
                    let (j, a) = at(i);
                    g(j, a)
                })
                .collect();
            let read =
                |s: &[MaybeUninit<u8>]| -> Vec<u8> { s.iter().map(|x| unsafe { x.assume_init() }).collect() };
            let read64 = |s: &[MaybeUninit<u64>]| -> Vec<u64> {
                s.iter().map(|x| unsafe { x.assume_init() }).collect()
            };
            let mut a = vec![MaybeUninit::<u8>::uninit(); len];
            fill_slots(&mut a, start, &f);
            assert_eq!(read(&a), want_f, "fill_slots at {start}, {len}");
            let mut b = vec![MaybeUninit::<u8>::uninit(); len];
            fill_plain(&mut b, start, &ByPosition(&f));
            assert_eq!(read(&b), want_f, "fill_plain at {start}, {len}");
            let mut c = vec![MaybeUninit::<u64>::uninit(); len];
            fill_slots_at(&mut c, start, &at, &g);
            assert_eq!(read64(&c), want_g, "fill_slots_at at {start}, {len}");
            let mut d = vec![MaybeUninit::<u64>::uninit(); len];
            fill_plain(&mut d, start, &ByOffset(&at, &g));
            assert_eq!(read64(&d), want_g, "fill_plain by offset at {start}, {len}");
        }
    }

    /// `generate_folds` stores every element and folds each row's in
    /// index order (a non-commutative product shows any other order),
    /// whether the rows go one per task or split between tasks.
    #[test]
    fn generate_folds_fold_each_row_in_order() {
        use super::testing::*;
        use super::{generate_folds, generate_rows, Folds};
        let opt = |a: Option<M>, b: Option<M>| match (a, b) {
            (Some(x), Some(y)) => Some(mul(x, y)),
            (x, None) => x,
            (None, y) => y,
        };
        in_pools(|| {
            for (rows, len) in row_cases() {
                let f = move |r: usize, j: usize| mat(r * len + j);
                let want_elems = generate_rows::<MCols>(rows, len, f).to_elems();
                // Of determinant 1 (products of small matrices otherwise
                // wrap to zero over long rows, and then any order agrees).
                let unit = |j: usize, v: M| {
                    if (j + v.0 as usize) % 2 == 0 {
                        (1, v.1 | 1, 0, 1)
                    } else {
                        (1, 0, v.2 | 1, 1)
                    }
                };
                let want: Vec<Option<M>> = (0..rows)
                    .map(|r| (0..len).fold(None, |a, j| opt(a, Some(unit(j, want_elems[r * len + j])))))
                    .collect();
                let folds = Folds {
                    empty: None,
                    elem: |_r: usize, j: usize, v: M| Some(unit(j, v)),
                    combine: opt,
                };
                let (got, got_folds): (MCols, Vec<Option<M>>) =
                    generate_folds::<MCols, _>(rows, len, f, folds);
                assert!(got.to_elems() == want_elems, "rows {rows} len {len}");
                assert!(got_folds == want, "rows {rows} len {len}");
            }
        });
    }

    #[test]
    fn index_of_is_index_at() {
        for shape in [
            [1usize, 1, 1],
            [3, 5, 7],
            [2, 1, 300],
            [70_000, 3, 2],
            [1, 65_537, 1],
        ] {
            let of = IndexOf::new(&shape);
            let n = crate::shape::size(&shape);
            for l in (0..n).step_by(n / 1000 + 1).chain([n - 1]) {
                assert_eq!(of.at(l), index_at(&shape, l), "{shape:?} at {l}");
            }
        }
        let big = [3usize << 40, 1 << 20];
        let l = (2usize << 40) * (1 << 20) + 12345;
        assert_eq!(IndexOf::new(&big).at(l), index_at(&big, l));
    }

    use super::*;

    #[test]
    fn index_at_is_from_linear_inside_the_shape() {
        let sh = [3, 4, 5];
        for l in 0..60 {
            assert_eq!(index_at(&sh, l), crate::shape::from_linear(&sh, l));
        }
        assert_eq!(index_at(&[7], 6), [6]);
        assert_eq!(index_at(&[7, 0], 0), [0, 0]);
        // Rank 0: the one element, at the empty index.
        assert_eq!(index_at(&[], 0), [0usize; 0]);
    }

    #[test]
    fn generate_lanes_covers_every_index() {
        for n in [0, 1, 3, 4, 5, 7, 8, 9, 1000, 4 * MIN_CHUNK + 13] {
            let v: Vec<usize> =
                generate_lanes::<_, 4>(n, |i| i * 2 + 1, |i| std::array::from_fn(|l| (i + l) * 2));
            assert_eq!(v.len(), n);
            for (i, x) in v.iter().enumerate() {
                // Even: written by a group; odd: by the single-element function.
                assert_eq!(x / 2, i, "n = {n}");
            }
            // Only a range's last `< 4` elements are single.
            assert!(v.iter().filter(|x| *x % 2 == 1).count() <= 3 * threads() * 64 + 3);
        }
    }

    #[test]
    fn generate_covers_every_index() {
        for n in [0, 1, 7, MIN_CHUNK - 1, MIN_CHUNK + 3, 5 * MIN_CHUNK + 11] {
            let v: Vec<usize> = generate(n, |i| i * 2);
            assert_eq!(v, (0..n).map(|i| i * 2).collect::<Vec<_>>());
            let v: Vec<usize> = generate_uneven(n, |i| i * 3);
            assert_eq!(v, (0..n).map(|i| i * 3).collect::<Vec<_>>());
            let (a, b): (Vec<u8>, Vec<f64>) = generate(n, |i| (i as u8, i as f64));
            assert_eq!(a.len(), n);
            assert!(b.iter().enumerate().all(|(i, &x)| x == i as f64));
        }
    }
}
