//! atax: y := Aᵀ·(A·x).
//! PolyBench/C 4.2.1, `linear-algebra/kernels/atax/atax.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: M = 1900, N = 2100.

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// tmp = A·x as row sums of products, then y = Aᵀ·tmp the same way over the
/// transposed index space.
#[acc]
fn atax(a: &Matrix<f32>, x: &Vector<f32>) -> Vector<f32> {
    let [m, n] = a.shape();
    let tmp = generate([m, n], |[i, j]| a[[i, j]] * x[[j]]).sum();
    generate([n, m], |[j, i]| a[[i, j]] * tmp[[i]]).sum()
}

fn sequential(a: &[f32], x: &[f32], (m, n): (usize, usize)) -> Vec<f32> {
    let mut y = vec![0.0f32; n];
    for i in 0..m {
        let mut tmp = 0.0;
        for j in 0..n {
            tmp += a[i * n + j] * x[j];
        }
        for j in 0..n {
            y[j] += a[i * n + j] * tmp;
        }
    }
    y
}

fn rayon(a: &[f32], x: &[f32], (_, n): (usize, usize)) -> Vec<f32> {
    let tmp: Vec<f32> = a
        .par_chunks(n)
        .map(|row| row.iter().zip(x).map(|(a, x)| a * x).sum())
        .collect();
    // y = Aᵀ·tmp: each thread sums its rows' contributions, then the partial
    // vectors are added.
    a.par_chunks(n)
        .zip(&tmp)
        .fold(
            || vec![0.0f32; n],
            |mut y, (row, t)| {
                y.iter_mut().zip(row).for_each(|(y, a)| *y += a * t);
                y
            },
        )
        .reduce(
            || vec![0.0f32; n],
            |mut y, z| {
                y.iter_mut().zip(&z).for_each(|(y, z)| *y += z);
                y
            },
        )
}

pub fn program(h: &mut Harness) {
    if !h.wants("atax") {
        return;
    }
    let (m, n) = (h.pick(1900, 7), h.pick(2100, 9));
    // PolyBench's init_array.
    let x: Vec<f32> = (0..n).map(|i| 1.0 + i as f32 / n as f32).collect();
    let a: Vec<f32> = (0..m * n)
        .map(|x| ((x / n + x % n) % n) as f32 / (5 * m) as f32)
        .collect();
    let aa = Matrix::from_vec([m, n], a.clone()).expect("shape");
    let xa = Vector::from(x.clone());
    let dims = (m, n);
    let backend = h.backend();
    h.python(Py::new("atax").array("a", &[m, n], &a).array("x", &[n], &x));
    h.program(Program {
        name: "atax",
        source: "PolyBench/C 4.2.1 linear-algebra/kernels/atax/atax.c",
        size: format!("{m}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || atax::on(&backend, &aa, &xa))),
            ("sequential", run(|| Ok(sequential(&a, &x, dims)))),
            ("rayon", run(|| Ok(rayon(&a, &x, dims)))),
        ],
    });
}
