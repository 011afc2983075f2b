//! lud: LU decomposition without pivoting, in place (L below the diagonal with a
//! unit diagonal, U on and above it): for each i, row i of U, then column i of L.
//! Rodinia 3.1, `openmp/lud/omp/lud_omp.c` (github.com/yuhc/gpu-rodinia); the
//! loops are those of the unblocked version (lud_base), which lud_omp.c blocks.
//! The matrix is Rodinia's generated one (common.c, create_matrix: entry (i, j) is
//! 10 exp(-0.001 |i - j|)); the run script's 8000 x 8000 is far over the time
//! budget, so 512 x 512.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the outer loop as a `for` over the
/// matrix, each of its two inner loops a `generate` that recomputes the row (then
/// the column) with a scalar `for` over k and copies every other element.
#[acc]
fn lud(a0: &Matrix<f32>) -> Matrix<f32> {
    let [n, _] = a0.shape();
    let mut a = a0.map(|x| x);
    for i in 0..n {
        a = generate([n, n], |[r, c]| {
            if r == i && c >= i {
                let mut sum = a[[i, c]];
                for k in 0..i {
                    sum -= a[[i, k]] * a[[k, c]];
                }
                sum
            } else {
                a[[r, c]]
            }
        });
        a = generate([n, n], |[r, c]| {
            if c == i && r > i {
                let mut sum = a[[r, i]];
                for k in 0..i {
                    sum -= a[[r, k]] * a[[k, i]];
                }
                sum / a[[i, i]]
            } else {
                a[[r, c]]
            }
        });
    }
    a
}

fn sequential(a: &[f32], n: usize) -> Vec<f32> {
    let mut a = a.to_vec();
    for i in 0..n {
        for j in i..n {
            let mut sum = a[i * n + j];
            for k in 0..i {
                sum -= a[i * n + k] * a[k * n + j];
            }
            a[i * n + j] = sum;
        }
        for j in i + 1..n {
            let mut sum = a[j * n + i];
            for k in 0..i {
                sum -= a[j * n + k] * a[k * n + i];
            }
            a[j * n + i] = sum / a[i * n + i];
        }
    }
    a
}

fn rayon(a: &[f32], n: usize) -> Vec<f32> {
    let mut a = a.to_vec();
    for i in 0..n {
        let (top, rest) = a.split_at_mut(i * n);
        let (row, bottom) = rest.split_at_mut(n);
        let top = &*top;
        let (left, right) = row.split_at_mut(i);
        let left = &*left;
        right
            .par_iter_mut()
            .enumerate()
            .with_min_len(64)
            .for_each(|(o, x)| {
                let j = i + o;
                let mut sum = *x;
                for k in 0..i {
                    sum -= left[k] * top[k * n + j];
                }
                *x = sum;
            });
        let diag = row[i];
        bottom.par_chunks_mut(n).with_min_len(16).for_each(|r| {
            let mut sum = r[i];
            for k in 0..i {
                sum -= r[k] * top[k * n + i];
            }
            r[i] = sum / diag;
        });
    }
    a
}

pub fn program(h: &mut Harness) {
    if !h.wants("lud") {
        return;
    }
    let n = h.pick(512, 7);
    let a: Vec<f32> = (0..n * n)
        .map(|x| 10.0 * (-0.001 * (x / n).abs_diff(x % n) as f32).exp())
        .collect();
    let am = Matrix::from_vec([n, n], a.clone()).expect("shape");
    let backend = h.backend();
    h.program(Program {
        name: "lud",
        source: "Rodinia 3.1 openmp/lud/omp/lud_omp.c",
        size: format!("{n}x{n}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || lud::on(&backend, &am))),
            ("sequential", run(|| Ok(sequential(&a, n)))),
            ("rayon", run(|| Ok(rayon(&a, n)))),
        ],
    });
}
