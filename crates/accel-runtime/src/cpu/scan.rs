//! Scans along the innermost dimension.
//!
//! Every scan runs per row of `len` elements; element `j` of row `r` is
//! `f(r, j)` (no division to find the row). The combination function is
//! associative but not necessarily commutative: a left scan computes
//! `g(acc, x_j)`, a right scan `g(x_j, acc)`, so the left operand always holds the
//! lower indices. The initial value `z` is used exactly once per row.
//!
//! Many (or short) rows are scanned by tasks of consecutive rows, sequentially
//! within a row, a few rows in lockstep (`scan_lockstep`).
//! Few long rows are scanned in three phases: (1) every chunk of a row is reduced
//! in parallel, (2) the chunk totals are scanned sequentially, seeded with the
//! row's initial value, giving each chunk its carry-in, and (3) every chunk is
//! scanned again in parallel from its carry-in, writing the outputs.

use super::fold::{fold_nonempty, row_groups, split_size};
use super::par;
use crate::elem::Columns;
use std::ops::Range;

pub use accel_types::ScanDir;

/// Whether an output includes the element at its own position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// Output `j` is the running value after combining element `j`.
    Incl,
    /// Output `j` is the running value before combining element `j`.
    Excl,
}

/// Where a scan's outputs go, each by its row `r` and its linear input
/// index `i`. Every index is stored exactly once, by one thread.
trait Sink<T>: Sync {
    /// Stores the output at index `i` of row `r`.
    ///
    /// # Safety
    /// `i` is an element of row `r`, stored by no other call.
    unsafe fn put(&self, r: usize, i: usize, v: T);
    /// Stores `next(i)` at every index `i` of `range` (in row `r`), calling
    /// `next` in ascending order of `i`, or descending when `rev`.
    ///
    /// # Safety
    /// As [`Sink::put`], for every index of `range`.
    unsafe fn put_each(&self, r: usize, range: Range<usize>, rev: bool, next: &mut impl FnMut(usize) -> T);
}

/// The usual sink: output `i` of row `r`, passed through `post(r, j, v)`
/// (`j` its position in the row), goes to slot `i`, or `i + r` when each row
/// has one slot more (`scanl` and `scanr` end each row with a last value).
struct Outputs<'p, D: Columns, P> {
    out: D::Out,
    len: usize,
    one_more_per_row: bool,
    /// Called as `(*self.post)(..)`: through `&P`'s `Fn` impl, the call is
    /// a shim that the optimiser may keep out of line once a large post (a
    /// fused generate) is inlined into it, a call per element.
    post: &'p P,
}

impl<T, D: Columns, P: Fn(usize, usize, T) -> D::Elem + Sync> Sink<T> for Outputs<'_, D, P> {
    #[inline(always)]
    unsafe fn put(&self, r: usize, i: usize, v: T) {
        let shift = if self.one_more_per_row { r } else { 0 };
        // SAFETY: forwarded contract; the slot is within the capacity the
        // caller allocated for the shape.
        unsafe { D::write(self.out, i + shift, (*self.post)(r, i - r * self.len, v)) }
    }
    #[inline(always)]
    unsafe fn put_each(&self, r: usize, range: Range<usize>, rev: bool, next: &mut impl FnMut(usize) -> T) {
        let (shift, base) = (if self.one_more_per_row { r } else { 0 }, r * self.len);
        let slots = range.start + shift..range.end + shift;
        // SAFETY: as in `put`, for every slot of the range.
        unsafe {
            D::write_each(self.out, slots, rev, &mut |slot| {
                let i = slot - shift;
                (*self.post)(r, i - base, next(i))
            })
        }
    }
}

/// Scans elements `lo..hi` (linear indices) of row `r` from running value
/// `acc`, storing each output in `sink`; returns the running value after
/// the range.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn scan_range<T: Copy>(
    dir: ScanDir,
    kind: Kind,
    r: usize,
    lo: usize,
    hi: usize,
    mut acc: T,
    x: &impl Fn(usize) -> T,
    g: &impl Fn(T, T) -> T,
    sink: &impl Sink<T>,
) -> T {
    let rev = dir == ScanDir::Right;
    // SAFETY: `scan_rows` gives each element of a row to one call, once.
    unsafe {
        match (dir, kind) {
            (ScanDir::Left, Kind::Incl) => sink.put_each(r, lo..hi, rev, &mut |i| {
                acc = g(acc, x(i));
                acc
            }),
            (ScanDir::Left, Kind::Excl) => sink.put_each(r, lo..hi, rev, &mut |i| {
                let v = acc;
                acc = g(acc, x(i));
                v
            }),
            (ScanDir::Right, Kind::Incl) => sink.put_each(r, lo..hi, rev, &mut |i| {
                acc = g(x(i), acc);
                acc
            }),
            (ScanDir::Right, Kind::Excl) => sink.put_each(r, lo..hi, rev, &mut |i| {
                let v = acc;
                acc = g(x(i), acc);
                v
            }),
        }
    }
    acc
}

/// [`scan_range`] over `L` rows at once, in lockstep: lane `k` starts
/// from `acc[k]`, its element `j` (`0..m`, in the row's order) is `x(k, j)`
/// and its output there goes to `emit(k, j, v)`. Returns each lane's running
/// value after its row. Each lane combines exactly as [`scan_range`] does.
#[inline(always)]
fn scan_lanes<T: Copy, const L: usize>(
    dir: ScanDir,
    kind: Kind,
    m: usize,
    mut acc: [T; L],
    x: &impl Fn(usize, usize) -> T,
    g: &impl Fn(T, T) -> T,
    emit: &impl Fn(usize, usize, T),
) -> [T; L] {
    match (dir, kind) {
        (ScanDir::Left, Kind::Incl) => {
            for j in 0..m {
                for k in 0..L {
                    acc[k] = g(acc[k], x(k, j));
                    emit(k, j, acc[k]);
                }
            }
        }
        (ScanDir::Left, Kind::Excl) => {
            for j in 0..m {
                for k in 0..L {
                    emit(k, j, acc[k]);
                    acc[k] = g(acc[k], x(k, j));
                }
            }
        }
        (ScanDir::Right, Kind::Incl) => {
            for j in (0..m).rev() {
                for k in 0..L {
                    acc[k] = g(x(k, j), acc[k]);
                    emit(k, j, acc[k]);
                }
            }
        }
        (ScanDir::Right, Kind::Excl) => {
            for j in (0..m).rev() {
                for k in 0..L {
                    emit(k, j, acc[k]);
                    acc[k] = g(x(k, j), acc[k]);
                }
            }
        }
    }
    acc
}

/// Scans the rows of `rows` `L` at a time with [`scan_lanes`], as
/// [`scan_rows`] does one at a time: their running values form independent
/// dependency chains, which the core overlaps (a combination with a
/// division, as a recurrence solved by a scan has, is otherwise bound by its
/// latency). Returns the first row left over (fewer than `L`).
#[allow(clippy::too_many_arguments)]
fn scan_lockstep<T: Copy, const L: usize>(
    rows: Range<usize>,
    lay: Layout,
    dir: ScanDir,
    kind: Kind,
    x: &impl Fn(usize, usize) -> T,
    g: &impl Fn(T, T) -> T,
    seed: &impl Fn(usize) -> T,
    sink: &impl Sink<T>,
    fin: &impl Fn(usize, T, T),
) -> usize {
    let mut r0 = rows.start;
    while r0 + L <= rows.end {
        let rs: [usize; L] = std::array::from_fn(|k| r0 + k);
        let seeds = rs.map(seed);
        let first = |k: usize| rs[k] * lay.len + lay.skip_front;
        let xr = |k: usize, j: usize| x(rs[k], lay.skip_front + j);
        // SAFETY: element `j` of lane `k` is stored once, at its own index.
        let totals = scan_lanes(dir, kind, lay.m, seeds, &xr, g, &|k, j, v| unsafe {
            sink.put(rs[k], first(k) + j, v)
        });
        for k in 0..L {
            fin(rs[k], seeds[k], totals[k]);
        }
        r0 += L;
    }
    r0
}

/// How the rows are laid out for a scan.
#[derive(Clone, Copy)]
struct Layout {
    rows: usize,
    /// Elements per input row.
    len: usize,
    /// Elements at the start of each row left out of the scan.
    skip_front: usize,
    /// Elements scanned per row (`len - skip_front - skip_back`).
    m: usize,
}

/// Scans the `m` elements of every row starting at `r * len + skip_front`, from
/// running value `seed(r)`; element `j` of row `r` is `x(r, j)`. `sink`
/// receives every output (by its linear input index) exactly once;
/// `fin(r, seed, total)` is called once per row with the row's seed and its
/// running value after the whole row.
#[allow(clippy::too_many_arguments)]
fn scan_rows<T: Copy + Send + Sync>(
    lay: Layout,
    dir: ScanDir,
    kind: Kind,
    x: &(impl Fn(usize, usize) -> T + Sync),
    g: &(impl Fn(T, T) -> T + Sync),
    seed: &(impl Fn(usize) -> T + Sync),
    sink: &impl Sink<T>,
    fin: &(impl Fn(usize, T, T) + Sync),
) {
    let Layout {
        rows,
        len,
        skip_front,
        m,
    } = lay;
    let Some(size) = split_size(rows, m) else {
        row_groups(rows, m).for_each(|group| {
            // Rows in lockstep: four when their running values are small,
            // else two (four tuples of four floats spill out of registers
            // and were slower than one row at a time).
            let r0 = if size_of::<T>() <= 8 {
                scan_lockstep::<T, 4>(group.clone(), lay, dir, kind, x, g, seed, sink, fin)
            } else {
                scan_lockstep::<T, 2>(group.clone(), lay, dir, kind, x, g, seed, sink, fin)
            };
            for r in r0..group.end {
                let s = seed(r);
                let (base, lo) = (r * len, r * len + skip_front);
                let xr = |i: usize| x(r, i - base);
                let total = scan_range(dir, kind, r, lo, lo + m, s, &xr, g, sink);
                fin(r, s, total);
            }
        });
        return;
    };

    // Few long rows: (row, chunk) tasks, chunk `k` of row `r` covering
    // `k * size..min((k + 1) * size, m)` of the scanned elements (never empty).
    let per_row = m.div_ceil(size).max(1);
    let tasks = rows * per_row;
    let range = |t: usize| {
        let (r, k) = (t / per_row, t % per_row);
        let base = r * len + skip_front;
        (r, base + k * size, base + ((k + 1) * size).min(m))
    };

    // Phase 1: chunk totals.
    let totals: Vec<T> = par::map(tasks, |t| {
        let (r, lo, hi) = range(t);
        let base = r * len;
        fold_nonempty(lo, hi, &|i| x(r, i - base), g)
    });

    // Phase 2: carry-in of every chunk, an exclusive scan of the totals seeded
    // with the row's seed, in the scan's direction.
    let mut carries: Vec<T> = Vec::with_capacity(tasks);
    for (r, ts) in totals.chunks(per_row).enumerate() {
        let s = seed(r);
        let mut c = s;
        match dir {
            ScanDir::Left => {
                for &t in ts {
                    carries.push(c);
                    c = g(c, t);
                }
            }
            ScanDir::Right => {
                let start = carries.len();
                for &t in ts.iter().rev() {
                    carries.push(c);
                    c = g(t, c);
                }
                carries[start..].reverse();
            }
        }
        fin(r, s, c);
    }

    // Phase 3: scan every chunk from its carry-in.
    par::for_each(carries.len(), &|t| {
        let (c, (r, lo, hi)) = (carries[t], range(t));
        let base = r * len;
        scan_range(dir, kind, r, lo, hi, c, &|i| x(r, i - base), g, sink);
    });
}

/// Accelerate's `scanl1` / `scanr1` on each of `rows` rows of `len` elements;
/// `rows * len` outputs.
///
/// Left: `out[0] = x_0`, `out[j] = g(out[j - 1], x_j)`.
/// Right: `out[len - 1] = x_{len - 1}`, `out[j] = g(x_j, out[j + 1])`.
pub fn scan_inclusive<C: Columns>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) -> C {
    scan_inclusive_then::<C, C>(rows, len, dir, f, g, |_, _, x| x)
}

/// [`scan_inclusive`] with `post(r, j, v)` applied to each output `v`, at
/// position `j` of row `r`, before it is stored: the maps after the scan, or
/// a generate reading the scan at its own element, fused into it.
pub fn scan_inclusive_then<C: Columns, D: Columns>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(usize, usize, C::Elem) -> D::Elem + Sync,
) -> D {
    let n = rows * len;
    let mut cols = D::with_capacity(n);
    if n == 0 {
        return cols;
    }
    let out = cols.out_ptr();
    // The row's first (Left) or last (Right) element seeds the scan of the rest.
    let (skip_front, seed_pos) = match dir {
        ScanDir::Left => (1, 0),
        ScanDir::Right => (0, len - 1),
    };
    let lay = Layout {
        rows,
        len,
        skip_front,
        m: len - 1,
    };
    scan_rows(
        lay,
        dir,
        Kind::Incl,
        &f,
        &g,
        &|r| f(r, seed_pos),
        // Element `i` goes to slot `i < rows * len`, the capacity.
        &Outputs::<D, _> {
            out,
            len,
            one_more_per_row: false,
            post: &post,
        },
        // SAFETY: the seed's slot is in row `r` (below the capacity) and is not
        // among the scanned elements, and `fin` runs once per row.
        &|r, s, _| unsafe { D::write(out, r * len + seed_pos, post(r, seed_pos, s)) },
    );
    // SAFETY: the scanned elements and the seeds cover every slot below `n`.
    unsafe { cols.set_len(n) };
    cols
}

/// Accelerate's `scanl` / `scanr` on each of `rows` rows of `len` elements;
/// `rows * (len + 1)` outputs, row `r` at `r * (len + 1)..(r + 1) * (len + 1)`.
///
/// Left: `out[0] = z`, `out[j + 1] = g(out[j], x_j)`.
/// Right: `out[len] = z`, `out[j] = g(x_j, out[j + 1])`.
pub fn scan_with_init<C: Columns>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) -> C {
    scan_with_init_then::<C, C>(rows, len, dir, f, z, g, |_, _, x| x)
}

/// [`scan_with_init`] with `post(r, j, v)` applied to each output `v`, at
/// position `j` of row `r`, before it is stored.
pub fn scan_with_init_then<C: Columns, D: Columns>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(usize, usize, C::Elem) -> D::Elem + Sync,
) -> D {
    let w = len + 1;
    let n = rows * w;
    let mut cols = D::with_capacity(n);
    if n == 0 {
        return cols;
    }
    let out = cols.out_ptr();
    // Left: output j is the value before x_j, the total goes last.
    // Right: output j is the value after x_j, z goes last.
    let kind = match dir {
        ScanDir::Left => Kind::Excl,
        ScanDir::Right => Kind::Incl,
    };
    let lay = Layout {
        rows,
        len,
        skip_front: 0,
        m: len,
    };
    scan_rows(
        lay,
        dir,
        kind,
        &f,
        &g,
        &|_| z,
        // Element `i = r * len + j` (j < len) goes to slot
        // `r * (len + 1) + j = i + r < n`.
        &Outputs::<D, _> {
            out,
            len,
            one_more_per_row: true,
            post: &post,
        },
        &|r, s, total| {
            let v = if dir == ScanDir::Left { total } else { s };
            // SAFETY: slot `r * (len + 1) + len < n` is the row's last, which no
            // element is emitted to, and `fin` runs once per row.
            unsafe { D::write(out, r * w + len, post(r, len, v)) }
        },
    );
    // SAFETY: the emitted elements and the last slot of each row cover `0..n`.
    unsafe { cols.set_len(n) };
    cols
}

/// Accelerate's `scanl'` / `scanr'` on each of `rows` rows of `len` elements:
/// `rows * len` outputs and `rows` totals.
///
/// Left: `out[0] = z`, `out[j] = g(out[j - 1], x_{j - 1})`,
/// total `= g(out[len - 1], x_{len - 1})`.
/// Right: `out[len - 1] = z`, `out[j] = g(x_{j + 1}, out[j + 1])`,
/// total `= g(x_0, out[0])`. The total is `z` when `len == 0`.
pub fn scan_exclusive<C: Columns>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) -> (C, C) {
    let n = rows * len;
    let mut cols = C::with_capacity(n);
    let mut sums = C::with_capacity(rows);
    if rows == 0 {
        return (cols, sums);
    }
    let out = cols.out_ptr();
    let sums_out = sums.out_ptr();
    let lay = Layout {
        rows,
        len,
        skip_front: 0,
        m: len,
    };
    scan_rows(
        lay,
        dir,
        Kind::Excl,
        &f,
        &g,
        &|_| z,
        // Element `i` goes to slot `i < rows * len`, the capacity.
        &Outputs::<C, _> {
            out,
            len,
            one_more_per_row: false,
            post: &|_, _, v| v,
        },
        // SAFETY: `r < rows` = the capacity of the totals, and `fin` runs once
        // per row.
        &|r, _, total| unsafe { C::write(sums_out, r, total) },
    );
    // SAFETY: every element was emitted and every row finished, so every slot
    // below `n` and below `rows` was written.
    unsafe {
        cols.set_len(n);
        sums.set_len(rows);
    }
    (cols, sums)
}

/// Folds computed in another kernel's pass (seed 004's cluster
/// `{sum1, scan, sum2}`; a generate and folds of its array): every element
/// the kernel stores (a scan's output after `post`) goes with its row and
/// its position in the row to `elem`, and the values are combined per row in
/// index order by `combine`, an associative function with identity `empty`. (The generated code keeps one field per fold, an
/// `Option` that is `None` where a fold skips an output, such as a fold of
/// the scan's input at the last output of a `scanl`.)
pub struct Folds<A, E, G> {
    pub empty: A,
    pub elem: E,
    pub combine: G,
}

/// `a ⊕ b` where both are there, else the one that is: the combination of
/// one field of [`Folds`]' accumulator.
#[inline(always)]
pub fn combine_some<A>(a: Option<A>, b: Option<A>, g: impl Fn(A, A) -> A) -> Option<A> {
    match (a, b) {
        (Some(x), Some(y)) => Some(g(x, y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Accumulators written by one thread each: a row's, or a (row, chunk)
/// task's.
struct Parts<A>(*mut A);

// SAFETY: each slot is written by one task only (see `FoldingOutputs`), and
// read after every task has joined.
unsafe impl<A: Send> Sync for Parts<A> {}

impl<A: Copy> Parts<A> {
    /// # Safety
    /// `k` is within the allocation and no other thread uses slot `k`.
    unsafe fn update(&self, k: usize, f: impl FnOnce(A) -> A) {
        // SAFETY: forwarded contract.
        unsafe {
            let slot = self.0.add(k);
            *slot = f(*slot);
        }
    }
}

/// [`Outputs`] that also folds each output (stored or not) into the
/// accumulator of its row, or of its (row, chunk) task when rows are split
/// between tasks (`per_row` chunks of `size` scanned elements).
struct FoldingOutputs<'f, D: Columns, P, A, E, G> {
    out: D::Out,
    store: bool,
    len: usize,
    one_more_per_row: bool,
    post: P,
    dir: ScanDir,
    folds: &'f Folds<A, E, G>,
    parts: Parts<A>,
    per_row: usize,
    size: usize,
    skip_front: usize,
}

impl<D, P, A, E, G> FoldingOutputs<'_, D, P, A, E, G>
where
    D: Columns,
    A: Copy,
    G: Fn(A, A) -> A,
{
    /// The accumulator slot of the element at linear input index `i` of row `r`.
    #[inline(always)]
    fn part(&self, r: usize, i: usize) -> usize {
        if self.per_row == 1 {
            r
        } else {
            r * self.per_row + (i - r * self.len - self.skip_front) / self.size
        }
    }

    /// `acc` with `e` combined in index order: after it on a left scan
    /// (ascending indices), before it on a right one (descending).
    #[inline(always)]
    fn add(&self, acc: A, e: A) -> A {
        match self.dir {
            ScanDir::Left => (self.folds.combine)(acc, e),
            ScanDir::Right => (self.folds.combine)(e, acc),
        }
    }
}

impl<T, D, P, A, E, G> Sink<T> for FoldingOutputs<'_, D, P, A, E, G>
where
    D: Columns,
    D::Elem: Copy,
    P: Fn(usize, usize, T) -> D::Elem + Sync,
    A: Copy + Send + Sync,
    E: Fn(usize, usize, D::Elem) -> A + Sync,
    G: Fn(A, A) -> A + Sync,
{
    #[inline(always)]
    unsafe fn put(&self, r: usize, i: usize, v: T) {
        let j = i - r * self.len;
        let w = (self.post)(r, j, v);
        if self.store {
            let shift = if self.one_more_per_row { r } else { 0 };
            // SAFETY: as in `Outputs::put`.
            unsafe { D::write(self.out, i + shift, w) }
        }
        let e = (self.folds.elem)(r, j, w);
        // SAFETY: the task that stores element `i` alone owns its part.
        unsafe { self.parts.update(self.part(r, i), |acc| self.add(acc, e)) }
    }

    #[inline(always)]
    unsafe fn put_each(&self, r: usize, range: Range<usize>, rev: bool, next: &mut impl FnMut(usize) -> T) {
        if range.is_empty() {
            return;
        }
        let base = r * self.len;
        let k = self.part(r, range.start);
        let shift = if self.one_more_per_row { r } else { 0 };
        // The first element in scan order seeds the accumulator, so that it
        // holds every field from the start (the generated folds' `Option`s
        // are then `Some` throughout, and their tests fold away).
        let (first, range) = if rev {
            (range.end - 1, range.start..range.end - 1)
        } else {
            (range.start, range.start + 1..range.end)
        };
        let w = (self.post)(r, first - base, next(first));
        if self.store {
            // SAFETY: as in `Outputs::put`.
            unsafe { D::write(self.out, first + shift, w) }
        }
        let mut acc = (self.folds.elem)(r, first - base, w);
        let mut one = |i: usize| {
            let w = (self.post)(r, i - base, next(i));
            acc = self.add(acc, (self.folds.elem)(r, i - base, w));
            w
        };
        if self.store {
            let slots = range.start + shift..range.end + shift;
            // SAFETY: as in `Outputs::put_each`.
            unsafe { D::write_each(self.out, slots, rev, &mut |slot| one(slot - shift)) }
        } else if rev {
            range.rev().for_each(|i| {
                one(i);
            });
        } else {
            range.for_each(|i| {
                one(i);
            });
        }
        // The range lies in one task's chunk, in this task alone.
        // SAFETY: as in `put`.
        unsafe { self.parts.update(k, |p| self.add(p, acc)) }
    }
}

/// How a scan's rows are split between tasks, as `scan_rows` splits them:
/// `(chunks per row, scanned elements per chunk)`.
fn chunking(rows: usize, m: usize) -> (usize, usize) {
    match split_size(rows, m) {
        None => (1, usize::MAX),
        Some(size) => (m.div_ceil(size).max(1), size),
    }
}

/// Each row's fold: its tasks' parts in order, and the element that `fin`
/// stores (the row's seed for a left `scanl1`, its first output; else its
/// last output).
fn row_folds<A: Copy>(
    parts: &[A],
    fins: &[A],
    per_row: usize,
    fin_first: bool,
    g: &impl Fn(A, A) -> A,
) -> Vec<A> {
    parts
        .chunks(per_row)
        .zip(fins)
        .map(|(ps, &fin)| {
            let body = ps[1..].iter().fold(ps[0], |a, &p| g(a, p));
            if fin_first {
                g(fin, body)
            } else {
                g(body, fin)
            }
        })
        .collect()
}

/// Where each row's `fin` output of a folding scan goes: position `pos` of
/// a row of `width` slots; it is the row's running total after the scan, or
/// else its seed; and it comes first in the row's fold, or last.
#[derive(Clone, Copy)]
struct FinSlot {
    pos: usize,
    width: usize,
    total: bool,
    first: bool,
}

/// [`scan_rows`] storing each output (when `store`) to `out` and folding it
/// with [`Folds`] as it goes; returns each row's fold.
#[allow(clippy::too_many_arguments)]
fn scan_rows_folding<C: Columns, D: Columns, A: Copy + Send + Sync>(
    lay: Layout,
    dir: ScanDir,
    kind: Kind,
    fin: FinSlot,
    f: &(impl Fn(usize, usize) -> C::Elem + Sync),
    g: &(impl Fn(C::Elem, C::Elem) -> C::Elem + Sync),
    seed: &(impl Fn(usize) -> C::Elem + Sync),
    post: &(impl Fn(usize, usize, C::Elem) -> D::Elem + Sync),
    out: D::Out,
    store: bool,
    folds: &Folds<A, impl Fn(usize, usize, D::Elem) -> A + Sync, impl Fn(A, A) -> A + Sync>,
) -> Vec<A>
where
    D::Elem: Copy,
{
    let (per_row, size) = chunking(lay.rows, lay.m);
    let mut parts = vec![folds.empty; lay.rows * per_row];
    let mut fins = vec![folds.empty; lay.rows];
    let fins_out = Parts(fins.as_mut_ptr());
    let sink = FoldingOutputs::<D, _, A, _, _> {
        out,
        store,
        len: lay.len,
        one_more_per_row: fin.width > lay.len,
        post,
        dir,
        folds,
        parts: Parts(parts.as_mut_ptr()),
        per_row,
        size,
        skip_front: lay.skip_front,
    };
    scan_rows(lay, dir, kind, f, g, seed, &sink, &|r, s, total| {
        let w = post(r, fin.pos, if fin.total { total } else { s });
        // SAFETY: the slot is in row `r` and no element is emitted to it;
        // `fin` runs once per row, so its fold slot is this call's.
        unsafe {
            if store {
                D::write(out, r * fin.width + fin.pos, w);
            }
            fins_out.update(r, |_| (folds.elem)(r, fin.pos, w));
        }
    });
    row_folds(&parts, &fins, per_row, fin.first, &folds.combine)
}

/// [`scan_inclusive_then`] with folds in the same traversal: returns the
/// outputs (none when `!store`: only the folds read them) and each row's
/// fold of [`Folds`].
#[allow(clippy::too_many_arguments)]
pub fn scan_inclusive_folds<C: Columns, D: Columns, A: Copy + Send + Sync>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(usize, usize, C::Elem) -> D::Elem + Sync,
    store: bool,
    folds: Folds<A, impl Fn(usize, usize, D::Elem) -> A + Sync, impl Fn(A, A) -> A + Sync>,
) -> (D, Vec<A>)
where
    D::Elem: Copy,
{
    let n = rows * len;
    let mut cols = D::with_capacity(if store { n } else { 0 });
    if n == 0 {
        return (cols, vec![folds.empty; rows]);
    }
    // As `scan_inclusive_then`: the seed is the row's first (left) or last
    // (right) element, and its output.
    let (skip_front, seed_pos) = match dir {
        ScanDir::Left => (1, 0),
        ScanDir::Right => (0, len - 1),
    };
    let lay = Layout {
        rows,
        len,
        skip_front,
        m: len - 1,
    };
    let fin = FinSlot {
        pos: seed_pos,
        width: len,
        total: false,
        first: dir == ScanDir::Left,
    };
    let out = cols.out_ptr();
    let seed = |r| f(r, seed_pos);
    let folded = scan_rows_folding::<C, D, A>(
        lay,
        dir,
        Kind::Incl,
        fin,
        &f,
        &g,
        &seed,
        &post,
        out,
        store,
        &folds,
    );
    if store {
        // SAFETY: the scanned elements and the seeds cover every slot below `n`.
        unsafe { cols.set_len(n) };
    }
    (cols, folded)
}

/// [`scan_with_init_then`] with folds in the same traversal, as
/// [`scan_inclusive_folds`]; each row's outputs are `len + 1`, the last
/// at position `len`.
#[allow(clippy::too_many_arguments)]
pub fn scan_with_init_folds<C: Columns, D: Columns, A: Copy + Send + Sync>(
    rows: usize,
    len: usize,
    dir: ScanDir,
    f: impl Fn(usize, usize) -> C::Elem + Sync,
    z: C::Elem,
    g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    post: impl Fn(usize, usize, C::Elem) -> D::Elem + Sync,
    store: bool,
    folds: Folds<A, impl Fn(usize, usize, D::Elem) -> A + Sync, impl Fn(A, A) -> A + Sync>,
) -> (D, Vec<A>)
where
    D::Elem: Copy,
{
    let n = rows * (len + 1);
    let mut cols = D::with_capacity(if store { n } else { 0 });
    if n == 0 {
        return (cols, Vec::new());
    }
    // As `scan_with_init_then`: left, output j is the value before x_j and
    // the total goes last; right, output j is the value after x_j, z last.
    let kind = match dir {
        ScanDir::Left => Kind::Excl,
        ScanDir::Right => Kind::Incl,
    };
    let lay = Layout {
        rows,
        len,
        skip_front: 0,
        m: len,
    };
    let fin = FinSlot {
        pos: len,
        width: len + 1,
        total: dir == ScanDir::Left,
        first: false,
    };
    let out = cols.out_ptr();
    let folded = scan_rows_folding::<C, D, A>(lay, dir, kind, fin, &f, &g, &|_| z, &post, out, store, &folds);
    if store {
        // SAFETY: the emitted elements and the last slot of each row cover `0..n`.
        unsafe { cols.set_len(n) };
    }
    (cols, folded)
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    /// Straight from the definitions, one row `xs`.
    fn ref_incl<T: Copy>(xs: &[T], dir: ScanDir, g: &impl Fn(T, T) -> T) -> Vec<T> {
        let mut out = xs.to_vec();
        match dir {
            ScanDir::Left => {
                for j in 1..xs.len() {
                    out[j] = g(out[j - 1], xs[j]);
                }
            }
            ScanDir::Right => {
                for j in (0..xs.len().saturating_sub(1)).rev() {
                    out[j] = g(xs[j], out[j + 1]);
                }
            }
        }
        out
    }

    fn ref_init<T: Copy>(xs: &[T], dir: ScanDir, z: T, g: &impl Fn(T, T) -> T) -> Vec<T> {
        let len = xs.len();
        let mut out = vec![z; len + 1];
        match dir {
            ScanDir::Left => {
                for j in 0..len {
                    out[j + 1] = g(out[j], xs[j]);
                }
            }
            ScanDir::Right => {
                for j in (0..len).rev() {
                    out[j] = g(xs[j], out[j + 1]);
                }
            }
        }
        out
    }

    fn ref_excl<T: Copy>(xs: &[T], dir: ScanDir, z: T, g: &impl Fn(T, T) -> T) -> (Vec<T>, T) {
        let len = xs.len();
        let mut out = vec![z; len];
        if len == 0 {
            return (out, z);
        }
        match dir {
            ScanDir::Left => {
                for j in 1..len {
                    out[j] = g(out[j - 1], xs[j - 1]);
                }
                let t = g(out[len - 1], xs[len - 1]);
                (out, t)
            }
            ScanDir::Right => {
                for j in (0..len - 1).rev() {
                    out[j] = g(xs[j + 1], out[j + 1]);
                }
                let t = g(xs[0], out[0]);
                (out, t)
            }
        }
    }

    fn check<C: Columns>(
        rows: usize,
        len: usize,
        f: impl Fn(usize) -> C::Elem + Sync + Copy,
        z: C::Elem,
        g: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync + Copy,
    ) {
        let xs: Vec<C::Elem> = (0..rows * len).map(f).collect();
        let rows_of = || (0..rows).map(|r| &xs[r * len..r * len + len]);
        for dir in [ScanDir::Left, ScanDir::Right] {
            let ctx = format!("rows {rows} len {len} {dir:?}");
            let f = move |r: usize, j: usize| f(r * len + j);
            let got: C = scan_inclusive(rows, len, dir, f, g);
            let want: Vec<_> = rows_of().flat_map(|x| ref_incl(x, dir, &g)).collect();
            assert!(got.to_elems() == want, "scan_inclusive {ctx}");

            let got: C = scan_with_init(rows, len, dir, f, z, g);
            let want: Vec<_> = rows_of().flat_map(|x| ref_init(x, dir, z, &g)).collect();
            assert!(got.to_elems() == want, "scan_with_init {ctx}");

            let (got, got_t): (C, C) = scan_exclusive(rows, len, dir, f, z, g);
            let mut want = Vec::new();
            let mut want_t = Vec::new();
            for x in rows_of() {
                let (o, t) = ref_excl(x, dir, z, &g);
                want.extend(o);
                want_t.push(t);
            }
            assert!(got.to_elems() == want, "scan_exclusive {ctx}");
            assert!(got_t.to_elems() == want_t, "scan_exclusive totals {ctx}");
        }
    }

    #[test]
    fn scans_match_reference() {
        in_pools(|| {
            for (rows, len) in row_cases() {
                check::<MCols>(rows, len, mat, (1, 2, 3, 5), mul);
                check::<Vec<i64>>(rows, len, |i| h(i) as i64 - 1000, 7, i64::wrapping_add);
                check::<(Vec<i32>, Vec<u8>)>(
                    rows,
                    len,
                    |i| (h(i) as i32, (i % 256) as u8),
                    (-1, 200),
                    |a, b| (a.0, b.1),
                );
            }
        });
    }

    /// The folds of [`scan_inclusive_folds`] and [`scan_with_init_folds`]:
    /// field 0 the product of every output after `post` (a matrix product:
    /// order shows), field 1 a product over the input's positions only,
    /// which skips a `scanl`'s last output.
    #[test]
    fn scan_folds_fold_the_outputs_in_order() {
        type A = (Option<M>, Option<M>);
        fn opt(a: Option<M>, b: Option<M>) -> Option<M> {
            match (a, b) {
                (Some(x), Some(y)) => Some(mul(x, y)),
                (x, None) => x,
                (None, y) => y,
            }
        }
        let product = |xs: &mut dyn Iterator<Item = M>| xs.fold(None, |a, x| opt(a, Some(x)));
        in_pools(|| {
            for (rows, len) in row_cases() {
                for dir in [ScanDir::Left, ScanDir::Right] {
                    for store in [true, false] {
                        let ctx = format!("rows {rows} len {len} {dir:?} store {store}");
                        let f = move |r: usize, j: usize| mat(r * len + j);
                        let post =
                            |r: usize, j: usize, v: M| (v.0 ^ r as u32, v.1, v.2, v.3.wrapping_add(j as u32));
                        let folds = || Folds {
                            empty: (None, None),
                            elem: move |_r: usize, j: usize, w: M| {
                                (Some(w), (j < len).then(|| mat(7 * j + 1)))
                            },
                            combine: |a: A, b: A| (opt(a.0, b.0), opt(a.1, b.1)),
                        };
                        let inputs = || product(&mut (0..len).map(|j| mat(7 * j + 1)));

                        let outs =
                            scan_inclusive_then::<MCols, MCols>(rows, len, dir, f, mul, post).to_elems();
                        let want: Vec<A> = (0..rows)
                            .map(|r| {
                                (
                                    product(&mut outs[r * len..(r + 1) * len].iter().copied()),
                                    inputs(),
                                )
                            })
                            .collect();
                        let (got, got_folds): (MCols, Vec<A>) = scan_inclusive_folds::<MCols, MCols, A>(
                            rows,
                            len,
                            dir,
                            f,
                            mul,
                            post,
                            store,
                            folds(),
                        );
                        assert!(
                            got.to_elems() == if store { outs.clone() } else { vec![] },
                            "{ctx}"
                        );
                        assert!(got_folds == want, "scan_inclusive_folds {ctx}");

                        let z = (1, 2, 3, 4);
                        let outs =
                            scan_with_init_then::<MCols, MCols>(rows, len, dir, f, z, mul, post).to_elems();
                        let w = len + 1;
                        let want: Vec<A> = (0..rows)
                            .map(|r| (product(&mut outs[r * w..(r + 1) * w].iter().copied()), inputs()))
                            .collect();
                        let (got, got_folds): (MCols, Vec<A>) = scan_with_init_folds::<MCols, MCols, A>(
                            rows,
                            len,
                            dir,
                            f,
                            z,
                            mul,
                            post,
                            store,
                            folds(),
                        );
                        assert!(
                            got.to_elems() == if store { outs.clone() } else { vec![] },
                            "{ctx}"
                        );
                        assert!(got_folds == want, "scan_with_init_folds {ctx}");
                    }
                }
            }
        });
    }
}
