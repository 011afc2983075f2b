//! mvt: x1 := x1 + A·y1 and x2 := x2 + Aᵀ·y2.
//! PolyBench/C 4.2.1, `linear-algebra/kernels/mvt/mvt.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: N = 2000.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// A·y1 as row sums, Aᵀ·y2 as row sums of the transposed products.
#[acc]
fn mvt(
    a: &Matrix<f32>,
    x1: &Vector<f32>,
    x2: &Vector<f32>,
    y1: &Vector<f32>,
    y2: &Vector<f32>,
) -> (Vector<f32>, Vector<f32>) {
    let [n, _] = a.shape();
    let ay1 = generate([n, n], |[i, j]| a[[i, j]] * y1[[j]]).sum();
    let aty2 = generate([n, n], |[i, j]| a[[j, i]] * y2[[j]]).sum();
    (x1.zip_with(&ay1, |x, s| x + s), x2.zip_with(&aty2, |x, s| x + s))
}

fn sequential(a: &[f32], x1: &[f32], x2: &[f32], y1: &[f32], y2: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let (mut x1, mut x2) = (x1.to_vec(), x2.to_vec());
    for i in 0..n {
        for j in 0..n {
            x1[i] += a[i * n + j] * y1[j];
        }
    }
    for i in 0..n {
        for j in 0..n {
            x2[i] += a[j * n + i] * y2[j];
        }
    }
    (x1, x2)
}

fn rayon(a: &[f32], x1: &[f32], x2: &[f32], y1: &[f32], y2: &[f32], n: usize) -> (Vec<f32>, Vec<f32>) {
    let x1: Vec<f32> = a
        .par_chunks(n)
        .zip(x1)
        .map(|(row, x)| x + row.iter().zip(y1).map(|(a, y)| a * y).sum::<f32>())
        .collect();
    // x2 + Aᵀ·y2: row j of A scaled by y2[j], summed per thread, then added.
    let aty2 = a
        .par_chunks(n)
        .zip(y2)
        .fold(
            || vec![0.0f32; n],
            |mut s, (row, y)| {
                s.iter_mut().zip(row).for_each(|(s, a)| *s += a * y);
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
    (x1, x2.iter().zip(&aty2).map(|(x, s)| x + s).collect())
}

pub fn program(h: &mut Harness) {
    if !h.wants("mvt") {
        return;
    }
    let n = h.pick(2000, 7);
    // PolyBench's init_array.
    let f = |k: usize| {
        (0..n)
            .map(|i| ((i + k) % n) as f32 / n as f32)
            .collect::<Vec<f32>>()
    };
    let (x1, x2, y1, y2) = (f(0), f(1), f(3), f(4));
    let a: Vec<f32> = (0..n * n)
        .map(|x| ((x / n) * (x % n) % n) as f32 / n as f32)
        .collect();
    let aa = Matrix::from_vec([n, n], a.clone()).expect("shape");
    let v = |x: &Vec<f32>| Vector::from(x.clone());
    let (x1a, x2a, y1a, y2a) = (v(&x1), v(&x2), v(&y1), v(&y2));
    let backend = h.backend();
    h.python(
        Py::new("mvt")
            .array("a", &[n, n], &a)
            .array("x1", &[n], &x1)
            .array("x2", &[n], &x2)
            .array("y1", &[n], &y1)
            .array("y2", &[n], &y2),
    );
    h.program(Program {
        name: "mvt",
        source: "PolyBench/C 4.2.1 linear-algebra/kernels/mvt/mvt.c",
        size: format!("{n}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || mvt::on(&backend, &aa, &x1a, &x2a, &y1a, &y2a)),
            ),
            ("sequential", run(|| Ok(sequential(&a, &x1, &x2, &y1, &y2, n)))),
            ("rayon", run(|| Ok(rayon(&a, &x1, &x2, &y1, &y2, n)))),
        ],
    });
}
