//! Each kernel of the plan as its skeleton's PTX entries around its lowered
//! element functions; the skeletons live one per file (`super::generate`,
//! `super::fold`, `super::scan`, `super::permute`, `super::sort`,
//! `super::expand`), their building blocks in `super::blocks`.
//!
//! * generate: a grid-stride loop over the output, one thread per element,
//!   or per quad of four with 16-byte loads and stores (`super::vector`).
//! * fold to a scalar: pass 1 gives each thread a contiguous range (so the
//!   combination order is the sequential one: `f` need only be associative),
//!   or for a commutative `f` every so many elements, coalesced (quads where
//!   they apply); it reduces the block in order (`shfl.sync.down` trees whose
//!   lane `i` combines with lane `i + off` only when `i` is a multiple of `2
//!   off`, then the warps' results through shared memory), and writes one
//!   partial per block; pass 2, one block, reduces the partials and combines
//!   with `z`.
//! * fold of the innermost dimension: a warp per row for short rows (each lane
//!   a contiguous range, in-order shuffles), a block of 256 threads per row
//!   for long ones (the same in-order block reduction); the host picks. A
//!   commutative `f` reads strided instead, coalesced.
//! * scan: `super::scan`.
//! * permute: the host copies the defaults into the output; each source
//!   element then combines into its target by a native atomic (one per field
//!   of a tuple whose fields combine alone), a compare-and-swap loop (other
//!   combinations of one 32- or 64-bit value), or under a per-element spin
//!   lock (`atom.cas` on a lock word, fences around the read-modify-write).
//!   Where every field has a native atomic, a second entry combines into a
//!   table per block in shared memory first, for small outputs
//!   (`super::permute::private`).
//! * element functions reading a stencil run split into interior and border
//!   (`super::stencil`).

use super::blocks::{Dest, Out};
use super::fold::{fold_final, fold_part, fold_rows, fold_rows_warp};
use super::generate::generate;
use super::lower::{ErrSite, Lower, Unsupported};
use super::scan::ScanSpec;
use super::EntryPtx;
use accel_core::ir::{ScanKind, Ty};
use accel_core::plan::bounds::{Iteration, Proofs};
use accel_core::plan::{Kernel, KernelOp, Plan};
use accel_types::launch::{FoldAllEntry, FoldRowsEntry, GenerateEntry, PermuteEntry, ScanEntry, SortEntry};

pub fn kernel(
    plan: &Plan,
    buf_elems: &[Ty],
    k: &Kernel,
    prefix: &str,
    sites: &mut Vec<ErrSite>,
    funcs: &mut Vec<super::math_lib::FuncKey>,
) -> Result<(String, Vec<EntryPtx>), Unsupported> {
    let out_b = k.outputs[0].0;
    let dest = Dest::of(k, buf_elems);
    let out_ty = dest.ty.clone();
    // The reads of the element function that its iteration space proves in
    // bounds go unchecked, as on the CPU; these skeletons run it only at
    // indices inside that space.
    let iteration = match &k.op {
        KernelOp::Generate { elem, shape }
        | KernelOp::Fold { elem, shape, .. }
        | KernelOp::Scan { elem, shape, .. }
        | KernelOp::Permute { elem, shape, .. } => Iteration::of(&plan.arena, elem, *shape),
        KernelOp::Sort { .. } | KernelOp::Expand { .. } => None,
    };
    // The other proofs need the context of each read (`plan::bounds`).
    let funs = k.op.funs();
    let roots: Vec<_> = funs.iter().map(|f| f.body).collect();
    let params: Vec<_> = funs.iter().flat_map(|f| f.params.iter().copied()).collect();
    let proofs = Proofs::of(&plan.arena, &roots, &params, iteration.as_ref());
    let mut text = String::new();
    let mut entries = Vec::new();
    let mut emit = |l: Lower, name: String, shared: String, text: &mut String| {
        entries.push(EntryPtx {
            name: name.clone(),
            params: l.params.clone(),
        });
        text.push_str(&l.finish(&name, &shared));
        text.push('\n');
    };
    match &k.op {
        KernelOp::Generate { elem, .. } => {
            let name = format!("{prefix}_{}", GenerateEntry::Map.suffix());
            let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
            l.iteration = iteration.clone();
            l.proofs = proofs.clone();
            generate(&mut l, elem, &dest)?;
            emit(l, name, String::new(), &mut text);
        }
        KernelOp::Fold {
            elem,
            z,
            f,
            all,
            post,
            ..
        } => {
            // The accumulator's type; the stored type differs when maps after
            // the fold are fused into it (`post`).
            let acc_ty = plan.arena.var(f.params[0]).ty.clone();
            let out = Out {
                dest: dest.clone(),
                post: post.as_ref(),
                longer_rows: false,
            };
            let to_scalar = *all || plan.buffer(k.outputs[0]).rank == 0;
            if to_scalar {
                let name = format!("{prefix}_{}", FoldAllEntry::Part.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = fold_part(&mut l, elem, f, &acc_ty)?;
                emit(l, name, sh, &mut text);
                let name = format!("{prefix}_{}", FoldAllEntry::Final.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = fold_final(&mut l, z.is_some(), f, &out, &acc_ty)?;
                emit(l, name, sh, &mut text);
            } else {
                // A block per row (entry 0) or a warp per row (entry 1): the
                // host picks from the row length (`host::fold_row_split`).
                let name = format!("{prefix}_{}", FoldRowsEntry::Block.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = fold_rows(&mut l, elem, z.is_some(), f, &out, &acc_ty)?;
                emit(l, name, sh, &mut text);
                let name = format!("{prefix}_{}", FoldRowsEntry::Warp.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = fold_rows_warp(&mut l, elem, z.is_some(), f, &out, &acc_ty)?;
                emit(l, name, sh, &mut text);
            }
        }
        KernelOp::Scan {
            elem,
            dir,
            kind,
            z,
            f,
            post,
            ..
        } => {
            let acc_ty = plan.arena.var(f.params[0]).ty.clone();
            let out = Out {
                dest: dest.clone(),
                post: post.as_ref(),
                longer_rows: *kind == ScanKind::WithInit,
            };
            let totals = k.outputs.get(1).map(|b| b.0);
            // One block per row (entry 0), or tiles of few long rows with
            // look-back (entry 1); the host picks (`host::long_scan`).
            for &pass in ScanEntry::ALL {
                let name = format!("{prefix}_{}", pass.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let s = ScanSpec::new(&mut l, elem, *dir, *kind, z.is_some(), f, &acc_ty);
                let sh = super::scan::pass(&mut l, &s, &out, totals, pass)?;
                emit(l, name, sh, &mut text);
            }
        }
        KernelOp::Permute {
            elem, index, combine, ..
        } => {
            let scatter = super::permute::Scatter {
                e: elem,
                index,
                combine,
                out: out_b,
                t: &out_ty,
                out_rank: plan.buffer(k.outputs[0]).rank,
                at: k.at,
            };
            let name = format!("{prefix}_{}", PermuteEntry::Scatter.suffix());
            let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
            l.iteration = iteration.clone();
            l.proofs = proofs.clone();
            let private = super::permute::has_private(&l, &scatter);
            super::permute::permute(&mut l, &scatter)?;
            emit(l, name, String::new(), &mut text);
            // A table per block in shared memory, for small outputs; the host
            // picks (`gpu::launch`).
            if private {
                let name = format!("{prefix}_{}", PermuteEntry::Private.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = super::permute::private(&mut l, &scatter)?;
                emit(l, name, sh, &mut text);
            }
        }
        KernelOp::Sort { .. } => {
            for &pass in SortEntry::ALL {
                let name = format!("{prefix}_{}", pass.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = super::sort::pass(&mut l, k, &out_ty, pass)?;
                emit(l, name, sh, &mut text);
            }
        }
        // Offsets of the counts, then one entry per work distribution
        // (`super::expand`); the host picks one.
        KernelOp::Expand { .. } => {
            for pass in super::expand::entries(&k.op) {
                let name = format!("{prefix}_{}", pass.suffix());
                let mut l = Lower::new(&plan.arena, buf_elems, sites, funcs, &name);
                l.iteration = iteration.clone();
                l.proofs = proofs.clone();
                let sh = super::expand::pass(&mut l, plan, k, &out_ty, pass)?;
                emit(l, name, sh, &mut text);
            }
        }
    }
    Ok((text, entries))
}
