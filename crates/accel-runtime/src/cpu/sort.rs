//! A stable radix sort by unsigned keys, eight bits per digit, in parallel.
//!
//! One parallel pass over the keys finds the digits on which they differ (a
//! digit on which all keys agree needs no pass) and counts the keys' highest
//! digit per chunk of the input (keys in a narrow range take a second pass to
//! count their highest varying digit). That digit is sorted first: each chunk
//! scatters its elements, in order, from its own offset per digit value, so
//! the chunks' writes are disjoint and the order of equal digits is kept.
//! That splits the elements into up to 256 buckets, sorted independently and
//! in parallel, each by a sequential least-significant-digit sort on the
//! digits below (a bucket of 400k random keys holds about 1,600 elements, so
//! its passes run in the core's own cache, where a pass over the whole array
//! streams it through the shared one). A bucket too large for one thread
//! (skewed keys) is split again the same way, on its next digit; a tiny one
//! is sorted by insertion. Below `BUCKETED` elements one thread sorts digit
//! by digit. Every step is stable, so the sort is.
//!
//! Sorting is memory-bound, so [`sort_by_key`] moves the elements alone
//! between the output and one buffer and computes their keys again;
//! [`sort_by_stored_key`], for keys that read other arrays, moves (key,
//! element) pairs.

use super::par::{self, threads};
use super::MIN_CHUNK;
use crate::elem::{Columns, OutPtr};
use std::ops::{BitAnd, BitOr, BitXor, Range};

const RADIX: usize = 256;
/// The most digits of a key (`u64`).
const MAX_DIGITS: usize = 8;
/// Buckets of at most this many elements are sorted by insertion.
const INSERTION: usize = 32;
/// Below this many elements the first digit's buckets are too small to pay
/// for their own passes: one thread sorts digit by digit. (On two cores,
/// random `i32` keys: 0.14 ms against 0.22 ms bucketed at 20,000 elements,
/// 0.35 ms against 0.28 ms at 50,000.)
const BUCKETED: usize = 1 << 15;

/// Unsigned keys: `u32` and `u64`.
pub trait RadixKey:
    Copy + Ord + Send + Sync + 'static + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self>
{
    const DIGITS: usize;
    const ZERO: Self;
    const ONES: Self;
    /// Digit `d` (eight bits, least significant first).
    fn digit(self, d: usize) -> usize;
}

impl RadixKey for u32 {
    const DIGITS: usize = 4;
    const ZERO: u32 = 0;
    const ONES: u32 = u32::MAX;
    #[inline(always)]
    fn digit(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

impl RadixKey for u64 {
    const DIGITS: usize = 8;
    const ZERO: u64 = 0;
    const ONES: u64 = u64::MAX;
    #[inline(always)]
    fn digit(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

/// The `n` elements `elem(i)` sorted stably by `key`, a cheap function of
/// the element: the passes move the elements alone, between the output and
/// one buffer, and compute the keys again where they need them.
pub fn sort_by_key<C: Columns, K: RadixKey>(
    n: usize,
    elem: impl Fn(usize) -> C::Elem + Sync,
    key: impl Fn(C::Elem) -> K + Sync,
) -> C {
    let mut out = C::with_capacity(n);
    let mut spare = C::with_capacity(n);
    let (a, b) = (Cols::<C>(out.out_ptr()), Cols::<C>(spare.out_ptr()));
    // A range sorted in the spare buffer is copied back.
    let leaf = |r: Range<usize>, in_a: bool| {
        if !in_a {
            for i in r {
                // SAFETY: the range's slots of `b` hold its sorted elements;
                // its slots of `a` are this task's alone.
                unsafe { a.put(i, b.get(i)) }
            }
        }
    };
    Sorter::new(a, b, &key, &leaf, n).sort(n, &elem);
    // SAFETY: every slot below `n` of `a` was written by a leaf.
    unsafe { out.set_len(n) };
    out
}

/// As [`sort_by_key`], for keys that are costly to compute again (they read
/// other arrays, as `sort_indices`' do): the passes move (key, element)
/// pairs between two buffers, and each sorted range writes its elements to
/// the output.
pub fn sort_by_stored_key<C: Columns, K: RadixKey>(
    n: usize,
    elem: impl Fn(usize) -> C::Elem + Sync,
    key: impl Fn(C::Elem) -> K + Sync,
) -> C {
    let mut out = C::with_capacity(n);
    let mut pairs: Vec<(K, C::Elem)> = Vec::with_capacity(n);
    let mut spare: Vec<(K, C::Elem)> = Vec::with_capacity(n);
    let (a, b) = (OutPtr(pairs.as_mut_ptr()), OutPtr(spare.as_mut_ptr()));
    let dst = out.out_ptr();
    let leaf = |r: Range<usize>, in_a: bool| {
        let from = if in_a { a } else { b };
        for i in r {
            // SAFETY: the range's slots of `from` hold its sorted pairs; its
            // slots of the output are this task's alone.
            unsafe { C::write(dst, i, from.get(i).1) }
        }
    };
    let first = |i: usize| {
        let x = elem(i);
        (key(x), x)
    };
    Sorter::new(a, b, &|p: (K, C::Elem)| p.0, &leaf, n).sort(n, &first);
    // SAFETY: every slot below `n` of the output was written by a leaf.
    unsafe { out.set_len(n) };
    out
}

/// Where a sort's items live between passes: slots read and written by
/// position, from several threads at once (each slot by one).
trait Store: Copy + Send + Sync {
    type Item: Copy + Send + Sync;
    /// # Safety
    /// Slot `i` has been written, and no thread writes it now.
    unsafe fn get(self, i: usize) -> Self::Item;
    /// # Safety
    /// Slot `i` is within the capacity, and no other thread uses it now.
    unsafe fn put(self, i: usize, x: Self::Item);
}

/// The columns of [`sort_by_key`]'s output or spare buffer.
struct Cols<C: Columns>(C::Out);

impl<C: Columns> Clone for Cols<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: Columns> Copy for Cols<C> {}

impl<C: Columns> Store for Cols<C> {
    type Item = C::Elem;
    #[inline(always)]
    unsafe fn get(self, i: usize) -> C::Elem {
        // SAFETY: forwarded contract.
        unsafe { C::read(self.0, i) }
    }
    #[inline(always)]
    unsafe fn put(self, i: usize, x: C::Elem) {
        // SAFETY: forwarded contract.
        unsafe { C::write(self.0, i, x) }
    }
}

// A vector's buffer ([`sort_by_stored_key`]'s pairs); threads share it to
// use disjoint slots.
impl<T: Copy + Send + Sync> Store for OutPtr<T> {
    type Item = T;
    #[inline(always)]
    unsafe fn get(self, i: usize) -> T {
        // SAFETY: forwarded contract.
        unsafe { self.0.add(i).read() }
    }
    #[inline(always)]
    unsafe fn put(self, i: usize, x: T) {
        // SAFETY: forwarded contract.
        unsafe { self.0.add(i).write(x) }
    }
}

/// Counts of digit values: `hist[j][value]` for the `j`th digit sorted on.
type Hist = [[u32; RADIX]; MAX_DIGITS];

/// One sort: the two buffers (`a`, `b`) its passes move items between, the
/// key of an item, and `leaf(range, in_a)`, called once for each range of
/// the final order when its items are sorted in `a` (`in_a`) or `b`; the
/// ranges cover the input.
struct Sorter<'f, S, F, L> {
    a: S,
    b: S,
    key: &'f F,
    leaf: &'f L,
    /// Buckets above this many items are split in parallel.
    big: usize,
}

impl<'f, S: Store, K: RadixKey, F: Fn(S::Item) -> K + Sync, L: Fn(Range<usize>, bool) + Sync>
    Sorter<'f, S, F, L>
{
    fn new(a: S, b: S, key: &'f F, leaf: &'f L, n: usize) -> Self {
        // A bucket's counts are `u32`.
        let big = BUCKETED.max(n / (2 * threads())).min(u32::MAX as usize);
        Sorter { a, b, key, leaf, big }
    }

    fn buf(&self, in_a: bool) -> S {
        if in_a {
            self.a
        } else {
            self.b
        }
    }

    /// Sorts the items `get(i)`, `i < n`.
    fn sort(&self, n: usize, get: &(impl Fn(usize) -> S::Item + Sync)) {
        if n == 0 {
            return;
        }
        let size = chunk_size(n);
        let key_at = |i: usize| (self.key)(get(i));
        let high = K::DIGITS - 1;
        let (hist, varying) = survey(0..n, size, key_at, high);
        let Some((&top, below)) = varying.split_last() else {
            // All keys are equal (or there are none): the input order.
            let a = self.a;
            par::for_each(n.div_ceil(size), &|c| {
                let chunk = c * size..((c + 1) * size).min(n);
                for i in chunk.clone() {
                    // SAFETY: each slot below `n` is written once, by its chunk.
                    unsafe { a.put(i, get(i)) };
                }
                (self.leaf)(chunk, true);
            });
            return;
        };
        if n < BUCKETED {
            let mut counts = [[0u32; RADIX]; MAX_DIGITS];
            count_into(0..n, key_at, &varying, &mut counts);
            // The last pass writes `a`.
            let in_a = self.lsd(0..n, get, varying.len() % 2 == 1, &varying, &counts);
            (self.leaf)(0..n, in_a);
            return;
        }
        // Buckets of evenly spread keys then make one pass per digit below
        // and end in `a`.
        let into_a = below.len() % 2 == 0;
        self.split(0..n, size, get, (high, hist), top, below, into_a);
    }

    /// Scatters the items `get(i)` of `range` by `top`, the highest digit on
    /// which their keys differ, into buffer `into_a`, and sorts the buckets
    /// by the digits `below`. `counted`: a digit and its counts per chunk of
    /// `size`, counted again unless the digit is `top`.
    #[allow(clippy::too_many_arguments)]
    fn split(
        &self,
        range: Range<usize>,
        size: usize,
        get: &(impl Fn(usize) -> S::Item + Sync),
        counted: (usize, Vec<[usize; RADIX]>),
        top: usize,
        below: &[usize],
        into_a: bool,
    ) {
        let hist = match counted {
            (d, hist) if d == top => hist,
            _ => count_digit(range.clone(), size, |i| (self.key)(get(i)), top),
        };
        let starts = scatter(range, size, top, &hist, get, self.key, self.buf(into_a));
        self.buckets(&starts, into_a, below);
    }

    /// Sorts each bucket `starts[v]..starts[v + 1]` of buffer `in_a` by the
    /// digits `below`.
    fn buckets(&self, starts: &[usize; RADIX + 1], in_a: bool, below: &[usize]) {
        // Each task reuses one table of counts for its buckets.
        par::for_each_with(
            RADIX,
            || Box::new([[0u32; RADIX]; MAX_DIGITS]),
            &|v, hist: &mut Box<Hist>| self.bucket(starts[v]..starts[v + 1], in_a, below, hist),
        );
    }

    /// Sorts `range` of buffer `in_a`, whose keys agree on every digit above
    /// those of `digits` (ascending), by these (`hist`: room for counts).
    fn bucket(&self, range: Range<usize>, in_a: bool, digits: &[usize], hist: &mut Hist) {
        let len = range.len();
        let src = self.buf(in_a);
        if len <= INSERTION || digits.is_empty() {
            if !digits.is_empty() {
                self.insertion(range.clone(), src);
            }
            (self.leaf)(range, in_a);
            return;
        }
        if len > self.big {
            // Split again, in parallel, on the highest digit that varies.
            let size = chunk_size(len);
            // SAFETY: the bucket's slots of `src` hold its items.
            let get = |i: usize| unsafe { src.get(i) };
            // The keys agree on every digit not in `digits`, so the digits
            // that vary are among these.
            let high = digits[digits.len() - 1];
            let (hist, varying) = survey(range.clone(), size, |i| (self.key)(get(i)), high);
            let Some((&top, below)) = varying.split_last() else {
                (self.leaf)(range, in_a);
                return;
            };
            self.split(range, size, &get, (high, hist), top, below, !in_a);
            return;
        }
        // SAFETY: the bucket's slots of `src` hold its items.
        count_into(range.clone(), |i| (self.key)(unsafe { src.get(i) }), digits, hist);
        let mut varying = [0usize; MAX_DIGITS];
        let mut passes = 0;
        for (j, &d) in digits.iter().enumerate() {
            if hist[j].iter().all(|&c| c as usize != len) {
                hist[passes] = hist[j];
                varying[passes] = d;
                passes += 1;
            }
        }
        // SAFETY: as above.
        let get = |i: usize| unsafe { src.get(i) };
        let in_a = if passes == 0 {
            in_a
        } else {
            self.lsd(range.clone(), &get, !in_a, &varying[..passes], hist)
        };
        (self.leaf)(range, in_a);
    }

    /// One thread sorts `range` digit by digit (`digits` ascending, their
    /// counts `hist[j]` for `digits[j]`), the first pass reading `get` and
    /// writing buffer `first_a`, each later pass reading what the one before
    /// wrote; returns whether the last wrote `a`.
    fn lsd(
        &self,
        range: Range<usize>,
        get: &impl Fn(usize) -> S::Item,
        first_a: bool,
        digits: &[usize],
        hist: &Hist,
    ) -> bool {
        let key = self.key;
        let mut into_a = first_a;
        for (j, &d) in digits.iter().enumerate() {
            let mut at = [0usize; RADIX];
            let mut pos = range.start;
            for (o, &c) in at.iter_mut().zip(&hist[j]) {
                *o = pos;
                pos += c as usize;
            }
            let (dst, src) = (self.buf(into_a), self.buf(!into_a));
            let mut place = |x: S::Item| {
                let v = key(x).digit(d);
                // SAFETY: the slots `at` visits are the range's, each once.
                unsafe { dst.put(at[v], x) };
                at[v] += 1;
            };
            if j == 0 {
                range.clone().for_each(|i| place(get(i)));
            } else {
                // SAFETY: the previous pass wrote the range's slots of `src`.
                range.clone().for_each(|i| place(unsafe { src.get(i) }));
            }
            into_a = !into_a;
        }
        !into_a
    }

    /// Sorts the few items of `range` in `buf` in place, stably.
    fn insertion(&self, range: Range<usize>, buf: S) {
        let key = self.key;
        for i in range.start + 1..range.end {
            // SAFETY: the range's slots of `buf` hold its items, and are
            // this task's alone.
            unsafe {
                let x = buf.get(i);
                let k = key(x);
                let mut j = i;
                while j > range.start {
                    let y = buf.get(j - 1);
                    if key(y) <= k {
                        break;
                    }
                    buf.put(j, y);
                    j -= 1;
                }
                buf.put(j, x);
            }
        }
    }
}

/// One pass over the keys `key_at(i)`, `i` in `range`: the counts of digit
/// `d` per chunk of `size`, and the digits on which some keys differ (from
/// the bits that differ: those of the keys' OR that are not in their AND).
fn survey<K: RadixKey>(
    range: Range<usize>,
    size: usize,
    key_at: impl Fn(usize) -> K + Sync,
    d: usize,
) -> (Vec<[usize; RADIX]>, Vec<usize>) {
    let per_chunk: Vec<([usize; RADIX], K, K)> = par::map(range.len().div_ceil(size), |c| {
        let mut h = [0usize; RADIX];
        let (mut and, mut or) = (K::ONES, K::ZERO);
        let lo = range.start + c * size;
        for i in lo..(lo + size).min(range.end) {
            let k = key_at(i);
            h[k.digit(d)] += 1;
            and = and & k;
            or = or | k;
        }
        (h, and, or)
    });
    let (and, or) = per_chunk
        .iter()
        .fold((K::ONES, K::ZERO), |(a, o), &(_, x, y)| (a & x, o | y));
    let differ = and ^ or;
    let varying = (0..K::DIGITS).filter(|&d| differ.digit(d) != 0).collect();
    (per_chunk.into_iter().map(|(h, _, _)| h).collect(), varying)
}

/// One thread counts `digits[j]` of the keys `key_at(i)`, `i` in `range`,
/// into `hist[j]`.
fn count_into<K: RadixKey>(
    range: Range<usize>,
    key_at: impl Fn(usize) -> K,
    digits: &[usize],
    hist: &mut Hist,
) {
    for h in &mut hist[..digits.len()] {
        h.fill(0);
    }
    for i in range {
        let k = key_at(i);
        for (&d, h) in digits.iter().zip(hist.iter_mut()) {
            h[k.digit(d)] += 1;
        }
    }
}

/// The counts of digit `d` of the keys `key_at(i)` per chunk of `size` of
/// `range`.
fn count_digit<K: RadixKey>(
    range: Range<usize>,
    size: usize,
    key_at: impl Fn(usize) -> K + Sync,
    d: usize,
) -> Vec<[usize; RADIX]> {
    par::map(range.len().div_ceil(size), |c| {
        let mut h = [0usize; RADIX];
        let lo = range.start + c * size;
        for i in lo..(lo + size).min(range.end) {
            h[key_at(i).digit(d)] += 1;
        }
        h
    })
}

/// Scatters the items `get(i)` of `range` to `dst` in the order of digit `d`
/// of their keys, stably, each chunk of `size` from its own offsets (`hist`:
/// the digit's counts per chunk); returns where each value's bucket starts,
/// and the range's end.
fn scatter<S: Store, K: RadixKey>(
    range: Range<usize>,
    size: usize,
    d: usize,
    hist: &[[usize; RADIX]],
    get: &(impl Fn(usize) -> S::Item + Sync),
    key: &(impl Fn(S::Item) -> K + Sync),
    dst: S,
) -> [usize; RADIX + 1] {
    // Offsets: digit-major, then chunk order.
    let mut offsets = hist.to_vec();
    let mut starts = [0usize; RADIX + 1];
    let mut pos = range.start;
    for (v, start) in starts.iter_mut().enumerate().take(RADIX) {
        *start = pos;
        for (c, h) in hist.iter().enumerate() {
            offsets[c][v] = pos;
            pos += h[v];
        }
    }
    starts[RADIX] = pos;
    let (lo, end) = (range.start, range.end);
    par::for_each(offsets.len(), &|c| {
        let (mut at, first) = (offsets[c], lo + c * size);
        for i in first..(first + size).min(end) {
            let x = get(i);
            let v = key(x).digit(d);
            // SAFETY: the chunks' offsets are disjoint, and each slot of the
            // range is written once.
            unsafe { dst.put(at[v], x) };
            at[v] += 1;
        }
    });
    starts
}

/// Elements per chunk: a few chunks per thread, none below `MIN_CHUNK`.
fn chunk_size(n: usize) -> usize {
    n.div_ceil(threads() * 2).max(MIN_CHUNK)
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;

    /// `elem(i)` sorted by `std`'s stable sort, and by `sort_by_key`.
    fn both<K: RadixKey + Ord>(n: usize, key: impl Fn((u32, u32)) -> K + Sync) -> [Vec<(u32, u32)>; 2] {
        // Elements carry their index, so an unstable order shows.
        let elem = |i: usize| (h(i), i as u32);
        let mut want: Vec<(u32, u32)> = (0..n).map(elem).collect();
        want.sort_by_key(|&x| key(x));
        let got: (Vec<u32>, Vec<u32>) = sort_by_key(n, elem, &key);
        let stored: (Vec<u32>, Vec<u32>) = sort_by_stored_key(n, elem, &key);
        assert_eq!(got, stored, "the two forms, n = {n}");
        [want, got.to_elems()]
    }

    #[test]
    fn sorts_stably_at_every_size_and_key_range() {
        for n in sizes() {
            // All digits vary; few distinct keys (many ties); one key (no pass);
            // only the highest digit varies.
            let [w, g] = both(n, |(x, _)| x);
            assert_eq!(w, g, "full u32 keys, n = {n}");
            let [w, g] = both(n, |(x, _)| x % 5);
            assert_eq!(w, g, "keys mod 5, n = {n}");
            let [w, g] = both(n, |_| 7u32);
            assert_eq!(w, g, "one key, n = {n}");
            let [w, g] = both(n, |(x, _)| (x & 0xff00_0000) as u64 | 1 << 40);
            assert_eq!(w, g, "u64 keys, one varying digit, n = {n}");
            let [w, g] = both(n, |(x, i)| ((x as u64) << 20) ^ i as u64);
            assert_eq!(w, g, "u64 keys, n = {n}");
        }
    }

    /// Sizes that split by the first digit into buckets: even buckets; one
    /// bucket too large for one thread, split again (once with a digit on
    /// which its keys agree), beside tiny ones sorted by insertion; keys
    /// whose highest varying digit is not the key's highest.
    #[test]
    fn sorts_stably_in_buckets() {
        in_pools(|| {
            for n in [BUCKETED, 3 * BUCKETED + 5] {
                let [w, g] = both(n, |(x, _)| x);
                assert_eq!(w, g, "full u32 keys, n = {n}");
                let skewed = |(x, i): (u32, u32)| if i % 100 == 0 { x } else { x & 0x00ff_00ff };
                let [w, g] = both(n, skewed);
                assert_eq!(w, g, "one large bucket, n = {n}");
                let [w, g] = both(n, |(x, _)| x >> 12);
                assert_eq!(w, g, "20-bit keys, n = {n}");
                let [w, g] = both(n, |(x, i)| ((x as u64) << 24) ^ (i as u64 % 3));
                assert_eq!(w, g, "u64 keys, n = {n}");
                let [w, g] = both(n, |(x, _)| (x & 0x8000_0001) as u64);
                assert_eq!(w, g, "two bits far apart, n = {n}");
            }
        });
    }
}
