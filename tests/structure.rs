//! The structure of kernel plans: how many kernels run and how many arrays are
//! materialised, from `accel_core::compile_source` (the plan the macro
//! compiled), and what `f::explain()` says about them. Results are also checked
//! against the interpreter.

mod common;

use accel::prelude::*;
use common::*;

/// Kernel and materialised-array counts of `name` in `source`, checked against
/// what `explain` (the text the macro generated) reports.
#[track_caller]
fn counts(source: &str, name: &str, explain: &str) -> (usize, usize) {
    let (_program, plan) =
        accel_core::compile_source(source, name).unwrap_or_else(|e| panic!("{}", e.message));
    let kernels = plan.kernels().count();
    let materialised = plan.materialised().count();
    assert_eq!(
        explain,
        plan.explain(),
        "`{name}::explain()` is not the plan's explanation"
    );
    let header = format!(
        "program `{name}`: {kernels} kernel{}",
        if kernels == 1 { "" } else { "s" }
    );
    assert!(
        explain.starts_with(&header),
        "`{name}`: expected `{header}` in\n{explain}"
    );
    // One line per kernel and one per materialised array.
    let kernel_lines = explain
        .lines()
        .filter(|l| l.trim_start().starts_with("kernel "))
        .count();
    assert_eq!(kernel_lines, kernels, "{explain}");
    let listed = explain
        .lines()
        .skip_while(|l| !l.starts_with("materialised arrays:"))
        .skip(1)
        .filter(|l| l.trim_start().starts_with('b'))
        .count();
    assert_eq!(listed, materialised, "{explain}");
    (kernels, materialised)
}

#[track_caller]
fn assert_plan(source: &str, name: &str, explain: &str, kernels: usize, materialised: usize) {
    let (k, m) = counts(source, name, explain);
    let (_, plan) = accel_core::compile_source(source, name).unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(
        (k, m),
        (kernels, materialised),
        "`{name}`: (kernels, materialised arrays) differ from the expected plan:\n{plan}\n{explain}"
    );
}

fn inputs(n: usize) -> (Vector<f32>, Vector<f32>) {
    let xs: Vector<f32> = (0..n).map(|i| (hash(i) % 1000) as f32 / 10.0 - 50.0).collect();
    let ys: Vector<f32> = (0..n).map(|i| (hash(i + 1) % 1000) as f32 / 100.0).collect();
    (xs, ys)
}

const SIZES: [usize; 5] = [0, 1, 7, 300, 16_385];

// ---- dot product: one fold kernel, only the scalar result materialised -----

#[acc]
fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
    xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
}

#[test]
fn dot_product_is_one_kernel() {
    assert_plan(dotp::SOURCE, "dotp", &dotp::explain(), 1, 1);
    assert!(dotp::explain().contains("1 kernel"));
    assert!(
        dotp::explain().contains("fuses: zip_with -> fold"),
        "{}",
        dotp::explain()
    );
    for n in SIZES {
        let (xs, ys) = inputs(n);
        // Parallel sums reorder f32 additions: relative tolerance 1e-4.
        check_ok(
            dotp::SOURCE,
            "dotp",
            &[arg(&xs), arg(&ys)],
            dotp(&xs, &ys),
            F32_TOL,
        );
    }
}

// ---- map of a map: one kernel --------------------------------------------------

#[acc]
fn map_map(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x * 2.0 + 1.0).map(|y| y.sqrt())
}

#[test]
fn map_of_map_is_one_kernel() {
    assert_plan(map_map::SOURCE, "map_map", &map_map::explain(), 1, 1);
    assert!(
        map_map::explain().contains("fuses: map -> map"),
        "{}",
        map_map::explain()
    );
    for n in SIZES {
        let (xs, _) = inputs(n);
        check_ok(map_map::SOURCE, "map_map", &[arg(&xs)], map_map(&xs), EXACT);
    }
}

// ---- a let-bound array used twice is computed once ---------------------------
// Both uses are in one kernel, at its own element: the array is computed
// there, once per element, and never stored (`plan::horizontal`).

#[acc]
fn used_twice(xs: &Vector<f32>) -> Vector<f32> {
    let ys = xs.map(|x| x * 2.0);
    ys.zip_with(&ys, |a, b| a + b)
}

#[acc]
fn used_twice_fold(xs: &Vector<f32>) -> Scalar<f32> {
    let ys = xs.map(|x| x * 2.0);
    ys.zip_with(&ys.map(|y| y + 1.0), |a, b| a * b).sum()
}

#[test]
fn array_used_twice_is_computed_once() {
    assert_plan(used_twice::SOURCE, "used_twice", &used_twice::explain(), 1, 1);
    assert_plan(
        used_twice_fold::SOURCE,
        "used_twice_fold",
        &used_twice_fold::explain(),
        1,
        1,
    );
    for n in SIZES {
        let (xs, _) = inputs(n);
        check_ok(
            used_twice::SOURCE,
            "used_twice",
            &[arg(&xs)],
            used_twice(&xs),
            EXACT,
        );
        check_ok(
            used_twice_fold::SOURCE,
            "used_twice_fold",
            &[arg(&xs)],
            used_twice_fold(&xs),
            F32_TOL,
        );
    }
}

// ---- a let-bound array used once is inlined ----------------------------------

#[acc]
fn used_once(xs: &Vector<f32>) -> Scalar<f32> {
    let ys = xs.map(|x| x * x - 1.0);
    ys.sum()
}

#[test]
fn array_used_once_is_fused() {
    assert_plan(used_once::SOURCE, "used_once", &used_once::explain(), 1, 1);
    for n in SIZES {
        let (xs, _) = inputs(n);
        check_ok(
            used_once::SOURCE,
            "used_once",
            &[arg(&xs)],
            used_once(&xs),
            F32_TOL,
        );
    }
}

// ---- shape-only uses do not count ---------------------------------------------

#[acc]
fn shape_use(xs: &Vector<f32>) -> Vector<f32> {
    let ys = xs.map(|x| x * 2.0);
    let n = ys.len();
    ys.map(|y| y / n as f32)
}

#[acc]
fn shape_use_2d(m: &Matrix<f32>) -> Matrix<f32> {
    let t = m.map(|x| x + 1.0);
    let [r, c] = t.shape();
    t.map(|x| x * r as f32 + c as f32)
}

#[test]
fn shape_uses_do_not_materialise() {
    assert_plan(shape_use::SOURCE, "shape_use", &shape_use::explain(), 1, 1);
    assert_plan(
        shape_use_2d::SOURCE,
        "shape_use_2d",
        &shape_use_2d::explain(),
        1,
        1,
    );
    for n in SIZES {
        let (xs, _) = inputs(n);
        check_ok(shape_use::SOURCE, "shape_use", &[arg(&xs)], shape_use(&xs), EXACT);
        let m = Matrix::from_fn([n % 13, n % 7], |[i, j]| (i * 3 + j) as f32);
        check_ok(
            shape_use_2d::SOURCE,
            "shape_use_2d",
            &[arg(&m)],
            shape_use_2d(&m),
            EXACT,
        );
    }
}

// ---- Black-Scholes: one map kernel, lets shared inside the closure ------------

#[path = "../examples/programs/black_scholes.rs"]
mod black_scholes_program;
use black_scholes_program::black_scholes;

#[test]
fn black_scholes_is_one_kernel() {
    assert_plan(
        black_scholes::SOURCE,
        "black_scholes",
        &black_scholes::explain(),
        1,
        1,
    );
    for n in SIZES {
        let opts: Vector<(f32, f32, f32)> = (0..n)
            .map(|i| {
                (
                    5.0 + (hash(i) % 2500) as f32 / 100.0,
                    1.0 + (hash(i + 1) % 10_000) as f32 / 100.0,
                    0.25 + (hash(i + 2) % 1000) as f32 / 100.0,
                )
            })
            .collect();
        check_ok(
            black_scholes::SOURCE,
            "black_scholes",
            &[arg(&opts), arg(0.02f32), arg(0.3f32)],
            black_scholes(&opts, 0.02, 0.3),
            F32_TOL,
        );
    }
}

// ---- the same subterm written twice ---------------------------------------------
// Operations equal up to the names of their closures' variables are merged:
// see `tests/fusion.rs` (`twice`, `helper_twice`).

// ---- more plans ------------------------------------------------------------------

/// Scan then map: the map is applied to each output of the scan before it is
/// stored, so one kernel.
#[acc]
fn scan_then_map(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| x * 2).scanl1(|a, b| a + b).map(|s| s - 1)
}

/// A transpose fused into its consumer fold.
#[acc]
fn transpose_sum(m: &Matrix<i64>) -> Vector<i64> {
    let [r, c] = m.shape();
    m.backpermute([c, r], |[i, j]| [j, i]).sum()
}

/// A cheap producer read by index in scalar code is computed at the read.
#[acc]
fn gathered(xs: &Vector<f64>, idx: &Vector<usize>) -> Vector<f64> {
    let ys = xs.map(|x| x * 3.0);
    idx.map(|i| ys[[i]])
}

/// A costly one is materialised (a read may repeat an element).
#[acc]
fn gathered_costly(xs: &Vector<f64>, idx: &Vector<usize>) -> Vector<f64> {
    let ys = xs.map(|x| x.sin() * 3.0);
    idx.map(|i| ys[[i]])
}

// Calls between functions are inlined and fused.
accel! {
    fn norm2(xs: &Vector<f64>) -> Scalar<f64> {
        xs.map(|x| x * x).sum()
    }
    fn rms(xs: &Vector<f64>) -> Scalar<f64> {
        let n = xs.len() as f64;
        norm2(xs).map(|s| (s / n).sqrt())
    }
}

#[test]
fn more_plans() {
    assert_plan(
        scan_then_map::SOURCE,
        "scan_then_map",
        &scan_then_map::explain(),
        1,
        1,
    );
    assert_plan(
        transpose_sum::SOURCE,
        "transpose_sum",
        &transpose_sum::explain(),
        1,
        1,
    );
    assert_plan(gathered::SOURCE, "gathered", &gathered::explain(), 1, 1);
    assert_plan(
        gathered_costly::SOURCE,
        "gathered_costly",
        &gathered_costly::explain(),
        2,
        2,
    );
    assert_plan(norm2::SOURCE, "norm2", &norm2::explain(), 1, 1);
    // The map after the fold is applied to its result before it is stored.
    assert_plan(rms::SOURCE, "rms", &rms::explain(), 1, 1);
    for n in SIZES {
        let xs: Vector<i32> = (0..n).map(|i| hash(i) as i32).collect();
        check_ok(
            scan_then_map::SOURCE,
            "scan_then_map",
            &[arg(&xs)],
            scan_then_map(&xs),
            EXACT,
        );
        let m = Matrix::from_fn([n % 11, n % 17], |[i, j]| hash(i * 17 + j) as i64);
        check_ok(
            transpose_sum::SOURCE,
            "transpose_sum",
            &[arg(&m)],
            transpose_sum(&m),
            EXACT,
        );
        let fs: Vector<f64> = (0..n).map(|i| (hash(i) % 100) as f64 / 7.0).collect();
        let idx: Vector<usize> = (0..n).map(|i| (hash(i) as usize) % n).collect();
        check_ok(
            gathered::SOURCE,
            "gathered",
            &[arg(&fs), arg(&idx)],
            gathered(&fs, &idx),
            EXACT,
        );
        check_ok(rms::SOURCE, "rms", &[arg(&fs)], rms(&fs), F64_TOL);
    }
}

/// A loop over the state and a branch not taken: per-kernel run counts.
#[acc]
fn timed_steps(xs: &Vector<f32>, steps: usize, scale: bool) -> Vector<f32> {
    let mut v = xs.map(|x| x + 1.0);
    let mut i = 0usize;
    while i < steps {
        v = v.map(|x| x * 0.5);
        i += 1;
    }
    if scale {
        v.map(|x| x * 2.0)
    } else {
        v
    }
}

/// `accel::profile::cpu` (what `ACCEL_PROFILE=1` prints): one entry per
/// kernel, labelled as `explain()` labels it, with the number of times it
/// ran; the result is the program's.
#[test]
fn cpu_profile_counts_every_kernel_run() {
    let backend = Backend::cpu();
    let xs = Vector::from((0..1000).map(|i| i as f32).collect::<Vec<_>>());
    let (v, p) = accel::profile::cpu(|| timed_steps::on(&backend, &xs, 3, false)).unwrap();
    assert_eq!(v, timed_steps::on(&backend, &xs, 3, false).unwrap());
    assert_eq!(p.program, "timed_steps");
    let explain = timed_steps::explain();
    let labels: Vec<&str> = explain
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("kernel "))
        .collect();
    let got: Vec<&str> = p.kernels.iter().map(|k| k.label.as_str()).collect();
    assert_eq!(got, labels, "{explain}");
    // The first map once, the loop's body three times, the branch never.
    let runs: Vec<u64> = p.kernels.iter().map(|k| k.runs).collect();
    assert_eq!(runs, [1, 3, 0], "{}", p.table());
    let kernels: std::time::Duration = p.kernels.iter().map(|k| k.total).sum();
    assert!(kernels <= p.call, "{}", p.table());
    assert!(p.table().contains("kernel 1: generate"), "{}", p.table());

    let (_, p) = accel::profile::cpu(|| timed_steps::on(&backend, &xs, 0, true)).unwrap();
    let runs: Vec<u64> = p.kernels.iter().map(|k| k.runs).collect();
    assert_eq!(runs, [1, 0, 1], "{}", p.table());

    let none = accel::profile::cpu(|| Ok(3));
    assert!(none.is_err(), "no program call, no profile");
}
