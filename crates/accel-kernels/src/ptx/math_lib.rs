//! The link between scalar lowering and the math library (`math.rs`): which
//! operations have a PTX `.func`, their calling convention, and the `.func`
//! definitions a module needs.

use super::math::{float_rem, math_func, FloatTy, MathFunc};
use accel_core::ir::{MathFn, Prim};

/// A math method on a receiver of a primitive type; `None` is the float `%`
/// operator (an exact fmod).
pub type FuncKey = (Option<MathFn>, Prim);

/// How to call one math function.
pub struct FuncSig {
    pub name: String,
    /// `.param` types of the arguments (`.f32`, `.u32`, ...).
    pub params: Vec<String>,
    /// `.param` type of the result.
    pub ret: String,
}

/// The float type an operation on a receiver of type `p` works on.
fn float_ty(f: Option<MathFn>, p: Prim) -> Option<FloatTy> {
    match (f, p) {
        (Some(MathFn::FromBits), Prim::U32) | (_, Prim::F32) => Some(FloatTy::F32),
        (Some(MathFn::FromBits), Prim::U64) | (_, Prim::F64) => Some(FloatTy::F64),
        _ => None,
    }
}

fn func(key: FuncKey) -> Option<MathFunc> {
    let t = float_ty(key.0, key.1)?;
    match key.0 {
        None => Some(float_rem(t)),
        Some(f) => math_func(f, t),
    }
}

/// The `.func` for `key`, if the math library has one.
pub fn lookup(key: FuncKey) -> Option<FuncSig> {
    let m = func(key)?;
    Some(FuncSig {
        name: m.name,
        params: m.params.iter().map(|s| s.to_string()).collect(),
        ret: m.ret.to_string(),
    })
}

/// The module text of the `.func`s used (with their dependencies), each once,
/// dependencies first.
pub fn funcs_text(used: &[FuncKey]) -> String {
    let mut done: Vec<FuncKey> = Vec::new();
    let mut out = String::new();
    fn add(key: FuncKey, done: &mut Vec<FuncKey>, out: &mut String) {
        if done.contains(&key) {
            return;
        }
        done.push(key);
        if let Some(m) = func(key) {
            for (g, u) in &m.deps {
                let p = if *u == FloatTy::F32 { Prim::F32 } else { Prim::F64 };
                add((Some(*g), p), done, out);
            }
            out.push_str(&m.text);
            out.push('\n');
        }
    }
    for &key in used {
        add(key, &mut done, &mut out);
    }
    out
}
