//! The benchmark harness (`cargo bench`): every program of `examples/` run in
//! one process as accel fused on the CPU, accel without fusion, accel without
//! sharing, and the hand-written Rust + rayon version, side by side; prints the
//! ratios to accel fused and writes the medians as JSON for `bench/merge.py`.
//!
//! Environment:
//! * `BENCH_SCALE=small|medium|full` (default `full`): about 1/50 or 1/10 of
//!   the papers' work, or the papers' sizes;
//! * `BENCH_OUT=FILE` (default `target/bench-results/rust.json`): the results;
//! * `BENCH_DATA=DIR`: also write every program's inputs there (raw
//!   little-endian arrays and `manifest.json`), for `bench/compare.py`.
//! * `BENCH_BACKEND=cuda` (any `ACCEL_BACKEND` value): time only accel fused,
//!   on that backend, waiting for the device after every call; the GPU half
//!   of the benchmarks (`bench/gpu.sh`).
//!
//! `cargo bench --bench programs -- mandelbrot` runs only the groups whose name
//! contains `mandelbrot` (criterion's filter).

use accel::prelude::*;
use criterion::Criterion;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

#[path = "../examples/common/mod.rs"]
mod common;
#[path = "shared/machine.rs"]
mod machine;

// The hand-written versions (and input generators) of the examples.
#[path = "../examples/baselines/black_scholes.rs"]
mod base_black_scholes;
#[path = "../examples/baselines/canny.rs"]
mod base_canny;
#[path = "../examples/baselines/fluid.rs"]
mod base_fluid;
#[path = "../examples/baselines/histogram.rs"]
mod base_histogram;
#[path = "../examples/baselines/kmeans.rs"]
mod base_kmeans;
#[path = "../examples/baselines/mandelbrot.rs"]
mod base_mandelbrot;
#[path = "../examples/baselines/nbody.rs"]
mod base_nbody;
#[path = "../examples/baselines/spmv.rs"]
mod base_spmv;

// The programs' sources; each file defines `NAME_program!` (and instantiates
// it once, unused here).
#[path = "../examples/programs/black_scholes.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_black_scholes;
#[path = "../examples/programs/canny.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_canny;
#[path = "../examples/programs/dotp.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_dotp;
#[path = "../examples/programs/fluid.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_fluid;
#[path = "../examples/programs/histogram.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_histogram;
#[path = "../examples/programs/kmeans.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_kmeans;
#[path = "../examples/programs/mandelbrot.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_mandelbrot;
#[path = "../examples/programs/nbody.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_nbody;
#[path = "../examples/programs/radix_sort.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_radix_sort;
#[path = "../examples/programs/spmv.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_spmv;

#[allow(dead_code)]
mod sources {
    /// The same program source under the three compiler settings compared.
    /// The no-fusion and no-sharing builds take the inner attributes
    /// `#![acc(fusion = false)]` and `#![acc(sharing = false)]`.
    macro_rules! variants {
        ($program:ident) => {
            pub mod fused {
                $program!();
            }
            pub mod no_fusion {
                $program!(#![acc(fusion = false)]);
            }
            pub mod no_sharing {
                $program!(#![acc(sharing = false)]);
            }
        };
    }

    pub mod dotp_v {
        variants!(dotp_program);
    }
    pub mod black_scholes_v {
        variants!(black_scholes_program);
    }
    pub mod mandelbrot_v {
        variants!(mandelbrot_program);
    }
    pub mod nbody_v {
        variants!(nbody_program);
    }
    pub mod spmv_v {
        variants!(spmv_program);
    }
    pub mod fluid_v {
        variants!(fluid_program);
    }
    pub mod canny_v {
        variants!(canny_program);
    }
    pub mod radix_sort_v {
        variants!(radix_sort_program);
    }
    pub mod kmeans_v {
        variants!(kmeans_program);
    }
    pub mod histogram_v {
        variants!(histogram_program);
    }
}

use common::Rng;
use sources::*;

/// Whether the no-fusion and no-sharing builds really differ from the fused
/// one (recorded in the results, so that RESULTS.md says so when not).
const VARIANTS_DISTINCT: bool = true;

/// Calls slower than this are timed without criterion (see `Harness::group`).
const SLOW_CALL: Duration = Duration::from_secs(2);

/// One program at one size: each system's median time.
struct Row {
    program: String,
    size: String,
    times: Vec<(&'static str, f64)>,
}

type Job<'a> = (&'static str, Box<dyn FnMut() -> accel::Result<()> + 'a>);

struct Harness {
    c: Criterion,
    samples: usize,
    rows: Vec<Row>,
    data: Option<std::path::PathBuf>,
    manifest: Vec<String>,
    /// With `BENCH_BACKEND`: the GPU backend every call waits for; only
    /// accel fused is timed then.
    device: Option<Backend>,
}

impl Harness {
    /// Benchmarks each system in `jobs` with criterion and keeps the median
    /// of its samples (the last `samples` calls criterion makes are its
    /// measurement samples; the ones before are the warm-up).
    fn group(&mut self, program: &str, size: &str, jobs: Vec<Job<'_>>) {
        let mut g = self.c.benchmark_group(program);
        g.sample_size(self.samples);
        // Every sample runs the same number of calls: with criterion's default
        // (linear) sampling a program taking seconds per call would need 55
        // calls for 10 samples, which makes the full scale last hours.
        g.sampling_mode(criterion::SamplingMode::Flat);
        let mut row = Row {
            program: program.into(),
            size: size.into(),
            times: vec![],
        };
        for (system, mut job) in jobs {
            if self.device.is_some() && system != "accel" {
                continue;
            }
            // On a GPU a call may return before its kernels finish: wait for them.
            let device = self.device.clone();
            let mut job = move || {
                job()?;
                device.as_ref().map_or(Ok(()), Backend::synchronize)
            };
            // A first call (a warm-up); a system taking seconds per call is
            // timed by three more calls without criterion, whose 10 samples
            // would take many minutes at full scale.
            let t = Instant::now();
            if let Err(e) = job() {
                eprintln!("{program} / {system}: {e}");
                std::process::exit(1);
            }
            if t.elapsed() > SLOW_CALL {
                let mut times = vec![];
                for _ in 0..3 {
                    let t = Instant::now();
                    if let Err(e) = job() {
                        eprintln!("{program} / {system}: {e}");
                        std::process::exit(1);
                    }
                    times.push(t.elapsed().as_secs_f64());
                }
                times.sort_by(f64::total_cmp);
                println!("{program}/{system}: median of 3 calls {:.3} s", times[1]);
                row.times.push((system, times[1]));
                continue;
            }
            let mut per_call: Vec<f64> = vec![];
            let mut error = None;
            g.bench_function(system, |b| {
                b.iter_custom(|iters| {
                    let t = Instant::now();
                    for _ in 0..iters {
                        if let Err(e) = job() {
                            error.get_or_insert(e);
                        }
                    }
                    let e = t.elapsed();
                    per_call.push(e.as_secs_f64() / iters.max(1) as f64);
                    e
                })
            });
            if let Some(e) = error {
                eprintln!("{program} / {system}: {e}");
                std::process::exit(1);
            }
            if per_call.is_empty() {
                continue; // filtered out
            }
            let mut last = per_call[per_call.len().saturating_sub(self.samples)..].to_vec();
            last.sort_by(f64::total_cmp);
            row.times.push((system, last[last.len() / 2]));
        }
        g.finish();
        if !row.times.is_empty() {
            self.rows.push(row);
        }
    }

    /// Writes `bytes` as `DIR/file` when `BENCH_DATA` is set.
    fn dump(&self, file: &str, bytes: &[u8]) {
        if let Some(dir) = &self.data {
            if let Err(e) = std::fs::write(dir.join(file), bytes) {
                eprintln!("cannot write {file}: {e}");
                std::process::exit(1);
            }
        }
    }

    /// Adds `"name": {json}` to the data manifest.
    fn describe(&mut self, name: &str, json: String) {
        self.manifest.push(format!("  \"{name}\": {json}"));
    }

    fn wants(&self, name: &str) -> bool {
        // Criterion's filter is the first free argument; skip building the
        // inputs of programs it would not run.
        match std::env::args().skip(1).find(|a| !a.starts_with('-')) {
            Some(f) => name.contains(&f) || self.data.is_some(),
            None => true,
        }
    }
}

fn bytes<T: Copy>(v: &[T]) -> Vec<u8> {
    // SAFETY: `T` is one of the plain numeric types used below (f32, u32,
    // i32), which have no padding and no invalid bit patterns; the slice is
    // read for exactly its length in bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }.to_vec()
}

fn flat3(v: &[(f32, f32, f32)]) -> Vec<f32> {
    v.iter().flat_map(|t| [t.0, t.1, t.2]).collect()
}

fn label(n: usize) -> String {
    match n {
        n if n >= 1_000_000 && n % 100_000 == 0 => format!("{}M", n as f64 / 1e6),
        n if n >= 1_000 && n % 1000 == 0 => format!("{}k", n / 1000),
        n => n.to_string(),
    }
}

/// The device-to-device copy bandwidth of a GPU backend (bytes read and
/// written), best of 10 copies of 1 GiB: the roofline of memory-bound programs.
fn copy_bandwidth(b: &Backend) -> accel::Result<f64> {
    let Some(d) = b.device() else { return Ok(0.0) };
    let bytes = 1usize << 30;
    let (src, dst) = (d.alloc(bytes)?, d.alloc(bytes)?);
    d.memset(src, 1, bytes)?;
    d.copy(dst, src, bytes)?;
    d.synchronize()?;
    let mut best = f64::MAX;
    for _ in 0..10 {
        let t = Instant::now();
        d.copy(dst, src, bytes)?;
        d.synchronize()?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    d.free(src);
    d.free(dst);
    Ok(2.0 * bytes as f64 / best / 1e9)
}

/// `MemAvailable` from /proc/meminfo, in bytes (None where there is none).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn main() {
    let scale = std::env::var("BENCH_SCALE").unwrap_or_else(|_| "full".into());
    let div = match scale.as_str() {
        "small" => 50,
        "medium" => 10,
        "full" => 1,
        other => {
            eprintln!("BENCH_SCALE must be small, medium or full, not `{other}`");
            std::process::exit(2);
        }
    };
    let small = div > 1;
    let s = |full: usize| (full / div).max(1);
    let data = std::env::var_os("BENCH_DATA").map(std::path::PathBuf::from);
    if let Some(d) = &data {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("cannot create {}: {e}", d.display());
            std::process::exit(1);
        }
    }
    let c = Criterion::default()
        .warm_up_time(Duration::from_millis(if small { 200 } else { 1000 }))
        .measurement_time(Duration::from_secs(if small { 1 } else { 3 }))
        .configure_from_args();
    let mut h = Harness {
        c,
        samples: 10,
        rows: vec![],
        data,
        manifest: vec![],
        device: None,
    };
    let b = match std::env::var("BENCH_BACKEND") {
        Ok(setting) => Backend::from_setting(Some(&setting)),
        Err(_) => Backend::cpu(),
    };
    if let Backend::Unavailable { reason, .. } = &b {
        eprintln!("BENCH_BACKEND: {reason}");
        std::process::exit(1);
    }
    h.device = b.device().map(|_| b.clone());
    let bandwidth = machine::triad_bandwidth();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!(
        "machine: {cores} cores, triad bandwidth {bandwidth:.1} GB/s; accel on `{}`",
        b.name()
    );
    let device_copy = match copy_bandwidth(&b) {
        Ok(gbs) => gbs,
        Err(e) => {
            eprintln!("device copy bandwidth: {e}");
            std::process::exit(1);
        }
    };
    if h.device.is_some() {
        println!("device-to-device copy: {device_copy:.0} GB/s");
    }

    // ---- dot product
    if h.wants("dotp") {
        let n = s(20_000_000);
        let xs: Vec<f32> = (0..n).map(|i| ((i % 1000) as f32) * 0.001).collect();
        let ys: Vec<f32> = (0..n).map(|i| ((i % 777) as f32) * 0.002 - 0.5).collect();
        h.dump("dotp_xs.f32", &bytes(&xs));
        h.dump("dotp_ys.f32", &bytes(&ys));
        h.describe("dotp", format!("{{\"n\": {n}}}"));
        let (ax, ay) = (Vector::from(xs.clone()), Vector::from(ys.clone()));
        h.group(
            "dotp",
            &label(n),
            vec![
                (
                    "accel",
                    Box::new(|| dotp_v::fused::dotp::on(&b, &ax, &ay).map(drop)),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| dotp_v::no_fusion::dotp::on(&b, &ax, &ay).map(drop)),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| dotp_v::no_sharing::dotp::on(&b, &ax, &ay).map(drop)),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(xs.par_iter().zip(&ys).map(|(x, y)| x * y).sum::<f32>());
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- Black-Scholes
    if h.wants("black_scholes") {
        use base_black_scholes::{options, rayon, R, V};
        let n = s(20_000_000);
        let opts = options(n, &mut Rng(0x2545_f491_4f6c_dd1d));
        h.dump("black_scholes_opts.f32", &bytes(&flat3(&opts)));
        h.describe("black_scholes", format!("{{\"n\": {n}, \"r\": {R}, \"v\": {V}}}"));
        let a = Vector::from(opts.clone());
        h.group(
            "black_scholes",
            &label(n),
            vec![
                (
                    "accel",
                    Box::new(|| black_scholes_v::fused::black_scholes::on(&b, &a, R, V).map(drop)),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| black_scholes_v::no_fusion::black_scholes::on(&b, &a, R, V).map(drop)),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| black_scholes_v::no_sharing::black_scholes::on(&b, &a, R, V).map(drop)),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(rayon(&opts, R, V));
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- Mandelbrot, both forms
    if h.wants("mandelbrot") {
        use base_mandelbrot::{rayon, View};
        let v = View::new(s(2_000_000), 256);
        h.describe(
            "mandelbrot",
            format!(
                "{{\"w\": {}, \"h\": {}, \"limit\": {}, \"x0\": {}, \"y0\": {}, \"dx\": {:e}, \"dy\": {:e}}}",
                v.w, v.h, v.limit, v.x0, v.y0, v.dx, v.dy
            ),
        );
        let size = label(v.w * v.h);
        let bk = &b;
        macro_rules! m {
            ($variant:ident, $f:ident) => {
                Box::new(move || {
                    mandelbrot_v::$variant::$f::on(bk, v.w, v.h, v.limit, v.x0, v.y0, v.dx, v.dy).map(drop)
                })
            };
        }
        h.group(
            "mandelbrot_while",
            &size,
            vec![
                ("accel", m!(fused, mandelbrot_while)),
                ("accel-no-fusion", m!(no_fusion, mandelbrot_while)),
                ("accel-no-sharing", m!(no_sharing, mandelbrot_while)),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(rayon(&v));
                        Ok(())
                    }),
                ),
            ],
        );
        h.group(
            "mandelbrot_unrolled",
            &size,
            vec![
                ("accel", m!(fused, mandelbrot_unrolled)),
                ("accel-no-fusion", m!(no_fusion, mandelbrot_unrolled)),
                ("accel-no-sharing", m!(no_sharing, mandelbrot_unrolled)),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(rayon(&v));
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- n-body, one step
    if h.wants("nbody") {
        use base_nbody::{generate, rayon, DT, EPS2};
        // All pairs: the work grows as n^2, so n shrinks as the square root.
        let n = match div {
            1 => 32_768,
            10 => 8192,
            _ => 2048,
        };
        let b0 = generate(n, &mut Rng(0x9E37_79B9_7F4A_7C15));
        let pos: Vec<(f32, f32, f32)> = (0..n).map(|i| (b0.x[i], b0.y[i], b0.z[i])).collect();
        h.dump("nbody_pos.f32", &bytes(&flat3(&pos)));
        h.dump("nbody_mass.f32", &bytes(&b0.m));
        h.describe(
            "nbody",
            format!("{{\"n\": {n}, \"dt\": {DT}, \"eps2\": {EPS2}, \"steps\": 1}}"),
        );
        let (ap, av, am) = (
            Vector::from(pos),
            Vector::from(vec![(0.0f32, 0.0f32, 0.0f32); n]),
            Vector::from(b0.m.clone()),
        );
        let mut jobs: Vec<Job<'_>> = vec![
            (
                "accel",
                Box::new(|| nbody_v::fused::nbody_step::on(&b, &ap, &av, &am, DT, EPS2).map(drop)),
            ),
            (
                "accel-no-sharing",
                Box::new(|| nbody_v::no_sharing::nbody_step::on(&b, &ap, &av, &am, DT, EPS2).map(drop)),
            ),
            (
                "rayon",
                Box::new(|| {
                    let mut w = b0.clone();
                    rayon(&mut w, 1);
                    std::hint::black_box(w);
                    Ok(())
                }),
            ),
        ];
        // Without fusion the n x n array of pair accelerations is stored (the
        // paper's "out of memory"): run it only where it fits comfortably.
        let pairs = (n * n * 12) as u64;
        match available_memory() {
            Some(avail) if pairs < avail / 2 => jobs.insert(
                1,
                (
                    "accel-no-fusion",
                    Box::new(|| nbody_v::no_fusion::nbody_step::on(&b, &ap, &av, &am, DT, EPS2).map(drop)),
                ),
            ),
            _ => println!(
                "nbody: no-fusion build skipped, its {:.1} GB pair array would not fit comfortably",
                pairs as f64 / 1e9
            ),
        }
        h.group("nbody", &label(n), jobs);
    }

    // ---- sparse matrix-vector product, the generated corpus
    if h.wants("spmv") {
        use base_spmv::{generate, rayon, vector, KINDS};
        let nnz = s(4_000_000);
        let mut rng = Rng(0x5EED_0000_0000_0002);
        let mut kinds = vec![];
        for kind in KINDS {
            let m = generate(kind, nnz, &mut rng);
            let x = vector(m.cols, &mut rng);
            h.dump(&format!("spmv_{kind}_offsets.u32"), &bytes(&m.offsets));
            h.dump(&format!("spmv_{kind}_cols.u32"), &bytes(&m.idx));
            h.dump(&format!("spmv_{kind}_vals.f32"), &bytes(&m.vals));
            h.dump(&format!("spmv_{kind}_x.f32"), &bytes(&x));
            kinds.push(format!(
                "\"{kind}\": {{\"rows\": {}, \"cols\": {}, \"nnz\": {}}}",
                m.rows,
                m.cols,
                m.nnz()
            ));
            let (ao, ac, av, ax) = (
                Vector::from(m.offsets.clone()),
                Vector::from(m.idx.clone()),
                Vector::from(m.vals.clone()),
                Vector::from(x.clone()),
            );
            h.group(
                &format!("spmv_{kind}"),
                &label(nnz),
                vec![
                    (
                        "accel",
                        Box::new(|| spmv_v::fused::spmv::on(&b, &ao, &ac, &av, &ax).map(drop)),
                    ),
                    (
                        "accel-no-fusion",
                        Box::new(|| spmv_v::no_fusion::spmv::on(&b, &ao, &ac, &av, &ax).map(drop)),
                    ),
                    (
                        "accel-no-sharing",
                        Box::new(|| spmv_v::no_sharing::spmv::on(&b, &ao, &ac, &av, &ax).map(drop)),
                    ),
                    (
                        "rayon",
                        Box::new(|| {
                            std::hint::black_box(rayon(&m, &x));
                            Ok(())
                        }),
                    ),
                ],
            );
        }
        h.describe("spmv", format!("{{{}}}", kinds.join(", ")));
    }

    // ---- fluid flow, one step
    if h.wants("fluid") {
        use base_fluid::{initial, step, DIFF, DT, ITERS, VISC};
        let n = (s(2_000_000) as f64).sqrt() as usize;
        let f0 = initial(n, n);
        h.dump("fluid_dens.f32", &bytes(&f0.dens));
        h.dump("fluid_u.f32", &bytes(&f0.u));
        h.dump("fluid_v.f32", &bytes(&f0.v));
        h.describe(
            "fluid",
            format!("{{\"h\": {n}, \"w\": {n}, \"dt\": {DT}, \"visc\": {VISC}, \"diff\": {DIFF}, \"iters\": {ITERS}}}"),
        );
        let sh = [n, n];
        let mk = |v: &Vec<f32>| Matrix::from_vec(sh, v.clone());
        let (d, u, v) = match (mk(&f0.dens), mk(&f0.u), mk(&f0.v)) {
            (Ok(d), Ok(u), Ok(v)) => (d, u, v),
            _ => unreachable!("the shape is n x n"),
        };
        h.group(
            "fluid",
            &label(n * n),
            vec![
                (
                    "accel",
                    Box::new(|| {
                        fluid_v::fused::fluid_step::on(&b, &d, &u, &v, DT, VISC, DIFF, ITERS).map(drop)
                    }),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| {
                        fluid_v::no_fusion::fluid_step::on(&b, &d, &u, &v, DT, VISC, DIFF, ITERS).map(drop)
                    }),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| {
                        fluid_v::no_sharing::fluid_step::on(&b, &d, &u, &v, DT, VISC, DIFF, ITERS).map(drop)
                    }),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(step(&f0, true));
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- Canny, six phases
    if h.wants("canny") {
        use base_canny::{canny, image, HIGH, LOW};
        let (w, hh) = match div {
            1 => (3840, 2160),
            10 => (1280, 720),
            _ => (480, 270),
        };
        let img = image(hh, w, &mut Rng(0x9E37_79B9_7F4A_7C15));
        h.dump("canny_img.u32", &bytes(&img));
        h.describe(
            "canny",
            format!("{{\"h\": {hh}, \"w\": {w}, \"low\": {LOW}, \"high\": {HIGH}}}"),
        );
        let a = match Matrix::from_vec([hh, w], img.clone()) {
            Ok(a) => a,
            Err(e) => unreachable!("{e}"),
        };
        h.group(
            "canny",
            &format!("{w}x{hh}"),
            vec![
                (
                    "accel",
                    Box::new(|| canny_v::fused::canny::on(&b, &a, LOW, HIGH).map(drop)),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| canny_v::no_fusion::canny::on(&b, &a, LOW, HIGH).map(drop)),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| canny_v::no_sharing::canny::on(&b, &a, LOW, HIGH).map(drop)),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(canny(&img, hh, w, true));
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- radix sort
    if h.wants("radix_sort") {
        let n = s(4_000_000);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let keys: Vec<i32> = (0..n).map(|_| rng.next_u64() as i32).collect();
        h.dump("radix_sort_keys.i32", &bytes(&keys));
        h.describe("radix_sort", format!("{{\"n\": {n}}}"));
        let a = Vector::from(keys.clone());
        h.group(
            "radix_sort",
            &label(n),
            vec![
                (
                    "accel",
                    Box::new(|| radix_sort_v::fused::sort_keys::on(&b, &a).map(drop)),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| radix_sort_v::no_fusion::sort_keys::on(&b, &a).map(drop)),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| radix_sort_v::no_sharing::sort_keys::on(&b, &a).map(drop)),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        let mut v = keys.clone();
                        v.par_sort_unstable();
                        std::hint::black_box(v);
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- k-means
    if h.wants("kmeans") {
        use base_kmeans::{generate, rayon};
        let (n, k, iters) = (s(2_000_000), 16, 10);
        let (pts, init) = generate(n, k, &mut Rng(0x9E37_79B9_7F4A_7C15));
        let flat2 = |v: &[(f32, f32)]| v.iter().flat_map(|p| [p.0, p.1]).collect::<Vec<f32>>();
        h.dump("kmeans_points.f32", &bytes(&flat2(&pts)));
        h.dump("kmeans_init.f32", &bytes(&flat2(&init)));
        h.describe(
            "kmeans",
            format!("{{\"n\": {n}, \"k\": {k}, \"iters\": {iters}}}"),
        );
        let (ap, ai) = (Vector::from(pts.clone()), Vector::from(init.clone()));
        h.group(
            "kmeans",
            &label(n),
            vec![
                (
                    "accel",
                    Box::new(|| kmeans_v::fused::kmeans::on(&b, &ap, &ai, iters).map(drop)),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| kmeans_v::no_fusion::kmeans::on(&b, &ap, &ai, iters).map(drop)),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| kmeans_v::no_sharing::kmeans::on(&b, &ap, &ai, iters).map(drop)),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(rayon(&pts, &init, iters));
                        Ok(())
                    }),
                ),
            ],
        );
    }

    // ---- histogram
    if h.wants("histogram") {
        use base_histogram::rayon;
        let (n, bins) = (s(20_000_000), 256);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let xs: Vec<u32> = (0..n).map(|_| (rng.next_u64() >> 32) as u32).collect();
        h.dump("histogram_xs.u32", &bytes(&xs));
        h.describe("histogram", format!("{{\"n\": {n}, \"bins\": {bins}}}"));
        let a = Vector::from(xs.clone());
        h.group(
            "histogram",
            &label(n),
            vec![
                (
                    "accel",
                    Box::new(|| histogram_v::fused::histogram::on(&b, &a, bins).map(drop)),
                ),
                (
                    "accel-no-fusion",
                    Box::new(|| histogram_v::no_fusion::histogram::on(&b, &a, bins).map(drop)),
                ),
                (
                    "accel-no-sharing",
                    Box::new(|| histogram_v::no_sharing::histogram::on(&b, &a, bins).map(drop)),
                ),
                (
                    "rayon",
                    Box::new(|| {
                        std::hint::black_box(rayon(&xs, bins));
                        Ok(())
                    }),
                ),
            ],
        );
    }

    h.c.final_summary();
    report(&h, &scale, cores, bandwidth, (&b.name(), device_copy));
}

/// Prints the ratios and writes the JSON results (and the data manifest).
fn report(h: &Harness, scale: &str, cores: usize, bandwidth: f64, (backend, copy): (&str, f64)) {
    println!(
        "\n{:<22} {:>8}  {:>12}  ratios to accel (>1: accel faster)",
        "program", "size", "accel ms"
    );
    let mut rows = String::new();
    for r in &h.rows {
        let fused = r.times.iter().find(|t| t.0 == "accel").map(|t| t.1);
        let ratios: Vec<String> = r
            .times
            .iter()
            .filter(|t| t.0 != "accel")
            .map(|t| match fused {
                Some(f) => format!("{} {:.2}", t.0, t.1 / f),
                None => format!("{} -", t.0),
            })
            .collect();
        println!(
            "{:<22} {:>8}  {:>12}  {}",
            r.program,
            r.size,
            fused.map(|f| format!("{:.3}", f * 1e3)).unwrap_or_default(),
            ratios.join(", ")
        );
        let times: Vec<String> = r.times.iter().map(|(s, t)| format!("\"{s}\": {t:e}")).collect();
        let _ = write!(
            rows,
            "{}    {{\"program\": \"{}\", \"size\": \"{}\", \"median_s\": {{{}}}}}",
            if rows.is_empty() { "" } else { ",\n" },
            r.program,
            r.size,
            times.join(", ")
        );
    }
    let json = format!(
        "{{\n  \"scale\": \"{}\",\n  \"machine\": {{\"cores\": {cores}, \"triad_gb_s\": {bandwidth:.2}, \"backend\": \"{backend}\", \"device_copy_gb_s\": {copy:.1}}},\n  \"variants_distinct\": {VARIANTS_DISTINCT},\n  \"results\": [\n{rows}\n  ]\n}}\n",
        scale
    );
    let out = std::env::var("BENCH_OUT").unwrap_or_else(|_| "target/bench-results/rust.json".into());
    let out = std::path::Path::new(&out);
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(out, json) {
        Ok(()) => println!("results written to {}", out.display()),
        Err(e) => eprintln!("cannot write {}: {e}", out.display()),
    }
    if let Some(dir) = &h.data {
        let m = format!("{{\n  \"scale\": \"{scale}\",\n{}\n}}\n", h.manifest.join(",\n"));
        if let Err(e) = std::fs::write(dir.join("manifest.json"), m) {
            eprintln!("cannot write the manifest: {e}");
        }
    }
}
