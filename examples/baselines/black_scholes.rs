//! Black-Scholes without accel: the input generator, the formula written
//! directly in Rust (the sequential reference), and the rayon version.

#![allow(dead_code)] // the examples and the benchmarks each use a part

use crate::common::Rng;
use rayon::prelude::*;

pub const R: f32 = 0.02;
pub const V: f32 = 0.30;

/// `n` options (price, strike, years) in the paper's ranges.
pub fn options(n: usize, rng: &mut Rng) -> Vec<(f32, f32, f32)> {
    (0..n)
        .map(|_| (rng.f32(5.0, 30.0), rng.f32(1.0, 100.0), rng.f32(0.25, 10.0)))
        .collect()
}

/// The (call, put) prices of one option.
#[allow(clippy::excessive_precision)] // the paper's constants, as printed
pub fn price(price: f32, strike: f32, years: f32, r: f32, v: f32) -> (f32, f32) {
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

pub fn rayon(opts: &[(f32, f32, f32)], r: f32, v: f32) -> Vec<(f32, f32)> {
    opts.par_iter().map(|&(p, s, y)| price(p, s, y, r, v)).collect()
}
