//! The sieve of Eratosthenes with a fused `expand` → `permute` (the expand
//! fusion thesis's example): the primes up to `√n` are found by the same
//! program, then each expands to its multiples, which clear their flags in
//! one kernel. Checked against a sequential sieve at small sizes, then timed
//! against the program without fusion.
//!
//! `cargo run --release --example sieve [-- N]` (default 10,000,000).

use accel::prelude::*;

mod common;
#[path = "programs/sieve.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

#[allow(dead_code)] // only `on` is used
mod unfused {
    sieve_program!(#![acc(fusion = false)]);
}

use common::{arg, fail, Samples};
use program::sieve;

const NAME: &str = "sieve";

/// Sequential reference.
fn reference(n: usize) -> Vec<bool> {
    let mut f: Vec<bool> = (0..=n).map(|i| i >= 2).collect();
    let mut p = 2;
    while p * p <= n {
        if f[p] {
            let mut m = p * p;
            while m <= n {
                f[m] = false;
                m += p;
            }
        }
        p += 1;
    }
    f
}

/// The largest `r` with `r * r <= n`.
fn isqrt(n: usize) -> usize {
    let mut r = (n as f64).sqrt() as usize;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// The prime flags of `0..=n`: the primes up to `√n` first (sieved by every
/// number up to their own root), then the full sieve by those primes.
fn primes(backend: &Backend, n: usize, fused: bool) -> accel::Result<Vec<bool>> {
    let run = |ps: &Vector<u64>, n: usize| {
        if fused {
            sieve::on(backend, ps, n)
        } else {
            unfused::sieve::on(backend, ps, n)
        }
    };
    let r = isqrt(n);
    let rr = isqrt(r);
    let all: Vector<u64> = Vector::from((2..=rr as u64).collect::<Vec<_>>());
    let small = run(&all, r)?.to_vec();
    let ps: Vec<u64> = (0..=r).filter(|&i| small[i]).map(|i| i as u64).collect();
    Ok(run(&Vector::from(ps), n)?.to_vec())
}

fn main() -> accel::Result<()> {
    let n = arg(NAME, 1, 10_000_000)?;
    let backend = Backend::default();
    for sn in [0, 1, 2, 3, 4, 10, 97, 1000, 65_536, 1_000_003] {
        let want = reference(sn);
        for fused in [true, false] {
            if primes(&backend, sn, fused)? != want {
                return Err(fail(NAME, format!("n = {sn}: accel differs from the reference")));
            }
        }
    }
    println!("checked against the sequential reference");
    println!("{}", sieve::explain());
    let runs = 7;
    let (mut fused, mut unfused) = (Samples::default(), Samples::default());
    let mut count = 0;
    for _ in 0..runs {
        let a = fused.run(|| primes(&backend, n, true))?;
        let b = unfused.run(|| primes(&backend, n, false))?;
        if a != b {
            return Err(fail(NAME, "fused and unfused differ"));
        }
        count = a.iter().filter(|&&p| p).count();
    }
    println!(
        "{count} primes up to {n} on backend `{}` ({} threads): fused {:.2} ms, unfused {:.2} ms (median of {runs})",
        backend.name(),
        rayon::current_num_threads(),
        fused.median().as_secs_f64() * 1e3,
        unfused.median().as_secs_f64() * 1e3,
    );
    Ok(())
}
