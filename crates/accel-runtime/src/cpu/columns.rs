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

use super::fold::{fold_rows_seeded, split_size, Order};
use crate::elem::Columns;
use rayon::prelude::*;

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

/// Folds each of the `outer × cols` rows of an iteration space whose last two
/// axes are `cols` and `len`: result `o * cols + c` is
/// `post(z ⊕ f(o, c, 0) ⊕ ... ⊕ f(o, c, len - 1))`, combined in index order.
#[allow(clippy::too_many_arguments)]
pub fn fold_columns_then<C: Columns, D: Columns>(
    outer: usize,
    cols: usize,
    len: usize,
    f: impl Fn(usize, usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> D {
    fold_columns_seeded::<C, D>(outer, cols, len, 0, &f, &|_, _| z, &g, &post)
}

/// [`fold_columns_then`] without an initial value: `None` when the rows are
/// empty (`len == 0` and there is at least one row).
pub fn fold1_columns_then<C: Columns, D: Columns>(
    outer: usize,
    cols: usize,
    len: usize,
    f: impl Fn(usize, usize, usize) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(C::Elem) -> D::Elem + Sync,
) -> Option<D> {
    if outer * cols == 0 {
        return Some(D::with_capacity(0));
    }
    if len == 0 {
        return None;
    }
    Some(fold_columns_seeded::<C, D>(
        outer,
        cols,
        len,
        1,
        &f,
        &|o, c| f(o, c, 0),
        &g,
        &post,
    ))
}

/// The shared body: elements `skip..len` of each row, after `seed(o, c)`.
#[allow(clippy::too_many_arguments)]
fn fold_columns_seeded<C: Columns, D: Columns>(
    outer: usize,
    cols: usize,
    len: usize,
    skip: usize,
    f: &(impl Fn(usize, usize, usize) -> C::Elem + Sync),
    seed: &(impl Fn(usize, usize) -> C::Elem + Sync),
    g: &(impl Fn(C::Elem, C::Elem) -> C::Elem + Sync),
    post: &(impl Fn(C::Elem) -> D::Elem + Sync),
) -> D {
    let rows = outer * cols;
    let m = len.saturating_sub(skip);
    if cols == 0 || split_size(rows, m).is_some() {
        // Few long rows (or none): split each row between tasks instead.
        let cols = cols.max(1);
        let fr = |r: usize, k: usize| f(r / cols, r % cols, k);
        let sr = |r: usize| seed(r / cols, r % cols);
        return fold_rows_seeded::<C, D>(Order::Indexed, rows, len, skip, &fr, &sr, g, post);
    }
    let mut out_cols = D::with_capacity(rows);
    let out = out_cols.out_ptr();
    let tiles = cols.div_ceil(TILE);
    // Tasks: every column tile, times groups of outer rows, enough for a few
    // tasks per thread. A task keeps its tile's columns of memory shared by
    // the outer rows (a panel of `b`) in cache from one row group to the next.
    let threads = rayon::current_num_threads().max(1);
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
    let task = |t: usize| {
        let (tile, group) = (t / groups, t % groups);
        let c0 = tile * TILE;
        let width = TILE.min(cols - c0);
        let (lo, hi) = (group * per, ((group + 1) * per).min(outer));
        // Columns past the tile's width are seeded from its last column and
        // never written.
        let col = |dc: usize| c0 + dc.min(width - 1);
        // The group's accumulators, kept between blocks of the fold index.
        let mut scratch: Vec<C::Elem> = vec![seed(lo, c0); (hi - lo) * TILE];
        for o in lo..hi {
            for dc in 0..TILE {
                scratch[(o - lo) * TILE + dc] = seed(o, col(dc));
            }
        }
        let mut k0 = skip;
        while k0 < len {
            // No short last block: it would cost a pass over the
            // accumulators for little work.
            let k1 = if len - k0 > 2 * K_BLOCK { k0 + K_BLOCK } else { len };
            let mut o = lo;
            while o + ROWS <= hi {
                let at = (o - lo) * TILE;
                // Copied into a local array (and back) by value: a reference to
                // it escaping into a call would make every load in the inner
                // loop a possible alias of it.
                let mut acc: [[C::Elem; TILE]; ROWS] = [[scratch[at]; TILE]; ROWS];
                for (b, row) in acc.iter_mut().enumerate() {
                    for (dc, a) in row.iter_mut().enumerate() {
                        *a = scratch[at + b * TILE + dc];
                    }
                }
                // Blocks of `MICRO` columns whose accumulators stay in
                // registers for the whole block of the fold index, then the
                // columns left over.
                let mut d0 = 0;
                while d0 + MICRO <= width {
                    let mut r: [[C::Elem; MICRO]; ROWS] = [[acc[0][d0]; MICRO]; ROWS];
                    for (b, rr) in r.iter_mut().enumerate() {
                        rr.copy_from_slice(&acc[b][d0..d0 + MICRO]);
                    }
                    for k in k0..k1 {
                        for (b, rr) in r.iter_mut().enumerate() {
                            for (d, a) in rr.iter_mut().enumerate() {
                                *a = g(*a, f(o + b, c0 + d0 + d, k));
                            }
                        }
                    }
                    for (b, rr) in r.iter().enumerate() {
                        acc[b][d0..d0 + MICRO].copy_from_slice(rr);
                    }
                    d0 += MICRO;
                }
                for k in k0..k1 {
                    for dc in d0..width {
                        for (b, row) in acc.iter_mut().enumerate() {
                            row[dc] = g(row[dc], f(o + b, c0 + dc, k));
                        }
                    }
                }
                for (b, row) in acc.iter().enumerate() {
                    for (dc, &a) in row.iter().enumerate() {
                        scratch[at + b * TILE + dc] = a;
                    }
                }
                o += ROWS;
            }
            for o in o..hi {
                let at = (o - lo) * TILE;
                let mut acc: [C::Elem; TILE] = [scratch[at]; TILE];
                for (dc, a) in acc.iter_mut().enumerate() {
                    *a = scratch[at + dc];
                }
                for k in k0..k1 {
                    for (dc, a) in acc[..width].iter_mut().enumerate() {
                        *a = g(*a, f(o, c0 + dc, k));
                    }
                }
                scratch[at..at + TILE].copy_from_slice(&acc);
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
        (0..count).into_par_iter().for_each(task);
    } else {
        (0..count).for_each(task);
    }
    // SAFETY: the tasks cover every (outer row, column tile) pair, and each
    // writes every column of its tile for each of its rows.
    unsafe { out_cols.set_len(rows) };
    out_cols
}

/// `(outer, cols, len)` of an iteration space of rank 2 or more: the
/// product of the outer extents, then the last two.
#[doc(hidden)]
pub fn columns_of<const R: usize>(shape: &[usize; R]) -> (usize, usize, usize) {
    let (outer, last2) = shape.split_at(R.saturating_sub(2));
    match last2 {
        [cols, len] => (outer.iter().product(), *cols, *len),
        _ => (0, 0, 0),
    }
}

/// The index of element `k` of column `c` of outer row `o` in an iteration
/// space of shape `shape` (`R >= 2`): only the outer axes but the first need
/// a division, none for a rank-3 space.
#[doc(hidden)]
#[inline(always)]
pub fn column_index<const R: usize>(shape: &[usize; R], o: usize, c: usize, k: usize) -> [usize; R] {
    let mut ix = [0; R];
    if R < 2 {
        return ix;
    }
    ix[R - 1] = k;
    ix[R - 2] = c;
    if R > 2 {
        let mut l = o;
        for d in (1..R - 2).rev() {
            let n = shape[d];
            if n != 0 {
                ix[d] = l % n;
                l /= n;
            }
        }
        ix[0] = l;
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

    #[test]
    fn column_indices_count_in_row_major_order() {
        let shape = [2, 3, 4, 5];
        let (outer, cols, len) = columns_of(&shape);
        assert_eq!((outer, cols, len), (6, 4, 5));
        let mut linear = 0;
        for o in 0..outer {
            for c in 0..cols {
                for k in 0..len {
                    assert_eq!(
                        column_index(&shape, o, c, k),
                        crate::cpu::index_at(&shape, linear)
                    );
                    linear += 1;
                }
            }
        }
        assert_eq!(column_index(&[3, 4], 0, 2, 1), [2, 1]);
    }

    #[test]
    fn columns_fold_in_index_order_for_every_shape() {
        // A non-commutative operator: any element combined out of order shows.
        let f = |cols: usize| move |o: usize, c: usize, k: usize| mat((o * cols + c) * 31 + k);
        in_pools(|| {
            for outer in [0, 1, 3, 4, 5, 9] {
                for cols in [0, 1, 7, TILE - 1, TILE, TILE + 3, 3 * TILE + 5] {
                    for len in [0, 1, 2, 17, 300] {
                        let z = (1, 0, 0, 1);
                        let got = fold_columns_then::<MCols, MCols>(outer, cols, len, f(cols), z, mul, |x| x);
                        assert_eq!(
                            Some(zipped(got)),
                            reference(outer, cols, len, Some(z)),
                            "{outer}x{cols}x{len}"
                        );
                        let got = fold1_columns_then::<MCols, MCols>(outer, cols, len, f(cols), mul, |x| x);
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
                let got =
                    fold_columns_then::<MCols, MCols>(outer, cols, len, f(cols), (1, 0, 0, 1), mul, |x| x);
                assert_eq!(
                    Some(zipped(got)),
                    reference(outer, cols, len, Some((1, 0, 0, 1))),
                    "{outer}x{cols}x{len}"
                );
                let got = fold1_columns_then::<MCols, MCols>(outer, cols, len, f(cols), mul, |x| x);
                assert_eq!(
                    got.map(zipped),
                    reference(outer, cols, len, None),
                    "fold1 {outer}x{cols}x{len}"
                );
            }
            // Few long rows take the split-row path.
            let (outer, cols, len) = (1, 2, 4 * crate::cpu::MIN_CHUNK + 3);
            let got = fold_columns_then::<MCols, MCols>(outer, cols, len, f(cols), (1, 0, 0, 1), mul, |x| x);
            assert_eq!(Some(zipped(got)), reference(outer, cols, len, Some((1, 0, 0, 1))));
        });
    }
}
