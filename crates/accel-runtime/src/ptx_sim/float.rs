//! Floating-point semantics that Rust's operators do not give directly:
//! directed rounding (`.rz .rm .rp`), `cvt` in all directions, PTX min/max.

use super::inst::{Rnd, Ty};
use std::cmp::Ordering;

/// `r` is a correctly rounded-to-nearest result and `ord` says how it compares
/// with the exact result; returns the result rounded in direction `mode`.
fn adjust32(r: f32, ord: Ordering, mode: Rnd) -> f32 {
    match (mode, ord) {
        (Rnd::Rz, Ordering::Greater) if r > 0.0 => r.next_down(),
        (Rnd::Rz, Ordering::Less) if r < 0.0 => r.next_up(),
        (Rnd::Rm, Ordering::Greater) => r.next_down(),
        (Rnd::Rp, Ordering::Less) => r.next_up(),
        _ => r,
    }
}

fn adjust64(r: f64, ord: Ordering, mode: Rnd) -> f64 {
    match (mode, ord) {
        (Rnd::Rz, Ordering::Greater) if r > 0.0 => r.next_down(),
        (Rnd::Rz, Ordering::Less) if r < 0.0 => r.next_up(),
        (Rnd::Rm, Ordering::Greater) => r.next_down(),
        (Rnd::Rp, Ordering::Less) => r.next_up(),
        _ => r,
    }
}

/// Rounds the exact value `s + e` (an unevaluated f64 sum, |e| ≤ ulp(s)/2) to f32.
fn round_sum_to_f32(s: f64, e: f64, mode: Rnd) -> f32 {
    let r = s as f32;
    if !matches!(mode, Rnd::Rz | Rnd::Rm | Rnd::Rp) || s.is_nan() {
        return r;
    }
    let ord = if r as f64 != s {
        (r as f64).partial_cmp(&s).unwrap_or(Ordering::Equal)
    } else {
        0.0f64.partial_cmp(&e).unwrap_or(Ordering::Equal)
    };
    adjust32(r, ord, mode)
}

/// Knuth's TwoSum: s + e == a + b exactly (for finite s).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, if s.is_finite() { e } else { 0.0 })
}

/// Overflow of an exact finite result: what each direction gives.
fn overflow64(s: f64, mode: Rnd) -> f64 {
    match mode {
        Rnd::Rz => f64::MAX.copysign(s),
        Rnd::Rm if s > 0.0 => f64::MAX,
        Rnd::Rp if s < 0.0 => -f64::MAX,
        _ => s,
    }
}

pub fn add32(a: f32, b: f32, mode: Rnd) -> f32 {
    let (s, e) = two_sum(a as f64, b as f64);
    round_sum_to_f32(s, e, mode)
}

pub fn mul32(a: f32, b: f32, mode: Rnd) -> f32 {
    // The product of two f32 is exact in f64.
    round_sum_to_f32(a as f64 * b as f64, 0.0, mode)
}

pub fn fma32(a: f32, b: f32, c: f32, mode: Rnd) -> f32 {
    if !matches!(mode, Rnd::Rz | Rnd::Rm | Rnd::Rp) {
        return a.mul_add(b, c);
    }
    let (s, e) = two_sum(a as f64 * b as f64, c as f64);
    round_sum_to_f32(s, e, mode)
}

pub fn add64(a: f64, b: f64, mode: Rnd) -> f64 {
    let (s, e) = two_sum(a, b);
    if !matches!(mode, Rnd::Rz | Rnd::Rm | Rnd::Rp) {
        return s;
    }
    if s.is_infinite() && a.is_finite() && b.is_finite() {
        return overflow64(s, mode);
    }
    adjust64(s, 0.0f64.partial_cmp(&e).unwrap_or(Ordering::Equal), mode)
}

pub fn mul64(a: f64, b: f64, mode: Rnd) -> f64 {
    let p = a * b;
    if !matches!(mode, Rnd::Rz | Rnd::Rm | Rnd::Rp) {
        return p;
    }
    if p.is_infinite() && a.is_finite() && b.is_finite() {
        return overflow64(p, mode);
    }
    // The rounding error of a product, exact unless it underflows.
    let e = a.mul_add(b, -p);
    if !p.is_finite() {
        return p;
    }
    adjust64(p, 0.0f64.partial_cmp(&e).unwrap_or(Ordering::Equal), mode)
}

/// PTX min/max: a NaN operand is ignored (both NaN: canonical NaN);
/// -0.0 is less than +0.0.
pub fn fmin64(a: f64, b: f64) -> f64 {
    if a.is_nan() && b.is_nan() {
        return f64::NAN;
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_negative() { a } else { b };
    }
    if a < b {
        a
    } else {
        b
    }
}

pub fn fmax64(a: f64, b: f64) -> f64 {
    if a.is_nan() && b.is_nan() {
        return f64::NAN;
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_positive() { a } else { b };
    }
    if a > b {
        a
    } else {
        b
    }
}

pub const CANONICAL_NAN32: u32 = 0x7fff_ffff;

pub fn fmin32(a: f32, b: f32) -> f32 {
    if a.is_nan() && b.is_nan() {
        return f32::from_bits(CANONICAL_NAN32);
    }
    fmin64(a as f64, b as f64) as f32
}

pub fn fmax32(a: f32, b: f32) -> f32 {
    if a.is_nan() && b.is_nan() {
        return f32::from_bits(CANONICAL_NAN32);
    }
    fmax64(a as f64, b as f64) as f32
}

pub fn ftz32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

fn round_integral(x: f64, mode: Rnd) -> f64 {
    match mode {
        Rnd::Rni => x.round_ties_even(),
        Rnd::Rzi => x.trunc(),
        Rnd::Rmi => x.floor(),
        Rnd::Rpi => x.ceil(),
        _ => x,
    }
}

/// The signed or unsigned integer value of `bits` read as type `t`.
pub fn int_value(bits: u64, t: Ty) -> i128 {
    let b = t.bits();
    let v = bits & t.mask();
    if t.is_signed() && b < 64 {
        (((v << (64 - b)) as i64) >> (64 - b)) as i128
    } else if t.is_signed() {
        v as i64 as i128
    } else {
        v as i128
    }
}

fn int_range(t: Ty) -> (i128, i128) {
    let b = t.bits();
    if t.is_signed() {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

/// `cvt.rnd.sat.dst.src`: bits of `a` (type `src`) to bits of type `dst`.
pub fn cvt(a: u64, dst: Ty, src: Ty, rnd: Rnd, sat: bool, ftz: bool) -> u64 {
    // Half precision (the parser allows `cvt.f32.f16` and `cvt.rn.f16.f32`):
    // exact one way, to nearest even the other, as the `half` crate does.
    if src == Ty::F16 {
        return half::f16::from_bits(a as u16).to_f32().to_bits() as u64;
    }
    if dst == Ty::F16 {
        return half::f16::from_f32(f32::from_bits(a as u32)).to_bits() as u64;
    }
    let fsrc = |a: u64| -> f64 {
        if src == Ty::F32 {
            let x = f32::from_bits(a as u32);
            (if ftz { ftz32(x) } else { x }) as f64
        } else {
            f64::from_bits(a)
        }
    };
    match (src.is_float(), dst.is_float()) {
        (false, false) => {
            let v = int_value(a, src);
            let v = if sat {
                let (lo, hi) = int_range(dst);
                v.clamp(lo, hi)
            } else {
                v
            };
            (v as u64) & dst.mask()
        }
        (true, false) => {
            let x = round_integral(fsrc(a), rnd);
            // Rust's float-to-int casts saturate and give 0 for NaN, as PTX does.
            let v: u64 = match dst {
                Ty::S8 => x as i8 as u64,
                Ty::S16 => x as i16 as u64,
                Ty::S32 => x as i32 as u64,
                Ty::S64 => x as i64 as u64,
                Ty::U8 | Ty::B8 => x as u8 as u64,
                Ty::U16 | Ty::B16 => x as u16 as u64,
                Ty::U32 | Ty::B32 => x as u32 as u64,
                _ => x as u64,
            };
            v & dst.mask()
        }
        (false, true) => {
            let v = int_value(a, src);
            if dst == Ty::F32 {
                let r = v as f32;
                let ord = (r as i128).cmp(&v);
                // r is at most 2^64 here, so `r as i128` is exact.
                sat_f32(adjust32(r, ord, rnd), sat).to_bits() as u64
            } else {
                let r = v as f64;
                let ord = (r as i128).cmp(&v);
                sat_f64(adjust64(r, ord, rnd), sat).to_bits()
            }
        }
        (true, true) => {
            let x = fsrc(a);
            let irnd = matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi);
            let x = if irnd { round_integral(x, rnd) } else { x };
            if dst == Ty::F32 {
                let mut r = x as f32;
                if !irnd && !x.is_nan() {
                    let ord = (r as f64).partial_cmp(&x).unwrap_or(Ordering::Equal);
                    r = adjust32(r, ord, rnd);
                }
                if ftz {
                    r = ftz32(r);
                }
                sat_f32(r, sat).to_bits() as u64
            } else {
                sat_f64(x, sat).to_bits()
            }
        }
    }
}

fn sat_f32(x: f32, sat: bool) -> f32 {
    if !sat {
        return x;
    }
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

fn sat_f64(x: f64, sat: bool) -> f64 {
    if !sat {
        return x;
    }
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}
