//! accel's compiler: Rust syntax → typed array IR → sharing → fusion → kernel
//! plan, and the reference interpreter. An ordinary library (no proc-macro
//! API): the macros call it at build time, tests and tools at run time.

pub mod error;
pub mod front;
pub mod interp;
pub mod ir;
pub mod plan;
pub mod sharing;
pub mod valid;

pub use error::{CResult, CompileError};
pub use front::Program;
pub use plan::Plan;

use accel_runtime::dynamic::Dyn;
use proc_macro2::Span;

/// Lowers function `which` of `fns` and builds its plan: front end, sharing
/// recovery, fusion, with the validator after each. Returns the front end's
/// program (what the interpreter runs) and the plan.
pub fn compile(fns: &[syn::ItemFn], which: usize) -> CResult<(Program, Plan)> {
    let program = front::lower_program(fns, which)?;
    let ice = |stage: &str, e: String| {
        CompileError::new(
            Span::call_site(),
            format!("internal compiler error in accel ({stage}): {e}"),
        )
    };
    valid::program(&program).map_err(|e| ice("front end", e))?;
    let shared = sharing::recover(&program);
    valid::program(&shared).map_err(|e| ice("sharing", e))?;
    let plan = plan::build(&shared);
    valid::plan(&plan).map_err(|e| ice("fusion", e))?;
    Ok((program, plan))
}

/// Compiles function `name` of `source` (the text of one or more functions).
pub fn compile_source(source: &str, name: &str) -> CResult<(Program, Plan)> {
    let fns = front::parse_source(source)?;
    let Some(which) = fns.iter().position(|f| f.sig.ident == name) else {
        return Err(CompileError::new(
            Span::call_site(),
            format!("no function `{name}` in the source"),
        ));
    };
    compile(&fns, which)
}

/// Runs function `name` of `source` on the reference interpreter.
pub fn interpret_source(source: &str, name: &str, args: &[Dyn]) -> Result<Dyn, accel_runtime::Error> {
    let (program, _) =
        compile_source(source, name).map_err(|e| accel_runtime::Error::new("compile", e.message))?;
    interp::run(&program, args)
}
