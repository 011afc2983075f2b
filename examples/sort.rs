//! Sorting with accel's radix sort (the compiler's `sort` primitive), checked
//! against `slice::sort` and timed against rayon's `par_sort_unstable` on the
//! same data in the same process.
//!
//! `cargo run --release --example sort [-- N]` (default N = 4,000,000 i32).

use accel::prelude::*;
use rayon::prelude::*;
use std::time::{Duration, Instant};

accel! {
    /// Keys ascending, and the stable permutation that sorts them.
    pub fn sort_keys(xs: &Vector<i32>) -> Vector<i32> {
        xs.sort()
    }

    /// Records ordered by score, highest first, ties in input order.
    pub fn by_score(records: &Vector<(u32, i32)>) -> Vector<(u32, i32)> {
        records.sort_by_key(|r| -(r.1 as i64))
    }
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() -> accel::Result<()> {
    let n: usize = match std::env::args().nth(1) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("sort example", format!("not a size: {s}")))?,
        None => 4_000_000,
    };
    // A cheap deterministic generator covering the whole i32 range.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let keys: Vec<i32> = (0..n).map(|_| next() as i32).collect();
    let xs = Vector::from(keys.clone());
    println!("sort of {n} i32 ({} threads)", rayon::current_num_threads());

    // Correctness first: against the standard library.
    let sorted = sort_keys(&xs)?;
    let mut want = keys.clone();
    want.sort();
    if sorted.to_vec() != want {
        return Err(accel::Error::new(
            "sort example",
            "accel's sort differs from slice::sort",
        ));
    }
    let small: Vec<(u32, i32)> = (0..10_000u32).map(|i| (i, (next() % 50) as i32 - 25)).collect();
    let got = by_score(&Vector::from(small.clone()))?.to_vec();
    let mut want_small = small;
    want_small.sort_by_key(|r| -(r.1 as i64)); // stable, as accel's is
    if got != want_small {
        return Err(accel::Error::new(
            "sort example",
            "sort_by_key differs from slice::sort_by_key",
        ));
    }
    println!("results checked against slice::sort and slice::sort_by_key");

    let runs = 7;
    let (mut t_acc, mut t_rayon) = (vec![], vec![]);
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(sort_keys(&xs)?);
        t_acc.push(t.elapsed());
        let mut v = keys.clone();
        let t = Instant::now();
        v.par_sort_unstable();
        t_rayon.push(t.elapsed());
        std::hint::black_box(v);
    }
    let (a, r) = (median(t_acc), median(t_rayon));
    println!("accel radix sort:           {:>9.3} ms", a.as_secs_f64() * 1e3);
    println!("rayon par_sort_unstable:    {:>9.3} ms", r.as_secs_f64() * 1e3);
    println!(
        "ratio accel / rayon = {:.2} (median of {runs} runs)",
        a.as_secs_f64() / r.as_secs_f64()
    );
    Ok(())
}
