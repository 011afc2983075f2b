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
            if alive == 3 || (alive == 2 && c == 1) { 1u8 } else { 0u8 }
        });
    }
    b
}

fn cell(b: &[u8], (rows, cols): (usize, usize), r: usize, c: usize) -> u8 {
    let mut alive = 0;
    for dr in 0..3 {
        for dc in 0..3 {
            if dr != 1 || dc != 1 {
                alive += b[(r + rows + dr - 1) % rows * cols + (c + cols + dc - 1) % cols];
            }
        }
    }
    (alive == 3 || (alive == 2 && b[r * cols + c] == 1)) as u8
}

fn sequential(board: &[u8], dims: (usize, usize), steps: usize) -> Vec<u8> {
    let mut b = board.to_vec();
    let mut next = b.clone();
    for _ in 0..steps {
        for (i, x) in next.iter_mut().enumerate() {
            *x = cell(&b, dims, i / dims.1, i % dims.1);
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
        next.par_chunks_mut(dims.1).enumerate().for_each(|(r, row)| {
            row.iter_mut().enumerate().for_each(|(c, x)| *x = cell(src, dims, r, c));
        });
        std::mem::swap(&mut b, &mut next);
    }
    b
}

pub fn program(h: &mut Harness) {
    if !h.wants("life") {
        return;
    }
    let (rows, cols) = (h.pick(1024, 1), h.pick(1024, 9));
    let steps = h.pick(20, 5).min(20);
    let mut s = 11u32;
    let board: Vec<u8> = (0..rows * cols)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            ((s >> 16) % 3 == 0) as u8
        })
        .collect();
    let ba = Matrix::from_vec([rows, cols], board.clone()).expect("shape");
    let dims = (rows, cols);
    let cpu = Backend::cpu();
    h.program(Program {
        name: "life",
        source: "futhark-benchmarks misc/life/life.fut (conway.fut)",
        size: format!("{rows}x{cols}, {steps} steps"),
        tolerance: 0.0,
        systems: vec![
            ("accel", run(move || life::on(&cpu, &ba, steps))),
            ("sequential", run(|| Ok(sequential(&board, dims, steps)))),
            ("rayon", run(|| Ok(rayon(&board, dims, steps)))),
        ],
    });
}
