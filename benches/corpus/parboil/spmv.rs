//! spmv: sparse matrix times dense vector, y = A·x.
//! Parboil 2.5, `benchmarks/spmv/src/cpu/main.c` (the CPU version reads the
//! matrix into CSR; the GPU versions use JDS). Size of Parboil's large data
//! set (Dubcova3: 146,689 rows, 3.6 M non-zeros); the matrix is made here by
//! an LCG with 0 to 49 non-zeros a row.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md (it is the doc's own example):
/// the products gathered from `x`, summed per row with a segmented fold.
#[acc]
fn spmv(vals: &Vector<f32>, cols: &Vector<u32>, row_lengths: &Vector<u32>, x: &Vector<f32>) -> Vector<f32> {
    vals.zip_with(cols, |v, c| v * x[[c as usize]])
        .fold_seg(row_lengths, 0.0, |a, b| a + b)
}

fn row(vals: &[f32], cols: &[u32], x: &[f32], lo: usize, hi: usize) -> f32 {
    let mut sum = 0.0f32;
    for j in lo..hi {
        sum += vals[j] * x[cols[j] as usize];
    }
    sum
}

/// Parboil's CPU loop over the CSR rows.
fn sequential(vals: &[f32], cols: &[u32], offsets: &[usize], x: &[f32]) -> Vec<f32> {
    offsets
        .windows(2)
        .map(|w| row(vals, cols, x, w[0], w[1]))
        .collect()
}

fn rayon(vals: &[f32], cols: &[u32], offsets: &[usize], x: &[f32]) -> Vec<f32> {
    offsets
        .par_windows(2)
        .map(|w| row(vals, cols, x, w[0], w[1]))
        .collect()
}

pub fn program(h: &mut Harness) {
    if !h.wants("spmv") {
        return;
    }
    let (rows, ncols) = (h.pick(146_689, 7), h.pick(146_689, 5));
    let mut s = 2024u64;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 33) as usize
    };
    // Row 1 is empty in the check size.
    let lengths: Vec<u32> = (0..rows)
        .map(|r| if r == 1 { 0 } else { (next() % 50) as u32 })
        .collect();
    let nnz: usize = lengths.iter().map(|&l| l as usize).sum();
    let cols: Vec<u32> = (0..nnz).map(|_| (next() % ncols) as u32).collect();
    let vals: Vec<f32> = (0..nnz).map(|_| (next() % 2001) as f32 / 1000.0 - 1.0).collect();
    let x: Vec<f32> = (0..ncols).map(|i| ((i * 37) % 101) as f32 / 50.0 - 1.0).collect();
    let mut offsets = vec![0usize];
    for &l in &lengths {
        offsets.push(offsets.last().unwrap() + l as usize);
    }
    let (va, ca, la, xa) = (
        Vector::from(vals.clone()),
        Vector::from(cols.clone()),
        Vector::from(lengths),
        Vector::from(x.clone()),
    );
    let backend = h.backend();
    h.program(Program {
        name: "spmv",
        source: "Parboil 2.5 spmv (benchmarks/spmv/src/cpu/main.c), CSR",
        size: format!("{rows} rows, {nnz} nnz"),
        tolerance: 1e-5,
        systems: vec![
            ("accel", run(move || spmv::on(&backend, &va, &ca, &la, &xa))),
            ("sequential", run(|| Ok(sequential(&vals, &cols, &offsets, &x)))),
            ("rayon", run(|| Ok(rayon(&vals, &cols, &offsets, &x)))),
        ],
    });
}
