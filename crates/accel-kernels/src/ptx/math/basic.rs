//! The exact functions: rounding, sign and bit manipulation, comparisons,
//! `powi`. Each is computed in its own type with the semantics of Rust's
//! method (and of `accel_runtime::ops` where accel defines its own).

use super::ir::{FCmp, ICmp, Rnd, Ty, B, V};

impl B {
    /// Rust's `round`: half away from zero.
    pub fn round_half_away(&mut self, x: V) -> V {
        let t = self.ty(x);
        let tr = self.round(Rnd::Zero, x);
        let d = self.sub(x, tr); // exact
        let d = self.abs(d);
        let half = self.c(t, 0.5);
        let up = self.fcmp(FCmp::Ge, d, half);
        let one = self.c(t, 1.0);
        let s = self.copysign(one, x);
        let r = self.add(tr, s);
        self.sel(up, r, tr)
    }

    /// `x.fract()` = `x - x.trunc()`.
    pub fn fract(&mut self, x: V) -> V {
        let tr = self.round(Rnd::Zero, x);
        self.sub(x, tr)
    }

    pub fn signum(&mut self, x: V) -> V {
        let t = self.ty(x);
        let one = self.c(t, 1.0);
        let s = self.copysign(one, x);
        let n = self.fcmp(FCmp::Nan, x, x);
        self.sel(n, x, s)
    }

    /// `f32::min`: a NaN operand yields the other one.
    pub fn fmin(&mut self, x: V, y: V) -> V {
        let lt = self.fcmp(FCmp::Lt, x, y);
        let yn = self.fcmp(FCmp::Nan, y, y);
        let p = self.por(lt, yn);
        self.sel(p, x, y)
    }

    pub fn fmax(&mut self, x: V, y: V) -> V {
        let gt = self.fcmp(FCmp::Gt, x, y);
        let yn = self.fcmp(FCmp::Nan, y, y);
        let p = self.por(gt, yn);
        self.sel(p, x, y)
    }

    /// accel's clamp (never panics): `lo` if x < lo, then `hi` if above hi.
    pub fn clamp(&mut self, x: V, lo: V, hi: V) -> V {
        let p = self.fcmp(FCmp::Lt, x, lo);
        let x = self.sel(p, lo, x);
        let q = self.fcmp(FCmp::Gt, x, hi);
        self.sel(q, hi, x)
    }

    /// A predicate as a u32 0/1.
    pub fn bool32(&mut self, p: V) -> V {
        let one = self.ci(1);
        let zero = self.ci(0);
        self.sel(p, one, zero)
    }

    pub fn is_normal(&mut self, x: V) -> V {
        let t = self.ty(x);
        let a = self.abs(x);
        let min = self.c(
            t,
            if t == Ty::F32 {
                f32::MIN_POSITIVE as f64
            } else {
                f64::MIN_POSITIVE
            },
        );
        let ge = self.fcmp(FCmp::Ge, a, min);
        let fin = self.is_finite(x);
        self.pand(ge, fin)
    }

    pub fn is_infinite(&mut self, x: V) -> V {
        let t = self.ty(x);
        let a = self.abs(x);
        let inf = self.c(t, f64::INFINITY);
        self.fcmp(FCmp::Eq, a, inf)
    }

    /// Rust's `powi`: binary powering in the float's own type (the algorithm
    /// of compiler-builtins' `__powisf2`/`__powidf2`), then 1/r for n < 0.
    pub fn powi(&mut self, x: V, n: V) -> V {
        let t = self.ty(x);
        let zero = self.ci(0);
        let neg = self.icmp(ICmp::Lt, n, zero);
        let nn = self.isub(zero, n);
        let m = self.sel(neg, nn, n); // |n| as u32 (i32::MIN stays 2^31)
        let one_i = self.ci(1);
        let one = self.c(t, 1.0);
        let mut acc = one;
        let mut a = x;
        for i in 0..32 {
            let sh = self.ci(i);
            let b = self.shr(m, sh);
            let b = self.and(b, one_i);
            let set = self.icmp(ICmp::Ne, b, zero);
            let prod = self.mul(acc, a);
            acc = self.sel(set, prod, acc);
            if i < 31 {
                a = self.mul(a, a);
            }
        }
        let inv = self.div(one, acc);
        self.sel(neg, inv, acc)
    }
}
