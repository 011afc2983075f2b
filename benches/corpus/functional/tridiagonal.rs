//! tridiagonal: many tridiagonal systems solved at once (one per row), the
//! data-parallel way: the forward elimination as a scan of 2 x 2 matrices
//! (normalised), the two substitutions as scans composing linear functions,
//! all scans over tuples.
//! futhark-benchmarks `finpar/LocVolCalib.fut` (`tridagPar`); the sequential
//! reference is the Thomas algorithm of finpar's C code (`tridag`).
//! LocVolCalib's large data set solves 256 x 256 systems of 256 per step;
//! here 1024 systems of 1024.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md, following `tridagPar`: each row
/// is a system (a: below the diagonal, b: the diagonal, c: above it, d: the
/// right-hand side); the scans run along the rows.
#[acc]
fn tridag(a: &Matrix<f32>, b: &Matrix<f32>, c: &Matrix<f32>, d: &Matrix<f32>) -> Matrix<f32> {
    let [m, n] = b.shape();
    // b'[i] = b[i] - a[i] c[i-1] / b'[i-1], as a product of 2 x 2 matrices.
    let mats = generate([m, n], |[r, i]| {
        if i > 0 {
            (b[[r, i]], 0.0 - a[[r, i]] * c[[r, i - 1]], 1.0f32, 0.0f32)
        } else {
            (1.0, 0.0, 0.0, 1.0)
        }
    });
    let scmt = mats.scanl1(|x, y| {
        let v = 1.0 / (x.0 * y.0);
        (
            (y.0 * x.0 + y.1 * x.2) * v,
            (y.0 * x.1 + y.1 * x.3) * v,
            (y.2 * x.0 + y.3 * x.2) * v,
            (y.2 * x.1 + y.3 * x.3) * v,
        )
    });
    let bp = generate([m, n], |[r, i]| {
        let t = scmt[[r, i]];
        let b0 = b[[r, 0]];
        (t.0 * b0 + t.1) / (t.2 * b0 + t.3)
    });
    // y[i] = d[i] - a[i] / b'[i-1] * y[i-1]: composing linear functions.
    let lfuns = generate([m, n], |[r, i]| {
        if i > 0 {
            (d[[r, i]], 0.0 - a[[r, i]] / bp[[r, i - 1]])
        } else {
            (0.0f32, 1.0f32)
        }
    });
    let cfuns = lfuns.scanl1(|x, y| (y.0 + y.1 * x.0, x.1 * y.1));
    let y = generate([m, n], |[r, i]| {
        let t = cfuns[[r, i]];
        t.0 + t.1 * d[[r, 0]]
    });
    // x[i] = (y[i] - c[i] x[i+1]) / b'[i], from the end: the same scan on the reversed rows.
    let lfuns2 = generate([m, n], |[r, k]| {
        let i = n - k - 1;
        if k > 0 {
            (y[[r, i]] / bp[[r, i]], 0.0 - c[[r, i]] / bp[[r, i]])
        } else {
            (0.0f32, 1.0f32)
        }
    });
    let cfuns2 = lfuns2.scanl1(|x, y| (y.0 + y.1 * x.0, x.1 * y.1));
    let xs = generate([m, n], |[r, k]| {
        let t = cfuns2[[r, k]];
        let yn = y[[r, n - 1]] / bp[[r, n - 1]];
        t.0 + t.1 * yn
    });
    xs.reverse()
}

/// The Thomas algorithm on one system.
fn thomas(a: &[f32], b: &[f32], c: &[f32], d: &[f32], x: &mut [f32]) {
    let n = b.len();
    let mut bp = vec![0.0f32; n];
    let mut y = vec![0.0f32; n];
    bp[0] = b[0];
    y[0] = d[0];
    for i in 1..n {
        let beta = a[i] / bp[i - 1];
        bp[i] = b[i] - beta * c[i - 1];
        y[i] = d[i] - beta * y[i - 1];
    }
    x[n - 1] = y[n - 1] / bp[n - 1];
    for i in (0..n - 1).rev() {
        x[i] = (y[i] - c[i] * x[i + 1]) / bp[i];
    }
}

fn sequential(a: &[f32], b: &[f32], c: &[f32], d: &[f32], n: usize) -> Vec<f32> {
    let mut x = vec![0.0f32; b.len()];
    for (r, xr) in x.chunks_mut(n).enumerate() {
        let s = r * n..(r + 1) * n;
        thomas(&a[s.clone()], &b[s.clone()], &c[s.clone()], &d[s], xr);
    }
    x
}

fn rayon(a: &[f32], b: &[f32], c: &[f32], d: &[f32], n: usize) -> Vec<f32> {
    let mut x = vec![0.0f32; b.len()];
    x.par_chunks_mut(n).enumerate().for_each(|(r, xr)| {
        let s = r * n..(r + 1) * n;
        thomas(&a[s.clone()], &b[s.clone()], &c[s.clone()], &d[s], xr);
    });
    x
}

pub fn program(h: &mut Harness) {
    if !h.wants("tridiagonal") {
        return;
    }
    let (m, n) = (h.pick(1024, 3), h.pick(1024, 7));
    let mut s = 5u32;
    let mut rnd = |lo: f32, hi: f32| {
        s = s.wrapping_mul(1664525).wrapping_add(1013904223);
        lo + (hi - lo) * ((s >> 8) as f32 / (1u32 << 24) as f32)
    };
    // Diagonally dominant, as the implicit steps of LocVolCalib give.
    let a: Vec<f32> = (0..m * n).map(|_| rnd(-1.0, 1.0)).collect();
    let c: Vec<f32> = (0..m * n).map(|_| rnd(-1.0, 1.0)).collect();
    let b: Vec<f32> = (0..m * n).map(|_| rnd(2.5, 4.0)).collect();
    let d: Vec<f32> = (0..m * n).map(|_| rnd(-1.0, 1.0)).collect();
    let arr = |v: &Vec<f32>| Matrix::from_vec([m, n], v.clone()).expect("shape");
    let (aa, ba, ca, da) = (arr(&a), arr(&b), arr(&c), arr(&d));
    let backend = h.backend();
    h.program(Program {
        name: "tridiagonal",
        source: "futhark-benchmarks finpar/LocVolCalib.fut (tridagPar)",
        size: format!("{m} systems of {n}"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || tridag::on(&backend, &aa, &ba, &ca, &da))),
            ("sequential", run(|| Ok(sequential(&a, &b, &c, &d, n)))),
            ("rayon", run(|| Ok(rayon(&a, &b, &c, &d, n)))),
        ],
    });
}
