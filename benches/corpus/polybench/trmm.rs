//! trmm: B := alpha·Aᵀ·B with A unit lower triangular (strictly lower part
//! read; the diagonal is an implicit 1).
//! PolyBench/C 4.2.1, `linear-algebra/blas/trmm/trmm.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: M = 200, N = 240
//! (at LARGE the sequential loops take 2.1 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// One element per (i, j), with the triangular sum over k > i as a `for`
/// loop in the closure.
#[acc]
fn trmm(alpha: f32, a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
    let [m, n] = b.shape();
    generate([m, n], |[i, j]| {
        let mut s = b[[i, j]];
        for k in i + 1..m {
            s += a[[k, i]] * b[[k, j]];
        }
        alpha * s
    })
}

fn sequential(alpha: f32, a: &[f32], b: &[f32], (m, n): (usize, usize)) -> Vec<f32> {
    let mut b = b.to_vec();
    for i in 0..m {
        for j in 0..n {
            for k in i + 1..m {
                b[i * n + j] += a[k * m + i] * b[k * n + j];
            }
            b[i * n + j] *= alpha;
        }
    }
    b
}

fn rayon(alpha: f32, a: &[f32], b: &[f32], (m, n): (usize, usize)) -> Vec<f32> {
    let mut out = b.to_vec();
    out.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        for k in i + 1..m {
            let aki = a[k * m + i];
            for (x, bkj) in row.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *x += aki * bkj;
            }
        }
        row.iter_mut().for_each(|x| *x *= alpha);
    });
    out
}

pub fn program(h: &mut Harness) {
    if !h.wants("trmm") {
        return;
    }
    let (m, n) = (h.pick(200, 7), h.pick(240, 5));
    // PolyBench's init_array (the upper triangle, which C leaves unset, is 0).
    let a: Vec<f32> = (0..m * m)
        .map(|x| {
            let (i, j) = (x / m, x % m);
            if j < i {
                ((i + j) % m) as f32 / m as f32
            } else if j == i {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    let b: Vec<f32> = (0..m * n)
        .map(|x| ((n + x / n - x % n) % n) as f32 / n as f32)
        .collect();
    let alpha = 1.5f32;
    let aa = Matrix::from_vec([m, m], a.clone()).expect("shape");
    let ba = Matrix::from_vec([m, n], b.clone()).expect("shape");
    let dims = (m, n);
    let backend = h.backend();
    h.python(
        Py::new("trmm")
            .array("a", &[m, m], &a)
            .array("b", &[m, n], &b)
            .scalar("alpha", alpha as f64),
    );
    h.program(Program {
        name: "trmm",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/trmm/trmm.c",
        size: format!("{m}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || trmm::on(&backend, alpha, &aa, &ba))),
            ("sequential", run(|| Ok(sequential(alpha, &a, &b, dims)))),
            ("rayon", run(|| Ok(rayon(alpha, &a, &b, dims)))),
        ],
    });
}
