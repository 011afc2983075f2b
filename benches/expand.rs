//! Expand fusion micro-benchmarks (`cargo bench --bench expand`): the expand
//! fusion thesis's size distributions at input counts from 1 to 200,000,
//! `expand → permute` and `expand → sum`, each as
//! * `fused`: one kernel, the split chosen automatically (by output, or by
//!   input for a sum of tiny, even counts),
//! * `fused-output`: one kernel, work split by output (forced),
//! * `fused-inputs`: one kernel, work split by input (a plain parallel loop; forced),
//! * `unfused`: expand fusion off (scan of the counts, the expanded array by
//!   binary search, then the consumer),
//! * `no-fusion`: every operation its own kernel.
//!
//! On two distributions a third consumer, `permute-pairs`, combines pairs
//! (not one primitive operation: the generic permute's private tables or
//! buckets by target range).
//!
//! Prints a markdown table of medians and of ratios to `unfused` (below 1:
//! faster). The element of input `(size, base)` at `k` is `base + k`; the
//! permute adds it into one of `min(total, 1000)` slots (the thesis's target
//! distribution R, with an atomic add where the thesis used `const`).
//!
//! Environment: `EXPAND_BENCH_MAX=N` caps the input counts (default 200,000);
//! distributions whose expected total exceeds 20M elements at a count are
//! skipped there (time and memory: the unfused path stores the expansion).
//! `cargo bench --bench expand -- 0-10` runs only the matching groups.
//!
//! Alternating mode: `EXPAND_ALTERNATE=1` times only the three fused
//! variants (auto, split by output, split by input), in turn, call after
//! call, and prints their medians: criterion measures one system after the
//! other, and on a shared machine that order moves a 20 µs cell by more than
//! the 10% the automatic choice is judged by.
//!
//! GPU mode: `BENCH_BACKEND=cuda` (or `cuda:N`, or `ptx-sim` for a smoke
//! test) times the same programs on that backend instead: the fused permute
//! under each forced work distribution (`thread`, `warp`, `block`, `prefix`, `chunk`,
//! `accel_runtime::gpu::launch::set_expand_strategy`) and the automatic choice
//! (`auto`, whose pick is printed), the fused sum (one strategy: balanced by
//! output), and both unfused; every call includes the transfers of its
//! arguments and result, the same for every system.

use accel::__rt::cpu::{set_expand_strategy, ExpandStrategy};
use accel::prelude::*;
use criterion::Criterion;
use std::time::{Duration, Instant};

#[path = "../examples/common/mod.rs"]
mod common;
use common::Rng;

macro_rules! micro_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)]
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            pub fn scatter(xs: &Vector<(u32, u32)>, d: &Vector<u32>) -> Vector<u32> {
                let ys = xs.expand(|p| p.0, |p, k| p.1 + k);
                ys.permute(d, |[j]| Some([ys[[j]] as usize % d.len()]), |a, b| a + b)
            }

            // A combination of pairs: the generic permute.
            pub fn scatter_pair(xs: &Vector<(u32, u32)>, d: &Vector<(u32, u32)>) -> Vector<(u32, u32)> {
                let ys = xs.expand(|p| p.0, |p, k| (p.1 + k, k));
                ys.permute(d, |[j]| Some([ys[[j]].0 as usize % d.len()]), |a, b| (a.0 + b.0, a.1 + b.1))
            }

            pub fn flat_sum(xs: &Vector<(u32, u32)>) -> Scalar<u64> {
                xs.expand(|p| p.0, |p, k| p.1 + k).map(|y| y as u64).sum()
            }
        }
    };
}

mod fused {
    micro_program!();
}
mod unfused {
    micro_program!(#![acc(expand_fusion = false)]);
}
mod no_fusion {
    micro_program!(#![acc(fusion = false)]);
}

/// The thesis's size distributions: (name, size of input `i`, mean size).
type Dist = (&'static str, fn(&mut Rng) -> u32, f64);

const DISTS: [Dist; 5] = [
    ("100% 0-10", |r| r.below(11) as u32, 5.0),
    ("100% 0-100", |r| r.below(101) as u32, 50.0),
    ("100% 1000-3000", |r| 1000 + r.below(2001) as u32, 2000.0),
    ("75% 1, 25% 0", |r| (r.below(4) != 0) as u32, 0.75),
    (
        "90% 0-10, 10% 3000-3500",
        |r| {
            if r.below(10) == 0 {
                3000 + r.below(501) as u32
            } else {
                r.below(11) as u32
            }
        },
        0.9 * 5.0 + 0.1 * 3250.0,
    ),
];

const COUNTS: [usize; 5] = [1, 100, 10_000, 100_000, 200_000];

/// The `n` inputs `(size, base)` of a distribution (the same for every
/// system and mode), and their total size.
fn inputs(size: fn(&mut Rng) -> u32, n: usize) -> (Vector<(u32, u32)>, usize) {
    let mut rng = Rng(0x9E37_79B9 + n as u64);
    let xs: Vec<(u32, u32)> = (0..n)
        .map(|_| (size(&mut rng), rng.below(1 << 20) as u32))
        .collect();
    let total = xs.iter().map(|p| p.0 as usize).sum();
    (Vector::from(xs), total)
}

type Job<'a> = (&'static str, Box<dyn FnMut() -> accel::Result<u64> + 'a>);

/// Criterion runs each job; the median of its samples is kept.
fn group(c: &mut Criterion, name: &str, jobs: Vec<Job<'_>>) -> Vec<(&'static str, f64)> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g.sampling_mode(criterion::SamplingMode::Flat);
    let mut out = vec![];
    let mut check = None;
    for (system, mut job) in jobs {
        let mut per_call: Vec<f64> = vec![];
        let mut error = None;
        let mut result = 0;
        g.bench_function(system, |b| {
            b.iter_custom(|iters| {
                let t = Instant::now();
                for _ in 0..iters {
                    match job() {
                        Ok(r) => result = r,
                        Err(e) => {
                            error.get_or_insert(e);
                        }
                    }
                }
                let e = t.elapsed();
                per_call.push(e.as_secs_f64() / iters.max(1) as f64);
                e
            })
        });
        if let Some(e) = error {
            eprintln!("{name} / {system}: {e}");
            std::process::exit(1);
        }
        if per_call.is_empty() {
            continue;
        }
        // Every system computes the same thing.
        if *check.get_or_insert(result) != result {
            eprintln!("{name} / {system}: a different result");
            std::process::exit(1);
        }
        let mut last = per_call[per_call.len().saturating_sub(10)..].to_vec();
        last.sort_by(f64::total_cmp);
        out.push((system, last[last.len() / 2]));
    }
    g.finish();
    out
}

fn checksum_pairs(v: &[(u32, u32)]) -> u64 {
    v.iter().enumerate().fold(0u64, |h, (i, &(x, y))| {
        h.wrapping_mul(31)
            .wrapping_add((x as u64) << 32 ^ y as u64 ^ i as u64)
    })
}

/// Distributions that also get the permute of pairs (`permute-pairs`).
const PAIR_DISTS: [&str; 2] = ["100% 0-10", "75% 1, 25% 0"];

fn checksum(v: &[u32]) -> u64 {
    v.iter().enumerate().fold(0u64, |h, (i, &x)| {
        h.wrapping_mul(31).wrapping_add(x as u64 ^ i as u64)
    })
}

/// The alternating mode: the fused variants called in turn (about 20 ms of
/// calls per variant and cell), one table row per consumer, distribution and
/// input count.
fn alternate(max: usize) {
    let splits = [None, Some(ExpandStrategy::Balanced), Some(ExpandStrategy::Inputs)];
    println!("| consumer | sizes | inputs | fused (auto) | fused-output | fused-inputs | auto / best fixed | within 10% |");
    println!("|---|---|---:|---:|---:|---:|---:|---|");
    for (dname, size, mean) in DISTS {
        for n in COUNTS.into_iter().filter(|&n| n <= max) {
            if n as f64 * mean > 20e6 {
                continue;
            }
            let (xs, total) = inputs(size, n);
            let d = Vector::from(vec![0u32; total.clamp(1, 1000)]);
            let d2 = Vector::from(vec![(0u32, 0u32); total.clamp(1, 1000)]);
            type Call<'a> = Box<dyn Fn() -> accel::Result<u64> + 'a>;
            let mut calls: Vec<(&str, Call<'_>)> = vec![
                (
                    "permute",
                    Box::new(|| fused::scatter(&xs, &d).map(|v| checksum(&v.to_vec()))),
                ),
                ("sum", Box::new(|| fused::flat_sum(&xs).map(|s| s.value()))),
            ];
            if PAIR_DISTS.contains(&dname) {
                calls.push((
                    "permute-pairs",
                    Box::new(|| fused::scatter_pair(&xs, &d2).map(|v| checksum_pairs(&v.to_vec()))),
                ));
            }
            for (consumer, call) in calls {
                // Rounds: about 20 ms of calls per variant (from one timed
                // call), at least 5.
                let t = Instant::now();
                let want = call().expect("the fused program runs");
                let rounds = (0.02 / t.elapsed().as_secs_f64().max(1e-7)).clamp(5.0, 2000.0) as usize;
                let mut times = [vec![], vec![], vec![]];
                for round in 0..rounds {
                    // Each variant first in turn: what ran just before
                    // (threads still spinning, say) is the same for all.
                    for v in (0..3).map(|j| (round + j) % 3) {
                        set_expand_strategy(splits[v]);
                        let t = Instant::now();
                        let got = call().expect("the fused program runs");
                        times[v].push(t.elapsed().as_secs_f64() * 1e3);
                        assert_eq!(got, want, "{consumer} {dname} n={n}: the splits differ");
                    }
                }
                let [auto, output, inputs] = times.map(|mut v| {
                    v.sort_by(f64::total_cmp);
                    v[v.len() / 2]
                });
                let r = auto / output.min(inputs);
                let met = if r <= 1.1 { "met" } else { "missed" };
                println!(
                    "| {consumer} | {dname} | {n} | {auto:.4} | {output:.4} | {inputs:.4} | {r:.2} | {met} |"
                );
            }
        }
    }
    set_expand_strategy(None);
}

/// The GPU mode: one row per distribution and input count.
fn gpu_main(backend: Backend, max: usize, mut c: Criterion) {
    use accel::__rt::gpu::launch::{expand_strategy, set_expand_strategy as set_gpu, ExpandStrategy as G};
    if backend.device().is_none() {
        eprintln!("BENCH_BACKEND: {} is not a GPU backend", backend.name());
        std::process::exit(1);
    }
    let forced = [
        ("thread", Some(G::Thread)),
        ("warp", Some(G::Warp)),
        ("block", Some(G::Block)),
        ("prefix", Some(G::Prefix)),
        ("chunk", Some(G::Chunk)),
        ("auto", None),
    ];
    let mut rows = vec![];
    for (dname, size, mean) in DISTS {
        for n in COUNTS.into_iter().filter(|&n| n <= max) {
            if n as f64 * mean > 20e6 {
                continue;
            }
            let mut rng = Rng(0x9E37_79B9 + n as u64);
            let xs: Vec<(u32, u32)> = (0..n)
                .map(|_| (size(&mut rng), rng.below(1 << 20) as u32))
                .collect();
            let total: usize = xs.iter().map(|p| p.0 as usize).sum();
            let most = xs.iter().map(|p| p.0 as usize).max().unwrap_or(0);
            set_gpu(None);
            let pick = format!("{:?}", expand_strategy(total, most, n)).to_lowercase();
            let d = Vector::from(vec![0u32; total.clamp(1, 1000)]);
            let xs = Vector::from(xs);
            let (xs, d, b) = (&xs, &d, &backend);
            let mut jobs: Vec<Job<'_>> = forced
                .iter()
                .map(|&(name, s)| -> Job<'_> {
                    (
                        name,
                        Box::new(move || {
                            set_gpu(s);
                            fused::scatter::on(b, xs, d).map(|v| checksum(&v.to_vec()))
                        }),
                    )
                })
                .collect();
            jobs.push((
                "unfused",
                Box::new(move || unfused::scatter::on(b, xs, d).map(|v| checksum(&v.to_vec()))),
            ));
            let t = group(&mut c, &format!("gpu expand-permute {dname} n={n}"), jobs);
            let sum_jobs: Vec<Job<'_>> = vec![
                (
                    "fused",
                    Box::new(move || fused::flat_sum::on(b, xs).map(|s| s.value())),
                ),
                (
                    "unfused",
                    Box::new(move || unfused::flat_sum::on(b, xs).map(|s| s.value())),
                ),
            ];
            let ts = group(&mut c, &format!("gpu expand-sum {dname} n={n}"), sum_jobs);
            set_gpu(None);
            if !t.is_empty() || !ts.is_empty() {
                rows.push((dname, n, pick, t, ts));
            }
        }
    }
    println!("\nbackend: {}", backend.name());
    println!("\n| sizes | inputs | thread | warp | block | prefix | chunk | auto (pick) | unfused | auto / unfused | auto / best fixed | sum fused | sum unfused | sum fused / unfused |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let ms = |t: &[(&str, f64)], s: &str| t.iter().find(|x| x.0 == s).map(|x| x.1 * 1e3);
    for (dname, n, pick, t, ts) in &rows {
        let cell = |t: &[(&str, f64)], s: &str| ms(t, s).map_or("-".into(), |v| format!("{v:.3}"));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "-".into(),
        };
        let best = ["thread", "warp", "block", "prefix", "chunk"]
            .iter()
            .filter_map(|s| ms(t, s))
            .min_by(f64::total_cmp);
        println!(
            "| {dname} | {n} | {} | {} | {} | {} | {} | {} ({pick}) | {} | {} | {} | {} | {} | {} |",
            cell(t, "thread"),
            cell(t, "warp"),
            cell(t, "block"),
            cell(t, "prefix"),
            cell(t, "chunk"),
            cell(t, "auto"),
            cell(t, "unfused"),
            ratio(ms(t, "auto"), ms(t, "unfused")),
            ratio(ms(t, "auto"), best),
            cell(ts, "fused"),
            cell(ts, "unfused"),
            ratio(ms(ts, "fused"), ms(ts, "unfused")),
        );
    }
}

fn main() {
    let max: usize = std::env::var("EXPAND_BENCH_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500))
        .configure_from_args();
    if let Some(b) = std::env::var("BENCH_BACKEND").ok().filter(|b| b != "cpu") {
        return gpu_main(Backend::from_setting(Some(&b)), max, c);
    }
    if std::env::var("EXPAND_ALTERNATE").is_ok() {
        return alternate(max);
    }
    let mut rows: Vec<(String, usize, &'static str, Vec<(&'static str, f64)>)> = vec![];
    for (dname, size, mean) in DISTS {
        for n in COUNTS.into_iter().filter(|&n| n <= max) {
            if n as f64 * mean > 20e6 {
                continue;
            }
            let (xs, total) = inputs(size, n);
            let d = Vector::from(vec![0u32; total.clamp(1, 1000)]);
            let strat = |s: ExpandStrategy| set_expand_strategy(Some(s));
            let (xs, d) = (&xs, &d);
            let permute_jobs: Vec<Job<'_>> = vec![
                (
                    "fused",
                    Box::new(move || {
                        set_expand_strategy(None);
                        fused::scatter(xs, d).map(|v| checksum(&v.to_vec()))
                    }),
                ),
                (
                    "fused-output",
                    Box::new(move || {
                        strat(ExpandStrategy::Balanced);
                        fused::scatter(xs, d).map(|v| checksum(&v.to_vec()))
                    }),
                ),
                (
                    "fused-inputs",
                    Box::new(move || {
                        strat(ExpandStrategy::Inputs);
                        fused::scatter(xs, d).map(|v| checksum(&v.to_vec()))
                    }),
                ),
                (
                    "unfused",
                    Box::new(move || unfused::scatter(xs, d).map(|v| checksum(&v.to_vec()))),
                ),
                (
                    "no-fusion",
                    Box::new(move || no_fusion::scatter(xs, d).map(|v| checksum(&v.to_vec()))),
                ),
            ];
            let name = format!("expand-permute {dname} n={n}");
            let t = group(&mut c, &name, permute_jobs);
            if !t.is_empty() {
                rows.push((dname.to_string(), n, "permute", t));
            }
            let sum_jobs: Vec<Job<'_>> = vec![
                (
                    "fused",
                    Box::new(move || {
                        set_expand_strategy(None);
                        fused::flat_sum(xs).map(|s| s.value())
                    }),
                ),
                (
                    "fused-output",
                    Box::new(move || {
                        strat(ExpandStrategy::Balanced);
                        fused::flat_sum(xs).map(|s| s.value())
                    }),
                ),
                (
                    "fused-inputs",
                    Box::new(move || {
                        strat(ExpandStrategy::Inputs);
                        fused::flat_sum(xs).map(|s| s.value())
                    }),
                ),
                (
                    "unfused",
                    Box::new(move || unfused::flat_sum(xs).map(|s| s.value())),
                ),
                (
                    "no-fusion",
                    Box::new(move || no_fusion::flat_sum(xs).map(|s| s.value())),
                ),
            ];
            if PAIR_DISTS.contains(&dname) {
                let d2 = Vector::from(vec![(0u32, 0u32); total.clamp(1, 1000)]);
                let d2 = &d2;
                let pair_jobs: Vec<Job<'_>> = vec![
                    (
                        "fused",
                        Box::new(move || {
                            set_expand_strategy(None);
                            fused::scatter_pair(xs, d2).map(|v| checksum_pairs(&v.to_vec()))
                        }),
                    ),
                    (
                        "fused-output",
                        Box::new(move || {
                            strat(ExpandStrategy::Balanced);
                            fused::scatter_pair(xs, d2).map(|v| checksum_pairs(&v.to_vec()))
                        }),
                    ),
                    (
                        "fused-inputs",
                        Box::new(move || {
                            strat(ExpandStrategy::Inputs);
                            fused::scatter_pair(xs, d2).map(|v| checksum_pairs(&v.to_vec()))
                        }),
                    ),
                    (
                        "unfused",
                        Box::new(move || unfused::scatter_pair(xs, d2).map(|v| checksum_pairs(&v.to_vec()))),
                    ),
                    (
                        "no-fusion",
                        Box::new(move || {
                            no_fusion::scatter_pair(xs, d2).map(|v| checksum_pairs(&v.to_vec()))
                        }),
                    ),
                ];
                let name = format!("expand-permute-pairs {dname} n={n}");
                let t = group(&mut c, &name, pair_jobs);
                if !t.is_empty() {
                    rows.push((dname.to_string(), n, "permute-pairs", t));
                }
            }
            let name = format!("expand-sum {dname} n={n}");
            let t = group(&mut c, &name, sum_jobs);
            if !t.is_empty() {
                rows.push((dname.to_string(), n, "sum", t));
            }
            set_expand_strategy(None);
        }
    }
    // `fused` is the automatic choice; the fixed strategies are the two splits.
    println!("\n| consumer | sizes | inputs | fused (auto) | fused-output | fused-inputs | unfused | no-fusion | fused / unfused | auto / best fixed | within 10% |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    let ms = |t: &[(&str, f64)], s: &str| t.iter().find(|x| x.0 == s).map(|x| x.1 * 1e3);
    for (dname, n, consumer, t) in &rows {
        let cell = |s: &str| ms(t, s).map_or("-".into(), |v| format!("{v:.3}"));
        let ratio = match (ms(t, "fused"), ms(t, "unfused")) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "-".into(),
        };
        let (best, met) = match (ms(t, "fused"), ms(t, "fused-output"), ms(t, "fused-inputs")) {
            (Some(a), Some(o), Some(i)) => {
                let r = a / o.min(i);
                (format!("{r:.2}"), if r <= 1.1 { "met" } else { "missed" })
            }
            _ => ("-".into(), "-"),
        };
        println!(
            "| {consumer} | {dname} | {n} | {} | {} | {} | {} | {} | {ratio} | {best} | {met} |",
            cell("fused"),
            cell("fused-output"),
            cell("fused-inputs"),
            cell("unfused"),
            cell("no-fusion"),
        );
    }
}
