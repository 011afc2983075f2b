//! The link between scalar lowering and the math library (`math.rs`): which
//! math methods have a PTX `.func`, and their calling convention.

use accel_core::ir::{MathFn, Prim};

/// How to call one math function.
pub struct FuncSig {
    pub name: String,
    /// `.param` types of the arguments (`.f32`, `.u32`, ...).
    pub params: Vec<String>,
    /// `.param` type of the result.
    pub ret: String,
}

/// The `.func` for method `f` on a receiver of type `p`, if the math library
/// has one.
pub fn lookup(f: MathFn, p: Prim) -> Option<FuncSig> {
    // The math library has not landed in this branch yet: every method without
    // an inline lowering is reported as unsupported on the GPU path.
    let _ = (f, p);
    None
}

/// The module text of the `.func`s used (with their dependencies), each once,
/// dependencies first.
pub fn funcs_text(used: &[(MathFn, Prim)]) -> String {
    let _ = used;
    String::new()
}
