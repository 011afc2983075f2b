//! Black-Scholes option pricing: the Accelerate paper's Figure 1, as one fused
//! map kernel, checked against a plain sequential Rust reference.
//!
//! `cargo run --release --example black_scholes [-- N]` (default N = 20,000,000).

use accel::prelude::*;
use std::time::Instant;

#[path = "baselines/black_scholes.rs"]
mod baseline;
mod common;
use baseline::price as reference;

#[path = "programs/black_scholes.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
mod program;
use program::black_scholes;

fn main() -> accel::Result<()> {
    let n: usize = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("black_scholes example", format!("not a size: {s}")))?,
        None => 20_000_000,
    };
    let (r, v) = (baseline::R, baseline::V);
    // Deterministic pseudo-random options, as in the paper's ranges.
    let opts = baseline::options(n, &mut common::Rng(0x2545_f491_4f6c_dd1d));
    let input = Vector::from(opts.clone());
    let backend = Backend::default();
    println!("Black-Scholes of {n} options on backend `{}`", backend.name());
    println!("{}", black_scholes::explain());

    // Warm up, then alternate accel and the hand-written rayon version a Rust
    // programmer would write, taking the median of each.
    let _ = black_scholes::on(&backend, &input, r, v)?;
    let runs = 7;
    let (mut t_acc, mut t_hand) = (Vec::new(), Vec::new());
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        out = Some(black_scholes::on(&backend, &input, r, v)?);
        t_acc.push(t.elapsed());
        let t = Instant::now();
        let hand = baseline::rayon(&opts, r, v);
        t_hand.push(t.elapsed());
        std::hint::black_box(hand);
    }
    t_acc.sort();
    t_hand.sort();
    let (t_acc, t_hand) = (t_acc[runs / 2], t_hand[runs / 2]);
    println!("accel:        {:9.3} ms", t_acc.as_secs_f64() * 1e3);
    println!("rayon (hand): {:9.3} ms", t_hand.as_secs_f64() * 1e3);
    println!(
        "ratio accel / rayon = {:.3}  (median of {runs} runs each)",
        t_acc.as_secs_f64() / t_hand.as_secs_f64()
    );
    let out = out.ok_or_else(|| accel::Error::new("black_scholes example", "no run"))?;

    // Check every option against the reference.
    let got = out.to_vec();
    let mut worst = 0.0f32;
    for (&(p, s, y), &(call, put)) in opts.iter().zip(&got) {
        let (c, q) = reference(p, s, y, r, v);
        worst = worst
            .max((call - c).abs() / c.abs().max(1.0))
            .max((put - q).abs() / q.abs().max(1.0));
    }
    println!("largest relative difference from the Rust reference: {worst:.2e}");
    if worst > 1e-4 {
        return Err(accel::Error::new(
            "black_scholes example",
            format!("results differ from the reference by {worst}"),
        ));
    }
    println!("checked {} options: ok", got.len());
    Ok(())
}
