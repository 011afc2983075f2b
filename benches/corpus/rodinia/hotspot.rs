//! hotspot: transient thermal simulation of a chip, one explicit step per iteration
//! (each cell from its four neighbours, its power and the ambient temperature).
//! Rodinia 3.1, `openmp/hotspot/hotspot_openmp.cpp` (github.com/yuhc/gpu-rodinia).
//! Run script: 1024 x 1024, 2 iterations; the temperature and power files are
//! replaced by generated values of the same ranges.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

// hotspot_openmp.cpp's constants.
const MAX_PD: f32 = 3.0e6;
const PRECISION: f32 = 0.001;
const SPEC_HEAT_SI: f32 = 1.75e6;
const K_SI: f32 = 100.0;
const FACTOR_CHIP: f32 = 0.5;
const T_CHIP: f32 = 0.0005;
const CHIP_HEIGHT: f32 = 0.016;
const CHIP_WIDTH: f32 = 0.016;
const AMB_TEMP: f32 = 80.0;

/// `(Cap_1, Rx_1, Ry_1, Rz_1)` of compute_tran_temp.
fn coefficients(row: usize, col: usize) -> (f32, f32, f32, f32) {
    let grid_height = CHIP_HEIGHT / row as f32;
    let grid_width = CHIP_WIDTH / col as f32;
    let cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
    let rx = grid_width / (2.0 * K_SI * T_CHIP * grid_height);
    let ry = grid_height / (2.0 * K_SI * T_CHIP * grid_width);
    let rz = T_CHIP / (K_SI * grid_height * grid_width);
    let max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    let step = PRECISION / max_slope / 1000.0;
    (step / cap, 1.0 / rx, 1.0 / ry, 1.0 / rz)
}

/// As a user writes it from docs/language.md, following single_iteration: a
/// `for` over the iterations, each a `generate` with the original's corner and
/// edge `if` chain reading the neighbours by index.
#[acc]
fn hotspot(
    iterations: usize,
    coef: (f32, f32, f32, f32),
    amb_temp: f32,
    temp0: &Matrix<f32>,
    power: &Matrix<f32>,
) -> Matrix<f32> {
    let [row, col] = temp0.shape();
    let (cap_1, rx_1, ry_1, rz_1) = coef;
    let mut temp = temp0.map(|t| t);
    for _ in 0..iterations {
        temp = generate([row, col], |[r, c]| {
            let t = temp[[r, c]];
            let p = power[[r, c]];
            let delta = if r == 0 && c == 0 {
                cap_1
                    * (p + (temp[[r, c + 1]] - t) * rx_1
                        + (temp[[r + 1, c]] - t) * ry_1
                        + (amb_temp - t) * rz_1)
            } else if r == 0 && c == col - 1 {
                cap_1
                    * (p + (temp[[r, c - 1]] - t) * rx_1
                        + (temp[[r + 1, c]] - t) * ry_1
                        + (amb_temp - t) * rz_1)
            } else if r == row - 1 && c == col - 1 {
                cap_1
                    * (p + (temp[[r, c - 1]] - t) * rx_1
                        + (temp[[r - 1, c]] - t) * ry_1
                        + (amb_temp - t) * rz_1)
            } else if r == row - 1 && c == 0 {
                cap_1
                    * (p + (temp[[r, c + 1]] - t) * rx_1
                        + (temp[[r - 1, c]] - t) * ry_1
                        + (amb_temp - t) * rz_1)
            } else if r == 0 {
                cap_1
                    * (p + (temp[[r, c + 1]] + temp[[r, c - 1]] - 2.0 * t) * rx_1
                        + (temp[[r + 1, c]] - t) * ry_1
                        + (amb_temp - t) * rz_1)
            } else if c == col - 1 {
                cap_1
                    * (p + (temp[[r + 1, c]] + temp[[r - 1, c]] - 2.0 * t) * ry_1
                        + (temp[[r, c - 1]] - t) * rx_1
                        + (amb_temp - t) * rz_1)
            } else if r == row - 1 {
                cap_1
                    * (p + (temp[[r, c + 1]] + temp[[r, c - 1]] - 2.0 * t) * rx_1
                        + (temp[[r - 1, c]] - t) * ry_1
                        + (amb_temp - t) * rz_1)
            } else if c == 0 {
                cap_1
                    * (p + (temp[[r + 1, c]] + temp[[r - 1, c]] - 2.0 * t) * ry_1
                        + (temp[[r, c + 1]] - t) * rx_1
                        + (amb_temp - t) * rz_1)
            } else {
                cap_1
                    * (p + (temp[[r + 1, c]] + temp[[r - 1, c]] - 2.0 * t) * ry_1
                        + (temp[[r, c + 1]] + temp[[r, c - 1]] - 2.0 * t) * rx_1
                        + (amb_temp - t) * rz_1)
            };
            t + delta
        });
    }
    temp
}

/// One cell of single_iteration (rows and columns at least 2, as the original needs).
#[inline(always)]
fn cell(
    temp: &[f32],
    power: &[f32],
    (row, col): (usize, usize),
    k: (f32, f32, f32, f32),
    r: usize,
    c: usize,
) -> f32 {
    let (cap_1, rx_1, ry_1, rz_1) = k;
    let at = |r: usize, c: usize| temp[r * col + c];
    let (t, p) = (at(r, c), power[r * col + c]);
    let delta = if r == 0 && c == 0 {
        cap_1 * (p + (at(r, c + 1) - t) * rx_1 + (at(r + 1, c) - t) * ry_1 + (AMB_TEMP - t) * rz_1)
    } else if r == 0 && c == col - 1 {
        cap_1 * (p + (at(r, c - 1) - t) * rx_1 + (at(r + 1, c) - t) * ry_1 + (AMB_TEMP - t) * rz_1)
    } else if r == row - 1 && c == col - 1 {
        cap_1 * (p + (at(r, c - 1) - t) * rx_1 + (at(r - 1, c) - t) * ry_1 + (AMB_TEMP - t) * rz_1)
    } else if r == row - 1 && c == 0 {
        cap_1 * (p + (at(r, c + 1) - t) * rx_1 + (at(r - 1, c) - t) * ry_1 + (AMB_TEMP - t) * rz_1)
    } else if r == 0 {
        cap_1
            * (p + (at(r, c + 1) + at(r, c - 1) - 2.0 * t) * rx_1
                + (at(r + 1, c) - t) * ry_1
                + (AMB_TEMP - t) * rz_1)
    } else if c == col - 1 {
        cap_1
            * (p + (at(r + 1, c) + at(r - 1, c) - 2.0 * t) * ry_1
                + (at(r, c - 1) - t) * rx_1
                + (AMB_TEMP - t) * rz_1)
    } else if r == row - 1 {
        cap_1
            * (p + (at(r, c + 1) + at(r, c - 1) - 2.0 * t) * rx_1
                + (at(r - 1, c) - t) * ry_1
                + (AMB_TEMP - t) * rz_1)
    } else if c == 0 {
        cap_1
            * (p + (at(r + 1, c) + at(r - 1, c) - 2.0 * t) * ry_1
                + (at(r, c + 1) - t) * rx_1
                + (AMB_TEMP - t) * rz_1)
    } else {
        cap_1
            * (p + (at(r + 1, c) + at(r - 1, c) - 2.0 * t) * ry_1
                + (at(r, c + 1) + at(r, c - 1) - 2.0 * t) * rx_1
                + (AMB_TEMP - t) * rz_1)
    };
    t + delta
}

fn sequential(iterations: usize, dims: (usize, usize), temp: &[f32], power: &[f32]) -> Vec<f32> {
    let k = coefficients(dims.0, dims.1);
    let (mut t, mut result) = (temp.to_vec(), vec![0.0; temp.len()]);
    for _ in 0..iterations {
        for r in 0..dims.0 {
            for c in 0..dims.1 {
                result[r * dims.1 + c] = cell(&t, power, dims, k, r, c);
            }
        }
        std::mem::swap(&mut t, &mut result);
    }
    t
}

fn rayon(iterations: usize, dims: (usize, usize), temp: &[f32], power: &[f32]) -> Vec<f32> {
    let k = coefficients(dims.0, dims.1);
    let (mut t, mut result) = (temp.to_vec(), vec![0.0; temp.len()]);
    for _ in 0..iterations {
        let from = &t;
        result.par_chunks_mut(dims.1).enumerate().for_each(|(r, out)| {
            for (c, x) in out.iter_mut().enumerate() {
                *x = cell(from, power, dims, k, r, c);
            }
        });
        std::mem::swap(&mut t, &mut result);
    }
    t
}

pub fn program(h: &mut Harness) {
    if !h.wants("hotspot") {
        return;
    }
    let (row, col, iterations) = (h.pick(1024, 7), h.pick(1024, 2), h.pick(2, 3));
    // Like Rodinia's temp_1024 / power_1024: temperatures around 323 to 340 K,
    // small powers.
    let mut seed = 12345u32;
    let mut next = move || {
        seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let temp: Vec<f32> = (0..row * col).map(|_| 323.0 + 17.0 * next()).collect();
    let power: Vec<f32> = (0..row * col).map(|_| 1e-3 * next()).collect();
    let arr = |v: &Vec<f32>| Matrix::from_vec([row, col], v.clone()).expect("shape");
    let (tm, pm) = (arr(&temp), arr(&power));
    let coef = coefficients(row, col);
    let dims = (row, col);
    let backend = h.backend();
    h.program(Program {
        name: "hotspot",
        source: "Rodinia 3.1 openmp/hotspot/hotspot_openmp.cpp",
        size: format!("{row}x{col}, {iterations} iterations"),
        tolerance: 1e-4,
        systems: vec![
            (
                "accel",
                run(move || hotspot::on(&backend, iterations, coef, AMB_TEMP, &tm, &pm)),
            ),
            (
                "sequential",
                run(|| Ok(sequential(iterations, dims, &temp, &power))),
            ),
            ("rayon", run(|| Ok(rayon(iterations, dims, &temp, &power)))),
        ],
    });
}
