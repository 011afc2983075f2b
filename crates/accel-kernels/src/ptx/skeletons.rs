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
use super::fold::{fold_final, fold_part, fold_rows, fold_rows_warp, Elems};
use super::generate::generate;
use super::lower::{leaves, ErrSite, Lower, Unsupported};
use super::scan::{ScanFold, ScanSpec};
use super::EntryPtx;
use accel_core::ir::{Fun, ScanKind, Ty};
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
        KernelOp::Generate { elem, shape, .. }
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
    let mut ents = Entries {
        plan,
        buf_elems,
        prefix,
        iteration,
        proofs,
        sites,
        funcs,
        text: String::new(),
        entries: Vec::new(),
    };
    match &k.op {
        KernelOp::Generate { elem, folds, .. } if folds.is_empty() => {
            ents.add(GenerateEntry::Map.suffix(), |l| {
                generate(l, elem, &dest)?;
                Ok(String::new())
            })?
        }
        // One fold in the generate's pass (`super::gpu_plan`): the fold's
        // skeleton, each element stored as it is made.
        KernelOp::Generate { elem, folds, .. } => {
            let fold = &folds[0];
            // Its results: one, or the tuple of several merged
            // (`Plan::folds_apart_unless`).
            let result = Dest::outputs(&k.outputs[1..], buf_elems);
            let e = Elems::Pass {
                gen: elem,
                dest: &dest,
                fold,
            };
            let to_scalar = plan.folds_to_one_value(fold.all, k.outputs[1]);
            ents.fold(
                e,
                fold.z.is_some(),
                &fold.f,
                fold.post.as_ref(),
                result,
                to_scalar,
            )?;
        }
        KernelOp::Fold {
            elem,
            z,
            f,
            all,
            post,
            ..
        } => {
            let to_scalar = plan.folds_to_one_value(*all, k.outputs[0]);
            ents.fold(
                Elems::Of(elem),
                z.is_some(),
                f,
                post.as_ref(),
                dest.clone(),
                to_scalar,
            )?;
        }
        KernelOp::Scan {
            elem,
            dir,
            kind,
            z,
            f,
            post,
            folds,
            stored,
            ..
        } => {
            let acc_ty = plan.arena.var(f.params[0]).ty.clone();
            // A scan whose outputs only the folds in its pass read stores none.
            let dest = match stored {
                true => dest.clone(),
                false => Dest::nowhere(plan.arena.ty(post.as_ref().unwrap_or(f).body)),
            };
            let out = Out {
                dest,
                post: post.as_ref(),
                longer_rows: *kind == ScanKind::WithInit,
            };
            let totals = k
                .outputs
                .get(1)
                .filter(|_| *kind == ScanKind::Exclusive)
                .map(|b| b.0);
            // The folds in its pass (`super::gpu_plan`), their partial
            // results after the scan's.
            let mut part = leaves(&acc_ty).len();
            let folds: Vec<ScanFold> = folds
                .iter()
                .zip(&k.outputs[usize::from(*stored)..])
                .map(|(g, o)| {
                    let acc = plan.arena.var(g.f.params[0]).ty.clone();
                    let first = part;
                    part += leaves(&acc).len();
                    ScanFold {
                        fold: g,
                        out: Out {
                            dest: Dest::outputs(&[*o], buf_elems),
                            post: g.post.as_ref(),
                            longer_rows: false,
                        },
                        acc,
                        part: first,
                    }
                })
                .collect();
            // A block per row, tiles with look-back, or a warp per short
            // row (`ScanEntry`); the host picks (`sizes::scan_split`).
            for &pass in ScanEntry::ALL {
                ents.add(pass.suffix(), |l| {
                    let s = ScanSpec::new(l, elem, *dir, *kind, z.is_some(), f, &acc_ty, &folds);
                    super::scan::pass(l, &s, &out, totals, pass)
                })?;
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
            let mut private = false;
            ents.add(PermuteEntry::Scatter.suffix(), |l| {
                private = super::permute::has_private(l, &scatter);
                super::permute::permute(l, &scatter)?;
                Ok(String::new())
            })?;
            // A table per block in shared memory, for small outputs; the host
            // picks (`gpu::launch`).
            if private {
                ents.add(PermuteEntry::Private.suffix(), |l| {
                    super::permute::private(l, &scatter)
                })?;
            }
        }
        KernelOp::Sort { .. } => {
            for &pass in SortEntry::ALL {
                ents.add(pass.suffix(), |l| super::sort::pass(l, k, &out_ty, pass))?;
            }
        }
        // Offsets of the counts, then one entry per work distribution
        // (`super::expand`); the host picks one.
        KernelOp::Expand { .. } => {
            for pass in super::expand::entries(&k.op) {
                ents.add(pass.suffix(), |l| super::expand::pass(l, plan, k, &out_ty, pass))?;
            }
        }
    }
    Ok((ents.text, ents.entries))
}

/// A kernel's entries as they are lowered: each by a `Lower` of its own that
/// knows the kernel's iteration space and proofs, its text appended to the
/// module's.
struct Entries<'p, 's> {
    plan: &'p Plan,
    buf_elems: &'p [Ty],
    prefix: &'p str,
    iteration: Option<Iteration>,
    proofs: Proofs,
    sites: &'s mut Vec<ErrSite>,
    funcs: &'s mut Vec<super::math_lib::FuncKey>,
    text: String,
    entries: Vec<EntryPtx>,
}

impl Entries<'_, '_> {
    /// A fold's entries: to a scalar in two passes, or of each innermost
    /// row by a block or by a warp (the host picks from the row length,
    /// `host::fold_row_split`). `post`: the maps after the fold, applied
    /// as its results are stored to `dest`.
    fn fold(
        &mut self,
        e: Elems,
        z: bool,
        f: &Fun,
        post: Option<&Fun>,
        dest: Dest,
        to_scalar: bool,
    ) -> Result<(), Unsupported> {
        // The accumulator's type; the stored type differs when maps after
        // the fold are fused into it (`post`).
        let acc_ty = self.plan.arena.var(f.params[0]).ty.clone();
        let out = Out {
            dest,
            post,
            longer_rows: false,
        };
        if to_scalar {
            self.add(FoldAllEntry::Part.suffix(), |l| fold_part(l, e, f, &acc_ty))?;
            self.add(FoldAllEntry::Final.suffix(), |l| {
                fold_final(l, z, f, &out, &acc_ty)
            })
        } else {
            self.add(FoldRowsEntry::Block.suffix(), |l| {
                fold_rows(l, e, z, f, &out, &acc_ty)
            })?;
            self.add(FoldRowsEntry::Warp.suffix(), |l| {
                fold_rows_warp(l, e, z, f, &out, &acc_ty)
            })
        }
    }

    /// Lowers entry `{prefix}_{suffix}`: `body` writes its code and returns
    /// its shared-memory declarations.
    fn add(
        &mut self,
        suffix: &str,
        body: impl FnOnce(&mut Lower) -> Result<String, Unsupported>,
    ) -> Result<(), Unsupported> {
        let name = format!("{}_{suffix}", self.prefix);
        let mut l = Lower::new(&self.plan.arena, self.buf_elems, self.sites, self.funcs, &name);
        l.iteration = self.iteration.clone();
        l.proofs = self.proofs.clone();
        let shared = body(&mut l)?;
        self.entries.push(EntryPtx {
            name: name.clone(),
            params: l.params.clone(),
        });
        self.text.push_str(&l.finish(&name, &shared));
        self.text.push('\n');
        Ok(())
    }
}
