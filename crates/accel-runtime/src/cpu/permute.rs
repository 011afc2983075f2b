//! Forward permutation with a combination function.
//!
//! Sources are spread over threads in contiguous chunks; updates of one target
//! slot are serialised by a striped lock (slot `t` is guarded by stripe
//! `t % STRIPES`), so each read-combine-write is atomic with respect to the
//! others on the same slot. The order between different sources is unspecified.

use super::{chunks, MIN_CHUNK};
use crate::elem::Columns;
use rayon::prelude::*;
use std::hint::spin_loop;
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of lock stripes (a power of two).
const STRIPES: usize = 1024;

/// A spin lock on its own cache line.
#[repr(align(64))]
struct Stripe(AtomicBool);

impl Stripe {
    fn new() -> Stripe {
        Stripe(AtomicBool::new(false))
    }

    #[inline]
    fn lock(&self) -> StripeGuard<'_> {
        while self
            .0
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            while self.0.load(Ordering::Relaxed) {
                spin_loop();
            }
        }
        StripeGuard(self)
    }
}

/// Holds a stripe locked; unlocks on drop (also when `combine` panics).
struct StripeGuard<'a>(&'a Stripe);

impl Drop for StripeGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0 .0.store(false, Ordering::Release);
    }
}

/// For each source `i` in `0..src_n` with `target(i) = Some(t)`:
/// `out[t] = combine(value(i), out[t])`. `out` holds the defaults; targets at or
/// beyond `out.len()` are ignored.
pub fn permute<C: Columns>(
    out: &mut C,
    src_n: usize,
    target: impl Fn(usize) -> Option<usize> + Sync,
    value: impl Fn(usize) -> C::Elem + Sync,
    combine: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) {
    let n_out = out.len();
    // Every target is computed even when `out` is empty: the target function
    // is where out-of-bounds targets are reported.
    if src_n == 0 {
        return;
    }
    let ptr = out.out_ptr();

    if src_n < MIN_CHUNK {
        for i in 0..src_n {
            if let Some(t) = target(i).filter(|&t| t < n_out) {
                let v = value(i);
                // SAFETY: `t < out.len()`, so slot `t` is initialised and within
                // the capacity; this thread holds `out` mutably and is the only
                // one touching it.
                unsafe {
                    let old = C::read(ptr, t);
                    C::write(ptr, t, combine(v, old));
                }
            }
        }
        return;
    }

    let locks: Vec<Stripe> = (0..STRIPES).map(|_| Stripe::new()).collect();
    chunks(src_n).for_each(|r| {
        for i in r {
            if let Some(t) = target(i).filter(|&t| t < n_out) {
                let v = value(i);
                let _guard = locks[t % STRIPES].lock();
                // SAFETY: `t < out.len()`, so slot `t` is initialised and within
                // the capacity. Every access to slot `t` happens under stripe
                // `t % STRIPES`, which this thread holds, so no other thread
                // reads or writes slot `t` meanwhile; the lock's acquire/release
                // orders this update after the previous one. `out` is borrowed
                // mutably for the whole call, so nothing else touches it.
                unsafe {
                    let old = C::read(ptr, t);
                    C::write(ptr, t, combine(v, old));
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(i: usize) -> u64 {
        let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }

    /// `out[t] = combine(value(i), out[t])` in source order.
    fn reference(
        defaults: &[i64],
        src_n: usize,
        target: impl Fn(usize) -> Option<usize>,
        value: impl Fn(usize) -> i64,
    ) -> Vec<i64> {
        let mut out = defaults.to_vec();
        for i in 0..src_n {
            if let Some(t) = target(i) {
                if t < out.len() {
                    out[t] = value(i).wrapping_add(out[t]);
                }
            }
        }
        out
    }

    #[test]
    fn permute_matches_reference() {
        for threads in [1, 4] {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => panic!("thread pool: {e}"),
            };
            pool.install(|| {
                for src_n in [0, 1, 2, 7, MIN_CHUNK - 1, MIN_CHUNK + 1, 3 * MIN_CHUNK + 17] {
                    for n_out in [0, 1, 3, 100, 5000] {
                        let target = |i: usize| {
                            if i % 5 == 3 {
                                None
                            } else {
                                Some(h(i) as usize % n_out.max(1))
                            }
                        };
                        let value = |i: usize| h(i + 7) as i64;
                        let defaults: Vec<i64> = (0..n_out).map(|t| t as i64 * 3 - 1).collect();

                        let mut out = defaults.clone();
                        permute(&mut out, src_n, target, value, i64::wrapping_add);
                        assert_eq!(out, reference(&defaults, src_n, target, value), "{src_n} {n_out}");

                        // Tuple columns: each field combined on its own.
                        let mut out2: (Vec<i64>, Vec<u8>) =
                            (defaults.clone(), (0..n_out).map(|t| t as u8).collect());
                        permute(
                            &mut out2,
                            src_n,
                            target,
                            |i| (value(i), (i % 7) as u8),
                            |a: (i64, u8), b: (i64, u8)| (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1)),
                        );
                        assert_eq!(out2.0, out);
                        let want1 = {
                            let mut w: Vec<u8> = (0..n_out).map(|t| t as u8).collect();
                            for i in 0..src_n {
                                if let Some(t) = target(i).filter(|&t| t < n_out) {
                                    w[t] = w[t].wrapping_add((i % 7) as u8);
                                }
                            }
                            w
                        };
                        assert_eq!(out2.1, want1);
                    }
                }
            });
        }
    }

    #[test]
    fn permute_ignores_out_of_bounds_targets() {
        for src_n in [10, 2 * MIN_CHUNK + 5] {
            let mut out = vec![0i64; 4];
            permute(&mut out, src_n, |i| Some(i % 9), |_| 1, i64::wrapping_add);
            let want: Vec<i64> = (0..4)
                .map(|t| (0..src_n).filter(|i| i % 9 == t).count() as i64)
                .collect();
            assert_eq!(out, want);
            let mut empty: Vec<i64> = Vec::new();
            permute(&mut empty, src_n, Some, |_| 1, i64::wrapping_add);
            assert!(empty.is_empty());
        }
    }

    #[test]
    fn permute_sequential_order_for_small_inputs() {
        // combine(new, old) = new: the last source wins in source order.
        let mut out = vec![-1i32; 3];
        permute(&mut out, 10, |i| Some(i % 3), |i| i as i32, |new, _old| new);
        assert_eq!(out, vec![9, 7, 8]);
    }
}
