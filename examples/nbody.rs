//! All-pairs n-body (the Accelerate paper's §5.3): each step computes the
//! acceleration of every body from all the others (a `generate` of pair
//! accelerations folded per body, so no n x n array is stored) and moves the
//! bodies. Checked against a sequential Rust loop at a small size, then timed
//! against the hand-written rayon loop.
//!
//! `cargo run --release --example nbody [-- BODIES [STEPS]]` (default 32,768 bodies, 3 steps).

use accel::prelude::*;

#[path = "baselines/nbody.rs"]
mod baseline;
mod common;
#[path = "programs/nbody.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

use baseline::{Bodies, DT, EPS2};
use common::{arg, fail, report, Rng, Samples};
use program::nbody_step;

const NAME: &str = "nbody";

type V3 = Vector<(f32, f32, f32)>;

fn to_accel(b: &Bodies) -> (V3, V3, Vector<f32>) {
    let n = b.x.len();
    let pos: V3 = (0..n).map(|i| (b.x[i], b.y[i], b.z[i])).collect();
    let vel: V3 = (0..n).map(|i| (b.vx[i], b.vy[i], b.vz[i])).collect();
    (pos, vel, Vector::from(b.m.clone()))
}

fn run(backend: &Backend, b: &Bodies, steps: usize) -> accel::Result<(V3, V3)> {
    let (mut pos, mut vel, mass) = to_accel(b);
    for _ in 0..steps {
        (pos, vel) = nbody_step::on(backend, &pos, &vel, &mass, DT, EPS2)?;
    }
    Ok((pos, vel))
}

/// The largest difference between accel's positions and velocities and the
/// reference's, relative to the largest magnitude.
fn difference(pos: &V3, vel: &V3, want: &Bodies) -> f32 {
    let (p, v) = (pos.to_vec(), vel.to_vec());
    let mut worst = 0.0f32;
    let mut scale = 1e-6f32;
    for i in 0..p.len() {
        let got = [p[i].0, p[i].1, p[i].2, v[i].0, v[i].1, v[i].2];
        let exp = [
            want.x[i], want.y[i], want.z[i], want.vx[i], want.vy[i], want.vz[i],
        ];
        for k in 0..6 {
            worst = worst.max((got[k] - exp[k]).abs());
            scale = scale.max(exp[k].abs());
        }
    }
    worst / scale
}

fn main() -> accel::Result<()> {
    let n = arg(NAME, 1, 32_768)?;
    let steps = arg(NAME, 2, 3)?;
    let backend = Backend::default();

    // Correctness at small sizes: the sums are taken in another order, so
    // compare within a tolerance.
    for (sn, ss) in [(1, 1), (2, 3), (97, 2), (1000, 3)] {
        let b0 = baseline::generate(sn, &mut Rng(0x1234_5678 + sn as u64));
        let mut want = b0.clone();
        baseline::reference(&mut want, ss);
        let (pos, vel) = run(&backend, &b0, ss)?;
        let d = difference(&pos, &vel, &want);
        if d.is_nan() || d > 1e-4 {
            return Err(fail(
                NAME,
                format!("{sn} bodies: differs from the reference by {d:e}"),
            ));
        }
        let mut hand = b0.clone();
        baseline::rayon(&mut hand, ss);
        if hand != want {
            return Err(fail(NAME, "the rayon version differs from the reference"));
        }
    }
    println!("checked against the sequential reference at 1, 2, 97 and 1000 bodies");

    println!(
        "n-body: {n} bodies, {steps} steps on backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", nbody_step::explain());
    let b0 = baseline::generate(n, &mut Rng(0x9E37_79B9_7F4A_7C15));
    let _ = run(&backend, &b0, 1)?;
    let runs = 3;
    let (mut acc, mut hand) = (Samples::default(), Samples::default());
    for _ in 0..runs {
        let (pos, vel) = acc.run(|| run(&backend, &b0, steps))?;
        let mut h = b0.clone();
        hand.run(|| baseline::rayon(&mut h, steps));
        let d = difference(&pos, &vel, &h);
        if d.is_nan() || d > 1e-3 {
            return Err(fail(NAME, format!("accel and rayon differ by {d:e}")));
        }
    }
    report(runs, &acc, &hand);
    Ok(())
}
