//! bicg: the BiCG sub-kernel, s := Aᵀ·r and q := A·p.
//! PolyBench/C 4.2.1, `linear-algebra/kernels/bicg/bicg.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: M = 1900, N = 2100.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// Both products as sums over rows of generated products; A is n×m.
#[acc]
fn bicg(a: &Matrix<f32>, p: &Vector<f32>, r: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
    let [n, m] = a.shape();
    let s = generate([m, n], |[j, i]| r[[i]] * a[[i, j]]).sum();
    let q = generate([n, m], |[i, j]| a[[i, j]] * p[[j]]).sum();
    (s, q)
}

fn sequential(a: &[f32], p: &[f32], r: &[f32], (n, m): (usize, usize)) -> (Vec<f32>, Vec<f32>) {
    let mut s = vec![0.0f32; m];
    let mut q = vec![0.0f32; n];
    for i in 0..n {
        for j in 0..m {
            s[j] += r[i] * a[i * m + j];
            q[i] += a[i * m + j] * p[j];
        }
    }
    (s, q)
}

fn rayon(a: &[f32], p: &[f32], r: &[f32], (_, m): (usize, usize)) -> (Vec<f32>, Vec<f32>) {
    let q: Vec<f32> = a
        .par_chunks(m)
        .map(|row| row.iter().zip(p).map(|(a, p)| a * p).sum())
        .collect();
    let s = a
        .par_chunks(m)
        .zip(r)
        .fold(
            || vec![0.0f32; m],
            |mut s, (row, ri)| {
                s.iter_mut().zip(row).for_each(|(s, a)| *s += ri * a);
                s
            },
        )
        .reduce(
            || vec![0.0f32; m],
            |mut s, t| {
                s.iter_mut().zip(&t).for_each(|(s, t)| *s += t);
                s
            },
        );
    (s, q)
}

pub fn program(h: &mut Harness) {
    if !h.wants("bicg") {
        return;
    }
    let (m, n) = (h.pick(1900, 5), h.pick(2100, 9));
    // PolyBench's init_array (A is n×m).
    let p: Vec<f32> = (0..m).map(|i| (i % m) as f32 / m as f32).collect();
    let r: Vec<f32> = (0..n).map(|i| (i % n) as f32 / n as f32).collect();
    let a: Vec<f32> = (0..n * m)
        .map(|x| ((x / m) * (x % m + 1) % n) as f32 / n as f32)
        .collect();
    let aa = Matrix::from_vec([n, m], a.clone()).expect("shape");
    let (pa, ra) = (Vector::from(p.clone()), Vector::from(r.clone()));
    let dims = (n, m);
    let backend = h.backend();
    h.python(
        Py::new("bicg")
            .array("a", &[n, m], &a)
            .array("p", &[m], &p)
            .array("r", &[n], &r),
    );
    h.program(Program {
        name: "bicg",
        source: "PolyBench/C 4.2.1 linear-algebra/kernels/bicg/bicg.c",
        size: format!("{n}x{m}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || bicg::on(&backend, &aa, &pa, &ra))),
            ("sequential", run(|| Ok(sequential(&a, &p, &r, dims)))),
            ("rayon", run(|| Ok(rayon(&a, &p, &r, dims)))),
        ],
    });
}
