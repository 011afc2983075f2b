//! tpacf: two-point angular correlation: the histogram of the angular
//! distances between all pairs of points on the sky, binned by a binary
//! search over the bin boundaries (cosines of log-spaced angles from 1 to
//! 10,000 arcminutes, 5 bins a decade).
//! Parboil 2.5, `benchmarks/tpacf/src/base/compute.c` (`doCompute`, one
//! self-correlation, DD, of 6000 points) and `main.c` (the bins). Parboil's data sets are
//! galaxy catalogues; the points here are made by an LCG, spread uniformly
//! on the sphere.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: a histogram by `permute` and
/// `+` over the n x n pairs, the pairs j <= i dropped (`None`), the bin found
/// by Parboil's binary search in the index function.
#[acc]
fn tpacf(x: &Vector<f32>, y: &Vector<f32>, z: &Vector<f32>, binb: &Vector<f32>) -> Vector<u64> {
    let n = x.len();
    let nbins = binb.len() - 1;
    fill([n, n], 1u64).permute(
        &fill([nbins + 2], 0u64),
        |[i, j]| {
            if j > i {
                let dot = x[[i]] * x[[j]] + y[[i]] * y[[j]] + z[[i]] * z[[j]];
                let mut lo = 0usize;
                let mut hi = nbins;
                while hi > lo + 1 {
                    let k = (lo + hi) / 2;
                    if dot >= binb[[k]] {
                        hi = k;
                    } else {
                        lo = k;
                    }
                }
                if dot >= binb[[lo]] {
                    Some([lo])
                } else if dot < binb[[hi]] {
                    Some([hi + 1])
                } else {
                    Some([hi])
                }
            } else {
                None
            }
        },
        |new, old| new + old,
    )
}

struct Points {
    x: Vec<f32>,
    y: Vec<f32>,
    z: Vec<f32>,
}

/// Parboil's inner loop for point i: the pairs (i, j > i) into `bins`.
fn pairs_of(p: &Points, binb: &[f32], i: usize, bins: &mut [u64]) {
    let nbins = binb.len() - 1;
    let (xi, yi, zi) = (p.x[i], p.y[i], p.z[i]);
    for j in i + 1..p.x.len() {
        let dot = xi * p.x[j] + yi * p.y[j] + zi * p.z[j];
        let (mut min, mut max) = (0, nbins);
        while max > min + 1 {
            let k = (min + max) / 2;
            if dot >= binb[k] {
                max = k;
            } else {
                min = k;
            }
        }
        if dot >= binb[min] {
            bins[min] += 1;
        } else if dot < binb[max] {
            bins[max + 1] += 1;
        } else {
            bins[max] += 1;
        }
    }
}

fn sequential(p: &Points, binb: &[f32]) -> Vec<u64> {
    let mut bins = vec![0u64; binb.len() + 1];
    for i in 0..p.x.len() {
        pairs_of(p, binb, i, &mut bins);
    }
    bins
}

/// Per-thread histograms over the outer points, summed.
fn rayon(p: &Points, binb: &[f32]) -> Vec<u64> {
    let nb = binb.len() + 1;
    (0..p.x.len())
        .into_par_iter()
        .fold(
            || vec![0u64; nb],
            |mut bins, i| {
                pairs_of(p, binb, i, &mut bins);
                bins
            },
        )
        .reduce(
            || vec![0u64; nb],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

pub fn program(h: &mut Harness) {
    if !h.wants("tpacf") {
        return;
    }
    let n = h.pick(6000, 9);
    // Parboil's bins: 5 a decade from 1 to 10,000 arcminutes.
    let (min_arcmin, bins_per_dec, nbins) = (1.0f64, 5.0f64, 20usize);
    let binb: Vec<f32> = (0..=nbins)
        .map(|k| {
            (10f64.powf(min_arcmin.log10() + k as f64 / bins_per_dec) / 60.0 * std::f64::consts::PI / 180.0)
                .cos() as f32
        })
        .collect();
    let mut s = 4242u64;
    let mut uni = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut p = Points {
        x: vec![],
        y: vec![],
        z: vec![],
    };
    for _ in 0..n {
        let ra = uni() * std::f64::consts::TAU;
        let dec = (uni() * 2.0 - 1.0).asin();
        p.x.push((dec.cos() * ra.cos()) as f32);
        p.y.push((dec.cos() * ra.sin()) as f32);
        p.z.push(dec.sin() as f32);
    }
    let (xa, ya, za, ba) = (
        Vector::from(p.x.clone()),
        Vector::from(p.y.clone()),
        Vector::from(p.z.clone()),
        Vector::from(binb.clone()),
    );
    let backend = h.backend();
    let (p, binb) = (&p, &binb);
    h.program(Program {
        name: "tpacf",
        source: "Parboil 2.5 tpacf (benchmarks/tpacf/src/base/compute.c)",
        size: format!("{n} points, {nbins} bins"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || tpacf::on(&backend, &xa, &ya, &za, &ba))),
            ("sequential", run(move || Ok(sequential(p, binb)))),
            ("rayon", run(move || Ok(rayon(p, binb)))),
        ],
    });
}
