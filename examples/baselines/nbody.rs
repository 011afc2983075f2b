//! N-body without accel: the input generator, the sequential reference and the
//! rayon version a Rust programmer would write (bodies in parallel, struct of
//! arrays, the inner loop over all bodies sequential).

#![allow(dead_code)] // the examples and the benchmarks each use a part

use rayon::prelude::*;

/// Bodies as struct of arrays.
#[derive(Clone, Debug, PartialEq)]
pub struct Bodies {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub z: Vec<f32>,
    pub vx: Vec<f32>,
    pub vy: Vec<f32>,
    pub vz: Vec<f32>,
    pub m: Vec<f32>,
}

pub const DT: f32 = 0.01;
pub const EPS2: f32 = 0.01;

/// `n` bodies in a unit cube, at rest, masses in [0.5, 1.5) / n.
pub fn generate(n: usize, rng: &mut crate::common::Rng) -> Bodies {
    let mut b = Bodies {
        x: vec![],
        y: vec![],
        z: vec![],
        vx: vec![0.0; n],
        vy: vec![0.0; n],
        vz: vec![0.0; n],
        m: vec![],
    };
    for _ in 0..n {
        b.x.push(rng.f32(-1.0, 1.0));
        b.y.push(rng.f32(-1.0, 1.0));
        b.z.push(rng.f32(-1.0, 1.0));
        b.m.push(rng.f32(0.5, 1.5) / n as f32);
    }
    b
}

#[inline]
fn accel_of(b: &Bodies, i: usize) -> (f32, f32, f32) {
    let (xi, yi, zi) = (b.x[i], b.y[i], b.z[i]);
    let (mut ax, mut ay, mut az) = (0.0f32, 0.0f32, 0.0f32);
    for j in 0..b.x.len() {
        let (dx, dy, dz) = (b.x[j] - xi, b.y[j] - yi, b.z[j] - zi);
        let d2 = dx * dx + dy * dy + dz * dz + EPS2;
        let inv = 1.0 / d2.sqrt();
        let s = b.m[j] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    (ax, ay, az)
}

fn update(b: &mut Bodies, acc: &[(f32, f32, f32)]) {
    for (i, a) in acc.iter().enumerate() {
        b.vx[i] += a.0 * DT;
        b.vy[i] += a.1 * DT;
        b.vz[i] += a.2 * DT;
        b.x[i] += b.vx[i] * DT;
        b.y[i] += b.vy[i] * DT;
        b.z[i] += b.vz[i] * DT;
    }
}

pub fn reference(b: &mut Bodies, steps: usize) {
    for _ in 0..steps {
        let acc: Vec<_> = (0..b.x.len()).map(|i| accel_of(b, i)).collect();
        update(b, &acc);
    }
}

pub fn rayon(b: &mut Bodies, steps: usize) {
    for _ in 0..steps {
        let acc: Vec<_> = (0..b.x.len()).into_par_iter().map(|i| accel_of(b, i)).collect();
        update(b, &acc);
    }
}
