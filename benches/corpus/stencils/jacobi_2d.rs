//! jacobi-2d: a 5-point Jacobi relaxation, two sweeps (A to B, B to A) per time step.
//! PolyBench/C 4.2.1, `stencils/jacobi-2d/jacobi-2d.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: TSTEPS = 500, N = 1300;
//! here N = 1300 with 300 steps (500 take the sequential loop over 0.3 s on one core).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the time loop as a `for` over the
/// two matrices, each sweep a `generate` reading the neighbours by index, the
/// border kept.
#[acc]
fn jacobi_2d(tsteps: usize, a0: &Matrix<f32>, b0: &Matrix<f32>) -> Matrix<f32> {
    let [n, m] = a0.shape();
    let mut a = a0.map(|x| x);
    let mut b = b0.map(|x| x);
    for _ in 0..tsteps {
        b = generate([n, m], |[i, j]| {
            if i >= 1 && i + 1 < n && j >= 1 && j + 1 < m {
                0.2 * (a[[i, j]] + a[[i, j - 1]] + a[[i, 1 + j]] + a[[1 + i, j]] + a[[i - 1, j]])
            } else {
                b[[i, j]]
            }
        });
        a = generate([n, m], |[i, j]| {
            if i >= 1 && i + 1 < n && j >= 1 && j + 1 < m {
                0.2 * (b[[i, j]] + b[[i, j - 1]] + b[[i, 1 + j]] + b[[1 + i, j]] + b[[i - 1, j]])
            } else {
                a[[i, j]]
            }
        });
    }
    a
}

fn sequential(tsteps: usize, n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    for _ in 0..tsteps {
        for i in 1..n.saturating_sub(1) {
            for j in 1..n - 1 {
                b[i * n + j] = 0.2
                    * (a[i * n + j]
                        + a[i * n + j - 1]
                        + a[i * n + 1 + j]
                        + a[(1 + i) * n + j]
                        + a[(i - 1) * n + j]);
            }
        }
        for i in 1..n.saturating_sub(1) {
            for j in 1..n - 1 {
                a[i * n + j] = 0.2
                    * (b[i * n + j]
                        + b[i * n + j - 1]
                        + b[i * n + 1 + j]
                        + b[(1 + i) * n + j]
                        + b[(i - 1) * n + j]);
            }
        }
    }
    a
}

/// One sweep of `from` into the interior of `to`, a row per task.
fn sweep(n: usize, from: &[f32], to: &mut [f32]) {
    if n < 3 {
        return;
    }
    to[n..(n - 1) * n]
        .par_chunks_mut(n)
        .enumerate()
        .for_each(|(r, row)| {
            let i = r + 1;
            for j in 1..n - 1 {
                row[j] = 0.2
                    * (from[i * n + j]
                        + from[i * n + j - 1]
                        + from[i * n + 1 + j]
                        + from[(1 + i) * n + j]
                        + from[(i - 1) * n + j]);
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
    if !h.wants("jacobi-2d") {
        return;
    }
    let (n, tsteps) = (h.pick(1300, 7), h.pick(300, 2));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..n * n)
        .map(|x| ((x / n) as f32 * (x % n + 2) as f32 + 2.0) / n as f32)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|x| ((x / n) as f32 * (x % n + 3) as f32 + 3.0) / n as f32)
        .collect();
    let arr = |v: &Vec<f32>| Matrix::from_vec([n, n], v.clone()).expect("shape");
    let (am, bm) = (arr(&a), arr(&b));
    let backend = h.backend();
    h.python(
        Py::new("jacobi-2d")
            .array("a", &[n, n], &a)
            .array("b", &[n, n], &b)
            .scalar("tsteps", tsteps as f64),
    );
    h.program(Program {
        name: "jacobi-2d",
        source: "PolyBench/C 4.2.1 stencils/jacobi-2d/jacobi-2d.c",
        size: format!("{n}x{n}, {tsteps} steps"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || jacobi_2d::on(&backend, tsteps, &am, &bm))),
            ("sequential", run(|| Ok(sequential(tsteps, n, &a, &b)))),
            ("rayon", run(|| Ok(rayon(tsteps, n, &a, &b)))),
        ],
    });
}
