//! A fused `expand`: each input `s` of `0..n` yields `count(src(s))` elements,
//! which go straight to a permute or a fold, without an expanded array and
//! without a full array of offsets.
//!
//! Work is balanced by output, not by input: input `s` weighs `count + 1` (its
//! outputs and the visit itself, so that long runs of empty inputs are spread
//! too). A first pass sums the weights per block of `BLOCK` inputs; the prefix
//! over blocks lets each chunk of the weight range find where it starts (a
//! binary search over blocks, then a walk within one block), so one input with
//! a huge count is split between chunks. (A fold over tiny, evenly spread
//! counts is split by input instead: see `Expansion::pick`. A permute into
//! few targets combines into a private table per chunk, into many through
//! buckets by target range.)

use super::bucket::{Buckets, Ranges};
use super::par::{self, threads};
use super::permute::{merge_plain_tables, merge_tables_par, privatise, with_op, AtomicOp, AtomicPrim};
use super::pool;
use super::MIN_CHUNK;
use crate::elem::{Columns, OutPtr};
use std::ops::Range;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

/// Inputs per block of the first pass.
const BLOCK: usize = 1024;

/// Chunks per thread of a walk: more chunks than threads, so that a thread
/// that starts late takes fewer.
const PER_THREAD: usize = 4;

/// How a fused expand splits its work between threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpandStrategy {
    /// Chunks of equal weight (outputs plus inputs): the default.
    Balanced,
    /// Chunks of equal numbers of inputs (what a plain parallel loop over the
    /// inputs does): chosen for folds over tiny, evenly spread counts (see
    /// `Expansion::pick`).
    Inputs,
}

/// 0: not set (the environment decides), 1: balanced, 2: inputs.
static STRATEGY: AtomicU8 = AtomicU8::new(0);

/// Forces a strategy for every later fused expand (`None`: back to the
/// automatic choice, or to `ACCEL_EXPAND_STRATEGY=balanced|inputs` when
/// set). For tests and benchmarks.
pub fn set_expand_strategy(s: Option<ExpandStrategy>) {
    let v = match s {
        None => 0,
        Some(ExpandStrategy::Balanced) => 1,
        Some(ExpandStrategy::Inputs) => 2,
    };
    STRATEGY.store(v, Ordering::Relaxed);
}

/// The strategy forced by [`set_expand_strategy`] or the environment.
fn forced() -> Option<ExpandStrategy> {
    match STRATEGY.load(Ordering::Relaxed) {
        1 => Some(ExpandStrategy::Balanced),
        2 => Some(ExpandStrategy::Inputs),
        _ => {
            static ENV: OnceLock<Option<ExpandStrategy>> = OnceLock::new();
            *ENV.get_or_init(|| match std::env::var("ACCEL_EXPAND_STRATEGY").as_deref() {
                Ok("inputs") => Some(ExpandStrategy::Inputs),
                Ok("balanced") => Some(ExpandStrategy::Balanced),
                _ => None,
            })
        }
    }
}

/// The first pass of a fused expand: the weight before each block.
pub struct Expansion {
    n: usize,
    /// `starts[b]`: the total weight of the inputs before block `b`; one more
    /// entry holds the total.
    starts: Vec<usize>,
}

impl Expansion {
    /// Counts the outputs of inputs `0..n`. A failing `count` records its
    /// error in the caller's context; check it before running [`Self::permute`]
    /// or [`Self::fold`], whose walks trust the counts.
    pub fn new<X>(
        n: usize,
        src: impl Fn(usize) -> X + Sync,
        count: impl Fn(&X) -> usize + Sync,
    ) -> Expansion {
        let blocks = n.div_ceil(BLOCK);
        let weigh = |b: usize| {
            (b * BLOCK..((b + 1) * BLOCK).min(n)).fold(0usize, |w, s| w.saturating_add(count(&src(s)) + 1))
        };
        let sums: Vec<usize> = if n < MIN_CHUNK {
            (0..blocks).map(weigh).collect()
        } else {
            par::map(blocks, weigh)
        };
        let mut starts = Vec::with_capacity(blocks + 1);
        let mut w = 0usize;
        starts.push(0);
        for s in sums {
            w = w.saturating_add(s);
            starts.push(w);
        }
        Expansion { n, starts }
    }

    /// The number of elements of the expanded array.
    pub fn total(&self) -> usize {
        self.starts.last().copied().unwrap_or(0) - self.n
    }

    /// The split of a walk: the forced one, if any; else by input for a
    /// fold whose inputs average less than one element each, in blocks of
    /// about equal weight (the walk by output tests for its chunk's end at
    /// every input, which shows when a fold does one add per input: 0.41
    /// against 0.37 ms for 200,000 inputs of 75% one element, 25% none,
    /// timed in alternation; docs/bench/expand.md); else by output, which
    /// alone balances skewed counts. A permute does more per element, and is
    /// as fast or faster split by output.
    fn pick(&self, fold: bool) -> ExpandStrategy {
        if let Some(s) = forced() {
            return s;
        }
        let weight = self.starts.last().copied().unwrap_or(0);
        let blocks = self.starts.len() - 1;
        let heaviest = self.starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let even = heaviest.saturating_mul(blocks) <= weight.saturating_mul(2);
        if fold && weight >= MIN_CHUNK && weight < self.n.saturating_mul(2) && even {
            ExpandStrategy::Inputs
        } else {
            ExpandStrategy::Balanced
        }
    }

    /// Whether [`Self::walk_with`] runs on the calling thread alone (then a
    /// permute updates its targets as it goes).
    fn one_thread(&self, strategy: ExpandStrategy) -> bool {
        strategy == ExpandStrategy::Balanced && self.starts.last().copied().unwrap_or(0) < MIN_CHUNK
    }

    /// Calls `each(state, x, ks, j)` for every run `ks` of elements of an
    /// input `x` that falls in one chunk (about `per_thread` chunks per thread) (`j`: the position of element
    /// `ks.start` in the expanded array; never an empty run), in order within
    /// each chunk; returns the chunks' states in order. A run per input, not a
    /// call per element, keeps the per-element loop as tight as a plain loop.
    fn walk_with<X, R: Send>(
        &self,
        strategy: ExpandStrategy,
        per_thread: usize,
        src: &(impl Fn(usize) -> X + Sync),
        count: &(impl Fn(&X) -> usize + Sync),
        init: impl Fn(usize) -> R + Sync,
        each: impl Fn(&mut R, &X, Range<usize>, usize) + Sync,
    ) -> Vec<R> {
        let weight = self.starts.last().copied().unwrap_or(0);
        if weight == 0 {
            return Vec::new();
        }
        let threads = threads();
        match strategy {
            ExpandStrategy::Balanced => {
                // One thread below `MIN_CHUNK` (tasks cost more than the
                // work); above it, four chunks of equal weight per thread
                // (more chunks than threads, so that a thread that starts
                // late takes fewer), none below a sixteenth of `MIN_CHUNK`.
                let chunks = if weight < MIN_CHUNK {
                    1
                } else {
                    (threads * per_thread).min(weight / (MIN_CHUNK / 16)).max(1)
                };
                let size = weight.div_ceil(chunks);
                let chunks = weight.div_ceil(size);
                let run = |c: usize| {
                    let mut r = init(c);
                    self.walk_range(src, count, c * size, ((c + 1) * size).min(weight), &mut r, &each);
                    r
                };
                if chunks == 1 {
                    vec![run(0)]
                } else {
                    par::map(chunks, run)
                }
            }
            ExpandStrategy::Inputs => {
                let size = self.n.div_ceil(threads * per_thread).max(1);
                let chunks = self.n.div_ceil(size);
                par::map(chunks, |c| {
                    let mut r = init(c);
                    let (lo, hi) = (c * size, ((c + 1) * size).min(self.n));
                    // The position of input `lo`'s first element.
                    let b = lo / BLOCK;
                    let mut w = self.starts[b];
                    for s in b * BLOCK..lo {
                        w += count(&src(s)) + 1;
                    }
                    for s in lo..hi {
                        let x = src(s);
                        let cnt = count(&x);
                        if cnt > 0 {
                            each(&mut r, &x, 0..cnt, w - s);
                        }
                        w += cnt + 1;
                    }
                    r
                })
            }
        }
    }

    /// The elements whose weight slots lie in `p..e`.
    fn walk_range<X, R>(
        &self,
        src: &(impl Fn(usize) -> X + Sync),
        count: &(impl Fn(&X) -> usize + Sync),
        p: usize,
        e: usize,
        r: &mut R,
        each: &impl Fn(&mut R, &X, Range<usize>, usize),
    ) {
        // The last block starting at or before `p`, then the input whose slots
        // hold `p`: input `s` at weight `w` owns slots `w..w + count + 1`
        // (slot `w` is the visit, slot `w + 1 + k` its element `k`).
        let b = self.starts.partition_point(|&w| w <= p).saturating_sub(1);
        let mut s = b * BLOCK;
        let mut w = self.starts[b];
        // `w - s` elements come before input `s`'s first one.
        // Skip to the input holding slot `p`; it may start before `p`.
        let (mut x, mut cnt) = loop {
            if s >= self.n || w >= e {
                return;
            }
            let x = src(s);
            let cnt = count(&x);
            if w + cnt + 1 > p {
                break (x, cnt);
            }
            w += cnt + 1;
            s += 1;
        };
        let mut k0 = (p.max(w) - w).saturating_sub(1);
        // Whole inputs after the first, until the one that reaches past `e`.
        // One test per input beyond a plain loop over inputs: this loop is
        // the whole cost of an expansion of tiny counts.
        loop {
            let next = w + cnt + 1;
            if next > e {
                let k1 = (e - w).saturating_sub(1);
                if k0 < k1 {
                    each(r, &x, k0..k1, w - s + k0);
                }
                return;
            }
            if k0 < cnt {
                each(r, &x, k0..cnt, w - s + k0);
            }
            w = next;
            s += 1;
            if s >= self.n {
                return;
            }
            x = src(s);
            cnt = count(&x);
            k0 = 0;
        }
    }

    /// Whether a parallel walk should combine into a private table per
    /// chunk, as [`super::permute`] does for few targets and many sources.
    fn private_tables(&self, strategy: ExpandStrategy, n_out: usize) -> bool {
        !self.one_thread(strategy) && privatise(self.total(), n_out)
    }

    /// Chunks per thread of a walk into private tables: four (balance) when
    /// the tables are small against the elements, else one (each table
    /// costs `n_out` slots to fill and to merge).
    fn tables_per_thread(&self, n_out: usize) -> usize {
        let threads = threads();
        if n_out.saturating_mul(16 * threads) <= self.total() {
            PER_THREAD
        } else {
            1
        }
    }

    /// For each element `e` with `target(e) = Some(t)` (`t < out.len()`):
    /// `out[t] = combine(value(e), out[t])`, in element order per target: into
    /// a private table per chunk (few targets), else through buckets by
    /// target range, as [`super::permute`] does. `target_value(x, p, row, i, k, j)`: element
    /// `k` of input `x` (at position `j` of the expanded array), where `p =
    /// prepare(x)` is computed once per run of `x`'s elements (what stays the
    /// same over the run, such as a divisor's reciprocal) and `row` once per
    /// row of the run (see [`Rows`]; the element is the row's `i`th).
    #[allow(clippy::too_many_arguments)]
    pub fn permute<X, P, R, C: Columns>(
        &self,
        out: &mut C,
        src: impl Fn(usize) -> X + Sync,
        count: impl Fn(&X) -> usize + Sync,
        prepare: impl Fn(&X) -> P + Sync,
        rows: impl Rows<X, P, R>,
        target_value: impl Fn(&X, &P, &R, usize, usize, usize) -> Option<(usize, C::Elem)> + Sync,
        combine: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
    ) {
        let n_out = out.len();
        let ptr = out.out_ptr();
        let strategy = self.pick(false);
        if self.private_tables(strategy, n_out) {
            // Each chunk combines its elements in order (`None`: none yet);
            // the tables are combined into `out` in chunk order, which
            // keeps the elements' order for an associative `combine`. The
            // first chunk (state `None`) combines straight into `out`.
            let init = |c: usize| (c > 0).then(|| pool::filled(n_out, None));
            let each = |table: &mut Option<Vec<Option<C::Elem>>>, x: &X, ks: Range<usize>, j: usize| {
                let p = prepare(x);
                match table {
                    Some(table) => run_targets(x, &p, ks, j, n_out, &rows, &target_value, |t, v| {
                        table[t] = Some(match table[t] {
                            Some(old) => combine(v, old),
                            None => v,
                        });
                    }),
                    // SAFETY: `t < out.len()`, so slot `t` is initialised and
                    // within the capacity; only the first chunk's walk (one
                    // task) touches `out` until the walk ends, and `out` is
                    // borrowed mutably for the whole call.
                    None => run_targets(x, &p, ks, j, n_out, &rows, &target_value, |t, v| unsafe {
                        let old = C::read(ptr, t);
                        C::write(ptr, t, combine(v, old));
                    }),
                }
            };
            let tables = self.walk_with(strategy, self.tables_per_thread(n_out), &src, &count, init, each);
            let tables: Vec<_> = tables.into_iter().flatten().collect();
            merge_tables_par(out, &tables, &combine);
            tables.into_iter().for_each(pool::recycle);
            return;
        }
        // SAFETY (of every call): `t < out.len()`, so slot `t` is
        // initialised and within the capacity; `apply` runs on one thread at
        // a time per slot (the walk on this thread alone, or each target
        // range by one task), and `out` is borrowed mutably for the whole
        // call.
        let apply = |t: usize, v: C::Elem| unsafe {
            let old = C::read(ptr, t);
            C::write(ptr, t, combine(v, old));
        };
        self.in_buckets(
            strategy,
            n_out,
            &src,
            &count,
            &prepare,
            &rows,
            &target_value,
            &apply,
        );
    }

    /// `apply(t, v)` for every element with a target (`target_value` as in
    /// [`Self::permute`]), in element order per target, never for one target
    /// range from two threads at once: on one thread as the walk goes, else
    /// through buckets by target range ([`Buckets`]), each range combined
    /// by one task.
    #[allow(clippy::too_many_arguments)]
    fn in_buckets<X, P, R, E: Copy + Send + Sync>(
        &self,
        strategy: ExpandStrategy,
        n_out: usize,
        src: &(impl Fn(usize) -> X + Sync),
        count: &(impl Fn(&X) -> usize + Sync),
        prepare: &(impl Fn(&X) -> P + Sync),
        rows: &impl Rows<X, P, R>,
        target_value: &(impl Fn(&X, &P, &R, usize, usize, usize) -> Option<(usize, E)> + Sync),
        apply: &(impl Fn(usize, E) + Sync),
    ) {
        if self.one_thread(strategy) {
            let each = |_: &mut (), x: &X, ks: Range<usize>, j: usize| {
                run_targets(x, &prepare(x), ks, j, n_out, rows, target_value, apply)
            };
            self.walk_with(strategy, PER_THREAD, src, count, |_| (), each);
            return;
        }
        let ranges = Ranges::of(n_out);
        let each = |b: &mut Buckets<E>, x: &X, ks: Range<usize>, j: usize| {
            run_targets(x, &prepare(x), ks, j, n_out, rows, target_value, |t, v| {
                b.push(t, v)
            })
        };
        let parts = self.walk_with(strategy, PER_THREAD, src, count, |_| Buckets::new(ranges), each);
        Buckets::combine(ranges, &parts, apply);
    }

    /// [`Self::permute`] with a combination that is one [`AtomicOp`]:
    /// private tables start from its identity, and updates are plain.
    #[allow(clippy::too_many_arguments)]
    pub fn permute_atomic<X, P, R, T: AtomicPrim>(
        &self,
        out: &mut Vec<T>,
        src: impl Fn(usize) -> X + Sync,
        count: impl Fn(&X) -> usize + Sync,
        prepare: impl Fn(&X) -> P + Sync,
        rows: impl Rows<X, P, R>,
        target_value: impl Fn(&X, &P, &R, usize, usize, usize) -> Option<(usize, T)> + Sync,
        op: AtomicOp,
    ) {
        let n_out = out.len();
        let strategy = self.pick(false);
        if self.private_tables(strategy, n_out) {
            // A private table per chunk, from the operation's identity: no
            // cache line bounces between threads. The first chunk (state
            // `None`) combines straight into `out`.
            let base = OutPtr(out.as_mut_ptr());
            let init = |c: usize| (c > 0).then(|| pool::filled(n_out, T::identity(op)));
            let each = |table: &mut Option<Vec<T>>, x: &X, ks: Range<usize>, j: usize| {
                let slots: &mut [T] = match table {
                    Some(table) => table,
                    // SAFETY: `out` holds `n_out` initialised elements; only
                    // the first chunk's walk (one task) touches `out` until
                    // the walk ends, and `out` is borrowed mutably for the
                    // whole call.
                    None => unsafe { std::slice::from_raw_parts_mut(base.get(), n_out) },
                };
                combine_run(slots, x, &prepare(x), ks, j, &rows, &target_value, op);
            };
            let tables = self.walk_with(strategy, self.tables_per_thread(n_out), &src, &count, init, each);
            let tables: Vec<Vec<T>> = tables.into_iter().flatten().collect();
            merge_plain_tables(out, &tables, op);
            tables.into_iter().for_each(pool::recycle);
            return;
        }
        let base = OutPtr(out.as_mut_ptr());
        with_op!(op, |o| {
            // SAFETY: `t < out.len()`; as in `permute`, one thread at a time
            // updates slot `t`, and `out` is borrowed mutably for the call.
            let apply = |t: usize, v: T| unsafe { *base.at(t) = T::plain(v, *base.at(t), o) };
            self.in_buckets(
                strategy,
                n_out,
                &src,
                &count,
                &prepare,
                &rows,
                &target_value,
                &apply,
            )
        })
    }

    /// `z ⊕ e_0 ⊕ .. ⊕ e_{m-1}` over the values of the elements in order
    /// (`z` when there are none): each chunk folds its elements, and the
    /// chunks' partial results are combined in order. `value(x, p, row, i,
    /// k)`: element `k` of input `x`, where `p = prepare(x)`, once per run,
    /// and `row` once per row (the element is the row's `i`th).
    #[allow(clippy::too_many_arguments)]
    pub fn fold<X, P, R, T: Copy + Send>(
        &self,
        src: impl Fn(usize) -> X + Sync,
        count: impl Fn(&X) -> usize + Sync,
        prepare: impl Fn(&X) -> P + Sync,
        rows: impl Rows<X, P, R>,
        value: impl Fn(&X, &P, &R, usize, usize) -> T + Sync,
        z: T,
        g: impl Fn(T, T) -> T + Sync,
    ) -> T {
        let parts = self.walk_with(
            self.pick(true),
            PER_THREAD,
            &src,
            &count,
            |_| None,
            fold_run(&prepare, &rows, &value, &g),
        );
        parts.into_iter().flatten().fold(z, &g)
    }

    /// `e_0 ⊕ .. ⊕ e_{m-1}`; `None` when there are no elements.
    pub fn fold1<X, P, R, T: Copy + Send>(
        &self,
        src: impl Fn(usize) -> X + Sync,
        count: impl Fn(&X) -> usize + Sync,
        prepare: impl Fn(&X) -> P + Sync,
        rows: impl Rows<X, P, R>,
        value: impl Fn(&X, &P, &R, usize, usize) -> T + Sync,
        g: impl Fn(T, T) -> T + Sync,
    ) -> Option<T> {
        let parts = self.walk_with(
            self.pick(true),
            PER_THREAD,
            &src,
            &count,
            |_| None,
            fold_run(&prepare, &rows, &value, &g),
        );
        parts.into_iter().flatten().reduce(&g)
    }
}

/// How a run of an input's elements splits into rows, over which more of
/// the element function stays the same than over the run: `row(x, p, k,
/// end)` gives the length of the row starting at element `k` of input `x`
/// (at least 1; more than `end - k` is cut there) and the values its
/// elements share (`p`: the run's prepared values). A box `w` elements
/// wide, whose elements find their column as `k % w` and their row as
/// `k / w`, splits into rows of `w`: within one, `k / w` is a value of the
/// row, and the loop over its columns is a plain loop.
pub trait Rows<X, P, R>: Fn(&X, &P, usize, usize) -> (usize, R) + Sync {}
impl<X, P, R, F: Fn(&X, &P, usize, usize) -> (usize, R) + Sync> Rows<X, P, R> for F {}

/// [`Rows`] that leaves a run whole: one row, sharing nothing.
#[inline(always)]
pub fn whole_runs<X, P>(_: &X, _: &P, k: usize, end: usize) -> (usize, ()) {
    (end - k, ())
}

/// `f(row, k, len)` for each row of run `ks` of input `x`, in order: the
/// row's values and its `len` elements from `k` (the row length that `rows`
/// gives, cut to `1..=ks.end - k`). Inlined, so that the caller's loop over
/// a row's elements is a plain loop.
#[inline(always)]
fn each_row<X, P, R>(
    x: &X,
    p: &P,
    ks: Range<usize>,
    rows: &impl Rows<X, P, R>,
    mut f: impl FnMut(&R, usize, usize),
) {
    let mut k = ks.start;
    while k < ks.end {
        let (len, row) = rows(x, p, k, ks.end);
        let len = len.clamp(1, ks.end - k);
        f(&row, k, len);
        k += len;
    }
}

/// `update(t, v)` for each element `k` of run `ks` of input `x` whose target
/// `t` is below `n_out` (`j`: the run's position in the expanded array).
/// Inlined, as a plain loop, into each walk that calls it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run_targets<X, P, R, E>(
    x: &X,
    p: &P,
    ks: Range<usize>,
    j: usize,
    n_out: usize,
    rows: &impl Rows<X, P, R>,
    target_value: &impl Fn(&X, &P, &R, usize, usize, usize) -> Option<(usize, E)>,
    mut update: impl FnMut(usize, E),
) {
    let start = ks.start;
    each_row(x, p, ks, rows, |row, k0, len| {
        for i in 0..len {
            let k = k0 + i;
            if let Some((t, v)) = target_value(x, p, row, i, k, j + (k - start)) {
                if t < n_out {
                    update(t, v);
                }
            }
        }
    })
}

/// Combines one run of elements into `slots` with `op`, the operation
/// matched once per run rather than per element. `slots` is a plain
/// exclusive slice (not a raw pointer), so the compiler may keep the
/// element function's captures in registers across the stores.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn combine_run<X, P, R, T: AtomicPrim>(
    slots: &mut [T],
    x: &X,
    p: &P,
    ks: Range<usize>,
    j: usize,
    rows: &impl Rows<X, P, R>,
    target_value: &impl Fn(&X, &P, &R, usize, usize, usize) -> Option<(usize, T)>,
    op: AtomicOp,
) {
    let n_out = slots.len();
    with_op!(op, |o| run_targets(
        x,
        p,
        ks,
        j,
        n_out,
        rows,
        target_value,
        |t, v| { slots[t] = T::plain(v, slots[t], o) }
    ))
}

/// The fold of one run of elements into a chunk's accumulator (`None`: the
/// chunk has no element yet). The accumulator is unwrapped once per row, so
/// the per-element loop is a plain `a = g(a, v)`.
fn fold_run<'a, X, P, R, T: Copy>(
    prepare: &'a (impl Fn(&X) -> P + Sync),
    rows: &'a impl Rows<X, P, R>,
    value: &'a (impl Fn(&X, &P, &R, usize, usize) -> T + Sync),
    g: &'a (impl Fn(T, T) -> T + Sync),
) -> impl Fn(&mut Option<T>, &X, Range<usize>, usize) + Sync + 'a {
    move |acc, x, ks, _j| {
        let p = prepare(x);
        each_row(x, &p, ks, rows, |row, k, len| {
            let (mut a, first) = match *acc {
                Some(a) => (a, 0),
                None => (value(x, &p, row, 0, k), 1),
            };
            for i in first..len {
                a = g(a, value(x, &p, row, i, k + i));
            }
            *acc = Some(a);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tests that force a strategy take turns (it is process-wide).
    static FORCING: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// `count(i) = sizes(i)`, element `k` of input `i` is `(i, k)`.
    fn sizes(i: usize) -> usize {
        match i % 7 {
            0 => 0,
            3 => (i * 31) % 50_000,
            _ => i % 5,
        }
    }

    fn reference(n: usize) -> Vec<(usize, usize)> {
        (0..n).flat_map(|i| (0..sizes(i)).map(move |k| (i, k))).collect()
    }

    #[test]
    fn walks_every_element_once_in_order() {
        let _turn = FORCING.lock().unwrap_or_else(|e| e.into_inner());
        for strategy in [ExpandStrategy::Balanced, ExpandStrategy::Inputs] {
            set_expand_strategy(Some(strategy));
            for n in [0, 1, 2, 7, 100, BLOCK + 3, 3 * BLOCK + 1] {
                let want = reference(n);
                let e = Expansion::new(n, |i| i, |&i| sizes(i));
                assert_eq!(e.total(), want.len());
                // Each chunk's elements, in order, at their positions.
                for per_thread in [1, PER_THREAD] {
                    let parts = e.walk_with(
                        strategy,
                        per_thread,
                        &|i| i,
                        &|&i: &usize| sizes(i),
                        |_| Vec::new(),
                        |v: &mut Vec<(usize, usize, usize)>, &i, ks: Range<usize>, j| {
                            assert!(!ks.is_empty());
                            v.extend(ks.clone().map(|k| (i, k, j + k - ks.start)))
                        },
                    );
                    let got: Vec<(usize, usize, usize)> = parts.into_iter().flatten().collect();
                    assert_eq!(got.len(), want.len(), "n = {n}, {strategy:?}, {per_thread}");
                    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                        assert_eq!(
                            (g.0, g.1, g.2),
                            (w.0, w.1, j),
                            "n = {n}, {strategy:?}, {per_thread}"
                        );
                    }
                }
                let sum = e.fold(
                    |i| i,
                    |&i| sizes(i),
                    |_| (),
                    whole_runs,
                    |&i, _, _, _, k| (i + k) as u64,
                    7,
                    |a, b| a + b,
                );
                let want_sum = 7 + want.iter().map(|&(i, k)| (i + k) as u64).sum::<u64>();
                assert_eq!(sum, want_sum);
            }
        }
        set_expand_strategy(None);
    }

    /// The automatic split: by input only for a fold over tiny, even counts
    /// above the one-thread cutoff.
    #[test]
    fn picks_the_split_by_input_for_folds_of_tiny_even_counts() {
        let _turn = FORCING.lock().unwrap_or_else(|e| e.into_inner());
        set_expand_strategy(None);
        let n = 20 * BLOCK;
        let tiny = Expansion::new(n, |i| i, |&i| (i % 4 != 0) as usize);
        assert_eq!(tiny.pick(true), ExpandStrategy::Inputs);
        assert_eq!(tiny.pick(false), ExpandStrategy::Balanced);
        let larger = Expansion::new(n, |i| i, |&i| i % 11);
        assert_eq!(larger.pick(true), ExpandStrategy::Balanced);
        let skewed = Expansion::new(n, |i| i, |&i| if i < BLOCK { 4 } else { (i % 4 != 0) as usize });
        assert_eq!(skewed.pick(true), ExpandStrategy::Balanced);
        let few = Expansion::new(BLOCK, |i| i, |&i| (i % 4 != 0) as usize);
        assert_eq!(few.pick(true), ExpandStrategy::Balanced);
    }

    /// Even, tiny counts with a total weight around `MIN_CHUNK`, where the
    /// split switches from one chunk to several: every element once, in
    /// order, at its position, with either strategy.
    #[test]
    fn tiny_counts_around_the_parallel_cutoff() {
        let _turn = FORCING.lock().unwrap_or_else(|e| e.into_inner());
        for strategy in [ExpandStrategy::Balanced, ExpandStrategy::Inputs] {
            set_expand_strategy(Some(strategy));
            for c in [0usize, 1, 2] {
                for n in [
                    MIN_CHUNK / 2 - 1,
                    MIN_CHUNK / 2 + 1,
                    MIN_CHUNK - 1,
                    MIN_CHUNK + 7,
                    3 * MIN_CHUNK,
                ] {
                    let count = |&i: &usize| if i % 3 == 0 { c } else { c + 1 };
                    let e = Expansion::new(n, |i| i, count);
                    let parts = e.walk_with(
                        strategy,
                        PER_THREAD,
                        &|i| i,
                        &count,
                        |_| Vec::new(),
                        |v: &mut Vec<(usize, usize, usize)>, &i, ks: Range<usize>, j| {
                            assert!(!ks.is_empty());
                            v.extend(ks.clone().map(|k| (i, k, j + k - ks.start)))
                        },
                    );
                    let got: Vec<(usize, usize, usize)> = parts.into_iter().flatten().collect();
                    let want: Vec<(usize, usize)> =
                        (0..n).flat_map(|i| (0..count(&i)).map(move |k| (i, k))).collect();
                    assert_eq!(e.total(), want.len());
                    assert_eq!(got.len(), want.len(), "n = {n}, c = {c}, {strategy:?}");
                    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                        assert_eq!(*g, (w.0, w.1, j), "n = {n}, c = {c}, {strategy:?}");
                    }
                    // An associative, non-commutative fold (affine maps
                    // composed): the order is sequential.
                    let g = |a: (u64, u64), b: (u64, u64)| {
                        (a.0.wrapping_mul(b.0), a.1.wrapping_mul(b.0).wrapping_add(b.1))
                    };
                    let v = |i: usize, k: usize| (3 + 2 * ((i * 11 + k) % 5) as u64, (i * 11 + k) as u64);
                    let f = e.fold1(|i| i, count, |_| (), whole_runs, |&i, _, _, _, k| v(i, k), g);
                    let w = want.iter().map(|&(i, k)| v(i, k)).reduce(g);
                    assert_eq!(f, w, "n = {n}, c = {c}, {strategy:?}");
                }
            }
        }
        set_expand_strategy(None);
    }

    /// Runs split into rows: each element gets its row's values and its
    /// place in the row, across chunk boundaries, in order; a row length of
    /// 0 counts as 1 and one past the run's end is cut there.
    #[test]
    fn rows_give_each_element_its_row() {
        let _turn = FORCING.lock().unwrap_or_else(|e| e.into_inner());
        for strategy in [ExpandStrategy::Balanced, ExpandStrategy::Inputs] {
            set_expand_strategy(Some(strategy));
            for w in [1usize, 3, 12, 1000] {
                let n = 3 * BLOCK + 1;
                let e = Expansion::new(n, |i| i, |&i| sizes(i));
                // Rows of `w`; input 5's rows claim too much, input 6's nothing.
                let rows = |&i: &usize, _: &(), k: usize, end: usize| {
                    let len = match i % 7 {
                        5 => end - k + 10,
                        6 => 0,
                        _ => w - k % w,
                    };
                    (len, (k / w, k % w))
                };
                let v = |i: usize, k: usize| (3 + 2 * ((i * 11 + k) % 5) as u64, (i * 11 + k) as u64);
                let value = |&i: &usize, _: &(), row: &(usize, usize), j: usize, k: usize| {
                    // `k` rebuilt from the row's start and the place in it.
                    let at = match i % 7 {
                        5 | 6 => k,
                        _ => row.0 * w + row.1 + j,
                    };
                    v(i, at)
                };
                let g = |a: (u64, u64), b: (u64, u64)| {
                    (a.0.wrapping_mul(b.0), a.1.wrapping_mul(b.0).wrapping_add(b.1))
                };
                let want = reference(n).into_iter().map(|(i, k)| v(i, k)).reduce(g);
                assert_eq!(
                    e.fold1(|i| i, |&i| sizes(i), |_| (), rows, value, g),
                    want,
                    "{w} {strategy:?}"
                );
                let mut got = vec![0u64; 101];
                let target = |x: &usize, p: &(), row: &(usize, usize), j: usize, k: usize, _: usize| {
                    Some(((x * 7 + k) % 101, value(x, p, row, j, k).1))
                };
                e.permute_atomic(
                    &mut got,
                    |i| i,
                    |&i| sizes(i),
                    |_| (),
                    rows,
                    target,
                    AtomicOp::Add,
                );
                let mut want = vec![0u64; 101];
                for (i, k) in reference(n) {
                    want[(i * 7 + k) % 101] += v(i, k).1;
                }
                assert_eq!(got, want, "{w} {strategy:?}");
            }
        }
        set_expand_strategy(None);
    }

    #[test]
    fn permutes_into_few_and_many_targets() {
        let n = 2 * BLOCK + 5;
        let e = Expansion::new(n, |i| i, |&i| sizes(i));
        // Few targets (private tables per chunk) and many (buckets).
        for slots in [97, 1_000_003] {
            let target = |&i: &usize, k: usize, j: usize| {
                (!j.is_multiple_of(3)).then(|| ((i * 7 + k) % slots, (i + k) as i64))
            };
            let mut want = vec![1i64; slots];
            let mut j = 0;
            for i in 0..n {
                for k in 0..sizes(i) {
                    if let Some((t, v)) = target(&i, k, j) {
                        want[t] += v;
                    }
                    j += 1;
                }
            }
            let mut plain = vec![1i64; slots];
            let target_value = |i: &usize, _: &(), _: &(), _, k, j| target(i, k, j);
            e.permute(
                &mut plain,
                |i| i,
                |&i| sizes(i),
                |_| (),
                whole_runs,
                target_value,
                |a, b| a + b,
            );
            assert_eq!(plain, want, "{slots} slots");
            let mut atomic = vec![1i64; slots];
            e.permute_atomic(
                &mut atomic,
                |i| i,
                |&i| sizes(i),
                |_| (),
                whole_runs,
                target_value,
                AtomicOp::Add,
            );
            assert_eq!(atomic, want, "{slots} slots");
        }
    }

    /// A combination that is associative but not commutative keeps the
    /// elements' order through the private tables (5 targets) and through
    /// the buckets (a million), on one thread and on four.
    #[test]
    fn permutes_keep_the_order() {
        use super::super::testing::{h, in_pools, mul, MCols, M};
        let n = 2 * BLOCK + 5;
        let e = Expansion::new(n, |i| i, |&i| sizes(i));
        // Two shears that do not commute; of determinant 1, so that their
        // products do not wrap to zero.
        let shear = |j: usize| if h(j) & 1 == 0 { (1, 1, 0, 1) } else { (1, 0, 1, 1) };
        for slots in [5, 1_000_003] {
            let target = |&i: &usize, k: usize, j: usize| Some(((i * 7 + k) % slots, shear(j)));
            let mut want: Vec<M> = vec![(1, 0, 0, 1); slots];
            let mut j = 0;
            for i in 0..n {
                for k in 0..sizes(i) {
                    let (t, v) = target(&i, k, j).unwrap();
                    want[t] = mul(v, want[t]);
                    j += 1;
                }
            }
            in_pools(|| {
                let mut got: MCols = (vec![1; slots], vec![0; slots], vec![0; slots], vec![1; slots]);
                let target_value = |i: &usize, _: &(), _: &(), _, k, j| target(i, k, j);
                e.permute(
                    &mut got,
                    |i| i,
                    |&i| sizes(i),
                    |_| (),
                    whole_runs,
                    target_value,
                    mul,
                );
                assert_eq!(got.to_elems(), want, "{slots} slots");
            });
        }
    }
}
