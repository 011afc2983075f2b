//! Stencils: the boundary rule for neighbours outside an array, and the
//! generate skeleton with an interior/border split.
//!
//! A kernel that computes a stencil gets two element functions: a fast one that
//! reads every neighbour without checks, valid on the *interior* (the box of
//! indices whose neighbours all lie inside their arrays), and one that applies
//! the boundary rule to each neighbour, used on the border. Consumers that fuse
//! a stencil (fold, scan) use the boundary version everywhere.

use super::par::threads;
use super::{chunks, chunks_of};
use crate::elem::Columns;
use std::ops::Range;

/// What a neighbour outside the array reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The nearest element inside.
    Clamp,
    /// Reflected at the edge, the edge itself not repeated (`-1` reads `1`).
    Mirror,
    /// Periodic: `-1` reads `n - 1`.
    Wrap,
    /// A constant: the caller supplies it when [`resolve`] returns `None`.
    Constant,
}

/// Coordinate `i` brought inside `0..n` by the boundary rule, or `None` for a
/// constant boundary when `i` is outside (or when `n == 0`).
///
/// This is Accelerate's rule applied until the coordinate lies inside: mirror
/// is reflection with period `2n - 2` (every coordinate of an extent of 1 reads
/// 0), wrap is `i` modulo `n`.
#[inline(always)]
pub fn coord(i: isize, n: usize, b: Bound) -> Option<usize> {
    let n = n as isize;
    if 0 <= i && i < n {
        return Some(i as usize);
    }
    if n <= 0 {
        return None;
    }
    let r = match b {
        Bound::Constant => return None,
        Bound::Clamp => i.clamp(0, n - 1),
        Bound::Wrap => i.rem_euclid(n),
        Bound::Mirror if n == 1 => 0,
        Bound::Mirror => {
            let p = 2 * n - 2;
            let m = i.rem_euclid(p);
            if m >= n {
                p - m
            } else {
                m
            }
        }
    };
    Some(r as usize)
}

/// Row-major offset in an array of shape `shape` of the neighbour at
/// `center + off`, by the boundary rule; `None` when a constant boundary applies.
#[inline(always)]
pub fn resolve<const R: usize>(
    shape: &[usize; R],
    center: &[usize; R],
    off: [isize; R],
    b: Bound,
) -> Option<usize> {
    let mut l = 0usize;
    for d in 0..R {
        let i = coord(center[d] as isize + off[d], shape[d], b)?;
        l = l * shape[d] + i;
    }
    Some(l)
}

/// Row-major offset of `center + off`, which the caller knows to be inside
/// `shape` (the interior of a stencil).
#[inline(always)]
pub fn offset_in<const R: usize>(shape: &[usize; R], center: &[usize; R], off: [isize; R]) -> usize {
    let mut l = 0usize;
    for d in 0..R {
        l = l
            .wrapping_mul(shape[d])
            .wrapping_add(center[d].wrapping_add_signed(off[d]));
    }
    l
}

/// An array of shape `shape` whose element at index `ix` (row-major offset `i`)
/// is `fast(i, ix)` when `lo[d] <= ix[d] < hi[d]` in every dimension, and
/// `border(i, ix)` elsewhere. `fast` may assume it is called on that box only.
/// Both are `Copy` (closures that capture slices, shapes and scalars by value).
///
/// The compiler calls it for stencils (the box where every neighbour is
/// inside) and for element functions `if c { t } else { e }` whose condition
/// bounds the index (the box where `c` holds: `fast` is `t` alone).
pub fn stencil_generate<C: Columns, const R: usize>(
    shape: &[usize; R],
    lo: [usize; R],
    hi: [usize; R],
    fast: impl Fn(usize, [usize; R]) -> C::Elem + Sync + Copy,
    border: impl Fn(usize, [usize; R]) -> C::Elem + Sync + Copy,
) -> C {
    let n = crate::shape::size(shape);
    let mut cols = C::with_capacity(n);
    if n == 0 {
        return cols;
    }
    let out = cols.out_ptr();
    let len = if R == 0 { 1 } else { shape[R - 1] };
    let rows = n / len;
    // The interior of the innermost dimension, empty when the box is.
    let (jlo, jhi) = if R == 0 {
        (0, 0)
    } else {
        let (a, b) = (lo[R - 1].min(len), hi[R - 1].min(len));
        (a, b.max(a))
    };
    // Writes offsets `range`, which lie in one row: the part inside the box
    // with `fast`, the rest with `border`.
    let segment = move |range: Range<usize>| {
        let start = range.start - range.start % len;
        let base: [usize; R] = crate::shape::from_linear(shape, start);
        let inside = (0..R.saturating_sub(1)).all(|d| lo[d] <= base[d] && base[d] < hi[d]);
        let (a, b) = if inside { (jlo, jhi) } else { (0, 0) };
        let clip = |j: usize| (start + j).clamp(range.start, range.end);
        let (a, b) = (clip(a), clip(b));
        // The element's offset and index, for `fast` and `border`.
        let at = move |i: usize| {
            let mut ix = base;
            if R > 0 {
                ix[R - 1] = i - start;
            }
            (i, ix)
        };
        // SAFETY: the three ranges lie in `range`, below `n` = the
        // capacity, and each offset is written by one task.
        unsafe {
            C::write_range_at(out, range.start..a, &at, &border);
            C::write_range_at(out, a..b, &at, &fast);
            C::write_range_at(out, b..range.end, &at, &border);
        }
    };
    if rows >= 4 * threads() {
        chunks_of(rows, len).for_each(|rs| rs.for_each(|row| segment(row * len..(row + 1) * len)));
    } else {
        // Few long rows: split the rows themselves, so every thread works.
        chunks(n).for_each(|r| {
            let mut s = r.start;
            while s < r.end {
                let e = (s - s % len + len).min(r.end);
                segment(s..e);
                s = e;
            }
        });
    }
    // SAFETY: the ranges cover `0..n`, so every slot was written.
    unsafe { cols.set_len(n) };
    cols
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inside the shape, `offset_in` is the row-major offset of `center + off`.
    #[test]
    fn offset_in_is_the_row_major_offset() {
        let shape = [3, 4, 5];
        for l in 0..60 {
            let c = crate::shape::from_linear(&shape, l);
            for off in [[0, 0, 0], [1, -1, 2], [-1, 1, -2], [2, 3, 4], [-2, -3, -4]] {
                let p: Vec<isize> = (0..3).map(|d| c[d] as isize + off[d]).collect();
                if (0..3).any(|d| p[d] < 0 || p[d] >= shape[d] as isize) {
                    continue;
                }
                let want = crate::shape::to_linear(&shape, &[p[0] as usize, p[1] as usize, p[2] as usize]);
                assert_eq!(offset_in(&shape, &c, off), want, "{c:?} + {off:?}");
            }
        }
    }

    fn by_rule(mut i: isize, n: isize, b: Bound) -> Option<usize> {
        while i < 0 || i >= n {
            i = match b {
                Bound::Constant => return None,
                Bound::Clamp => i.clamp(0, n - 1),
                Bound::Mirror if n == 1 => 0,
                Bound::Mirror if i < 0 => -i,
                Bound::Mirror => n - (i - n + 2),
                Bound::Wrap if i < 0 => n + i,
                Bound::Wrap => i - n,
            };
        }
        Some(i as usize)
    }

    #[test]
    fn coord_is_the_rule_applied_until_inside() {
        for n in 1..12isize {
            for i in -30..30 {
                for b in [Bound::Clamp, Bound::Mirror, Bound::Wrap, Bound::Constant] {
                    assert_eq!(coord(i, n as usize, b), by_rule(i, n, b), "i={i} n={n} {b:?}");
                }
            }
        }
    }

    #[test]
    fn split_covers_every_element() {
        // Few long rows too: those are split inside rows.
        for shape in [
            [0usize, 5],
            [1, 1],
            [3, 7],
            [40, 1000],
            [7, 3],
            [2, 100_003],
            [3, 40_001],
        ] {
            for (lo, hi) in [
                ([1, 1], [2, 6]),
                ([0, 17], [2, 99_990]),
                ([0, 0], [0, 0]),
                ([2, 3], [1, 1]),
                ([1, 2], [39, 998]),
            ] {
                let v: Vec<(usize, bool)> = stencil_generate::<(Vec<usize>, Vec<bool>), 2>(
                    &shape,
                    lo,
                    hi,
                    |i, ix| {
                        assert!(lo[0] <= ix[0] && ix[0] < hi[0] && lo[1] <= ix[1] && ix[1] < hi[1]);
                        (i * 10 + crate::shape::to_linear(&shape, &ix), true)
                    },
                    |i, ix| (i * 10 + crate::shape::to_linear(&shape, &ix), false),
                )
                .to_elems();
                assert_eq!(v.len(), shape[0] * shape[1]);
                for (i, (x, fast)) in v.into_iter().enumerate() {
                    assert_eq!(x, i * 11);
                    let ix = crate::shape::from_linear(&shape, i);
                    let inside = (0..2).all(|d| lo[d] <= ix[d] && ix[d] < hi[d]);
                    assert_eq!(fast, inside);
                }
            }
        }
        // Rank 1: one row, split between the threads.
        for n in [0usize, 1, 5, 70_001] {
            let v: Vec<bool> =
                stencil_generate::<Vec<bool>, 1>(&[n], [1], [n.saturating_sub(1)], |_, _| true, |_, _| false);
            assert_eq!(v, (0..n).map(|i| i >= 1 && i + 1 < n).collect::<Vec<_>>());
        }
    }
}
