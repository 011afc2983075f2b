//! correlation: the correlation matrix of the columns of an n×m data matrix.
//! PolyBench/C 4.2.1, `datamining/correlation/correlation.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: M = 240, N = 260
//! (at LARGE the sequential loops take 2.2 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// Column means and standard deviations as sums over the transposed index
/// space, the normalised data, then all column pairs' products summed over
/// the rows, with 1 on the diagonal.
#[acc]
fn correlation(float_n: f32, data: &Matrix<f32>) -> Matrix<f32> {
    let [n, m] = data.shape();
    let eps = 0.1f32;
    let mean = data.transpose().sum().map(|s| s / float_n);
    let stddev = generate([m, n], |[j, i]| {
        (data[[i, j]] - mean[[j]]) * (data[[i, j]] - mean[[j]])
    })
    .sum()
    .map(|s| {
        let d = (s / float_n).sqrt();
        if d <= eps {
            1.0
        } else {
            d
        }
    });
    let norm = generate([n, m], |[i, j]| {
        (data[[i, j]] - mean[[j]]) / (float_n.sqrt() * stddev[[j]])
    });
    let prod = generate([m, m, n], |[i, j, k]| norm[[k, i]] * norm[[k, j]]).sum();
    generate([m, m], |[i, j]| if i == j { 1.0 } else { prod[[i, j]] })
}

fn sequential(float_n: f32, data: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let eps = 0.1f32;
    let mut data = data.to_vec();
    let mut mean = vec![0.0f32; m];
    let mut stddev = vec![0.0f32; m];
    let mut corr = vec![0.0f32; m * m];
    for j in 0..m {
        for i in 0..n {
            mean[j] += data[i * m + j];
        }
        mean[j] /= float_n;
    }
    for j in 0..m {
        for i in 0..n {
            let d = data[i * m + j] - mean[j];
            stddev[j] += d * d;
        }
        stddev[j] /= float_n;
        stddev[j] = stddev[j].sqrt();
        stddev[j] = if stddev[j] <= eps { 1.0 } else { stddev[j] };
    }
    for i in 0..n {
        for j in 0..m {
            data[i * m + j] -= mean[j];
            data[i * m + j] /= float_n.sqrt() * stddev[j];
        }
    }
    for i in 0..m.saturating_sub(1) {
        corr[i * m + i] = 1.0;
        for j in i + 1..m {
            let mut c = 0.0;
            for k in 0..n {
                c += data[k * m + i] * data[k * m + j];
            }
            corr[i * m + j] = c;
            corr[j * m + i] = c;
        }
    }
    if m > 0 {
        corr[m * m - 1] = 1.0;
    }
    corr
}

fn rayon(float_n: f32, data: &[f32], (n, m): (usize, usize)) -> Vec<f32> {
    let eps = 0.1f32;
    // Each column's values in one contiguous row (the transpose), in parallel.
    let mut dt = vec![0.0f32; m * n];
    dt.par_chunks_mut(n).enumerate().for_each(|(j, col)| {
        for (i, x) in col.iter_mut().enumerate() {
            *x = data[i * m + j];
        }
        let mean = col.iter().sum::<f32>() / float_n;
        let var = col.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>() / float_n;
        let sd = var.sqrt();
        let sd = if sd <= eps { 1.0 } else { sd };
        col.iter_mut()
            .for_each(|x| *x = (*x - mean) / (float_n.sqrt() * sd));
    });
    let mut corr = vec![0.0f32; m * m];
    corr.par_chunks_mut(m).enumerate().for_each(|(i, row)| {
        let ci = &dt[i * n..(i + 1) * n];
        for (j, x) in row.iter_mut().enumerate() {
            *x = if i == j {
                1.0
            } else {
                ci.iter().zip(&dt[j * n..(j + 1) * n]).map(|(p, q)| p * q).sum()
            };
        }
    });
    corr
}

pub fn program(h: &mut Harness) {
    if !h.wants("correlation") {
        return;
    }
    let (m, n) = (h.pick(240, 7), h.pick(260, 5));
    // PolyBench's init_array.
    let float_n = n as f32;
    let data: Vec<f32> = (0..n * m)
        .map(|x| ((x / m) * (x % m)) as f32 / m as f32 + (x / m) as f32)
        .collect();
    let da = Matrix::from_vec([n, m], data.clone()).expect("shape");
    let dims = (n, m);
    let backend = h.backend();
    h.python(
        Py::new("correlation")
            .array("data", &[n, m], &data)
            .scalar("float_n", float_n as f64),
    );
    h.program(Program {
        name: "correlation",
        source: "PolyBench/C 4.2.1 datamining/correlation/correlation.c",
        size: format!("{n}x{m}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || correlation::on(&backend, float_n, &da))),
            ("sequential", run(|| Ok(sequential(float_n, &data, dims)))),
            ("rayon", run(|| Ok(rayon(float_n, &data, dims)))),
        ],
    });
}
