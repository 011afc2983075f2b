//! symm: C := alpha·A·B + beta·C with A symmetric, stored in its lower triangle.
//! PolyBench/C 4.2.1, `linear-algebra/blas/symm/symm.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: M = 200, N = 240
//! (at LARGE the sequential loops take 1.6 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// The products over a 3-d index space, reading A[i][k] from the lower
/// triangle (A[k][i] above the diagonal), summed over k.
#[acc]
fn symm(alpha: f32, beta: f32, c: &Matrix<f32>, a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> {
    let [m, n] = c.shape();
    let ab = generate([m, n, m], |[i, j, k]| {
        let aik = if k <= i { a[[i, k]] } else { a[[k, i]] };
        aik * b[[k, j]]
    })
    .sum();
    c.zip_with(&ab, |c, ab| beta * c + alpha * ab)
}

fn sequential(alpha: f32, beta: f32, c: &[f32], a: &[f32], b: &[f32], (m, n): (usize, usize)) -> Vec<f32> {
    let mut c = c.to_vec();
    for i in 0..m {
        for j in 0..n {
            let mut temp2 = 0.0;
            for k in 0..i {
                c[k * n + j] += alpha * b[i * n + j] * a[i * m + k];
                temp2 += b[k * n + j] * a[i * m + k];
            }
            c[i * n + j] = beta * c[i * n + j] + alpha * b[i * n + j] * a[i * m + i] + alpha * temp2;
        }
    }
    c
}

fn rayon(alpha: f32, beta: f32, c: &[f32], a: &[f32], b: &[f32], (m, n): (usize, usize)) -> Vec<f32> {
    let mut c = c.to_vec();
    c.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        let mut ab = vec![0.0f32; n];
        for k in 0..m {
            let aik = if k <= i { a[i * m + k] } else { a[k * m + i] };
            for (x, bkj) in ab.iter_mut().zip(&b[k * n..(k + 1) * n]) {
                *x += aik * bkj;
            }
        }
        row.iter_mut()
            .zip(&ab)
            .for_each(|(c, ab)| *c = beta * *c + alpha * ab);
    });
    c
}

pub fn program(h: &mut Harness) {
    if !h.wants("symm") {
        return;
    }
    let (m, n) = (h.pick(200, 9), h.pick(240, 7));
    // PolyBench's init_array (-999 marks the upper triangle, never read).
    let c: Vec<f32> = (0..m * n)
        .map(|x| ((x / n + x % n) % 100) as f32 / m as f32)
        .collect();
    let b: Vec<f32> = (0..m * n)
        .map(|x| ((n + x / n - x % n) % 100) as f32 / m as f32)
        .collect();
    let a: Vec<f32> = (0..m * m)
        .map(|x| {
            if x % m <= x / m {
                ((x / m + x % m) % 100) as f32 / m as f32
            } else {
                -999.0
            }
        })
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let arr = |s: [usize; 2], v: &Vec<f32>| Matrix::from_vec(s, v.clone()).expect("shape");
    let (ca, aa, ba) = (arr([m, n], &c), arr([m, m], &a), arr([m, n], &b));
    let dims = (m, n);
    let backend = h.backend();
    h.python(
        Py::new("symm")
            .array("c", &[m, n], &c)
            .array("a", &[m, m], &a)
            .array("b", &[m, n], &b)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "symm",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/symm/symm.c",
        size: format!("{m}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || symm::on(&backend, alpha, beta, &ca, &aa, &ba)),
            ),
            (
                "sequential",
                run(|| Ok(sequential(alpha, beta, &c, &a, &b, dims))),
            ),
            ("rayon", run(|| Ok(rayon(alpha, beta, &c, &a, &b, dims)))),
        ],
    });
}
