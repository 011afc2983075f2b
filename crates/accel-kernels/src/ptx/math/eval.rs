//! The reference evaluator of the math IR: the same IEEE operations as the
//! PTX that `emit.rs` writes (PTX semantics where Rust's differ, e.g. shifts).

use super::ir::{FCmp, Func, ICmp, Op, Rnd, Ty};

fn f32of(b: u64) -> f32 {
    f32::from_bits(b as u32)
}
fn f64of(b: u64) -> f64 {
    f64::from_bits(b)
}

fn rnd32(m: Rnd, x: f32) -> f32 {
    match m {
        Rnd::Nearest => x.round_ties_even(),
        Rnd::Down => x.floor(),
        Rnd::Up => x.ceil(),
        Rnd::Zero => x.trunc(),
    }
}
fn rnd64(m: Rnd, x: f64) -> f64 {
    match m {
        Rnd::Nearest => x.round_ties_even(),
        Rnd::Down => x.floor(),
        Rnd::Up => x.ceil(),
        Rnd::Zero => x.trunc(),
    }
}

fn fcmp<T: PartialOrd>(c: FCmp, a: T, b: T, nan: bool) -> bool {
    match c {
        FCmp::Eq => a == b,
        FCmp::Ne => !nan && a != b,
        FCmp::Lt => a < b,
        FCmp::Le => a <= b,
        FCmp::Gt => a > b,
        FCmp::Ge => a >= b,
        FCmp::Neu => a != b,
        FCmp::Ltu => nan || a < b,
        FCmp::Geu => nan || a >= b,
        FCmp::Nan => nan,
        FCmp::Num => !nan,
    }
}

/// Runs `f` on argument bits (floats as their bits, s32 as its u32 bits);
/// returns the result's bits (a predicate result is 0/1).
pub fn eval(f: &Func, args: &[u64]) -> u64 {
    let mut v: Vec<u64> = Vec::with_capacity(f.insts.len());
    // While skipping to a label, values are undefined: poison them with a
    // pattern that makes a wrongly taken select visible in the tests.
    let mut skipping: Option<u32> = None;
    for inst in &f.insts {
        let t = inst.ty;
        if let Some(n) = skipping {
            if matches!(inst.op, Op::Label(m) if m == n) {
                skipping = None;
            }
            let poison = 0x7FF4_DEAD_7FF4_DEAD;
            v.push(if matches!(t, Ty::B32 | Ty::F32) {
                poison & 0xffff_ffff
            } else {
                poison
            });
            continue;
        }
        let g = |x: super::ir::V| v[x.0 as usize];
        let w32 = matches!(t, Ty::B32 | Ty::F32);
        let bits = match inst.op {
            Op::Param(k) => args[k],
            Op::Const(b) => b,
            Op::FAdd(a, b) => fop(t, g(a), g(b), |x, y| x + y, |x, y| x + y),
            Op::FSub(a, b) => fop(t, g(a), g(b), |x, y| x - y, |x, y| x - y),
            Op::FMul(a, b) => fop(t, g(a), g(b), |x, y| x * y, |x, y| x * y),
            Op::FDiv(a, b) => fop(t, g(a), g(b), |x, y| x / y, |x, y| x / y),
            Op::Fma(a, b, c) => match t {
                Ty::F32 => f32of(g(a)).mul_add(f32of(g(b)), f32of(g(c))).to_bits() as u64,
                _ => f64of(g(a)).mul_add(f64of(g(b)), f64of(g(c))).to_bits(),
            },
            Op::FSqrt(a) => match t {
                Ty::F32 => f32of(g(a)).sqrt().to_bits() as u64,
                _ => f64of(g(a)).sqrt().to_bits(),
            },
            Op::FRound(m, a) => match t {
                Ty::F32 => rnd32(m, f32of(g(a))).to_bits() as u64,
                _ => rnd64(m, f64of(g(a))).to_bits(),
            },
            Op::FCvt(a) => match t {
                Ty::F64 => (f32of(g(a)) as f64).to_bits(),
                _ => (f64of(g(a)) as f32).to_bits() as u64,
            },
            Op::F2S(m, a) => {
                // `as` saturates and maps NaN to 0, like PTX's cvt.
                let i = match f.insts[a.0 as usize].ty {
                    Ty::F32 => rnd32(m, f32of(g(a))) as i32,
                    _ => rnd64(m, f64of(g(a))) as i32,
                };
                i as u32 as u64
            }
            Op::S2F(a) => {
                let i = g(a) as u32 as i32;
                match t {
                    Ty::F32 => (i as f32).to_bits() as u64,
                    _ => (i as f64).to_bits(),
                }
            }
            Op::Bits(a) => g(a),
            Op::IAdd(a, b) => g(a).wrapping_add(g(b)),
            Op::ISub(a, b) => g(a).wrapping_sub(g(b)),
            Op::And(a, b) => g(a) & g(b),
            Op::Or(a, b) => g(a) | g(b),
            Op::Xor(a, b) => g(a) ^ g(b),
            Op::Shl(a, n) => {
                let n = g(n) as u32;
                if w32 {
                    (g(a) as u32).checked_shl(n).unwrap_or(0) as u64
                } else {
                    g(a).checked_shl(n).unwrap_or(0)
                }
            }
            Op::Shr(a, n) => {
                let n = g(n) as u32;
                if w32 {
                    (g(a) as u32).checked_shr(n).unwrap_or(0) as u64
                } else {
                    g(a).checked_shr(n).unwrap_or(0)
                }
            }
            Op::Sar(a, n) => {
                let n = g(n) as u32;
                if w32 {
                    ((g(a) as u32 as i32) >> n.min(31)) as u32 as u64
                } else {
                    ((g(a) as i64) >> n.min(63)) as u64
                }
            }
            Op::Zext(a) => g(a) as u32 as u64,
            Op::Trunc(a) => g(a) as u32 as u64,
            Op::FSetp(c, a, b) => {
                let r = match f.insts[a.0 as usize].ty {
                    Ty::F32 => {
                        let (x, y) = (f32of(g(a)), f32of(g(b)));
                        fcmp(c, x, y, x.is_nan() || y.is_nan())
                    }
                    _ => {
                        let (x, y) = (f64of(g(a)), f64of(g(b)));
                        fcmp(c, x, y, x.is_nan() || y.is_nan())
                    }
                };
                r as u64
            }
            Op::ISetp(c, a, b) => {
                let at = f.insts[a.0 as usize].ty;
                let (x, y) = (g(a), g(b));
                let (sx, sy) = if at == Ty::B32 {
                    (x as u32 as i32 as i64, y as u32 as i32 as i64)
                } else {
                    (x as i64, y as i64)
                };
                let r = match c {
                    ICmp::Eq => x == y,
                    ICmp::Ne => x != y,
                    ICmp::Lt => sx < sy,
                    ICmp::Le => sx <= sy,
                    ICmp::Gt => sx > sy,
                    ICmp::Ge => sx >= sy,
                    ICmp::Lo => x < y,
                    ICmp::Hs => x >= y,
                };
                r as u64
            }
            Op::PAnd(a, b) => g(a) & g(b),
            Op::POr(a, b) => g(a) | g(b),
            Op::PNot(a) => g(a) ^ 1,
            Op::Select(p, a, b) => {
                if g(p) != 0 {
                    g(a)
                } else {
                    g(b)
                }
            }
            Op::SkipIf(p, n) => {
                if g(p) != 0 {
                    skipping = Some(n);
                }
                0
            }
            Op::Label(_) => 0,
        };
        let bits = if w32 { bits & 0xffff_ffff } else { bits };
        v.push(bits);
    }
    v[f.result.0 as usize]
}

fn fop(t: Ty, a: u64, b: u64, f: impl Fn(f32, f32) -> f32, d: impl Fn(f64, f64) -> f64) -> u64 {
    match t {
        Ty::F32 => f(f32of(a), f32of(b)).to_bits() as u64,
        _ => d(f64of(a), f64of(b)).to_bits(),
    }
}
