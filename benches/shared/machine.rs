//! What the benchmark machine can do, measured in the same run as the
//! programs: a shared or throttled machine moves its memory bandwidth by
//! factors of 2-3 from one run to the next, and the memory-bound programs
//! with it, so a report says what the machine gave while it ran.

use rayon::prelude::*;
use std::time::Instant;

/// A STREAM-like triad `a = b + s c` on f64 arrays of 2^24 elements each,
/// on all cores: the best of 10, in GB/s (3 arrays moved per element).
pub fn triad_bandwidth() -> f64 {
    let n = 1 << 24;
    let (b, c) = (vec![1.0f64; n], vec![2.0f64; n]);
    let mut a = vec![0.0f64; n];
    let mut best = f64::MAX;
    for _ in 0..10 {
        let t = Instant::now();
        a.par_chunks_mut(1 << 16).enumerate().for_each(|(k, ch)| {
            let o = k << 16;
            for (i, x) in ch.iter_mut().enumerate() {
                *x = b[o + i] + 3.0 * c[o + i];
            }
        });
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(&a);
    }
    (3 * 8 * n) as f64 / best / 1e9
}
