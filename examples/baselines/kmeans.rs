//! k-means without accel: the input generator, the sequential reference and
//! the rayon version a Rust programmer would write (per-task cluster sums,
//! added up).

#![allow(dead_code)] // the examples and the benchmarks each use a part

use crate::common::Rng;
use rayon::prelude::*;

/// `n` points around `k` centres (sums of uniforms, roughly Gaussian blobs),
/// and the first `k` points as initial centroids.
pub fn generate(n: usize, k: usize, rng: &mut Rng) -> (Vec<(f32, f32)>, Vec<(f32, f32)>) {
    let centres: Vec<(f32, f32)> = (0..k)
        .map(|_| (rng.f32(-10.0, 10.0), rng.f32(-10.0, 10.0)))
        .collect();
    let points: Vec<(f32, f32)> = (0..n)
        .map(|_| {
            let c = centres[rng.below(k as u64) as usize];
            let nx = rng.f32(-1.0, 1.0) + rng.f32(-1.0, 1.0) + rng.f32(-1.0, 1.0);
            let ny = rng.f32(-1.0, 1.0) + rng.f32(-1.0, 1.0) + rng.f32(-1.0, 1.0);
            (c.0 + nx, c.1 + ny)
        })
        .collect();
    let initial = points.iter().take(k).copied().collect();
    (points, initial)
}

#[inline]
fn nearest(p: (f32, f32), cs: &[(f32, f32)]) -> usize {
    let (mut best, mut best_d) = (0, f32::INFINITY);
    for (c, &(cx, cy)) in cs.iter().enumerate() {
        let (dx, dy) = (p.0 - cx, p.1 - cy);
        let d = dx * dx + dy * dy;
        if d < best_d {
            best_d = d;
            best = c;
        }
    }
    best
}

type Sums = Vec<(f64, f64, u32)>;

fn add_point(mut s: Sums, p: &(f32, f32), cs: &[(f32, f32)]) -> Sums {
    let e = &mut s[nearest(*p, cs)];
    e.0 += p.0 as f64;
    e.1 += p.1 as f64;
    e.2 += 1;
    s
}

fn divide(sums: &Sums, cs: &[(f32, f32)]) -> Vec<(f32, f32)> {
    sums.iter()
        .zip(cs)
        .map(|(s, &c)| {
            if s.2 > 0 {
                ((s.0 / s.2 as f64) as f32, (s.1 / s.2 as f64) as f32)
            } else {
                c
            }
        })
        .collect()
}

pub fn reference(points: &[(f32, f32)], initial: &[(f32, f32)], iters: usize) -> Vec<(f32, f32)> {
    let mut cs = initial.to_vec();
    for _ in 0..iters {
        let sums = points
            .iter()
            .fold(vec![(0.0, 0.0, 0); cs.len()], |s, p| add_point(s, p, &cs));
        cs = divide(&sums, &cs);
    }
    cs
}

pub fn rayon(points: &[(f32, f32)], initial: &[(f32, f32)], iters: usize) -> Vec<(f32, f32)> {
    let mut cs = initial.to_vec();
    let k = cs.len();
    for _ in 0..iters {
        let sums = points
            .par_chunks(1 << 14)
            .fold(
                || vec![(0.0, 0.0, 0); k],
                |s, chunk| chunk.iter().fold(s, |s, p| add_point(s, p, &cs)),
            )
            .reduce(
                || vec![(0.0, 0.0, 0); k],
                |mut a, b| {
                    for (x, y) in a.iter_mut().zip(b) {
                        x.0 += y.0;
                        x.1 += y.1;
                        x.2 += y.2;
                    }
                    a
                },
            );
        cs = divide(&sums, &cs);
    }
    cs
}
