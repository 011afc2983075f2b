//! gemver: Â := A + u1·v1ᵀ + u2·v2ᵀ, x := beta·Âᵀ·y + z, w := alpha·Â·x.
//! PolyBench/C 4.2.1, `linear-algebra/blas/gemver/gemver.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: N = 2000.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// The rank-2 update as a generate, then the two matrix-vector products as
/// row sums of generated products. Returns (Â, x, w).
#[acc]
fn gemver(
    alpha: f32,
    beta: f32,
    a: &Matrix<f32>,
    u1: &Vector<f32>,
    v1: &Vector<f32>,
    u2: &Vector<f32>,
    v2: &Vector<f32>,
    y: &Vector<f32>,
    z: &Vector<f32>,
) -> (Matrix<f32>, Vector<f32>, Vector<f32>) {
    let [n, _] = a.shape();
    let ah = generate([n, n], |[i, j]| a[[i, j]] + u1[[i]] * v1[[j]] + u2[[i]] * v2[[j]]);
    let x = generate([n, n], |[i, j]| beta * ah[[j, i]] * y[[j]])
        .sum()
        .zip_with(z, |s, z| s + z);
    let w = generate([n, n], |[i, j]| alpha * ah[[i, j]] * x[[j]]).sum();
    (ah, x, w)
}

type Vecs<'a> = (&'a [f32], &'a [f32], &'a [f32], &'a [f32], &'a [f32], &'a [f32]);

fn sequential(
    alpha: f32,
    beta: f32,
    a: &[f32],
    (u1, v1, u2, v2, y, z): Vecs,
    n: usize,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut a = a.to_vec();
    let (mut x, mut w) = (vec![0.0f32; n], vec![0.0f32; n]);
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = a[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
        }
    }
    for i in 0..n {
        for j in 0..n {
            x[i] = x[i] + beta * a[j * n + i] * y[j];
        }
    }
    for i in 0..n {
        x[i] = x[i] + z[i];
    }
    for i in 0..n {
        for j in 0..n {
            w[i] = w[i] + alpha * a[i * n + j] * x[j];
        }
    }
    (a, x, w)
}

fn rayon(
    alpha: f32,
    beta: f32,
    a: &[f32],
    (u1, v1, u2, v2, y, z): Vecs,
    n: usize,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut a = a.to_vec();
    a.par_chunks_mut(n).enumerate().for_each(|(i, row)| {
        for (j, x) in row.iter_mut().enumerate() {
            *x = *x + u1[i] * v1[j] + u2[i] * v2[j];
        }
    });
    // x = beta·Âᵀ·y + z: rows of Â scaled by beta·y[j], summed per thread.
    let aty = a
        .par_chunks(n)
        .zip(y)
        .fold(
            || vec![0.0f32; n],
            |mut s, (row, yj)| {
                s.iter_mut().zip(row).for_each(|(s, a)| *s += beta * a * yj);
                s
            },
        )
        .reduce(
            || vec![0.0f32; n],
            |mut s, t| {
                s.iter_mut().zip(&t).for_each(|(s, t)| *s += t);
                s
            },
        );
    let x: Vec<f32> = aty.iter().zip(z).map(|(s, z)| s + z).collect();
    let w = a
        .par_chunks(n)
        .map(|row| row.iter().zip(&x).map(|(a, x)| alpha * a * x).sum())
        .collect();
    (a, x, w)
}

pub fn program(h: &mut Harness) {
    if !h.wants("gemver") {
        return;
    }
    let n = h.pick(2000, 9);
    // PolyBench's init_array.
    let fnn = n as f32;
    let u1: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let g = |d: f32| (0..n).map(|i| ((i + 1) as f32 / fnn) / d).collect::<Vec<f32>>();
    let (u2, v1, v2, y, z) = (g(2.0), g(4.0), g(6.0), g(8.0), g(9.0));
    let a: Vec<f32> = (0..n * n)
        .map(|x| ((x / n) * (x % n) % n) as f32 / n as f32)
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let aa = Matrix::from_vec([n, n], a.clone()).expect("shape");
    let v = |x: &Vec<f32>| Vector::from(x.clone());
    let (u1a, v1a, u2a, v2a, ya, za) = (v(&u1), v(&v1), v(&u2), v(&v2), v(&y), v(&z));
    let backend = h.backend();
    let vecs = (&u1[..], &v1[..], &u2[..], &v2[..], &y[..], &z[..]);
    h.python(
        Py::new("gemver")
            .array("a", &[n, n], &a)
            .array("u1", &[n], &u1)
            .array("v1", &[n], &v1)
            .array("u2", &[n], &u2)
            .array("v2", &[n], &v2)
            .array("y", &[n], &y)
            .array("z", &[n], &z)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "gemver",
        source: "PolyBench/C 4.2.1 linear-algebra/blas/gemver/gemver.c",
        size: format!("{n}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || gemver::on(&backend, alpha, beta, &aa, &u1a, &v1a, &u2a, &v2a, &ya, &za)),
            ),
            ("sequential", run(|| Ok(sequential(alpha, beta, &a, vecs, n)))),
            ("rayon", run(|| Ok(rayon(alpha, beta, &a, vecs, n)))),
        ],
    });
}
