//! Dot product: one fused kernel (zip_with into fold), against the hand-written
//! rayon loop a Rust programmer would write, on the same data in the same process.
//!
//! `cargo run --release --example dotp [-- N]` (default N = 20,000,000 f32).

use accel::prelude::*;
use rayon::prelude::*;
use std::time::{Duration, Instant};

#[path = "programs/dotp.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;
use program::dotp;

/// Median time of `f`, taking one sample per call.
struct Samples(Vec<Duration>);

impl Samples {
    fn run<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = std::hint::black_box(f());
        self.0.push(t.elapsed());
        r
    }

    fn median(mut self) -> Duration {
        self.0.sort();
        self.0[self.0.len() / 2]
    }
}

fn main() -> accel::Result<()> {
    let n: usize = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("dotp example", format!("not a size: {s}")))?,
        None => 20_000_000,
    };
    let backend = Backend::default();
    let xs: Vec<f32> = (0..n).map(|i| ((i % 1000) as f32) * 0.001).collect();
    let ys: Vec<f32> = (0..n).map(|i| ((i % 777) as f32) * 0.002 - 0.5).collect();
    let (axs, ays) = (Vector::from(xs.clone()), Vector::from(ys.clone()));

    println!(
        "dotp of {n} f32 on backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", dotp::explain());

    // Warm up both (thread pool start, page faults), then take medians.
    let _ = dotp::on(&backend, &axs, &ays)?;
    // Alternate the two so that drift (frequency, other load) hits both alike.
    let runs = 21;
    let (mut acc, mut hand) = (Samples(vec![]), Samples(vec![]));
    let (mut r, mut r_rayon) = (0.0, 0.0);
    for _ in 0..runs {
        r = acc.run(|| dotp::on(&backend, &axs, &ays))?.value();
        r_rayon = hand.run(|| xs.par_iter().zip(&ys).map(|(x, y)| x * y).sum::<f32>());
    }
    let (t_acc, t_rayon) = (acc.median(), hand.median());

    let rel = ((r - r_rayon) / r_rayon.abs().max(1.0)).abs();
    println!("accel:        {r:>16.4}   {:>9.3} ms", t_acc.as_secs_f64() * 1e3);
    println!(
        "rayon (hand): {r_rayon:>16.4}   {:>9.3} ms",
        t_rayon.as_secs_f64() * 1e3
    );
    println!(
        "ratio accel / rayon = {:.3}  (median of {runs} runs each)",
        t_acc.as_secs_f64() / t_rayon.as_secs_f64()
    );
    if rel > 1e-3 {
        return Err(accel::Error::new(
            "dotp example",
            format!("results differ: {r} vs {r_rayon}"),
        ));
    }
    Ok(())
}
