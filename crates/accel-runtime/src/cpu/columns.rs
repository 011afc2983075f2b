//! Folds along the innermost axis computed a tile of columns at a time (the
//! loops interchanged).
//!
//! A fold of an iteration space `[.., n, len]` to `[.., n]` whose element
//! function reads memory that is contiguous along the second-innermost axis
//! (`b[[k, j]]` in a matrix product folded over `k`) reads a whole row apart
//! at each step when the rows are folded one by one. Here the fold index `k`
//! is the outer loop instead: a task owns a tile of columns `j` and a few
//! outer rows at once, each output has its own accumulator in a small tile on
//! the stack, and the inner loop runs along the columns. The reads become
//! contiguous, one load of `b[[k, j]]` serves every outer row of the tile,
//! and the inner loop vectorises without reassociating anything: every result
//! still combines its elements in index order, so results are the same bit for
//! bit as a row-by-row fold.
//!
//! Two levels of blocking keep the data close: the fold index runs in blocks
//! of `K_BLOCK` steps over all the task's rows (the accumulators wait in a
//! scratch tile between blocks), so the panel of `b` a block reads stays in
//! cache from one group of rows to the next; and within a block, `ROWS` x
//! `MICRO` accumulators stay in registers for the whole block.
//!
//! The block is compiled twice, for the baseline x86-64 and for AVX2 (picked
//! at run time, with `2 * MICRO` columns of a 4-byte type in registers): the
//! same operations in the same order, so the same results.

use super::fold::{fold_rows_seeded, set_outer_axes, split_size, Order};
use super::IndexOf;
use crate::elem::Columns;

/// Columns of a tile (one accumulator each per outer row).
const TILE: usize = 64;
/// Outer rows a tile folds side by side: each read of memory shared by the
/// rows (the `b[[k, j]]` of a matrix product) is loaded once for all of them.
const ROWS: usize = 4;

/// Columns of a tile whose accumulators (for `ROWS` rows) stay in registers.
const MICRO: usize = 8;

/// Steps of the fold index per pass over a group's rows: the tile's columns
/// of memory shared by the rows (a 256 x 64 panel of `b`) then stay in the
/// first levels of cache from one row to the next.
const K_BLOCK: usize = 256;

/// Elements of work below which the fold runs on the calling thread.
const SEQUENTIAL_WORK: usize = 1 << 15;

/// Folds an iteration space of shape `shape` (rank `N >= 2`) along its
/// innermost axis: result `o * cols + c` (for outer row `o` and column `c` of
/// the second-innermost axis) is `post(z ⊕ f(ix(o, c, 0)) ⊕ ... ⊕ f(ix(o, c,
/// len - 1)))`, combined in index order, where `ix(o, c, k)` is the index.
pub fn fold_columns_then<C: Columns, D: Columns, const N: usize>(
    shape: &[usize; N],
    f: impl Fn([usize; N]) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> D {
    fold_columns_seeded::<C, D, N>(shape, 0, &f, &|_| z, &g, &post)
}

/// [`fold_columns_then`] without an initial value: `None` when the rows are
/// empty (the innermost extent is 0 and there is at least one row).
pub fn fold1_columns_then<C: Columns, D: Columns, const N: usize>(
    shape: &[usize; N],
    f: impl Fn([usize; N]) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> Option<D> {
    let (outer, cols, len) = columns_of(shape);
    if outer * cols == 0 {
        return Some(D::with_capacity(0));
    }
    if len == 0 {
        return None;
    }
    // The seed of a row is its first element.
    Some(fold_columns_seeded::<C, D, N>(shape, 1, &f, &f, &g, &post))
}

/// The shared body: elements `skip..len` of each row, after `seed` of the
/// row's index with `k = 0`.
fn fold_columns_seeded<C: Columns, D: Columns, const N: usize>(
    shape: &[usize; N],
    skip: usize,
    f: &(impl Fn([usize; N]) -> C::Elem + Sync),
    seed: &(impl Fn([usize; N]) -> C::Elem + Sync),
    g: &(impl Fn(C::Elem, C::Elem) -> C::Elem + Sync),
    post: &(impl Fn(C::Elem) -> D::Elem + Sync),
) -> D {
    let (outer, cols, len) = columns_of(shape);
    let rows = outer * cols;
    let m = len.saturating_sub(skip);
    if cols == 0 || split_size(rows, m).is_some() {
        // Few long rows (or none): split each row between tasks instead.
        let at = IndexOf::new(shape);
        let fr = |r: usize, k: usize| f(at.row(r, k));
        let sr = |r: usize| seed(at.row(r, 0));
        return fold_rows_seeded::<C, D>(Order::Indexed, rows, len, skip, &|_| true, &fr, &sr, g, post);
    }
    let mut out_cols = D::with_capacity(rows);
    let out = out_cols.out_ptr();
    let tiles = cols.div_ceil(TILE);
    // Tasks: every column tile, times groups of outer rows, enough for a few
    // tasks per thread. A task keeps its tile's columns of memory shared by
    // the outer rows (a panel of `b`) in cache from one row group to the next.
    let threads = super::par::threads();
    let parallel = threads > 1 && rows.saturating_mul(m) >= SEQUENTIAL_WORK;
    let groups = if parallel {
        (4 * threads).div_ceil(tiles).clamp(1, outer.max(1))
    } else {
        1
    };
    // Whole blocks of `ROWS` rows per group where there are enough rows.
    let per = outer.div_ceil(groups).max(1);
    let per = if per >= 2 * ROWS {
        per.next_multiple_of(ROWS)
    } else {
        per
    };
    let groups = outer.div_ceil(per);
    let wide = wide_vectors();
    let task = |t: usize| {
        let (tile, group) = (t / groups, t % groups);
        let c0 = tile * TILE;
        let width = TILE.min(cols - c0);
        let (lo, hi) = (group * per, ((group + 1) * per).min(outer));
        // Columns past the tile's width are seeded from its last column and
        // never written.
        let col = |dc: usize| c0 + dc.min(width - 1);
        // The group's accumulators, kept between blocks of the fold index.
        let mut scratch: Vec<C::Elem> =
            vec![seed(with_last2(&outer_index(shape, lo), c0, 0)); (hi - lo) * TILE];
        for o in lo..hi {
            let ix = outer_index(shape, o);
            for dc in 0..TILE {
                scratch[(o - lo) * TILE + dc] = seed(with_last2(&ix, col(dc), 0));
            }
        }
        let mut k0 = skip;
        while k0 < len {
            // No short last block: it would cost a pass over the
            // accumulators for little work.
            let k1 = if len - k0 > 2 * K_BLOCK { k0 + K_BLOCK } else { len };
            if wide {
                // SAFETY: `wide` holds only where the CPU has AVX2.
                #[cfg(target_arch = "x86_64")]
                unsafe {
                    fold_block_avx2(shape, &mut scratch, lo, hi, c0, width, k0, k1, f, g)
                }
            } else {
                fold_block::<_, N, MICRO>(shape, &mut scratch, lo, hi, c0, width, k0, k1, f, g);
            }
            k0 = k1;
        }
        for o in lo..hi {
            for dc in 0..width {
                // SAFETY: `o < outer` and `c0 + dc < cols`, so the slot is
                // below `rows`, the capacity; tasks own disjoint (rows, tile)
                // pairs, so no other thread writes it.
                unsafe { D::write(out, o * cols + c0 + dc, post(scratch[(o - lo) * TILE + dc])) }
            }
        }
    };
    let count = tiles * groups;
    if parallel {
        super::par::for_each(count, &task);
    } else {
        (0..count).for_each(task);
    }
    // SAFETY: the tasks cover every (outer row, column tile) pair, and each
    // writes every column of its tile for each of its rows.
    unsafe { out_cols.set_len(rows) };
    out_cols
}

/// Whether the CPU runs 256-bit vectors (AVX2): the inner loops then run
/// twice the lanes per instruction. The same operations in the same order
/// either way, so the results are the same bit for bit.
pub(super) fn wide_vectors() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// [`fold_block`] compiled for AVX2 (with the element and combining functions
/// inlined into it).
///
/// # Safety
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn fold_block_avx2<E: Copy, const N: usize>(
    shape: &[usize; N],
    scratch: &mut [E],
    lo: usize,
    hi: usize,
    c0: usize,
    width: usize,
    k0: usize,
    k1: usize,
    f: &impl Fn([usize; N]) -> E,
    g: &impl Fn(E, E) -> E,
) {
    // Twice the columns in registers for a 4-byte type: 8 columns would be
    // one vector per row, too few independent additions to hide their
    // latency.
    if size_of::<E>() <= 4 {
        fold_block::<E, N, { 2 * MICRO }>(shape, scratch, lo, hi, c0, width, k0, k1, f, g)
    } else {
        fold_block::<E, N, MICRO>(shape, scratch, lo, hi, c0, width, k0, k1, f, g)
    }
}

/// Steps `k0..k1` of the fold index for the rows `lo..hi` of one tile (columns
/// `c0..c0 + width`), whose accumulators wait in `scratch` (`TILE` per row):
/// `ROWS` rows at a time, then the rows left over one by one; `M` columns
/// (`MICRO` or a multiple) of accumulators per row stay in registers.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fold_block<E: Copy, const N: usize, const M: usize>(
    shape: &[usize; N],
    scratch: &mut [E],
    lo: usize,
    hi: usize,
    c0: usize,
    width: usize,
    k0: usize,
    k1: usize,
    f: &impl Fn([usize; N]) -> E,
    g: &impl Fn(E, E) -> E,
) {
    let mut o = lo;
    while o + ROWS <= hi {
        fold_rows::<E, ROWS, N, M>(shape, scratch, (o - lo) * TILE, o, c0, width, k0, k1, f, g);
        o += ROWS;
    }
    for o in o..hi {
        fold_rows::<E, 1, N, M>(shape, scratch, (o - lo) * TILE, o, c0, width, k0, k1, f, g);
    }
}

/// Steps `k0..k1` for the `R` rows from `o` of one tile, their accumulators
/// at `scratch[at..at + R * TILE]`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fold_rows<E: Copy, const R: usize, const N: usize, const M: usize>(
    shape: &[usize; N],
    scratch: &mut [E],
    at: usize,
    o: usize,
    c0: usize,
    width: usize,
    k0: usize,
    k1: usize,
    f: &impl Fn([usize; N]) -> E,
    g: &impl Fn(E, E) -> E,
) {
    // The rows' outer axes, found once (the element function gets whole
    // indices, so it need not divide the row number per element).
    let mut ixs = [[0; N]; R];
    for (b, ix) in ixs.iter_mut().enumerate() {
        *ix = outer_index(shape, o + b);
    }
    // Copied into a local array (and back) by value: a reference to it
    // escaping into a call would make every load in the inner loop a
    // possible alias of it.
    let mut acc: [[E; TILE]; R] = [[scratch[at]; TILE]; R];
    for (b, row) in acc.iter_mut().enumerate() {
        for (dc, a) in row.iter_mut().enumerate() {
            *a = scratch[at + b * TILE + dc];
        }
    }
    // Blocks of `M` columns whose accumulators stay in registers for the
    // whole block of the fold index, one of `MICRO` if it fits, then the
    // columns left over.
    let mut d0 = 0;
    while d0 + M <= width {
        micro::<E, R, N, M>(&mut acc, &ixs, d0, c0, k0, k1, f, g);
        d0 += M;
    }
    if M > MICRO && d0 + MICRO <= width {
        micro::<E, R, N, MICRO>(&mut acc, &ixs, d0, c0, k0, k1, f, g);
        d0 += MICRO;
    }
    for k in k0..k1 {
        for dc in d0..width {
            for (b, row) in acc.iter_mut().enumerate() {
                row[dc] = g(row[dc], f(with_last2(&ixs[b], c0 + dc, k)));
            }
        }
    }
    for (b, row) in acc.iter().enumerate() {
        for (dc, &a) in row.iter().enumerate() {
            scratch[at + b * TILE + dc] = a;
        }
    }
}

/// Steps `k0..k1` for the columns `d0..d0 + M` of the tile's rows, their
/// accumulators held in registers meanwhile.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn micro<E: Copy, const R: usize, const N: usize, const M: usize>(
    acc: &mut [[E; TILE]; R],
    ixs: &[[usize; N]; R],
    d0: usize,
    c0: usize,
    k0: usize,
    k1: usize,
    f: &impl Fn([usize; N]) -> E,
    g: &impl Fn(E, E) -> E,
) {
    let mut r: [[E; M]; R] = [[acc[0][d0]; M]; R];
    for (b, rr) in r.iter_mut().enumerate() {
        rr.copy_from_slice(&acc[b][d0..d0 + M]);
    }
    for k in k0..k1 {
        for (b, rr) in r.iter_mut().enumerate() {
            for (d, a) in rr.iter_mut().enumerate() {
                *a = g(*a, f(with_last2(&ixs[b], c0 + d0 + d, k)));
            }
        }
    }
    for (b, rr) in r.iter().enumerate() {
        acc[b][d0..d0 + M].copy_from_slice(rr);
    }
}

/// `(outer, cols, len)` of an iteration space of rank 2 or more: the
/// product of the outer extents, then the last two.
fn columns_of<const N: usize>(shape: &[usize; N]) -> (usize, usize, usize) {
    let (outer, last2) = shape.split_at(N.saturating_sub(2));
    match last2 {
        [cols, len] => (outer.iter().product(), *cols, *len),
        _ => (0, 0, 0),
    }
}

/// The index of outer row `o` with its last two axes 0.
#[inline(always)]
fn outer_index<const N: usize>(shape: &[usize; N], o: usize) -> [usize; N] {
    let mut ix = [0; N];
    set_outer_axes(shape, &mut ix, o, 2);
    ix
}

/// `ix` at column `c`, fold step `k` (its last two axes).
#[inline(always)]
fn with_last2<const N: usize>(ix: &[usize; N], c: usize, k: usize) -> [usize; N] {
    let mut ix = *ix;
    if N >= 2 {
        ix[N - 2] = c;
        ix[N - 1] = k;
    }
    ix
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    /// A row-by-row reference fold.
    fn reference(outer: usize, cols: usize, len: usize, z: Option<M>) -> Option<Vec<M>> {
        let mut v = Vec::new();
        for o in 0..outer {
            for c in 0..cols {
                let mut acc = z;
                for k in 0..len {
                    let x = mat((o * cols + c) * 31 + k);
                    acc = Some(match acc {
                        None => x,
                        Some(a) => mul(a, x),
                    });
                }
                v.push(acc?);
            }
        }
        Some(v)
    }

    fn zipped(c: MCols) -> Vec<M> {
        (0..c.0.len()).map(|i| (c.0[i], c.1[i], c.2[i], c.3[i])).collect()
    }

    /// The row-major number of the row (all axes but the last) of `ix`.
    fn row_of<const N: usize>(shape: &[usize; N], ix: [usize; N]) -> usize {
        (0..N - 1).fold(0, |r, d| r * shape[d] + ix[d])
    }

    /// A matrix depending on the element's row and fold step.
    fn elem<const N: usize>(shape: [usize; N]) -> impl Fn([usize; N]) -> M + Sync {
        move |ix| mat(row_of(&shape, ix) * 31 + ix[N - 1])
    }

    #[test]
    fn every_vector_width_folds_in_index_order() {
        // Both the baseline block and the AVX2 one, on every kind of width:
        // `u32` with an order-sensitive combination, and the matrices; rank 4,
        // so the rows' outer indices are found by division.
        let g = |a: u32, x: u32| a.wrapping_mul(31).wrapping_add(x);
        let (c0, k0, k1) = (3, 2, 41);
        for (rows, width) in [(1, 1), (5, 17), (4, 40), (9, TILE), (3, 2 * MICRO + 1)] {
            let shape = [3, 3, c0 + TILE, k1];
            let fu = |ix: [usize; 4]| h(row_of(&shape, ix) * 31 + ix[3]);
            let fm = elem(shape);
            let want = |seed: u32| {
                let mut v = vec![seed; rows * TILE];
                for o in 0..rows {
                    for dc in 0..width {
                        let f = |k| fu([o / 3, o % 3, c0 + dc, k]);
                        v[o * TILE + dc] = (k0..k1).fold(seed, |a, k| g(a, f(k)));
                    }
                }
                v
            };
            let mut narrow = vec![7; rows * TILE];
            fold_block::<_, 4, MICRO>(&shape, &mut narrow, 0, rows, c0, width, k0, k1, &fu, &g);
            assert_eq!(narrow, want(7), "{rows}x{width}");
            let mut narrow_m = vec![(1, 0, 0, 1); rows * TILE];
            fold_block::<_, 4, MICRO>(&shape, &mut narrow_m, 0, rows, c0, width, k0, k1, &fm, &mul);
            if wide_vectors() {
                let mut wide = vec![7; rows * TILE];
                // SAFETY: the CPU has AVX2.
                unsafe { fold_block_avx2(&shape, &mut wide, 0, rows, c0, width, k0, k1, &fu, &g) };
                assert_eq!(wide, narrow, "avx2 {rows}x{width}");
                let mut wide_m = vec![(1, 0, 0, 1); rows * TILE];
                // SAFETY: as above.
                unsafe { fold_block_avx2(&shape, &mut wide_m, 0, rows, c0, width, k0, k1, &fm, &mul) };
                assert_eq!(wide_m, narrow_m, "avx2 matrices {rows}x{width}");
            } else {
                eprintln!("every_vector_width_folds_in_index_order: no AVX2 here, the AVX2 block is not run");
            }
        }
    }

    #[test]
    fn indices_count_in_row_major_order() {
        let shape = [2, 3, 4, 5];
        let (outer, cols, len) = columns_of(&shape);
        assert_eq!((outer, cols, len), (6, 4, 5));
        let mut linear = 0;
        for o in 0..outer {
            for c in 0..cols {
                for k in 0..len {
                    assert_eq!(
                        with_last2(&outer_index(&shape, o), c, k),
                        crate::cpu::index_at(&shape, linear)
                    );
                    linear += 1;
                }
            }
        }
        assert_eq!(with_last2(&outer_index(&[3, 4], 0), 2, 1), [2, 1]);
    }

    #[test]
    fn columns_fold_in_index_order_for_every_shape() {
        // A non-commutative operator: any element combined out of order shows.
        in_pools(|| {
            for outer in [0, 1, 3, 4, 5, 9] {
                for cols in [0, 1, 7, TILE - 1, TILE, TILE + 3, 3 * TILE + 5] {
                    for len in [0, 1, 2, 17, 300] {
                        let z = (1, 0, 0, 1);
                        let shape = [outer, cols, len];
                        let got = fold_columns_then::<MCols, MCols, 3>(&shape, elem(shape), z, mul, |x| x);
                        assert_eq!(
                            Some(zipped(got)),
                            reference(outer, cols, len, Some(z)),
                            "{outer}x{cols}x{len}"
                        );
                        let got = fold1_columns_then::<MCols, MCols, 3>(&shape, elem(shape), mul, |x| x);
                        let want = if outer * cols == 0 {
                            Some(Vec::new())
                        } else {
                            reference(outer, cols, len, None)
                        };
                        assert_eq!(got.map(zipped), want, "fold1 {outer}x{cols}x{len}");
                    }
                }
            }
            // Folds long enough to run in blocks of the fold index (the last
            // block longer than the others).
            for (outer, cols, len) in [(5, 70, 2 * K_BLOCK + 1), (9, 3, 3 * K_BLOCK + 100)] {
                let shape = [outer, cols, len];
                let got = fold_columns_then::<MCols, MCols, 3>(&shape, elem(shape), (1, 0, 0, 1), mul, |x| x);
                assert_eq!(
                    Some(zipped(got)),
                    reference(outer, cols, len, Some((1, 0, 0, 1))),
                    "{outer}x{cols}x{len}"
                );
                let got = fold1_columns_then::<MCols, MCols, 3>(&shape, elem(shape), mul, |x| x);
                assert_eq!(
                    got.map(zipped),
                    reference(outer, cols, len, None),
                    "fold1 {outer}x{cols}x{len}"
                );
            }
            // Rank 4: the outer rows' indices found by division.
            let shape = [2, 3, 70, 300];
            let got = fold_columns_then::<MCols, MCols, 4>(&shape, elem(shape), (1, 0, 0, 1), mul, |x| x);
            assert_eq!(Some(zipped(got)), reference(6, 70, 300, Some((1, 0, 0, 1))));
            // Few long rows take the split-row path.
            let (outer, cols, len) = (1, 2, 4 * crate::cpu::MIN_CHUNK + 3);
            let shape = [cols, len];
            let got = fold_columns_then::<MCols, MCols, 2>(&shape, elem(shape), (1, 0, 0, 1), mul, |x| x);
            assert_eq!(Some(zipped(got)), reference(outer, cols, len, Some((1, 0, 0, 1))));
        });
    }
}
