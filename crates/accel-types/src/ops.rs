//! The meaning of scalar arithmetic in accel programs, shared by the generated
//! code and the reference interpreter.
//!
//! * Integer `+ - * -x` wrap (two's complement), never trap.
//! * Integer `/` and `%` by zero give `0` and the dividend respectively
//!   (`x / 0 == 0`, `x % 0 == x`); `MIN / -1` wraps to `MIN` and `MIN % -1 == 0`.
//! * Shifts use the amount modulo the bit width (`x << 33 == x << 1` for 32 bits).
//! * Float arithmetic is IEEE 754, as in Rust.
//! * `div_euclid`/`rem_euclid` follow `/` and `%`: by zero they give `0` and the
//!   dividend; `MIN.div_euclid(-1)` wraps to `MIN`.
//! * `clamp(lo, hi)` never panics: it raises to `lo`, then lowers to `hi`, as
//!   Rust does after its check, so where Rust would panic `lo > hi` gives `hi`
//!   and a NaN bound is ignored.

/// Arithmetic with accel's defined results for every input.
pub trait ScalarOps: Copy {
    fn acc_add(self, o: Self) -> Self;
    fn acc_sub(self, o: Self) -> Self;
    fn acc_mul(self, o: Self) -> Self;
    fn acc_div(self, o: Self) -> Self;
    fn acc_rem(self, o: Self) -> Self;
    fn acc_neg(self) -> Self;
    fn acc_abs(self) -> Self;
    fn acc_min(self, o: Self) -> Self;
    fn acc_max(self, o: Self) -> Self;
}

/// Shifts by an amount modulo the bit width.
pub trait ShiftOps: Copy {
    fn acc_shl(self, by: u32) -> Self;
    fn acc_shr(self, by: u32) -> Self;
}

/// The math methods whose Rust versions can panic, with defined results.
pub trait MathOps: Copy {
    fn acc_clamp(self, lo: Self, hi: Self) -> Self;
    fn acc_div_euclid(self, o: Self) -> Self;
    fn acc_rem_euclid(self, o: Self) -> Self;
}

macro_rules! int_ops {
    ($($t:ty),*) => {$(
        impl ScalarOps for $t {
            #[inline(always)] fn acc_add(self, o: Self) -> Self { self.wrapping_add(o) }
            #[inline(always)] fn acc_sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            #[inline(always)] fn acc_mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            #[inline(always)] fn acc_div(self, o: Self) -> Self {
                if o == 0 { 0 } else { self.wrapping_div(o) }
            }
            #[inline(always)] fn acc_rem(self, o: Self) -> Self {
                if o == 0 { self } else { self.wrapping_rem(o) }
            }
            #[inline(always)] fn acc_neg(self) -> Self { (0 as $t).wrapping_sub(self) }
            #[inline(always)] fn acc_abs(self) -> Self {
                #[allow(unused_comparisons)]
                if self < 0 { self.acc_neg() } else { self }
            }
            #[inline(always)] fn acc_min(self, o: Self) -> Self { Ord::min(self, o) }
            #[inline(always)] fn acc_max(self, o: Self) -> Self { Ord::max(self, o) }
        }
        impl MathOps for $t {
            #[inline(always)] fn acc_clamp(self, lo: Self, hi: Self) -> Self {
                let x = if self < lo { lo } else { self };
                if x > hi { hi } else { x }
            }
            #[inline(always)] fn acc_div_euclid(self, o: Self) -> Self {
                if o == 0 { 0 } else { self.wrapping_div_euclid(o) }
            }
            #[inline(always)] fn acc_rem_euclid(self, o: Self) -> Self {
                if o == 0 { self } else { self.wrapping_rem_euclid(o) }
            }
        }
        impl ShiftOps for $t {
            #[inline(always)] fn acc_shl(self, by: u32) -> Self { self.wrapping_shl(by) }
            #[inline(always)] fn acc_shr(self, by: u32) -> Self { self.wrapping_shr(by) }
        }
    )*};
}
int_ops!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

macro_rules! float_ops {
    ($($t:ty),*) => {$(
        impl ScalarOps for $t {
            #[inline(always)] fn acc_add(self, o: Self) -> Self { self + o }
            #[inline(always)] fn acc_sub(self, o: Self) -> Self { self - o }
            #[inline(always)] fn acc_mul(self, o: Self) -> Self { self * o }
            #[inline(always)] fn acc_div(self, o: Self) -> Self { self / o }
            #[inline(always)] fn acc_rem(self, o: Self) -> Self { self % o }
            #[inline(always)] fn acc_neg(self) -> Self { -self }
            #[inline(always)] fn acc_abs(self) -> Self { self.abs() }
            // Rust's `min` and `max` (a NaN operand gives the other one),
            // written as a compare and a select: LLVM vectorises that form
            // in any loop, where it vectorises `minnum` only in a loop of
            // its own (a fold of `(sum, min, max)` runs 2x faster).
            #[inline(always)] fn acc_min(self, o: Self) -> Self { if self < o || o.is_nan() { self } else { o } }
            #[inline(always)] fn acc_max(self, o: Self) -> Self { if self > o || o.is_nan() { self } else { o } }
        }
    )*};
}
float_ops!(f32, f64);

macro_rules! float_math {
    ($($t:ty),*) => {$(
        impl MathOps for $t {
            #[inline(always)] fn acc_clamp(self, lo: Self, hi: Self) -> Self {
                let x = if self < lo { lo } else { self };
                if x > hi { hi } else { x }
            }
            #[inline(always)] fn acc_div_euclid(self, o: Self) -> Self { self.div_euclid(o) }
            #[inline(always)] fn acc_rem_euclid(self, o: Self) -> Self { self.rem_euclid(o) }
        }
    )*};
}
float_math!(f32, f64);

/// The half-precision floats (`f16`, `bf16`): stored in 16 bits, computed
/// in `f32`. Every operation converts its operands to `f32` (exactly),
/// computes there and rounds the result back to nearest, ties to even, as
/// the `half` crate's operators do; the GPU path computes the same way, so
/// both give the same bits.
pub trait Half: Copy {
    fn from_f32(x: f32) -> Self;
    fn to_f32(self) -> f32;
}

macro_rules! half_ops {
    ($($t:ty),*) => {$(
        impl Half for $t {
            #[inline(always)] fn from_f32(x: f32) -> Self { <$t>::from_f32(x) }
            #[inline(always)] fn to_f32(self) -> f32 { <$t>::to_f32(self) }
        }
        impl ScalarOps for $t {
            #[inline(always)] fn acc_add(self, o: Self) -> Self { half_op(self, o, f32::acc_add) }
            #[inline(always)] fn acc_sub(self, o: Self) -> Self { half_op(self, o, f32::acc_sub) }
            #[inline(always)] fn acc_mul(self, o: Self) -> Self { half_op(self, o, f32::acc_mul) }
            #[inline(always)] fn acc_div(self, o: Self) -> Self { half_op(self, o, f32::acc_div) }
            #[inline(always)] fn acc_rem(self, o: Self) -> Self { half_op(self, o, f32::acc_rem) }
            #[inline(always)] fn acc_neg(self) -> Self { -self }
            #[inline(always)] fn acc_abs(self) -> Self { <$t>::from_bits(self.to_bits() & 0x7fff) }
            #[inline(always)] fn acc_min(self, o: Self) -> Self { half_op(self, o, f32::acc_min) }
            #[inline(always)] fn acc_max(self, o: Self) -> Self { half_op(self, o, f32::acc_max) }
        }
        impl MathOps for $t {
            #[inline(always)] fn acc_clamp(self, lo: Self, hi: Self) -> Self {
                <$t>::from_f32(self.to_f32().acc_clamp(lo.to_f32(), hi.to_f32()))
            }
            #[inline(always)] fn acc_div_euclid(self, o: Self) -> Self { half_op(self, o, f32::acc_div_euclid) }
            #[inline(always)] fn acc_rem_euclid(self, o: Self) -> Self { half_op(self, o, f32::acc_rem_euclid) }
        }
    )*};
}
half_ops!(half::f16, half::bf16);

/// `f(a, b)` computed in `f32` and rounded back to `H`.
#[inline(always)]
pub fn half_op<H: Half>(a: H, b: H, f: impl Fn(f32, f32) -> f32) -> H {
    H::from_f32(f(a.to_f32(), b.to_f32()))
}

impl ScalarOps for bool {
    // Arithmetic on bool is rejected by the type checker; min and max are
    // defined (false < true) so that `minimum`/`maximum` work on bool arrays.
    #[inline(always)]
    fn acc_add(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn acc_sub(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn acc_mul(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn acc_div(self, _: Self) -> Self {
        self
    }
    #[inline(always)]
    fn acc_rem(self, _: Self) -> Self {
        false
    }
    #[inline(always)]
    fn acc_neg(self) -> Self {
        self
    }
    #[inline(always)]
    fn acc_abs(self) -> Self {
        self
    }
    #[inline(always)]
    fn acc_min(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn acc_max(self, o: Self) -> Self {
        self | o
    }
}

/// Integer division by a divisor that stays the same over many divisions
/// (over a kernel, or over a run of an expand's elements): the divisor's
/// reciprocal is computed once ([`FastDiv::divisor`]) and each division is a
/// multiplication and a shift, without a branch, with results exactly those
/// of [`ScalarOps::acc_div`] and [`ScalarOps::acc_rem`] (by zero, by -1).
///
/// The method is Lemire, Kaser and Kurz's ("Faster remainder by direct
/// computation", 2019): for `N`-bit `a` and `d > 0`, with `c = ceil(2^2N /
/// d)`, `a / d = floor(a * c / 2^2N)`. `c` takes one bit more than `2N` (for
/// `d = 1` it is `2^2N`), kept apart as `top`; for `d = 0` both are zero,
/// which gives `a / 0 = 0` and `a % 0 = a`, accel's results, with no test.
/// (The `strength_reduce` crate does the same for unsigned types, but panics
/// on a zero divisor and branches on powers of two; accel needs signed
/// types and `x / 0` defined, here in one path without a branch.)
pub trait FastDiv: Copy {
    type Divisor: Copy;
    fn divisor(self) -> Self::Divisor;
    fn fast_div(self, d: Self::Divisor) -> Self;
    fn fast_rem(self, d: Self::Divisor) -> Self;
}

/// The reciprocal of a divisor of at most 32 bits: `c = top * 2^64 + low`.
#[derive(Clone, Copy, Debug)]
pub struct Divisor32 {
    low: u64,
    top: u64,
    d: u32,
    negative: bool,
}

impl Divisor32 {
    #[inline]
    fn new(d: u32, negative: bool) -> Divisor32 {
        let (low, top) = match d {
            0 => (0, 0),
            1 => (0, 1),
            // ceil(2^64 / d) for d > 1 fits in 64 bits.
            _ => (u64::MAX / d as u64 + 1, 0),
        };
        Divisor32 {
            low,
            top,
            d,
            negative,
        }
    }

    /// `a / d` of the magnitudes.
    #[inline(always)]
    fn quotient(self, a: u32) -> u32 {
        let a = a as u64;
        (((a as u128 * self.low as u128) >> 64) as u64 + a * self.top) as u32
    }
}

/// The reciprocal of a 64-bit divisor: `c = top * 2^128 + high * 2^64 + low`.
#[derive(Clone, Copy, Debug)]
pub struct Divisor64 {
    low: u64,
    high: u64,
    top: u64,
    d: u64,
    negative: bool,
}

impl Divisor64 {
    #[inline]
    fn new(d: u64, negative: bool) -> Divisor64 {
        let (c, top) = match d {
            0 => (0, 0),
            1 => (0, 1),
            _ => (u128::MAX / d as u128 + 1, 0),
        };
        Divisor64 {
            low: c as u64,
            high: (c >> 64) as u64,
            top,
            d,
            negative,
        }
    }

    #[inline(always)]
    fn quotient(self, a: u64) -> u64 {
        // floor(a * c / 2^128), from the 192-bit product's top 64 bits.
        let lo = (a as u128 * self.low as u128) >> 64;
        let mid = a as u128 * self.high as u128 + lo;
        (mid >> 64) as u64 + a * self.top
    }
}

macro_rules! fast_div {
    ($($t:ty => $d:ident, $u:ty, $signed:expr);*) => {$(
        impl FastDiv for $t {
            type Divisor = $d;
            #[inline]
            fn divisor(self) -> $d {
                #[allow(unused_comparisons)]
                $d::new(self.unsigned_abs() as _, self < 0)
            }
            #[inline(always)]
            fn fast_div(self, d: $d) -> Self {
                // The magnitudes divided; the quotient negated (two's
                // complement, without a branch) when the signs differ.
                // `MIN / -1`: `|MIN| / 1` casts back to `MIN`, as
                // `wrapping_div` gives.
                let q = d.quotient(self.unsigned_abs() as _) as $u;
                if !$signed {
                    // Nothing to negate (`divisor` never sets `negative`).
                    return q as $t;
                }
                #[allow(unused_comparisons)]
                let flip = ((self < 0) != d.negative) as $u;
                (q ^ flip.wrapping_neg()).wrapping_add(flip) as $t
            }
            #[inline(always)]
            fn fast_rem(self, d: $d) -> Self {
                // `a - q * d`, wrapping: the dividend's sign, as truncating
                // division gives; `MIN % -1` is 0, and `a % 0` is `a`.
                let q = self.fast_div(d) as $u;
                let dv = if $signed && d.negative { (d.d as $u).wrapping_neg() } else { d.d as $u };
                (self as $u).wrapping_sub(q.wrapping_mul(dv)) as $t
            }
        }
    )*};
}
trait UnsignedAbs {
    type Abs;
    fn unsigned_abs(self) -> Self::Abs;
}
macro_rules! unsigned_abs_of_unsigned {
    ($($t:ty),*) => {$(
        impl UnsignedAbs for $t {
            type Abs = $t;
            #[inline(always)]
            fn unsigned_abs(self) -> $t { self }
        }
    )*};
}
unsigned_abs_of_unsigned!(u8, u16, u32, u64, usize);
fast_div!(
    u8 => Divisor32, u8, false;
    u16 => Divisor32, u16, false;
    u32 => Divisor32, u32, false;
    u64 => Divisor64, u64, false;
    usize => Divisor64, usize, false;
    i8 => Divisor32, u8, true;
    i16 => Divisor32, u16, true;
    i32 => Divisor32, u32, true;
    i64 => Divisor64, u64, true
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defined_results() {
        assert_eq!(i32::MAX.acc_add(1), i32::MIN);
        assert_eq!(7i32.acc_div(0), 0);
        assert_eq!(7i32.acc_rem(0), 7);
        assert_eq!(i32::MIN.acc_div(-1), i32::MIN);
        assert_eq!(i32::MIN.acc_rem(-1), 0);
        assert_eq!(1u8.acc_shl(9), 2);
        assert_eq!(i8::MIN.acc_abs(), i8::MIN);
        assert_eq!(3u32.acc_abs(), 3);
        assert_eq!((-7i32).acc_div_euclid(2), -4);
        assert_eq!((-7i32).acc_rem_euclid(2), 1);
        assert_eq!(7i32.acc_div_euclid(0), 0);
        assert_eq!((-7i32).acc_rem_euclid(0), -7);
        assert_eq!(i32::MIN.acc_div_euclid(-1), i32::MIN);
        assert_eq!(i32::MIN.acc_rem_euclid(-1), 0);
        assert_eq!(5u8.acc_clamp(7, 3), 3);
        assert_eq!(5.0f32.acc_clamp(1.0, 2.0), 2.0);
        assert!(f32::NAN.acc_clamp(1.0, 2.0).is_nan());
        assert_eq!(1.5f32.acc_clamp(f32::NAN, 1.0), 1.0);
    }

    /// Every pair of `i8`/`u8` values, and edge and random values of the
    /// wider types: the same results as `acc_div` and `acc_rem`.
    #[test]
    fn float_min_and_max_are_rusts() {
        let xs = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -1.5,
            0.0,
            2.0,
            f64::MIN_POSITIVE,
            f64::MAX,
        ];
        for &a in &xs {
            for &b in &xs {
                let same = |x: f64, y: f64| x == y || x.is_nan() && y.is_nan();
                assert!(same(a.acc_min(b), a.min(b)), "min({a}, {b})");
                assert!(same(a.acc_max(b), a.max(b)), "max({a}, {b})");
                let (a, b) = (a as f32, b as f32);
                assert!(a.acc_min(b) == a.min(b) || a.min(b).is_nan() && a.acc_min(b).is_nan());
                assert!(a.acc_max(b) == a.max(b) || a.max(b).is_nan() && a.acc_max(b).is_nan());
            }
        }
    }

    #[test]
    fn fast_division_matches_the_defined_results() {
        fn check<T: FastDiv + ScalarOps + PartialEq + std::fmt::Debug>(a: T, b: T) {
            let d = b.divisor();
            assert_eq!(a.fast_div(d), a.acc_div(b), "{a:?} / {b:?}");
            assert_eq!(a.fast_rem(d), a.acc_rem(b), "{a:?} % {b:?}");
        }
        for a in i8::MIN..=i8::MAX {
            for b in i8::MIN..=i8::MAX {
                check(a, b);
                check(a as u8, b as u8);
            }
        }
        let mut x = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let edges = [
            0u64,
            1,
            2,
            3,
            7,
            12,
            1 << 31,
            (1 << 32) - 1,
            1 << 63,
            u64::MAX,
            u64::MAX - 1,
        ];
        let mut values: Vec<u64> = edges
            .iter()
            .flat_map(|&e| [e, e.wrapping_neg(), e >> 32])
            .collect();
        values.extend((0..200).map(|_| next()));
        values.extend((0..200).map(|_| next() >> (next() % 64)));
        for &a in &values {
            for &b in &values {
                check(a as i16, b as i16);
                check(a as u16, b as u16);
                check(a as i32, b as i32);
                check(a as u32, b as u32);
                check(a as i64, b as i64);
                check(a, b);
                check(a as usize, b as usize);
            }
        }
    }
}
