//! syr2k: C := alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C on the lower triangle (j ≤ i) of C.
//! PolyBench/C 4.2.1, `linear-algebra/blas/syr2k/syr2k.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: M = 200, N = 240
//! (at LARGE the sequential loops take 1.3 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// Both products summed over k in one 3-d generate, then the lower triangle
/// updated and the upper one kept.
#[acc]
fn syr2k(alpha: f32, beta: f32, c: &Matrix<f32>, a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
    let [n, m] = a.shape();
    let s = generate([n, n, m], |[i, j, k]| {
        a[[j, k]] * alpha * b[[i, k]] + b[[j, k]] * alpha * a[[i, k]]
    })
    .sum();
    generate([n, n], |[i, j]| {
        if j <= i {
            beta * c[[i, j]] + s[[i, j]]
        } else {
            c[[i, j]]
        }
    })
}

fn sequential(alpha: f32, beta: f32, c: &[f32], a: &[f32], b: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let mut c = c.to_vec();
    for i in 0..n {
        for j in 0..=i {
            c[i * n + j] *= beta;
        }
        for k in 0..m {
            for j in 0..=i {
                c[i * n + j] += a[j * m + k] * alpha * b[i * m + k] + b[j * m + k] * alpha * a[i * m + k];
            }
        }
    }
    c
}

fn rayon(alpha: f32, beta: f32, c: &[f32], a: &[f32], b: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let mut c = c.to_vec();
    c.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        let (ai, bi) = (&a[i * m..(i + 1) * m], &b[i * m..(i + 1) * m]);
        for (j, x) in row[..=i].iter_mut().enumerate() {
            let (aj, bj) = (&a[j * m..(j + 1) * m], &b[j * m..(j + 1) * m]);
            let s: f32 = (0..m).map(|k| aj[k] * bi[k] + bj[k] * ai[k]).sum();
            *x = beta * *x + alpha * s;
        }
    });
    c
}

pub fn program(h: &mut Harness) {
    if !h.wants("syr2k") {
        return;
    }
    let (m, n) = (h.pick(200, 5), h.pick(240, 7));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..n * m)
        .map(|x| (((x / m) * (x % m) + 1) % n) as f32 / n as f32)
        .collect();
    let b: Vec<f32> = (0..n * m)
        .map(|x| (((x / m) * (x % m) + 2) % m) as f32 / m as f32)
        .collect();
    let c: Vec<f32> = (0..n * n)
        .map(|x| (((x / n) * (x % n) + 3) % n) as f32 / m as f32)
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let ca = Matrix::from_vec([n, n], c.clone()).expect("shape");
    let aa = Matrix::from_vec([n, m], a.clone()).expect("shape");
    let ba = Matrix::from_vec([n, m], b.clone()).expect("shape");
    let dims = (n, m);
    let backend = h.backend();
    h.python(
        Py::new("syr2k")
            .array("c", &[n, n], &c)
            .array("a", &[n, m], &a)
            .array("b", &[n, m], &b)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "syr2k",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/syr2k/syr2k.c",
        size: format!("{n}x{m}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || syr2k::on(&backend, alpha, beta, &ca, &aa, &ba)),
            ),
            (
                "sequential",
                run(|| Ok(sequential(alpha, beta, &c, &a, &b, dims))),
            ),
            ("rayon", run(|| Ok(rayon(alpha, beta, &c, &a, &b, dims)))),
        ],
    });
}
