//! stencil: 7-point 3-D Jacobi relaxation; the border cells stay fixed.
//! Parboil 2.5, `benchmarks/stencil/src/base/kernels.c` (`cpu_stencil`) and
//! `main.c`. Default data set: 128 x 128 x 32, 100 iterations, c0 = 1/6,
//! c1 = 1/6/6.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md, the way Parboil states it: each
/// step a `generate` reading the six neighbours of the interior cells and
/// copying the border ones, in a `for` loop over the steps.
#[acc]
fn stencil(c0: f32, c1: f32, a0: &Array<f32, 3>, iters: usize) -> Array<f32, 3> {
    let [nz, ny, nx] = a0.shape();
    let mut a = a0.map(|v| v);
    for _ in 0..iters {
        a = generate([nz, ny, nx], |[k, j, i]| {
            if i > 0 && i + 1 < nx && j > 0 && j + 1 < ny && k > 0 && k + 1 < nz {
                (a[[k + 1, j, i]]
                    + a[[k - 1, j, i]]
                    + a[[k, j + 1, i]]
                    + a[[k, j - 1, i]]
                    + a[[k, j, i + 1]]
                    + a[[k, j, i - 1]])
                    * c1
                    - a[[k, j, i]] * c0
            } else {
                a[[k, j, i]]
            }
        });
    }
    a
}

/// Tuned: a 3 x 3 x 3 `stencil2` (the six neighbours named in the pattern)
/// with a mask of the fixed border cells, which runs with the CPU's
/// interior/border split.
#[acc]
fn stencil_tuned(
    c0: f32,
    c1: f32,
    a0: &Array<f32, 3>,
    fixed: &Array<bool, 3>,
    iters: usize,
) -> Array<f32, 3> {
    let mut a = a0.map(|v| v);
    for _ in 0..iters {
        a = a.stencil2(
            Boundary::Clamp,
            fixed,
            Boundary::Clamp,
            |[[[_, _, _], [_, km, _], [_, _, _]], [[_, jm, _], [im, c, ip], [_, jp, _]], [[_, _, _], [_, kp, _], [_, _, _]]], [[[f]]]| {
                if f { c } else { (kp + km + jp + jm + ip + im) * c1 - c * c0 }
            },
        );
    }
    a
}

/// One interior plane `k` of a step into `plane`.
fn step(c0: f32, c1: f32, a0: &[f32], (nx, ny): (usize, usize), k: usize, plane: &mut [f32]) {
    let ix = |i: usize, j: usize, k: usize| i + nx * (j + ny * k);
    for j in 1..ny - 1 {
        for i in 1..nx - 1 {
            plane[i + nx * j] = (a0[ix(i, j, k + 1)]
                + a0[ix(i, j, k - 1)]
                + a0[ix(i, j + 1, k)]
                + a0[ix(i, j - 1, k)]
                + a0[ix(i + 1, j, k)]
                + a0[ix(i - 1, j, k)])
                * c1
                - a0[ix(i, j, k)] * c0;
        }
    }
}

/// Parboil's `cpu_stencil` with its double buffer (A0, Anext swapped each step).
fn sequential(c0: f32, c1: f32, a: &[f32], (nx, ny, nz): (usize, usize, usize), iters: usize) -> Vec<f32> {
    let mut a0 = a.to_vec();
    let mut an = a.to_vec();
    let ix = |i: usize, j: usize, k: usize| i + nx * (j + ny * k);
    if nx >= 3 && ny >= 3 && nz >= 3 {
        for _ in 0..iters {
            for k in 1..nz - 1 {
                for j in 1..ny - 1 {
                    for i in 1..nx - 1 {
                        an[ix(i, j, k)] = (a0[ix(i, j, k + 1)]
                            + a0[ix(i, j, k - 1)]
                            + a0[ix(i, j + 1, k)]
                            + a0[ix(i, j - 1, k)]
                            + a0[ix(i + 1, j, k)]
                            + a0[ix(i - 1, j, k)])
                            * c1
                            - a0[ix(i, j, k)] * c0;
                    }
                }
            }
            std::mem::swap(&mut a0, &mut an);
        }
    }
    a0
}

/// The same double buffer, the planes of each step in parallel.
fn rayon(c0: f32, c1: f32, a: &[f32], (nx, ny, nz): (usize, usize, usize), iters: usize) -> Vec<f32> {
    let mut a0 = a.to_vec();
    let mut an = a.to_vec();
    if nx >= 3 && ny >= 3 && nz >= 3 {
        for _ in 0..iters {
            let src = &a0;
            an.par_chunks_mut(nx * ny)
                .enumerate()
                .filter(|(k, _)| *k > 0 && *k + 1 < nz)
                .for_each(|(k, plane)| {
                    step(c0, c1, src, (nx, ny), k, plane);
                });
            std::mem::swap(&mut a0, &mut an);
        }
    }
    a0
}

pub fn program(h: &mut Harness) {
    if !h.wants("stencil") {
        return;
    }
    let (nx, ny, nz) = (h.pick(128, 5), h.pick(128, 3), h.pick(32, 7));
    let iters = h.pick(100, 3);
    let (c0, c1) = (1.0f32 / 6.0, 1.0f32 / 6.0 / 6.0);
    let mut s = 7u32;
    let a: Vec<f32> = (0..nx * ny * nz)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect();
    let aa = Array::from_vec([nz, ny, nx], a.clone()).expect("shape");
    let at = aa.clone();
    let fixed = Array::from_fn([nz, ny, nx], |[k, j, i]| {
        i == 0 || i + 1 >= nx || j == 0 || j + 1 >= ny || k == 0 || k + 1 >= nz
    });
    let dims = (nx, ny, nz);
    let (backend, backend2) = (h.backend(), h.backend());
    h.program(Program {
        name: "stencil",
        source: "Parboil 2.5 stencil (benchmarks/stencil/src/base/kernels.c)",
        size: format!("{nx}x{ny}x{nz}, {iters} steps"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || stencil::on(&backend, c0, c1, &aa, iters))),
            (
                "accel tuned",
                run(move || stencil_tuned::on(&backend2, c0, c1, &at, &fixed, iters)),
            ),
            ("sequential", run(|| Ok(sequential(c0, c1, &a, dims, iters)))),
            ("rayon", run(|| Ok(rayon(c0, c1, &a, dims, iters)))),
        ],
    });
}
