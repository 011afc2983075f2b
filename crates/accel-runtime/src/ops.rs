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
            #[inline(always)] fn acc_min(self, o: Self) -> Self { self.min(o) }
            #[inline(always)] fn acc_max(self, o: Self) -> Self { self.max(o) }
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
}
