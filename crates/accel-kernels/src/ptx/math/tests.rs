//! Accuracy of the math library (the IR evaluator against Rust's methods)
//! and validity of its PTX (ptxas for sm_70, sm_80, sm_90).
//!
//! `cargo test -p accel-kernels math_error -- --nocapture` prints the error
//! table; `ACCEL_MATH_SAMPLES=N` sets the random samples per function.

use super::eval::eval;
use super::*;
use accel_core::ir::MathFn as M;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// Random sign, exponent uniform in [e0, e1], random mantissa.
    fn log_uniform(&mut self, e0: i32, e1: i32) -> f64 {
        let e = e0 + (self.next() % (e1 - e0 + 1) as u64) as i32;
        let m = 1.0 + self.unit();
        let s = if self.next() & 1 == 0 { 1.0 } else { -1.0 };
        s * m * 2f64.powi(e)
    }
}

fn samples() -> usize {
    std::env::var("ACCEL_MATH_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000)
}

const SPECIAL: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    2.0,
    -2.0,
    3.0,
    -3.0,
    10.0,
    0.1,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::MIN_POSITIVE,
    -f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    f64::MAX,
    f64::MIN,
    1e-300,
    1e300,
    f32::MIN_POSITIVE as f64,
    1.4e-45,
    f32::MAX as f64,
    3.4e38,
    1e-30,
    1e30,
    88.7,
    -103.9,
    709.7,
    709.79,
    -745.1,
    -745.2,
    710.4,
    0.7,
    std::f64::consts::FRAC_PI_2,
    std::f64::consts::PI,
    1e-8,
    22.0,
    0.99999,
    1.00001,
    1e22,
    1e15,
    // A hard case for f32 argument reduction: 16367173·2^72.
    7.729178919452902e28,
];

fn to_ty(x: f64, ty: FloatTy) -> u64 {
    match ty {
        FloatTy::F32 => (x as f32).to_bits() as u64,
        FloatTy::F64 => x.to_bits(),
    }
}

fn random_bits(r: &mut Rng, ty: FloatTy) -> u64 {
    match ty {
        FloatTy::F32 => r.next() >> 32,
        FloatTy::F64 => r.next(),
    }
}

/// The main input range of a one-argument function: uniform and
/// log-uniform parts.
fn range1(f: MathFn, ty: FloatTy) -> ((f64, f64), (i32, i32)) {
    let f32t = ty == FloatTy::F32;
    let (emin, emax) = if f32t { (-149, 127) } else { (-1074, 1023) };
    match f {
        M::Exp => (if f32t { (-104.0, 89.0) } else { (-746.0, 710.0) }, (-60, 10)),
        M::Exp2 => (if f32t { (-150.0, 128.0) } else { (-1076.0, 1025.0) }, (-60, 11)),
        M::ExpM1 => (if f32t { (-20.0, 89.0) } else { (-40.0, 710.0) }, (emin, 10)),
        M::Ln | M::Log2 | M::Log10 | M::Cbrt | M::Sqrt => ((0.5, 2.0), (emin, emax)),
        M::Ln1p => ((-1.0, 1.0), (emin, emax)),
        M::Sin | M::Cos | M::Tan => ((-10.0, 10.0), if f32t { (-40, 127) } else { (-40, 1023) }),
        M::Asin | M::Acos | M::Atanh => ((-1.0, 1.0), (emin, 0)),
        M::Sinh | M::Cosh => (if f32t { (-90.0, 90.0) } else { (-711.0, 711.0) }, (emin, 10)),
        M::Tanh => ((-25.0, 25.0), (emin, 6)),
        M::Acosh => ((1.0, 3.0), (0, emax)),
        _ => ((-100.0, 100.0), (emin, emax)),
    }
}

fn inputs(f: MathFn, ty: FloatTy) -> Vec<Vec<u64>> {
    let n = samples();
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ (f as u64) << 8 ^ ty as u64);
    let mut out: Vec<Vec<u64>> = Vec::new();
    let arity = if f == M::FromBits { 1 } else { f.arity() };
    if f == M::Powi {
        for &x in SPECIAL {
            for n in [-3i32, -2, -1, 0, 1, 2, 3, 7, 64, -64, i32::MAX, i32::MIN] {
                out.push(vec![to_ty(x, ty), n as u32 as u64]);
            }
        }
        for i in 0..n {
            let x = if i % 2 == 0 {
                r.uniform(-3.0, 3.0)
            } else {
                r.log_uniform(-20, 20)
            };
            let k = if i % 3 == 0 {
                r.next() as u32 as u64
            } else {
                ((r.next() % 129) as i32 - 64) as u32 as u64
            };
            out.push(vec![to_ty(x, ty), k]);
        }
        return out;
    }
    if arity == 1 {
        let ((lo, hi), (e0, e1)) = range1(f, ty);
        for &x in SPECIAL {
            out.push(vec![to_ty(x, ty)]);
        }
        for i in 0..n {
            let x = match i % 3 {
                0 => random_bits(&mut r, ty),
                1 => to_ty(r.uniform(lo, hi), ty),
                _ => to_ty(r.log_uniform(e0, e1), ty),
            };
            out.push(vec![x]);
        }
        return out;
    }
    let (e0, e1) = if ty == FloatTy::F32 {
        (-149, 127)
    } else {
        (-1074, 1023)
    };
    for &x in SPECIAL {
        for &y in SPECIAL {
            let mut v = vec![to_ty(x, ty), to_ty(y, ty)];
            if arity == 3 {
                v.push(to_ty(1.5, ty));
            }
            out.push(v);
        }
    }
    for i in 0..n {
        let mut v: Vec<u64> = match (f, i % 3) {
            (_, 0) => (0..arity).map(|_| random_bits(&mut r, ty)).collect(),
            (M::Powf, 1) => vec![to_ty(r.uniform(0.0, 4.0), ty), to_ty(r.uniform(-60.0, 60.0), ty)],
            (M::Powf, _) => {
                // Negative bases with integral exponents, and wide ranges.
                let x = r.log_uniform(-20, 20);
                let y = if i % 2 == 0 {
                    (r.uniform(-40.0, 40.0)).round()
                } else {
                    r.uniform(-300.0, 300.0)
                };
                vec![to_ty(x, ty), to_ty(y, ty)]
            }
            (M::Log, _) => vec![
                to_ty(r.log_uniform(e0, e1).abs(), ty),
                to_ty(r.log_uniform(-10, 10).abs(), ty),
            ],
            (M::Atan2 | M::Hypot, 1) => {
                vec![to_ty(r.uniform(-4.0, 4.0), ty), to_ty(r.uniform(-4.0, 4.0), ty)]
            }
            _ => (0..arity)
                .map(|_| to_ty(r.log_uniform(e0 / 2, e1 / 2), ty))
                .collect(),
        };
        v.truncate(arity);
        out.push(v);
    }
    out
}

/// Rust's method on the arguments (bits in, bits out).
fn reference(f: MathFn, ty: FloatTy, a: &[u64]) -> u64 {
    macro_rules! run {
        ($t:ty, $u:ty, $from:expr) => {{
            let x = |i: usize| -> $t { $from(a[i]) };
            let b = |v: bool| v as u64;
            match f {
                M::Sqrt => x(0).sqrt().to_bits() as u64,
                M::Cbrt => x(0).cbrt().to_bits() as u64,
                M::Exp => x(0).exp().to_bits() as u64,
                M::Exp2 => x(0).exp2().to_bits() as u64,
                M::ExpM1 => x(0).exp_m1().to_bits() as u64,
                M::Ln => x(0).ln().to_bits() as u64,
                M::Ln1p => x(0).ln_1p().to_bits() as u64,
                M::Log2 => x(0).log2().to_bits() as u64,
                M::Log10 => x(0).log10().to_bits() as u64,
                M::Log => x(0).log(x(1)).to_bits() as u64,
                M::Sin => x(0).sin().to_bits() as u64,
                M::Cos => x(0).cos().to_bits() as u64,
                M::Tan => x(0).tan().to_bits() as u64,
                M::Asin => x(0).asin().to_bits() as u64,
                M::Acos => x(0).acos().to_bits() as u64,
                M::Atan => x(0).atan().to_bits() as u64,
                M::Atan2 => x(0).atan2(x(1)).to_bits() as u64,
                M::Sinh => x(0).sinh().to_bits() as u64,
                M::Cosh => x(0).cosh().to_bits() as u64,
                M::Tanh => x(0).tanh().to_bits() as u64,
                M::Asinh => x(0).asinh().to_bits() as u64,
                // Rust's acosh, ln(x + sqrt(x²-1)), loses accuracy near 1;
                // this rearrangement of Rust's own functions does not.
                M::Acosh => {
                    let v = x(0);
                    let t = v - 1.0;
                    if (1.0..2.0).contains(&v) {
                        (t + (t * (v + 1.0)).sqrt()).ln_1p().to_bits() as u64
                    } else {
                        v.acosh().to_bits() as u64
                    }
                }
                // Rust's atanh loses accuracy for x near -1 (it computes
                // ln_1p(2x/(1-x)), which cancels); its positive half is
                // accurate, and atanh is odd.
                M::Atanh => x(0).abs().atanh().copysign(x(0)).to_bits() as u64,
                M::Hypot => x(0).hypot(x(1)).to_bits() as u64,
                M::Powf => x(0).powf(x(1)).to_bits() as u64,
                M::Powi => std::hint::black_box(x(0))
                    .powi(std::hint::black_box(a[1] as u32 as i32))
                    .to_bits() as u64,
                M::Recip => x(0).recip().to_bits() as u64,
                M::ToDegrees => x(0).to_degrees().to_bits() as u64,
                M::ToRadians => x(0).to_radians().to_bits() as u64,
                M::Floor => x(0).floor().to_bits() as u64,
                M::Ceil => x(0).ceil().to_bits() as u64,
                M::Round => x(0).round().to_bits() as u64,
                M::Trunc => x(0).trunc().to_bits() as u64,
                M::Fract => x(0).fract().to_bits() as u64,
                M::MulAdd => x(0).mul_add(x(1), x(2)).to_bits() as u64,
                M::Copysign => x(0).copysign(x(1)).to_bits() as u64,
                M::IsNan => b(x(0).is_nan()),
                M::IsInfinite => b(x(0).is_infinite()),
                M::IsFinite => b(x(0).is_finite()),
                M::IsNormal => b(x(0).is_normal()),
                M::IsSignNegative => b(x(0).is_sign_negative()),
                M::IsSignPositive => b(x(0).is_sign_positive()),
                M::ToBits => x(0).to_bits() as u64,
                M::FromBits => <$t>::from_bits(a[0] as $u).to_bits() as u64,
                M::Abs => x(0).abs().to_bits() as u64,
                M::Signum => x(0).signum().to_bits() as u64,
                M::Min => x(0).min(x(1)).to_bits() as u64,
                M::Max => x(0).max(x(1)).to_bits() as u64,
                M::Clamp => {
                    // accel_runtime::ops::MathOps::acc_clamp
                    let (v, lo, hi) = (x(0), x(1), x(2));
                    let v = if v < lo { lo } else { v };
                    (if v > hi { hi } else { v }).to_bits() as u64
                }
                M::DivEuclid => x(0).div_euclid(x(1)).to_bits() as u64,
                M::RemEuclid => x(0).rem_euclid(x(1)).to_bits() as u64,
                _ => unreachable!("not a float function"),
            }
        }};
    }
    match ty {
        FloatTy::F32 => run!(f32, u32, |b: u64| f32::from_bits(b as u32)),
        FloatTy::F64 => run!(f64, u64, f64::from_bits),
    }
}

/// Distance in ULPs (units in the last place of the result's format); NaN
/// against NaN is 0; a wrong sign of zero or NaN against a number is inf.
fn ulps(ty: FloatTy, got: u64, want: u64, zero_sign_matters: bool) -> f64 {
    let (gn, wn, gz, wz, go, wo) = match ty {
        FloatTy::F32 => {
            let (g, w) = (f32::from_bits(got as u32), f32::from_bits(want as u32));
            let ord = |x: u32| {
                if x >> 31 == 1 {
                    -((x & 0x7fff_ffff) as i128)
                } else {
                    x as i128
                }
            };
            (
                g.is_nan(),
                w.is_nan(),
                g == 0.0,
                w == 0.0,
                ord(got as u32),
                ord(want as u32),
            )
        }
        FloatTy::F64 => {
            let (g, w) = (f64::from_bits(got), f64::from_bits(want));
            let ord = |x: u64| {
                if x >> 63 == 1 {
                    -((x & (u64::MAX >> 1)) as i128)
                } else {
                    x as i128
                }
            };
            (g.is_nan(), w.is_nan(), g == 0.0, w == 0.0, ord(got), ord(want))
        }
    };
    if gn || wn {
        return if gn && wn { 0.0 } else { f64::INFINITY };
    }
    if gz && wz {
        return if zero_sign_matters && got != want {
            f64::INFINITY
        } else {
            0.0
        };
    }
    (go - wo).unsigned_abs() as f64
}

fn is_bool(f: MathFn) -> bool {
    matches!(
        f,
        M::IsNan | M::IsInfinite | M::IsFinite | M::IsNormal | M::IsSignNegative | M::IsSignPositive
    )
}

/// (max ULPs, the arguments where it occurs).
fn measure(f: MathFn, ty: FloatTy) -> Option<(f64, Vec<u64>)> {
    let func = build(f, ty)?;
    let mut worst = (0.0f64, Vec::new());
    let mut vs_f64 = 0.0f64;
    let zero_sign = !matches!(f, M::Min | M::Max | M::Clamp);
    for a in inputs(f, ty) {
        let got = eval(&func, &a);
        let want = reference(f, ty, &a);
        let e = if is_bool(f) || f == M::ToBits {
            if got == want {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            ulps(ty, got, want, zero_sign)
        };
        if e > worst.0 || worst.1.is_empty() {
            worst = (e.max(worst.0), a.clone());
        }
        // f32: also against Rust's f64 method rounded to f32 (nearly the
        // correctly rounded result), to separate our error from std's f32 one.
        let transcendental = ERRORS.iter().any(|e| e.0 == f);
        let rust_overflow =
            matches!(f, M::Asinh | M::Acosh) && f32::from_bits(a[0] as u32).abs() >= 2f32.powi(127);
        if ty == FloatTy::F32 && transcendental && !rust_overflow {
            let wide: Vec<u64> = a
                .iter()
                .map(|&x| (f32::from_bits(x as u32) as f64).to_bits())
                .collect();
            let w = f64::from_bits(reference(f, FloatTy::F64, &wide)) as f32;
            let e = ulps(ty, got, w.to_bits() as u64, false);
            if e.is_finite() {
                vs_f64 = vs_f64.max(e);
            }
        }
    }
    if ty == FloatTy::F32 && ERRORS.iter().any(|e| e.0 == f) {
        println!("{:<18} F32 vs f64 reference rounded: max {vs_f64} ulp", f.name());
    }
    Some(worst)
}

fn show(ty: FloatTy, a: &[u64]) -> String {
    a.iter()
        .map(|&b| match ty {
            FloatTy::F32 => format!("{:e}", f32::from_bits(b as u32)),
            FloatTy::F64 => format!("{:e}", f64::from_bits(b)),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn check(fs: &[MathFn]) {
    let mut bad = Vec::new();
    for &f in fs {
        for ty in [FloatTy::F32, FloatTy::F64] {
            let Some((e, at)) = measure(f, ty) else { continue };
            let bound = error_ulps(f, ty);
            println!(
                "{:<18} {:?}: max {e} ulp (bound {bound}) worst at ({})",
                f.name(),
                ty,
                show(ty, &at)
            );
            if e > bound {
                bad.push(format!(
                    "{} {:?}: {e} ulp > {bound} at ({})",
                    f.name(),
                    ty,
                    show(ty, &at)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "errors above the documented bounds:\n{}",
        bad.join("\n")
    );
}

#[test]
fn math_error_exact_functions() {
    check(&[
        M::Sqrt,
        M::Recip,
        M::ToDegrees,
        M::ToRadians,
        M::Floor,
        M::Ceil,
        M::Round,
        M::Trunc,
        M::Fract,
        M::MulAdd,
        M::Copysign,
        M::IsNan,
        M::IsInfinite,
        M::IsFinite,
        M::IsNormal,
        M::IsSignNegative,
        M::IsSignPositive,
        M::ToBits,
        M::FromBits,
        M::Abs,
        M::Signum,
        M::Min,
        M::Max,
        M::Clamp,
        M::Powi,
        M::DivEuclid,
        M::RemEuclid,
    ]);
}

#[test]
fn math_error_exp_log() {
    check(&[
        M::Exp,
        M::Exp2,
        M::ExpM1,
        M::Ln,
        M::Ln1p,
        M::Log2,
        M::Log10,
        M::Log,
        M::Powf,
        M::Cbrt,
        M::Hypot,
    ]);
}

#[test]
fn math_error_trig() {
    check(&[M::Sin, M::Cos, M::Tan, M::Asin, M::Acos, M::Atan, M::Atan2]);
}

#[test]
fn math_error_hyperbolic() {
    check(&[M::Sinh, M::Cosh, M::Tanh, M::Asinh, M::Acosh, M::Atanh]);
}

/// The f64 closest to a multiple of π/2, 6381956970095103·2^797 (reduced
/// argument about 2^-61): glibc (Rust's reference here) is 8 ULP off on its
/// cosine, so the expected values come from mpmath at 3000 bits.
#[test]
fn trig_hard_reduction_case() {
    let x = 6381956970095103.0 * 2f64.powi(797);
    for (f, want) in [
        (M::Sin, 0x3FF0000000000000u64),
        (M::Cos, 0xBC214AE72E6BA22F),
        (M::Tan, 0xC3BD9BA9A7975636),
    ] {
        let func = build(f, FloatTy::F64).expect("f64 trig");
        let got = eval(&func, &[x.to_bits()]);
        let e = ulps(FloatTy::F64, got, want, true);
        assert!(e <= 1.0, "{f:?}: {e} ulp from the true value");
        let got = eval(&func, &[(-x).to_bits()]);
        let e = ulps(
            FloatTy::F64,
            got,
            if f == M::Cos { want } else { want ^ (1 << 63) },
            true,
        );
        assert!(e <= 1.0, "{f:?} of -x: {e} ulp from the true value");
    }
}

#[test]
fn float_rem_is_exact() {
    for ty in [FloatTy::F32, FloatTy::F64] {
        let func = build_rem(ty);
        let mut r = Rng(77);
        let mut cases: Vec<(u64, u64)> = Vec::new();
        for &x in SPECIAL {
            for &y in SPECIAL {
                cases.push((to_ty(x, ty), to_ty(y, ty)));
            }
        }
        for i in 0..samples() {
            let (e0, e1) = if ty == FloatTy::F32 {
                (-149, 127)
            } else {
                (-1074, 1023)
            };
            let c = if i % 2 == 0 {
                (random_bits(&mut r, ty), random_bits(&mut r, ty))
            } else {
                (to_ty(r.log_uniform(e0, e1), ty), to_ty(r.log_uniform(e0, e1), ty))
            };
            cases.push(c);
        }
        for (x, y) in cases {
            let got = eval(&func, &[x, y]);
            let want = match ty {
                FloatTy::F32 => (f32::from_bits(x as u32) % f32::from_bits(y as u32)).to_bits() as u64,
                FloatTy::F64 => (f64::from_bits(x) % f64::from_bits(y)).to_bits(),
            };
            assert_eq!(
                ulps(ty, got, want, true),
                0.0,
                "{ty:?} rem({})",
                show(ty, &[x, y])
            );
        }
    }
}

#[test]
fn public_evaluator_matches_rust() {
    let x = 0.5f32.to_bits() as u64;
    assert_eq!(
        evaluate(M::Exp, FloatTy::F32, &[x]),
        Some(0.5f32.exp().to_bits() as u64)
    );
    assert_eq!(evaluate(M::Exp, FloatTy::F32, &[x, x]), None);
    assert_eq!(evaluate(M::CountOnes, FloatTy::F32, &[x]), None);
    assert_eq!(
        evaluate_rem(FloatTy::F64, 7.5f64.to_bits(), 2.0f64.to_bits()),
        1.5f64.to_bits()
    );
}

#[test]
fn every_float_function_is_covered() {
    for &f in MathFn::ALL {
        let float = f.accepts(accel_core::ir::Prim::F32) || f == M::FromBits;
        for ty in [FloatTy::F32, FloatTy::F64] {
            let got = math_func(f, ty);
            assert_eq!(got.is_some(), float && !UNSUPPORTED.contains(&f), "{f:?} {ty:?}");
            if let Some(m) = got {
                assert_eq!(m.name, func_name(f, ty));
                assert!(m.text.contains(&m.name));
            }
        }
    }
}

fn ptxas() -> Option<std::path::PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("ptxas"))
            .find(|c| c.is_file())
    });
    let env = std::env::var_os("ACCEL_PTXAS")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_file());
    let home = std::env::var_os("HOME")
        .map(|h| std::path::PathBuf::from(h).join(".cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas"))
        .filter(|p| p.is_file());
    on_path.or(env).or(home)
}

/// A module with every math function, each called from a small kernel that
/// loads its arguments from a buffer and stores the result after them.
fn test_module() -> String {
    let mut s = String::from(".version 7.0\n.target sm_70\n.address_size 64\n\n");
    let mut kernels = String::new();
    let mut n = 0;
    for &f in MathFn::ALL {
        for ty in [FloatTy::F32, FloatTy::F64] {
            let Some(m) = math_func(f, ty) else { continue };
            s.push_str(&m.text);
            s.push('\n');
            let reg = |t: &str| match t {
                ".f32" => ("f32", "%f"),
                ".f64" => ("f64", "%fd"),
                ".u64" | ".s64" => ("b64", "%rd"),
                _ => ("b32", "%r"),
            };
            let mut k = format!(
                ".visible .entry k_{0}(.param .u64 io)\n{{\n    .reg .b64 %a<2>;\n    .reg .f32 %f<4>;\n    .reg .f64 %fd<4>;\n    .reg .b32 %r<4>;\n    .reg .b64 %rd<4>;\n    ld.param.u64 %a0, [io];\n    cvta.to.global.u64 %a1, %a0;\n",
                m.name
            );
            let mut call_args = Vec::new();
            let mut decls = String::new();
            for (i, p) in m.params.iter().enumerate() {
                let (_, r) = reg(p);
                k.push_str(&format!("    ld.global{p} {r}{i}, [%a1+{}];\n", 8 * i));
                decls.push_str(&format!(
                    "        .param {p} a{i};\n        st.param{p} [a{i}], {r}{i};\n"
                ));
                call_args.push(format!("a{i}"));
            }
            let (_, rr) = reg(m.ret);
            k.push_str(&format!(
                "    {{\n{decls}        .param {0} rv;\n        call.uni (rv), {1}, ({2});\n        ld.param{0} {rr}3, [rv];\n    }}\n    st.global{0} [%a1+{3}], {rr}3;\n    ret;\n}}\n\n",
                m.ret,
                m.name,
                call_args.join(", "),
                8 * m.params.len()
            ));
            kernels.push_str(&k);
            n += 1;
        }
    }
    assert!(n > 90, "only {n} math functions");
    for ty in [FloatTy::F32, FloatTy::F64] {
        let m = float_rem(ty);
        s.push_str(&m.text);
        s.push('\n');
    }
    s.push_str(&kernels);
    s
}

#[test]
fn math_ptx_assembles_without_warnings() {
    let module = test_module();
    // `ACCEL_MATH_PTX_DUMP=file.ptx`: keep the module (e.g. for a simulator).
    if let Some(path) = std::env::var_os("ACCEL_MATH_PTX_DUMP") {
        std::fs::write(path, &module).expect("write the PTX dump");
    }
    let Some(ptxas) = ptxas() else {
        println!("SKIPPED math_ptx_assembles_without_warnings: ptxas not found (PATH, $ACCEL_PTXAS, $HOME/.cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("accel-math-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("math.ptx");
    std::fs::write(&file, &module).expect("write ptx");
    for arch in ["sm_70", "sm_80", "sm_90"] {
        let out = std::process::Command::new(&ptxas)
            .arg(format!("-arch={arch}"))
            .arg("-o")
            .arg(dir.join(format!("math_{arch}.cubin")))
            .arg(&file)
            .output()
            .expect("run ptxas");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "ptxas {arch} failed:\n{err}");
        assert!(
            err.trim().is_empty() && out.stdout.is_empty(),
            "ptxas {arch} printed:\n{err}"
        );
        println!("ptxas -arch={arch}: ok, no warnings");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Prints the number of PTX instructions of every function (for the docs).
#[test]
fn math_instruction_counts() {
    for &f in MathFn::ALL {
        let c: Vec<String> = [FloatTy::F32, FloatTy::F64]
            .iter()
            .filter_map(|&ty| build(f, ty).map(|func| func.insts.len().to_string()))
            .collect();
        if !c.is_empty() {
            println!("count {:<18} {}", f.name(), c.join(" / "));
        }
    }
}

/// The PTX is one instruction per IR op (plus the initialisation of the values
/// defined in skipped regions, the final store and `ret`), and one label line
/// per IR label: what the simulator check relies on.
#[test]
fn ptx_is_one_instruction_per_ir_op() {
    for &f in MathFn::ALL {
        for ty in [FloatTy::F32, FloatTy::F64] {
            let Some(func) = build(f, ty) else { continue };
            let text = super::emit::ptx(&func);
            let body = &text[text.find('{').expect("body")..];
            let instrs = body
                .lines()
                .filter(|l| l.trim_end().ends_with(';') && !l.trim_start().starts_with(".reg"))
                .count();
            let labels = body.lines().filter(|l| l.trim_end().ends_with(':')).count();
            let ir_labels = func
                .insts
                .iter()
                .filter(|i| matches!(i.op, super::ir::Op::Label(_)))
                .count();
            let inits = super::emit::defined_in_skips(&func).len();
            assert_eq!(instrs, func.insts.len() - ir_labels + inits + 2, "{}", func.name);
            assert_eq!(labels, ir_labels, "{}", func.name);
        }
    }
}
