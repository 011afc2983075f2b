//! covariance: the covariance matrix of the columns of an n×m data matrix.
//! PolyBench/C 4.2.1, `datamining/covariance/covariance.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: M = 240, N = 260
//! (at LARGE the sequential loops take 2.2 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// Column means through the transpose, the centred data, then all column
/// pairs' products summed over the rows (the whole matrix: it is symmetric).
#[acc]
fn covariance(float_n: f32, data: &Matrix<f32>) -> Matrix<f32> {
    let [n, m] = data.shape();
    let mean = data.transpose().sum().map(|s| s / float_n);
    let centred = generate([n, m], |[i, j]| data[[i, j]] - mean[[j]]);
    generate([m, m, n], |[i, j, k]| centred[[k, i]] * centred[[k, j]])
        .sum()
        .map(|s| s / (float_n - 1.0))
}

fn sequential(float_n: f32, data: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let mut data = data.to_vec();
    let mut mean = vec![0.0f32; m];
    let mut cov = vec![0.0f32; m * m];
    for j in 0..m {
        for i in 0..n {
            mean[j] += data[i * m + j];
        }
        mean[j] /= float_n;
    }
    for i in 0..n {
        for j in 0..m {
            data[i * m + j] -= mean[j];
        }
    }
    for i in 0..m {
        for j in i..m {
            let mut c = 0.0;
            for k in 0..n {
                c += data[k * m + i] * data[k * m + j];
            }
            c /= float_n - 1.0;
            cov[i * m + j] = c;
            cov[j * m + i] = c;
        }
    }
    cov
}

fn rayon(float_n: f32, data: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let sums = data
        .par_chunks(m)
        .fold(
            || vec![0.0f32; m],
            |mut s, row| {
                s.iter_mut().zip(row).for_each(|(s, x)| *s += x);
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
    let mean: Vec<f32> = sums.iter().map(|s| s / float_n).collect();
    // The centred data transposed, so that each column pair is a dot product
    // of two contiguous rows.
    let mut ct = vec![0.0f32; m * n];
    ct.par_chunks_mut(n).enumerate().for_each(|(j, col)| {
        for (i, x) in col.iter_mut().enumerate() {
            *x = data[i * m + j] - mean[j];
        }
    });
    let mut cov = vec![0.0f32; m * m];
    cov.par_chunks_mut(m).enumerate().for_each(|(i, row)| {
        let ci = &ct[i * n..(i + 1) * n];
        for (j, x) in row.iter_mut().enumerate() {
            let dot: f32 = ci.iter().zip(&ct[j * n..(j + 1) * n]).map(|(p, q)| p * q).sum();
            *x = dot / (float_n - 1.0);
        }
    });
    cov
}

pub fn program(h: &mut Harness) {
    if !h.wants("covariance") {
        return;
    }
    let (m, n) = (h.pick(240, 5), h.pick(260, 9));
    // PolyBench's init_array.
    let float_n = n as f32;
    let data: Vec<f32> = (0..n * m)
        .map(|x| ((x / m) as f32 * (x % m) as f32) / m as f32)
        .collect();
    let da = Matrix::from_vec([n, m], data.clone()).expect("shape");
    let dims = (n, m);
    let backend = h.backend();
    h.python(
        Py::new("covariance")
            .array("data", &[n, m], &data)
            .scalar("float_n", float_n as f64),
    );
    h.program(Program {
        name: "covariance",
        source: "PolyBench/C 4.2.1 datamining/covariance/covariance.c",
        size: format!("{n}x{m}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || covariance::on(&backend, float_n, &da))),
            ("sequential", run(|| Ok(sequential(float_n, &data, dims)))),
            ("rayon", run(|| Ok(rayon(float_n, &data, dims)))),
        ],
    });
}
