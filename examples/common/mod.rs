//! Helpers shared by the examples: the size argument, errors, medians.

#![allow(dead_code)] // each example uses a part

use std::time::{Duration, Instant};

/// The `k`-th command-line argument as a number, or `default`.
pub fn arg(name: &str, k: usize, default: usize) -> accel::Result<usize> {
    match std::env::args().nth(k) {
        Some(s) => s.parse().map_err(|_| fail(name, format!("not a number: {s}"))),
        None => Ok(default),
    }
}

pub fn fail(name: &str, msg: impl Into<String>) -> accel::Error {
    accel::Error::new(format!("{name} example"), msg.into())
}

/// Times of repeated runs; the median is reported.
#[derive(Default)]
pub struct Samples(pub Vec<Duration>);

impl Samples {
    pub fn run<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = std::hint::black_box(f());
        self.0.push(t.elapsed());
        r
    }

    pub fn median(&self) -> Duration {
        let mut v = self.0.clone();
        v.sort();
        v.get(v.len() / 2).copied().unwrap_or_default()
    }
}

/// Prints the two medians and their ratio.
pub fn report(runs: usize, acc: &Samples, hand: &Samples) {
    let (a, h) = (acc.median().as_secs_f64(), hand.median().as_secs_f64());
    println!("accel:        {:>10.3} ms", a * 1e3);
    println!("rayon (hand): {:>10.3} ms", h * 1e3);
    println!("ratio accel / rayon = {:.3}  (median of {runs} runs each)", a / h);
}

/// A small deterministic generator (xorshift64), the same in every example and
/// in `bench/compare.py`'s data files.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[lo, hi)`.
    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
