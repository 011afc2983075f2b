//! fdtd-2d: 2-d finite-difference time domain (electric fields ex, ey; magnetic field hz).
//! PolyBench/C 4.2.1, `stencils/fdtd-2d/fdtd-2d.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). LARGE: TMAX = 500, NX = 1000, NY = 1200;
//! here 1000 x 1200 with 400 steps (500 take the sequential loop over 0.3 s on one core).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: the time loop as a `for` over the
/// three fields, each of the three updates a `generate` reading neighbours by
/// index, with the edge cases of the original loops as `if`s.
#[acc]
fn fdtd_2d(
    fict: &Vector<f32>,
    ex0: &Matrix<f32>,
    ey0: &Matrix<f32>,
    hz0: &Matrix<f32>,
) -> (Matrix<f32>, Matrix<f32>, Matrix<f32>) {
    let [nx, ny] = ex0.shape();
    let tmax = fict.len();
    let mut ex = ex0.map(|x| x);
    let mut ey = ey0.map(|x| x);
    let mut hz = hz0.map(|x| x);
    for t in 0..tmax {
        ey = generate([nx, ny], |[i, j]| {
            if i == 0 {
                fict[[t]]
            } else {
                ey[[i, j]] - 0.5 * (hz[[i, j]] - hz[[i - 1, j]])
            }
        });
        ex = generate([nx, ny], |[i, j]| {
            if j >= 1 {
                ex[[i, j]] - 0.5 * (hz[[i, j]] - hz[[i, j - 1]])
            } else {
                ex[[i, j]]
            }
        });
        hz = generate([nx, ny], |[i, j]| {
            if i + 1 < nx && j + 1 < ny {
                hz[[i, j]] - 0.7 * (ex[[i, j + 1]] - ex[[i, j]] + ey[[i + 1, j]] - ey[[i, j]])
            } else {
                hz[[i, j]]
            }
        });
    }
    (ex, ey, hz)
}

type Fields = (Vec<f32>, Vec<f32>, Vec<f32>);

fn sequential(fict: &[f32], (nx, ny): (usize, usize), ex: &[f32], ey: &[f32], hz: &[f32]) -> Fields {
    let (mut ex, mut ey, mut hz) = (ex.to_vec(), ey.to_vec(), hz.to_vec());
    for &f in fict {
        for j in 0..ny {
            ey[j] = f;
        }
        for i in 1..nx {
            for j in 0..ny {
                ey[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
            }
        }
        for i in 0..nx {
            for j in 1..ny {
                ex[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
            }
        }
        for i in 0..nx.saturating_sub(1) {
            for j in 0..ny.saturating_sub(1) {
                hz[i * ny + j] -=
                    0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
            }
        }
    }
    (ex, ey, hz)
}

fn rayon(fict: &[f32], (nx, ny): (usize, usize), ex: &[f32], ey: &[f32], hz: &[f32]) -> Fields {
    let (mut ex, mut ey, mut hz) = (ex.to_vec(), ey.to_vec(), hz.to_vec());
    for &f in fict {
        {
            let hz = &hz;
            ey.par_chunks_mut(ny).enumerate().for_each(|(i, row)| {
                if i == 0 {
                    row.iter_mut().for_each(|x| *x = f);
                } else {
                    for j in 0..ny {
                        row[j] -= 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
                    }
                }
            });
            ex.par_chunks_mut(ny).enumerate().for_each(|(i, row)| {
                for j in 1..ny {
                    row[j] -= 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
                }
            });
        }
        let (ex, ey) = (&ex, &ey);
        hz.par_chunks_mut(ny)
            .enumerate()
            .filter(|(i, _)| i + 1 < nx)
            .for_each(|(i, row)| {
                for j in 0..ny.saturating_sub(1) {
                    row[j] -=
                        0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
                }
            });
    }
    (ex, ey, hz)
}

pub fn program(h: &mut Harness) {
    if !h.wants("fdtd-2d") {
        return;
    }
    let (nx, ny, tmax) = (h.pick(1000, 5), h.pick(1200, 1), h.pick(400, 3));
    // PolyBench's init_array.
    let fict: Vec<f32> = (0..tmax).map(|t| t as f32).collect();
    let field = |k: usize, d: usize| -> Vec<f32> {
        (0..nx * ny)
            .map(|x| ((x / ny) * (x % ny + k)) as f32 / d as f32)
            .collect()
    };
    let (ex, ey, hz) = (field(1, nx), field(2, ny), field(3, nx));
    let arr = |v: &Vec<f32>| Matrix::from_vec([nx, ny], v.clone()).expect("shape");
    let (fv, exm, eym, hzm) = (Vector::from(fict.clone()), arr(&ex), arr(&ey), arr(&hz));
    let backend = h.backend();
    let dims = (nx, ny);
    h.python(
        Py::new("fdtd-2d")
            .array("fict", &[tmax], &fict)
            .array("ex", &[nx, ny], &ex)
            .array("ey", &[nx, ny], &ey)
            .array("hz", &[nx, ny], &hz),
    );
    h.program(Program {
        name: "fdtd-2d",
        source: "PolyBench/C 4.2.1 stencils/fdtd-2d/fdtd-2d.c",
        size: format!("{nx}x{ny}, {tmax} steps"),
        tolerance: 1e-4,
        systems: vec![
            ("accel", run(move || fdtd_2d::on(&backend, &fv, &exm, &eym, &hzm))),
            ("sequential", run(|| Ok(sequential(&fict, dims, &ex, &ey, &hz)))),
            ("rayon", run(|| Ok(rayon(&fict, dims, &ex, &ey, &hz)))),
        ],
    });
}
