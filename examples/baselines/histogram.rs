//! Histogram without accel: the sequential reference and the rayon version a
//! Rust programmer would write (a private histogram per task, added up).

#![allow(dead_code)] // the examples and the benchmarks each use a part

use rayon::prelude::*;

pub fn reference(xs: &[u32], bins: usize) -> Vec<u32> {
    let mut h = vec![0u32; bins];
    for &x in xs {
        h[x as usize % bins] += 1;
    }
    h
}

pub fn rayon(xs: &[u32], bins: usize) -> Vec<u32> {
    xs.par_chunks(1 << 16)
        .fold(
            || vec![0u32; bins],
            |mut h, chunk| {
                for &x in chunk {
                    h[x as usize % bins] += 1;
                }
                h
            },
        )
        .reduce(
            || vec![0u32; bins],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        )
}
