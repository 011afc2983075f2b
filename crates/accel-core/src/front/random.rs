//! Counter-based random numbers: `uniform(shape, seed)` and
//! `random_bits(shape, seed)`. Element `p` (its row-major position) is a
//! function of `(seed, p)` alone: the Philox4x32-10 generator of Salmon,
//! Moraes, Dror and Shaw ("Parallel random numbers: as easy as 1, 2, 3",
//! SC 2011), its counter `(p mod 2^32, p / 2^32, 0, 0)` and its key the seed's
//! two halves. It is integer arithmetic only (multiplications, xors,
//! additions), and the conversion to floats is exact, so the interpreter, the
//! CPU and every GPU path give the same bits. The operation is a `generate`:
//! it fuses into its consumers and stores nothing.

use super::Lowerer;
use crate::error::{err, CResult};
use crate::ir::{Arena, BinOp, Prim, Ty, VarId, H};
use proc_macro2::Span;
use syn::spanned::Spanned;

/// Philox4x32's multipliers and key increments (the Weyl sequence).
const M: [u64; 2] = [0xD251_1F53, 0xCD9E_8D57];
const W: [u64; 2] = [0x9E37_79B9, 0xBB67_AE85];
const ROUNDS: u64 = 10;

impl Lowerer<'_> {
    /// `uniform(shape, seed: u64)`: numbers in `[0, 1)` of the float type the
    /// context expects (`f32` when it expects none); `random_bits(shape,
    /// seed)`: `u32`s.
    pub(crate) fn random(
        &mut self,
        name: &str,
        args: &[&syn::Expr],
        span: Span,
        expected: Option<&Ty>,
    ) -> CResult<H> {
        self.no_array_ops_here(span, name)?;
        if args.len() != 2 {
            return err(
                span,
                format!(
                    "`{name}` takes 2 arguments (a shape and a seed `u64`) but {} were given",
                    args.len()
                ),
            );
        }
        let (shape, rank) = self.shape_arg(args[0])?;
        let u64_ty = Ty::Prim(Prim::U64);
        let seed = self.expr(args[1], Some(&u64_ty))?;
        self.expect_ty(seed, &u64_ty, args[1].span())?;
        let out = match (name, expected) {
            ("random_bits", _) => Prim::U32,
            (_, Some(Ty::Array(e, _))) if **e == Ty::Prim(Prim::F64) => Prim::F64,
            _ => Prim::F32,
        };
        Ok(self.arena.let_in("seed", seed, |b, seed| {
            b.generate_with(shape, |b, ix| {
                let mut pos = b.usize_lit(0);
                for d in 0..rank {
                    let (n, i) = (b.comp(shape, d), b.comp(ix, d));
                    let scaled = b.bin(BinOp::Mul, pos, n);
                    pos = b.add_(scaled, i);
                }
                let mut lets = Lets::default();
                let [w0, w1] = philox(b, &mut lets, pos, seed);
                let value = to_number(b, out, w0, w1);
                lets.wrap(b, value)
            })
        }))
    }
}

/// `let`s bound in order around a body: every word of every round is used
/// twice, so without them the expression tree would double at each round.
#[derive(Default)]
struct Lets(Vec<(VarId, H)>);

impl Lets {
    fn bind(&mut self, b: &mut Arena, name: &str, value: H) -> H {
        let v = b.new_var(name, b.ty(value).clone());
        self.0.push((v, value));
        b.var_ref(v)
    }

    fn wrap(self, b: &mut Arena, body: H) -> H {
        self.0
            .into_iter()
            .rev()
            .fold(body, |body, (v, value)| b.let_(v, value, body))
    }
}

fn u32_lit(b: &mut Arena, v: u64) -> H {
    b.lit(Prim::U32, v & 0xFFFF_FFFF)
}

/// The low and the high 32 bits of `x: u64`, as `u32`s.
fn halves(b: &mut Arena, x: H) -> (H, H) {
    let lo = b.cast(x, Prim::U32);
    let k = u32_lit(b, 32);
    let shifted = b.bin(BinOp::Shr, x, k);
    (lo, b.cast(shifted, Prim::U32))
}

/// The first two words of Philox4x32-10 of counter `(pos, 0)` (`pos: usize`)
/// under key `seed: u64`.
fn philox(b: &mut Arena, lets: &mut Lets, pos: H, seed: H) -> [H; 2] {
    let pos = b.cast(pos, Prim::U64);
    let (c0, c1) = halves(b, pos);
    let (k0, k1) = halves(b, seed);
    let zero = u32_lit(b, 0);
    let mut c = [c0, c1, zero, zero];
    let mut k = [lets.bind(b, "k0", k0), lets.bind(b, "k1", k1)];
    for round in 0..ROUNDS {
        if round > 0 {
            for j in 0..2 {
                let w = u32_lit(b, W[j]);
                let next = b.add_(k[j], w);
                k[j] = lets.bind(b, "k", next);
            }
        }
        // (hi, lo) of M[j] * c[2j], exact in 64 bits.
        let mut hilo = [(zero, zero); 2];
        for (j, hl) in hilo.iter_mut().enumerate() {
            let m = b.lit(Prim::U64, M[j]);
            let x = b.cast(c[2 * j], Prim::U64);
            let p = b.bin(BinOp::Mul, m, x);
            let p = lets.bind(b, "p", p);
            let (lo, hi) = halves(b, p);
            *hl = (hi, lo);
        }
        let [(hi0, lo0), (hi1, lo1)] = hilo;
        let x0 = b.bin(BinOp::BitXor, hi1, c[1]);
        let x0 = b.bin(BinOp::BitXor, x0, k[0]);
        let x2 = b.bin(BinOp::BitXor, hi0, c[3]);
        let x2 = b.bin(BinOp::BitXor, x2, k[1]);
        c = [
            lets.bind(b, "c", x0),
            lets.bind(b, "c", lo1),
            lets.bind(b, "c", x2),
            lets.bind(b, "c", lo0),
        ];
    }
    [c[0], c[1]]
}

/// Words `w0`, `w1` as the element: `w0` itself (`u32`), or a float in
/// `[0, 1)` from its top 24 bits (`f32`) or 53 bits of both (`f64`), exactly.
fn to_number(b: &mut Arena, out: Prim, w0: H, w1: H) -> H {
    match out {
        Prim::F32 => {
            let k = u32_lit(b, 8);
            let top = b.bin(BinOp::Shr, w0, k);
            let x = b.cast(top, Prim::F32);
            let scale = b.lit(Prim::F32, (1.0f32 / (1u32 << 24) as f32).to_bits() as u64);
            b.bin(BinOp::Mul, x, scale)
        }
        Prim::F64 => {
            let (a, c) = (b.cast(w0, Prim::U64), b.cast(w1, Prim::U64));
            let (k21, k11) = (u32_lit(b, 21), u32_lit(b, 11));
            let hi = b.bin(BinOp::Shl, a, k21);
            let lo = b.bin(BinOp::Shr, c, k11);
            let bits = b.bin(BinOp::BitOr, hi, lo);
            let x = b.cast(bits, Prim::F64);
            let scale = b.lit(Prim::F64, (1.0f64 / (1u64 << 53) as f64).to_bits());
            b.bin(BinOp::Mul, x, scale)
        }
        _ => w0,
    }
}
