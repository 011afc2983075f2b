//! Trigonometric functions in f64 (f32 evaluates these in f64, rounds once).
//!
//! sin/cos/tan: x = k·π/2 + r. Cody–Waite with π/2 as four f64s and fma
//! gives r as a double-double for |x| < 2^20 (f32) / 2^40 (f64); beyond,
//! Payne–Hanek multiplies x by 2/π split into 26-bit chunks (each product
//! exact) and keeps the sum mod 4 in triple-double: every finite f32 and
//! f64 is reduced correctly (tested on the f64 case closest to a multiple
//! of π/2, 6381956970095103·2^797, reduced argument about 2^-61).
//! Kernels: Taylor series on |r| <= π/4 (to r^17 for sin, r^18 for cos).
//! atan: octant reduction t = (u - c)/(1 + u·c) with c = j/8 nearest to u,
//! atan(c) tabulated as double-doubles, Taylor series in t (|t| < 1/16).

use super::consts::*;
use super::dd::inv_fact;
use super::ir::{FCmp, ICmp, Rnd, B, V};

impl B {
    /// (q, r_hi, r_lo): x = (4n + q)·π/2 + r, q in 0..4 as an s32.
    pub fn reduce_pio2_cw(&mut self, x: V) -> (V, V, V) {
        let c = self.k(TWO_OVER_PI);
        let t = self.mul(x, c);
        let kf = self.round(Rnd::Nearest, t);
        let nk = self.neg(kf);
        let p1 = self.k(PIO2_1);
        let p2 = self.k(PIO2_2);
        let p3 = self.k(PIO2_3);
        let p4 = self.k(PIO2_4);
        let r1 = self.fma(nk, p1, x); // exact for |k| < 2^50
        let (a, ae) = self.two_prod(nk, p2);
        let (s, se) = self.two_sum(r1, a);
        let lo = self.add(se, ae);
        let lo = self.fma(nk, p3, lo);
        let lo = self.fma(nk, p4, lo);
        let (rh, rl) = self.fast_two_sum(s, lo);
        let q = self.quadrant(kf);
        (q, rh, rl)
    }

    /// k mod 4 as an s32 (k an integral f64).
    fn quadrant(&mut self, kf: V) -> V {
        let quarter = self.cf64(0.25);
        let four = self.cf64(4.0);
        let k4 = self.mul(kf, quarter);
        let k4 = self.round(Rnd::Down, k4);
        let nfour = self.neg(four);
        let qf = self.fma(k4, nfour, kf); // exact
        self.f2s(Rnd::Nearest, qf)
    }

    /// Payne–Hanek: x·(2/π) mod 4 from exact products of x's pieces (at most
    /// 27 bits each) with 26-bit chunks of 2/π, summed mod 4 in double-double.
    fn reduce_pio2_ph(&mut self, pieces: &[V], chunks: &[u64]) -> (V, V, V) {
        let quarter = self.cf64(0.25);
        let nfour = self.cf64(-4.0);
        // The sum is kept as sh + sl + sll (sll collects the rounding errors
        // of sl, so that reduced arguments near 2^-61 keep their accuracy).
        let mut sh = self.cf64(0.0);
        let mut sl = self.cf64(0.0);
        let mut sll = self.cf64(0.0);
        for &g in chunks {
            let g = self.k(g);
            for &x in pieces {
                let t = self.mul(x, g); // exact (or negligible if it underflows)
                let t4 = self.mul(t, quarter);
                let t4 = self.round(Rnd::Down, t4);
                let r = self.fma(t4, nfour, t); // t mod 4, exact
                let (s, e) = self.two_sum(sh, r);
                let (l, e2) = self.two_sum(sl, e);
                sll = self.add(sll, e2);
                let (a, b) = self.fast_two_sum(s, l);
                // Keep the sum below 4: subtract its multiple of 4 (exact).
                let a4 = self.mul(a, quarter);
                let a4 = self.round(Rnd::Down, a4);
                sh = self.fma(a4, nfour, a);
                sl = b;
            }
        }
        let kf = self.round(Rnd::Nearest, sh);
        let f = self.sub(sh, kf); // exact
        let (fh, fl) = self.two_sum(f, sl);
        let fl = self.add(fl, sll);
        let (fh, fl) = self.two_sum(fh, fl);
        let ph = self.k(PIO2_HI);
        let pl = self.k(PIO2_LO);
        let (rh, rl) = self.dd_mul(fh, fl, ph, pl);
        let q = self.quadrant(kf);
        (q, rh, rl)
    }

    /// sin(rh + rl) for |rh| <= ~π/4.
    fn sin_kernel(&mut self, rh: V, rl: V) -> V {
        let z = self.mul(rh, rh);
        let coef: Vec<f64> = (1..=8)
            .map(|n| {
                if n % 2 == 1 {
                    -inv_fact(2 * n + 1)
                } else {
                    inv_fact(2 * n + 1)
                }
            })
            .collect();
        let p = self.horner(z, &coef);
        let r3 = self.mul(rh, z);
        let half = self.cf64(-0.5);
        let one = self.cf64(1.0);
        let c = self.fma(z, half, one); // cos(rh) for the rl term
        let lo = self.mul(rl, c);
        let t = self.fma(r3, p, lo);
        self.add(rh, t)
    }

    /// cos(rh + rl) for |rh| <= ~π/4.
    fn cos_kernel(&mut self, rh: V, rl: V) -> V {
        let z = self.mul(rh, rh);
        let coef: Vec<f64> = (2..=9)
            .map(|n| {
                if n % 2 == 0 {
                    inv_fact(2 * n)
                } else {
                    -inv_fact(2 * n)
                }
            })
            .collect();
        let p = self.horner(z, &coef);
        let half = self.cf64(0.5);
        let one = self.cf64(1.0);
        let hz = self.mul(z, half);
        let w = self.sub(one, hz);
        let d = self.sub(one, w);
        let d = self.sub(d, hz); // rounding error of w
        let z2 = self.mul(z, z);
        let nrl = self.neg(rl);
        let e = self.mul(rh, nrl);
        let t = self.fma(z2, p, e);
        let t = self.add(d, t);
        self.add(w, t)
    }

    /// The reduction: Cody–Waite, replaced by Payne–Hanek (in a region
    /// skipped for small x) from 2^20 (f32 inputs) or 2^40 (f64 inputs).
    fn reduce(&mut self, x: V, f32_input: bool) -> (V, V, V) {
        let (q, rh, rl) = self.reduce_pio2_cw(x);
        let ax = self.abs(x);
        let big = self.cf64(if f32_input { 2f64.powi(20) } else { 2f64.powi(40) });
        let inf = self.cf64(f64::INFINITY);
        let b = self.fcmp(FCmp::Ge, ax, big);
        let fin = self.fcmp(FCmp::Lt, ax, inf);
        let use_ph = self.pand(b, fin);
        let no_ph = self.pnot(use_ph);
        let skip = self.skip_if(no_ph);
        // Reduce |x| (negative products would lose their small parts in
        // `mod 4`), then negate: -x = (4 - q)·π/2 - r.
        let (q2, rh2, rl2) = if f32_input {
            self.reduce_pio2_ph(&[ax], &TWO_OVER_PI_26)
        } else {
            // x·2^-600 (matching the scaled chunks) = xh + xl with 26 and
            // 27 significant bits.
            let s = self.cf64(2f64.powi(-600));
            let xs = self.mul(ax, s);
            let bits = self.bits(xs);
            let mask = self.cu64(!((1u64 << 27) - 1));
            let hb = self.and(bits, mask);
            let xh = self.bits(hb);
            let xl = self.sub(xs, xh); // exact
            self.reduce_pio2_ph(&[xh, xl], &TWO_OVER_PI_26_LONG)
        };
        let xneg = self.sign_bit(x);
        let nrh = self.neg(rh2);
        let nrl = self.neg(rl2);
        let z = self.ci(0);
        let three = self.ci(3);
        let nq = self.isub(z, q2);
        let nq = self.and(nq, three);
        let rh2 = self.sel(xneg, nrh, rh2);
        let rl2 = self.sel(xneg, nrl, rl2);
        let q2 = self.sel(xneg, nq, q2);
        self.label(skip);
        let q = self.sel(use_ph, q2, q);
        let rh = self.sel(use_ph, rh2, rh);
        let rl = self.sel(use_ph, rl2, rl);
        (q, rh, rl)
    }

    /// Small |x|: the function is x (sin, tan).
    fn trig_edges(&mut self, x: V, r: V, odd: bool) -> V {
        if odd {
            let ax = self.abs(x);
            let tiny = self.cf64(1e-9);
            let is_tiny = self.fcmp(FCmp::Lt, ax, tiny);
            self.sel(is_tiny, x, r)
        } else {
            r
        }
    }

    fn qis(&mut self, q: V, n: i32) -> V {
        let c = self.ci(n);
        self.icmp(ICmp::Eq, q, c)
    }

    pub fn sin64(&mut self, x: V, f32_input: bool) -> V {
        let (q, rh, rl) = self.reduce(x, f32_input);
        let s = self.sin_kernel(rh, rl);
        let c = self.cos_kernel(rh, rl);
        let one = self.ci(1);
        let odd = self.and(q, one);
        let zero = self.ci(0);
        let odd = self.icmp(ICmp::Ne, odd, zero);
        let v = self.sel(odd, c, s);
        let nv = self.neg(v);
        let q2 = self.qis(q, 2);
        let q3 = self.qis(q, 3);
        let neg = self.por(q2, q3);
        let r = self.sel(neg, nv, v);
        self.trig_edges(x, r, true)
    }

    pub fn cos64(&mut self, x: V, f32_input: bool) -> V {
        let (q, rh, rl) = self.reduce(x, f32_input);
        let s = self.sin_kernel(rh, rl);
        let c = self.cos_kernel(rh, rl);
        let one = self.ci(1);
        let odd = self.and(q, one);
        let zero = self.ci(0);
        let odd = self.icmp(ICmp::Ne, odd, zero);
        let v = self.sel(odd, s, c);
        let nv = self.neg(v);
        let q1 = self.qis(q, 1);
        let q2 = self.qis(q, 2);
        let neg = self.por(q1, q2);
        let r = self.sel(neg, nv, v);
        self.trig_edges(x, r, false)
    }

    pub fn tan64(&mut self, x: V, f32_input: bool) -> V {
        let (q, rh, rl) = self.reduce(x, f32_input);
        let s = self.sin_kernel(rh, rl);
        let c = self.cos_kernel(rh, rl);
        let one = self.ci(1);
        let odd = self.and(q, one);
        let zero = self.ci(0);
        let odd = self.icmp(ICmp::Ne, odd, zero);
        let t0 = self.div(s, c);
        let nc = self.neg(c);
        let t1 = self.div(nc, s);
        let r = self.sel(odd, t1, t0);
        self.trig_edges(x, r, true)
    }

    /// atan(num/den) as a double-double for 0 <= num <= den, den > 0 finite
    /// and within [2^-500, 2^500] of each other's scale (callers scale).
    /// `nl`, `dl`: low parts of num and den (double-double operands).
    fn atan_frac(&mut self, num: V, nl: V, den: V, dl: V) -> (V, V) {
        let u = self.div(num, den);
        let eight = self.cf64(8.0);
        let u8 = self.mul(u, eight);
        let jf = self.round(Rnd::Nearest, u8);
        let inv8 = self.cf64(0.125);
        let c = self.mul(jf, inv8);
        let nc = self.neg(c);
        let tn = self.fma(nc, den, num);
        let tnl = self.fma(nc, dl, nl);
        let tn = self.add(tn, tnl);
        let td = self.fma(c, num, den);
        let tdl = self.fma(c, nl, dl);
        let td = self.add(td, tdl);
        let t = self.div(tn, td);
        // Pick atan(j/8).
        let mut ah = self.k(ATAN_J8[0].0);
        let mut al = self.k(ATAN_J8[0].1);
        for (j, &(h, l)) in ATAN_J8.iter().enumerate().skip(1) {
            let jc = self.cf64(j as f64);
            let p = self.fcmp(FCmp::Eq, jf, jc);
            let hv = self.k(h);
            let lv = self.k(l);
            ah = self.sel(p, hv, ah);
            al = self.sel(p, lv, al);
        }
        let z = self.mul(t, t);
        let coef: Vec<f64> = (1..=9)
            .map(|n| if n % 2 == 1 { -1.0 } else { 1.0 } / (2 * n + 1) as f64)
            .collect();
        let p = self.horner(z, &coef);
        let tz = self.mul(t, z);
        let tail = self.fma(tz, p, al);
        let (h, e) = self.two_sum(ah, t);
        let l = self.add(e, tail);
        self.fast_two_sum(h, l)
    }

    /// Rust's `y.atan2(x)`.
    pub fn atan2_64(&mut self, y: V, x: V) -> V {
        let z = self.cf64(0.0);
        self.atan2_dd(y, z, x, z)
    }

    /// atan2 of double-double operands (y + yl, x + xl), |yl|, |xl| tiny.
    fn atan2_dd(&mut self, y: V, yl: V, x: V, xl: V) -> V {
        let ax = self.abs(x);
        let ay = self.abs(y);
        let yneg = self.sign_bit(y);
        let xneg = self.sign_bit(x);
        let nyl = self.neg(yl);
        let nxl = self.neg(xl);
        let ayl = self.sel(yneg, nyl, yl);
        let axl = self.sel(xneg, nxl, xl);
        let swap = self.fcmp(FCmp::Gt, ay, ax);
        let num = self.sel(swap, ax, ay);
        let den = self.sel(swap, ay, ax);
        let nl = self.sel(swap, axl, ayl);
        let dl = self.sel(swap, ayl, axl);
        // Scale both by a power of two when den is far from 1.
        let big = self.cf64(2f64.powi(500));
        let small = self.cf64(2f64.powi(-500));
        let down = self.cf64(2f64.powi(-600));
        let up = self.cf64(2f64.powi(600));
        let one = self.cf64(1.0);
        let is_big = self.fcmp(FCmp::Gt, den, big);
        let is_small = self.fcmp(FCmp::Lt, den, small);
        let s = self.sel(is_big, down, one);
        let s = self.sel(is_small, up, s);
        let u = self.div(num, den); // before scaling: tiny ratios stay exact
        let nums = self.mul(num, s);
        let dens = self.mul(den, s);
        let nls = self.mul(nl, s);
        let dls = self.mul(dl, s);
        let (ah, al) = self.atan_frac(nums, nls, dens, dls);
        // atan(u) rounds to u below 2^-27 (no swap then, so this is safe).
        let small_u = self.cf64(2f64.powi(-27));
        let is_small_u = self.fcmp(FCmp::Lt, u, small_u);
        let zero0 = self.cf64(0.0);
        let ah = self.sel(is_small_u, u, ah);
        let al = self.sel(is_small_u, zero0, al);
        // Zero / infinite operands.
        let zero = self.cf64(0.0);
        let inf = self.cf64(f64::INFINITY);
        let num0 = self.fcmp(FCmp::Eq, num, zero);
        let den_inf = self.fcmp(FCmp::Eq, den, inf);
        let num_inf = self.fcmp(FCmp::Eq, num, inf);
        let zero_res = self.por(num0, den_inf);
        let ah = self.sel(zero_res, zero, ah);
        let al = self.sel(zero_res, zero, al);
        let q_hi = self.k(ATAN_J8[8].0);
        let q_lo = self.k(ATAN_J8[8].1);
        let ah = self.sel(num_inf, q_hi, ah);
        let al = self.sel(num_inf, q_lo, al);
        // Octant → quadrant: swap gives π/2 - a, negative x gives π - that.
        let ph = self.k(PIO2_HI);
        let pl = self.k(PIO2_LO);
        let nah = self.neg(ah);
        let nal = self.neg(al);
        let (sh, se) = self.two_sum(ph, nah);
        let sl = self.add(pl, nal);
        let sl = self.add(sl, se);
        let ah = self.sel(swap, sh, ah);
        let al = self.sel(swap, sl, al);
        let pih = self.k(PI_HI);
        let pil = self.k(PI_LO);
        let nah = self.neg(ah);
        let nal = self.neg(al);
        let (nh, ne) = self.two_sum(pih, nah);
        let nl = self.add(pil, nal);
        let nl = self.add(nl, ne);
        let xneg = self.sign_bit(x);
        let ah = self.sel(xneg, nh, ah);
        let al = self.sel(xneg, nl, al);
        let r = self.add(ah, al);
        let r = self.copysign(r, y);
        let xn = self.fcmp(FCmp::Nan, x, y);
        let nan = self.cf64(f64::NAN);
        self.sel(xn, nan, r)
    }

    pub fn atan64(&mut self, x: V) -> V {
        let one = self.cf64(1.0);
        let r = self.atan2_64(x, one);
        let ax = self.abs(x);
        let tiny = self.cf64(1e-9);
        let is_tiny = self.fcmp(FCmp::Lt, ax, tiny);
        self.sel(is_tiny, x, r)
    }

    /// √(1 - x²) as a double-double (NaN for |x| > 1).
    fn sqrt_one_minus_sq(&mut self, x: V) -> (V, V) {
        let one = self.cf64(1.0);
        let (p, pe) = self.two_prod(x, x);
        let np = self.neg(p);
        let (wh, we) = self.two_sum(one, np);
        let wl = self.sub(we, pe);
        let (wh, wl) = self.fast_two_sum(wh, wl);
        let r = self.sqrt(wh);
        let nr = self.neg(r);
        let e = self.fma(nr, r, wh);
        let e = self.add(e, wl);
        let r2 = self.add(r, r);
        let rl = self.div(e, r2);
        let zero = self.cf64(0.0);
        let r0 = self.fcmp(FCmp::Eq, r, zero);
        let rl = self.sel(r0, zero, rl);
        (r, rl)
    }

    /// asin x = atan2(x, √(1 - x²)), the root as a double-double.
    pub fn asin64(&mut self, x: V) -> V {
        let (d, dl) = self.sqrt_one_minus_sq(x);
        let z = self.cf64(0.0);
        let r = self.atan2_dd(x, z, d, dl);
        let ax = self.abs(x);
        let tiny = self.cf64(1e-9);
        let is_tiny = self.fcmp(FCmp::Lt, ax, tiny);
        self.sel(is_tiny, x, r)
    }

    /// acos x = atan2(√(1 - x²), x).
    pub fn acos64(&mut self, x: V) -> V {
        let (d, dl) = self.sqrt_one_minus_sq(x);
        let z = self.cf64(0.0);
        self.atan2_dd(d, dl, x, z)
    }
}
