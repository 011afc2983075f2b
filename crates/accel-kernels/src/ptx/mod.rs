//! Kernel plan → one PTX module per program, one or two `.entry`s per kernel.
//!
//! The module targets `.version 7.0`, `.target sm_70`: Volta is the oldest
//! architecture accel supports (independent thread scheduling makes the
//! per-element spin locks of `permute` safe), and PTX ISA 7.0 is accepted by
//! every CUDA 11.0+ driver, which JIT-compiles it for newer GPUs.
//!
//! The kernel ABI: every parameter is described by an [`Arg`] that the host code
//! (`crate::gpu`) turns into a `KernelArg`: buffer columns as `.u64` pointers,
//! shapes as `.u64`, host scalars by value (narrow integers and `bool` as
//! `.u32`), and the launch's error word, a device `u32` that kernels set with
//! `atom.cas` (first error wins) to the number of an [`ErrSite`] of the module.
//!
//! Layout: `lower` lowers element functions to PTX (with the math library in
//! `math`); `blocks` holds the building blocks every skeleton uses (indices,
//! stores, in-order reductions, row and task loops, atomic combination);
//! `skeletons` dispatches each kernel to its skeleton, one file each:
//! `generate`, `fold`, `scan`, `permute`, `sort`, `expand`, with `stencil`,
//! `vector` (quads of four elements) and `segments` (segment loops shared by
//! a warp) used by them. Skeletons import
//! from `blocks` and `lower`, never from `skeletons`; `expand` reuses the
//! fold's final pass.

mod blocks;
pub mod expand;
mod fold;
mod generate;
pub mod lower;
pub mod math;
pub mod math_lib;
pub mod permute;
mod scan;
pub mod segments;
mod skeletons;
pub mod sort;
mod stencil;
mod vector;

pub use lower::{Arg, ErrSite};

use accel_core::ir::Ty;
use accel_core::plan::{KernelOp, Plan};
use std::borrow::Cow;

/// A program's PTX module and what the host code needs to launch it.
#[derive(Clone, Debug)]
pub struct PtxProgram {
    pub text: String,
    /// One per kernel of the plan, in `Plan::kernels()` order.
    pub kernels: Vec<KernelPtx>,
    /// The run-time errors kernels can report (code = position + 1).
    pub sites: Vec<ErrSite>,
    /// Why the GPU path cannot run this program, if it cannot.
    pub unsupported: Option<String>,
}

#[derive(Clone, Debug)]
pub struct KernelPtx {
    pub entries: Vec<EntryPtx>,
}

#[derive(Clone, Debug)]
pub struct EntryPtx {
    pub name: String,
    pub params: Vec<Arg>,
}

/// The plan the GPU path runs, whose kernels [`program`] compiles:
/// - a generate keeps the first fold in its pass, merged with the others of
///   its kind (to one value, or of rows) into one fold of a tuple, run by the
///   fold's skeleton with each element stored as it is made; the other folds
///   in its pass run as kernels of their own after it
///   ([`Plan::folds_apart_unless`]), as do a generate's whose warps share
///   segment loops (`segments`: the generate skeleton's own loop runs those);
/// - a scan keeps its folds ([`scan_keeps_folds`]), or runs them all apart.
pub fn gpu_plan(plan: &Plan) -> Cow<'_, Plan> {
    plan.folds_apart_unless(|p, k| match &k.op {
        KernelOp::Generate { elem, .. } => !segments::shares(&p.arena, elem),
        KernelOp::Scan { shape, folds, .. } => scan_keeps_folds(p, *shape, folds),
        _ => false,
    })
}

/// Whether the scan skeleton runs these folds in a scan's pass: each thread
/// folds the elements it stores, in no fixed order (so each combination
/// must be commutative), a block combines its threads' results, and the
/// tiles of a row chain theirs. So a fold of everything needs a scan of one
/// row (a vector); its initial value must be a plain expression of
/// literals and host scalars, which the kernel computes itself.
fn scan_keeps_folds(plan: &Plan, shape: accel_core::ir::H, folds: &[accel_core::plan::PassFold]) -> bool {
    let a = &plan.arena;
    let one_row = matches!(a.ty(shape), Ty::Index(1));
    folds.iter().all(|g| {
        accel_core::plan::commutative(a, &g.f)
            && (!g.all || one_row)
            && g.alone.outputs.len() == 1
            && match g.z {
                Some(z) => device_plain(plan, z),
                None => true,
            }
    })
}

/// An expression of literals and host scalars (arithmetic, comparisons,
/// casts, tuples) that a kernel can compute from its parameters.
fn device_plain(plan: &Plan, h: accel_core::ir::H) -> bool {
    let scalar = |v| !matches!(plan.arena.var(v).ty, Ty::Option(_) | Ty::Array(..));
    accel_core::plan::plain(plan, h, &scalar)
}

/// Compiles every kernel of `plan`'s [`gpu_plan`].
pub fn program(plan: &Plan) -> PtxProgram {
    let plan = &*gpu_plan(plan);
    let buf_elems: Vec<Ty> = plan.buffers.iter().map(|(_, b)| b.elem.clone()).collect();
    let mut sites = Vec::new();
    let mut funcs = Vec::new();
    let mut kernels = Vec::new();
    let mut entries_text = String::new();
    let mut unsupported = None;
    for (n, k) in plan.kernels().enumerate() {
        let prefix = format!("{}_k{}", plan.name.trim_start_matches("r#"), n);
        match skeletons::kernel(plan, &buf_elems, k, &prefix, &mut sites, &mut funcs) {
            Ok((text, entries)) => {
                entries_text.push_str(&text);
                kernels.push(KernelPtx { entries });
            }
            Err(why) => {
                unsupported = Some(format!(
                    "kernel {n} ({}) uses {why}, which the GPU back end does not support yet",
                    k.describe()
                ));
                break;
            }
        }
    }
    let mut text = String::new();
    text.push_str(&format!("// accel program `{}`\n", plan.name));
    text.push_str(
        "// sm_70 (Volta) is the oldest architecture accel supports; PTX 7.0 loads on CUDA 11.0+ drivers.\n",
    );
    text.push_str(".version 7.0\n.target sm_70\n.address_size 64\n\n");
    if let Some(why) = &unsupported {
        text.push_str(&format!("// not compiled: {why}\n"));
        kernels.clear();
    } else {
        text.push_str(&math_lib::funcs_text(&funcs));
        text.push_str(&entries_text);
    }
    PtxProgram {
        text,
        kernels,
        sites,
        unsupported,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx(source: &str, name: &str) -> PtxProgram {
        let (_, plan) = accel_core::compile_source(source, name).unwrap_or_else(|e| panic!("{}", e.message));
        program(&plan)
    }

    #[test]
    fn skeleton_entries() {
        let p = ptx(
            "fn f(xs: &Vector<f32>) -> Scalar<f32> { xs.map(|x| x * 2.0).fold(0.0, |a, b| a + b) }",
            "f",
        );
        assert!(p.unsupported.is_none(), "{:?}", p.unsupported);
        let names: Vec<&str> = p.kernels[0].entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["f_k0_fold_part", "f_k0_fold_final"]);
        assert!(p.text.contains(".target sm_70") && p.text.contains("shfl.sync.down.b32"));
        let p = ptx(
            "fn g(m: &Matrix<i64>) -> Vector<i64> { m.fold(0, |a, b| a + b) }",
            "g",
        );
        assert!(p.text.contains(".entry g_k0_fold_rows(") && p.text.contains(".entry g_k0_fold_rows_warp("));
        let p = ptx(
            "fn s(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) { xs.scanl_total(7, |a, b| a + b) }",
            "s",
        );
        let names: Vec<&str> = p.kernels[0].entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["s_k0_scan", "s_k0_scan_lookback", "s_k0_scan_warp"]);
        // A map after a fold is applied in the fold's kernel.
        let p = ptx(
            "fn n(m: &Matrix<f32>) -> Vector<bool> { m.fold(0.0, |a, b| a + b).map(|s| s > 1.0) }",
            "n",
        );
        assert!(p.unsupported.is_none(), "{:?}", p.unsupported);
        assert_eq!(p.kernels.len(), 1);
    }

    /// A read that the iteration space proves in bounds (`plan::bounds`) is
    /// unchecked here as on the CPU: no error site, no `__ctx.index`. The
    /// same read of another array stays checked on the GPU (the CPU tests
    /// that array's shape at kernel entry instead).
    #[test]
    fn reads_the_iteration_space_proves_are_unchecked() {
        let own = "fn f(xs: &Matrix<f32>, ys: &Matrix<f32>) -> Matrix<f32> {
            generate(xs.shape(), |[i, j]| xs[[i, j]] * 2.0) }";
        let other = "fn f(xs: &Matrix<f32>, ys: &Matrix<f32>) -> Matrix<f32> {
            generate(xs.shape(), |[i, j]| ys[[i, j]] * 2.0) }";
        let checks = |src: &str| {
            ptx(src, "f")
                .sites
                .iter()
                .filter(|s| s.kind == accel_core::ir::ErrorKind::IndexOutOfBounds)
                .count()
        };
        assert_eq!(checks(own), 0);
        assert!(checks(other) > 0);
        let cpu = |src: &str| {
            let (_, plan) = accel_core::compile_source(src, "f").unwrap_or_else(|e| panic!("{}", e.message));
            crate::cpu::program_body(&plan, &quote::quote!(rt)).to_string()
        };
        assert!(!cpu(own).contains("__ctx . index"), "{}", cpu(own));
        assert!(cpu(other).contains("__ctx . index"));
        // Folds, scans and permutes read their element function the same way.
        for src in [
            "fn f(xs: &Matrix<f32>) -> Vector<f32> { generate(xs.shape(), |[i, j]| xs[[i, j]] + 1.0).fold(0.0, |a, b| a + b) }",
            "fn f(xs: &Matrix<i32>) -> Matrix<i32> { generate(xs.shape(), |[i, j]| xs[[i, j]] * 3).scanl1(|a, b| a + b) }",
        ] {
            assert_eq!(checks(src), 0, "{src}");
        }
    }

    /// The proofs that need a context (`plan::bounds::prove`) drop the same
    /// checks as on the CPU: a loop counter below the extent everywhere; a
    /// counter whose bound is tested before the loop, and neighbours that
    /// the element function's own `if`s keep inside, in a version of the
    /// loop or of the element function that runs when those tests hold.
    #[test]
    fn reads_proved_in_context_are_unchecked() {
        let oob = |p: &PtxProgram| {
            p.sites
                .iter()
                .filter(|s| s.kind == accel_core::ir::ErrorKind::IndexOutOfBounds)
                .count()
        };
        // The text between the branch to each label ending in `what` and the
        // label: the version that runs when the tests hold.
        let fast = |text: &str, what: &str| -> Vec<String> {
            let mut out = Vec::new();
            for line in text.lines() {
                let Some(l) = line.trim().strip_prefix('@').and_then(|x| x.split_once(" bra ")) else {
                    continue;
                };
                let label = l.1.trim_end_matches(';');
                let name = label.trim_end_matches(|c: char| c.is_ascii_digit());
                if name.ends_with(what) {
                    let from = text.find(line).unwrap() + line.len();
                    let to = text.find(&format!("{label}:")).unwrap();
                    out.push(text[from..to].to_string());
                }
            }
            out
        };
        let counter = ptx(
            "fn k(xs: &Vector<f32>, cs: &Vector<f32>) -> Vector<f32> { let k = cs.len(); xs.map(|x| { \
             let mut c = 0usize; let mut s = x; while c < k { s = s + cs[[c]]; c += 1; } s }) }",
            "k",
        );
        assert_eq!(oob(&counter), 0, "{}", counter.text);
        let before_loop = ptx(
            "fn s(xs: &Vector<f64>, ends: &Vector<usize>) -> Vector<f64> { ends.map(|e| { \
             let mut k = 0usize; let mut s = 0.0; while k < e { s = s + xs[[k]]; k += 1; } s }) }",
            "s",
        );
        let loops = fast(&before_loop.text, "_lchecked");
        assert!(!loops.is_empty(), "{}", before_loop.text);
        assert!(loops.iter().all(|t| !t.contains("_oob")), "{}", before_loop.text);
        assert!(oob(&before_loop) > 0, "the other version checks");
        for (src, name) in [
            (
                "fn p(xs: &Vector<f32>, ws: &Vector<f32>) -> Vector<f32> { let n = xs.len(); \
                 generate([n, n], |[i, j]| xs[[i]] * ws[[j]]).fold(0.0, |a, b| a + b) }",
                "p",
            ),
            (
                "fn h(a: &Matrix<f32>) -> Matrix<f32> { let [n, m] = a.shape(); generate([n, m], |[i, j]| \
                 if i >= 1 && i + 1 < n && j >= 1 && j + 1 < m { a[[i - 1, j]] + a[[i + 1, j]] + a[[i, j - 1]] } \
                 else { a[[i, j]] }) }",
                "h",
            ),
            // Rodinia's border cases: the else-branch of the edge tests.
            (
                "fn e(a: &Vector<i32>) -> Vector<i32> { let n = a.len(); generate([n], |[i]| \
                 if i == 0 || i + 1 == n { a[[i]] } else { a[[i - 1]] + a[[i + 1]] }) }",
                "e",
            ),
            (
                "fn e(a: &Vector<i32>) -> Vector<i32> { let n = a.len(); generate([n], |[i]| \
                 if i == 0 { a[[i]] } else if i == n - 1 { a[[i]] * 2 } else { a[[i - 1]] + a[[i + 1]] }) }",
                "e",
            ),
        ] {
            let p = ptx(src, name);
            let elems = fast(&p.text, "_checked");
            assert!(!elems.is_empty(), "{}", p.text);
            assert!(elems.iter().all(|t| !t.contains("_oob")), "{}", p.text);
            // The tests are made once, before the body.
            assert!(p.text.contains("setp.le.u64"), "{}", p.text);
        }
    }

    #[test]
    fn permute_uses_atomics_when_it_can() {
        let add = ptx(
            "fn h(xs: &Vector<i32>, z: &Vector<i32>) -> Vector<i32> { xs.permute(z, |[i]| Some([i / 2]), |a, b| a + b) }",
            "h",
        );
        assert!(add.text.contains("red.global.add.u32"), "{}", add.text);
        let pair = ptx(
            "fn h(xs: &Vector<(i32, f32)>, z: &Vector<(i32, f32)>) -> Vector<(i32, f32)> { xs.permute(z, |[i]| Some([i / 2]), |a, b| if a.0 > b.0 { a } else { b }) }",
            "h",
        );
        // A tuple: a per-element lock (taken by compare-and-swap, released by exchange).
        assert!(pair.text.contains("atom.global.cas.b32"), "{}", pair.text);
        assert!(pair.text.contains("atom.global.exch.b32"), "{}", pair.text);
        // One 64-bit leaf with no native atomic: a compare-and-swap loop, no lock.
        let mul = ptx(
            "fn h(xs: &Vector<f64>, z: &Vector<f64>) -> Vector<f64> { xs.permute(z, |[i]| Some([i / 2]), |a, b| a * b) }",
            "h",
        );
        assert!(mul.text.contains("atom.global.cas.b64"), "{}", mul.text);
        assert!(!mul.text.contains("atom.global.exch"), "{}", mul.text);
        let fadd = ptx(
            "fn h(xs: &Vector<f32>, z: &Vector<f32>) -> Vector<f32> { xs.permute(z, |[i]| Some([i / 2]), |a, b| b + a) }",
            "h",
        );
        assert!(fadd.text.contains("red.global.add.f32"), "{}", fadd.text);
        let max = ptx(
            "fn h(xs: &Vector<i64>, z: &Vector<i64>) -> Vector<i64> { xs.permute(z, |[i]| Some([i / 2]), |a, b| a.max(b)) }",
            "h",
        );
        assert!(max.text.contains("red.global.max.s64"), "{}", max.text);
    }

    #[test]
    fn integer_semantics_are_explicit() {
        let p = ptx("fn d(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<i32> { xs.zip_with(ys, |x, y| x / y + (x % y) + (x << y)) }", "d");
        // Division by zero and by -1 patched, shift amounts masked.
        assert!(p.text.contains("setp.eq.s32") && p.text.contains("and.b32") && p.text.contains("neg.s32"));
    }
}
