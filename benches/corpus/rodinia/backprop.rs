//! backprop: the forward pass of one layer (bpnn_layerforward): each hidden unit
//! is the sigmoid of the weighted sum of the input units, the bias unit included.
//! Rodinia 3.1, `openmp/backprop/backprop.c` (github.com/yuhc/gpu-rodinia).
//! Run script: 65536 input units, 16 hidden units. Inputs uniform in [0, 1) as
//! in facetrain.c; the weights are uniform in [-0.01, 0.01) rather than the
//! suite's [0, 1), which saturate every hidden unit at exactly 1.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the products over a 2-d index space
/// (hidden unit, input unit) reading the (n1 + 1) x (n2 + 1) weight matrix by
/// index as the original does, summed per hidden unit, then the sigmoid.
#[acc]
fn layerforward(l1: &Vector<f32>, conn: &Matrix<f32>) -> Vector<f32> {
    let [n1, n2] = conn.shape();
    let sums = generate([n2 - 1, n1], |[j, k]| conn[[k, j + 1]] * l1[[k]]).sum();
    sums.map(|s| 1.0 / (1.0 + (-s).exp()))
}

fn squash(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `l1` holds the bias unit (1.0) first; `conn` is (n1 + 1) x (n2 + 1), row-major.
fn sequential(l1: &[f32], conn: &[f32], n2: usize) -> Vec<f32> {
    let mut l2 = vec![0.0; n2];
    for j in 1..=n2 {
        let mut sum = 0.0f32;
        for k in 0..l1.len() {
            sum += conn[k * (n2 + 1) + j] * l1[k];
        }
        l2[j - 1] = squash(sum);
    }
    l2
}

fn rayon(l1: &[f32], conn: &[f32], n2: usize) -> Vec<f32> {
    (1..=n2)
        .into_par_iter()
        .map(|j| squash((0..l1.len()).map(|k| conn[k * (n2 + 1) + j] * l1[k]).sum()))
        .collect()
}

pub fn program(h: &mut Harness) {
    if !h.wants("backprop") {
        return;
    }
    let (n1, n2) = (h.pick(65536, 9), h.pick(16, 3));
    let mut seed = 7u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let mut l1 = vec![1.0f32];
    l1.extend((0..n1).map(|_| next()));
    let conn: Vec<f32> = (0..(n1 + 1) * (n2 + 1)).map(|_| 0.02 * next() - 0.01).collect();
    let lv = Vector::from(l1.clone());
    let cm = Matrix::from_vec([n1 + 1, n2 + 1], conn.clone()).expect("shape");
    let backend = h.backend();
    h.program(Program {
        name: "backprop",
        source: "Rodinia 3.1 openmp/backprop/backprop.c",
        size: format!("{n1}x{n2}"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || layerforward::on(&backend, &lv, &cm))),
            ("sequential", run(|| Ok(sequential(&l1, &conn, n2)))),
            ("rayon", run(|| Ok(rayon(&l1, &conn, n2)))),
        ],
    });
}
