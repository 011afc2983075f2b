//! Reductions: to a scalar, and along the innermost dimension.
//!
//! The combination function is associative but not necessarily commutative, so
//! partial results are always combined in index order (left operand = lower
//! indices), and the initial value `z` is used exactly once per result (it need
//! not be a neutral element).
//!
//! Rows are reduced either one row per task (many rows, or short rows) or, when
//! there are few long rows, each row is split into contiguous chunks reduced in
//! parallel whose partial results are then combined in order. The row planning
//! helpers here are shared with the scans.

use super::par::{self, threads, Split};
use super::{chunks, MIN_CHUNK};
use crate::elem::{Columns, Elem};

/// Splits rows `0..rows` of `m` elements each into contiguous groups for
/// parallel work, one row sequential within a task: a few groups per thread, each
/// (except the last) with at least `MIN_CHUNK` elements in all.
pub(super) fn row_groups(rows: usize, m: usize) -> Split {
    Split::new(
        rows,
        rows.div_ceil(threads() * 4).max(MIN_CHUNK.div_ceil(m.max(1))),
    )
}

/// The chunk size for splitting each of `rows` rows of `m` elements between
/// tasks, or `None` when the rows should rather be processed one per task (many
/// rows, short rows, or a single thread).
pub(super) fn split_size(rows: usize, m: usize) -> Option<usize> {
    let t = threads();
    if t == 1 || rows == 0 || rows >= 4 * t || m < 2 * MIN_CHUNK {
        return None;
    }
    let target = (4 * t).div_ceil(rows);
    let size = m.div_ceil(target).max(MIN_CHUNK);
    (m.div_ceil(size) >= 2).then_some(size)
}

/// Whether a reduction may combine its elements out of index order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Partial results are combined in index order (the operator need only be
    /// associative).
    Indexed,
    /// The operator is also commutative: each task keeps several interleaved
    /// accumulators, which breaks the dependency chain of one accumulator and
    /// lets the compiler vectorise the loop.
    Commutative,
}

/// Interleaved accumulators of a commutative reduction (as many as an
/// `Elem::Lanes` holds).
use crate::elem::LANES;

/// `acc ⊕ f(lo) ⊕ ... ⊕ f(hi - 1)`, left to right (`acc` when the range is empty).
#[inline(always)]
pub(super) fn fold_from<T>(
    mut acc: T,
    lo: usize,
    hi: usize,
    f: &impl Fn(usize) -> T,
    g: &impl Fn(T, T) -> T,
) -> T {
    for i in lo..hi {
        acc = g(acc, f(i));
    }
    acc
}

/// `f(lo) ⊕ ... ⊕ f(hi - 1)`; the caller guarantees `lo < hi`.
#[inline(always)]
pub(super) fn fold_nonempty<T>(lo: usize, hi: usize, f: &impl Fn(usize) -> T, g: &impl Fn(T, T) -> T) -> T {
    fold_from(f(lo), lo + 1, hi, f, g)
}

/// `acc ⊕ f(lo) ⊕ ... ⊕ f(hi - 1)` in some order: for a commutative `g`, the
/// elements go to `LANES` interleaved accumulators (lane `k` takes `lo + k`,
/// `lo + k + LANES`, ...), combined at the end.
#[inline(always)]
fn fold_from_ordered<T: Copy>(
    order: Order,
    acc: T,
    lo: usize,
    hi: usize,
    f: &impl Fn(usize) -> T,
    g: &impl Fn(T, T) -> T,
) -> T {
    if order != Order::Commutative || hi - lo < 2 * LANES {
        return fold_from(acc, lo, hi, f, g);
    }
    let mut lanes: [T; LANES] = std::array::from_fn(|k| f(lo + k));
    let mut i = lo + LANES;
    while i + LANES <= hi {
        for (k, a) in lanes.iter_mut().enumerate() {
            *a = g(*a, f(i + k));
        }
        i += LANES;
    }
    // A tree keeps the final combination short.
    let mut w = LANES;
    while w > 1 {
        w /= 2;
        for k in 0..w {
            lanes[k] = g(lanes[k], lanes[k + w]);
        }
    }
    fold_from(g(acc, lanes[0]), i, hi, f, g)
}

/// `f(lo) ⊕ ... ⊕ f(hi - 1)` in `order`; the caller guarantees `lo < hi`.
#[inline(always)]
fn fold_nonempty_ordered<T: Copy>(
    order: Order,
    lo: usize,
    hi: usize,
    f: &impl Fn(usize) -> T,
    g: &impl Fn(T, T) -> T,
) -> T {
    fold_from_ordered(order, f(lo), lo + 1, hi, f, g)
}

/// `z ⊕ f(start) ⊕ ... ⊕ f(start + n - 1)`, in parallel over chunks.
fn fold_seeded<T: Copy + Send + Sync>(
    order: Order,
    start: usize,
    n: usize,
    f: &(impl Fn(usize) -> T + Sync),
    z: T,
    g: &(impl Fn(T, T) -> T + Sync),
) -> T {
    if n <= MIN_CHUNK {
        return fold_from_ordered(order, z, start, start + n, f, g);
    }
    // Each chunk is non-empty; the partials come back in chunk order.
    let parts = chunks(n).map(|r| fold_nonempty_ordered(order, start + r.start, start + r.end, f, g));
    parts.into_iter().fold(z, g)
}

/// `z ⊕ f(0) ⊕ ... ⊕ f(n - 1)`; `z` when `n == 0`.
pub fn fold_all<T: Copy + Send + Sync>(
    order: Order,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
    z: T,
    g: impl Fn(T, T) -> T + Sync,
) -> T {
    fold_seeded(order, 0, n, &f, z, &g)
}

/// `f(0) ⊕ ... ⊕ f(n - 1)`; `None` when `n == 0`.
pub fn fold1_all<T: Copy + Send + Sync>(
    order: Order,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
    g: impl Fn(T, T) -> T + Sync,
) -> Option<T> {
    if n == 0 {
        return None;
    }
    Some(fold_seeded(order, 1, n - 1, &f, f(0), &g))
}

/// [`fold_all`], for a commutative `g` with its interleaved accumulators
/// kept field by field ([`Elem::Lanes`]): a tuple's fields then combine in
/// vector registers (`(xs.sum(), xs.maximum())` merged into one kernel), as
/// a single primitive's do in [`fold_all`]. Other orders go to [`fold_all`].
pub fn fold_all_fields<T: Elem>(
    order: Order,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
    z: T,
    g: impl Fn(T, T) -> T + Sync,
) -> T {
    if order != Order::Commutative {
        return fold_all(order, n, f, z, g);
    }
    seeded_fields(0, n, &f, z, &g)
}

/// [`fold1_all`] as [`fold_all_fields`] is [`fold_all`].
pub fn fold1_all_fields<T: Elem>(
    order: Order,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
    g: impl Fn(T, T) -> T + Sync,
) -> Option<T> {
    if order != Order::Commutative {
        return fold1_all(order, n, f, g);
    }
    if n == 0 {
        return None;
    }
    Some(seeded_fields(1, n - 1, &f, f(0), &g))
}

/// `z ⊕ f(start) ⊕ ... ⊕ f(start + n - 1)`, chunks in parallel.
fn seeded_fields<T: Elem>(
    start: usize,
    n: usize,
    f: &(impl Fn(usize) -> T + Sync),
    z: T,
    g: &(impl Fn(T, T) -> T + Sync),
) -> T {
    if n <= MIN_CHUNK {
        return fold_fields(z, start, start + n, f, g);
    }
    let parts = chunks(n).map(|r| fold_fields(f(start + r.start), start + r.start + 1, start + r.end, f, g));
    parts.into_iter().fold(z, g)
}

/// `acc ⊕ f(lo) ⊕ ... ⊕ f(hi - 1)` for a commutative `g`: as
/// [`fold_from_ordered`] with [`LANES`] accumulators, field by field.
fn fold_fields<T: Elem>(acc: T, lo: usize, hi: usize, f: &impl Fn(usize) -> T, g: &impl Fn(T, T) -> T) -> T {
    if hi - lo < 2 * LANES {
        return fold_from(acc, lo, hi, f, g);
    }
    let mut lanes = T::splat(f(lo));
    for k in 1..LANES {
        T::set_lane(&mut lanes, k, f(lo + k));
    }
    let mut i = lo + LANES;
    while i + LANES <= hi {
        for k in 0..LANES {
            let a = T::lane(&lanes, k);
            T::set_lane(&mut lanes, k, g(a, f(i + k)));
        }
        i += LANES;
    }
    let mut w = LANES;
    while w > 1 {
        w /= 2;
        for k in 0..w {
            let c = g(T::lane(&lanes, k), T::lane(&lanes, k + w));
            T::set_lane(&mut lanes, k, c);
        }
    }
    fold_from(g(acc, T::lane(&lanes, 0)), i, hi, f, g)
}

/// Elements computed before they are combined, by [`fold_all_lanes`].
const BLOCK: usize = 64;

/// `acc ⊕ e(lo) ⊕ ... ⊕ e(hi - 1)` in `order`, the elements computed by
/// blocks: `L` at a time by `lanes` (`lanes(i)` gives elements `i..i + L`),
/// the rest one at a time by `f`.
fn fold_blocks<T: Copy, const L: usize>(
    order: Order,
    mut acc: T,
    lo: usize,
    hi: usize,
    f: &impl Fn(usize) -> T,
    lanes: &impl Fn(usize) -> [T; L],
    g: &impl Fn(T, T) -> T,
) -> T {
    let mut buf: Vec<T> = Vec::with_capacity(BLOCK + L);
    let mut i = lo;
    while i < hi {
        let end = (i + BLOCK).min(hi);
        buf.clear();
        while i + L <= end {
            buf.extend_from_slice(&lanes(i));
            i += L;
        }
        while i < end {
            buf.push(f(i));
            i += 1;
        }
        acc = fold_from_ordered(order, acc, 0, buf.len(), &|k| buf[k], g);
    }
    acc
}

/// [`fold_seeded`] for elements computed by blocks ([`fold_blocks`]).
#[allow(clippy::too_many_arguments)]
fn fold_seeded_lanes<T: Copy + Send + Sync, const L: usize>(
    order: Order,
    start: usize,
    n: usize,
    f: &(impl Fn(usize) -> T + Sync),
    lanes: &(impl Fn(usize) -> [T; L] + Sync),
    z: T,
    g: &(impl Fn(T, T) -> T + Sync),
) -> T {
    if n <= MIN_CHUNK {
        return fold_blocks(order, z, start, start + n, f, lanes, g);
    }
    let parts = chunks(n).map(|r| {
        let (lo, hi) = (start + r.start, start + r.end);
        fold_blocks(order, f(lo), lo + 1, hi, f, lanes, g)
    });
    parts.into_iter().fold(z, g)
}

/// [`fold_all`] computing `L` neighbouring elements at a time with `lanes`
/// (see `generate_lanes`); the same combinations in the same order.
pub fn fold_all_lanes<T: Copy + Send + Sync, const L: usize>(
    order: Order,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
    lanes: impl Fn(usize) -> [T; L] + Sync,
    z: T,
    g: impl Fn(T, T) -> T + Sync,
) -> T {
    fold_seeded_lanes(order, 0, n, &f, &lanes, z, &g)
}

/// [`fold1_all`] computing `L` neighbouring elements at a time with `lanes`.
pub fn fold1_all_lanes<T: Copy + Send + Sync, const L: usize>(
    order: Order,
    n: usize,
    f: impl Fn(usize) -> T + Sync,
    lanes: impl Fn(usize) -> [T; L] + Sync,
    g: impl Fn(T, T) -> T + Sync,
) -> Option<T> {
    if n == 0 {
        return None;
    }
    Some(fold_seeded_lanes(order, 1, n - 1, &f, &lanes, f(0), &g))
}

/// Neighbouring rows an ordered fold of rows reduces side by side.
const ROWS_AT_ONCE: usize = 8;

/// Rows `r..r + ROWS_AT_ONCE` reduced side by side: element `j` of each
/// before element `j + 1` of any. Each row is still combined in index order,
/// so every result is the same bit for bit; but the rows' chains of
/// combinations overlap (one float add's latency no longer bounds the loop),
/// and where neighbouring rows read neighbouring addresses (a matrix
/// product's `b[[k, j]]` with rows indexed by `j`) the reads become
/// contiguous instead of a stride of a whole row apart.
#[inline(always)]
fn fold_rows_together<T: Copy>(
    r: usize,
    skip: usize,
    len: usize,
    f: &impl Fn(usize, usize) -> T,
    seed: &impl Fn(usize) -> T,
    g: &impl Fn(T, T) -> T,
) -> [T; ROWS_AT_ONCE] {
    let mut acc: [T; ROWS_AT_ONCE] = std::array::from_fn(|b| seed(r + b));
    for j in skip..len {
        for (b, a) in acc.iter_mut().enumerate() {
            *a = g(*a, f(r + b, j));
        }
    }
    acc
}

/// Reduces each of `rows` rows of `len` elements: result `r` is
/// `post(seed(r) ⊕ f(r, skip) ⊕ ... ⊕ f(r, len - 1))`, where `f(r, j)` is
/// element `j` of row `r` (so that generated code need not divide a linear
/// offset to find the row). The caller guarantees `skip <= len`. Rows
/// for which `want(r)` does not hold are not reduced: their slots hold the
/// default element.
#[allow(clippy::too_many_arguments)]
pub(super) fn fold_rows_seeded<C: Columns, D: Columns>(
    order: Order,
    rows: usize,
    len: usize,
    skip: usize,
    want: &(impl Fn(usize) -> bool + Sync),
    f: &(impl Fn(usize, usize) -> C::Elem + Sync),
    seed: &(impl Fn(usize) -> C::Elem + Sync),
    g: &(impl Fn(C::Elem, C::Elem) -> C::Elem + Sync),
    post: &(impl Fn(C::Elem) -> D::Elem + Sync),
) -> D {
    // `post` is called as `(*post)(..)`, not through `&F`'s `Fn` shim (see
    // `scan::Outputs`).
    let m = len.saturating_sub(skip);
    let mut cols = D::with_capacity(rows);
    match split_size(rows, m) {
        None => {
            let out = cols.out_ptr();
            row_groups(rows, m).for_each(|group| {
                let mut r = group.start;
                // Short rows (which `fold_from_ordered` would combine one
                // element at a time anyway, in any order) and ordered rows
                // side by side: each row one chain, the chains overlapping.
                if order != Order::Commutative || m < 2 * LANES {
                    while r + ROWS_AT_ONCE <= group.end && (r..r + ROWS_AT_ONCE).all(want) {
                        let vs = fold_rows_together(r, skip, len, f, seed, g);
                        for (b, v) in vs.into_iter().enumerate() {
                            // SAFETY: as below, for rows `r..r + ROWS_AT_ONCE`
                            // of this thread's group.
                            unsafe { D::write(out, r + b, (*post)(v)) }
                        }
                        r += ROWS_AT_ONCE;
                    }
                }
                for r in r..group.end {
                    let fr = |j: usize| f(r, j);
                    let v = if want(r) {
                        (*post)(fold_from_ordered(order, seed(r), skip, len, &fr, g))
                    } else {
                        D::Elem::default()
                    };
                    // SAFETY: `r < rows` = the capacity, and the row groups are
                    // disjoint, so slot `r` is written once, by this thread only.
                    unsafe { D::write(out, r, v) }
                }
            });
            // SAFETY: the row groups cover `0..rows`, so every slot was written.
            unsafe { cols.set_len(rows) };
        }
        Some(size) => {
            // Few long rows: reduce every (row, chunk) pair in parallel, then
            // combine each row's partials in order after its seed.
            let per_row = m.div_ceil(size).max(1);
            let parts = par::map(rows * per_row, |t| {
                let (r, k) = (t / per_row, t % per_row);
                let lo = skip + k * size;
                let hi = skip + ((k + 1) * size).min(m);
                let fr = |j: usize| f(r, j);
                // `k < per_row = ceil(m / size)`, so `lo < hi`.
                want(r).then(|| fold_nonempty_ordered(order, lo, hi, &fr, g))
            });
            for (r, ps) in parts.chunks(per_row).enumerate() {
                cols.push(match want(r) {
                    true => (*post)(ps.iter().flatten().fold(seed(r), |a, &p| g(a, p))),
                    false => D::Elem::default(),
                });
            }
        }
    }
    cols
}

/// Reduces each of `rows` rows of `len` elements, element `j` of row `r` being
/// `f(r * len + j)`: result `r` is `z ⊕ f(r * len) ⊕ ... ⊕ f(r * len + len - 1)`
/// (`z` when `len == 0`), combined in index order.
pub fn fold_rows<C: Columns>(
    rows: usize,
    len: usize,
    f: impl Fn(usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) -> C {
    fold_rows_then::<C, C>(Order::Indexed, rows, len, |r, j| f(r * len + j), z, g, |x| x)
}

/// Reduces each of `rows` rows of `len` elements, element `j` of row `r`
/// being `f(r, j)`, and applies `post` to each result before it is stored (a
/// map after the fold, fused into it).
pub fn fold_rows_then<C: Columns, D: Columns>(
    order: Order,
    rows: usize,
    len: usize,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> D {
    fold_rows_seeded::<C, D>(order, rows, len, 0, &|_| true, &f, &|_| z, &g, &post)
}

/// [`fold_rows_then`] of the rows `r` for which `want(r)` holds; the others
/// are left at the element type's default, untouched by `f`, `g` and `post`
/// (rows that the program never reads: a triangle's, `if j <= i { .. s[[i,
/// j]] .. }`).
#[allow(clippy::too_many_arguments)]
pub fn fold_rows_wanted_then<C: Columns, D: Columns>(
    order: Order,
    rows: usize,
    len: usize,
    want: impl Fn(usize) -> bool + Sync,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> D {
    fold_rows_seeded::<C, D>(order, rows, len, 0, &want, &f, &|_| z, &g, &post)
}

/// Reduces each of `rows` rows of `len` elements (`f(r * len + j)`) without
/// an initial value, in index order: `None` when the rows are empty
/// (`len == 0` and `rows > 0`).
pub fn fold1_rows<C: Columns>(
    rows: usize,
    len: usize,
    f: impl Fn(usize) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) -> Option<C> {
    fold1_rows_then::<C, C>(Order::Indexed, rows, len, |r, j| f(r * len + j), g, |x| x)
}

/// [`fold1_rows`] with the element function `f(r, j)` and `post` applied to
/// each result before it is stored.
pub fn fold1_rows_then<C: Columns, D: Columns>(
    order: Order,
    rows: usize,
    len: usize,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> Option<D> {
    if rows == 0 {
        return Some(D::with_capacity(0));
    }
    if len == 0 {
        return None;
    }
    Some(fold_rows_seeded::<C, D>(
        order,
        rows,
        len,
        1,
        &|_| true,
        &f,
        &|r| f(r, 0),
        &g,
        &post,
    ))
}

/// Sets the axes of `ix` before its `inner` last ones to the index of outer
/// row `r` (row-major over those axes of `shape`): the first axis takes what
/// is left, so it needs no division.
#[inline(always)]
pub(super) fn set_outer_axes<const R: usize>(
    shape: &[usize; R],
    ix: &mut [usize; R],
    r: usize,
    inner: usize,
) {
    if R <= inner {
        return;
    }
    let mut l = r;
    for d in (1..R - inner).rev() {
        let n = shape[d];
        if n != 0 {
            ix[d] = l % n;
            l /= n;
        }
    }
    ix[0] = l;
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::IndexOf;
    use super::*;

    const Z: M = (1, 2, 3, 5);

    fn ref_fold<T: Copy>(
        lo: usize,
        hi: usize,
        f: impl Fn(usize) -> T,
        z: Option<T>,
        g: impl Fn(T, T) -> T,
    ) -> Option<T> {
        let mut acc = z;
        for i in lo..hi {
            acc = Some(match acc {
                None => f(i),
                Some(a) => g(a, f(i)),
            });
        }
        acc
    }

    #[test]
    fn fold_all_matches_reference() {
        in_pools(|| {
            for n in sizes() {
                assert_eq!(
                    fold_all(Order::Indexed, n, mat, Z, mul),
                    ref_fold(0, n, mat, Some(Z), mul).unwrap()
                );
                assert_eq!(
                    fold1_all(Order::Indexed, n, mat, mul),
                    ref_fold(0, n, mat, None, mul)
                );
                let fx = |i: usize| h(i) as i64 - 77;
                assert_eq!(
                    fold_all(Order::Indexed, n, fx, 1000, i64::wrapping_add),
                    1000 + (0..n).map(fx).sum::<i64>()
                );
                let fl = |i: usize| (i as i32, (i % 251) as u8);
                let fl_g = |a: (i32, u8), b: (i32, u8)| (a.0, b.1);
                assert_eq!(
                    fold1_all(Order::Indexed, n, fl, fl_g),
                    n.checked_sub(1).map(|l| (0, (l % 251) as u8))
                );
            }
        });
    }

    #[test]
    fn fold_all_lanes_matches_reference() {
        // Matrix products do not commute: the lanes must keep the index order.
        let lanes = |i: usize| -> [M; 4] { std::array::from_fn(|l| mat(i + l)) };
        in_pools(|| {
            for n in sizes().into_iter().chain([3, 4, 5, 63, 64, 65, 130]) {
                assert_eq!(
                    fold_all_lanes(Order::Indexed, n, mat, lanes, Z, mul),
                    ref_fold(0, n, mat, Some(Z), mul).unwrap(),
                    "n = {n}"
                );
                assert_eq!(
                    fold1_all_lanes(Order::Indexed, n, mat, lanes, mul),
                    ref_fold(0, n, mat, None, mul),
                    "n = {n}"
                );
                let fx = |i: usize| h(i) as i64 - 77;
                let fx4 = |i: usize| -> [i64; 4] { std::array::from_fn(|l| fx(i + l)) };
                assert_eq!(
                    fold_all_lanes(Order::Commutative, n, fx, fx4, 1000, i64::wrapping_add),
                    1000 + (0..n).map(fx).sum::<i64>()
                );
            }
        });
    }

    #[test]
    fn fold_rows_matches_reference() {
        in_pools(|| {
            for (rows, len) in row_cases() {
                let got: MCols = fold_rows(rows, len, mat, Z, mul);
                let want: Vec<M> = (0..rows)
                    .map(|r| ref_fold(r * len, r * len + len, mat, Some(Z), mul).unwrap())
                    .collect();
                assert_eq!(got.to_elems(), want, "rows {rows} len {len}");

                let got: Option<MCols> = fold1_rows(rows, len, mat, mul);
                let want: Option<Vec<M>> = (0..rows)
                    .map(|r| ref_fold(r * len, r * len + len, mat, None, mul))
                    .collect();
                assert_eq!(got.map(|c| c.to_elems()), want, "rows {rows} len {len}");

                let fx = |i: usize| h(i) as i64;
                let got: Vec<i64> = fold_rows(rows, len, fx, -5, i64::wrapping_add);
                let want: Vec<i64> = (0..rows)
                    .map(|r| -5 + (r * len..r * len + len).map(fx).sum::<i64>())
                    .collect();
                assert_eq!(got, want);

                let ft = |i: usize| (h(i) as i32, (i % 256) as u8);
                let gt = |a: (i32, u8), b: (i32, u8)| (a.0, b.1);
                let got: (Vec<i32>, Vec<u8>) = fold_rows(rows, len, ft, (-1, 9), gt);
                let want: Vec<(i32, u8)> = (0..rows)
                    .map(|r| ref_fold(r * len, r * len + len, ft, Some((-1, 9)), gt).unwrap())
                    .collect();
                assert_eq!(got.to_elems(), want);
                let got: Option<(Vec<i32>, Vec<u8>)> = fold1_rows(rows, len, ft, gt);
                let want: Option<Vec<(i32, u8)>> = (0..rows)
                    .map(|r| ref_fold(r * len, r * len + len, ft, None, gt))
                    .collect();
                assert_eq!(got.map(|c| c.to_elems()), want);
            }
        });
    }

    #[test]
    fn commutative_folds_match_reference() {
        // Wrapping integer sums and minima: exact in any order.
        in_pools(|| {
            for n in sizes() {
                let fx = |i: usize| h(i) as i64 - 77;
                let want = 1000 + (0..n).map(fx).sum::<i64>();
                assert_eq!(fold_all(Order::Commutative, n, fx, 1000, i64::wrapping_add), want);
                let want1 = (0..n).map(fx).min();
                assert_eq!(fold1_all(Order::Commutative, n, fx, i64::min), want1);
            }
            for (rows, len) in row_cases() {
                let fx = |r: usize, j: usize| h(r * len + j) as u64;
                let got: Vec<u64> = fold_rows_then::<Vec<u64>, Vec<u64>>(
                    Order::Commutative,
                    rows,
                    len,
                    fx,
                    3,
                    u64::wrapping_add,
                    |x| x,
                );
                let want: Vec<u64> = (0..rows)
                    .map(|r| (0..len).fold(3u64, |a, j| a.wrapping_add(fx(r, j))))
                    .collect();
                assert_eq!(got, want, "rows {rows} len {len}");
                let got: Option<Vec<u64>> =
                    fold1_rows_then::<Vec<u64>, Vec<u64>>(Order::Commutative, rows, len, fx, u64::max, |x| x);
                let want: Option<Vec<u64>> = (0..rows).map(|r| (0..len).map(|j| fx(r, j)).max()).collect();
                assert_eq!(got, want, "rows {rows} len {len}");
            }
        });
    }

    #[test]
    fn row_index_splits_rows() {
        assert_eq!(IndexOf::new(&[5]).row(0, 3), [3]);
        assert_eq!(IndexOf::new(&[4, 6]).row(3, 5), [3, 5]);
        let sh = [2, 3, 4, 5];
        let ix = IndexOf::new(&sh);
        for l in 0..120 {
            assert_eq!(ix.row(l / 5, l % 5), crate::shape::from_linear(&sh, l));
            assert_eq!(ix.at(l), crate::shape::from_linear(&sh, l));
        }
    }

    #[test]
    fn fold1_rows_edge_cases() {
        let none: Option<Vec<i32>> = fold1_rows(3, 0, |_| 0, |a, b| a + b);
        assert!(none.is_none());
        let empty: Option<Vec<i32>> = fold1_rows(0, 0, |_| 0, |a, b| a + b);
        assert_eq!(empty, Some(vec![]));
        let zs: Vec<i32> = fold_rows(4, 0, |_| 1, 7, |a, b| a + b);
        assert_eq!(zs, vec![7; 4]);
        let e: Vec<i32> = fold_rows(0, 5, |_| 1, 7, |a, b| a + b);
        assert!(e.is_empty());
    }
}
