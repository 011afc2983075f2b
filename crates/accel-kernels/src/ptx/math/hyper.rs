//! Hyperbolic functions and their inverses in f64, built from expm1, exp,
//! ln and ln1p with the usual cancellation-free rearrangements.

use super::consts::*;
use super::ir::{FCmp, B, V};

impl B {
    fn lt_c(&mut self, a: V, c: f64) -> V {
        let cv = self.cf64(c);
        self.fcmp(FCmp::Lt, a, cv)
    }

    /// e^a / 2 without overflowing early: e^(a - ln2).
    fn half_exp(&mut self, a: V) -> V {
        let l = self.k(LN2_HI);
        let ll = self.k(LN2_LO);
        let nl = self.neg(l);
        let nll = self.neg(ll);
        let (h, e) = self.two_sum(a, nl);
        let lo = self.add(e, nll);
        self.exp_dd(h, lo)
    }

    fn keep_tiny(&mut self, x: V, r: V) -> V {
        let ax = self.abs(x);
        let t = self.lt_c(ax, 1e-9);
        self.sel(t, x, r)
    }

    fn keep_nan(&mut self, x: V, r: V) -> V {
        let n = self.fcmp(FCmp::Nan, x, x);
        self.sel(n, x, r)
    }

    pub fn sinh64(&mut self, x: V) -> V {
        let a = self.abs(x);
        let e = self.expm1_64(a);
        let one = self.cf64(1.0);
        let half = self.cf64(0.5);
        let e1 = self.add(e, one);
        let q = self.div(e, e1);
        // a < 1: (2E - E²/(E+1))/2; a >= 1: (E + E/(E+1))/2.
        let two = self.cf64(2.0);
        let ee = self.mul(e, q);
        let nee = self.neg(ee);
        let s1 = self.fma(two, e, nee);
        let s2 = self.add(e, q);
        let small = self.lt_c(a, 1.0);
        let s = self.sel(small, s1, s2);
        let s = self.mul(s, half);
        let big = self.half_exp(a);
        let mid = self.lt_c(a, 22.0);
        let r = self.sel(mid, s, big);
        let r = self.copysign(r, x);
        let r = self.keep_tiny(x, r);
        self.keep_nan(x, r)
    }

    pub fn cosh64(&mut self, x: V) -> V {
        let a = self.abs(x);
        let one = self.cf64(1.0);
        let half = self.cf64(0.5);
        // a < 1: 1 + E²/(2(1+E)) with E = expm1(a).
        let e = self.expm1_64(a);
        let e1 = self.add(e, one);
        let e12 = self.add(e1, e1);
        let ee = self.mul(e, e);
        let t = self.div(ee, e12);
        let c1 = self.add(one, t);
        // 1 <= a < 22: (e^a + e^-a)/2.
        let ea = self.exp64(a);
        let h = self.mul(ea, half);
        let inv = self.div(half, ea);
        let c2 = self.add(h, inv);
        let big = self.half_exp(a);
        let small = self.lt_c(a, 1.0);
        let mid = self.lt_c(a, 22.0);
        let r = self.sel(mid, c2, big);
        let r = self.sel(small, c1, r);
        self.keep_nan(x, r)
    }

    pub fn tanh64(&mut self, x: V) -> V {
        let a = self.abs(x);
        let two = self.cf64(2.0);
        let one = self.cf64(1.0);
        // a < 0.9: the Taylor series a + a³·T(a²) (radius π/2; 39 terms).
        let z = self.mul(a, a);
        let coef: Vec<f64> = TANH_TAYLOR.iter().map(|&b| f64::from_bits(b)).collect();
        let p = self.horner(z, &coef);
        let a3 = self.mul(a, z);
        let t1 = self.fma(a3, p, a);
        // 0.9 <= a < 22: 1 - 2/(expm1(2a) + 2).
        let a2 = self.mul(a, two);
        let f = self.expm1_64(a2);
        let f2 = self.add(f, two);
        let q = self.div(two, f2);
        let t2 = self.sub(one, q);
        let small = self.lt_c(a, 0.9);
        let mid = self.lt_c(a, 22.0);
        let r = self.sel(mid, t2, one);
        let r = self.sel(small, t1, r);
        let r = self.copysign(r, x);
        let r = self.keep_tiny(x, r);
        self.keep_nan(x, r)
    }

    /// ln(a) + ln 2 for large a.
    fn ln_2a(&mut self, a: V) -> V {
        let (h, l) = self.log_dd(a);
        let lh = self.k(LN2_HI);
        let ll = self.k(LN2_LO);
        let (s, e) = self.two_sum(h, lh);
        let lo = self.add(l, ll);
        let lo = self.add(lo, e);
        self.add(s, lo)
    }

    /// Rust's std computes asinh/acosh through `|x| + ...`, which overflows
    /// to inf from 2^1023 (f64) / 2^127 (f32); the CPU back end does that,
    /// so the GPU does too.
    fn rust_overflow(&mut self, a: V, r: V, f32_input: bool) -> V {
        let lim = self.cf64(if f32_input {
            2f64.powi(127)
        } else {
            2f64.powi(1023)
        });
        let inf = self.cf64(f64::INFINITY);
        let over = self.fcmp(FCmp::Ge, a, lim);
        self.sel(over, inf, r)
    }

    pub fn asinh64(&mut self, x: V, f32_input: bool) -> V {
        let a = self.abs(x);
        let one = self.cf64(1.0);
        let aa = self.mul(a, a);
        let s = self.fma(a, a, one);
        let s = self.sqrt(s); // sqrt(a² + 1)
                              // a <= 2: ln1p(a + a²/(1 + sqrt(1 + a²))).
        let d = self.add(one, s);
        let t = self.div(aa, d);
        let t = self.add(a, t);
        let r1 = self.ln1p64(t);
        // 2 < a <= 2^28: ln(2a + 1/(sqrt(a²+1) + a)).
        let sa = self.add(s, a);
        let inv = self.div(one, sa);
        let a2 = self.add(a, a);
        let u = self.add(a2, inv);
        let r2 = self.ln64(u);
        let r3 = self.ln_2a(a);
        let small = self.lt_c(a, 2.0);
        let mid = self.lt_c(a, 268435456.0);
        let r = self.sel(mid, r2, r3);
        let r = self.sel(small, r1, r);
        let inf = self.cf64(f64::INFINITY);
        let is_inf = self.fcmp(FCmp::Eq, a, inf);
        let r = self.sel(is_inf, inf, r);
        let r = self.rust_overflow(a, r, f32_input);
        let r = self.copysign(r, x);
        let r = self.keep_tiny(x, r);
        self.keep_nan(x, r)
    }

    pub fn acosh64(&mut self, x: V, f32_input: bool) -> V {
        let one = self.cf64(1.0);
        let m1 = self.cf64(-1.0);
        // x <= 2: ln1p(t + sqrt(2t + t²)), t = x - 1.
        let t = self.sub(x, one);
        let two = self.cf64(2.0);
        let tt = self.add(t, two);
        let w = self.mul(t, tt);
        let w = self.sqrt(w);
        let w = self.add(t, w);
        let r1 = self.ln1p64(w);
        // 2 < x <= 2^28: ln(2x - 1/(x + sqrt(x² - 1))).
        let s = self.fma(x, x, m1);
        let s = self.sqrt(s);
        let xs = self.add(x, s);
        let inv = self.div(one, xs);
        let x2 = self.add(x, x);
        let u = self.sub(x2, inv);
        let r2 = self.ln64(u);
        let r3 = self.ln_2a(x);
        let small = self.lt_c(x, 2.0);
        let mid = self.lt_c(x, 268435456.0);
        let r = self.sel(mid, r2, r3);
        let r = self.sel(small, r1, r);
        let inf = self.cf64(f64::INFINITY);
        let is_inf = self.fcmp(FCmp::Eq, x, inf);
        let r = self.sel(is_inf, inf, r);
        let r = self.rust_overflow(x, r, f32_input);
        let nan = self.cf64(f64::NAN);
        let below = self.lt_c(x, 1.0);
        let r = self.sel(below, nan, r);
        self.keep_nan(x, r)
    }

    pub fn atanh64(&mut self, x: V) -> V {
        let a = self.abs(x);
        let one = self.cf64(1.0);
        let half = self.cf64(0.5);
        let om = self.sub(one, a);
        let a2 = self.add(a, a);
        // a < 0.5: ln1p(2a + 2a·a/(1-a)) / 2; else ln1p(2a/(1-a)) / 2.
        let q = self.mul(a2, a);
        let q = self.div(q, om);
        let u1 = self.add(a2, q);
        let u2 = self.div(a2, om);
        let small = self.lt_c(a, 0.5);
        let u = self.sel(small, u1, u2);
        let l = self.ln1p64(u);
        let r = self.mul(l, half);
        let nan = self.cf64(f64::NAN);
        let above = self.fcmp(FCmp::Gt, a, one);
        let r = self.sel(above, nan, r);
        let r = self.copysign(r, x);
        let r = self.keep_tiny(x, r);
        self.keep_nan(x, r)
    }
}
