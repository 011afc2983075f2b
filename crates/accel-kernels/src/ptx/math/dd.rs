//! Double-double helpers on the IR (Knuth's two-sum, fma-based two-product)
//! and polynomial evaluation.

use super::ir::{Ty, B, V};

impl B {
    pub fn k(&mut self, bits: u64) -> V {
        self.cbits(Ty::F64, bits)
    }
    /// (s, e) with s + e == a + b exactly.
    pub fn two_sum(&mut self, a: V, b: V) -> (V, V) {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let ab = self.sub(s, bb);
        let da = self.sub(a, ab);
        let db = self.sub(b, bb);
        let e = self.add(da, db);
        (s, e)
    }
    /// Like `two_sum` when |a| >= |b| (or a == 0).
    pub fn fast_two_sum(&mut self, a: V, b: V) -> (V, V) {
        let s = self.add(a, b);
        let t = self.sub(s, a);
        let e = self.sub(b, t);
        (s, e)
    }
    /// (p, e) with p + e == a * b exactly (barring underflow).
    pub fn two_prod(&mut self, a: V, b: V) -> (V, V) {
        let p = self.mul(a, b);
        let np = self.neg(p);
        let e = self.fma(a, b, np);
        (p, e)
    }
    /// (a_hi + a_lo) * (b_hi + b_lo) as a double-double.
    pub fn dd_mul(&mut self, ah: V, al: V, bh: V, bl: V) -> (V, V) {
        let (p, e) = self.two_prod(ah, bh);
        let t = self.mul(ah, bl);
        let t = self.fma(al, bh, t);
        let e = self.add(e, t);
        self.fast_two_sum(p, e)
    }
    /// Horner: c[0] + x*(c[1] + x*(c[2] + ...)).
    pub fn horner(&mut self, x: V, c: &[f64]) -> V {
        let t = self.ty(x);
        let mut p = self.c(t, c[c.len() - 1]);
        for &ci in c[..c.len() - 1].iter().rev() {
            let cv = self.c(t, ci);
            p = self.fma(p, x, cv);
        }
        p
    }
}

/// 1/n! for n = 0..=20 (each rounded once from an exact integer factorial).
pub fn inv_fact(n: usize) -> f64 {
    let mut f = 1.0f64;
    for i in 2..=n {
        f *= i as f64; // exact up to 18!
    }
    1.0 / f
}
