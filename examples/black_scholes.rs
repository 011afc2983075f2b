//! Black-Scholes option pricing: the Accelerate paper's Figure 1, as one fused
//! map kernel, checked against a plain sequential Rust reference.
//!
//! `cargo run --release --example black_scholes [-- N]` (default N = 20,000,000).

use accel::prelude::*;
use rayon::prelude::*;
use std::time::Instant;

#[path = "programs/black_scholes.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
mod program;
use program::black_scholes;

/// The same formula, written directly in Rust, one option at a time.
#[allow(clippy::excessive_precision)] // the paper's constants, as printed
fn reference(price: f32, strike: f32, years: f32, r: f32, v: f32) -> (f32, f32) {
    fn cnd(d: f32) -> f32 {
        let k = 1.0 / (1.0 + 0.2316419 * d.abs());
        let poly =
            k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
        let w = 0.398_942_3 * (-0.5 * d * d).exp() * poly;
        if d > 0.0 {
            1.0 - w
        } else {
            w
        }
    }
    let v_sqrt_t = v * years.sqrt();
    let d1 = ((price / strike).ln() + (r + 0.5 * v * v) * years) / v_sqrt_t;
    let d2 = d1 - v_sqrt_t;
    let x = strike * (-r * years).exp();
    (
        price * cnd(d1) - x * cnd(d2),
        x * (1.0 - cnd(d2)) - price * (1.0 - cnd(d1)),
    )
}

fn main() -> accel::Result<()> {
    let n: usize = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("black_scholes example", format!("not a size: {s}")))?,
        None => 20_000_000,
    };
    let (r, v) = (0.02f32, 0.30f32);
    // Deterministic pseudo-random options, as in the paper's ranges.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move |lo: f32, hi: f32| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        lo + (hi - lo) * ((seed >> 40) as f32 / (1u64 << 24) as f32)
    };
    let opts: Vec<(f32, f32, f32)> = (0..n)
        .map(|_| (rnd(5.0, 30.0), rnd(1.0, 100.0), rnd(0.25, 10.0)))
        .collect();
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
        let hand: Vec<(f32, f32)> = opts
            .par_iter()
            .map(|&(p, s, y)| reference(p, s, y, r, v))
            .collect();
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
