//! Exponentials and logarithms in f64 (the f32 versions evaluate these in f64
//! and round once).
//!
//! exp: x = k·ln2 + r with |r| <= ln2/2 (Cody–Waite, ln2 split so that k·ln2_hi
//! is exact), e^r = 1 + (r + r²·P(r)) with P the Taylor series to r^11/13!,
//! then scaled by 2^k in two exact steps.
//! ln: x = 2^e·m with m in [√½, √2), ln m = 2·atanh(s), s = (m-1)/(m+1) carried
//! as a double-double, atanh's odd series in s² (|s| < 0.172); the result is a
//! double-double so that pow can use it.

use super::consts::*;
use super::dd::inv_fact;
use super::ir::{FCmp, ICmp, Rnd, Ty, B, V};

impl B {
    /// e^(r_hi + r_lo) · 2^kf for |r| <= ~0.35 and kf an integer in [-2044, 2046].
    pub fn exp_reduced(&mut self, kf: V, rh: V, rl: V) -> V {
        let r = self.add(rh, rl);
        let coef: Vec<f64> = (2..=13).map(inv_fact).collect();
        let p = self.horner(r, &coef);
        let r2 = self.mul(r, r);
        let q = self.fma(r2, p, r);
        let one = self.cf64(1.0);
        let e = self.add(one, q);
        let ki = self.f2s(Rnd::Nearest, kf);
        self.ldexp64(e, ki)
    }

    /// e^(x + xl) for the double-double x + xl (xl small), with overflow and
    /// underflow decided on x.
    pub fn exp_dd(&mut self, x: V, xl: V) -> V {
        let log2e = self.k(LOG2E_HI);
        let t = self.mul(x, log2e);
        let kf = self.round(Rnd::Nearest, t);
        let nk = self.neg(kf);
        let l1 = self.k(LN2_42);
        let l2 = self.k(LN2_42_LO);
        let rh = self.fma(nk, l1, x); // exact
        let rl = self.fma(nk, l2, xl);
        let (rh, rl) = self.fast_two_sum(rh, rl);
        let e = self.exp_reduced(kf, rh, rl);
        let hi = self.cf64(709.782712893384);
        let lo = self.cf64(-745.1332191019412);
        let inf = self.cf64(f64::INFINITY);
        let zero = self.cf64(0.0);
        let over = self.fcmp(FCmp::Gt, x, hi);
        let under = self.fcmp(FCmp::Lt, x, lo);
        let e = self.sel(under, zero, e);
        self.sel(over, inf, e)
    }

    pub fn exp64(&mut self, x: V) -> V {
        let z = self.cf64(0.0);
        self.exp_dd(x, z)
    }

    pub fn exp2_64(&mut self, x: V) -> V {
        let kf = self.round(Rnd::Nearest, x);
        let f = self.sub(x, kf); // exact
        let l_hi = self.k(LN2_HI);
        let l_lo = self.k(LN2_LO);
        let (rh, rl) = self.two_prod(f, l_hi);
        let rl = self.fma(f, l_lo, rl);
        // Clamp k so that the scaling stays in range; the selects below decide.
        let big = self.cf64(1100.0);
        let nbig = self.cf64(-1100.0);
        let kc = self.sel_min(kf, big);
        let kc = self.sel_max(kc, nbig);
        let e = self.exp_reduced(kc, rh, rl);
        let inf = self.cf64(f64::INFINITY);
        let zero = self.cf64(0.0);
        let c1024 = self.cf64(1024.0);
        let cm = self.cf64(-1076.0);
        let over = self.fcmp(FCmp::Ge, x, c1024);
        let under = self.fcmp(FCmp::Lt, x, cm);
        let e = self.sel(under, zero, e);
        self.sel(over, inf, e)
    }

    /// Signed 32-bit min.
    pub fn sel_min_i(&mut self, a: V, b: V) -> V {
        let p = self.icmp(ICmp::Gt, a, b);
        self.sel(p, b, a)
    }

    /// min/max for non-NaN `b` (a NaN `a` is kept).
    pub fn sel_min(&mut self, a: V, b: V) -> V {
        let p = self.fcmp(FCmp::Gt, a, b);
        self.sel(p, b, a)
    }
    pub fn sel_max(&mut self, a: V, b: V) -> V {
        let p = self.fcmp(FCmp::Lt, a, b);
        self.sel(p, b, a)
    }

    /// e^x - 1.
    pub fn expm1_64(&mut self, x: V) -> V {
        let log2e = self.k(LOG2E_HI);
        let t = self.mul(x, log2e);
        let kf = self.round(Rnd::Nearest, t);
        // k in [-60, 1030] keeps the scaling exact; outside, -1 or e^x rule.
        let kmax = self.cf64(1030.0);
        let kmin = self.cf64(-60.0);
        let kf = self.sel_min(kf, kmax);
        let kf = self.sel_max(kf, kmin);
        let nk = self.neg(kf);
        let l1 = self.k(LN2_42);
        let l2 = self.k(LN2_42_LO);
        let rh = self.fma(nk, l1, x);
        let rl = self.mul(nk, l2);
        let (r, rl) = self.fast_two_sum(rh, rl);
        // expm1(r) = r + r²·P(r), plus rl·e^r.
        let coef: Vec<f64> = (2..=14).map(inv_fact).collect();
        let p = self.horner(r, &coef);
        let r2 = self.mul(r, r);
        let one = self.cf64(1.0);
        let tail = self.fma(rl, r, rl); // rl·e^r to first order
        let q = self.fma(r2, p, tail);
        let em = self.add(r, q); // expm1(r)
                                 // 2^k·(em + 1) - 1 = 2^k·em + (2^k - 1).
        let ki = self.f2s(Rnd::Nearest, kf);
        // Small k: 2^k·em + (2^k - 1) (exact 2^k - 1). Large k (> 60): the
        // -1 is below half an ulp, so 2^k·(em + 1), which cannot overflow early.
        let c60 = self.ci(60);
        let ks = self.sel_min_i(ki, c60);
        let a = self.ldexp64(em, ks);
        let pk = self.ldexp64(one, ks);
        let pk1 = self.sub(pk, one);
        let res = self.add(a, pk1);
        let em1 = self.add(em, one);
        let big = self.ldexp64(em1, ki);
        let c60f = self.cf64(60.0);
        let is_big = self.fcmp(FCmp::Gt, kf, c60f);
        let res = self.sel(is_big, big, res);
        let zero = self.cf64(0.0);
        let k0 = self.fcmp(FCmp::Eq, kf, zero);
        let res = self.sel(k0, em, res);
        // Tiny x: x itself (keeps -0 and subnormals exact).
        let ax = self.abs(x);
        let tiny = self.cf64(1e-300);
        let is_tiny = self.fcmp(FCmp::Lt, ax, tiny);
        let res = self.sel(is_tiny, x, res);
        let hi = self.cf64(709.782712893384);
        let inf = self.cf64(f64::INFINITY);
        let over = self.fcmp(FCmp::Gt, x, hi);
        let res = self.sel(over, inf, res);
        let lo = self.cf64(-40.0);
        let m1 = self.cf64(-1.0);
        let under = self.fcmp(FCmp::Lt, x, lo);
        self.sel(under, m1, res)
    }

    /// ln(x) as a double-double for finite x > 0 (other inputs: garbage, the
    /// callers select the special values).
    pub fn log_dd(&mut self, x: V) -> (V, V) {
        // Subnormals: scale by 2^54.
        let tiny = self.cf64(f64::MIN_POSITIVE);
        let sub = self.fcmp(FCmp::Lt, x, tiny);
        let s54 = self.cf64(18014398509481984.0);
        let xs = self.mul(x, s54);
        let x = self.sel(sub, xs, x);
        let m54 = self.ci(-54);
        let z0 = self.ci(0);
        let eadj = self.sel(sub, m54, z0);
        let bits = self.bits(x);
        let c52 = self.ci(52);
        let eb = self.shr(bits, c52);
        let eb = self.trunc(eb);
        let bias = self.ci(1023);
        let e = self.isub(eb, bias);
        let e = self.iadd(e, eadj);
        let mm = self.cu64(0x000F_FFFF_FFFF_FFFF);
        let one_b = self.cu64(0x3FF0_0000_0000_0000);
        let mb = self.and(bits, mm);
        let mb = self.or(mb, one_b);
        let m = self.bits(mb); // [1, 2)
        let sqrt2 = self.cf64(std::f64::consts::SQRT_2);
        let big = self.fcmp(FCmp::Gt, m, sqrt2);
        let half = self.cf64(0.5);
        let mh = self.mul(m, half);
        let m = self.sel(big, mh, m);
        let one_i = self.ci(1);
        let e1 = self.iadd(e, one_i);
        let e = self.sel(big, e1, e);
        let ef = self.s2f(Ty::F64, e);
        // s = (m-1)/(m+1) as a double-double.
        let one = self.cf64(1.0);
        let f = self.sub(m, one); // exact
        let v = self.add(m, one);
        let v1 = self.sub(v, one); // exact
        let vl = self.sub(m, v1); // m + 1 == v + vl exactly
        let s = self.div(f, v);
        let ns = self.neg(s);
        let rem = self.fma(ns, v, f); // exact
        let rem = self.fma(ns, vl, rem);
        let sl = self.div(rem, v);
        // ln m = 2s + 2s³(1/3 + s²/5 + ...).
        let z = self.mul(s, s);
        let coef: Vec<f64> = (0..14).map(|i| 2.0 / (2 * i + 3) as f64).collect();
        let p = self.horner(z, &coef);
        let sz = self.mul(s, z);
        let two = self.cf64(2.0);
        // d(2 atanh s)/ds = 2/(1 - s²): the s_lo term is 2·s_lo·(1 + s²).
        let sl2 = self.mul(sl, two);
        let tail = self.fma(sl2, z, sl2);
        let tail = self.fma(sz, p, tail);
        let s2 = self.mul(s, two); // exact
                                   // + e·ln2.
        let l1 = self.k(LN2_42);
        let l2 = self.k(LN2_42_LO);
        let eh = self.mul(ef, l1); // exact
        let el = self.mul(ef, l2);
        let (h, err) = self.two_sum(eh, s2);
        let lo = self.add(tail, el);
        let lo = self.add(lo, err);
        self.fast_two_sum(h, lo)
    }

    /// Selects for ln-like functions at x <= 0, inf and NaN.
    fn log_specials(&mut self, x: V, r: V) -> V {
        let zero = self.cf64(0.0);
        let inf = self.cf64(f64::INFINITY);
        let ninf = self.cf64(f64::NEG_INFINITY);
        let nan = self.cf64(f64::NAN);
        let is_inf = self.fcmp(FCmp::Eq, x, inf);
        let r = self.sel(is_inf, inf, r);
        let neg = self.fcmp(FCmp::Lt, x, zero);
        let r = self.sel(neg, nan, r);
        let is0 = self.fcmp(FCmp::Eq, x, zero);
        let r = self.sel(is0, ninf, r);
        let isnan = self.fcmp(FCmp::Nan, x, x);
        self.sel(isnan, x, r)
    }

    pub fn ln64(&mut self, x: V) -> V {
        let (h, l) = self.log_dd(x);
        let r = self.add(h, l);
        self.log_specials(x, r)
    }

    /// log_b(x) with log_b(e) = (ch, cl).
    fn log_base64(&mut self, x: V, ch: u64, cl: u64) -> V {
        let (h, l) = self.log_dd(x);
        let ch = self.k(ch);
        let cl = self.k(cl);
        let (h, l) = self.dd_mul(h, l, ch, cl);
        let r = self.add(h, l);
        self.log_specials(x, r)
    }
    pub fn log2_64(&mut self, x: V) -> V {
        self.log_base64(x, LOG2E_HI, LOG2E_LO)
    }
    pub fn log10_64(&mut self, x: V) -> V {
        self.log_base64(x, LOG10E_HI, LOG10E_LO)
    }

    /// `x.log(b)`: Rust defines it as `x.ln() / b.ln()`; computed here from
    /// the double-double logarithms, so it is closer to the true quotient.
    pub fn log64(&mut self, x: V, b: V) -> V {
        let lx = self.ln64(x);
        let lb = self.ln64(b);
        let (xh, xl) = self.log_dd(x);
        let (bh, bl) = self.log_dd(b);
        let q = self.div(xh, bh);
        // (xh + xl - q(bh + bl)) / (bh + bl)
        let nq = self.neg(q);
        let r = self.fma(nq, bh, xh);
        let r = self.add(r, xl);
        let r = self.fma(nq, bl, r);
        let c = self.div(r, bh);
        let q2 = self.add(q, c);
        // Specials (0, inf, negative, NaN, b == 1) follow the plain quotient.
        let plain = self.div(lx, lb);
        let fin = self.is_finite(plain);
        let fx = self.is_finite(lx);
        let fb = self.is_finite(lb);
        let zero = self.cf64(0.0);
        let nzb = self.fcmp(FCmp::Ne, lb, zero);
        let ok = self.pand(fin, fx);
        let ok = self.pand(ok, fb);
        let ok = self.pand(ok, nzb);
        self.sel(ok, q2, plain)
    }

    /// ln(1 + x).
    pub fn ln1p64(&mut self, x: V) -> V {
        let one = self.cf64(1.0);
        let (u, c) = self.two_sum(one, x); // u + c == 1 + x
        let (h, l) = self.log_dd(u);
        // ln(u + c) = ln u + c/u (c tiny relative to u).
        let cu = self.div(c, u);
        let l = self.add(l, cu);
        let r = self.add(h, l);
        let r = self.log_specials(u, r);
        // -1 < x: u may round to 0 only when x == -1.
        let m1 = self.cf64(-1.0);
        let nan = self.cf64(f64::NAN);
        let lt = self.fcmp(FCmp::Lt, x, m1);
        let r = self.sel(lt, nan, r);
        let ax = self.abs(x);
        let tiny = self.cf64(1e-300);
        let is_tiny = self.fcmp(FCmp::Lt, ax, tiny);
        self.sel(is_tiny, x, r)
    }
}

impl B {
    /// Rust's `x.powf(y)` (C99/IEEE pow special values).
    pub fn pow64(&mut self, x: V, y: V) -> V {
        let ax = self.abs(x);
        let (lh, ll) = self.log_dd(ax);
        let (ph, pe) = self.two_prod(y, lh);
        let pl = self.fma(y, ll, pe);
        let mag = self.exp_dd(ph, pl);
        let zero = self.cf64(0.0);
        let one = self.cf64(1.0);
        let inf = self.cf64(f64::INFINITY);
        let nan = self.cf64(f64::NAN);
        let half = self.cf64(0.5);
        // y integral / odd (|y| >= 2^53 is even).
        let ty = self.round(Rnd::Zero, y);
        let yfin = self.is_finite(y);
        let yint = self.fcmp(FCmp::Eq, ty, y);
        let yint = self.pand(yint, yfin);
        let yh = self.mul(y, half);
        let tyh = self.round(Rnd::Zero, yh);
        let yodd = self.fcmp(FCmp::Ne, tyh, yh);
        let yodd = self.pand(yodd, yint);
        let xneg = self.sign_bit(x);
        let negres = self.pand(xneg, yodd);
        // x = ±0 or ±inf.
        let ynegp = self.fcmp(FCmp::Lt, y, zero);
        let x0 = self.fcmp(FCmp::Eq, ax, zero);
        let xinf = self.fcmp(FCmp::Eq, ax, inf);
        let zi = self.sel(ynegp, inf, zero);
        let iz = self.sel(ynegp, zero, inf);
        // Negative finite x: NaN unless y is an integer.
        let xltz = self.fcmp(FCmp::Lt, x, zero);
        let bad = self.pnot(yint);
        let bad = self.pand(bad, xltz);
        let mag = self.sel(bad, nan, mag);
        let r = self.sel(x0, zi, mag);
        let r = self.sel(xinf, iz, r);
        let nr = self.neg(r);
        let r = self.sel(negres, nr, r);
        // y = ±inf.
        let ay = self.abs(y);
        let yinf = self.fcmp(FCmp::Eq, ay, inf);
        let xlt1 = self.fcmp(FCmp::Lt, ax, one);
        let a = self.sel(ynegp, inf, zero);
        let b = self.sel(ynegp, zero, inf);
        let yi = self.sel(xlt1, a, b);
        let ax1 = self.fcmp(FCmp::Eq, ax, one);
        let yi = self.sel(ax1, one, yi);
        let r = self.sel(yinf, yi, r);
        // NaN in, NaN out, except pow(x, 0) = pow(1, y) = 1.
        let anynan = self.fcmp(FCmp::Nan, x, y);
        let r = self.sel(anynan, nan, r);
        let y0 = self.fcmp(FCmp::Eq, y, zero);
        let x1 = self.fcmp(FCmp::Eq, x, one);
        let ones = self.por(y0, x1);
        self.sel(ones, one, r)
    }

    /// cbrt by Newton's method from a linear guess on [1, 8), finished with
    /// one double-double correction step.
    pub fn cbrt64(&mut self, x: V) -> V {
        let ax = self.abs(x);
        let tiny = self.cf64(f64::MIN_POSITIVE);
        let sub = self.fcmp(FCmp::Lt, ax, tiny);
        let s54 = self.cf64(18014398509481984.0); // 2^54
        let axs = self.mul(ax, s54);
        let a = self.sel(sub, axs, ax);
        let one = self.cf64(1.0);
        let unscale_sub = self.cf64(2f64.powi(-18));
        let unscale = self.sel(sub, unscale_sub, one);
        let bits = self.bits(a);
        let c52 = self.ci(52);
        let eb = self.shr(bits, c52);
        let eb = self.trunc(eb);
        let bias = self.ci(1023);
        let e = self.isub(eb, bias);
        let mm = self.cu64(0x000F_FFFF_FFFF_FFFF);
        let one_b = self.cu64(0x3FF0_0000_0000_0000);
        let mb = self.and(bits, mm);
        let mb = self.or(mb, one_b);
        let m = self.bits(mb);
        let ef = self.s2f(Ty::F64, e);
        let third = self.cf64(1.0 / 3.0);
        let qf = self.mul(ef, third);
        let qf = self.round(Rnd::Down, qf);
        // floor(e/3) may be off by one after rounding; fix rem into [0, 3).
        let three = self.cf64(3.0);
        let nthree = self.neg(three);
        let rem = self.fma(qf, nthree, ef);
        let hi = self.fcmp(FCmp::Ge, rem, three);
        let qf1 = self.add(qf, one);
        let qf = self.sel(hi, qf1, qf);
        let rem = self.fma(qf, nthree, ef);
        let two = self.cf64(2.0);
        let four = self.cf64(4.0);
        let is1 = self.fcmp(FCmp::Eq, rem, one);
        let is2 = self.fcmp(FCmp::Eq, rem, two);
        let f = self.sel(is1, two, one);
        let f = self.sel(is2, four, f);
        let m = self.mul(m, f); // [1, 8), cbrt in [1, 2)
        let seventh = self.cf64(1.0 / 7.0);
        let d = self.sub(m, one);
        let mut t = self.fma(d, seventh, one);
        for _ in 0..5 {
            let tt = self.mul(t, t);
            let q = self.div(m, tt);
            let s = self.fma(t, two, q);
            t = self.mul(s, third);
        }
        // t -= (t³ - m) / (3t²), with t³ - m computed exactly enough.
        let (t2, t2e) = self.two_prod(t, t);
        let (t3, t3e) = self.two_prod(t2, t);
        let nm = self.neg(m);
        let r = self.add(t3, nm); // exact (Sterbenz)
        let r = self.add(r, t3e);
        let r = self.fma(t2e, t, r);
        let den = self.mul(t2, three);
        let c = self.div(r, den);
        let t = self.sub(t, c);
        let qi = self.f2s(Rnd::Nearest, qf);
        let t = self.ldexp64(t, qi);
        let t = self.mul(t, unscale);
        let t = self.copysign(t, x);
        // 0, inf, NaN: x itself.
        let zero = self.cf64(0.0);
        let inf = self.cf64(f64::INFINITY);
        let z = self.fcmp(FCmp::Eq, ax, zero);
        let i = self.fcmp(FCmp::Eq, ax, inf);
        let n = self.fcmp(FCmp::Nan, x, x);
        let keep = self.por(z, i);
        let keep = self.por(keep, n);
        self.sel(keep, x, t)
    }

    /// sqrt(x² + y²) without undue overflow or underflow.
    pub fn hypot64(&mut self, x: V, y: V) -> V {
        let ax = self.abs(x);
        let ay = self.abs(y);
        let g = self.fcmp(FCmp::Gt, ay, ax);
        let a = self.sel(g, ay, ax);
        let b = self.sel(g, ax, ay);
        let big = self.cf64(2f64.powi(500));
        let small = self.cf64(2f64.powi(-500));
        let down = self.cf64(2f64.powi(-600));
        let up = self.cf64(2f64.powi(600));
        let one = self.cf64(1.0);
        let is_big = self.fcmp(FCmp::Gt, a, big);
        let is_small = self.fcmp(FCmp::Lt, a, small);
        let s = self.sel(is_big, down, one);
        let s = self.sel(is_small, up, s);
        let us = self.sel(is_big, up, one);
        let us = self.sel(is_small, down, us);
        let a = self.mul(a, s);
        let b = self.mul(b, s);
        let (p, pe) = self.two_prod(a, a);
        let (q, qe) = self.two_prod(b, b);
        let (sh, se) = self.two_sum(p, q);
        let lo = self.add(pe, qe);
        let lo = self.add(lo, se);
        let r = self.sqrt(sh);
        let nr = self.neg(r);
        let d = self.fma(nr, r, sh);
        let d = self.add(d, lo);
        let r2 = self.add(r, r);
        let c = self.div(d, r2);
        let r = self.add(r, c);
        let r = self.mul(r, us);
        let zero = self.cf64(0.0);
        let inf = self.cf64(f64::INFINITY);
        let a0 = self.fcmp(FCmp::Eq, a, zero);
        let r = self.sel(a0, zero, r);
        let n = self.fcmp(FCmp::Nan, x, y);
        let nan = self.cf64(f64::NAN);
        let r = self.sel(n, nan, r);
        let xi = self.fcmp(FCmp::Eq, ax, inf);
        let yi = self.fcmp(FCmp::Eq, ay, inf);
        let anyinf = self.por(xi, yi);
        self.sel(anyinf, inf, r)
    }
}
