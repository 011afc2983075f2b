//! A stable least-significant-digit radix sort by unsigned keys, eight bits
//! per pass, in parallel.
//!
//! One parallel pass over the elements counts every digit of every key, per
//! chunk of the input; a pass whose digit is the same for all keys moves
//! nothing and is skipped (narrow key ranges sort in fewer passes). Each
//! pass splits its input into contiguous chunks and lets every chunk write
//! its elements, in order, from its own offset per digit: the chunks' writes
//! are disjoint and the order of equal digits is kept, so the sort is
//! stable. The offsets come from the digit's count per chunk, which the
//! previous pass makes as it places the elements (the first count, for the
//! first pass, which reads the elements where they are). Sorting is
//! memory-bound, so [`sort_by_key`] moves the elements alone between the
//! output and one buffer and computes their keys again; [`sort_by_stored_key`],
//! for keys that read other arrays, moves (key, element) pairs.

use super::MIN_CHUNK;
use crate::elem::Columns;
use rayon::prelude::*;

const RADIX: usize = 256;

/// Unsigned keys: `u32` and `u64`.
pub trait RadixKey: Copy + Send + Sync + 'static {
    const DIGITS: usize;
    /// Digit `d` (eight bits, least significant first).
    fn digit(self, d: usize) -> usize;
}

impl RadixKey for u32 {
    const DIGITS: usize = 4;
    #[inline(always)]
    fn digit(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

impl RadixKey for u64 {
    const DIGITS: usize = 8;
    #[inline(always)]
    fn digit(self, d: usize) -> usize {
        ((self >> (8 * d)) & 0xff) as usize
    }
}

/// A raw pointer shared by the chunks of one scatter, each writing its own slots.
#[derive(Clone, Copy)]
struct Dst<T>(*mut T);
// SAFETY: the chunks of a scatter write disjoint slots (see `scatter`).
unsafe impl<T: Send> Send for Dst<T> {}
unsafe impl<T: Send> Sync for Dst<T> {}

/// The `n` elements `elem(i)` sorted stably by `key`, a cheap function of
/// the element: the passes move the elements alone, between the output and
/// one buffer, and compute the keys again where they need them.
pub fn sort_by_key<C: Columns, K: RadixKey>(
    n: usize,
    elem: impl Fn(usize) -> C::Elem + Sync,
    key: impl Fn(C::Elem) -> K + Sync,
) -> C {
    let mut out = C::with_capacity(n);
    let size = chunk_size(n);
    let (first, passes) = digits(n, size, |i| key(elem(i)));
    let Some((&d0, rest)) = passes.split_first() else {
        return in_order::<C>(out, n, size, elem);
    };
    // Pass `p` of `P` writes to the output when `P - 1 - p` is even, so the
    // last one does; each pass reads what the one before it wrote, and counts
    // the next pass's digit as it goes.
    let mut spare = C::with_capacity(if rest.is_empty() { 0 } else { n });
    let (o, t) = (out.out_ptr(), spare.out_ptr());
    let to_out = |p: usize| (passes.len() - 1 - p).is_multiple_of(2);
    let mut hist: Vec<_> = first.iter().map(|h| h[d0]).collect();
    for (p, &d) in passes.iter().enumerate() {
        let next = (p + 1 < passes.len()).then(|| passes[p + 1]);
        let (dst, src) = if to_out(p) { (o, t) } else { (t, o) };
        let write = |i: usize, (_, x): (K, C::Elem)| {
            // SAFETY: a scatter writes each slot below `n` (within the
            // capacity) exactly once.
            unsafe { C::write(dst, i, x) }
        };
        hist = if p == 0 {
            let pair = |i: usize| {
                let x = elem(i);
                (key(x), x)
            };
            scatter(n, size, d, next, &hist, pair, write)
        } else {
            // SAFETY: the previous pass wrote every slot below `n` of `src`
            // (and set its length).
            let pair = |i: usize| {
                let x = unsafe { C::read(src, i) };
                (key(x), x)
            };
            scatter(n, size, d, next, &hist, pair, write)
        };
        // SAFETY: the pass wrote every slot below `n` of its destination.
        unsafe {
            if to_out(p) {
                out.set_len(n);
            } else {
                spare.set_len(n);
            }
        }
    }
    out
}

/// As [`sort_by_key`], for keys that are costly to compute again (they read
/// other arrays, as `sort_indices`' do): the passes move (key, element)
/// pairs between two buffers, the first pass reading the elements where
/// they are and the last writing them to the output.
pub fn sort_by_stored_key<C: Columns, K: RadixKey>(
    n: usize,
    elem: impl Fn(usize) -> C::Elem + Sync,
    key: impl Fn(C::Elem) -> K + Sync,
) -> C {
    let mut out = C::with_capacity(n);
    let size = chunk_size(n);
    let (first, passes) = digits(n, size, |i| key(elem(i)));
    let Some(&last) = passes.last() else {
        return in_order::<C>(out, n, size, elem);
    };
    let pair = |i: usize| {
        let x = elem(i);
        (key(x), x)
    };
    let dst = out.out_ptr();
    let to_out = |i: usize, (_, x): (K, C::Elem)| {
        // SAFETY: a scatter writes every slot below `n` exactly once.
        unsafe { C::write(dst, i, x) }
    };
    if passes.len() == 1 {
        let hist: Vec<_> = first.iter().map(|h| h[last]).collect();
        scatter(n, size, last, None, &hist, pair, to_out);
        // SAFETY: the scatter wrote every slot below `n`.
        unsafe { out.set_len(n) };
        return out;
    }
    let mut pairs: Vec<(K, C::Elem)> = Vec::with_capacity(n);
    let mut spare: Vec<(K, C::Elem)> = Vec::with_capacity(n);
    let mut hist: Vec<_> = first.iter().map(|h| h[passes[0]]).collect();
    for (p, &d) in passes.iter().enumerate() {
        let next = (p + 1 < passes.len()).then(|| passes[p + 1]);
        if p == 0 {
            let to = Dst(pairs.as_mut_ptr());
            // SAFETY: the scatter writes every slot below `n` (the capacity) once.
            hist = scatter(n, size, d, next, &hist, pair, |i, kx| unsafe {
                to.get().add(i).write(kx)
            });
            // SAFETY: ... so all of them are initialised.
            unsafe { pairs.set_len(n) };
            continue;
        }
        let from = |i: usize| pairs[i];
        if d == last {
            scatter(n, size, d, None, &hist, from, to_out);
        } else {
            let to = Dst(spare.as_mut_ptr());
            // SAFETY: as for the first pass.
            hist = scatter(n, size, d, next, &hist, from, |i, kx| unsafe {
                to.get().add(i).write(kx)
            });
            // SAFETY: as for the first pass.
            unsafe { spare.set_len(n) };
            std::mem::swap(&mut pairs, &mut spare);
        }
    }
    // SAFETY: the last pass wrote every slot below `n`.
    unsafe { out.set_len(n) };
    out
}

/// Every digit's count per chunk of `size` keys `key_at(i)`, `i < n` (the
/// first pass's counts), and the digits that need a pass: those on which
/// some keys differ.
fn digits<K: RadixKey>(
    n: usize,
    size: usize,
    key_at: impl Fn(usize) -> K + Sync,
) -> (Vec<Vec<[usize; RADIX]>>, Vec<usize>) {
    let first: Vec<Vec<[usize; RADIX]>> = (0..n.div_ceil(size))
        .into_par_iter()
        .map(|c| {
            let mut h = vec![[0usize; RADIX]; K::DIGITS];
            for i in c * size..((c + 1) * size).min(n) {
                let k = key_at(i);
                for (d, hd) in h.iter_mut().enumerate() {
                    hd[k.digit(d)] += 1;
                }
            }
            h
        })
        .collect();
    let passes = (0..K::DIGITS)
        .filter(|&d| (0..RADIX).all(|v| first.iter().map(|h| h[d][v]).sum::<usize>() != n))
        .collect();
    (first, passes)
}

/// `out` holding the elements in input order (all keys are equal, or there are none).
fn in_order<C: Columns>(mut out: C, n: usize, size: usize, elem: impl Fn(usize) -> C::Elem + Sync) -> C {
    let dst = out.out_ptr();
    (0..n.div_ceil(size)).into_par_iter().for_each(|c| {
        for i in c * size..((c + 1) * size).min(n) {
            // SAFETY: each slot below `n` is written once, by its chunk.
            unsafe { C::write(dst, i, elem(i)) };
        }
    });
    // SAFETY: every slot below `n` has been written.
    unsafe { out.set_len(n) };
    out
}

impl<T> Dst<T> {
    /// The pointer (a method, so that closures capture the whole `Sync` wrapper).
    #[inline(always)]
    fn get(self) -> *mut T {
        self.0
    }
}

/// Sends pair `get(i)` of each `i < n` to `put(position, pair)`, its place
/// in the order of digit `d`: chunks of `size` pairs, each from its offsets
/// per digit, `hist` their counts per digit. With digit `next`, returns its
/// counts per chunk of the destination, for the next pass (counted as the
/// pairs are placed, which saves that pass a read of its input).
fn scatter<K: RadixKey, E: Copy + Send + Sync>(
    n: usize,
    size: usize,
    d: usize,
    next: Option<usize>,
    hist: &[[usize; RADIX]],
    get: impl Fn(usize) -> (K, E) + Sync,
    put: impl Fn(usize, (K, E)) + Sync,
) -> Vec<[usize; RADIX]> {
    // Offsets: digit-major, then chunk order.
    let mut offsets = hist.to_vec();
    let mut total = 0;
    for v in 0..RADIX {
        for (c, h) in hist.iter().enumerate() {
            offsets[c][v] = total;
            total += h[v];
        }
    }
    let chunks = hist.len();
    let counted: Vec<Vec<[usize; RADIX]>> = offsets
        .into_par_iter()
        .enumerate()
        .map(|(c, mut at)| {
            let range = c * size..((c + 1) * size).min(n);
            let Some(dn) = next else {
                for i in range {
                    let kx = get(i);
                    let v = kx.0.digit(d);
                    put(at[v], kx);
                    at[v] += 1;
                }
                return Vec::new();
            };
            // Per digit value: the destination chunk of its next position,
            // and where that chunk ends.
            let mut counts = vec![[0usize; RADIX]; chunks];
            let mut dest = [0usize; RADIX];
            let mut end = [0usize; RADIX];
            for v in 0..RADIX {
                dest[v] = at[v] / size;
                end[v] = (dest[v] + 1) * size;
            }
            for i in range {
                let kx = get(i);
                let v = kx.0.digit(d);
                let pos = at[v];
                if pos == end[v] {
                    dest[v] += 1;
                    end[v] += size;
                }
                counts[dest[v]][kx.0.digit(dn)] += 1;
                put(pos, kx);
                at[v] = pos + 1;
            }
            counts
        })
        .collect();
    let mut sums = vec![[0usize; RADIX]; if next.is_some() { chunks } else { 0 }];
    for cs in counted {
        for (s, c) in sums.iter_mut().zip(&cs) {
            for (x, y) in s.iter_mut().zip(c) {
                *x += y;
            }
        }
    }
    sums
}

/// Elements per chunk: a few chunks per thread, none below `MIN_CHUNK`.
fn chunk_size(n: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    n.div_ceil(threads * 2).max(MIN_CHUNK)
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
}
