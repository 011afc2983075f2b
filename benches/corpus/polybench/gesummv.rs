//! gesummv: y := alpha·A·x + beta·B·x.
//! PolyBench/C 4.2.1, `linear-algebra/blas/gesummv/gesummv.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: N = 1300.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// Two matrix-vector products as row sums, combined element-wise.
#[acc]
fn gesummv(alpha: f32, beta: f32, a: &Matrix<f32>, b: &Matrix<f32>, x: &Vector<f32>) -> Vector<f32> {
    let ax = generate(a.shape(), |[i, j]| a[[i, j]] * x[[j]]).sum();
    let bx = generate(b.shape(), |[i, j]| b[[i, j]] * x[[j]]).sum();
    ax.zip_with(&bx, |t, y| alpha * t + beta * y)
}

fn sequential(alpha: f32, beta: f32, a: &[f32], b: &[f32], x: &[f32], n: usize) -> Vec<f32> {
    let mut y = vec![0.0f32; n];
    for i in 0..n {
        let (mut tmp, mut yi) = (0.0, 0.0);
        for j in 0..n {
            tmp += a[i * n + j] * x[j];
            yi += b[i * n + j] * x[j];
        }
        y[i] = alpha * tmp + beta * yi;
    }
    y
}

fn rayon(alpha: f32, beta: f32, a: &[f32], b: &[f32], x: &[f32], n: usize) -> Vec<f32> {
    a.par_chunks(n)
        .zip(b.par_chunks(n))
        .map(|(ra, rb)| {
            let tmp: f32 = ra.iter().zip(x).map(|(a, x)| a * x).sum();
            let y: f32 = rb.iter().zip(x).map(|(b, x)| b * x).sum();
            alpha * tmp + beta * y
        })
        .collect()
}

pub fn program(h: &mut Harness) {
    if !h.wants("gesummv") {
        return;
    }
    let n = h.pick(1300, 1);
    // PolyBench's init_array.
    let x: Vec<f32> = (0..n).map(|i| (i % n) as f32 / n as f32).collect();
    let a: Vec<f32> = (0..n * n)
        .map(|x| (((x / n) * (x % n) + 1) % n) as f32 / n as f32)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|x| (((x / n) * (x % n) + 2) % n) as f32 / n as f32)
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let aa = Matrix::from_vec([n, n], a.clone()).expect("shape");
    let ba = Matrix::from_vec([n, n], b.clone()).expect("shape");
    let xa = Vector::from(x.clone());
    let backend = h.backend();
    h.python(
        Py::new("gesummv")
            .array("a", &[n, n], &a)
            .array("b", &[n, n], &b)
            .array("x", &[n], &x)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "gesummv",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/gesummv/gesummv.c",
        size: format!("{n}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || gesummv::on(&backend, alpha, beta, &aa, &ba, &xa)),
            ),
            ("sequential", run(|| Ok(sequential(alpha, beta, &a, &b, &x, n)))),
            ("rayon", run(|| Ok(rayon(alpha, beta, &a, &b, &x, n)))),
        ],
    });
}
