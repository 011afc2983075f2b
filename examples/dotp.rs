//! Dot product: one fused kernel (zip_with into fold), against the hand-written
//! rayon loop a Rust programmer would write, on the same data in the same process.
//!
//! `cargo run --release --example dotp [-- N]` (default N = 20,000,000 f32).

use accel::prelude::*;
use rayon::prelude::*;
use std::time::{Duration, Instant};

#[acc]
pub fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
    xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
}

/// Median of `runs` timings of `f`.
fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        last = Some(std::hint::black_box(f()));
        times.push(t.elapsed());
    }
    times.sort();
    (last.expect("runs > 0"), times[runs / 2])
}

fn main() -> accel::Result<()> {
    let n: usize = match std::env::args().nth(1) {
        Some(s) => s.parse().map_err(|_| accel::Error::new("dotp example", format!("not a size: {s}")))?,
        None => 20_000_000,
    };
    let backend = Backend::default();
    let xs: Vec<f32> = (0..n).map(|i| ((i % 1000) as f32) * 0.001).collect();
    let ys: Vec<f32> = (0..n).map(|i| ((i % 777) as f32) * 0.002 - 0.5).collect();
    let (axs, ays) = (Vector::from(xs.clone()), Vector::from(ys.clone()));

    println!("dotp of {n} f32 on backend `{}` ({} threads)", backend.name(), rayon::current_num_threads());
    println!("{}", dotp::explain());

    // Warm up both (thread pool start, page faults), then take medians.
    let _ = dotp::on(&backend, &axs, &ays)?;
    let runs = 15;
    let (r, t_acc) = time(runs, || dotp::on(&backend, &axs, &ays));
    let r = r?.value();
    let (r_rayon, t_rayon) = time(runs, || xs.par_iter().zip(&ys).map(|(x, y)| x * y).sum::<f32>());

    let rel = ((r - r_rayon) / r_rayon.abs().max(1.0)).abs();
    println!("accel:        {r:>16.4}   {:>9.3} ms", t_acc.as_secs_f64() * 1e3);
    println!("rayon (hand): {r_rayon:>16.4}   {:>9.3} ms", t_rayon.as_secs_f64() * 1e3);
    println!("ratio accel / rayon = {:.3}  (median of {runs} runs each)", t_acc.as_secs_f64() / t_rayon.as_secs_f64());
    if rel > 1e-3 {
        return Err(accel::Error::new("dotp example", format!("results differ: {r} vs {r_rayon}")));
    }
    Ok(())
}
