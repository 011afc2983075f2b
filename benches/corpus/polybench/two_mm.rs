//! 2mm: D := alpha·A·B·C + beta·D (two matrix products).
//! PolyBench/C 4.2.1, `linear-algebra/kernels/2mm/2mm.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: NI = 180, NJ = 190, NK = 210, NL = 220
//! (at LARGE the sequential i-j-k loops take 1.5 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

/// tmp = alpha·A·B as products over a 3-d index space summed over k, then
/// the same for tmp·C, combined with beta·D.
#[acc]
fn mm2(
    alpha: f32,
    beta: f32,
    a: &Matrix<f32>,
    b: &Matrix<f32>,
    c: &Matrix<f32>,
    d: &Matrix<f32>,
) -> Matrix<f32> {
    let [ni, nk] = a.shape();
    let nj = b.shape()[1];
    let nl = c.shape()[1];
    let tmp = generate([ni, nj, nk], |[i, j, k]| alpha * a[[i, k]] * b[[k, j]]).sum();
    let tc = generate([ni, nl, nj], |[i, l, k]| tmp[[i, k]] * c[[k, l]]).sum();
    d.zip_with(&tc, |d, t| beta * d + t)
}

type Dims = (usize, usize, usize, usize);

fn sequential(
    alpha: f32,
    beta: f32,
    a: &[f32],
    b: &[f32],
    c: &[f32],
    d: &[f32],
    (ni, nj, nk, nl): Dims,
) -> Vec<f32> {
    let mut tmp = vec![0.0f32; ni * nj];
    let mut d = d.to_vec();
    for i in 0..ni {
        for j in 0..nj {
            let mut t = 0.0;
            for k in 0..nk {
                t += alpha * a[i * nk + k] * b[k * nj + j];
            }
            tmp[i * nj + j] = t;
        }
    }
    for i in 0..ni {
        for j in 0..nl {
            d[i * nl + j] *= beta;
            for k in 0..nj {
                d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
            }
        }
    }
    d
}

fn rayon(
    alpha: f32,
    beta: f32,
    a: &[f32],
    b: &[f32],
    c: &[f32],
    d: &[f32],
    (_, nj, nk, nl): Dims,
) -> Vec<f32> {
    let mut tmp = vec![0.0f32; a.len() / nk * nj];
    tmp.par_chunks_mut(nj).enumerate().for_each(|(i, row)| {
        for k in 0..nk {
            let aik = alpha * a[i * nk + k];
            for (x, bkj) in row.iter_mut().zip(&b[k * nj..(k + 1) * nj]) {
                *x += aik * bkj;
            }
        }
    });
    let mut d = d.to_vec();
    d.par_chunks_mut(nl).enumerate().for_each(|(i, row)| {
        row.iter_mut().for_each(|x| *x *= beta);
        for k in 0..nj {
            let t = tmp[i * nj + k];
            for (x, ckl) in row.iter_mut().zip(&c[k * nl..(k + 1) * nl]) {
                *x += t * ckl;
            }
        }
    });
    d
}

pub fn program(h: &mut Harness) {
    if !h.wants("2mm") {
        return;
    }
    let (ni, nj, nk, nl) = (h.pick(180, 5), h.pick(190, 7), h.pick(210, 9), h.pick(220, 3));
    // PolyBench's init_array.
    let a: Vec<f32> = (0..ni * nk)
        .map(|x| (((x / nk) * (x % nk) + 1) % ni) as f32 / ni as f32)
        .collect();
    let b: Vec<f32> = (0..nk * nj)
        .map(|x| ((x / nj) * (x % nj + 1) % nj) as f32 / nj as f32)
        .collect();
    let c: Vec<f32> = (0..nj * nl)
        .map(|x| (((x / nl) * (x % nl + 3) + 1) % nl) as f32 / nl as f32)
        .collect();
    let d: Vec<f32> = (0..ni * nl)
        .map(|x| ((x / nl) * (x % nl + 2) % nk) as f32 / nk as f32)
        .collect();
    let (alpha, beta) = (1.5f32, 1.2f32);
    let arr = |s: [usize; 2], v: &Vec<f32>| Matrix::from_vec(s, v.clone()).expect("shape");
    let (aa, ba, ca, da) = (
        arr([ni, nk], &a),
        arr([nk, nj], &b),
        arr([nj, nl], &c),
        arr([ni, nl], &d),
    );
    let dims = (ni, nj, nk, nl);
    let backend = h.backend();
    h.python(
        Py::new("2mm")
            .array("a", &[ni, nk], &a)
            .array("b", &[nk, nj], &b)
            .array("c", &[nj, nl], &c)
            .array("d", &[ni, nl], &d)
            .scalar("alpha", alpha as f64)
            .scalar("beta", beta as f64),
    );
    h.program(Program {
        name: "2mm",
        source: "PolyBench/C 4.2.1 linear-algebra/kernels/2mm/2mm.c",
        size: format!("{ni}x{nj}x{nk}x{nl}"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || mm2::on(&backend, alpha, beta, &aa, &ba, &ca, &da)),
            ),
            (
                "sequential",
                run(|| Ok(sequential(alpha, beta, &a, &b, &c, &d, dims))),
            ),
            ("rayon", run(|| Ok(rayon(alpha, beta, &a, &b, &c, &d, dims)))),
        ],
    });
}
