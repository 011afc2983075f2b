//! pathfinder: dynamic programming over a grid, row by row: each cell adds its
//! weight to the least of the three cells above it.
//! Rodinia 3.1, `openmp/pathfinder/pathfinder.cpp` (github.com/yuhc/gpu-rodinia).
//! Run script: 100000 columns, 100 rows, weights `rand() % 10`.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md, following the original's loop: a
/// `for` over the rows, each a `generate` taking the minimum of the neighbours
/// above with `if`s at the two ends.
#[acc]
fn pathfinder(wall: &Matrix<i32>) -> Vector<i32> {
    let [rows, cols] = wall.shape();
    let mut dst = generate([cols], |[n]| wall[[0, n]]);
    for t in 0..rows - 1 {
        dst = generate([cols], |[n]| {
            let mut m = dst[[n]];
            if n > 0 {
                m = m.min(dst[[n - 1]]);
            }
            if n < cols - 1 {
                m = m.min(dst[[n + 1]]);
            }
            wall[[t + 1, n]] + m
        });
    }
    dst
}

fn sequential(wall: &[i32], rows: usize, cols: usize) -> Vec<i32> {
    let mut dst = wall[..cols].to_vec();
    let mut src = vec![0; cols];
    for t in 0..rows - 1 {
        std::mem::swap(&mut src, &mut dst);
        for n in 0..cols {
            let mut min = src[n];
            if n > 0 {
                min = min.min(src[n - 1]);
            }
            if n < cols - 1 {
                min = min.min(src[n + 1]);
            }
            dst[n] = wall[(t + 1) * cols + n] + min;
        }
    }
    dst
}

fn rayon(wall: &[i32], rows: usize, cols: usize) -> Vec<i32> {
    let mut dst = wall[..cols].to_vec();
    let mut src = vec![0; cols];
    for t in 0..rows - 1 {
        std::mem::swap(&mut src, &mut dst);
        let src = &src;
        dst.par_iter_mut()
            .enumerate()
            .with_min_len(4096)
            .for_each(|(n, d)| {
                let mut min = src[n];
                if n > 0 {
                    min = min.min(src[n - 1]);
                }
                if n < cols - 1 {
                    min = min.min(src[n + 1]);
                }
                *d = wall[(t + 1) * cols + n] + min;
            });
    }
    dst
}

pub fn program(h: &mut Harness) {
    if !h.wants("pathfinder") {
        return;
    }
    let (rows, cols) = (h.pick(100, 5), h.pick(100_000, 9));
    let mut seed = 7u32;
    let wall: Vec<i32> = (0..rows * cols)
        .map(|_| {
            seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
            ((seed >> 16) % 10) as i32
        })
        .collect();
    let wm = Matrix::from_vec([rows, cols], wall.clone()).expect("shape");
    let backend = h.backend();
    h.program(Program {
        name: "pathfinder",
        source: "Rodinia 3.1 openmp/pathfinder/pathfinder.cpp",
        size: format!("{rows}x{cols}"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || pathfinder::on(&backend, &wm))),
            ("sequential", run(|| Ok(sequential(&wall, rows, cols)))),
            ("rayon", run(|| Ok(rayon(&wall, rows, cols)))),
        ],
    });
}
