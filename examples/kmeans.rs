//! k-means clustering of 2-D points: assignment to the nearest centroid, sums
//! per cluster with `permute`, a few iterations in an array-level `for` loop.
//! Checked against a sequential Rust loop at a small size (the cluster sums are
//! added in another order, so within a tolerance), then timed against the
//! hand-written rayon version.
//!
//! `cargo run --release --example kmeans [-- POINTS [K [ITERS]]]`
//! (default 2,000,000 points, 16 clusters, 10 iterations).

use accel::prelude::*;

#[path = "baselines/kmeans.rs"]
mod baseline;
mod common;
#[path = "programs/kmeans.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

use common::{arg, fail, report, Rng, Samples};
use program::kmeans;

const NAME: &str = "kmeans";

fn difference(a: &[(f32, f32)], b: &[(f32, f32)]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x.0 - y.0).abs().max((x.1 - y.1).abs()))
        .fold(0.0, f32::max)
}

fn main() -> accel::Result<()> {
    let n = arg(NAME, 1, 2_000_000)?;
    let k = arg(NAME, 2, 16)?;
    let iters = arg(NAME, 3, 10)?;
    if k == 0 || k > n {
        return Err(fail(NAME, format!("need 0 < K <= POINTS, got K = {k}")));
    }
    let backend = Backend::default();

    for (sn, sk, si) in [(1, 1, 1), (10, 3, 2), (20_000, 8, 5)] {
        let (pts, init) = baseline::generate(sn, sk, &mut Rng(7 + sn as u64));
        let want = baseline::reference(&pts, &init, si);
        let got = kmeans::on(
            &backend,
            &Vector::from(pts.clone()),
            &Vector::from(init.clone()),
            si,
        )?
        .to_vec();
        let d = difference(&got, &want);
        if got.len() != want.len() || d.is_nan() || d > 1e-4 {
            return Err(fail(
                NAME,
                format!("{sn} points: accel differs from the reference by {d:e}"),
            ));
        }
        let d = difference(&baseline::rayon(&pts, &init, si), &want);
        if d.is_nan() || d > 1e-4 {
            return Err(fail(
                NAME,
                format!("the rayon version differs from the reference by {d:e}"),
            ));
        }
    }
    println!("checked against the sequential reference");

    println!(
        "k-means: {n} points, {k} clusters, {iters} iterations on backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", kmeans::explain());
    let (pts, init) = baseline::generate(n, k, &mut Rng(0x9E37_79B9_7F4A_7C15));
    let (apts, ainit) = (Vector::from(pts.clone()), Vector::from(init.clone()));
    let _ = kmeans::on(&backend, &apts, &ainit, 1)?;
    let runs = 5;
    let (mut acc, mut hand) = (Samples::default(), Samples::default());
    for _ in 0..runs {
        let a = acc.run(|| kmeans::on(&backend, &apts, &ainit, iters))?;
        let h = hand.run(|| baseline::rayon(&pts, &init, iters));
        let d = difference(&a.to_vec(), &h);
        if d.is_nan() || d > 1e-3 {
            return Err(fail(NAME, format!("accel and rayon differ by {d:e}")));
        }
    }
    report(runs, &acc, &hand);
    Ok(())
}
