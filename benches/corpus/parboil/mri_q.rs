//! mri-q: the Q matrix of non-Cartesian MRI reconstruction,
//! Q(x) = Σ_k |φ_k|² · e^{i 2π k·x}.
//! Parboil 2.5, `benchmarks/mri-q/src/base/computeQ.c` (`ComputePhiMagCPU`,
//! `ComputeQCPU`). Parboil's small data set has 3072 samples and 32768
//! voxels; the voxels are cut to 4096 here so one core takes about 0.3 s.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

const PI2: f32 = std::f32::consts::TAU;

/// As a user writes it from docs/language.md: |φ|² per sample, then every
/// (voxel, sample) term as a pair (real, imaginary) summed over the samples.
#[acc]
fn mri_q(
    kx: &Vector<f32>,
    ky: &Vector<f32>,
    kz: &Vector<f32>,
    phi_r: &Vector<f32>,
    phi_i: &Vector<f32>,
    x: &Vector<f32>,
    y: &Vector<f32>,
    z: &Vector<f32>,
) -> (Vector<f32>, Vector<f32>) {
    let phi_mag = phi_r.zip_with(phi_i, |r, i| r * r + i * i);
    let nk = kx.len();
    let nx = x.len();
    let q = generate([nx, nk], |[v, k]| {
        let arg = 6.283_185_3f32 * (kx[[k]] * x[[v]] + ky[[k]] * y[[v]] + kz[[k]] * z[[v]]);
        (phi_mag[[k]] * arg.cos(), phi_mag[[k]] * arg.sin())
    });
    q.fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1)).unzip()
}

struct Input {
    k: [Vec<f32>; 3],
    phi: [Vec<f32>; 2],
    x: [Vec<f32>; 3],
}

fn phi_mag(inp: &Input) -> Vec<f32> {
    inp.phi[0]
        .iter()
        .zip(&inp.phi[1])
        .map(|(r, i)| r * r + i * i)
        .collect()
}

fn q_at(inp: &Input, mag: &[f32], v: usize) -> (f32, f32) {
    let (mut qr, mut qi) = (0.0f32, 0.0f32);
    for k in 0..mag.len() {
        let arg = PI2 * (inp.k[0][k] * inp.x[0][v] + inp.k[1][k] * inp.x[1][v] + inp.k[2][k] * inp.x[2][v]);
        qr += mag[k] * arg.cos();
        qi += mag[k] * arg.sin();
    }
    (qr, qi)
}

/// Parboil's `ComputePhiMagCPU` then `ComputeQCPU`.
fn sequential(inp: &Input) -> (Vec<f32>, Vec<f32>) {
    let mag = phi_mag(inp);
    (0..inp.x[0].len()).map(|v| q_at(inp, &mag, v)).unzip()
}

fn rayon(inp: &Input) -> (Vec<f32>, Vec<f32>) {
    let mag = phi_mag(inp);
    (0..inp.x[0].len())
        .into_par_iter()
        .map(|v| q_at(inp, &mag, v))
        .unzip()
}

pub fn program(h: &mut Harness) {
    if !h.wants("mri-q") {
        return;
    }
    let (nk, nx) = (h.pick(3072, 7), h.pick(4096, 5));
    let mut s = 99u32;
    let mut rnd = |lo: f32, hi: f32| {
        s = s.wrapping_mul(1664525).wrapping_add(1013904223);
        lo + (hi - lo) * ((s >> 8) as f32 / (1u32 << 24) as f32)
    };
    let mut vec_of = |n: usize, lo: f32, hi: f32| (0..n).map(|_| rnd(lo, hi)).collect::<Vec<f32>>();
    let k = [
        vec_of(nk, -0.5, 0.5),
        vec_of(nk, -0.5, 0.5),
        vec_of(nk, -0.5, 0.5),
    ];
    let phi = [vec_of(nk, -1.0, 1.0), vec_of(nk, -1.0, 1.0)];
    let x = [
        vec_of(nx, -32.0, 32.0),
        vec_of(nx, -32.0, 32.0),
        vec_of(nx, -16.0, 16.0),
    ];
    let inp = Input { k, phi, x };
    let v = |a: &Vec<f32>| Vector::from(a.clone());
    let (kx, ky, kz) = (v(&inp.k[0]), v(&inp.k[1]), v(&inp.k[2]));
    let (pr, pi) = (v(&inp.phi[0]), v(&inp.phi[1]));
    let (xa, ya, za) = (v(&inp.x[0]), v(&inp.x[1]), v(&inp.x[2]));
    let backend = h.backend();
    let inp = &inp;
    h.program(Program {
        name: "mri-q",
        source: "Parboil 2.5 mri-q (benchmarks/mri-q/src/base/computeQ.c)",
        size: format!("{nk} samples, {nx} voxels"),
        tolerance: 1e-3,
        systems: vec![
            (
                "accel",
                run(move || mri_q::on(&backend, &kx, &ky, &kz, &pr, &pi, &xa, &ya, &za)),
            ),
            ("sequential", run(move || Ok(sequential(inp)))),
            ("rayon", run(move || Ok(rayon(inp)))),
        ],
    });
}
