//! 3mm: G := (A·B)·(C·D) (three matrix products).
//! PolyBench/C 4.2.1, `linear-algebra/kernels/3mm/3mm.c`
//! (github.com/MatthiasJReisinger/PolyBenchC-4.2.1). MEDIUM: NI = 180, NJ = 190, NK = 200, NL = 210, NM = 220
//! (at LARGE the sequential i-j-k loops take 2.7 s).

use crate::harness::{run, Harness, Program, Py};
use accel::prelude::*;
use rayon::prelude::*;

// A matrix product written once and called three times (inlined by `accel!`).
accel! {
    fn matmul(x: &Matrix<f32>, y: &Matrix<f32>) -> Matrix<f32> {
        let [n, k] = x.shape();
        let m = y.shape()[1];
        generate([n, m, k], |[i, j, l]| x[[i, l]] * y[[l, j]]).sum()
    }
    fn mm3(a: &Matrix<f32>, b: &Matrix<f32>, c: &Matrix<f32>, d: &Matrix<f32>) -> Matrix<f32> {
        let e = matmul(a, b);
        let f = matmul(c, d);
        matmul(&e, &f)
    }
}

/// `x` (n×k) times `y` (k×m), i-j-k loops as in the C.
fn seq_matmul(x: &[f32], y: &[f32], n: usize, k: usize, m: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; n * m];
    for i in 0..n {
        for j in 0..m {
            let mut s = 0.0;
            for l in 0..k {
                s += x[i * k + l] * y[l * m + j];
            }
            out[i * m + j] = s;
        }
    }
    out
}

fn par_matmul(x: &[f32], y: &[f32], k: usize, m: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; x.len() / k * m];
    out.par_chunks_mut(m).enumerate().for_each(|(i, row)| {
        for l in 0..k {
            let xil = x[i * k + l];
            for (o, ylj) in row.iter_mut().zip(&y[l * m..(l + 1) * m]) {
                *o += xil * ylj;
            }
        }
    });
    out
}

type Dims = (usize, usize, usize, usize, usize);

fn sequential(a: &[f32], b: &[f32], c: &[f32], d: &[f32], (ni, nj, nk, nl, nm): Dims) -> Vec<f32> {
    let e = seq_matmul(a, b, ni, nk, nj);
    let f = seq_matmul(c, d, nj, nm, nl);
    seq_matmul(&e, &f, ni, nj, nl)
}

fn rayon(a: &[f32], b: &[f32], c: &[f32], d: &[f32], (_, nj, nk, nl, nm): Dims) -> Vec<f32> {
    let e = par_matmul(a, b, nk, nj);
    let f = par_matmul(c, d, nm, nl);
    par_matmul(&e, &f, nj, nl)
}

pub fn program(h: &mut Harness) {
    if !h.wants("3mm") {
        return;
    }
    let (ni, nj, nk, nl, nm) = (
        h.pick(180, 5),
        h.pick(190, 7),
        h.pick(200, 3),
        h.pick(210, 9),
        h.pick(220, 1),
    );
    // PolyBench's init_array.
    let a: Vec<f32> = (0..ni * nk)
        .map(|x| (((x / nk) * (x % nk) + 1) % ni) as f32 / (5 * ni) as f32)
        .collect();
    let b: Vec<f32> = (0..nk * nj)
        .map(|x| (((x / nj) * (x % nj + 1) + 2) % nj) as f32 / (5 * nj) as f32)
        .collect();
    let c: Vec<f32> = (0..nj * nm)
        .map(|x| ((x / nm) * (x % nm + 3) % nl) as f32 / (5 * nl) as f32)
        .collect();
    let d: Vec<f32> = (0..nm * nl)
        .map(|x| (((x / nl) * (x % nl + 2) + 2) % nk) as f32 / (5 * nk) as f32)
        .collect();
    let arr = |s: [usize; 2], v: &Vec<f32>| Matrix::from_vec(s, v.clone()).expect("shape");
    let (aa, ba, ca, da) = (
        arr([ni, nk], &a),
        arr([nk, nj], &b),
        arr([nj, nm], &c),
        arr([nm, nl], &d),
    );
    let dims = (ni, nj, nk, nl, nm);
    let backend = h.backend();
    h.python(
        Py::new("3mm")
            .array("a", &[ni, nk], &a)
            .array("b", &[nk, nj], &b)
            .array("c", &[nj, nm], &c)
            .array("d", &[nm, nl], &d),
    );
    h.program(Program {
        name: "3mm",
        source: "PolyBench/C 4.2.1 linear-algebra/kernels/3mm/3mm.c",
        size: format!("{ni}x{nj}x{nk}x{nl}x{nm}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || mm3::on(&backend, &aa, &ba, &ca, &da))),
            ("sequential", run(|| Ok(sequential(&a, &b, &c, &d, dims)))),
            ("rayon", run(|| Ok(rayon(&a, &b, &c, &d, dims)))),
        ],
    });
}
