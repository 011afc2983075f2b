//! The GPU time model against the GPU runs (`cargo bench --bench gpu_model`):
//! writes docs/bench/gpu-model.md.
//!
//! Each program runs on the profiling simulator (`accel::profile`) at `n`
//! and `2n` elements (`PROGRAMS`), where its kernels already run as on the GPU (a
//! grid of 528 blocks striding over the data). The simulator cannot run the
//! measured sizes (20M elements), so each counter is fitted as `a + b * n`
//! through the two runs (a kernel's fixed per-thread work, its reduction
//! tree, is `a`) and the model is evaluated on the counters at the measured
//! size: exact for the DRAM bytes of these streaming programs, an estimate
//! for their instruction counts. The
//! measured times are whole calls (`docs/bench/gpu-runs/*-accel.json`: host
//! work, the error word's read and launches included) and, for the dot
//! product, ncu's kernel times (docs/gpu.md).
//!
//! Environment: `GPU_MODEL_OUT=FILE` (default `docs/bench/gpu-model.md`),
//! `GPU_MODEL_RUN=FILE` (the GPU run's JSON, default the newest
//! `docs/bench/gpu-runs/*-h200-accel.json`).

use accel::prelude::*;
use accel::profile::{CallProfile, GpuModel, KernelProfile, H100, H200};
use std::fmt::Write as _;

#[path = "../examples/common/mod.rs"]
#[allow(dead_code)]
mod common;
#[path = "../examples/programs/black_scholes.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_black_scholes;
#[path = "../examples/programs/dotp.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_dotp;
#[path = "../examples/programs/histogram.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_histogram;

#[allow(dead_code)] // only `name::profile` is called
mod programs {
    dotp_program!();
    black_scholes_program!();
    histogram_program!();
}

use common::Rng;

/// The programs and the smaller of the two sizes the simulator runs: past
/// 528 blocks of 256 threads, so grids are the GPU's, and inside the
/// simulator's instruction limit per launch (Black-Scholes runs about 450
/// instructions per option).
const PROGRAMS: [(&str, usize); 3] = [
    ("dotp", 1 << 19),
    ("black_scholes", 1 << 18),
    ("histogram", 1 << 19),
];
/// The measured size (`BENCH_SCALE=full`).
const FULL_N: usize = 20_000_000;

/// The counters of a kernel at `n` elements, on the line through its
/// counters at `n1` (`a`) and `n2` (`b`) elements.
fn at_size(a: &KernelProfile, b: &KernelProfile, (n1, n2): (f64, f64), n: f64) -> KernelProfile {
    let f = |x: u64, y: u64| -> u64 {
        let v = x as f64 + (y as f64 - x as f64) * (n - n1) / (n2 - n1);
        v.max(0.0).round() as u64
    };
    let mut mix = [0u64; 7];
    for (m, (x, y)) in mix.iter_mut().zip(a.mix.iter().zip(&b.mix)) {
        *m = f(*x, *y);
    }
    KernelProfile {
        kernel: b.kernel.clone(),
        grid: b.grid,
        block: b.block,
        warp_instructions: f(a.warp_instructions, b.warp_instructions),
        thread_instructions: f(a.thread_instructions, b.thread_instructions),
        mix,
        load_requests: f(a.load_requests, b.load_requests),
        load_sectors: f(a.load_sectors, b.load_sectors),
        store_requests: f(a.store_requests, b.store_requests),
        store_sectors: f(a.store_sectors, b.store_sectors),
        ideal_sectors: f(a.ideal_sectors, b.ideal_sectors),
        bytes_requested: f(a.bytes_requested, b.bytes_requested),
        dram_read_bytes: f(a.dram_read_bytes, b.dram_read_bytes),
        dram_write_bytes: f(a.dram_write_bytes, b.dram_write_bytes),
        shared_requests: f(a.shared_requests, b.shared_requests),
        bank_conflicts: f(a.bank_conflicts, b.bank_conflicts),
        atomics: f(a.atomics, b.atomics),
        global_atomics: f(a.global_atomics, b.global_atomics),
        hottest_atomic_address: f(a.hottest_atomic_address, b.hottest_atomic_address),
        barriers: f(a.barriers, b.barriers),
        // Linear too: each warp's share of a grid-stride loop grows with
        // `n` once the grid is at the device's resident blocks.
        longest_warp_instructions: f(a.longest_warp_instructions, b.longest_warp_instructions),
        longest_warp_loads: f(a.longest_warp_loads, b.longest_warp_loads),
    }
}

/// The measured whole-call time of `program` in the GPU run's JSON, ms.
fn measured_ms(json: &str, program: &str) -> Option<f64> {
    let line = json
        .lines()
        .find(|l| l.contains(&format!("\"program\": \"{program}\"")))?;
    let v = line.split("\"accel\": ").nth(1)?;
    let v: String = v
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))
        .collect();
    v.parse::<f64>().ok().map(|s| s * 1e3)
}

fn newest_run() -> Option<std::path::PathBuf> {
    let mut runs: Vec<_> = std::fs::read_dir("docs/bench/gpu-runs")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with("-h200-accel.json"))
        .collect();
    runs.sort();
    runs.pop()
}

struct Row {
    program: &'static str,
    /// The two sizes simulated, and the profiles at them.
    sizes: (f64, f64),
    small: CallProfile,
    profile: CallProfile,
    /// Bytes the plan must move at the measured size.
    plan_bytes: f64,
}

/// Program `name` profiled at `n` elements, and the bytes per element its
/// plan must move.
fn profile(name: &str, n: usize) -> (CallProfile, f64) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let unit = |rng: &mut Rng| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    let floats = |rng: &mut Rng| Vector::from((0..n).map(|_| unit(rng)).collect::<Vec<_>>());
    let (p, bytes) = match name {
        "dotp" => {
            let (xs, ys) = (floats(&mut rng), floats(&mut rng));
            (programs::dotp::profile(&xs, &ys), 8.0)
        }
        "black_scholes" => {
            let opts: Vec<(f32, f32, f32)> = (0..n)
                .map(|_| {
                    (
                        5.0 + 25.0 * unit(&mut rng),
                        1.0 + 99.0 * unit(&mut rng),
                        0.25 + 9.75 * unit(&mut rng),
                    )
                })
                .collect();
            (
                programs::black_scholes::profile(&Vector::from(opts), 0.02, 0.30),
                20.0,
            )
        }
        _ => {
            // Uniform 32-bit keys, as the benchmark's (all 256 bins alike).
            let keys: Vec<u32> = (0..n).map(|_| (rng.next_u64() >> 32) as u32).collect();
            (programs::histogram::profile(&Vector::from(keys), 256), 4.0)
        }
    };
    match p {
        Ok(p) => (p, bytes),
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::exit(1);
        }
    }
}

fn main() {
    let full = FULL_N as f64;
    let rows: Vec<Row> = PROGRAMS
        .iter()
        .map(|&(program, n)| {
            let ((small, bytes), (profile, _)) = (profile(program, n), profile(program, 2 * n));
            Row {
                program,
                sizes: (n as f64, 2.0 * n as f64),
                small,
                profile,
                plan_bytes: bytes * full,
            }
        })
        .collect();

    let run_path = std::env::var("GPU_MODEL_RUN")
        .map(Into::into)
        .ok()
        .or_else(newest_run);
    let json = run_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();

    let mut s = String::new();
    let _ = writeln!(s, "# The GPU time model against the GPU\n");
    let _ = writeln!(
        s,
        "Generated by `cargo bench --bench gpu_model`. Each program ran on the profiling \
         simulator (`accel::profile`, `ACCEL_SIM_PROFILE=1`) at two sizes (n and 2n below); each \
         kernel's counters are fitted as `a + b n` through the two runs and taken at the \
         measured size ({FULL_N} elements). Model: launch {:.1} us + the largest of DRAM (distinct sectors at \
         the copy bandwidth: H100 {:.0} GB/s, H200 {:.0} GB/s), issue (warp instructions over \
         132 SMs x 4 schedulers at {:.3} GHz, f64 x2, special functions x8), same-address \
         atomics ({:.0} ns each) and the longest warp (its instructions, one a clock, and \
         {:.0} clocks per global load it issues; `warp us`). Bandwidth bound: the bytes the plan must move at the copy \
         bandwidth. Measured: whole calls on the H200 ({}), which add host work and the read \
         of the error word to the kernels.\n",
        H200.launch_us,
        H100.dram_gb_s,
        H200.dram_gb_s,
        H200.clock_ghz,
        H200.atomic_same_address_ns,
        H200.load_wait_clocks,
        run_path
            .as_ref()
            .map_or("no run found".into(), |p| format!("`{}`", p.display()))
    );
    let _ = writeln!(
        s,
        "| program | n simulated | kernels | model H100 ms | model H200 ms | bandwidth bound H200 ms | measured H200 ms (whole call) | measured / model |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        let model = |gpu: &GpuModel| -> f64 {
            r.small
                .kernels
                .iter()
                .zip(&r.profile.kernels)
                .map(|(a, b)| gpu.time_us(&at_size(a, b, r.sizes, full)))
                .sum::<f64>()
                / 1e3
        };
        let (m100, m200) = (model(&H100), model(&H200));
        let bound = r.plan_bytes / (H200.dram_gb_s * 1e6);
        let measured = measured_ms(&json, r.program);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {m100:.3} | {m200:.3} | {bound:.3} | {} | {} |",
            r.program,
            r.sizes.0,
            r.profile.kernels.len(),
            measured.map_or("-".into(), |m| format!("{m:.3}")),
            measured.map_or("-".into(), |m| format!("{:.2}", m / m200)),
        );
    }
    let _ = writeln!(s, "\nPer kernel, as simulated at 2n elements:\n");
    let _ = writeln!(s, "```");
    for r in &rows {
        let _ = write!(s, "{}", r.profile.table());
    }
    let _ = writeln!(s, "```");
    // The dot product's kernels against ncu (docs/gpu.md, H200, 2^26 elements).
    if let ([p1, _], [part, fin]) = (&rows[0].small.kernels[..], &rows[0].profile.kernels[..]) {
        let part26 = at_size(p1, part, rows[0].sizes, (1u64 << 26) as f64);
        let _ = writeln!(
            s,
            "\nKernel times against ncu (H200, dot product of 2^26 f32, `docs/gpu.md`): \
             `{}` model {:.1} us, measured 127.0-129.5 us; `{}` (one block, not scaled) model \
             {:.1} us, measured 2.6-2.8 us.",
            part.kernel,
            H200.time_us(&part26),
            fin.kernel,
            H200.time_us(fin)
        );
    }
    let out = std::env::var("GPU_MODEL_OUT").unwrap_or_else(|_| "docs/bench/gpu-model.md".into());
    if let Err(e) = std::fs::write(&out, &s) {
        eprintln!("cannot write {out}: {e}");
        std::process::exit(1);
    }
    print!("{s}");
    println!("written to {out}");
}
