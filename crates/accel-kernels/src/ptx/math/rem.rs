//! Exact float remainder (`x % y`, C's fmod) and Rust's `div_euclid` /
//! `rem_euclid` built on it.
//!
//! fmod by long division in chunks: with d = |y|·2^j scaled so that r/d <
//! 2^51, q = trunc(fl(r/d)) is never below the true quotient and at most one
//! above it, so r - q·d is a multiple of ulp(d) below d in magnitude: fma
//! computes it exactly, and one conditional +d fixes the sign. Each step
//! removes 51 bits of exponent difference: 42 steps cover f64, 6 cover f32
//! (evaluated in f64, where f32 values and their remainders are exact);
//! the steps after r < |y| are skipped.

use super::ir::{FCmp, ICmp, Rnd, Ty, B, V};

impl B {
    /// The unbiased exponent of a positive normal f64, as s32.
    fn exponent64(&mut self, v: V) -> V {
        let bits = self.bits(v);
        let c52 = self.ci(52);
        let eb = self.shr(bits, c52);
        let eb = self.trunc(eb);
        let bias = self.ci(1023);
        self.isub(eb, bias)
    }

    /// `x % y` in f64 (exact); `steps` chunks of 51 bits of exponent difference.
    pub fn fmod64(&mut self, x: V, y: V, steps: usize) -> V {
        let ax = self.abs(x);
        let ay = self.abs(y);
        // The exponent of |y|, also when subnormal.
        let tiny = self.cf64(f64::MIN_POSITIVE);
        let sub = self.fcmp(FCmp::Lt, ay, tiny);
        let s54 = self.cf64(18014398509481984.0);
        let ays = self.mul(ay, s54);
        let ays = self.sel(sub, ays, ay);
        let ey = self.exponent64(ays);
        let m54 = self.ci(-54);
        let z = self.ci(0);
        let adj = self.sel(sub, m54, z);
        let ey = self.iadd(ey, adj);
        let c51 = self.ci(51);
        let zero = self.cf64(0.0);
        // Once r < |y| the remaining steps change nothing: skip them, and
        // pick the r of the step that skipped.
        let mut r = ax;
        let mut done_at = Vec::new();
        let mut labels = Vec::new();
        for _ in 0..steps {
            let done = self.fcmp(FCmp::Lt, r, ay);
            done_at.push((done, r));
            labels.push(self.skip_if(done));
            let er = self.exponent64(r);
            let j = self.isub(er, ey);
            let j = self.isub(j, c51);
            let neg = self.icmp(ICmp::Lt, j, z);
            let j = self.sel(neg, z, j);
            let d = self.ldexp64(ay, j);
            let q = self.div(r, d);
            let q = self.round(Rnd::Zero, q);
            let nq = self.neg(q);
            let r1 = self.fma(nq, d, r); // exact
            let rd = self.add(r1, d); // exact
            let lt = self.fcmp(FCmp::Lt, r1, zero);
            r = self.sel(lt, rd, r1);
        }
        for l in labels {
            self.label(l);
        }
        for &(done, rk) in done_at.iter().rev() {
            r = self.sel(done, rk, r);
        }
        let r = self.copysign(r, x);
        // y = 0, x = ±inf, NaN: NaN; y = ±inf (x finite): x; x = ±0: x.
        let nan = self.cf64(f64::NAN);
        let inf = self.cf64(f64::INFINITY);
        let y0 = self.fcmp(FCmp::Eq, ay, zero);
        let xinf = self.fcmp(FCmp::Eq, ax, inf);
        let yinf = self.fcmp(FCmp::Eq, ay, inf);
        let x0 = self.fcmp(FCmp::Eq, ax, zero);
        let keep = self.por(yinf, x0);
        let r = self.sel(keep, x, r);
        let bad = self.por(y0, xinf);
        let n = self.fcmp(FCmp::Nan, x, y);
        let bad = self.por(bad, n);
        self.sel(bad, nan, r)
    }

    /// `x % y` for x, y of type `ty`.
    pub fn frem(&mut self, x: V, y: V) -> V {
        if self.ty(x) == Ty::F32 {
            let xd = self.to_f64(x);
            let yd = self.to_f64(y);
            let r = self.fmod64(xd, yd, 6);
            self.to_f32(r) // exact
        } else {
            self.fmod64(x, y, 42)
        }
    }

    /// Rust's `rem_euclid`: `r = x % y; if r < 0 { r + |y| } else { r }`.
    pub fn rem_euclid(&mut self, x: V, y: V) -> V {
        let t = self.ty(x);
        let r = self.frem(x, y);
        let zero = self.c(t, 0.0);
        let ay = self.abs(y);
        let ry = self.add(r, ay);
        let neg = self.fcmp(FCmp::Lt, r, zero);
        self.sel(neg, ry, r)
    }

    /// Rust's `div_euclid`: `q = (x / y).trunc()`, then q ∓ 1 when `x % y < 0`.
    pub fn div_euclid(&mut self, x: V, y: V) -> V {
        let t = self.ty(x);
        let q = self.div(x, y);
        let q = self.round(Rnd::Zero, q);
        let r = self.frem(x, y);
        let zero = self.c(t, 0.0);
        let one = self.c(t, 1.0);
        let qm = self.sub(q, one);
        let qp = self.add(q, one);
        let ypos = self.fcmp(FCmp::Gt, y, zero);
        let adj = self.sel(ypos, qm, qp);
        let neg = self.fcmp(FCmp::Lt, r, zero);
        self.sel(neg, adj, q)
    }
}
