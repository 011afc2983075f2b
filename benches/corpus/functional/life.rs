//! life: Conway's game of life on a torus (the edges wrap), several steps.
//! futhark-benchmarks `misc/life/life.fut` with `misc/life/conway.fut`.
//! The board is made here by an LCG, about a third alive.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: a 3 x 3 stencil with
/// `Boundary::Wrap`, in a `for` loop over the steps.
#[acc]
fn life(board: &Matrix<u8>, steps: usize) -> Matrix<u8> {
    let mut b = board.map(|x| x);
    for _ in 0..steps {
        b = b.stencil(Boundary::Wrap, |[[nw, n, ne], [w, c, e], [sw, s, se]]| {
            let alive = nw + n + ne + w + e + sw + s + se;
            if alive == 3 || (alive == 2 && c == 1) {
                1u8
            } else {
                0u8
            }
        });
    }
    b
}

fn cell(b: &[u8], (rows, cols): (usize, usize), r: usize, c: usize) -> u8 {
    let (up, down) = (
        if r == 0 { rows - 1 } else { r - 1 },
        if r + 1 == rows { 0 } else { r + 1 },
    );
    let (left, right) = (
        if c == 0 { cols - 1 } else { c - 1 },
        if c + 1 == cols { 0 } else { c + 1 },
    );
    let at = |r: usize, c: usize| b[r * cols + c];
    let alive = at(up, left)
        + at(up, c)
        + at(up, right)
        + at(r, left)
        + at(r, right)
        + at(down, left)
        + at(down, c)
        + at(down, right);
    (alive == 3 || (alive == 2 && at(r, c) == 1)) as u8
}

/// Row `r` of the next board: the interior columns from three row slices,
/// the two edge columns (which wrap) through `cell`.
fn step_row(b: &[u8], (rows, cols): (usize, usize), r: usize, out: &mut [u8]) {
    let (up, down) = (
        if r == 0 { rows - 1 } else { r - 1 },
        if r + 1 == rows { 0 } else { r + 1 },
    );
    let (u, m, d) = (
        &b[up * cols..(up + 1) * cols],
        &b[r * cols..(r + 1) * cols],
        &b[down * cols..(down + 1) * cols],
    );
    for c in 1..cols.saturating_sub(1) {
        let alive = u[c - 1] + u[c] + u[c + 1] + m[c - 1] + m[c + 1] + d[c - 1] + d[c] + d[c + 1];
        out[c] = (alive == 3 || (alive == 2 && m[c] == 1)) as u8;
    }
    out[0] = cell(b, (rows, cols), r, 0);
    out[cols - 1] = cell(b, (rows, cols), r, cols - 1);
}

fn sequential(board: &[u8], dims: (usize, usize), steps: usize) -> Vec<u8> {
    let mut b = board.to_vec();
    let mut next = b.clone();
    for _ in 0..steps {
        for (r, row) in next.chunks_mut(dims.1).enumerate() {
            step_row(&b, dims, r, row);
        }
        std::mem::swap(&mut b, &mut next);
    }
    b
}

fn rayon(board: &[u8], dims: (usize, usize), steps: usize) -> Vec<u8> {
    let mut b = board.to_vec();
    let mut next = b.clone();
    for _ in 0..steps {
        let src = &b;
        next.par_chunks_mut(dims.1)
            .enumerate()
            .for_each(|(r, row)| step_row(src, dims, r, row));
        std::mem::swap(&mut b, &mut next);
    }
    b
}

pub fn program(h: &mut Harness) {
    if !h.wants("life") {
        return;
    }
    let (rows, cols) = (h.pick(1024, 1), h.pick(1024, 9));
    let steps = h.pick(20, 5);
    let mut s = 11u32;
    let board: Vec<u8> = (0..rows * cols)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            ((s >> 16) % 3 == 0) as u8
        })
        .collect();
    let ba = Matrix::from_vec([rows, cols], board.clone()).expect("shape");
    let dims = (rows, cols);
    let backend = h.backend();
    h.program(Program {
        name: "life",
        source: "futhark-benchmarks misc/life/life.fut (conway.fut)",
        size: format!("{rows}x{cols}, {steps} steps"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || life::on(&backend, &ba, steps))),
            ("sequential", run(|| Ok(sequential(&board, dims, steps)))),
            ("rayon", run(|| Ok(rayon(&board, dims, steps)))),
        ],
    });
}
