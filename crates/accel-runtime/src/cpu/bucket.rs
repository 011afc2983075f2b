//! Combining sources into many targets through buckets by target range.
//!
//! A permute whose targets are many (a histogram of a million bins, a
//! graph's scatter-add over its vertices) cannot give each thread a private
//! table (as large as the output, zeroed and merged) at a profit, and an
//! atomic instruction or a lock per source costs several plain updates.
//! Instead the sources are sorted by one radix digit of their targets:
//! 1. each thread takes a contiguous part of the sources, computes their
//!    targets, counts them per target range, and writes each (target,
//!    value) pair into its range's place in the part's buffer (a counting
//!    sort within the part, in source order);
//! 2. each target range is then combined by one task alone: the part
//!    buffers' pairs for the range, part by part, with plain updates.
//!
//! No two tasks touch one slot, so no update needs to be atomic, and the
//! updates of a slot happen in source order (parts in order, sources in
//! order within a part): the combination need not commute. A range is small
//! enough to stay in a core's cache while it is combined, which random
//! updates into the whole output would not. The sources go through in blocks,
//! so the buffers stay bounded whatever their number.

use super::par::{self, threads, Split};
use super::pool;
use std::ops::Range;

/// Sources per block: the pair buffers of a block (a target and a value
/// per source) are reused by the next.
const BLOCK: usize = 1 << 21;
/// Sources per part: a part's targets (kept between counting and placing)
/// stay in a core's cache (parts of 2^15 sources took 3.5 ms for a million
/// sources into a million targets on 2 cores, against 4.7 ms for one part
/// per thread).
const PART: usize = 1 << 15;

/// How the targets `0..n_out` are cut into ranges: about eight per thread
/// (balance: some ranges take most sources, as a histogram's crowded bins
/// do), each a power of two in size, so that a target's place in its range
/// fits a `u32`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ranges {
    shift: u32,
    count: usize,
}

impl Ranges {
    pub(super) fn of(n_out: usize) -> Ranges {
        let slots = n_out.div_ceil(8 * threads()).max(1).next_power_of_two();
        let shift = slots.trailing_zeros().min(u32::BITS);
        Ranges {
            shift,
            count: n_out.div_ceil(1 << shift).max(1),
        }
    }

    /// Target `t`'s range, and its place there.
    #[inline(always)]
    fn split(self, t: usize) -> (usize, u32) {
        (t >> self.shift, (t & ((1usize << self.shift) - 1)) as u32)
    }

    /// `apply(t, v)` for every pair of every part, each range by one task
    /// (in parallel), the parts in order: see [`combine_by_range`].
    fn combine<E: Copy, P: Sync>(
        self,
        parts: &[P],
        range: impl Fn(&P, usize) -> &[(u32, E)] + Sync,
        apply: &(impl Fn(usize, E) + Sync),
    ) {
        par::for_each(self.count, &|q| {
            let base = q << self.shift;
            for part in parts {
                for &(at, v) in range(part, q) {
                    apply(base + at as usize, v);
                }
            }
        });
    }
}

/// For each source `i` in `0..src_n` whose `target(i)` is `Some(t)` with
/// `t < n_out`, `apply(t, value(i))`, in source order per target: `value` runs
/// only for such sources, after `target` ran for every source of its part.
///
/// `apply` is called from several threads at once, but never for targets of
/// one range at once, and for each target in source order: the caller may
/// update slot `t` with plain reads and writes.
pub(super) fn combine_by_range<E: Copy + Send + Sync>(
    n_out: usize,
    src_n: usize,
    target: &(impl Fn(usize) -> Option<usize> + Sync),
    value: &(impl Fn(usize) -> E + Sync),
    apply: &(impl Fn(usize, E) + Sync),
) {
    let ranges = Ranges::of(n_out);
    for block in Split::new(src_n, BLOCK).ranges() {
        let parts = Split::into_parts(block.len(), (block.len() / PART).max(threads() * 2));
        let sorted: Vec<Sorted<E>> = parts.map(|r| {
            Sorted::of(
                block.start + r.start..block.start + r.end,
                n_out,
                ranges,
                target,
                value,
            )
        });
        ranges.combine(&sorted, Sorted::range, apply);
        sorted.into_iter().for_each(|s| pool::recycle(s.pairs));
    }
}

/// The pairs of one part of sources whose targets come one at a time (an
/// expansion's walk), in a growing vector per target range, in source order.
pub(super) struct Buckets<E> {
    ranges: Ranges,
    pairs: Vec<Vec<(u32, E)>>,
}

impl<E: Copy + Send + Sync> Buckets<E> {
    pub(super) fn new(ranges: Ranges) -> Self {
        Buckets {
            ranges,
            pairs: (0..ranges.count).map(|_| Vec::new()).collect(),
        }
    }

    /// Adds the pair of a source with target `t` (below the output's length).
    #[inline]
    pub(super) fn push(&mut self, t: usize, v: E) {
        let (q, at) = self.ranges.split(t);
        self.pairs[q].push((at, v));
    }

    /// `apply(t, v)` for the pairs of `parts`, as [`combine_by_range`] does
    /// (each range by one task, the parts in order).
    pub(super) fn combine(ranges: Ranges, parts: &[Buckets<E>], apply: &(impl Fn(usize, E) + Sync)) {
        ranges.combine(parts, |b, q| &b.pairs[q], apply);
    }
}

/// One part's sources with a target, as (place in the target's range,
/// value), sorted by target range.
struct Sorted<E> {
    pairs: Vec<(u32, E)>,
    /// Where range `q`'s pairs start (`starts[q]..starts[q + 1]`).
    starts: Vec<usize>,
}

/// Marks a source without a target (or one beyond the output).
const NONE: usize = usize::MAX;

impl<E: Copy> Sorted<E> {
    /// The pairs of the sources `r`, counting-sorted by target range.
    #[inline(never)]
    fn of(
        r: Range<usize>,
        n_out: usize,
        ranges: Ranges,
        target: &impl Fn(usize) -> Option<usize>,
        value: &impl Fn(usize) -> E,
    ) -> Sorted<E> {
        let mut counts = vec![0usize; ranges.count + 1];
        let mut targets: Vec<usize> = pool::take(r.len());
        targets.extend(r.clone().map(|i| match target(i) {
            Some(t) if t < n_out => {
                counts[ranges.split(t).0 + 1] += 1;
                t
            }
            _ => NONE,
        }));
        for q in 0..ranges.count {
            counts[q + 1] += counts[q];
        }
        let starts = counts.clone();
        let total = counts[ranges.count];
        let mut pairs: Vec<(u32, E)> = pool::take(total);
        let out = pairs.as_mut_ptr();
        let mut next = counts;
        for (i, &t) in r.zip(&targets) {
            if t != NONE {
                let (q, at) = ranges.split(t);
                // SAFETY: the counts were taken over these same targets, so
                // range `q` has room for each of its pairs in
                // `starts[q]..starts[q + 1]`, all below `total`, the capacity.
                unsafe { out.add(next[q]).write((at, value(i))) };
                next[q] += 1;
            }
        }
        // SAFETY: every range's cursor reached its end, so each of the
        // `total` slots was written once above.
        unsafe { pairs.set_len(total) };
        pool::recycle(targets);
        Sorted { pairs, starts }
    }

    fn range(s: &Self, q: usize) -> &[(u32, E)] {
        &s.pairs[s.starts[q]..s.starts[q + 1]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Every pair in source order per target, against a sequential loop; on
    /// one and four threads, empty and odd sizes, targets out of range and
    /// absent.
    #[test]
    fn combines_each_target_in_source_order() {
        for threads in [1, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                for (src_n, n_out) in [
                    (0, 5),
                    (1, 1),
                    (7, 3),
                    (1000, 1),
                    (5000, 70_001),
                    (BLOCK + 13, 999),
                ] {
                    let target = |i: usize| (i % 7 != 3).then_some((i * 7919) % (n_out + 2));
                    let value = |i: usize| i as u64;
                    let mut want: Vec<Vec<u64>> = vec![Vec::new(); n_out];
                    for i in 0..src_n {
                        if let Some(t) = target(i).filter(|&t| t < n_out) {
                            want[t].push(value(i));
                        }
                    }
                    let got: Vec<Mutex<Vec<u64>>> = (0..n_out).map(|_| Mutex::new(Vec::new())).collect();
                    combine_by_range(n_out, src_n, &target, &value, &|t, v| {
                        got[t].lock().unwrap().push(v)
                    });
                    let got: Vec<Vec<u64>> = got.into_iter().map(|m| m.into_inner().unwrap()).collect();
                    assert_eq!(got, want, "{src_n} sources into {n_out} on {threads} threads");
                }
            });
        }
    }
}
