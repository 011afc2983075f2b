//! The link between scalar lowering and the math library (`math.rs`): which
//! math methods have a PTX `.func`, and their calling convention.

use super::math::{math_func, FloatTy};
use accel_core::ir::{MathFn, Prim};

/// How to call one math function.
pub struct FuncSig {
    pub name: String,
    /// `.param` types of the arguments (`.f32`, `.u32`, ...).
    pub params: Vec<String>,
    /// `.param` type of the result.
    pub ret: String,
}

/// The float type a method on a receiver of type `p` works on.
fn float_ty(f: MathFn, p: Prim) -> Option<FloatTy> {
    match (f, p) {
        (MathFn::FromBits, Prim::U32) | (_, Prim::F32) => Some(FloatTy::F32),
        (MathFn::FromBits, Prim::U64) | (_, Prim::F64) => Some(FloatTy::F64),
        _ => None,
    }
}

/// The `.func` for method `f` on a receiver of type `p`, if the math library
/// has one.
pub fn lookup(f: MathFn, p: Prim) -> Option<FuncSig> {
    let m = math_func(f, float_ty(f, p)?)?;
    Some(FuncSig {
        name: m.name,
        params: m.params.iter().map(|s| s.to_string()).collect(),
        ret: m.ret.to_string(),
    })
}

/// The module text of the `.func`s used (with their dependencies), each once,
/// dependencies first.
pub fn funcs_text(used: &[(MathFn, Prim)]) -> String {
    let mut done: Vec<(MathFn, FloatTy)> = Vec::new();
    let mut out = String::new();
    fn add(f: MathFn, t: FloatTy, done: &mut Vec<(MathFn, FloatTy)>, out: &mut String) {
        if done.contains(&(f, t)) {
            return;
        }
        done.push((f, t));
        if let Some(m) = math_func(f, t) {
            for (g, u) in &m.deps {
                add(*g, *u, done, out);
            }
            out.push_str(&m.text);
            out.push('\n');
        }
    }
    for &(f, p) in used {
        if let Some(t) = float_ty(f, p) {
            add(f, t, &mut done, &mut out);
        }
    }
    out
}
