//! accel's compiler: Rust syntax → typed array IR → sharing → fusion → kernel
//! plan, and the reference interpreter. An ordinary library (no proc-macro
//! API): the macros call it at build time, tests and tools at run time.

pub mod alpha;
pub mod dist;
pub mod error;
pub mod front;
pub mod interp;
pub mod ir;
pub mod plan;
pub mod seq;
pub mod sharing;
pub mod valid;

pub use error::{CResult, CompileError};
pub use front::Program;
pub use plan::Plan;

use accel_types::dynamic::Dyn;
use ir::Ty;
use proc_macro2::Span;

/// Switches for the optimisations, so that their effect can be measured (the
/// columns of the Accelerate paper's Table 2). All on by default, and one plan
/// serves both back ends; the macros take `#[acc(fusion = false, sharing =
/// false)]` (and, undocumented, `expand_fusion = false`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Fuse producers into their consumers. Off: every array operation is its
    /// own kernel writing its own array.
    pub fusion: bool,
    /// Recover sharing. Off: every use of a value computes it again, as if each
    /// `let` were written out at its uses: scalar `let`s inside closures are
    /// substituted, equal operations written twice are not merged, and an array
    /// producer used twice is recomputed inside each consumer instead of stored.
    pub sharing: bool,
    /// Fuse the maps that follow a fold or a scan into it (applied to each
    /// result before it is stored). Off only in tests that compare plans.
    pub maps_after_consumers: bool,
    /// Fuse `expand` into the `permute` or `fold_all` that consumes it (one
    /// kernel, no expanded array, no offsets).
    pub expand_fusion: bool,
    /// How kernels are clustered after fusion: siblings that read an input
    /// in common merged into one kernel with several outputs, and the
    /// arrays left with one reader computed in it (`plan::horizontal`);
    /// chosen by an exact solver, greedily, or not at all.
    pub clustering: plan::horizontal::Clustering,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fusion: true,
            sharing: true,
            maps_after_consumers: true,
            expand_fusion: true,
            clustering: plan::horizontal::Clustering::Optimal,
        }
    }
}

/// Lowers function `which` of `fns` and builds its plan: front end, sharing
/// recovery, fusion, with the validator after each. Returns the front end's
/// program (what the interpreter runs) and the plan.
pub fn compile(fns: &[syn::ItemFn], which: usize) -> CResult<(Program, Plan)> {
    compile_with(fns, which, Options::default())
}

/// [`compile`] with chosen optimisations.
pub fn compile_with(fns: &[syn::ItemFn], which: usize, opts: Options) -> CResult<(Program, Plan)> {
    compile_traced(fns, which, opts, &mut |_, _| {})
}

/// The compiler's passes, in order. The validator checks the IR after each,
/// and [`compile_traced`] shows it.
pub const PASSES: [&str; 5] = ["front", "sequences", "sharing", "fusion", "clustering"];

/// The IR between two passes: the typed array IR up to sharing recovery,
/// the kernel plan from fusion on.
#[derive(Clone, Copy)]
pub enum Stage<'a> {
    Program(&'a Program),
    Plan(&'a Plan),
}

impl std::fmt::Display for Stage<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stage::Program(p) => {
                let params: Vec<String> = p.params.iter().map(|x| format!("{}: {}", x.name, x.ty)).collect();
                writeln!(f, "fn {}({}) -> {}", p.name, params.join(", "), p.result)?;
                writeln!(f, "{}", p.arena.show(p.body))
            }
            Stage::Plan(plan) => write!(f, "{plan}"),
        }
    }
}

/// [`compile_with`], calling `after(pass, ir)` after each of [`PASSES`] once
/// the validator accepted its result: `ACCEL_DUMP`'s and the tests' view of
/// the pipeline.
pub fn compile_traced(
    fns: &[syn::ItemFn],
    which: usize,
    opts: Options,
    after: &mut dyn FnMut(&'static str, Stage<'_>),
) -> CResult<(Program, Plan)> {
    let ice = |pass: &str, e: valid::Invalid| {
        CompileError::new(
            Span::call_site(),
            format!("internal compiler error in accel (after the pass `{pass}`): {e}"),
        )
    };
    let program = front::lower_program(fns, which)?;
    valid::program(&program).map_err(|e| ice("front", e))?;
    after("front", Stage::Program(&program));
    // A program that returns a sequence runs as its program over one chunk
    // (`front::returned`), once its checks pass: that is what compiles.
    if matches!(program.result, Ty::Seq(_)) {
        seq::lower(&program)?;
        let mut with_chunk = fns.to_vec();
        with_chunk.push(front::returned::chunk_program(&fns[which])?);
        return compile_traced(&with_chunk, with_chunk.len() - 1, opts, after);
    }
    let looped = seq::lower(&program)?;
    valid::program(&looped).map_err(|e| ice("sequences", e))?;
    after("sequences", Stage::Program(&looped));
    let shared = sharing::recover_with(&looped, opts.sharing);
    valid::program(&shared).map_err(|e| ice("sharing", e))?;
    after("sharing", Stage::Program(&shared));
    let mut plan = plan::fuse(&shared, opts);
    valid::plan(&plan).map_err(|e| ice("fusion", e))?;
    after("fusion", Stage::Plan(&plan));
    plan::cluster(&mut plan, opts);
    valid::plan(&plan).map_err(|e| ice("clustering", e))?;
    after("clustering", Stage::Plan(&plan));
    Ok((program, plan))
}

/// Compiles function `name` of `source` (the text of one or more functions).
pub fn compile_source(source: &str, name: &str) -> CResult<(Program, Plan)> {
    compile_source_with(source, name, Options::default())
}

/// [`compile_source`] with chosen optimisations.
pub fn compile_source_with(source: &str, name: &str, opts: Options) -> CResult<(Program, Plan)> {
    let fns = front::parse_source(source)?;
    let Some(which) = fns.iter().position(|f| f.sig.ident == name) else {
        return Err(CompileError::new(
            Span::call_site(),
            format!("no function `{name}` in the source"),
        ));
    };
    compile_with(&fns, which, opts)
}

/// Runs function `name` of `source` on the reference interpreter.
pub fn interpret_source(source: &str, name: &str, args: &[Dyn]) -> Result<Dyn, accel_types::Error> {
    let compile = |e: CompileError| accel_types::Error::new("compile", e.message);
    let fns = front::parse_source(source).map_err(compile)?;
    let which = fns
        .iter()
        .position(|f| f.sig.ident == name)
        .ok_or_else(|| accel_types::Error::new("compile", format!("no function `{name}` in the source")))?;
    let program = check(&fns, which).map_err(compile)?;
    interp::run(&program, args)
}

/// Function `fns[which]` through the front end and the checks of the
/// sequences pass (a stream traversed twice), not compiled further: what
/// the interpreter runs, and what `accel!` checks of a program that returns
/// a sequence.
pub fn check(fns: &[syn::ItemFn], which: usize) -> CResult<Program> {
    let program = front::lower_program(fns, which)?;
    valid::program(&program).map_err(|e| {
        CompileError::new(
            Span::call_site(),
            format!("internal compiler error in accel (after the pass `front`): {e}"),
        )
    })?;
    seq::lower(&program)?;
    Ok(program)
}
