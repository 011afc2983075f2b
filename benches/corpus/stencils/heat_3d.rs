//! heat-3d: a 7-point heat equation step in 3-d, two sweeps (A to B, B to A) per time step.
//! PolyBench/C 4.2.1, `stencils/heat-3d/heat-3d.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: TSTEPS = 500, N = 120;
//! here N = 120 with 150 steps (500 take the sequential loop over 0.3 s on one core).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the time loop as a `for` over the
/// two 3-d arrays, each sweep a `generate` reading the neighbours by index, the
/// faces kept.
#[acc]
fn heat_3d(tsteps: usize, a0: &Array<f32, 3>, b0: &Array<f32, 3>) -> Array<f32, 3> {
    let [n, _, _] = a0.shape();
    let mut a = a0.map(|x| x);
    let mut b = b0.map(|x| x);
    for _ in 0..tsteps {
        b = generate([n, n, n], |[i, j, k]| {
            if i >= 1 && i + 1 < n && j >= 1 && j + 1 < n && k >= 1 && k + 1 < n {
                0.125 * (a[[i + 1, j, k]] - 2.0 * a[[i, j, k]] + a[[i - 1, j, k]])
                    + 0.125 * (a[[i, j + 1, k]] - 2.0 * a[[i, j, k]] + a[[i, j - 1, k]])
                    + 0.125 * (a[[i, j, k + 1]] - 2.0 * a[[i, j, k]] + a[[i, j, k - 1]])
                    + a[[i, j, k]]
            } else {
                b[[i, j, k]]
            }
        });
        a = generate([n, n, n], |[i, j, k]| {
            if i >= 1 && i + 1 < n && j >= 1 && j + 1 < n && k >= 1 && k + 1 < n {
                0.125 * (b[[i + 1, j, k]] - 2.0 * b[[i, j, k]] + b[[i - 1, j, k]])
                    + 0.125 * (b[[i, j + 1, k]] - 2.0 * b[[i, j, k]] + b[[i, j - 1, k]])
                    + 0.125 * (b[[i, j, k + 1]] - 2.0 * b[[i, j, k]] + b[[i, j, k - 1]])
                    + b[[i, j, k]]
            } else {
                a[[i, j, k]]
            }
        });
    }
    a
}

/// The interior point `(i, j, k)` of `to` from `from`.
#[inline(always)]
fn point(n: usize, from: &[f32], i: usize, j: usize, k: usize) -> f32 {
    let at = |i: usize, j: usize, k: usize| from[(i * n + j) * n + k];
    0.125 * (at(i + 1, j, k) - 2.0 * at(i, j, k) + at(i - 1, j, k))
        + 0.125 * (at(i, j + 1, k) - 2.0 * at(i, j, k) + at(i, j - 1, k))
        + 0.125 * (at(i, j, k + 1) - 2.0 * at(i, j, k) + at(i, j, k - 1))
        + at(i, j, k)
}

fn sequential(tsteps: usize, n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let inner = 1..n.saturating_sub(1);
    for _ in 0..tsteps {
        for i in inner.clone() {
            for j in inner.clone() {
                for k in inner.clone() {
                    b[(i * n + j) * n + k] = point(n, &a, i, j, k);
                }
            }
        }
        for i in inner.clone() {
            for j in inner.clone() {
                for k in inner.clone() {
                    a[(i * n + j) * n + k] = point(n, &b, i, j, k);
                }
            }
        }
    }
    a
}

/// One sweep of `from` into the interior of `to`, a plane per task.
fn sweep(n: usize, from: &[f32], to: &mut [f32]) {
    if n < 3 {
        return;
    }
    to.par_chunks_mut(n * n)
        .enumerate()
        .filter(|(i, _)| *i >= 1 && *i + 1 < n)
        .for_each(|(i, plane)| {
            for j in 1..n - 1 {
                for k in 1..n - 1 {
                    plane[j * n + k] = point(n, from, i, j, k);
                }
            }
        });
}

fn rayon(tsteps: usize, n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    for _ in 0..tsteps {
        sweep(n, &a, &mut b);
        sweep(n, &b, &mut a);
    }
    a
}

pub fn program(h: &mut Harness) {
    if !h.wants("heat-3d") {
        return;
    }
    let (n, tsteps) = (h.pick(120, 5), h.pick(150, 3));
    // PolyBench's init_array: A = B = (i + j + (n - k)) * 10 / n.
    let a: Vec<f32> = (0..n * n * n)
        .map(|x| ((x / (n * n) + x / n % n + (n - x % n)) * 10) as f32 / n as f32)
        .collect();
    let b = a.clone();
    let arr = |v: &Vec<f32>| Array::<f32, 3>::from_vec([n, n, n], v.clone()).expect("shape");
    let (aa, ba) = (arr(&a), arr(&b));
    let backend = h.backend();
    h.python(
        Py::new("heat-3d")
            .array("a", &[n, n, n], &a)
            .array("b", &[n, n, n], &b)
            .scalar("tsteps", tsteps as f64),
    );
    h.program(Program {
        name: "heat-3d",
        source: "PolyBench/C 4.2.1 stencils/heat-3d/heat-3d.c",
        size: format!("{n}^3, {tsteps} steps"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || heat_3d::on(&backend, tsteps, &aa, &ba))),
            ("sequential", run(|| Ok(sequential(tsteps, n, &a, &b)))),
            ("rayon", run(|| Ok(rayon(tsteps, n, &a, &b)))),
        ],
    });
}
