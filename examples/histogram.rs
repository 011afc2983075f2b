//! Histogram with `permute`: each value adds 1 to its bin. Checked exactly
//! against a sequential Rust loop at small sizes, then timed against the
//! hand-written rayon version (per-task histograms, added up).
//!
//! `cargo run --release --example histogram [-- N [BINS]]` (default 20,000,000 values, 256 bins).

use accel::prelude::*;

#[path = "baselines/histogram.rs"]
mod baseline;
mod common;
#[path = "programs/histogram.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

use common::{arg, fail, report, Rng, Samples};
use program::histogram;

const NAME: &str = "histogram";

/// `n` values from the shared generator.
fn values(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng(seed);
    (0..n).map(|_| (rng.next_u64() >> 32) as u32).collect()
}

fn main() -> accel::Result<()> {
    let n = arg(NAME, 1, 20_000_000)?;
    let bins = arg(NAME, 2, 256)?;
    if bins == 0 {
        return Err(fail(NAME, "the number of bins must be positive"));
    }
    let backend = Backend::default();

    for (sn, sb) in [(0, 1), (1, 3), (1000, 7), (100_000, 256), (100_000, 100_003)] {
        let xs = values(sn, 42 + sn as u64);
        let want = baseline::reference(&xs, sb);
        if histogram::on(&backend, &Vector::from(xs.clone()), sb)?.to_vec() != want {
            return Err(fail(
                NAME,
                format!("{sn} values, {sb} bins: accel differs from the reference"),
            ));
        }
        if baseline::rayon(&xs, sb) != want {
            return Err(fail(NAME, "the rayon version differs from the reference"));
        }
    }
    println!("checked against the sequential reference");

    println!(
        "histogram of {n} u32 into {bins} bins on backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", histogram::explain());
    let data = values(n, 0x9E37_79B9_7F4A_7C15);
    let xs = Vector::from(data.clone());
    let _ = histogram::on(&backend, &xs, bins)?;
    let runs = 11;
    let (mut acc, mut hand) = (Samples::default(), Samples::default());
    for _ in 0..runs {
        let a = acc.run(|| histogram::on(&backend, &xs, bins))?;
        let h = hand.run(|| baseline::rayon(&data, bins));
        if a.to_vec() != h {
            return Err(fail(NAME, "accel and rayon differ"));
        }
    }
    report(runs, &acc, &hand);
    Ok(())
}
