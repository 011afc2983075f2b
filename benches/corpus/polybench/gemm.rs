//! gemm: C := alpha·A·B + beta·C.
//! PolyBench/C 4.2.1, `linear-algebra/blas/gemm/gemm.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: NI = 1000, NJ = 1100, NK = 1200.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the products over a 3-d index
/// space, summed over the innermost (k) axis.
#[acc]
fn gemm(alpha: f32, beta: f32, c: &Matrix<f32>, a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
    let [ni, nk] = a.shape();
    let nj = b.shape()[1];
    let ab = generate([ni, nj, nk], |[i, j, k]| a[[i, k]] * b[[k, j]]).sum();
    c.zip_with(&ab, |c, ab| beta * c + alpha * ab)
}

fn sequential(
    alpha: f32,
    beta: f32,
    c: &[f32],
    a: &[f32],
    b: &[f32],
    (ni, nj, nk): (usize, usize, usize),
) -> Vec<f32> {
    let mut c = c.to_vec();
    for i in 0..ni {
        for j in 0..nj {
            c[i * nj + j] *= beta;
        }
        for k in 0..nk {
            for j in 0..nj {
                c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
            }
        }
    }
    c
}

fn rayon(
    alpha: f32,
    beta: f32,
    c: &[f32],
    a: &[f32],
    b: &[f32],
    (_, nj, nk): (usize, usize, usize),
) -> Vec<f32> {
    let mut c = c.to_vec();
    c.par_chunks_mut(nj).enumerate().for_each(|(i, row)| {
        row.iter_mut().for_each(|x| *x *= beta);
        for k in 0..nk {
            let aik = alpha * a[i * nk + k];
            for (x, bkj) in row.iter_mut().zip(&b[k * nj..(k + 1) * nj]) {
                *x += aik * bkj;
            }
        }
    });
    c
}

pub fn program(h: &mut Harness) {
    if !h.wants("gemm") {
        return;
    }
    let (ni, nj, nk) = (h.pick(1000, 7), h.pick(1100, 9), h.pick(1200, 5));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..ni * nk)
        .map(|x| ((x / nk) * (x % nk + 1) % nk) as f32 / nk as f32)
        .collect();
    let b: Vec<f32> = (0..nk * nj)
        .map(|x| ((x / nj) * (x % nj + 2) % nj) as f32 / nj as f32)
        .collect();
    let c: Vec<f32> = (0..ni * nj)
        .map(|x| ((x / nj) * (x % nj) % ni) as f32 / ni as f32)
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let arr = |s: [usize; 2], v: &Vec<f32>| Matrix::from_vec(s, v.clone()).expect("shape");
    let (ca, aa, ba) = (arr([ni, nj], &c), arr([ni, nk], &a), arr([nk, nj], &b));
    let dims = (ni, nj, nk);
    let backend = h.backend();
    h.python(
        Py::new("gemm")
            .array("a", &[ni, nk], &a)
            .array("b", &[nk, nj], &b)
            .array("c", &[ni, nj], &c)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "gemm",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/gemm/gemm.c",
        size: format!("{ni}x{nj}x{nk}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || gemm::on(&backend, alpha, beta, &ca, &aa, &ba)),
            ),
            (
                "sequential",
                run(|| Ok(sequential(alpha, beta, &c, &a, &b, dims))),
            ),
            ("rayon", run(|| Ok(rayon(alpha, beta, &c, &a, &b, dims)))),
        ],
    });
}
