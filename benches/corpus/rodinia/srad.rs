//! srad: speckle-reducing anisotropic diffusion (v2): per iteration, the mean and
//! variance of a region of interest, a diffusion coefficient per pixel from its
//! four differences, then the divergence update.
//! Rodinia 3.1, `openmp/srad/srad_v2/srad.cpp` (github.com/yuhc/gpu-rodinia).
//! Run script: 2048 x 2048, ROI rows 0..=127, columns 0..=127, lambda 0.5, 2 iterations.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md, following the original: a `for`
/// over the iterations; the ROI statistics as two folds; the four differences and
/// the coefficient as one `generate` of 5-tuples reading the neighbours by index
/// (the original's iN/iS/jW/jE clamping written as `if`s); then the update.
#[acc]
fn srad(niter: usize, roi: (usize, usize, usize, usize), lambda: f32, j0: &Matrix<f32>) -> Matrix<f32> {
    let [rows, cols] = j0.shape();
    let (r1, r2, c1, c2) = roi;
    let size_r = ((r2 - r1 + 1) * (c2 - c1 + 1)) as f32;
    let mut j = j0.map(|x| x);
    for _ in 0..niter {
        let region = generate([r2 - r1 + 1, c2 - c1 + 1], |[a, b]| j[[r1 + a, c1 + b]]);
        let sum = region.fold_all(0.0, |a, b| a + b).value();
        let sum2 = region.map(|x| x * x).fold_all(0.0, |a, b| a + b).value();
        let mean_roi = sum / size_r;
        let var_roi = (sum2 / size_r) - mean_roi * mean_roi;
        let q0sqr = var_roi / (mean_roi * mean_roi);
        let dc = generate([rows, cols], |[i, k]| {
            let jc = j[[i, k]];
            let dn = j[[if i == 0 { 0 } else { i - 1 }, k]] - jc;
            let ds = j[[if i == rows - 1 { rows - 1 } else { i + 1 }, k]] - jc;
            let dw = j[[i, if k == 0 { 0 } else { k - 1 }]] - jc;
            let de = j[[i, if k == cols - 1 { cols - 1 } else { k + 1 }]] - jc;
            let g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
            let l = (dn + ds + dw + de) / jc;
            let num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
            let den = 1.0 + (0.25 * l);
            let qsqr = num / (den * den);
            let den2 = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
            let mut c = 1.0 / (1.0 + den2);
            if c < 0.0 {
                c = 0.0;
            } else if c > 1.0 {
                c = 1.0;
            }
            (dn, ds, dw, de, c)
        });
        j = generate([rows, cols], |[i, k]| {
            let (dn, ds, dw, de, cn) = dc[[i, k]];
            let (_, _, _, _, cs) = dc[[if i == rows - 1 { rows - 1 } else { i + 1 }, k]];
            let (_, _, _, _, ce) = dc[[i, if k == cols - 1 { cols - 1 } else { k + 1 }]];
            let cw = cn;
            let d = cn * dn + cs * ds + cw * dw + ce * de;
            j[[i, k]] + 0.25 * lambda * d
        });
    }
    j
}

struct Dims {
    rows: usize,
    cols: usize,
    roi: (usize, usize, usize, usize),
}

/// The ROI's q0sqr, summed in order as the original does.
fn q0sqr(j: &[f32], d: &Dims) -> f32 {
    let (r1, r2, c1, c2) = d.roi;
    let (mut sum, mut sum2) = (0.0f32, 0.0f32);
    for i in r1..=r2 {
        for k in c1..=c2 {
            let tmp = j[i * d.cols + k];
            sum += tmp;
            sum2 += tmp * tmp;
        }
    }
    let size_r = ((r2 - r1 + 1) * (c2 - c1 + 1)) as f32;
    let mean_roi = sum / size_r;
    let var_roi = (sum2 / size_r) - mean_roi * mean_roi;
    var_roi / (mean_roi * mean_roi)
}

/// The four differences and the coefficient at pixel `(i, k)`.
#[inline(always)]
fn coefficient(j: &[f32], d: &Dims, q0sqr: f32, i: usize, k: usize) -> ([f32; 4], f32) {
    let cols = d.cols;
    let (i_n, i_s) = (i.saturating_sub(1), (i + 1).min(d.rows - 1));
    let (j_w, j_e) = (k.saturating_sub(1), (k + 1).min(cols - 1));
    let jc = j[i * cols + k];
    let dn = j[i_n * cols + k] - jc;
    let ds = j[i_s * cols + k] - jc;
    let dw = j[i * cols + j_w] - jc;
    let de = j[i * cols + j_e] - jc;
    let g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
    let l = (dn + ds + dw + de) / jc;
    let num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    let den = 1.0 + (0.25 * l);
    let qsqr = num / (den * den);
    let den = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
    let mut c = 1.0 / (1.0 + den);
    if c < 0.0 {
        c = 0.0;
    } else if c > 1.0 {
        c = 1.0;
    }
    ([dn, ds, dw, de], c)
}

/// The update of pixel `(i, k)` from the stored differences and coefficients.
#[inline(always)]
fn update(j: &[f32], dd: &[[f32; 4]], c: &[f32], d: &Dims, lambda: f32, i: usize, k: usize) -> f32 {
    let cols = d.cols;
    let kk = i * cols + k;
    let (i_s, j_e) = ((i + 1).min(d.rows - 1), (k + 1).min(cols - 1));
    let (cn, cs, cw, ce) = (c[kk], c[i_s * cols + k], c[kk], c[i * cols + j_e]);
    let [dn, ds, dw, de] = dd[kk];
    j[kk] + 0.25 * lambda * (cn * dn + cs * ds + cw * dw + ce * de)
}

fn sequential(niter: usize, lambda: f32, j: &[f32], d: &Dims) -> Vec<f32> {
    let mut j = j.to_vec();
    let (mut dd, mut c) = (vec![[0.0f32; 4]; j.len()], vec![0.0f32; j.len()]);
    for _ in 0..niter {
        let q0 = q0sqr(&j, d);
        for i in 0..d.rows {
            for k in 0..d.cols {
                (dd[i * d.cols + k], c[i * d.cols + k]) = coefficient(&j, d, q0, i, k);
            }
        }
        for i in 0..d.rows {
            for k in 0..d.cols {
                j[i * d.cols + k] = update(&j, &dd, &c, d, lambda, i, k);
            }
        }
    }
    j
}

fn rayon(niter: usize, lambda: f32, j: &[f32], d: &Dims) -> Vec<f32> {
    let mut j = j.to_vec();
    let (mut dd, mut c) = (vec![[0.0f32; 4]; j.len()], vec![0.0f32; j.len()]);
    for _ in 0..niter {
        let q0 = q0sqr(&j, d);
        let jr = &j;
        dd.par_chunks_mut(d.cols)
            .zip(c.par_chunks_mut(d.cols))
            .enumerate()
            .for_each(|(i, (dr, cr))| {
                for k in 0..d.cols {
                    (dr[k], cr[k]) = coefficient(jr, d, q0, i, k);
                }
            });
        // Each pixel's update reads only its own J, so J is updated in place.
        let (ddr, cr) = (&dd, &c);
        j.par_chunks_mut(d.cols).enumerate().for_each(|(i, row)| {
            for k in 0..d.cols {
                let kk = i * d.cols + k;
                let (i_s, j_e) = ((i + 1).min(d.rows - 1), (k + 1).min(d.cols - 1));
                let (cn, cs, cw, ce) = (cr[kk], cr[i_s * d.cols + k], cr[kk], cr[i * d.cols + j_e]);
                let [dn, ds, dw, de] = ddr[kk];
                row[k] += 0.25 * lambda * (cn * dn + cs * ds + cw * dw + ce * de);
            }
        });
    }
    j
}

pub fn program(h: &mut Harness) {
    if !h.wants("srad") {
        return;
    }
    let (rows, cols, niter) = (h.pick(2048, 5), h.pick(2048, 3), h.pick(2, 2));
    let roi = (0, 127.min(rows - 1), 0, 127.min(cols - 1));
    let lambda = 0.5f32;
    // The original's input: I = rand() / RAND_MAX, J = exp(I).
    let mut seed = 99u32;
    let j: Vec<f32> = (0..rows * cols)
        .map(|_| {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            ((seed >> 8) as f32 / (1u32 << 24) as f32).exp()
        })
        .collect();
    let jm = Matrix::from_vec([rows, cols], j.clone()).expect("shape");
    let d = Dims { rows, cols, roi };
    let backend = h.backend();
    h.program(Program {
        name: "srad",
        source: "Rodinia 3.1 openmp/srad/srad_v2/srad.cpp",
        size: format!("{rows}x{cols}, {niter} iterations"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || srad::on(&backend, niter, roi, lambda, &jm))),
            ("sequential", run(|| Ok(sequential(niter, lambda, &j, &d)))),
            ("rayon", run(|| Ok(rayon(niter, lambda, &j, &d)))),
        ],
    });
}
