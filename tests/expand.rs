//! Expand fusion: `xs[.map(f)].expand(count, value)[.map(g)]` into a `permute`
//! or a `fold_all` is one kernel with no intermediate arrays (structure tests),
//! and computes what the interpreter computes, fused and without fusion, on
//! awkward size distributions (zero counts, empty inputs, one huge count), with
//! `None` and out-of-range targets, non-commutative and non-atomic combinations,
//! and tuples. Run with `ACCEL_BACKEND=ptx-sim` too: the GPU path runs the
//! fused kernels (`accel_kernels::ptx::expand`), and `every_gpu_strategy_matches`
//! forces each of its work distributions in turn.

mod common;

use accel::prelude::*;
use accel::ErrorKind;
use accel_core::plan::KernelOp;
use accel_core::{Options, Plan};
use common::*;

const NO_FUSION: Options = Options {
    fusion: false,
    sharing: true,
    maps_after_consumers: true,
    expand_fusion: true,
    clustering: accel_core::plan::horizontal::Clustering::Optimal,
};
const NO_EXPAND_FUSION: Options = Options {
    fusion: true,
    sharing: true,
    maps_after_consumers: true,
    expand_fusion: false,
    clustering: accel_core::plan::horizontal::Clustering::Optimal,
};

fn plan(source: &str, name: &str, opts: Options) -> Plan {
    match accel_core::compile_source_with(source, name, opts) {
        Ok((_, p)) => p,
        Err(e) => panic!("`{name}` does not compile: {}", e.message),
    }
}

/// (kernels, materialised arrays, fused expands) of the plan.
fn shape_of(p: &Plan) -> (usize, usize, usize) {
    let expands = p
        .kernels()
        .filter(|k| matches!(k.op, KernelOp::Expand { .. }))
        .count();
    (p.kernels().count(), p.materialised().count(), expands)
}

/// The same programs fused and without fusion.
macro_rules! variants {
    ($($body:tt)*) => {
        pub mod fused {
            use super::*;
            accel! { $($body)* }
        }
        pub mod no_fusion {
            use super::*;
            accel! { #![acc(fusion = false)] $($body)* }
        }
    };
}

mod progs {
    use super::*;
    variants! {
        /// A histogram of the expanded values: an atomic add, a map between the
        /// expand and the permute, the index reading the expansion at `[j]`.
        pub fn hist(xs: &Vector<u32>, bins: usize) -> Vector<u32> {
            let ys = xs.expand(|x| x % 13, |x, k| x * 3 + k);
            ys.map(|_| 1u32).permute(&fill([bins], 0u32), |[j]| Some([ys[[j]] as usize % bins]), |a, b| a + b)
        }

        /// A map before the expand, float maxima (locks), some `None` targets.
        pub fn spread_max(xs: &Vector<(u32, f32)>, d: &Vector<f32>) -> Vector<f32> {
            let ys = xs
                .map(|p| (p.0 % 9, p.1 * 2.0))
                .expand(|p| p.0, |p, k| (p.0 * 5 + k * 7, p.1 + k as f32));
            ys.map(|q| q.1 - 1.0).permute(
                d,
                |[j]| if ys[[j]].0 % 4 == 0 { None } else { Some([ys[[j]].0 as usize % d.len()]) },
                |n, o| n.max(o),
            )
        }

        /// Element `j` of the expansion to slot `j`: injective, so a
        /// non-commutative combination has one answer, which shows the order
        /// `(new, old)`. Slots past the defaults are dropped.
        pub fn order(xs: &Vector<i64>, d: &Vector<i64>) -> Vector<i64> {
            let n = d.len();
            xs.expand(|x| x % 6, |x, k| x * 10 + k)
                .permute(d, |[j]| if j < n { Some([j]) } else { None }, |new, old| new * 3 - old)
        }

        /// Targets taken from the values, unchecked: out of range fails.
        pub fn unchecked(xs: &Vector<u32>, d: &Vector<u32>) -> Vector<u32> {
            let ys = xs.expand(|x| x % 4, |x, k| x + k);
            ys.permute(d, |[j]| Some([ys[[j]] as usize]), |a, b| a + b)
        }

        /// Every target `None`: the defaults come back.
        pub fn nowhere(xs: &Vector<u32>, d: &Vector<u32>) -> Vector<u32> {
            let ys = xs.expand(|x| x % 5, |x, k| x + k);
            ys.permute(d, |[j]| if ys[[j]] > 4000000000 { Some([0]) } else { None }, |a, b| a + b)
        }

        /// Tuples, combined with locks.
        pub fn pairs(xs: &Vector<(u32, f64)>, d: &Vector<(u32, f64)>) -> Vector<(u32, f64)> {
            let ys = xs.expand(|p| p.0 % 7, |p, k| (p.0 + k, p.1 * k as f64));
            ys.permute(
                d,
                |[j]| Some([ys[[j]].0 as usize % d.len()]),
                |n, o| (n.0 ^ o.0, n.1 + o.1),
            )
        }

        /// A flat-map reduction; a negative count fails.
        pub fn flat_sum(xs: &Vector<i32>) -> Scalar<i64> {
            xs.expand(|x| x % 17, |x, k| x as i64 * 1000 + k as i64).map(|y| y * 3).sum()
        }

        /// A fold with a map after it.
        pub fn flat_max(xs: &Vector<u32>) -> Scalar<f64> {
            xs.expand(|x| x % 11, |x, k| (x + k) as f64 * 0.5)
                .fold(-1.0, |a, b| a.max(b))
                .map(|m| m + 1.0)
        }

        /// Float products (a compare-and-swap loop: no atomic multiply), of
        /// powers of two, so exact in any order.
        pub fn fmul(xs: &Vector<u32>, d: &Vector<f32>) -> Vector<f32> {
            let ys = xs.expand(|x| x % 5, |x, k| x + k);
            ys.map(|y| if y % 3 == 0 { 2.0f32 } else { 0.5f32 })
                .permute(d, |[j]| Some([ys[[j]] as usize % d.len()]), |a, b| a * b)
        }

        /// Long expansions (the count is the value), tuples under locks, some
        /// `None` targets.
        pub fn wide(xs: &Vector<u32>, d: &Vector<(i64, u32)>) -> Vector<(i64, u32)> {
            let ys = xs.expand(|x| x as usize, |x, k| (k as i64 - x as i64, x ^ k as u32));
            ys.permute(
                d,
                |[j]| if j % 7 == 3 { None } else { Some([j % d.len()]) },
                |n, o| (n.0 + o.0, n.1.max(o.1)),
            )
        }

        /// Elements numbered across a box of `w` by `h` (zero, negative and
        /// extreme sizes included): divisions by values of the input, the
        /// same over a run of its elements (computed once per run).
        pub fn boxes(xs: &Vector<(i32, i32)>, d: &Vector<i64>) -> (Vector<i64>, Scalar<i64>) {
            let ys = xs.expand(
                |p| (p.0 & 31) as usize,
                |p, k| {
                    let (w, h) = p;
                    let t = k as i32 - 3;
                    let q = (t % w, (t / w) % h, t / (w * h), (k as i64) / (h as i64 - 2));
                    q.0 as i64 * 1000 + q.1 as i64 * 100 + q.2 as i64 * 10 + q.3 + (i32::MIN / w) as i64
                },
            );
            let spread = ys.permute(d, |[j]| Some([j % d.len()]), |a, b| a + b);
            let total = xs
                .expand(|p| (p.1 & 15) as usize, |p, k| (k as u64 / (p.0 as u64)) as i64 + (k as i64 % p.1 as i64))
                .sum();
            (spread, total)
        }

        /// Boxes numbered as a user writes them (`t = k as i32`, then
        /// `t % w`, `(t / w) % h`, `t / (w * h)`): the CPU computes these
        /// once per row of `w` elements. Zero, negative and extreme sizes;
        /// a host value as the width (zero too); a cast to `i8` that wraps
        /// inside a run; a permute and a fold.
        pub fn rows(xs: &Vector<(i32, i32, u32)>, d: &Vector<i64>, n: usize) -> (Vector<i64>, Scalar<i64>, Scalar<i64>) {
            let ys = xs.expand(
                |p| (p.2 % 300) as usize,
                |p, k| {
                    let (w, h, _) = p;
                    let t = k as i32;
                    let (i, j, l) = (t % w, (t / w) % h, t / (w * h));
                    let s = (k as i8) / (w as i8);
                    i as i64 * 1_000_000 + j as i64 * 1000 + l as i64 + s as i64 * 7
                },
            );
            let spread = ys.permute(d, |[j]| Some([j % d.len()]), |a, b| a + b);
            let by_n = xs.expand(|p| (p.2 % 200) as usize, |p, k| (k % n) as i64 * 3 + (k / (n * 2)) as i64 + p.0 as i64).sum();
            let wraps = xs
                .expand(
                    |p| (p.2 % 300) as usize,
                    |p, k| {
                        let t = k as i8;
                        let w = p.1 as i8;
                        (t % w) as i64 * 5 + (t / (w * 3)) as i64
                    },
                )
                .sum();
            (spread, by_n, wraps)
        }

        /// Stored: each CPU thread searches for its first element's source
        /// and walks from there (`accel-kernels/src/cpu/walk.rs`).
        pub fn stored(xs: &Vector<u32>) -> Vector<(u32, u64)> {
            xs.expand(|x| x % 13, |x, k| (x, k as u64 * 3))
        }

        /// Stored, a map fused after it, and read at other positions than
        /// its own (in reverse), so it cannot be fused into its reader.
        pub fn reread(xs: &Vector<u32>) -> Vector<u64> {
            let ys = xs.expand(|x| x as usize, |x, k| x as u64 * 1000 + k as u64).map(|y| y + 1);
            let m = ys.len();
            generate([m], |[t]| ys[[t]] * 2 + ys[[m - 1 - t]])
        }

        /// The expansion has another use: not fused.
        pub fn shared(xs: &Vector<u32>, d: &Vector<u32>) -> (Vector<u32>, Scalar<u32>) {
            let ys = xs.expand(|x| x % 3, |x, k| x + k);
            (ys.permute(d, |[j]| Some([j % d.len()]), |a, b| a + b), ys.sum())
        }
    }
}

use progs::*;

#[test]
fn fused_plans_have_one_kernel_and_no_intermediates() {
    let cases: [(&str, &str, (usize, usize, usize)); 7] = [
        // `fill` and the fused expand: the defaults and the result.
        (fused::hist::SOURCE, "hist", (2, 2, 1)),
        (fused::spread_max::SOURCE, "spread_max", (1, 1, 1)),
        (fused::order::SOURCE, "order", (1, 1, 1)),
        (fused::pairs::SOURCE, "pairs", (1, 1, 1)),
        (fused::flat_sum::SOURCE, "flat_sum", (1, 1, 1)),
        (fused::flat_max::SOURCE, "flat_max", (1, 1, 1)),
        // Scan of the counts, the expansion with the sum in its pass
        // (`pass_folds`), the permute.
        (fused::shared::SOURCE, "shared", (3, 5, 0)),
    ];
    for (src, name, want) in cases {
        let p = plan(src, name, Options::default());
        assert_eq!(shape_of(&p), want, "{name}:\n{}", p.explain());
    }
    let p = plan(fused::hist::SOURCE, "hist", Options::default());
    let e = p.explain();
    assert!(e.contains("expand_permute"), "{e}");
    assert!(e.contains("expand -> map -> permute"), "{e}");
    assert!(p.explain_dot().contains("expand_permute"));
    // Without expand fusion: the scan of the counts and the expansion are
    // stored (the unfused path, as the GPU plan has it).
    for opts in [NO_EXPAND_FUSION, NO_FUSION] {
        let p = plan(fused::hist::SOURCE, "hist", opts);
        let (k, m, x) = shape_of(&p);
        assert!(k >= 4 && m >= 4 && x == 0, "{}", p.explain());
    }
}

/// `count` and `value` are evaluated in the fused kernel: `x % 13` twice per
/// input (the counting pass, then the walk), the value's `* 3` once.
#[test]
fn fused_plan_evaluates_each_closure_once() {
    use accel_core::ir::{BinOp, Expr, Scalar};
    let p = plan(fused::hist::SOURCE, "hist", Options::default());
    assert_eq!(
        p.evaluations(|e| matches!(e, Expr::Scalar(Scalar::Binary(BinOp::Rem, ..)))),
        2,
        "{p}"
    );
    assert_eq!(
        p.evaluations(|e| matches!(e, Expr::Scalar(Scalar::Binary(BinOp::Mul, ..)))),
        1,
        "{p}"
    );
}

/// Input lengths, and count patterns: all zero, all small, one huge count
/// among zeros, random.
const LENS: [usize; 6] = [0, 1, 2, 31, 1000, 20_000];

fn u32s(n: usize, seed: usize, pattern: usize) -> Vec<u32> {
    (0..n)
        .map(|i| {
            let h = hash(i * 31 + seed) as u32;
            match pattern {
                // Counts `x % m` are 0.
                0 => (h % 1000) * 2 * 3 * 5 * 7 * 11 * 13 * 17 % 1_000_000,
                1 => h % 100_000,
                // Mostly 0 (multiples of every modulus), a few large values.
                _ if i % 997 == 5 => h % 100_000,
                _ => 0,
            }
        })
        .collect()
}

#[test]
fn histogram_matches_interpreter() {
    for n in LENS {
        for pattern in 0..3 {
            let xs = Vector::from(u32s(n, 1, pattern));
            for bins in [1, 7, 1000] {
                let args = [arg(&xs), arg(bins)];
                let src = fused::hist::SOURCE;
                check_pools_ok(src, "hist", &args, || fused::hist(&xs, bins), EXACT);
                check_ok(src, "hist", &args, no_fusion::hist(&xs, bins), EXACT);
            }
            // No bins: every target is out of range (only when there are
            // elements).
            let args = [arg(&xs), arg(0usize)];
            let src = fused::hist::SOURCE;
            let expanded: u64 = xs.to_vec().iter().map(|&x| (x % 13) as u64).sum();
            if expanded == 0 {
                check_ok(src, "hist", &args, fused::hist(&xs, 0), EXACT);
            } else {
                check_err(
                    src,
                    "hist",
                    &args,
                    fused::hist(&xs, 0),
                    ErrorKind::IndexOutOfBounds,
                );
            }
        }
    }
}

#[test]
fn float_maxima_with_a_map_before_match() {
    for n in LENS {
        let xs: Vector<(u32, f32)> = Vector::from(
            (0..n)
                .map(|i| ((hash(i) % 50) as u32, (hash(i + 9) % 1000) as f32 / 10.0 - 50.0))
                .collect::<Vec<_>>(),
        );
        for m in [1, 13, 4096] {
            let d = Vector::from((0..m).map(|i| i as f32 - 100.0).collect::<Vec<_>>());
            let args = [arg(&xs), arg(&d)];
            let src = fused::spread_max::SOURCE;
            check_pools_ok(src, "spread_max", &args, || fused::spread_max(&xs, &d), EXACT);
            check_ok(src, "spread_max", &args, no_fusion::spread_max(&xs, &d), EXACT);
        }
    }
}

#[test]
fn combine_order_is_new_then_old() {
    for n in LENS {
        let xs = Vector::from((0..n).map(|i| (hash(i) % 1000) as i64).collect::<Vec<_>>());
        for m in [0, 5, 3 * n + 1] {
            let d = Vector::from((0..m).map(|i| i as i64 * 7 - 3).collect::<Vec<_>>());
            let args = [arg(&xs), arg(&d)];
            let src = fused::order::SOURCE;
            let r = check_pools_ok(src, "order", &args, || fused::order(&xs, &d), EXACT);
            check_ok(src, "order", &args, no_fusion::order(&xs, &d), EXACT);
            // Spot check against sequential Rust.
            if m > 0 && n > 0 {
                let x0 = xs.to_vec()[0];
                if x0 % 6 > 0 {
                    let want = x0 * 10 * 3 - d.to_vec()[0];
                    let got = fused::order(&xs, &d).map(|v| v.to_vec()[0]);
                    assert_eq!(got.ok(), Some(want), "{r:?}");
                }
            }
        }
    }
}

#[test]
fn out_of_range_targets_fail_and_none_targets_are_skipped() {
    for n in [1usize, 31, 5000] {
        let xs = Vector::from((0..n).map(|i| (hash(i) % 100 + 1) as u32).collect::<Vec<_>>());
        let d = Vector::from(vec![5u32; 10]);
        let args = [arg(&xs), arg(&d)];
        let src = fused::unchecked::SOURCE;
        check_pools_err(
            src,
            "unchecked",
            &args,
            || fused::unchecked(&xs, &d),
            ErrorKind::IndexOutOfBounds,
        );
        check_err(
            src,
            "unchecked",
            &args,
            no_fusion::unchecked(&xs, &d),
            ErrorKind::IndexOutOfBounds,
        );
        let src = fused::nowhere::SOURCE;
        let r = check_pools_ok(src, "nowhere", &args, || fused::nowhere(&xs, &d), EXACT);
        assert_eq!(r, arg(&d));
        check_ok(src, "nowhere", &args, no_fusion::nowhere(&xs, &d), EXACT);
    }
    // In range: fine.
    let xs = Vector::from(vec![0u32, 1, 2, 3, 4]);
    let d = Vector::from(vec![0u32; 10]);
    let args = [arg(&xs), arg(&d)];
    check_ok(
        fused::unchecked::SOURCE,
        "unchecked",
        &args,
        fused::unchecked(&xs, &d),
        EXACT,
    );
}

#[test]
fn tuples_combine_under_locks() {
    for n in LENS {
        let xs: Vector<(u32, f64)> = Vector::from(
            (0..n)
                .map(|i| ((hash(i) % 1000) as u32, (hash(i + 3) % 64) as f64 / 4.0))
                .collect::<Vec<_>>(),
        );
        for m in [1, 100] {
            if on_gpu() && m == 1 && n > 1000 {
                // One lock taken 60,000 times: the simulator's random
                // scheduler preempts its holder so often that the launch
                // passes the simulator's instruction limit.
                continue;
            }
            let d = Vector::from((0..m).map(|i| (i as u32, i as f64)).collect::<Vec<_>>());
            let args = [arg(&xs), arg(&d)];
            let src = fused::pairs::SOURCE;
            // Sums of quarters are exact in any order.
            check_pools_ok(src, "pairs", &args, || fused::pairs(&xs, &d), EXACT);
            check_ok(src, "pairs", &args, no_fusion::pairs(&xs, &d), EXACT);
        }
    }
}

#[test]
fn divisions_by_an_inputs_values_match_interpreter() {
    let edges = [0i32, 1, -1, 2, -3, 7, 12, i32::MIN, i32::MAX];
    // Up to 1000 inputs: the interpreter runs the largest in seconds.
    for n in LENS.into_iter().filter(|&n| n <= 1000) {
        let xs: Vector<(i32, i32)> = Vector::from(
            (0..n)
                .map(|i| match i % 3 {
                    0 => (edges[i % edges.len()], edges[(i / edges.len()) % edges.len()]),
                    _ => ((hash(i) % 200) as i32 - 100, (hash(i + 5) % 30) as i32 - 15),
                })
                .collect::<Vec<_>>(),
        );
        for m in [1, 4096] {
            let d = Vector::from((0..m).map(|i| i as i64 - 7).collect::<Vec<_>>());
            let args = [arg(&xs), arg(&d)];
            let src = fused::boxes::SOURCE;
            check_pools_ok(src, "boxes", &args, || fused::boxes(&xs, &d), EXACT);
            check_ok(src, "boxes", &args, no_fusion::boxes(&xs, &d), EXACT);
        }
    }
}

#[test]
fn divisions_of_the_element_number_by_rows_match_interpreter() {
    let edges = [0i32, 1, -1, 2, -3, 7, 12, 700, i32::MIN, i32::MAX];
    for n in [0usize, 1, 31, 150] {
        let xs: Vector<(i32, i32, u32)> = Vector::from(
            (0..n)
                .map(|i| match i % 3 {
                    0 => (
                        edges[i % edges.len()],
                        edges[(i / edges.len()) % edges.len()],
                        hash(i) as u32,
                    ),
                    _ => (
                        (hash(i) % 40) as i32 - 8,
                        (hash(i + 5) % 30) as i32 - 5,
                        hash(i + 9) as u32,
                    ),
                })
                .collect::<Vec<_>>(),
        );
        for (m, w) in [(1, 0usize), (4096, 1), (999, 5), (3, 1 << 40)] {
            let d = Vector::from((0..m).map(|i| i as i64 - 7).collect::<Vec<_>>());
            let args = [arg(&xs), arg(&d), arg(w)];
            let src = fused::rows::SOURCE;
            check_pools_ok(src, "rows", &args, || fused::rows(&xs, &d, w), EXACT);
            check_ok(src, "rows", &args, no_fusion::rows(&xs, &d, w), EXACT);
        }
    }
}

#[test]
fn flat_map_reductions_match_interpreter() {
    for n in LENS {
        for pattern in 0..3 {
            let xs = Vector::from(u32s(n, 5, pattern));
            let args = [arg(&xs)];
            let src = fused::flat_max::SOURCE;
            check_pools_ok(src, "flat_max", &args, || fused::flat_max(&xs), EXACT);
            check_ok(src, "flat_max", &args, no_fusion::flat_max(&xs), EXACT);
            let ys = Vector::from(
                xs.to_vec()
                    .iter()
                    .map(|&x| (x % 50_000) as i32)
                    .collect::<Vec<_>>(),
            );
            let args = [arg(&ys)];
            let src = fused::flat_sum::SOURCE;
            check_pools_ok(src, "flat_sum", &args, || fused::flat_sum(&ys), EXACT);
            check_ok(src, "flat_sum", &args, no_fusion::flat_sum(&ys), EXACT);
        }
    }
    // A negative count.
    let ys = Vector::from(vec![3i32, -20, 4]);
    let args = [arg(&ys)];
    check_pools_err(
        fused::flat_sum::SOURCE,
        "flat_sum",
        &args,
        || fused::flat_sum(&ys),
        ErrorKind::InvalidArgument,
    );
    check_err(
        fused::flat_sum::SOURCE,
        "flat_sum",
        &args,
        no_fusion::flat_sum(&ys),
        ErrorKind::InvalidArgument,
    );
}

#[test]
fn shared_expansion_is_not_fused_and_matches() {
    for n in [0usize, 1, 31, 5000] {
        let xs = Vector::from((0..n).map(|i| (hash(i) % 1000) as u32).collect::<Vec<_>>());
        let d = Vector::from(vec![1u32; 17]);
        let args = [arg(&xs), arg(&d)];
        check_pools_ok(
            fused::shared::SOURCE,
            "shared",
            &args,
            || fused::shared(&xs, &d),
            EXACT,
        );
    }
}

/// Stored expansions: every size distribution, from thread ranges that
/// start inside a long expansion to runs of empty ones.
#[test]
fn stored_expansions_match() {
    for n in LENS {
        for pattern in 0..3 {
            let xs = Vector::from(u32s(n, 4, pattern));
            let args = [arg(&xs)];
            check_pools_ok(
                fused::stored::SOURCE,
                "stored",
                &args,
                || fused::stored(&xs),
                EXACT,
            );
            check_ok(
                fused::stored::SOURCE,
                "stored",
                &args,
                no_fusion::stored(&xs),
                EXACT,
            );
            // Counts as large as the values: keep the expansion small.
            let small = Vector::from(xs.to_vec().iter().take(2000).map(|x| x % 40).collect::<Vec<_>>());
            let args = [arg(&small)];
            check_pools_ok(
                fused::reread::SOURCE,
                "reread",
                &args,
                || fused::reread(&small),
                EXACT,
            );
        }
    }
}

/// The CPU's two work splits (by output, by input) agree.
#[test]
fn both_cpu_strategies_match() {
    use accel::__rt::cpu::{set_expand_strategy, ExpandStrategy};
    let xs = Vector::from(u32s(40_000, 9, 2));
    let args = [arg(&xs), arg(1000usize)];
    for s in [ExpandStrategy::Inputs, ExpandStrategy::Balanced] {
        set_expand_strategy(Some(s));
        check_pools_ok(
            fused::hist::SOURCE,
            "hist",
            &args,
            || fused::hist(&xs, 1000),
            EXACT,
        );
        check_pools_ok(
            fused::flat_max::SOURCE,
            "flat_max",
            &[arg(&xs)],
            || fused::flat_max(&xs),
            EXACT,
        );
    }
    set_expand_strategy(None);
}

/// Every GPU work distribution (forced in turn; the automatic choice last)
/// against the interpreter: no inputs, all counts 0, one long expansion among
/// empty ones, small even counts; `None` and out-of-range targets, the order
/// `(new, old)`, atomics, compare-and-swap (f32 max, i64, f32 product),
/// locks (tuples), folds. On the CPU back end the switch has no effect and
/// this repeats the tests above on smaller inputs.
#[test]
fn every_gpu_strategy_matches() {
    use accel::__rt::gpu::launch::{set_expand_strategy, ExpandStrategy};
    let strategies = [
        Some(ExpandStrategy::Thread),
        Some(ExpandStrategy::Warp),
        Some(ExpandStrategy::Block),
        Some(ExpandStrategy::Prefix),
        Some(ExpandStrategy::Chunk),
        None,
    ];
    // (inputs, counts): `x % m` is the count of most programs.
    let inputs = |n: usize, pattern: usize| -> Vec<u32> {
        (0..n)
            .map(|i| match pattern {
                0 => 0,
                1 if i == n / 2 => 2 * 3 * 5 * 7 * 11 * 13 * 17 * 30 - 1,
                1 => 0,
                _ => (hash(i) % 1000) as u32,
            })
            .collect()
    };
    for s in strategies {
        set_expand_strategy(s);
        for n in [0usize, 1, 33, 300] {
            for pattern in 0..3 {
                let xs = Vector::from(inputs(n, pattern));
                let what = format!("{s:?}, n = {n}, pattern {pattern}");
                let args = [arg(&xs), arg(7usize)];
                check_ok(fused::hist::SOURCE, "hist", &args, fused::hist(&xs, 7), EXACT);
                let d = Vector::from(vec![3u32; 10]);
                let args = [arg(&xs), arg(&d)];
                let r = check_ok(
                    fused::nowhere::SOURCE,
                    "nowhere",
                    &args,
                    fused::nowhere(&xs, &d),
                    EXACT,
                );
                assert_eq!(r, arg(&d), "{what}");
                // In range but for pattern 1's long input.
                let d = Vector::from(vec![0u32; 2000]);
                let args = [arg(&xs), arg(&d)];
                let r = check(
                    fused::unchecked::SOURCE,
                    "unchecked",
                    &args,
                    fused::unchecked(&xs, &d),
                    EXACT,
                );
                assert_eq!(r.is_ok(), pattern != 1 || n == 0, "{what}");
                if let Err(k) = r {
                    assert_eq!(k, ErrorKind::IndexOutOfBounds, "{what}");
                }
                let ws = Vector::from(xs.to_vec().iter().map(|&x| x % 600).collect::<Vec<_>>());
                let d = Vector::from((0..37).map(|i| (i as i64, i as u32)).collect::<Vec<_>>());
                let args = [arg(&ws), arg(&d)];
                check_ok(fused::wide::SOURCE, "wide", &args, fused::wide(&ws, &d), EXACT);
                let d = Vector::from(vec![1.0f32; 13]);
                let args = [arg(&xs), arg(&d)];
                check_ok(fused::fmul::SOURCE, "fmul", &args, fused::fmul(&xs, &d), EXACT);
                let ps: Vector<(u32, f32)> = Vector::from(
                    xs.to_vec()
                        .iter()
                        .map(|&x| (x, (x % 100) as f32 / 4.0))
                        .collect::<Vec<_>>(),
                );
                let d = Vector::from((0..13).map(|i| i as f32).collect::<Vec<_>>());
                let args = [arg(&ps), arg(&d)];
                check_ok(
                    fused::spread_max::SOURCE,
                    "spread_max",
                    &args,
                    fused::spread_max(&ps, &d),
                    EXACT,
                );
                let qs: Vector<(u32, f64)> = Vector::from(
                    xs.to_vec()
                        .iter()
                        .map(|&x| (x, (x % 64) as f64 / 4.0))
                        .collect::<Vec<_>>(),
                );
                let d = Vector::from((0..5).map(|i| (i as u32, i as f64)).collect::<Vec<_>>());
                let args = [arg(&qs), arg(&d)];
                check_ok(fused::pairs::SOURCE, "pairs", &args, fused::pairs(&qs, &d), EXACT);
                let ls = Vector::from(xs.to_vec().iter().map(|&x| x as i64).collect::<Vec<_>>());
                let d = Vector::from((0..(3 * n + 1)).map(|i| i as i64 - 5).collect::<Vec<_>>());
                let args = [arg(&ls), arg(&d)];
                check_ok(fused::order::SOURCE, "order", &args, fused::order(&ls, &d), EXACT);
                let args = [arg(&xs)];
                check_ok(
                    fused::flat_max::SOURCE,
                    "flat_max",
                    &args,
                    fused::flat_max(&xs),
                    EXACT,
                );
                let is = Vector::from(
                    xs.to_vec()
                        .iter()
                        .map(|&x| (x % 50_000) as i32)
                        .collect::<Vec<_>>(),
                );
                let args = [arg(&is)];
                check_ok(
                    fused::flat_sum::SOURCE,
                    "flat_sum",
                    &args,
                    fused::flat_sum(&is),
                    EXACT,
                );
            }
            // Out of range (when anything is expanded), a negative count.
            let xs = Vector::from((0..n).map(|i| (hash(i) % 100 + 1) as u32).collect::<Vec<_>>());
            let d = Vector::from(vec![5u32; 10]);
            let args = [arg(&xs), arg(&d)];
            if n > 0 {
                check_err(
                    fused::unchecked::SOURCE,
                    "unchecked",
                    &args,
                    fused::unchecked(&xs, &d),
                    ErrorKind::IndexOutOfBounds,
                );
            }
            let ys = Vector::from(
                (0..n.max(3))
                    .map(|i| if i == 1 { -20 } else { i as i32 })
                    .collect::<Vec<_>>(),
            );
            check_err(
                fused::flat_sum::SOURCE,
                "flat_sum",
                &[arg(&ys)],
                fused::flat_sum(&ys),
                ErrorKind::InvalidArgument,
            );
        }
    }
    set_expand_strategy(None);
}
