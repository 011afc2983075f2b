//! The scalar language: Rust's float and integer methods, `match`, `min`/`max`
//! on tuples, and the constants of the primitive types. Every program runs on
//! the reference interpreter and as compiled CPU code (they must agree
//! exactly: both call the same Rust functions), and the compiled result is
//! compared with plain Rust written here: integers exactly (wrap-around
//! included), floats exactly where the result is exactly defined (rounding,
//! sign, bits, IEEE `sqrt` and division) and within 5e-5 absolute or 5e-3
//! relative otherwise; NaN equals NaN. On a GPU back end (`ACCEL_BACKEND=cuda`
//! or `ptx-sim`) the math functions come from the GPU math library (within a
//! few ULPs of Rust's, docs/gpu-math.md), so where the result is not exactly
//! defined the compiled result is compared with the interpreter's within
//! `F32_MATH_TOL` / `F64_MATH_TOL` instead of exactly.

#![allow(unexpected_cfgs)]

mod common;

use accel::prelude::*;
use common::*;
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(24),
        max_shrink_iters: 100,
        ..ProptestConfig::default()
    }
}

fn wild_f32() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        4 => any::<f32>(),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(-0.0f32),
        1 => Just(0.0f32),
        1 => Just(1.0f32),
        1 => Just(-1.0f32),
        1 => Just(f32::MIN_POSITIVE / 2.0),
        4 => -2.0f32..2.0,
        4 => -300.0f32..300.0,
    ]
}

fn wild_f64() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        4 => any::<f64>(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(-0.0f64),
        1 => Just(0.5f64),
        1 => Just(-1.0f64),
        4 => -2.0f64..2.0,
        4 => -1e6f64..1e6,
    ]
}

/// Integers of the full range, with the edge values and small numbers frequent.
macro_rules! int_strategy {
    ($name:ident, $t:ty) => {
        fn $name() -> impl Strategy<Value = $t> + Clone {
            prop_oneof![
                4 => any::<$t>(),
                1 => Just(<$t>::MIN),
                1 => Just(<$t>::MAX),
                1 => Just(0 as $t),
                1 => Just(1 as $t),
                1 => Just((0 as $t).wrapping_sub(1)),
                2 => (0 as $t)..(9 as $t),
            ]
        }
    };
}
int_strategy!(any_i8, i8);
int_strategy!(any_i32, i32);
int_strategy!(any_i64, i64);
int_strategy!(any_u8, u8);
int_strategy!(any_u32, u32);
int_strategy!(any_u64, u64);

/// Float agreement: bit-exact (NaN == NaN) when `exact`, else within 5e-5
/// absolute or 5e-3 relative.
fn close(got: f64, want: f64, exact: bool) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if exact {
        return got == want && got.is_sign_negative() == want.is_sign_negative();
    }
    if got == want {
        return true;
    }
    let d = (got - want).abs();
    d <= 5e-5 || d <= 5e-3 * got.abs().max(want.abs())
}

#[track_caller]
fn assert_close<T: Copy + Into<f64> + std::fmt::Debug>(
    what: &str,
    x: impl std::fmt::Debug,
    got: T,
    want: T,
    exact: bool,
) {
    assert!(
        close(got.into(), want.into(), exact),
        "{what}({x:?}): got {got:?}, want {want:?}"
    );
}

// =============================================================================
// Float methods of one argument
// =============================================================================

/// Results that are exactly defined (no rounding beyond IEEE's).
const FLOAT_UNARY_EXACT: &[u32] = &[0, 21, 24, 25, 26, 27, 28, 29, 30, 31, 32];
const FLOAT_UNARY_N: u32 = 33;

#[acc]
fn f32_unary(xs: &Vector<f32>, k: u32) -> Vector<f32> {
    xs.map(|x| match k {
        0 => x.sqrt(),
        1 => x.cbrt(),
        2 => x.exp(),
        3 => x.exp2(),
        4 => x.exp_m1(),
        5 => x.ln(),
        6 => x.ln_1p(),
        7 => x.log2(),
        8 => x.log10(),
        9 => x.sin(),
        10 => x.cos(),
        11 => x.tan(),
        12 => x.asin(),
        13 => x.acos(),
        14 => x.atan(),
        15 => x.sinh(),
        16 => x.cosh(),
        17 => x.tanh(),
        18 => x.asinh(),
        19 => x.acosh(),
        20 => x.atanh(),
        21 => x.recip(),
        22 => x.to_degrees(),
        23 => x.to_radians(),
        24 => x.floor(),
        25 => x.ceil(),
        26 => x.round(),
        27 => x.trunc(),
        28 => x.fract(),
        29 => x.abs(),
        30 => x.signum(),
        31 => -x,
        _ => f32::from_bits(x.to_bits() ^ 0x8000_0000),
    })
}

fn f32_unary_ref(x: f32, k: u32) -> f32 {
    match k {
        0 => x.sqrt(),
        1 => x.cbrt(),
        2 => x.exp(),
        3 => x.exp2(),
        4 => x.exp_m1(),
        5 => x.ln(),
        6 => x.ln_1p(),
        7 => x.log2(),
        8 => x.log10(),
        9 => x.sin(),
        10 => x.cos(),
        11 => x.tan(),
        12 => x.asin(),
        13 => x.acos(),
        14 => x.atan(),
        15 => x.sinh(),
        16 => x.cosh(),
        17 => x.tanh(),
        18 => x.asinh(),
        19 => x.acosh(),
        20 => x.atanh(),
        21 => x.recip(),
        22 => x.to_degrees(),
        23 => x.to_radians(),
        24 => x.floor(),
        25 => x.ceil(),
        26 => x.round(),
        27 => x.trunc(),
        28 => x.fract(),
        29 => x.abs(),
        30 => x.signum(),
        31 => -x,
        _ => -x,
    }
}

#[acc]
fn f64_unary(xs: &Vector<f64>, k: u32) -> Vector<f64> {
    xs.map(|x| match k {
        0 => x.sqrt(),
        1 => x.cbrt(),
        2 => x.exp(),
        3 => x.exp2(),
        4 => x.exp_m1(),
        5 => x.ln(),
        6 => x.ln_1p(),
        7 => x.log2(),
        8 => x.log10(),
        9 => x.sin(),
        10 => x.cos(),
        11 => x.tan(),
        12 => x.asin(),
        13 => x.acos(),
        14 => x.atan(),
        15 => x.sinh(),
        16 => x.cosh(),
        17 => x.tanh(),
        18 => x.asinh(),
        19 => x.acosh(),
        20 => x.atanh(),
        21 => x.recip(),
        22 => x.to_degrees(),
        23 => x.to_radians(),
        24 => x.floor(),
        25 => x.ceil(),
        26 => x.round(),
        27 => x.trunc(),
        28 => x.fract(),
        29 => x.abs(),
        30 => x.signum(),
        31 => -x,
        _ => f64::from_bits(x.to_bits() ^ (1u64 << 63)),
    })
}

fn f64_unary_ref(x: f64, k: u32) -> f64 {
    match k {
        0 => x.sqrt(),
        1 => x.cbrt(),
        2 => x.exp(),
        3 => x.exp2(),
        4 => x.exp_m1(),
        5 => x.ln(),
        6 => x.ln_1p(),
        7 => x.log2(),
        8 => x.log10(),
        9 => x.sin(),
        10 => x.cos(),
        11 => x.tan(),
        12 => x.asin(),
        13 => x.acos(),
        14 => x.atan(),
        15 => x.sinh(),
        16 => x.cosh(),
        17 => x.tanh(),
        18 => x.asinh(),
        19 => x.acosh(),
        20 => x.atanh(),
        21 => x.recip(),
        22 => x.to_degrees(),
        23 => x.to_radians(),
        24 => x.floor(),
        25 => x.ceil(),
        26 => x.round(),
        27 => x.trunc(),
        28 => x.fract(),
        29 => x.abs(),
        30 => x.signum(),
        _ => -x,
    }
}

/// The predicates and the bits.
#[acc]
fn f32_classify(xs: &Vector<f32>) -> Vector<((bool, bool, bool), (bool, bool, bool), u32)> {
    xs.map(|x| {
        (
            (x.is_nan(), x.is_infinite(), x.is_finite()),
            (x.is_sign_negative(), x.is_sign_positive(), x.is_normal()),
            x.to_bits(),
        )
    })
}

#[acc]
fn f64_classify(xs: &Vector<f64>) -> Vector<((bool, bool, bool), (bool, bool, bool), u64)> {
    xs.map(|x| {
        (
            (x.is_nan(), x.is_infinite(), x.is_finite()),
            (x.is_sign_negative(), x.is_sign_positive(), x.is_normal()),
            x.to_bits(),
        )
    })
}

#[acc]
fn from_bits(us: &Vector<u32>, ls: &Vector<u64>) -> (Vector<f32>, Vector<f64>) {
    (
        us.map(|u| f32::from_bits(u)),
        ls.map(|l| std::primitive::f64::from_bits(l)),
    )
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn float_unary(xs in vector(wild_f32(), 40), ys in vector(wild_f64(), 40)) {
        for k in 0..=FLOAT_UNARY_N {
            let exact = FLOAT_UNARY_EXACT.contains(&k) || k == FLOAT_UNARY_N - 1;
            check_ok(f32_unary::SOURCE, "f32_unary", &[arg(&xs), arg(k)], f32_unary(&xs, k), float_tol(exact, F32_MATH_TOL));
            let got = f32_unary(&xs, k).unwrap().to_vec();
            for (x, g) in xs.to_vec().into_iter().zip(got) {
                assert_close(&format!("f32 #{k}"), x, g, f32_unary_ref(x, k), exact);
            }
            check_ok(f64_unary::SOURCE, "f64_unary", &[arg(&ys), arg(k)], f64_unary(&ys, k), float_tol(exact, F64_MATH_TOL));
            let got = f64_unary(&ys, k).unwrap().to_vec();
            for (y, g) in ys.to_vec().into_iter().zip(got) {
                assert_close(&format!("f64 #{k}"), y, g, f64_unary_ref(y, k), exact);
            }
        }
    }

    #[test]
    fn float_classify_and_bits(xs in vector(wild_f32(), 60), ys in vector(wild_f64(), 60), us in vector(any::<u32>(), 60), ls in vector(any::<u64>(), 60)) {
        check_ok(f32_classify::SOURCE, "f32_classify", &[arg(&xs)], f32_classify(&xs), EXACT);
        let want: Vec<_> = xs.to_vec().into_iter().map(|x| (
            (x.is_nan(), x.is_infinite(), x.is_finite()),
            (x.is_sign_negative(), x.is_sign_positive(), x.is_normal()),
            x.to_bits(),
        )).collect();
        prop_assert_eq!(f32_classify(&xs).unwrap().to_vec(), want);
        check_ok(f64_classify::SOURCE, "f64_classify", &[arg(&ys)], f64_classify(&ys), EXACT);
        let want: Vec<_> = ys.to_vec().into_iter().map(|x| (
            (x.is_nan(), x.is_infinite(), x.is_finite()),
            (x.is_sign_negative(), x.is_sign_positive(), x.is_normal()),
            x.to_bits(),
        )).collect();
        prop_assert_eq!(f64_classify(&ys).unwrap().to_vec(), want);
        check_ok(from_bits::SOURCE, "from_bits", &[arg(&us), arg(&ls)], from_bits(&us, &ls), EXACT);
        let (f, d) = from_bits(&us, &ls).unwrap();
        let fb: Vec<u32> = f.to_vec().into_iter().map(f32::to_bits).collect();
        let db: Vec<u64> = d.to_vec().into_iter().map(f64::to_bits).collect();
        prop_assert_eq!(fb, us.to_vec());
        prop_assert_eq!(db, ls.to_vec());
    }
}

// =============================================================================
// Float methods of two and three arguments
// =============================================================================

const FLOAT_BINARY_N: u32 = 15;
const FLOAT_BINARY_EXACT: &[u32] = &[4, 5, 6, 11, 12, 13, 14];

/// `min`/`max` (#4, #5, #13) of +0.0 and -0.0 may return either zero (Rust's
/// documentation; rustc's constant folding and its run-time code differ), so
/// the sign of such a result is not compared.
fn zero_pair(k: u32, both_zero: bool) -> bool {
    matches!(k, 4 | 5 | 13) && both_zero
}

#[acc]
fn f32_binary(xs: &Vector<f32>, ys: &Vector<f32>, k: u32) -> Vector<f32> {
    xs.zip_with(ys, |x, y| match k {
        0 => x.atan2(y),
        1 => x.powf(y),
        2 => x.hypot(y),
        3 => x.log(y),
        4 => x.min(y),
        5 => x.max(y),
        6 => x.copysign(y),
        7 => x.div_euclid(y),
        8 => x.rem_euclid(y),
        9 => x.powi(y as i32),
        10 => x.mul_add(y, 0.5),
        11 => x.clamp(y.min(1.0), 1.0f32.max(y)),
        12 => x.clamp(y, 1.0),
        13 => f32::max(x, y) - f32::min(x, 1.5),
        _ => x % y,
    })
}

/// `clamp` as accel defines it (Rust's, without the panic for `lo > hi`).
fn clamp_ref<T: PartialOrd>(x: T, lo: T, hi: T) -> T {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}

fn f32_binary_ref(x: f32, y: f32, k: u32) -> f32 {
    match k {
        0 => x.atan2(y),
        1 => x.powf(y),
        2 => x.hypot(y),
        3 => x.log(y),
        4 => x.min(y),
        5 => x.max(y),
        6 => x.copysign(y),
        7 => x.div_euclid(y),
        8 => x.rem_euclid(y),
        9 => x.powi(y as i32),
        10 => x.mul_add(y, 0.5),
        11 => {
            let (lo, hi) = (y.min(1.0), 1.0f32.max(y));
            if lo.is_nan() || hi.is_nan() {
                clamp_ref(x, lo, hi)
            } else {
                x.clamp(lo, hi)
            }
        }
        12 => clamp_ref(x, y, 1.0),
        13 => x.max(y) - x.min(1.5),
        _ => x % y,
    }
}

#[acc]
fn f64_binary(xs: &Vector<f64>, ys: &Vector<f64>, k: u32) -> Vector<f64> {
    xs.zip_with(ys, |x, y| match k {
        0 => x.atan2(y),
        1 => x.powf(y),
        2 => x.hypot(y),
        3 => x.log(y),
        4 => x.min(y),
        5 => x.max(y),
        6 => x.copysign(y),
        7 => x.div_euclid(y),
        8 => x.rem_euclid(y),
        9 => x.powi(y as i32),
        10 => x.mul_add(y, 0.5),
        11 => x.clamp(y.min(1.0), 1.0f64.max(y)),
        12 => x.clamp(y, 1.0),
        13 => f64::max(x, y) - f64::min(x, 1.5),
        _ => x % y,
    })
}

fn f64_binary_ref(x: f64, y: f64, k: u32) -> f64 {
    match k {
        0 => x.atan2(y),
        1 => x.powf(y),
        2 => x.hypot(y),
        3 => x.log(y),
        4 => x.min(y),
        5 => x.max(y),
        6 => x.copysign(y),
        7 => x.div_euclid(y),
        8 => x.rem_euclid(y),
        9 => x.powi(y as i32),
        10 => x.mul_add(y, 0.5),
        11 => clamp_ref(x, y.min(1.0), 1.0f64.max(y)),
        12 => clamp_ref(x, y, 1.0),
        13 => x.max(y) - x.min(1.5),
        _ => x % y,
    }
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn float_binary(xy in vector((wild_f32(), wild_f32()), 40), ab in vector((wild_f64(), wild_f64()), 40)) {
        let (xs, ys): (Vec<f32>, Vec<f32>) = xy.to_vec().into_iter().unzip();
        let (xs, ys) = (Vector::from(xs), Vector::from(ys));
        let (as_, bs): (Vec<f64>, Vec<f64>) = ab.to_vec().into_iter().unzip();
        let (as_, bs) = (Vector::from(as_), Vector::from(bs));
        for k in 0..FLOAT_BINARY_N {
            let exact = FLOAT_BINARY_EXACT.contains(&k);
            check_ok(f32_binary::SOURCE, "f32_binary", &[arg(&xs), arg(&ys), arg(k)], f32_binary(&xs, &ys, k), float_tol(exact, F32_MATH_TOL));
            let got = f32_binary(&xs, &ys, k).unwrap().to_vec();
            for ((x, y), g) in xs.to_vec().into_iter().zip(ys.to_vec()).zip(got) {
                assert_close(&format!("f32 #{k}"), (x, y), g, f32_binary_ref(x, y, k), exact && !zero_pair(k, x == 0.0 && y == 0.0));
            }
            check_ok(f64_binary::SOURCE, "f64_binary", &[arg(&as_), arg(&bs), arg(k)], f64_binary(&as_, &bs, k), float_tol(exact, F64_MATH_TOL));
            let got = f64_binary(&as_, &bs, k).unwrap().to_vec();
            for ((x, y), g) in as_.to_vec().into_iter().zip(bs.to_vec()).zip(got) {
                assert_close(&format!("f64 #{k}"), (x, y), g, f64_binary_ref(x, y, k), exact && !zero_pair(k, x == 0.0 && y == 0.0));
            }
        }
    }
}

// =============================================================================
// Integer methods
// =============================================================================

/// accel's `div_euclid`/`rem_euclid`: Rust's where Rust does not panic; by zero
/// `0` and the dividend; `MIN.div_euclid(-1)` wraps.
macro_rules! euclid_ref {
    ($x:expr, $y:expr, div) => {
        if $y == 0 {
            0
        } else {
            $x.checked_div_euclid($y).unwrap_or($x.wrapping_div_euclid($y))
        }
    };
    ($x:expr, $y:expr, rem) => {
        if $y == 0 {
            $x
        } else {
            $x.checked_rem_euclid($y).unwrap_or(0)
        }
    };
}

/// A program over one integer type: methods selected by `k`, all returning
/// the same type; and the counting methods, returning `u32`.
macro_rules! int_family {
    ($t:ty, $strategy:expr, $prog:ident, $reference:ident, $n:expr) => {
        fn $reference(x: $t, y: $t, k: u32) -> $t {
            match k {
                0 => x.wrapping_add(y),
                1 => x.wrapping_sub(y),
                2 => x.wrapping_mul(y),
                3 => x.saturating_add(y),
                4 => x.saturating_sub(y),
                5 => x.saturating_mul(y),
                6 => euclid_ref!(x, y, div),
                7 => euclid_ref!(x, y, rem),
                8 => x.min(y),
                9 => x.max(y),
                10 => x.wrapping_pow(y as u32),
                11 => x.rotate_left(y as u32),
                12 => x.rotate_right(y as u32),
                13 => x.clamp(y.min(7), y.max(7)),
                14 => clamp_ref(x, y, 7),
                15 => x.abs_diff(y) as $t,
                16 => x.wrapping_neg(),
                17 => x.swap_bytes(),
                18 => x.reverse_bits(),
                19 => x.wrapping_pow(2) ^ x.wrapping_mul(x),
                20 => x.wrapping_mul(x),
                _ => (x.count_ones() as $t)
                    .wrapping_add((x.leading_zeros() as $t).wrapping_mul(3))
                    .wrapping_sub(x.trailing_ones() as $t),
            }
        }

        #[test]
        fn $prog() {
            #[acc]
            fn prog(xs: &Vector<$t>, ys: &Vector<$t>, k: u32) -> Vector<$t> {
                xs.zip_with(ys, |x, y| match k {
                    0 => x.wrapping_add(y),
                    1 => x.wrapping_sub(y),
                    2 => x.wrapping_mul(y),
                    3 => x.saturating_add(y),
                    4 => x.saturating_sub(y),
                    5 => x.saturating_mul(y),
                    6 => x.div_euclid(y),
                    7 => x.rem_euclid(y),
                    8 => x.min(y),
                    9 => x.max(y),
                    10 => x.pow(y as u32),
                    11 => x.rotate_left(y as u32),
                    12 => x.rotate_right(y as u32),
                    13 => x.clamp(y.min(7), y.max(7)),
                    14 => x.clamp(y, 7),
                    15 => x.abs_diff(y) as $t,
                    16 => x.wrapping_neg(),
                    17 => x.swap_bytes(),
                    18 => x.reverse_bits(),
                    // `x * x` wraps in accel, as `x.pow(2)` does.
                    19 => x.pow(2) ^ (x * x),
                    20 => x * x,
                    _ => (x.count_ones() as $t) + (x.leading_zeros() as $t) * 3 - x.trailing_ones() as $t,
                })
            }

            /// Division by a parameter: its reciprocal computed once.
            #[acc]
            fn by_divisor(xs: &Vector<$t>, d: $t) -> Vector<($t, $t)> {
                xs.map(|x| (x / d, x % d))
            }

            #[acc]
            fn counts(xs: &Vector<$t>) -> Vector<(u32, u32, u32, u32, (u32, u32))> {
                xs.map(|x| {
                    (
                        x.count_ones(),
                        x.count_zeros(),
                        x.leading_zeros(),
                        x.trailing_zeros(),
                        (x.leading_ones(), x.trailing_ones()),
                    )
                })
            }

            let strategy = vector(($strategy, $strategy), 50);
            let edges = [<$t>::MIN, <$t>::MAX, 0, 1, (0 as $t).wrapping_sub(1), 2, 7];
            let mut runner = proptest::test_runner::TestRunner::new(cfg());
            runner
                .run(&strategy, |xy| {
                    let mut pairs = xy.to_vec();
                    for a in edges {
                        for b in edges {
                            pairs.push((a, b));
                        }
                    }
                    let (xs, ys): (Vec<$t>, Vec<$t>) = pairs.into_iter().unzip();
                    let (xs, ys) = (Vector::from(xs), Vector::from(ys));
                    for k in 0..$n {
                        check_ok(
                            prog::SOURCE,
                            "prog",
                            &[arg(&xs), arg(&ys), arg(k)],
                            prog(&xs, &ys, k),
                            EXACT,
                        );
                        let got = prog(&xs, &ys, k).unwrap().to_vec();
                        for ((x, y), g) in xs.to_vec().into_iter().zip(ys.to_vec()).zip(got) {
                            assert_eq!(g, $reference(x, y, k), "{}: #{k}({x}, {y})", stringify!($t));
                        }
                    }
                    for d in edges.into_iter().chain(ys.to_vec().into_iter().take(3)) {
                        let args = [arg(&xs), arg(d)];
                        check_ok(
                            by_divisor::SOURCE,
                            "by_divisor",
                            &args,
                            by_divisor(&xs, d),
                            EXACT,
                        );
                        let got = by_divisor(&xs, d).unwrap().to_vec();
                        for (x, g) in xs.to_vec().into_iter().zip(got) {
                            let want = if d == 0 {
                                (0, x)
                            } else {
                                (x.wrapping_div(d), x.wrapping_rem(d))
                            };
                            assert_eq!(g, want, "{}: {x} / {d}", stringify!($t));
                        }
                    }
                    check_ok(counts::SOURCE, "counts", &[arg(&xs)], counts(&xs), EXACT);
                    let want: Vec<_> = xs
                        .to_vec()
                        .into_iter()
                        .map(|x| {
                            (
                                x.count_ones(),
                                x.count_zeros(),
                                x.leading_zeros(),
                                x.trailing_zeros(),
                                (x.leading_ones(), x.trailing_ones()),
                            )
                        })
                        .collect();
                    assert_eq!(counts(&xs).unwrap().to_vec(), want);
                    Ok(())
                })
                .unwrap();
        }
    };
}

int_family!(i8, any_i8(), int_methods_i8, i8_ref, 22u32);
int_family!(i32, any_i32(), int_methods_i32, i32_ref, 22u32);
int_family!(i64, any_i64(), int_methods_i64, i64_ref, 22u32);
int_family!(u8, any_u8(), int_methods_u8, u8_ref, 22u32);
int_family!(u32, any_u32(), int_methods_u32, u32_ref, 22u32);
int_family!(u64, any_u64(), int_methods_u64, u64_ref, 22u32);
int_family!(usize, any::<usize>(), int_methods_usize, usize_ref, 22u32);

/// The methods of signed integers only, and those of a different result type.
#[acc]
fn signed_only(xs: &Vector<i16>, ys: &Vector<i16>) -> Vector<(i16, i16, (bool, bool), u16)> {
    xs.zip_with(ys, |x, y| {
        (
            x.signum(),
            x.abs(),
            (x.is_positive(), x.is_negative()),
            x.abs_diff(y),
        )
    })
}

#[acc]
fn unsigned_only(xs: &Vector<u16>) -> Vector<bool> {
    xs.map(|x| x.is_power_of_two())
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn int_methods_by_type(xy in vector((any::<i16>(), any::<i16>()), 60), us in vector(any::<u16>(), 60)) {
        let mut pairs = xy.to_vec();
        pairs.extend([(i16::MIN, i16::MAX), (i16::MAX, i16::MIN), (i16::MIN, -1), (0, 0), (-1, 1)]);
        let (xs, ys): (Vec<i16>, Vec<i16>) = pairs.into_iter().unzip();
        let (xs, ys) = (Vector::from(xs), Vector::from(ys));
        check_ok(signed_only::SOURCE, "signed_only", &[arg(&xs), arg(&ys)], signed_only(&xs, &ys), EXACT);
        let want: Vec<_> = xs.to_vec().into_iter().zip(ys.to_vec()).map(|(x, y)| {
            (x.signum(), x.wrapping_abs(), (x.is_positive(), x.is_negative()), x.abs_diff(y))
        }).collect();
        prop_assert_eq!(signed_only(&xs, &ys).unwrap().to_vec(), want);
        check_ok(unsigned_only::SOURCE, "unsigned_only", &[arg(&us)], unsigned_only(&us), EXACT);
        let want: Vec<bool> = us.to_vec().into_iter().map(u16::is_power_of_two).collect();
        prop_assert_eq!(unsigned_only(&us).unwrap().to_vec(), want);
    }

    #[test]
    fn int_path_calls(xs in vector(any_i32(), 60)) {
        check_ok(path_calls::SOURCE, "path_calls", &[arg(&xs)], path_calls(&xs), EXACT);
        let want: Vec<i32> = xs.to_vec().into_iter().map(|x| i32::wrapping_add(x, 7).max(i32::min(x, 3))).collect();
        prop_assert_eq!(path_calls(&xs).unwrap().to_vec(), want);
    }
}

#[acc]
fn path_calls(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| i32::wrapping_add(x, 7).max(core::primitive::i32::min(x, 3)))
}

// =============================================================================
// min and max on tuples, clamp on scalars
// =============================================================================

#[acc]
fn tuple_min_max(xs: &Vector<(i32, u8)>, ys: &Vector<(i32, u8)>) -> Vector<((i32, u8), (i32, u8))> {
    xs.zip_with(ys, |a, b| (a.min(b), a.max(b)))
}

#[acc]
fn tuple3_min_max(xs: &Vector<(bool, (i8, u64), i16)>) -> Scalar<(bool, (i8, u64), i16)> {
    xs.fold1(|a, b| a.max(b))
        .zip_with(&xs.fold1(|a, b| a.min(b)), |x, y| x.min(y))
}

/// Floats in tuples: Rust's `PartialOrd` order (`NaN` compares false).
#[acc]
fn tuple_float_min(xs: &Vector<(f32, i32)>, ys: &Vector<(f32, i32)>) -> Vector<((f32, i32), (f32, i32))> {
    xs.zip_with(ys, |a, b| (a.min(b), a.max(b)))
}

/// The argmin of a vector: the first index of the least element.
#[acc]
fn argmin(xs: &Vector<i64>) -> Scalar<(i64, usize)> {
    generate(xs.shape(), |[i]| (xs[[i]], i)).fold1(|a, b| a.min(b))
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn tuples_lexicographic(
        pairs in vector(((-3i32..3, 0u8..3), (-3i32..3, 0u8..3)), 60),
        triples in nonempty((any::<bool>(), (-2i8..2, 0u64..3), -2i16..2), 40),
        fl in vector(((wild_f32(), -2i32..2), (wild_f32(), -2i32..2)), 40),
        ls in nonempty(-5i64..5, 50),
    ) {
        let (xs, ys): (Vec<_>, Vec<_>) = pairs.to_vec().into_iter().unzip();
        let (xs, ys) = (Vector::from(xs), Vector::from(ys));
        check_ok(tuple_min_max::SOURCE, "tuple_min_max", &[arg(&xs), arg(&ys)], tuple_min_max(&xs, &ys), EXACT);
        let want: Vec<_> = xs.to_vec().into_iter().zip(ys.to_vec()).map(|(a, b)| (a.min(b), a.max(b))).collect();
        prop_assert_eq!(tuple_min_max(&xs, &ys).unwrap().to_vec(), want);

        check_ok(tuple3_min_max::SOURCE, "tuple3_min_max", &[arg(&triples)], tuple3_min_max(&triples), EXACT);
        let t = triples.to_vec();
        let mx = t.iter().copied().reduce(|a, b| a.max(b)).unwrap();
        let mn = t.iter().copied().reduce(|a, b| a.min(b)).unwrap();
        prop_assert_eq!(tuple3_min_max(&triples).unwrap().value(), mx.min(mn));

        let (fa, fb): (Vec<_>, Vec<_>) = fl.to_vec().into_iter().unzip();
        let (fa, fb) = (Vector::from(fa), Vector::from(fb));
        check_ok(tuple_float_min::SOURCE, "tuple_float_min", &[arg(&fa), arg(&fb)], tuple_float_min(&fa, &fb), EXACT);
        let got = tuple_float_min(&fa, &fb).unwrap().to_vec();
        for ((a, b), (mn, mx)) in fa.to_vec().into_iter().zip(fb.to_vec()).zip(got) {
            let (wmn, wmx) = if b < a { (b, a) } else { (a, b) };
            prop_assert!(close(mn.0 as f64, wmn.0 as f64, true) && mn.1 == wmn.1, "min {:?} {:?}", a, b);
            prop_assert!(close(mx.0 as f64, wmx.0 as f64, true) && mx.1 == wmx.1, "max {:?} {:?}", a, b);
        }

        check_ok(argmin::SOURCE, "argmin", &[arg(&ls)], argmin(&ls), EXACT);
        let v = ls.to_vec();
        let want = v.iter().copied().zip(0..).min().unwrap();
        prop_assert_eq!(argmin(&ls).unwrap().value(), want);
    }
}

// =============================================================================
// match
// =============================================================================

#[acc]
fn classify(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| match x {
        i32::MIN..=-1000 => 0,
        -999..0 => 1,
        0 => 2,
        1 | 2 | 3 => 3,
        4..=10 if x % 2 == 0 => 4,
        n @ 4..=100 => n * 2,
        ..=1000 => 6,
        n if n > 5000 => n - 1,
        n => {
            let m = n + 1;
            m * 3
        }
    })
}

fn classify_ref(x: i32) -> i32 {
    match x {
        i32::MIN..=-1000 => 0,
        -999..=-1 => 1,
        0 => 2,
        1..=3 => 3,
        4..=10 if x % 2 == 0 => 4,
        n @ 4..=100 => n * 2,
        ..=1000 => 6,
        n if n > 5000 => n - 1,
        n => (n + 1) * 3,
    }
}

/// Exhaustive without `_`: bool with both arms, and ranges covering `u8`.
#[acc]
fn exhaustive(xs: &Vector<u8>, bs: &Vector<bool>) -> Vector<(u8, f32)> {
    xs.zip_with(bs, |x, b| {
        let r: u8 = match x {
            0..=99 => 0,
            100..200 => 1,
            200..=u8::MAX => 2,
        };
        let f: f32 = match b {
            true => 0.5,
            false => match r {
                0 => 1.5,
                _ => 2.5,
            },
        };
        (r, f)
    })
}

/// Full-range scrutinees: `u64` and `i64` edge values, unsuffixed arms.
#[acc]
fn wide(xs: &Vector<u64>, ys: &Vector<i64>) -> Vector<(i8, i8)> {
    xs.zip_with(ys, |x, y| {
        (
            match x {
                u64::MAX => 1,
                0 | 1 => 2,
                9_223_372_036_854_775_808..=18_446_744_073_709_551_614 => 3,
                _ => 4,
            },
            match y {
                i64::MIN => -1,
                i64::MIN..=-1 => -2,
                0 => 0,
                1.. => 5,
            },
        )
    })
}

fn wide_ref(x: u64, y: i64) -> (i8, i8) {
    (
        match x {
            u64::MAX => 1,
            0 | 1 => 2,
            9_223_372_036_854_775_808..=18_446_744_073_709_551_614 => 3,
            _ => 4,
        },
        match y {
            i64::MIN => -1,
            i64::MIN..=-1 => -2,
            0 => 0,
            1.. => 5,
        },
    )
}

/// `match` at the host level (on a scalar parameter), choosing a shape.
#[acc]
fn host_match(n: i32, xs: &Vector<f32>) -> Vector<f32> {
    let m = match n {
        ..=0 => 0usize,
        1..=3 => 2,
        _ => 5,
    };
    let c = match n % 3 {
        0 => std::f32::consts::PI,
        1 | -1 => f32::EPSILON,
        _ => 1.0,
    };
    generate([m], |[i]| i as f32 * c).zip_with(xs, |a, b| a + b)
}

/// `match` statements assigning mutable variables, in a loop.
#[acc]
fn match_steps(xs: &Vector<u32>) -> Vector<(u32, u32)> {
    xs.map(|x0| {
        let mut x = x0 % 1000;
        let mut steps = 0u32;
        let mut odd = 0u32;
        while x > 1 && steps < 200 {
            match x % 2 {
                0 => x /= 2,
                _ => {
                    x = 3 * x + 1;
                    odd += 1;
                }
            }
            match steps {
                7 | 11 => odd += 100,
                _ => {}
            }
            steps += 1;
        }
        (steps, odd)
    })
}

fn match_steps_ref(x0: u32) -> (u32, u32) {
    let (mut x, mut steps, mut odd) = (x0 % 1000, 0u32, 0u32);
    while x > 1 && steps < 200 {
        if x % 2 == 0 {
            x /= 2;
        } else {
            x = 3 * x + 1;
            odd += 1;
        }
        if steps == 7 || steps == 11 {
            odd += 100;
        }
        steps += 1;
    }
    (steps, odd)
}

/// Loops reading arrays at their counter up to a bound that is data: the
/// CPU back end tests the bound against the arrays once before each loop and
/// then reads without checks; a bound past the end is an error, as in the
/// interpreter. `window` reads at the outer counter inside the inner loop.
#[acc]
fn counted(xs: &Vector<i32>, ends: &Vector<u32>) -> Vector<(i32, i32)> {
    ends.map(|e| {
        let hi = e as usize;
        let mut k = 0usize;
        let mut s = 0i32;
        while k < hi {
            s = s.wrapping_add(xs[[k]]);
            k += 1;
        }
        let mut i = 0usize;
        let mut window = 0i32;
        while i < hi {
            let mut j = 0usize;
            while j < 2 {
                window = window.wrapping_add(xs[[i]].wrapping_mul(j as i32 + 1));
                j += 1;
            }
            i += 2;
        }
        (s, window)
    })
}

/// Three nested loops, each reading at its own counter: the outer two are
/// emitted in two versions, the innermost (inside both) in one.
#[acc]
fn counted3(xs: &Vector<u32>, n: usize) -> Vector<u32> {
    generate([1], |_| {
        let mut total = 0u32;
        let mut i = 0usize;
        while i < n {
            let mut j = 0usize;
            while j < i {
                let mut k = 0usize;
                while k < j {
                    total = total.wrapping_add(xs[[i]] ^ xs[[j]].wrapping_mul(3) ^ xs[[k]].wrapping_mul(7));
                    k += 1;
                }
                j += 1;
            }
            i += 1;
        }
        total
    })
}

fn counted3_ref(xs: &[u32], n: usize) -> Option<u32> {
    if n > xs.len() && n >= 3 {
        return None;
    }
    let mut total = 0u32;
    for i in 0..n {
        for j in 0..i {
            for k in 0..j {
                total = total.wrapping_add(xs[i] ^ xs[j].wrapping_mul(3) ^ xs[k].wrapping_mul(7));
            }
        }
    }
    Some(total)
}

fn counted_ref(xs: &[i32], e: u32) -> Option<(i32, i32)> {
    let hi = e as usize;
    if hi > xs.len() {
        return None;
    }
    let s = xs[..hi].iter().fold(0i32, |a, x| a.wrapping_add(*x));
    let window = xs[..hi]
        .iter()
        .step_by(2)
        .fold(0i32, |a, x| a.wrapping_add(x.wrapping_mul(3)));
    Some((s, window))
}

/// Unsuffixed literals in an `else if` chain take the type of the branch that
/// has one, wherever it is; a chain of literals only is `f64`, as in Rust.
#[acc]
fn literal_chains(xs: &Vector<f32>) -> Vector<(f32, f32, f32, f64)> {
    xs.map(|x| {
        let first = if x > 1.0 {
            0.0f32
        } else if x > 0.5 {
            1.0
        } else {
            0.5
        };
        let middle = if x > 1.0 {
            0.0
        } else if x > 0.5 {
            1.0f32
        } else {
            0.5
        };
        let last = match x > 2.0 {
            true => 3.0,
            false => {
                if x > 0.0 {
                    2.0
                } else {
                    1.0f32
                }
            }
        };
        let none = if x > 1.0 {
            0.25
        } else if x > 0.5 {
            0.5
        } else {
            0.75
        };
        (first, middle, last, none)
    })
}

fn literal_chains_ref(x: f32) -> (f32, f32, f32, f64) {
    let pick = |a, b, c| {
        if x > 1.0 {
            a
        } else if x > 0.5 {
            b
        } else {
            c
        }
    };
    let last = if x > 2.0 {
        3.0
    } else if x > 0.0 {
        2.0
    } else {
        1.0
    };
    (
        pick(0.0, 1.0, 0.5),
        pick(0.0, 1.0, 0.5),
        last,
        pick(0.25f32, 0.5, 0.75) as f64,
    )
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn counted_loops(xs in vector(any::<i32>(), 40), ends in vector(0u32..48, 12)) {
        let got = check_pools(counted::SOURCE, "counted", &[arg(&xs), arg(&ends)], || counted(&xs, &ends), EXACT);
        let want: Option<Vec<(i32, i32)>> = ends.to_vec().into_iter().map(|e| counted_ref(&xs.to_vec(), e)).collect();
        match want {
            Some(want) => prop_assert_eq!(counted(&xs, &ends).unwrap().to_vec(), want),
            None => prop_assert_eq!(got.err(), Some(accel::ErrorKind::IndexOutOfBounds)),
        }
    }

    #[test]
    fn counted_nests(xs in vector(any::<u32>(), 20), n in 0usize..24) {
        let got = check_pools(counted3::SOURCE, "counted3", &[arg(&xs), arg(n)], || counted3(&xs, n), EXACT);
        match counted3_ref(&xs.to_vec(), n) {
            Some(want) => prop_assert_eq!(counted3(&xs, n).unwrap().to_vec(), vec![want]),
            None => prop_assert_eq!(got.err(), Some(accel::ErrorKind::IndexOutOfBounds)),
        }
    }

    #[test]
    fn literals_in_branch_chains(xs in vector(-3.0f32..3.0, 40)) {
        check_ok(literal_chains::SOURCE, "literal_chains", &[arg(&xs)], literal_chains(&xs), EXACT);
        let want: Vec<_> = xs.to_vec().into_iter().map(literal_chains_ref).collect();
        prop_assert_eq!(literal_chains(&xs).unwrap().to_vec(), want);
    }

    #[test]
    fn match_statements(xs in vector(any::<u32>(), 40)) {
        check_ok(match_steps::SOURCE, "match_steps", &[arg(&xs)], match_steps(&xs), EXACT);
        let want: Vec<_> = xs.to_vec().into_iter().map(match_steps_ref).collect();
        prop_assert_eq!(match_steps(&xs).unwrap().to_vec(), want);
    }

    #[test]
    fn match_patterns(
        xs in vector(prop_oneof![any_i32(), -1200i32..1200, 4990i32..5010], 80),
        us in vector(any_u8(), 50),
        bs in vector(any::<bool>(), 50),
        ws in vector(any_u64(), 50),
        is in vector(any_i64(), 50),
        n in -3i32..8,
        fs in vector(-10.0f32..10.0, 8),
    ) {
        check_ok(classify::SOURCE, "classify", &[arg(&xs)], classify(&xs), EXACT);
        let want: Vec<i32> = xs.to_vec().into_iter().map(classify_ref).collect();
        prop_assert_eq!(classify(&xs).unwrap().to_vec(), want);

        let k = us.len().min(bs.len());
        let us = Vector::from(us.to_vec()[..k].to_vec());
        let bs = Vector::from(bs.to_vec()[..k].to_vec());
        check_ok(exhaustive::SOURCE, "exhaustive", &[arg(&us), arg(&bs)], exhaustive(&us, &bs), EXACT);
        let want: Vec<(u8, f32)> = us.to_vec().into_iter().zip(bs.to_vec()).map(|(x, b)| {
            let r = x / 100;
            (r, if b { 0.5 } else if r == 0 { 1.5 } else { 2.5 })
        }).collect();
        prop_assert_eq!(exhaustive(&us, &bs).unwrap().to_vec(), want);

        let k = ws.len().min(is.len());
        let ws = Vector::from(ws.to_vec()[..k].to_vec());
        let is = Vector::from(is.to_vec()[..k].to_vec());
        check_ok(wide::SOURCE, "wide", &[arg(&ws), arg(&is)], wide(&ws, &is), EXACT);
        let want: Vec<_> = ws.to_vec().into_iter().zip(is.to_vec()).map(|(x, y)| wide_ref(x, y)).collect();
        prop_assert_eq!(wide(&ws, &is).unwrap().to_vec(), want);

        check_ok(host_match::SOURCE, "host_match", &[arg(n), arg(&fs)], host_match(n, &fs), EXACT);
        let m = if n <= 0 { 0 } else if n <= 3 { 2 } else { 5 };
        let c = match n % 3 { 0 => std::f32::consts::PI, 1 | -1 => f32::EPSILON, _ => 1.0 };
        let want: Vec<f32> = fs.to_vec().into_iter().take(m).enumerate().map(|(i, b)| i as f32 * c + b).collect();
        prop_assert_eq!(host_match(n, &fs).unwrap().to_vec(), want);
    }
}

// =============================================================================
// Constants
// =============================================================================

#[acc]
fn float_consts(n: usize) -> (Vector<f32>, Vector<f64>) {
    (
        generate([n], |[i]| match i {
            0 => f32::consts::PI,
            1 => std::f32::consts::TAU,
            2 => core::f32::consts::E,
            3 => f32::consts::SQRT_2,
            4 => f32::consts::FRAC_1_SQRT_2,
            5 => f32::consts::LN_2,
            6 => f32::consts::LN_10,
            7 => f32::consts::LOG2_E,
            8 => f32::consts::LOG2_10,
            9 => f32::consts::LOG10_E,
            10 => f32::consts::LOG10_2,
            11 => f32::consts::FRAC_PI_2,
            12 => f32::consts::FRAC_PI_3,
            13 => f32::consts::FRAC_PI_4,
            14 => f32::consts::FRAC_PI_6,
            15 => f32::consts::FRAC_PI_8,
            16 => f32::consts::FRAC_1_PI,
            17 => f32::consts::FRAC_2_PI,
            18 => f32::consts::FRAC_2_SQRT_PI,
            19 => f32::MAX,
            20 => f32::MIN,
            21 => f32::MIN_POSITIVE,
            22 => f32::EPSILON,
            23 => f32::INFINITY,
            24 => f32::NEG_INFINITY,
            25 => f32::NAN,
            _ => std::f32::MAX_EXP as f32 + f32::MANTISSA_DIGITS as f32,
        }),
        generate([n], |[i]| match i {
            0 => std::f64::consts::PI,
            1 => f64::consts::TAU,
            2 => core::f64::consts::E,
            3 => f64::consts::SQRT_2,
            4 => f64::consts::FRAC_2_SQRT_PI,
            5 => f64::MAX,
            6 => f64::MIN,
            7 => f64::MIN_POSITIVE,
            8 => f64::EPSILON,
            9 => f64::NEG_INFINITY,
            10 => f64::NAN,
            _ => f64::MIN_10_EXP as f64,
        }),
    )
}

#[acc]
fn int_consts(n: usize) -> Vector<i64> {
    generate([n], |[i]| match i {
        0 => i32::MAX as i64,
        1 => i32::MIN as i64,
        2 => u8::MIN as i64,
        3 => u8::MAX as i64,
        4 => i64::MIN,
        5 => i64::MAX,
        6 => u64::MAX as i64,
        7 => i8::MIN as i64,
        8 => u16::MAX as i64,
        9 => usize::MAX as i64,
        10 => u32::BITS as i64,
        11 => i16::MIN as i64 + std::primitive::i16::MAX as i64,
        _ => u32::MAX as i64,
    })
}

#[test]
fn constants() {
    let n = 30;
    check_ok(
        float_consts::SOURCE,
        "float_consts",
        &[arg(n)],
        float_consts(n),
        EXACT,
    );
    let (f, d) = float_consts(n).unwrap();
    use std::f32::consts as c32;
    use std::f64::consts as c64;
    let mut want32 = vec![
        c32::PI,
        c32::TAU,
        c32::E,
        c32::SQRT_2,
        c32::FRAC_1_SQRT_2,
        c32::LN_2,
        c32::LN_10,
        c32::LOG2_E,
        c32::LOG2_10,
        c32::LOG10_E,
        c32::LOG10_2,
        c32::FRAC_PI_2,
        c32::FRAC_PI_3,
        c32::FRAC_PI_4,
        c32::FRAC_PI_6,
        c32::FRAC_PI_8,
        c32::FRAC_1_PI,
        c32::FRAC_2_PI,
        c32::FRAC_2_SQRT_PI,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        f32::EPSILON,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    want32.resize(n, f32::MAX_EXP as f32 + f32::MANTISSA_DIGITS as f32);
    let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect::<Vec<_>>();
    assert_eq!(bits(f.to_vec()), bits(want32));
    let mut want64 = vec![
        c64::PI,
        c64::TAU,
        c64::E,
        c64::SQRT_2,
        c64::FRAC_2_SQRT_PI,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    want64.resize(n, f64::MIN_10_EXP as f64);
    let bits = |v: Vec<f64>| v.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    assert_eq!(bits(d.to_vec()), bits(want64));

    check_ok(int_consts::SOURCE, "int_consts", &[arg(n)], int_consts(n), EXACT);
    let mut want = vec![
        i32::MAX as i64,
        i32::MIN as i64,
        0,
        255,
        i64::MIN,
        i64::MAX,
        -1,
        -128,
        65535,
        -1,
        32,
        -1,
    ];
    want.resize(n, u32::MAX as i64);
    assert_eq!(int_consts(n).unwrap().to_vec(), want);
}

// =============================================================================
// The examples of docs/draft-scalar.md
// =============================================================================

#[acc]
fn doc_bits(xs: &Vector<f32>) -> Vector<(u32, bool)> {
    xs.map(|x| (x.to_bits().count_ones(), x.is_finite() && x.fract() == 0.0))
}

#[acc]
fn doc_hash(xs: &Vector<u32>) -> Vector<u32> {
    xs.map(|x| (x ^ 0x9E37_79B9).wrapping_mul(0x85EB_CA6B).rotate_left(13))
}

#[acc]
fn doc_to_angle(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| (x * std::f32::consts::TAU).min(f32::MAX))
}

#[acc]
fn doc_classify(xs: &Vector<i32>) -> Vector<u8> {
    xs.map(|x| match x {
        i32::MIN..=-1 => 0,
        0 => 1,
        1 | 2 | 3 => 2,
        4..=10 if x % 2 == 0 => 3,
        n @ 11..100 => (n % 7) as u8,
        _ => 9,
    })
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn doc_examples(fs in vector(wild_f32(), 40), us in vector(any::<u32>(), 40), is in vector(-5i32..120, 40)) {
        check_ok(doc_bits::SOURCE, "doc_bits", &[arg(&fs)], doc_bits(&fs), EXACT);
        let want: Vec<_> = fs.to_vec().into_iter().map(|x| (x.to_bits().count_ones(), x.is_finite() && x.fract() == 0.0)).collect();
        prop_assert_eq!(doc_bits(&fs).unwrap().to_vec(), want);
        check_ok(doc_hash::SOURCE, "doc_hash", &[arg(&us)], doc_hash(&us), EXACT);
        let want: Vec<u32> = us.to_vec().into_iter().map(|x| (x ^ 0x9E37_79B9).wrapping_mul(0x85EB_CA6B).rotate_left(13)).collect();
        prop_assert_eq!(doc_hash(&us).unwrap().to_vec(), want);
        check_ok(doc_to_angle::SOURCE, "doc_to_angle", &[arg(&fs)], doc_to_angle(&fs), EXACT);
        let got = doc_to_angle(&fs).unwrap().to_vec();
        for (x, g) in fs.to_vec().into_iter().zip(got) {
            assert_close("to_angle", x, g, (x * std::f32::consts::TAU).min(f32::MAX), true);
        }
        check_ok(doc_classify::SOURCE, "doc_classify", &[arg(&is)], doc_classify(&is), EXACT);
        let want: Vec<u8> = is.to_vec().into_iter().map(|x| match x {
            i32::MIN..=-1 => 0,
            0 => 1,
            1..=3 => 2,
            4..=10 if x % 2 == 0 => 3,
            n @ 11..=99 => (n % 7) as u8,
            _ => 9,
        }).collect();
        prop_assert_eq!(doc_classify(&is).unwrap().to_vec(), want);
    }
}

// =============================================================================
// Compile errors (the UI tests hold one of each kind with its span)
// =============================================================================

#[test]
fn misuse_is_a_compile_error() {
    let cases: &[(&str, &str)] = &[
        (
            "xs.map(|x| match x { 5..3 => 1, _ => 2 })",
            "range pattern is empty",
        ),
        (
            "xs.map(|x| match x { 5..5 => 1, _ => 2 })",
            "range pattern is empty",
        ),
        (
            "xs.map(|x| match x { 3_000_000_000 => 1, _ => 2 })",
            "out of range for `i32`",
        ),
        (
            "xs.map(|x| match x { 1u8 => 1, _ => 2 })",
            "expected `i32`, found `u8`",
        ),
        ("xs.map(|x| match x > 0 { true => 1 })", "`false` is not covered"),
        (
            "xs.map(|x| match x > 0 { 0..=1 => 1, _ => 2 })",
            "integer scrutinee, not `bool`",
        ),
        (
            "xs.map(|x| match x { a | 3 => 1, _ => 2 })",
            "bindings inside `|`",
        ),
        ("xs.map(|x| match x { ref a => a })", "`ref` bindings"),
        (
            "xs.map(|x| match x { (1, 2) => 1, _ => 2 })",
            "unsupported pattern",
        ),
        ("xs.map(|x| match x { 0 => 1, _ => 2.5 })", "mismatched types"),
        (
            "xs.map(|x| match x { i32::MAXX => 1, _ => 2 })",
            "unknown constant",
        ),
        (
            "xs.map(|x| match x { f32::MAX => 1, _ => 2 })",
            "constant of type `i32`",
        ),
        ("xs.map(|x| x.rotate_left(x))", "expected `u32`, found `i32`"),
        ("xs.map(|x| x.pow(2.0))", "floating-point literal"),
        (
            "xs.map(|x| (x as f32).pow(2) as i32)",
            "`pow` is defined on integers",
        ),
        (
            "xs.map(|x| (x as u32).abs() as i32)",
            "signed integers and floats",
        ),
        ("xs.map(|x| x.is_power_of_two() as i32)", "unsigned integers"),
        ("xs.map(|x| x.is_nan() as i32)", "defined on floats"),
        ("xs.map(|x| x.clamp(1) )", "takes 2 arguments but 1 was given"),
        ("xs.map(|x| x.from_bits())", "no method `from_bits`"),
        (
            "xs.map(|x| f32::from_bits(x) as i32)",
            "expected `u32`, found `i32`",
        ),
        (
            "xs.map(|x| i32::from_bits(x))",
            "no function `from_bits` on `i32`",
        ),
        ("xs.map(|x| i32::nosuch(x))", "no method `nosuch` on `i32`"),
        ("xs.map(|x| foo::bar(x))", "primitive methods"),
        ("xs.map(|x| i32::max())", "needs an argument"),
        ("xs.map(|x| x + bool::MAX)", "the constants of `bool` are: none"),
        ("xs.map(|x| x + std::mem::size_of)", "paths are not supported"),
        ("xs.map(|x| (x, x).min(x))", "mismatched types"),
        (
            "xs.map(|x| (x, x).clamp((0, 0), (1, 1)).0)",
            "tuples of scalars have `min` and `max`",
        ),
    ];
    for (body, want) in cases {
        let src = format!("fn f(xs: &Vector<i32>) -> Vector<i32> {{ {body} }}");
        match accel_core::compile_source(&src, "f") {
            Ok(_) => panic!("`{body}` compiled; expected an error containing {want:?}"),
            Err(e) => assert!(
                e.message.contains(want),
                "`{body}`: error {:?} does not contain {want:?}",
                e.message
            ),
        }
    }
}

/// Scalar code does not change fusion: a `match`, math methods and tuple
/// `min` inside producers and the reduction still make one kernel.
#[acc]
fn fused_scalar(xs: &Vector<i32>) -> Scalar<(i32, u32)> {
    xs.map(|x| match x {
        ..0 => x.wrapping_neg(),
        _ => x.rotate_left(3),
    })
    .map(|y| (y.clamp(-9, 9), y.count_ones()))
    .fold((i32::MAX, u32::MAX), |a, b| a.min(b))
}

#[test]
fn scalar_code_fuses() {
    assert!(
        fused_scalar::explain().contains(": 1 kernel"),
        "{}",
        fused_scalar::explain()
    );
    let xs = Vector::from((-50..50).map(|i| i * 7919).collect::<Vec<i32>>());
    check_ok(
        fused_scalar::SOURCE,
        "fused_scalar",
        &[arg(&xs)],
        fused_scalar(&xs),
        EXACT,
    );
    let want = xs
        .to_vec()
        .into_iter()
        .map(|x| if x < 0 { x.wrapping_neg() } else { x.rotate_left(3) })
        .map(|y| (y.clamp(-9, 9), y.count_ones()))
        .fold((i32::MAX, u32::MAX), |a, b| a.min(b));
    assert_eq!(fused_scalar(&xs).unwrap().value(), want);
}

// Constants and type aliases declared with the functions of an `accel!` block.
accel! {
    const SCALE: f32 = 2.5;
    const OFFSET: i32 = -3;
    const KEEP: usize = 5;
    const DOUBLE: bool = true;
    const WHOLE: f64 = 2.0;
    type Signal = Vector<f32>;
    type Counts = Vector<i32>;

    pub fn scaled(xs: &Signal) -> Signal {
        xs.map(|x| if DOUBLE { x * SCALE * 2.0 } else { x * SCALE })
    }

    pub fn shifted(xs: &Counts) -> (Counts, Scalar<f64>) {
        (xs.map(|x| x.wrapping_add(OFFSET)).take(KEEP), fill([], WHOLE * 0.5))
    }
}

#[test]
fn block_constants_and_type_aliases() {
    // They stay Rust items too.
    assert_eq!((SCALE, OFFSET, KEEP, WHOLE), (2.5, -3, 5, 2.0));
    let xs: Signal = Vector::from(vec![1.0f32, -2.0, 0.5]);
    check_ok(scaled::SOURCE, "scaled", &[arg(&xs)], scaled(&xs), EXACT);
    assert_eq!(scaled(&xs).unwrap().to_vec(), vec![5.0, -10.0, 2.5]);
    let ns: Counts = Vector::from((0..8).collect::<Vec<i32>>());
    check_ok(shifted::SOURCE, "shifted", &[arg(&ns)], shifted(&ns), EXACT);
    let (got, half) = shifted(&ns).unwrap();
    assert_eq!((got.to_vec(), half.value()), (vec![-3, -2, -1, 0, 1], 1.0));
}

accel! {
    /// Traces in a closure, in a loop and between scalar `let`s.
    pub fn traced(xs: &Vector<i32>) -> Vector<(i32, f32)> {
        xs.map(|x| {
            trace!("x = {}, pair = {:?}", x, (x, x > 0));
            let mut k = 0;
            let mut s = 0.0f32;
            while k < 2 {
                trace!("step {} of {{{}}}", k, x);
                s = s + x as f32 * 0.5;
                k += 1;
            }
            (x * 2, s)
        })
    }
}

/// `trace!` changes no value, on any back end; on the CPU back end (in this
/// test build, which has debug assertions) and on the interpreter it prints
/// each message as Rust's `format!` does. The messages are read from a
/// child process's standard error (the test harness captures only stdout).
#[test]
fn trace_prints_while_debugging() {
    let xs = Vector::from(vec![3i32, -1]);
    if std::env::var_os("ACCEL_TRACE_CHILD").is_some() {
        let backend = match std::env::var("ACCEL_TRACE_CHILD").as_deref() {
            Ok("interp") => Backend::interp().unwrap(),
            _ => Backend::cpu(),
        };
        traced::on(&backend, &xs).unwrap();
        return;
    }
    check_ok(traced::SOURCE, "traced", &[arg(&xs)], traced(&xs), EXACT);
    let mut want: Vec<String> = Vec::new();
    for x in [3i32, -1] {
        want.push(format!("x = {}, pair = {:?}", x, (x, x > 0)));
        for k in 0..2 {
            want.push(format!("step {} of {{{}}}", k, x));
        }
    }
    for backend in ["cpu", "interp"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "trace_prints_while_debugging",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("ACCEL_TRACE_CHILD", backend)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut got: Vec<String> = stderr
            .lines()
            .filter(|l| l.starts_with("x = ") || l.starts_with("step "))
            .map(str::to_string)
            .collect();
        // The CPU back end runs elements in parallel: compare as sets of
        // lines, each element's own lines in order.
        got.sort();
        let mut sorted = want.clone();
        sorted.sort();
        assert_eq!(got, sorted, "{backend}: {stderr}");
    }
}

/// A type whose associated functions are programs (`#[acc]` on its `impl`).
struct Filter;

#[acc]
impl Filter {
    const GAIN: f32 = 2.0;

    /// Each element times `by` and the gain.
    pub fn scale(xs: &Vector<f32>, by: f32) -> Vector<f32> {
        xs.map(|x| x * by * Self::GAIN)
    }

    /// The sum of the elements scaled by a half: calls `scale`, inlined and fused.
    pub fn total(xs: &Vector<f32>) -> Scalar<f32> {
        Self::scale(xs, 0.5).sum()
    }
}

#[test]
fn programs_in_an_impl_block() {
    assert_eq!(Filter::GAIN, 2.0);
    let xs = Vector::from(vec![1.0f32, -2.0, 0.5, 4.0]);
    assert_eq!(
        Filter::scale(&xs, 3.0).unwrap().to_vec(),
        vec![6.0, -12.0, 3.0, 24.0]
    );
    let source = __accel_impl_Filter_scale::total::SOURCE;
    check_ok(source, "total", &[arg(&xs)], Filter::total(&xs), EXACT);
    assert_eq!(Filter::total_on(&Backend::cpu(), &xs).unwrap().value(), 3.5);
    let mut out = Vector::from(vec![0.0f32; 4]);
    Filter::scale_on_into(&Backend::cpu(), &mut out, &xs, 1.0).unwrap();
    assert_eq!(out.to_vec(), vec![2.0, -4.0, 1.0, 8.0]);
    // One kernel: `scale` is fused into the sum.
    assert!(
        Filter::total_explain().contains("1 kernel"),
        "{}",
        Filter::total_explain()
    );
}

// ---- half precision: `f16` and `bf16` ----

accel! {
    /// Arithmetic with a literal and a parameter, math through `f32`,
    /// comparisons and casts both ways.
    pub fn half_ops(xs: &Vector<f16>, ys: &Vector<bf16>, s: f16) -> (Vector<f16>, Vector<bf16>, Vector<bool>, Vector<i32>) {
        let a = xs.map(|x| -(x * s + 1.5) / 3.0);
        let b = ys.zip_with(xs, |y, x| (y.abs().sqrt() + (x as bf16)).max(-2.0) - y.floor());
        let c = xs.zip_with(ys, |x, y| x < 0.5 && !x.is_nan() || (y as f16) == x);
        let d = xs.map(|x| (x as f32 * 4.0) as i32 + (x as f64 as bf16 as f32) as i32);
        (a, b, c, d)
    }

    /// Whole-array operations on half-precision values (integers, so that
    /// every order of the sums is exact): a fold, a scan, a histogram and a sort.
    pub fn half_arrays(xs: &Vector<f16>, bins: usize) -> (Scalar<f16>, Vector<f16>, Vector<f16>, Vector<f16>, Scalar<bf16>) {
        let total = xs.fold(0.0, |a, b| a + b);
        let run = xs.scanl1(|a, b| a + b);
        let hist = xs.permute(
            &fill([bins], 0.0 as f16),
            |[i]| Some([(xs[[i]].abs() as usize + i) % bins]),
            |new, old| new + old,
        );
        let sorted = xs.sort();
        (total, run, hist, sorted, xs.map(|x| x as bf16).maximum())
    }
}

fn wild_f16() -> impl Strategy<Value = f16> + Clone {
    prop_oneof![
        6 => any::<u16>().prop_map(f16::from_bits),
        1 => Just(f16::NAN),
        1 => Just(f16::INFINITY),
        1 => Just(f16::NEG_ZERO),
        1 => Just(f16::MAX),
        1 => Just(f16::from_bits(1)),
    ]
}

fn wild_bf16() -> impl Strategy<Value = bf16> + Clone {
    prop_oneof![
        6 => any::<u16>().prop_map(bf16::from_bits),
        1 => Just(bf16::NAN),
        1 => Just(bf16::NEG_INFINITY),
        1 => Just(bf16::MIN_POSITIVE),
    ]
}

/// `x` rounded to the half type after each operation, as Rust with the
/// `half` crate computes it: the reference for `half_ops`.
fn half_ops_reference(xs: &[f16], ys: &[bf16], s: f16) -> (Vec<f16>, Vec<bf16>, Vec<bool>, Vec<i32>) {
    let h = f16::from_f32;
    let b = bf16::from_f32;
    let a = xs
        .iter()
        .map(|&x| -h(h(h(x.to_f32() * s.to_f32()).to_f32() + 1.5).to_f32() / 3.0))
        .collect();
    let bb = ys
        .iter()
        .zip(xs)
        .map(|(&y, &x)| {
            let r = b(b(b(y.to_f32().abs()).to_f32().sqrt()).to_f32() + b(x.to_f32()).to_f32());
            let m = if r.to_f32() > -2.0 || r.is_nan() {
                r.max(b(-2.0))
            } else {
                b(-2.0)
            };
            b(m.to_f32() - b(y.to_f32().floor()).to_f32())
        })
        .collect();
    let c = xs
        .iter()
        .zip(ys)
        .map(|(&x, &y)| x.to_f32() < 0.5 && !x.is_nan() || h(y.to_f32()).to_f32() == x.to_f32())
        .collect();
    let d = xs
        .iter()
        .map(|&x| ((x.to_f32() * 4.0) as i32).wrapping_add(b(x.to_f32() as f64 as f32).to_f32() as i32))
        .collect();
    (a, bb, c, d)
}

proptest! {
    #![proptest_config(cfg())]

    /// Every operation on `f16` and `bf16` gives the bits that `half`'s
    /// conversions give, on the interpreter and the backend under test.
    #[test]
    fn half_precision_ops(xy in prop::collection::vec((wild_f16(), wild_bf16()), 0..40), s in wild_f16()) {
        let (xs, ys): (Vec<f16>, Vec<bf16>) = xy.into_iter().unzip();
        let (xv, yv) = (Vector::from(xs.clone()), Vector::from(ys.clone()));
        check_ok(half_ops::SOURCE, "half_ops", &[arg(&xv), arg(&yv), arg(s)], half_ops(&xv, &yv, s), EXACT);
        let (a, b, c, d) = half_ops(&xv, &yv, s).unwrap();
        let (ra, rb, rc, rd) = half_ops_reference(&xs, &ys, s);
        let same = |x: &[f16], y: &[f16]| x.len() == y.len() && x.iter().zip(y).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan());
        prop_assert!(same(&a.to_vec(), &ra), "{:?} vs {:?}", a.to_vec(), ra);
        let bv = b.to_vec();
        prop_assert!(bv.len() == rb.len() && bv.iter().zip(&rb).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan()), "{:?} vs {:?}", bv, rb);
        prop_assert_eq!(c.to_vec(), rc);
        prop_assert_eq!(d.to_vec(), rd);
    }

    #[test]
    fn half_precision_arrays(ks in prop::collection::vec(-6i32..7, 1..300), bins in 1usize..9) {
        let xs: Vec<f16> = ks.iter().map(|&k| f16::from_f32(k as f32)).collect();
        let xv = Vector::from(xs.clone());
        check_ok(half_arrays::SOURCE, "half_arrays", &[arg(&xv), arg(bins)], half_arrays(&xv, bins), EXACT);
        let (total, run, hist, sorted, max) = half_arrays(&xv, bins).unwrap();
        // Integers below 2048 in magnitude (300 of at most 6): every f16 sum
        // here is exact, in any order.
        prop_assert_eq!(total.value().to_f32(), ks.iter().sum::<i32>() as f32);
        let mut acc = 0;
        let want_run: Vec<f32> = ks.iter().map(|k| { acc += k; acc as f32 }).collect();
        prop_assert_eq!(run.to_vec().iter().map(|x| x.to_f32()).collect::<Vec<_>>(), want_run);
        let mut want_hist = vec![0.0f32; bins];
        for (i, &k) in ks.iter().enumerate() {
            want_hist[(k.unsigned_abs() as usize + i) % bins] += k as f32;
        }
        prop_assert_eq!(hist.to_vec().iter().map(|x| x.to_f32()).collect::<Vec<_>>(), want_hist);
        let mut want_sorted = ks.clone();
        want_sorted.sort();
        prop_assert_eq!(sorted.to_vec().iter().map(|x| x.to_f32() as i32).collect::<Vec<_>>(), want_sorted);
        prop_assert_eq!(max.value().to_f32(), *ks.iter().max().unwrap() as f32);
    }
}

/// The same programs over enough elements that the CPU back end splits
/// them between threads (sums still exact: at most 1,000 nonzero ±1s); a
/// hundredth of that on the GPU path (eight blocks of 256 still; the
/// simulator runs every thread).
#[test]
fn half_precision_large() {
    let n = if on_gpu() { 2_003 } else { 200_003 };
    let ks: Vec<i32> = (0..n)
        .map(|i| if i % 200 == 7 { [1, -1, 1][i % 3] } else { 0 })
        .collect();
    let xs: Vec<f16> = ks.iter().map(|&k| f16::from_f32(k as f32)).collect();
    let xv = Vector::from(xs);
    // Many bins: a 16-bit permute on the GPU path takes a lock per element,
    // which the simulator runs slowly when thousands of elements contend.
    let bins = 4099usize;
    check_ok(
        half_arrays::SOURCE,
        "half_arrays",
        &[arg(&xv), arg(bins)],
        half_arrays(&xv, bins),
        EXACT,
    );
    let (total, ..) = half_arrays(&xv, bins).unwrap();
    assert_eq!(total.value().to_f32(), ks.iter().sum::<i32>() as f32);
    let ys = Vector::from(
        (0..n)
            .map(|i| bf16::from_f32(i as f32 * 0.37 - 5e3))
            .collect::<Vec<_>>(),
    );
    let s = f16::from_f32(0.75);
    check_ok(
        half_ops::SOURCE,
        "half_ops",
        &[arg(&xv), arg(&ys), arg(s)],
        half_ops(&xv, &ys, s),
        EXACT,
    );
}

/// Programs in a module (`#[acc] mod`): an `accel!` block as plain Rust,
/// with its constants and type aliases beside the functions.
#[acc]
mod signal {
    use accel::prelude::*;

    pub const GAIN: f32 = 3.0;
    type Samples = Vector<f32>;

    fn gained(xs: &Samples) -> Samples {
        xs.map(|x| x * GAIN)
    }

    /// The energy of the gained signal: `gained` is fused into the sum.
    pub fn energy(xs: &Samples) -> Scalar<f32> {
        gained(xs).map(|x| x * x).sum()
    }
}

#[test]
fn programs_in_a_module() {
    let xs = Vector::from(vec![1.0f32, -2.0, 0.5]);
    check_ok(
        signal::energy::SOURCE,
        "energy",
        &[arg(&xs)],
        signal::energy(&xs),
        EXACT,
    );
    assert_eq!(signal::energy(&xs).unwrap().value(), 9.0 * 5.25);
    assert_eq!(signal::GAIN, 3.0);
    assert!(
        signal::energy::explain().contains("1 kernel"),
        "{}",
        signal::energy::explain()
    );
}

/// A second `#[acc]` block of the same type.
#[acc]
impl Filter {
    pub fn offset(xs: &Vector<f32>, by: f32) -> Vector<f32> {
        xs.map(|x| x + by)
    }
}

#[test]
fn two_impl_blocks_of_one_type() {
    let xs = Vector::from(vec![1.0f32, 2.0]);
    assert_eq!(Filter::offset(&xs, 0.5).unwrap().to_vec(), vec![1.5, 2.5]);
}
