//! Helpers shared by the skeletons' tests.

use super::MIN_CHUNK;

/// A 2x2 matrix of small integers: its product is associative but not
/// commutative, so combining out of order shows.
pub type M = (u32, u32, u32, u32);
pub type MCols = (Vec<u32>, Vec<u32>, Vec<u32>, Vec<u32>);

/// A cheap hash of `i`.
pub fn h(i: usize) -> u32 {
    let x = (i as u32).wrapping_mul(2_654_435_761);
    x ^ (x >> 13)
}

/// A 2x2 matrix depending on `i`.
pub fn mat(i: usize) -> M {
    let x = h(i);
    (x & 7, (x >> 3) & 7, (x >> 6) & 7, (x >> 9) & 7)
}

/// 2x2 matrix product (wrapping).
pub fn mul(a: M, b: M) -> M {
    let w = |p: u32, q: u32, r: u32, s: u32| p.wrapping_mul(q).wrapping_add(r.wrapping_mul(s));
    (
        w(a.0, b.0, a.1, b.2),
        w(a.0, b.1, a.1, b.3),
        w(a.2, b.0, a.3, b.2),
        w(a.2, b.1, a.3, b.3),
    )
}

/// Lengths around the chunk size.
pub fn sizes() -> Vec<usize> {
    vec![0, 1, 2, 7, MIN_CHUNK - 1, MIN_CHUNK + 1, 3 * MIN_CHUNK + 17]
}

/// (rows, row length) pairs, small enough to check quickly.
pub fn row_cases() -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for rows in [0, 1, 3, 100] {
        for len in sizes() {
            if rows * len <= 2_000_000 {
                v.push((rows, len));
            }
        }
    }
    v
}

/// Runs `t` on one thread and on four (which exercises the split plans).
pub fn in_pools(t: impl Fn() + Sync) {
    for n in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build();
        match pool {
            Ok(p) => p.install(&t),
            Err(e) => panic!("thread pool: {e}"),
        }
    }
}
