//! Helpers shared by the integration tests: comparing compiled programs with
//! the reference interpreter, and proptest strategies for arrays.

#![allow(dead_code)]

use accel::dynamic::{Dyn, ToDyn, Tolerance, Value};
use accel::{Array, Elem, ErrorKind, Matrix, Vector};
use proptest::prelude::*;

/// Exact comparison (integers, bools, and floats computed in the same order:
/// NaN equals NaN, nothing else is tolerated).
pub const EXACT: f64 = 0.0;
/// Relative tolerance for `f32` results whose summation order may differ
/// between the interpreter (left to right) and the parallel kernels.
pub const F32_TOL: f64 = 1e-4;
/// Relative tolerance for `f64` results whose summation order may differ.
pub const F64_TOL: f64 = 1e-9;

/// Tolerance `rel` for a result computed by summing terms whose absolute
/// values add up to `mag` (see `Tolerance`): the rounding error of a sum is
/// relative to its terms, so a sum that cancels to near zero is compared at
/// the terms' scale rather than its own.
pub fn sum_tol(rel: f64, mag: f64) -> Tolerance {
    Tolerance::with_mag(rel, mag)
}

/// The sum of the absolute values of `xs` (the magnitude of a sum's terms,
/// for `sum_tol`).
pub fn abs_sum<T: Copy + Into<f64>>(xs: &[T]) -> f64 {
    xs.iter().map(|&x| Into::<f64>::into(x).abs()).sum()
}

/// The dynamic form used for comparisons: a Rust tuple of scalars (what a
/// compiled program returns for a scalar tuple result, and how scalar tuple
/// parameters are written) becomes one scalar tuple value, as the interpreter
/// has it. Tuples of arrays stay tuples.
pub fn normalise(d: Dyn) -> Dyn {
    match d {
        Dyn::Tuple(xs) => {
            let xs: Vec<Dyn> = xs.into_iter().map(normalise).collect();
            if xs.iter().all(|x| matches!(x, Dyn::Scalar(_))) {
                Dyn::Scalar(Value::Tuple(
                    xs.into_iter()
                        .map(|x| match x {
                            Dyn::Scalar(v) => v,
                            _ => unreachable!(),
                        })
                        .collect(),
                ))
            } else {
                Dyn::Tuple(xs)
            }
        }
        d => d,
    }
}

/// An argument for the interpreter.
pub fn arg<T: ToDyn>(x: T) -> Dyn {
    normalise(x.to_dyn())
}

/// A sequence argument in the interpreter's form: the list of its elements.
#[allow(dead_code)] // not every suite has sequences
pub fn seq_arg<T: Elem, const R: usize>(xs: &[Array<T, R>]) -> Dyn {
    Dyn::Seq(
        xs.iter()
            .map(|x| match arg(x) {
                Dyn::Array(a) => a,
                other => panic!("an array argument is {other:?}"),
            })
            .collect(),
    )
}

fn short(d: &Dyn) -> String {
    let s = format!("{d:?}");
    if s.len() > 1500 {
        format!("{} .. ({} chars)", &s[..1500], s.len())
    } else {
        s
    }
}

fn short_args(args: &[Dyn]) -> String {
    args.iter().map(short).collect::<Vec<_>>().join(",\n  ")
}

/// Runs `name` of `source` on the interpreter with `args` and compares with the
/// compiled result: equal values (floats within relative tolerance `tol`, see
/// `Dyn::approx_eq`), or errors of the same kind on both sides. Returns the
/// interpreter's result (its error kind on failure) for further checks: an
/// error on both sides is not a failure here, so the caller must look at the
/// result (`check_ok`, `check_err` and `check_fails_if` do).
#[track_caller]
#[must_use = "both sides failing the same way is an Err here: use check_ok, check_err or check_fails_if"]
pub fn check<T: ToDyn>(
    source: &str,
    name: &str,
    args: &[Dyn],
    compiled: accel::Result<T>,
    tol: impl Into<Tolerance>,
) -> Result<Dyn, ErrorKind> {
    let interp = interpret(source, name, args);
    compare(name, args, interp, compiled, tol)
}

/// The interpreter's result.
#[track_caller]
pub fn interpret(source: &str, name: &str, args: &[Dyn]) -> accel::Result<Dyn> {
    // The last call's result, per thread: suites check one program's fused
    // and unfused versions on the same arguments one after the other, and
    // the interpreter (deterministic) is the slow side of both checks.
    // The arguments are compared by their `Debug` text, which tells `-0.0`
    // from `0.0` (`==` does not).
    type Last = Option<(String, String, String, accel::Result<Dyn>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Last> = const { std::cell::RefCell::new(None) };
    }
    let key = format!("{args:?}");
    let hit = LAST.with(|l| match &*l.borrow() {
        Some((s, n, a, r)) if s == source && n == name && *a == key => Some(r.clone()),
        _ => None,
    });
    if let Some(r) = hit {
        return r;
    }
    let interp = accel_core::interpret_source(source, name, args);
    LAST.with(|l| {
        *l.borrow_mut() = Some((source.to_string(), name.to_string(), key, interp.clone()));
    });
    if let Err(e) = &interp {
        assert!(
            !e.op().starts_with("compile"),
            "`{name}` does not compile in the interpreter: {e}"
        );
    }
    interp
}

/// Compares an interpreter result with a compiled one (see `check`).
#[track_caller]
#[must_use = "both sides failing the same way is an Err here: check the kind"]
pub fn compare<T: ToDyn>(
    name: &str,
    args: &[Dyn],
    interp: accel::Result<Dyn>,
    compiled: accel::Result<T>,
    tol: impl Into<Tolerance>,
) -> Result<Dyn, ErrorKind> {
    let tol = tol.into();
    match (interp, compiled) {
        (Ok(want), Ok(got)) => {
            let got = normalise(got.to_dyn());
            assert!(
                want.approx_eq_tol(&got, tol),
                "`{name}`: compiled result differs from the interpreter (tol {tol})\n\
                 args:\n  {}\ninterpreter: {}\ncompiled:    {}",
                short_args(args),
                short(&want),
                short(&got)
            );
            Ok(want)
        }
        (Err(ie), Err(ce)) => {
            assert_eq!(
                ie.kind(),
                ce.kind(),
                "`{name}`: both fail but differently\nargs:\n  {}\ninterpreter: {ie}\ncompiled:    {ce}",
                short_args(args)
            );
            Err(ie.kind())
        }
        (Ok(want), Err(ce)) => panic!(
            "`{name}`: the interpreter succeeds but the compiled code fails\nargs:\n  {}\n\
             interpreter: {}\ncompiled:    Err({ce})",
            short_args(args),
            short(&want)
        ),
        (Err(ie), Ok(got)) => panic!(
            "`{name}`: the interpreter fails but the compiled code succeeds\nargs:\n  {}\n\
             interpreter: Err({ie})\ncompiled:    {}",
            short_args(args),
            short(&normalise(got.to_dyn()))
        ),
    }
}

/// Rayon pools of 1, 3 and 8 threads: the CPU skeletons size their chunks and
/// row splits from the number of threads of the pool they run in.
pub fn pools() -> &'static [rayon::ThreadPool] {
    static POOLS: std::sync::OnceLock<Vec<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOLS.get_or_init(|| {
        [1, 3, 8]
            .into_iter()
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .expect("thread pool")
            })
            .collect()
    })
}

/// `check` with the compiled program run in the global pool and in each of
/// `pools()` (the interpreter runs once).
#[track_caller]
#[must_use = "both sides failing the same way is an Err here: use check_pools_ok or check_pools_err"]
pub fn check_pools<T: ToDyn + Send>(
    source: &str,
    name: &str,
    args: &[Dyn],
    run: impl Fn() -> accel::Result<T> + Sync,
    tol: impl Into<Tolerance>,
) -> Result<Dyn, ErrorKind> {
    let tol = tol.into();
    let interp = interpret(source, name, args);
    let first = compare(name, args, interp.clone(), run(), tol);
    for pool in pools() {
        let got = pool.install(&run);
        let again = compare(
            &format!("{name} ({} threads)", pool.current_num_threads()),
            args,
            interp.clone(),
            got,
            tol,
        );
        assert_eq!(first.is_ok(), again.is_ok());
    }
    first
}

/// `check`, and the interpreter must succeed.
#[track_caller]
pub fn check_ok<T: ToDyn>(
    source: &str,
    name: &str,
    args: &[Dyn],
    compiled: accel::Result<T>,
    tol: impl Into<Tolerance>,
) -> Dyn {
    match check(source, name, args, compiled, tol) {
        Ok(d) => d,
        Err(k) => panic!("`{name}` failed with {k:?} on both sides, where it should succeed"),
    }
}

/// `check`, and both sides must fail with `kind`.
#[track_caller]
pub fn check_err<T: ToDyn>(
    source: &str,
    name: &str,
    args: &[Dyn],
    compiled: accel::Result<T>,
    kind: ErrorKind,
) {
    match check(source, name, args, compiled, EXACT) {
        Ok(d) => panic!(
            "`{name}` succeeded with {} where it should fail with {kind:?}",
            short(&d)
        ),
        Err(k) => assert_eq!(k, kind, "`{name}`"),
    }
}

/// `check` where the program fails on some inputs: `fails` says whether it
/// must fail here. Where it must, both sides fail with `kind`; elsewhere both
/// succeed with the same result (an error on both sides fails the test).
/// Returns the interpreter's result.
#[track_caller]
pub fn check_fails_if<T: ToDyn>(
    source: &str,
    name: &str,
    args: &[Dyn],
    compiled: accel::Result<T>,
    tol: impl Into<Tolerance>,
    fails: bool,
    kind: ErrorKind,
) -> Result<Dyn, ErrorKind> {
    let r = check(source, name, args, compiled, tol);
    expect_fails_if(name, r, fails, kind)
}

/// Asserts that a `check` result `r` is an error of `kind` where `fails`, and
/// a value elsewhere (see `check_fails_if`). Returns `r`.
#[track_caller]
pub fn expect_fails_if(
    name: &str,
    r: Result<Dyn, ErrorKind>,
    fails: bool,
    kind: ErrorKind,
) -> Result<Dyn, ErrorKind> {
    match (&r, fails) {
        (Ok(_), false) => {}
        (Err(k), true) => assert_eq!(*k, kind, "`{name}` fails on both sides, but not with {kind:?}"),
        (Ok(d), true) => panic!(
            "`{name}` succeeded with {} on both sides where it should fail with {kind:?}",
            short(d)
        ),
        (Err(k), false) => {
            panic!("`{name}` failed with {k:?} on both sides, where it should succeed")
        }
    }
    r
}

// ---- strategies ------------------------------------------------------------

/// Vectors of 0..max elements.
pub fn vector<S>(elem: S, max: usize) -> impl Strategy<Value = Vector<S::Value>>
where
    S: Strategy,
    S::Value: Elem,
{
    prop::collection::vec(elem, 0..max).prop_map(Vector::from)
}

/// Matrices of 0..r × 0..c elements.
pub fn matrix<S>(elem: S, r: usize, c: usize) -> impl Strategy<Value = Matrix<S::Value>>
where
    S: Strategy + Clone,
    S::Value: Elem,
{
    (0..r, 0..c).prop_flat_map(move |(n, m)| {
        prop::collection::vec(elem.clone(), n * m)
            .prop_map(move |v| Matrix::from_vec([n, m], v).expect("shape"))
    })
}

/// Rank-3 arrays of 0..a × 0..b × 0..c elements.
pub fn array3<S>(elem: S, a: usize, b: usize, c: usize) -> impl Strategy<Value = Array<S::Value, 3>>
where
    S: Strategy + Clone,
    S::Value: Elem,
{
    (0..a, 0..b, 0..c).prop_flat_map(move |(x, y, z)| {
        prop::collection::vec(elem.clone(), x * y * z)
            .prop_map(move |v| Array::from_vec([x, y, z], v).expect("shape"))
    })
}

/// A deterministic pseudo-random sequence (for the large fixed-size cases).
pub fn hash(i: usize) -> u64 {
    let x = (i as u64)
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 31)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 29)
}

/// Sizes that cross the CPU skeletons' parallel chunk size (16384).
pub const BIG: [usize; 3] = [16_383, 16_385, 50_001];

/// Vectors of 1..max elements.
pub fn nonempty<S>(elem: S, max: usize) -> impl Strategy<Value = Vector<S::Value>>
where
    S: Strategy,
    S::Value: Elem,
{
    prop::collection::vec(elem, 1..max).prop_map(Vector::from)
}

/// `check_pools`, and the interpreter must succeed.
#[track_caller]
pub fn check_pools_ok<T: ToDyn + Send>(
    source: &str,
    name: &str,
    args: &[Dyn],
    run: impl Fn() -> accel::Result<T> + Sync,
    tol: impl Into<Tolerance>,
) -> Dyn {
    match check_pools(source, name, args, run, tol) {
        Ok(d) => d,
        Err(k) => panic!("`{name}` failed with {k:?} on both sides, where it should succeed"),
    }
}

/// `check_pools`, and both sides must fail with `kind`.
#[track_caller]
pub fn check_pools_err<T: ToDyn + Send>(
    source: &str,
    name: &str,
    args: &[Dyn],
    run: impl Fn() -> accel::Result<T> + Sync,
    kind: ErrorKind,
) {
    match check_pools(source, name, args, run, EXACT) {
        Ok(d) => panic!(
            "`{name}` succeeded with {} where it should fail with {kind:?}",
            short(&d)
        ),
        Err(k) => assert_eq!(k, kind, "`{name}`"),
    }
}

// ---- backends ----------------------------------------------------------------

/// Whether compiled programs run on a GPU back end here (CUDA or the PTX
/// simulator, chosen with `ACCEL_BACKEND`).
pub fn on_gpu() -> bool {
    accel::Backend::default().device().is_some()
}

/// Relative tolerance between the interpreter and a GPU back end for f32 math
/// functions that are not exactly specified (exp, sin, ...): the GPU math
/// library is within a few ULPs of Rust's functions, at worst ~100 ULPs
/// where Rust's own are inaccurate (docs/gpu-math.md).
pub const F32_MATH_TOL: f64 = 2e-5;
/// As `F32_MATH_TOL`, for f64.
pub const F64_MATH_TOL: f64 = 1e-12;

/// `EXACT` where a float result is exactly defined or the back end is the CPU
/// (which calls the same Rust functions as the interpreter), else `tol`.
pub fn float_tol(exact: bool, tol: f64) -> f64 {
    if exact || !on_gpu() {
        EXACT
    } else {
        tol
    }
}

/// As `float_tol(false, tol)`, for programs that call a math function with a
/// constant argument. There the CPU side is one ULP of the type (`ulp`, its
/// EPSILON) off the interpreter at worst, not exact: LLVM rewrites some calls
/// it can see constants in, as it does in any Rust program, and the rewritten
/// function rounds differently (`2.0.powf(x)` becomes `exp2(x)`, which differs
/// from glibc's `pow` in about one of a thousand arguments).
pub fn libm_tol(ulp: f64, tol: f64) -> f64 {
    if on_gpu() {
        tol
    } else {
        ulp
    }
}

/// Proptest cases per property: `n`, or `ACCEL_TEST_CASES` when that is set
/// and smaller. CI sets it for the suites run on the PTX simulator (which
/// interprets every GPU thread, thousands of times slower than the CPU
/// back end); the CPU run keeps the full counts. The reduction is announced
/// once per test binary on stderr (not captured by the test harness).
pub fn cases(n: u32) -> u32 {
    let Some(m) = std::env::var("ACCEL_TEST_CASES")
        .ok()
        .and_then(|s| s.parse::<u32>().ok())
    else {
        return n;
    };
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "note: ACCEL_TEST_CASES={m}: proptest properties run at most {m} cases here"
        );
    });
    n.min(m)
}
