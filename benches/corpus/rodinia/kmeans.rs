//! kmeans: one step of k-means clustering: each point's nearest centre (squared
//! Euclidean distance, first among equals), then the new centres as the means
//! of their points (a centre without points is kept).
//! Rodinia 3.1, `openmp/kmeans/kmeans_openmp/kmeans_clustering.c`
//! (github.com/yuhc/gpu-rodinia). Run script: kdd_cup, 494020 points of 34
//! features, 5 clusters, initial centres the first points. The features are
//! generated as multiples of 1/16 in [0, 1), so distances and sums are exact in
//! f32 and every system must agree exactly.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the distances as a sum over a
/// (point, centre, feature) space, `argmin` per point, then per-centre sums
/// and counts with `permute` (a histogram), and the means.
#[acc]
fn kmeans(feats: &Matrix<f32>, clusters: &Matrix<f32>) -> (Vector<usize>, Matrix<f32>) {
    let [n, f] = feats.shape();
    let k = clusters.shape()[0];
    let dist = generate([n, k, f], |[i, c, j]| {
        let d = feats[[i, j]] - clusters[[c, j]];
        d * d
    })
    .sum();
    let member = dist.argmin();
    let sums = feats.permute(
        &fill([k, f], 0.0f32),
        |[i, j]| Some([member[[i]], j]),
        |new, old| new + old,
    );
    let counts =
        member
            .map(|_| 1i32)
            .permute(&fill([k], 0i32), |[i]| Some([member[[i]]]), |new, old| new + old);
    let centres = generate([k, f], |[c, j]| {
        if counts[[c]] > 0 {
            sums[[c, j]] / counts[[c]] as f32
        } else {
            clusters[[c, j]]
        }
    });
    (member, centres)
}

fn nearest(x: &[f32], clusters: &[f32], f: usize) -> usize {
    let (mut index, mut min_dist) = (0, f32::MAX);
    for (c, centre) in clusters.chunks(f).enumerate() {
        let dist: f32 = x.iter().zip(centre).fold(0.0, |s, (a, b)| s + (a - b) * (a - b));
        if dist < min_dist {
            min_dist = dist;
            index = c;
        }
    }
    index
}

fn means(sums: &[f32], counts: &[usize], clusters: &[f32], f: usize) -> Vec<f32> {
    (0..sums.len())
        .map(|x| {
            if counts[x / f] > 0 {
                sums[x] / counts[x / f] as f32
            } else {
                clusters[x]
            }
        })
        .collect()
}

fn sequential(feats: &[f32], clusters: &[f32], f: usize) -> (Vec<usize>, Vec<f32>) {
    let k = clusters.len() / f;
    let (mut sums, mut counts) = (vec![0.0f32; k * f], vec![0usize; k]);
    let mut member = vec![0; feats.len() / f];
    for (i, x) in feats.chunks(f).enumerate() {
        let index = nearest(x, clusters, f);
        member[i] = index;
        counts[index] += 1;
        for j in 0..f {
            sums[index * f + j] += x[j];
        }
    }
    (member, means(&sums, &counts, clusters, f))
}

fn rayon(feats: &[f32], clusters: &[f32], f: usize) -> (Vec<usize>, Vec<f32>) {
    let k = clusters.len() / f;
    let member: Vec<usize> = feats.par_chunks(f).map(|x| nearest(x, clusters, f)).collect();
    let (sums, counts) = feats
        .par_chunks(f)
        .zip(&member)
        .fold(
            || (vec![0.0f32; k * f], vec![0usize; k]),
            |(mut s, mut c), (x, &m)| {
                c[m] += 1;
                s[m * f..(m + 1) * f].iter_mut().zip(x).for_each(|(a, b)| *a += b);
                (s, c)
            },
        )
        .reduce(
            || (vec![0.0f32; k * f], vec![0usize; k]),
            |(mut s, mut c), (s2, c2)| {
                s.iter_mut().zip(&s2).for_each(|(a, b)| *a += b);
                c.iter_mut().zip(&c2).for_each(|(a, b)| *a += b);
                (s, c)
            },
        );
    (member, means(&sums, &counts, clusters, f))
}

pub fn program(h: &mut Harness) {
    if !h.wants("kmeans") {
        return;
    }
    let (n, f, k) = (h.pick(494_020, 11), h.pick(34, 3), 5);
    let mut seed = 31u32;
    let feats: Vec<f32> = (0..n * f)
        .map(|_| {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 28) as f32 / 16.0
        })
        .collect();
    // kmeans_clustering.c: the initial centres are the first points.
    let clusters = feats[..k * f].to_vec();
    let fm = Matrix::from_vec([n, f], feats.clone()).expect("shape");
    let cm = Matrix::from_vec([k, f], clusters.clone()).expect("shape");
    let backend = h.backend();
    h.program(Program {
        name: "kmeans",
        source: "Rodinia 3.1 openmp/kmeans/kmeans_openmp/kmeans_clustering.c",
        size: format!("{n}x{f}, {k} clusters"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || kmeans::on(&backend, &fm, &cm))),
            ("sequential", run(|| Ok(sequential(&feats, &clusters, f)))),
            ("rayon", run(|| Ok(rayon(&feats, &clusters, f)))),
        ],
    });
}
