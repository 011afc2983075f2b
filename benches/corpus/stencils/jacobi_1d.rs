//! jacobi-1d: a 3-point Jacobi relaxation, two sweeps (A to B, B to A) per time step.
//! PolyBench/C 4.2.1, `stencils/jacobi-1d/jacobi-1d.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: TSTEPS = 500, N = 2000.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the time loop as a `for` over the
/// two arrays, each sweep a `generate` reading the neighbours by index, the two
/// end points kept.
#[acc]
fn jacobi_1d(tsteps: usize, a0: &Vector<f32>, b0: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
    let n = a0.len();
    let mut a = a0.map(|x| x);
    let mut b = b0.map(|x| x);
    for _ in 0..tsteps {
        b = generate([n], |[i]| {
            if i >= 1 && i + 1 < n {
                0.33333 * (a[[i - 1]] + a[[i]] + a[[i + 1]])
            } else {
                b[[i]]
            }
        });
        a = generate([n], |[i]| {
            if i >= 1 && i + 1 < n {
                0.33333 * (b[[i - 1]] + b[[i]] + b[[i + 1]])
            } else {
                a[[i]]
            }
        });
    }
    (a, b)
}

fn sequential(tsteps: usize, a: &[f32], b: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let n = a.len();
    for _ in 0..tsteps {
        for i in 1..n.saturating_sub(1) {
            b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        }
        for i in 1..n.saturating_sub(1) {
            a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
        }
    }
    (a, b)
}

/// One sweep of `from` into the interior of `to`, in parallel chunks.
fn sweep(from: &[f32], to: &mut [f32]) {
    let n = from.len();
    if n < 3 {
        return;
    }
    to[1..n - 1]
        .par_chunks_mut(4096)
        .enumerate()
        .for_each(|(c, chunk)| {
            for (o, x) in chunk.iter_mut().enumerate() {
                let i = 1 + c * 4096 + o;
                *x = 0.33333 * (from[i - 1] + from[i] + from[i + 1]);
            }
        });
}

fn rayon(tsteps: usize, a: &[f32], b: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    for _ in 0..tsteps {
        sweep(&a, &mut b);
        sweep(&b, &mut a);
    }
    (a, b)
}

pub fn program(h: &mut Harness) {
    if !h.wants("jacobi-1d") {
        return;
    }
    let (n, tsteps) = (h.pick(2000, 9), h.pick(500, 3));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..n).map(|i| (i as f32 + 2.0) / n as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| (i as f32 + 3.0) / n as f32).collect();
    let (av, bv) = (Vector::from(a.clone()), Vector::from(b.clone()));
    let backend = h.backend();
    h.python(
        Py::new("jacobi-1d")
            .array("a", &[n], &a)
            .array("b", &[n], &b)
            .scalar("tsteps", tsteps as f64),
    );
    h.program(Program {
        name: "jacobi-1d",
        source: "PolyBench/C 4.2.1 stencils/jacobi-1d/jacobi-1d.c",
        size: format!("{n}, {tsteps} steps"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || jacobi_1d::on(&backend, tsteps, &av, &bv))),
            ("sequential", run(|| Ok(sequential(tsteps, &a, &b)))),
            ("rayon", run(|| Ok(rayon(tsteps, &a, &b)))),
        ],
    });
}
