//! syrk: C := alpha·A·Aᵀ + beta·C on the lower triangle (j ≤ i) of C.
//! PolyBench/C 4.2.1, `linear-algebra/blas/syrk/syrk.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: M = 200, N = 240
//! (at LARGE the sequential loops take 0.9 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// A·Aᵀ as products over a 3-d index space summed over k, then each element
/// of the lower triangle updated and the upper one kept.
#[acc]
fn syrk(alpha: f32, beta: f32, c: &Matrix<f32>, a: &Matrix<f32>) -> Matrix<f32> {
    let [n, m] = a.shape();
    let aat = generate([n, n, m], |[i, j, k]| a[[i, k]] * a[[j, k]]).sum();
    generate([n, n], |[i, j]| {
        if j <= i {
            beta * c[[i, j]] + alpha * aat[[i, j]]
        } else {
            c[[i, j]]
        }
    })
}

fn sequential(alpha: f32, beta: f32, c: &[f32], a: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let mut c = c.to_vec();
    for i in 0..n {
        for j in 0..=i {
            c[i * n + j] *= beta;
        }
        for k in 0..m {
            for j in 0..=i {
                c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
            }
        }
    }
    c
}

fn rayon(alpha: f32, beta: f32, c: &[f32], a: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let mut c = c.to_vec();
    c.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        let ai = &a[i * m..(i + 1) * m];
        for (j, x) in row[..=i].iter_mut().enumerate() {
            let dot: f32 = ai.iter().zip(&a[j * m..(j + 1) * m]).map(|(p, q)| p * q).sum();
            *x = beta * *x + alpha * dot;
        }
    });
    c
}

pub fn program(h: &mut Harness) {
    if !h.wants("syrk") {
        return;
    }
    let (m, n) = (h.pick(200, 7), h.pick(240, 9));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..n * m)
        .map(|x| (((x / m) * (x % m) + 1) % n) as f32 / n as f32)
        .collect();
    let c: Vec<f32> = (0..n * n)
        .map(|x| (((x / n) * (x % n) + 2) % m) as f32 / m as f32)
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let ca = Matrix::from_vec([n, n], c.clone()).expect("shape");
    let aa = Matrix::from_vec([n, m], a.clone()).expect("shape");
    let dims = (n, m);
    let backend = h.backend();
    h.python(
        Py::new("syrk")
            .array("c", &[n, n], &c)
            .array("a", &[n, m], &a)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "syrk",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/syrk/syrk.c",
        size: format!("{n}x{m}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || syrk::on(&backend, alpha, beta, &ca, &aa))),
            ("sequential", run(|| Ok(sequential(alpha, beta, &c, &a, dims)))),
            ("rayon", run(|| Ok(rayon(alpha, beta, &c, &a, dims)))),
        ],
    });
}
