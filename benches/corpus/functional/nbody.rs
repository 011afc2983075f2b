//! nbody: one step of the direct all-pairs n-body simulation: every body's
//! acceleration from all the others (softened by epsilon), then positions
//! and velocities advanced by one time step (`advance_body`: the
//! acceleration scaled by the body's mass, the position moved by the old
//! velocity).
//! futhark-benchmarks `accelerate/nbody/nbody.fut`, after accelerate-examples
//! `examples/n-body`. Its data set of 10,000 bodies, one step, time step 1,
//! epsilon 50; the bodies are made here by an LCG.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

type V3 = (f32, f32, f32);

/// As a user writes it from docs/language.md: the pairwise accelerations
/// over an n x n index space, summed along each row, then one `zip_with` per
/// update.
#[acc]
fn nbody(
    dt: f32,
    eps: f32,
    pos: &Vector<(f32, f32, f32)>,
    vel: &Vector<(f32, f32, f32)>,
    mass: &Vector<f32>,
) -> (
    Vector<(f32, f32, f32)>,
    Vector<(f32, f32, f32)>,
    Vector<(f32, f32, f32)>,
) {
    let n = mass.len();
    let acc = generate([n, n], |[i, j]| {
        let (xi, yi, zi) = pos[[i]];
        let (xj, yj, zj) = pos[[j]];
        let (rx, ry, rz) = (xj - xi, yj - yi, zj - zi);
        let rsqr = rx * rx + ry * ry + rz * rz + eps * eps;
        let invr = 1.0 / rsqr.sqrt();
        let s = mass[[j]] * (invr * invr * invr);
        (rx * s, ry * s, rz * s)
    })
    .fold((0.0, 0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    let acc2 = acc.zip_with(mass, |a, m| (a.0 * m, a.1 * m, a.2 * m));
    let pos2 = pos.zip_with(vel, |p, v| (p.0 + v.0 * dt, p.1 + v.1 * dt, p.2 + v.2 * dt));
    let vel2 = vel.zip_with(&acc2, |v, a| (v.0 + a.0 * dt, v.1 + a.1 * dt, v.2 + a.2 * dt));
    (pos2, vel2, acc2)
}

fn accel_of(eps: f32, pos: &[V3], mass: &[f32], i: usize) -> V3 {
    let (xi, yi, zi) = pos[i];
    let mut a = (0.0f32, 0.0f32, 0.0f32);
    for (j, &(xj, yj, zj)) in pos.iter().enumerate() {
        let (rx, ry, rz) = (xj - xi, yj - yi, zj - zi);
        let rsqr = rx * rx + ry * ry + rz * rz + eps * eps;
        let invr = 1.0 / rsqr.sqrt();
        let s = mass[j] * (invr * invr * invr);
        a = (a.0 + rx * s, a.1 + ry * s, a.2 + rz * s);
    }
    a
}

/// futhark's `advance_body`.
fn advance(dt: f32, p: V3, m: f32, v: V3, a: V3) -> (V3, V3, V3) {
    let a2 = (a.0 * m, a.1 * m, a.2 * m);
    (
        (p.0 + v.0 * dt, p.1 + v.1 * dt, p.2 + v.2 * dt),
        (v.0 + a2.0 * dt, v.1 + a2.1 * dt, v.2 + a2.2 * dt),
        a2,
    )
}

type Bodies = (Vec<V3>, Vec<V3>, Vec<V3>);

fn unzip3(v: Vec<(V3, V3, V3)>) -> Bodies {
    let mut out = (vec![], vec![], vec![]);
    for (p, v, a) in v {
        out.0.push(p);
        out.1.push(v);
        out.2.push(a);
    }
    out
}

fn sequential(dt: f32, eps: f32, pos: &[V3], vel: &[V3], mass: &[f32]) -> Bodies {
    unzip3(
        (0..pos.len())
            .map(|i| advance(dt, pos[i], mass[i], vel[i], accel_of(eps, pos, mass, i)))
            .collect(),
    )
}

fn rayon(dt: f32, eps: f32, pos: &[V3], vel: &[V3], mass: &[f32]) -> Bodies {
    unzip3(
        (0..pos.len())
            .into_par_iter()
            .map(|i| advance(dt, pos[i], mass[i], vel[i], accel_of(eps, pos, mass, i)))
            .collect(),
    )
}

pub fn program(h: &mut Harness) {
    if !h.wants("nbody") {
        return;
    }
    let n = h.pick(10_000, 7);
    let mut s = 77u32;
    let mut rnd = |lo: f32, hi: f32| {
        s = s.wrapping_mul(1664525).wrapping_add(1013904223);
        lo + (hi - lo) * ((s >> 8) as f32 / (1u32 << 24) as f32)
    };
    let pos: Vec<V3> = (0..n)
        .map(|_| (rnd(-100.0, 100.0), rnd(-100.0, 100.0), rnd(-100.0, 100.0)))
        .collect();
    let vel: Vec<V3> = (0..n)
        .map(|_| (rnd(-1.0, 1.0), rnd(-1.0, 1.0), rnd(-1.0, 1.0)))
        .collect();
    let mass: Vec<f32> = (0..n).map(|_| rnd(0.1, 1.0)).collect();
    let (dt, eps) = (1.0f32, 50.0f32);
    let (pa, va, ma) = (
        Vector::from(pos.clone()),
        Vector::from(vel.clone()),
        Vector::from(mass.clone()),
    );
    let backend = h.backend();
    h.program(Program {
        name: "nbody",
        source: "futhark-benchmarks accelerate/nbody/nbody.fut (accelerate-examples n-body)",
        size: format!("{n} bodies"),
        tolerance: 1e-3,
        systems: vec![
            ("accel", run(move || nbody::on(&backend, dt, eps, &pa, &va, &ma))),
            ("sequential", run(|| Ok(sequential(dt, eps, &pos, &vel, &mass)))),
            ("rayon", run(|| Ok(rayon(dt, eps, &pos, &vel, &mass)))),
        ],
    });
}
