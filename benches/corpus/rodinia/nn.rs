//! nn: nearest neighbour: the Euclidean distance from a target (latitude,
//! longitude) to every hurricane record, then the nearest one.
//! Rodinia 3.1, `openmp/nn/nn_openmp.c` (github.com/yuhc/gpu-rodinia). The
//! original keeps the k nearest (run script: k = 5, target 30, 90); here the
//! nearest, as (distance, index) with the first index among equal distances.
//! The record files are replaced by 2^20 generated records of the ranges of
//! Rodinia's hurricane generator (latitude 7 to 70, longitude 0 to 358).

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: a `generate` of (distance, index)
/// pairs folded with the tuple `min`.
#[acc]
fn nn(lat: f32, lng: f32, lats: &Vector<f32>, lngs: &Vector<f32>) -> Scalar<(f32, usize)> {
    generate(lats.shape(), |[i]| {
        let z = ((lats[[i]] - lat) * (lats[[i]] - lat) + (lngs[[i]] - lng) * (lngs[[i]] - lng)).sqrt();
        (z, i)
    })
    .fold1_all(|a, b| a.min(b))
}

fn distance(lat: f32, lng: f32, la: f32, lo: f32) -> f32 {
    ((la - lat) * (la - lat) + (lo - lng) * (lo - lng)).sqrt()
}

fn sequential(lat: f32, lng: f32, lats: &[f32], lngs: &[f32]) -> (f32, usize) {
    let z: Vec<f32> = lats
        .iter()
        .zip(lngs)
        .map(|(&la, &lo)| distance(lat, lng, la, lo))
        .collect();
    let mut best = (z[0], 0);
    for (i, &d) in z.iter().enumerate().skip(1) {
        if d < best.0 {
            best = (d, i);
        }
    }
    best
}

fn rayon(lat: f32, lng: f32, lats: &[f32], lngs: &[f32]) -> (f32, usize) {
    lats.par_iter()
        .zip(lngs)
        .enumerate()
        .map(|(i, (&la, &lo))| (distance(lat, lng, la, lo), i))
        .reduce(
            || (f32::INFINITY, usize::MAX),
            |a, b| {
                if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) {
                    b
                } else {
                    a
                }
            },
        )
}

pub fn program(h: &mut Harness) {
    if !h.wants("nn") {
        return;
    }
    let n = h.pick(1 << 20, 1);
    let mut seed = 2024u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let (mut lats, mut lngs) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        lats.push(7.0 + (63.0 * next()).floor() + next());
        lngs.push((358.0 * next()).floor() + next());
    }
    let (lat, lng) = (30.0f32, 90.0f32);
    let (lv, gv) = (Vector::from(lats.clone()), Vector::from(lngs.clone()));
    let backend = h.backend();
    h.program(Program {
        name: "nn",
        source: "Rodinia 3.1 openmp/nn/nn_openmp.c",
        size: format!("{n} records"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || nn::on(&backend, lat, lng, &lv, &gv))),
            ("sequential", run(|| Ok(sequential(lat, lng, &lats, &lngs)))),
            ("rayon", run(|| Ok(rayon(lat, lng, &lats, &lngs)))),
        ],
    });
}
