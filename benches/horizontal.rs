//! Clustering on the CPU (`cargo bench --bench horizontal`): programs whose
//! siblings read an input in common, or whose intermediates are also
//! results, each built four ways:
//! * `optimal`: the default (kernels clustered by the ILP);
//! * `greedy`: `#[acc(fusion = "greedy")]` (pairs merged in program order);
//! * `separate`: `#[acc(horizontal_fusion = false)]` (no clustering: a kernel
//!   per sibling, the rest of fusion on);
//! * `no-fusion`: `#[acc(fusion = false)]`;
//!
//! and a hand-written one-pass sequential Rust loop as the baseline a user
//! could write without accel (where one is written).
//!
//! The systems run in turn, call after call (round `r` runs each once), and
//! the median per system is kept: on a shared machine, timing one system
//! after another moves a cell by more than the differences measured here.
//! Prints a markdown table of medians and of ratios to `separate`.
//!
//! Environment: `HORIZONTAL_BENCH_ROUNDS` (default 15), `HORIZONTAL_BENCH_N`
//! (elements of the large inputs, default 2^24; 2^16 when profiling).
//!
//! `HORIZONTAL_BENCH_PROFILE=1`: the GPU path instead, on the profiling PTX
//! simulator (`name::profile`): per program and build, the kernels launched,
//! the DRAM bytes they move and the model's H100 time. No timing.

use accel::prelude::*;
use std::time::{Duration, Instant};

#[path = "../examples/common/mod.rs"]
mod common;
use common::Rng;

macro_rules! programs {
    ($($settings:tt)*) => {
        #[allow(unused_imports)]
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            pub fn stats(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>, Scalar<f32>) {
                (xs.sum(), xs.minimum(), xs.maximum())
            }

            pub fn min_max(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>) {
                (xs.minimum(), xs.maximum())
            }

            pub fn sum_squares(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>) {
                (xs.sum(), xs.map(|x| x * x).sum())
            }

            pub fn standardise(xs: &Vector<f64>) -> Vector<f64> {
                let n = xs.len() as f64;
                let mean = xs.sum().value() / n;
                let var = xs.map(|x| x * x).sum().value() / n - mean * mean;
                let sd = var.sqrt();
                xs.map(|x| (x - mean) / sd)
            }

            pub fn normalise2(xs: &Vector<i64>) -> (Vector<i64>, Vector<i64>) {
                let sum1 = xs.sum();
                let scn = xs.scanl(0, |a, b| a + b);
                let sum2 = scn.sum();
                let ys1 = xs.map(|x| x / sum1.value());
                let ys2 = xs.map(|x| x / sum2.value());
                (ys1, ys2)
            }

            pub fn row_stats(m: &Matrix<f32>) -> (Vector<f32>, Vector<f32>) {
                (m.sum(), m.maximum())
            }

            // Greedy merges the maps and must store `g`; the optimum
            // computes `g` in the folds' kernel.
            pub fn conflict(xs: &Vector<f64>) -> (Vector<f64>, Scalar<f64>, Scalar<f64>) {
                let g = xs.map(|v| v * 2.0 - 1.0);
                let s = xs.map(|v| v + 1.0);
                (s, g.sum(), g.maximum())
            }

            // An intermediate that is also a result (diagonal fusion).
            pub fn diagonal(xs: &Vector<f64>) -> (Vector<f64>, Vector<f64>) {
                let ys = xs.map(|x| x * 1.5 + 0.25);
                let zs = ys.map(|y| y * y - 1.0);
                (ys, zs)
            }

            // No siblings: the same plan in every build but `no-fusion`.
            pub fn softmax(m: &Matrix<f32>) -> Matrix<f32> {
                let mx = m.maximum();
                let e = generate(m.shape(), |[i, j]| (m[[i, j]] - mx[[i]]).exp());
                let s = e.sum();
                generate(m.shape(), |[i, j]| e[[i, j]] / s[[i]])
            }
        }
    };
}

mod optimal {
    programs!();
}
mod greedy {
    programs!(#![acc(fusion = "greedy")]);
}
mod separate {
    programs!(#![acc(horizontal_fusion = false)]);
}
mod no_fusion {
    programs!(#![acc(fusion = false)]);
}

type Job<'a> = (&'static str, Box<dyn FnMut() -> f64 + 'a>);

/// Runs every job once per round, in turn; the median time of each. On a
/// GPU (`ACCEL_BACKEND=cuda`) each timed call follows an untimed one of the
/// same job: a call right after the CPU's sequential loop found the GPU
/// idle and took twice as long (the H200 run in docs/bench/horizontal.md).
fn alternate(rounds: usize, jobs: &mut [Job<'_>]) -> Vec<(&'static str, Duration, f64)> {
    let on_gpu = std::env::var("ACCEL_BACKEND").is_ok_and(|b| b == "cuda");
    let mut times = vec![Vec::new(); jobs.len()];
    let mut checks = vec![0.0; jobs.len()];
    for _ in 0..rounds {
        for (k, (name, job)) in jobs.iter_mut().enumerate() {
            if on_gpu && !name.starts_with("sequential") {
                std::hint::black_box(job());
            }
            let t = Instant::now();
            checks[k] = std::hint::black_box(job());
            times[k].push(t.elapsed());
        }
    }
    jobs.iter()
        .zip(times)
        .zip(checks)
        .map(|(((name, _), mut ts), c)| {
            ts.sort();
            (*name, ts[ts.len() / 2], c)
        })
        .collect()
}

fn report(title: &str, rows: &[(&'static str, Duration, f64)]) {
    let base = rows
        .iter()
        .find(|r| r.0 == "separate")
        .map(|r| r.1.as_secs_f64())
        .unwrap_or(1.0);
    println!("| {title} | ms | vs separate | checksum |");
    println!("|---|---:|---:|---:|");
    for (name, t, c) in rows {
        let ms = t.as_secs_f64() * 1e3;
        println!("| {name} | {ms:.2} | {:.2} | {c:.6e} |", t.as_secs_f64() / base);
    }
    println!();
}

fn sum_of(v: &[f64]) -> f64 {
    v.iter().sum()
}

/// The sum of the first `k` elements of `a` (the whole of a shorter one),
/// as a call's check, read in place. An array a GPU returned stays there:
/// the device is waited for instead and the array counts 0, since
/// downloading a 64–128 MB result would time the copy, not the program (the
/// H200 run in docs/bench/horizontal.md).
fn head_sum<T, const R: usize>(a: &Array<T, R>, k: usize, f: impl Fn(T) -> f64) -> f64
where
    T: accel::Elem<Columns = Vec<T>> + Copy,
{
    match a.device() {
        Some(d) if !a.is_on_host() => {
            d.synchronize().expect("the device runs");
            0.0
        }
        _ => a.as_slice().iter().take(k).map(|&x| f(x)).sum(),
    }
}

/// The GPU path of every program in every build, on the profiling simulator.
fn profile_all(vf: &Vector<f32>, vd: &Vector<f64>, vi: &Vector<i64>, mm: &Matrix<f32>) {
    use accel::profile::{CallProfile, H100};
    println!("| program | build | kernels | DRAM KB (read + written) | model H100 us |");
    println!("|---|---|---:|---:|---:|");
    let row = |program: &str, build: &str, p: accel::Result<CallProfile>| {
        let p = p.expect("a profile");
        let bytes: u64 = p
            .kernels
            .iter()
            .map(|k| k.dram_read_bytes + k.dram_write_bytes)
            .sum();
        let model: f64 = p.kernels.iter().map(|k| H100.time_us(k)).sum();
        println!(
            "| {program} | {build} | {} | {:.1} | {model:.1} |",
            p.kernels.len(),
            bytes as f64 / 1e3
        );
    };
    macro_rules! ways {
        ($f:ident, $($arg:expr),*) => {
            row(stringify!($f), "optimal", optimal::$f::profile($($arg),*));
            row(stringify!($f), "greedy", greedy::$f::profile($($arg),*));
            row(stringify!($f), "separate", separate::$f::profile($($arg),*));
            row(stringify!($f), "no-fusion", no_fusion::$f::profile($($arg),*));
        };
    }
    ways!(stats, vf);
    ways!(min_max, vf);
    ways!(sum_squares, vf);
    ways!(standardise, vd);
    ways!(normalise2, vi);
    ways!(row_stats, mm);
    ways!(conflict, vd);
    ways!(diagonal, vd);
    ways!(softmax, mm);
}

fn main() {
    let profile = std::env::var("HORIZONTAL_BENCH_PROFILE").is_ok_and(|v| v == "1");
    let rounds: usize = std::env::var("HORIZONTAL_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let n: usize = std::env::var("HORIZONTAL_BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if profile { 1 << 16 } else { 1 << 24 });
    let mut rng = Rng(42);
    let xf: Vec<f32> = (0..n).map(|_| rng.f32(-1.0, 1.0)).collect();
    let xd: Vec<f64> = xf.iter().map(|&x| x as f64 * 3.0 + 1.0).collect();
    let xi: Vec<i64> = (0..n).map(|_| rng.below(1000) as i64 - 400).collect();
    let side = (n as f64).sqrt() as usize;
    let mf: Vec<f32> = xf[..side * side].to_vec();
    let (vf, vd, vi) = (
        Vector::from(xf.clone()),
        Vector::from(xd.clone()),
        Vector::from(xi.clone()),
    );
    let mm = Matrix::from_vec([side, side], mf.clone()).expect("a square matrix");
    if profile {
        println!("n = {n} ({side}x{side} for the matrices), the GPU path on the profiling simulator\n");
        profile_all(&vf, &vd, &vi, &mm);
        return;
    }
    println!(
        "n = {n} ({side}x{side} for the matrices), {rounds} rounds, {} threads\n",
        rayon::current_num_threads()
    );

    macro_rules! accel_jobs {
        ($f:ident, $args:expr, $check:expr) => {{
            let jobs: Vec<Job<'_>> = vec![
                ("optimal", Box::new(|| $check(optimal::$f($args).expect("runs")))),
                ("greedy", Box::new(|| $check(greedy::$f($args).expect("runs")))),
                (
                    "separate",
                    Box::new(|| $check(separate::$f($args).expect("runs"))),
                ),
                (
                    "no-fusion",
                    Box::new(|| $check(no_fusion::$f($args).expect("runs"))),
                ),
            ];
            jobs
        }};
    }

    // sum, minimum and maximum of a vector.
    let mut jobs = accel_jobs!(stats, &vf, |(s, lo, hi): (
        Scalar<f32>,
        Scalar<f32>,
        Scalar<f32>
    )| {
        (s.value() + lo.value() + hi.value()) as f64
    });
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let (mut s, mut lo, mut hi) = (0.0f32, f32::INFINITY, f32::NEG_INFINITY);
            for &x in &xf {
                s += x;
                lo = lo.min(x);
                hi = hi.max(x);
            }
            (s + lo + hi) as f64
        }),
    ));
    report("stats (sum, min, max; f32)", &alternate(rounds, &mut jobs));

    let mut jobs = accel_jobs!(min_max, &vf, |(lo, hi): (Scalar<f32>, Scalar<f32>)| {
        (lo.value() + hi.value()) as f64
    });
    report("min_max (f32)", &alternate(rounds, &mut jobs));

    let mut jobs = accel_jobs!(sum_squares, &vf, |(s, q): (Scalar<f32>, Scalar<f32>)| {
        (s.value() + q.value()) as f64
    });
    report(
        "sum_squares (sum, sum of squares; f32)",
        &alternate(rounds, &mut jobs),
    );

    // stats again, after the others: the first program of the process
    // measured slower merged than this (docs/bench/horizontal.md).
    let mut jobs = accel_jobs!(stats, &vf, |(s, lo, hi): (
        Scalar<f32>,
        Scalar<f32>,
        Scalar<f32>
    )| {
        (s.value() + lo.value() + hi.value()) as f64
    });
    report("stats again", &alternate(rounds, &mut jobs));

    let mut jobs = accel_jobs!(standardise, &vd, |v: Vector<f64>| head_sum(&v, 16, |x| x));
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let (mut s, mut q) = (0.0f64, 0.0f64);
            for &x in &xd {
                s += x;
                q += x * x;
            }
            let nf = xd.len() as f64;
            let mean = s / nf;
            let sd = (q / nf - mean * mean).sqrt();
            let out: Vec<f64> = xd.iter().map(|&x| (x - mean) / sd).collect();
            sum_of(&out[..16])
        }),
    ));
    report("standardise (f64)", &alternate(rounds, &mut jobs));

    let mut jobs = accel_jobs!(normalise2, &vi, |(a, b): (Vector<i64>, Vector<i64>)| {
        head_sum(&a, 16, |x| x as f64) + head_sum(&b, 16, |x| x as f64)
    });
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let (mut sum1, mut run, mut sum2) = (0i64, 0i64, 0i64);
            for &x in &xi {
                sum1 = sum1.wrapping_add(x);
                sum2 = sum2.wrapping_add(run);
                run = run.wrapping_add(x);
            }
            sum2 = sum2.wrapping_add(run);
            let div = |x: i64, d: i64| if d == 0 { 0 } else { x.wrapping_div(d) };
            let mut ys1 = Vec::with_capacity(xi.len());
            let mut ys2 = Vec::with_capacity(xi.len());
            for &x in &xi {
                ys1.push(div(x, sum1));
                ys2.push(div(x, sum2));
            }
            (ys1[..16].iter().sum::<i64>() + ys2[..16].iter().sum::<i64>()) as f64
        }),
    ));
    report("normalise2 (i64)", &alternate(rounds, &mut jobs));

    let mut jobs = accel_jobs!(row_stats, &mm, |(s, m): (Vector<f32>, Vector<f32>)| {
        head_sum(&s, 1, f64::from) + head_sum(&m, 1, f64::from)
    });
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let mut s = vec![0.0f32; side];
            let mut m = vec![f32::NEG_INFINITY; side];
            for (i, row) in mf.chunks(side).enumerate() {
                for &x in row {
                    s[i] += x;
                    m[i] = m[i].max(x);
                }
            }
            (s[0] + m[0]) as f64
        }),
    ));
    report(
        "row_stats (row sums and maxima; f32)",
        &alternate(rounds, &mut jobs),
    );

    let mut jobs = accel_jobs!(conflict, &vd, |(s, a, b): (
        Vector<f64>,
        Scalar<f64>,
        Scalar<f64>
    )| {
        head_sum(&s, 16, |x| x) + a.value() + b.value()
    });
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let (mut a, mut b) = (0.0f64, f64::NEG_INFINITY);
            let s: Vec<f64> = xd
                .iter()
                .map(|&v| {
                    let g = v * 2.0 - 1.0;
                    a += g;
                    b = b.max(g);
                    v + 1.0
                })
                .collect();
            sum_of(&s[..16]) + a + b
        }),
    ));
    report(
        "conflict (two maps, two folds of one; f64)",
        &alternate(rounds, &mut jobs),
    );

    let mut jobs = accel_jobs!(diagonal, &vd, |(y, z): (Vector<f64>, Vector<f64>)| {
        head_sum(&y, 16, |x| x) + head_sum(&z, 16, |x| x)
    });
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let mut zs = Vec::with_capacity(xd.len());
            let ys: Vec<f64> = xd
                .iter()
                .map(|&x| {
                    let y = x * 1.5 + 0.25;
                    zs.push(y * y - 1.0);
                    y
                })
                .collect();
            sum_of(&ys[..16]) + sum_of(&zs[..16])
        }),
    ));
    report(
        "diagonal (a result and a map of it; f64)",
        &alternate(rounds, &mut jobs),
    );

    let mut jobs = accel_jobs!(softmax, &mm, |r: Matrix<f32>| head_sum(&r, 1, f64::from));
    jobs.push((
        "sequential loop",
        Box::new(|| {
            let mut out = vec![0.0f32; side * side];
            for (row, o) in mf.chunks(side).zip(out.chunks_mut(side)) {
                let mx = row.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b));
                let mut s = 0.0;
                for (y, &x) in o.iter_mut().zip(row) {
                    *y = (x - mx).exp();
                    s += *y;
                }
                o.iter_mut().for_each(|y| *y /= s);
            }
            out[0] as f64
        }),
    ));
    report("softmax (rows; no siblings)", &alternate(rounds, &mut jobs));
}
