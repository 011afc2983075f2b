//! What the profiling simulator shows of the GPU code (structure, not
//! timings): memory-bound kernels coalesce and move no more than their
//! plan must, reductions and scans have no shared-memory bank conflicts, and
//! maps over quads do not diverge; on small programs and on the benchmark
//! programs of `examples/programs/`. `name::profile(..)` gives the counters.

use accel::prelude::*;
use accel::profile::{CallProfile, KernelProfile};

#[acc]
fn saxpy(a: f32, xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.zip_with(ys, |x, y| a * x + y)
}

#[acc]
fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
    xs.zip_with(ys, |x, y| x * y).sum()
}

#[acc]
fn prefix_sums(xs: &Vector<i32>) -> Vector<i32> {
    xs.scanl1(|a, b| a + b)
}

#[acc]
fn prefix_sums_i64(xs: &Vector<i64>) -> Vector<i64> {
    xs.scanl1(|a, b| a + b)
}

#[acc]
fn row_prefix_sums(m: &Matrix<f32>) -> Matrix<f32> {
    m.scanl1(|a, b| a + b)
}

#[acc]
fn row_sums(m: &Matrix<f32>) -> Vector<f32> {
    m.fold(0.0, |a, b| a + b)
}

#[acc]
fn two_maps(price: &Vector<f32>, strike: &Vector<f32>, years: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
    let calls = price.zip_with(strike, |s, k| s - k);
    let puts = strike.zip_with(years, |k, t| k * (-0.02 * t).exp());
    (calls, puts)
}

#[acc]
fn segment_sums(xs: &Vector<f32>, offsets: &Vector<u32>) -> Vector<f32> {
    xs.fold_seg_offsets(offsets, 0.0, |a, b| a + b)
}

// Not associative: one thread per segment.
#[acc]
fn segment_horner(xs: &Vector<f32>, offsets: &Vector<u32>) -> Vector<f32> {
    xs.fold_seg_offsets(offsets, 0.0, |a, b| a * 0.5 + b)
}

// The benchmark programs (`benches/programs.rs` times them on a GPU).
#[path = "../examples/programs/black_scholes.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_black_scholes;
#[path = "../examples/programs/histogram.rs"]
#[macro_use]
#[allow(dead_code)]
mod src_histogram;

#[allow(dead_code)] // only `name::profile` is called
mod bench {
    black_scholes_program!();
    histogram_program!();
}

const N: usize = 1 << 14;

fn vector(n: usize, scale: f32) -> Vector<f32> {
    Vector::from_vec([n], (0..n).map(|i| (i % 97) as f32 * scale).collect()).expect("shape")
}

/// The call's kernels, after printing its table (seen with `--nocapture`).
fn kernels(p: accel::Result<CallProfile>) -> Vec<KernelProfile> {
    let p = p.expect("a profile");
    println!("{}", p.table());
    assert!(!p.kernels.is_empty(), "no kernel launched");
    p.kernels
}

/// The kernel that moves the most bytes: the one the checks are about (the
/// others finish a reduction over a few partials).
fn main_kernel(ks: &[KernelProfile]) -> &KernelProfile {
    ks.iter()
        .max_by_key(|k| k.dram_read_bytes + k.dram_write_bytes)
        .expect("a kernel")
}

fn assert_coalesced(k: &KernelProfile) {
    assert!(
        k.sector_efficiency() <= 1.1,
        "`{}` touches {:.2}x the sectors its requests need",
        k.kernel,
        k.sector_efficiency()
    );
}

fn assert_moves_at_most(k: &KernelProfile, bytes: usize) {
    let moved = k.dram_read_bytes + k.dram_write_bytes;
    assert!(
        moved as f64 <= 1.1 * bytes as f64,
        "`{}` moves {moved} bytes; the plan needs {bytes}",
        k.kernel
    );
}

#[test]
fn maps_coalesce_move_their_bytes_and_do_not_diverge() {
    let (xs, ys) = (vector(N, 0.5), vector(N, 0.25));
    let ks = kernels(saxpy::profile(2.0, &xs, &ys));
    assert_eq!(ks.len(), 1);
    let k = &ks[0];
    assert_coalesced(k);
    assert_moves_at_most(k, 3 * 4 * N);
    assert!(
        k.lanes_per_instruction() >= 31.5,
        "the map over quads diverges: {:.2} lanes per warp instruction",
        k.lanes_per_instruction()
    );
    // Two maps, each reading two of the inputs and writing one result.
    for k in kernels(two_maps::profile(&xs, &ys, &vector(N, 0.01))) {
        assert_coalesced(&k);
        assert_moves_at_most(&k, 3 * 4 * N);
    }
}

#[test]
fn folds_coalesce_and_have_no_bank_conflicts() {
    let (xs, ys) = (vector(N, 0.5), vector(N, 0.25));
    let ks = kernels(dotp::profile(&xs, &ys));
    assert_coalesced(main_kernel(&ks));
    assert_moves_at_most(main_kernel(&ks), 2 * 4 * N);
    let m = Matrix::from_vec([64, 1000], (0..64_000).map(|i| (i % 13) as f32).collect()).expect("shape");
    let rows = kernels(row_sums::profile(&m));
    assert_coalesced(main_kernel(&rows));
    for k in ks.iter().chain(&rows) {
        assert_eq!(
            k.bank_conflicts, 0,
            "`{}` has shared-memory bank conflicts",
            k.kernel
        );
    }
}

#[test]
fn scans_coalesce_and_have_no_bank_conflicts() {
    let xs = Vector::from_vec([N], (0..N as i32).map(|i| i % 7 - 3).collect()).expect("shape");
    let wide = Vector::from_vec([N], (0..N as i64).map(|i| i % 7 - 3).collect()).expect("shape");
    // A long row: tiles with look-back, staged through shared memory so
    // that consecutive threads read and write consecutive elements. The
    // 8-byte stage is padded per 16 slots (a half-warp's 128 bytes): with
    // the 4-byte stage's padding per 32 the H200 counted 2 extra
    // wavefronts per access of a thread's own positions.
    for (ks, bytes) in [
        (kernels(prefix_sums::profile(&xs)), 4),
        (kernels(prefix_sums_i64::profile(&wide)), 8),
    ] {
        assert_coalesced(main_kernel(&ks));
        assert_moves_at_most(main_kernel(&ks), 2 * bytes * N);
        // A tile's polls of the flags of the tiles before it are not its
        // warp's own loads (how many there are is the simulator's order of
        // blocks): its warps load only their elements and the prefixes.
        let k = main_kernel(&ks);
        assert!(
            k.longest_warp_loads <= 64,
            "`{}`: {} loads in one warp",
            k.kernel,
            k.longest_warp_loads
        );
        for k in ks {
            assert_eq!(
                k.bank_conflicts, 0,
                "`{}` ({bytes}-byte elements) has shared-memory bank conflicts",
                k.kernel
            );
        }
    }
}

#[test]
fn float_scans_of_rows_use_every_lane_and_coalesce() {
    // Many rows of 1000 floats: a block per row, its threads scanning
    // parts of the row (not one thread per row, as when float scans kept
    // the CPU's sequential order), the row staged through shared memory.
    let m = Matrix::from_vec([256, 1000], (0..256_000).map(|i| (i % 13) as f32).collect()).expect("shape");
    let ks = kernels(row_prefix_sums::profile(&m));
    let k = main_kernel(&ks);
    assert_coalesced(k);
    assert!(
        k.lanes_per_instruction() >= 16.0,
        "`{}` runs {:.2} lanes per warp instruction",
        k.kernel,
        k.lanes_per_instruction()
    );
    assert_eq!(
        k.bank_conflicts, 0,
        "`{}` has shared-memory bank conflicts",
        k.kernel
    );
    // Short rows: a warp each, a few elements per lane.
    let short =
        Matrix::from_vec([2048, 100], (0..204_800).map(|i| (i % 13) as f32).collect()).expect("shape");
    let ks = kernels(row_prefix_sums::profile(&short));
    let k = main_kernel(&ks);
    assert!(
        k.lanes_per_instruction() >= 16.0,
        "`{}` runs {:.2} lanes per warp instruction",
        k.kernel,
        k.lanes_per_instruction()
    );
}

#[test]
fn a_profile_counts_the_copies_of_the_call() {
    let (xs, ys) = (vector(1000, 1.0), vector(1000, 2.0));
    let p = dotp::profile(&xs, &ys).expect("a profile");
    assert_eq!(p.program, "dotp");
    // Both inputs go up; the error word and the scalar come down.
    assert_eq!(p.upload_bytes, 2 * 4 * 1000);
    assert!(p.download_bytes >= 4, "{}", p.download_bytes);
    assert!(p.time_us(&accel::profile::H100) > p.time_us(&accel::profile::H200) * 0.99);
}

#[test]
fn benchmark_programs_coalesce_and_move_their_bytes() {
    // Black-Scholes: three f32 columns in, two out, one map.
    let opts = Vector::from(
        (0..N)
            .map(|i| {
                (
                    10.0 + (i % 31) as f32,
                    5.0 + (i % 17) as f32,
                    0.5 + (i % 7) as f32,
                )
            })
            .collect::<Vec<_>>(),
    );
    for k in kernels(bench::black_scholes::profile(&opts, 0.02, 0.3)) {
        assert_coalesced(&k);
        assert_moves_at_most(&k, 5 * 4 * N);
    }
    // The histogram: its keys read once and coalesced, one atomic per key
    // into the block's table in shared memory, and one global atomic per
    // block and bin it touched, so no bin queues more than a block's worth.
    let keys = Vector::from(
        (0..N as u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect::<Vec<_>>(),
    );
    let ks = kernels(bench::histogram::profile(&keys, 256));
    let k = main_kernel(&ks);
    assert_coalesced(k);
    let blocks = k.grid[0] as u64;
    assert_eq!(
        k.atomics - k.global_atomics,
        N as u64,
        "one shared atomic per key"
    );
    assert!(
        k.global_atomics <= blocks * 256,
        "{} global atomics",
        k.global_atomics
    );
    assert!(
        k.hottest_atomic_address <= blocks,
        "{} on one bin",
        k.hottest_atomic_address
    );
    assert_moves_at_most(k, 4 * N + 4 * 256);
}

/// A segmented sum over skewed segments (one of 8,192 values among 255 of
/// 16): the warp shares the long segment, so its longest warp issues a load
/// per 32 of that segment's values (and the short segments' loads, a thread
/// each), where one thread per segment issues a load per value; the model's
/// critical path (`GpuModel::longest_warp_us`) shows it.
#[test]
fn skewed_segments_are_shared_by_warps() {
    let long = 8192u32;
    let offsets: Vec<u32> = std::iter::once(0)
        .chain((0..256u32).map(|s| long + 16 * s))
        .collect();
    let n = *offsets.last().unwrap() as usize;
    let (xs, offs) = (vector(n, 0.25), Vector::from(offsets));
    let shared = kernels(segment_sums::profile(&xs, &offs));
    let alone = kernels(segment_horner::profile(&xs, &offs));
    let (w, t) = (main_kernel(&shared), main_kernel(&alone));
    assert!(
        w.longest_warp_loads <= long as u64 / 32 + 32,
        "{} loads in one warp",
        w.longest_warp_loads
    );
    assert!(
        t.longest_warp_loads >= long as u64,
        "{} loads",
        t.longest_warp_loads
    );
    let model = accel::profile::H200;
    assert!(model.longest_warp_us(w) * 10.0 < model.longest_warp_us(t));
    // Rows of 256 (a dense matrix's): a warp per row, which reads it once,
    // coalesced, in 8 loads.
    let offsets: Vec<u32> = (0..=64u32).map(|s| 256 * s).collect();
    let (xs, offs) = (vector(256 * 64, 0.25), Vector::from(offsets));
    let dense = kernels(segment_sums::profile(&xs, &offs));
    let d = main_kernel(&dense);
    assert!(
        d.longest_warp_loads <= 16,
        "{} loads in one warp",
        d.longest_warp_loads
    );
    assert_coalesced(d);
}
