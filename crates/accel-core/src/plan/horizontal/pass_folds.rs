//! Folds in another kernel's pass (seed 004): a kernel that computes an
//! array also folds it, a fold and a map (or a scan) of different ranks in
//! one kernel.
//!
//! - **A scan** (the thesis's cluster `{sum1, scan, sum2}`, `normalise2`):
//!   a fold of the scan's array, reading it at its own element, takes each
//!   element as the scan stores it; the array is then stored only if
//!   something else reads it. A fold over the scan's input space that reads
//!   an array the scan reads takes its elements in the same pass.
//! - **A generate** whose array something other than folds reads (or that
//!   is a result), so that it is stored anyway (softmax's `e`, read by
//!   `e.sum()` and by the division): a fold of the array at its own element
//!   takes each element as the generate stores it. (An array that only
//!   folds read is the solver's to place: it may compute it inside their
//!   kernel, unstored.)
//!
//! A join saves the fold's reads and a kernel, and computes nothing twice;
//! but a generate with folds merges with no sibling, so joining may cost
//! more than the reads the generate would share with one. `fuse_steps` joins
//! before clustering and, where that joined anything, also clusters without
//! joining first (joining after), and keeps the cheaper plan.
//!
//! The CPU back end runs the folds inside the kernel's tasks
//! (`accel_runtime::cpu::scan_inclusive_folds`,
//! `accel_runtime::cpu::generate_folds`). The PTX back end runs a
//! generate's first fold in its pass (the fold's skeleton, storing each
//! element as it makes it), merged with the others of its kind, and the
//! other folds apart, after the kernel, as the fold kernels they were
//! ([`Plan::folds_apart_unless`]). It runs a scan's folds in its pass where
//! they are commutative (each thread folds the elements it stores, and a
//! row's tiles chain their results), apart otherwise.

use super::inline::{facts_of, read_in_register};
use super::{offset, updates_in_place, Facts, Name, SIBLING};
use crate::ir::{BufId, Fun, ScanKind, Ty};
use crate::plan::bounds::same_shape;
use crate::plan::{ElemFn, Kernel, KernelOp, Origin, PassFold, Plan, Step};
use std::borrow::Cow;
use std::collections::HashSet;

/// What a kernel that may take folds into its pass computes.
struct Host {
    /// Its array, when stored (a scan's may not be).
    array: Option<BufId>,
    /// The space it iterates over.
    space: crate::ir::H,
    /// A scan: folds beside it over its input space may join too.
    scan: bool,
}

impl Host {
    fn of(plan: &Plan, k: &Kernel) -> Option<Host> {
        match &k.op {
            KernelOp::Scan {
                kind, stored, shape, ..
            } if *kind != ScanKind::Exclusive => Some(Host {
                array: stored.then(|| k.outputs[0]),
                space: *shape,
                scan: true,
            }),
            KernelOp::Generate { shape, elem, folds }
                if k.outputs.len() == 1 + folds.len() && !updates_in_place(&plan.arena, elem) =>
            {
                Some(Host {
                    array: Some(k.outputs[0]),
                    space: *shape,
                    scan: false,
                })
            }
            _ => None,
        }
    }
}

/// Puts one fold into a kernel's pass, if one can go: returns the steps of
/// the kernel and of the fold (the fold's step is gone).
pub(super) fn fold_into_pass(
    plan: &mut Plan,
    steps: &mut Vec<Step>,
    escapes: &HashSet<BufId>,
) -> Option<(usize, usize)> {
    let facts = facts_of(plan, steps);
    for i in 0..steps.len() {
        let Step::Kernel(s) = &steps[i] else { continue };
        let Some(host) = Host::of(plan, s) else { continue };
        // A generate's array stays stored: only one that something other
        // than a fold reads, or that escapes, takes folds.
        if let (false, Some(b)) = (host.scan, host.array) {
            let stored_anyway = escapes.contains(&b)
                || steps.iter().zip(&facts).enumerate().any(|(x, (st, f))| {
                    x != i
                        && f.uses.contains(&Name::Buf(b.0))
                        && !matches!(st, Step::Kernel(k) if matches!(k.op, KernelOp::Fold { .. }))
                });
            if !stored_anyway {
                continue;
            }
        }
        for j in 0..steps.len() {
            let Step::Kernel(k) = &steps[j] else { continue };
            if j == i || k.outputs.len() != 1 || !matches!(k.op, KernelOp::Fold { .. }) {
                continue;
            }
            let (fs, fk) = (&facts[i], &facts[j]);
            if fs.fails && (fk.fails || fk.empty) || fk.fails && fs.empty {
                continue;
            }
            let of_array = host.array.is_some_and(|b| fk.reads.contains(&b));
            if of_array {
                // It comes after the kernel, and moves up to it.
                if j < i || !facts[i + 1..j].iter().all(|x| fk.may_move_past(x)) {
                    continue;
                }
            } else {
                let KernelOp::Fold { shape, .. } = &k.op else {
                    continue;
                };
                let reads_host = |x: &Facts| {
                    x.uses
                        .iter()
                        .any(|n| s.outputs.iter().any(|o| *n == Name::Buf(o.0)))
                };
                if !host.scan
                    || !same_shape(&plan.arena, *shape, host.space)
                    || fs.reads.is_disjoint(&fk.reads)
                    || reads_host(fk)
                {
                    continue;
                }
                if !movable(&facts, i, j) {
                    continue;
                }
            }
            let (pass, fold) = (s.clone(), k.clone());
            let Some(merged) = join(plan, pass, fold, of_array) else {
                continue;
            };
            let mut merged = merged;
            // A scan's array stays stored where another step reads it.
            if let Some(b) = host.array.filter(|_| of_array && host.scan) {
                let others = facts
                    .iter()
                    .enumerate()
                    .any(|(x, f)| x != i && x != j && f.uses.contains(&Name::Buf(b.0)));
                if !others && !escapes.contains(&b) {
                    if let KernelOp::Scan { stored, .. } = &mut merged.op {
                        *stored = false;
                    }
                    merged.outputs.retain(|o| *o != b);
                    plan.buffers[b].origin = Origin::Inlined;
                }
            }
            // The merged kernel goes to the earlier one's place when the
            // later may move up to it, else to the later one's.
            let (lo, hi) = (i.min(j), i.max(j));
            let up = facts[lo + 1..hi].iter().all(|x| facts[hi].may_move_past(x));
            steps.remove(hi);
            steps.remove(lo);
            steps.insert(if up { lo } else { hi - 1 }, Step::Kernel(merged));
            return Some((i, j));
        }
    }
    None
}

/// Whether the kernels of steps `i` and `j` can meet: the later moves up to
/// the earlier, or the earlier down to the later (nothing in between reads
/// what it defines).
fn movable(facts: &[Facts], i: usize, j: usize) -> bool {
    let (lo, hi) = (i.min(j), i.max(j));
    let between = &facts[lo + 1..hi];
    between.iter().all(|x| facts[hi].may_move_past(x))
        || between
            .iter()
            .all(|x| facts[lo].may_move_past(x) && x.uses_none_of(&facts[lo].defines))
}

/// Kernel `pass` (a scan or a generate) with fold kernel `fold` in its
/// pass; `None` when the fold reads the kernel's array other than at its own
/// element.
fn join(plan: &mut Plan, pass: Kernel, fold: Kernel, of_array: bool) -> Option<Kernel> {
    let alone = fold.clone();
    let array = of_array.then(|| pass.outputs[0]);
    let fold = match array {
        Some(b) => {
            let shape = plan.buffers[b].shape;
            let (k, t, _) = read_in_register(plan, shape, b, fold)?;
            (k, Some(t))
        }
        None => (fold, None),
    };
    let (
        Kernel {
            op:
                KernelOp::Fold {
                    shape,
                    elem,
                    z,
                    f,
                    all,
                    post,
                },
            outputs,
            fused,
            ..
        },
        t,
    ) = fold
    else {
        return None;
    };
    let mut pass = pass;
    // The kernel's element as it stores it, and its folds.
    let (value, folds) = match &mut pass.op {
        KernelOp::Scan {
            f: sf,
            post: spost,
            folds,
            ..
        } => (spost.as_ref().unwrap_or(sf).body, folds),
        KernelOp::Generate { elem, folds, .. } => (elem.fun().body, folds),
        _ => return None,
    };
    let a = &mut plan.arena;
    let Ty::Index(rank) = a.ty(shape).clone() else {
        return None;
    };
    // `|v, ix| { let t = v; elem(ix) }`, `elem` by offset or by index.
    let value_ty = a.ty(value).clone();
    let v = a.new_var("v", value_ty);
    let ix = a.new_var("ix", Ty::Index(rank));
    let (vv, ixv) = (a.var_ref(v), a.var_ref(ix));
    let arg = match &elem {
        ElemFn::Index(_) => ixv,
        ElemFn::Linear(_) => offset(a, shape, ixv, rank),
    };
    let mut body = a.apply(elem.fun(), &[arg]);
    if let Some(t) = t {
        body = a.let_(t, vv, body);
    }
    folds.push(PassFold {
        shape,
        elem: Fun {
            params: vec![v, ix],
            body,
        },
        of_array: array,
        z,
        f,
        all,
        post,
        alone: Box::new(alone),
    });
    pass.fused.push(SIBLING);
    pass.fused.extend(fused);
    pass.outputs.extend(outputs);
    Some(pass)
}

impl Plan {
    /// The plan with the folds in every kernel's pass run apart, after the
    /// kernel, as the fold kernels they were, a scan storing its array
    /// again: for a back end that does not run folds inside another kernel.
    /// The plan itself when it has none.
    pub fn folds_apart(&self) -> Cow<'_, Plan> {
        self.folds_apart_unless(|_, _| false)
    }

    /// As [`Plan::folds_apart`], except where `keep` holds:
    /// - a generate keeps its first fold in its pass (when that fold has one
    ///   output), merged with the others of its kind (of everything, or of
    ///   rows) into one fold of a tuple: for a back end that runs one fold in
    ///   a generate's pass (PTX: the fold's skeleton, each element stored as
    ///   it is made);
    /// - a scan keeps all its folds (PTX: each thread folds the elements it
    ///   stores, and the tiles of a row chain their results).
    pub fn folds_apart_unless(&self, keep: impl Fn(&Plan, &Kernel) -> bool) -> Cow<'_, Plan> {
        let keep = |plan: &Plan, k: &Kernel| {
            let may = match &k.op {
                KernelOp::Generate { folds, .. } => folds.first().is_some_and(|g| g.alone.outputs.len() == 1),
                KernelOp::Scan { folds, .. } => !folds.is_empty(),
                _ => false,
            };
            may && keep(plan, k)
        };
        // The folds each kernel runs apart.
        let apart_count = |k: &Kernel| {
            let n = k.op.pass_folds().len();
            match (&k.op, keep(self, k)) {
                (KernelOp::Scan { .. }, true) => 0,
                (_, kept) => n - usize::from(kept),
            }
        };
        if !self.kernels().any(|k| apart_count(k) > 0) {
            return Cow::Borrowed(self);
        }
        let mut plan = self.clone();
        let mut steps = std::mem::take(&mut plan.steps);
        apart(&mut plan, &mut steps, &keep);
        plan.steps = steps;
        Cow::Owned(plan)
    }
}

fn apart(plan: &mut Plan, steps: &mut Vec<Step>, keep: &dyn Fn(&Plan, &Kernel) -> bool) {
    let mut out = Vec::with_capacity(steps.len());
    for mut step in std::mem::take(steps) {
        match &mut step {
            Step::Kernel(k) => {
                let kept = keep(plan, k);
                // The folds to run apart, and how many outputs stay the kernel's.
                let (folds, own) = match &mut k.op {
                    KernelOp::Scan { folds, stored, .. } if !kept => {
                        let own = usize::from(*stored);
                        *stored = true;
                        (std::mem::take(folds), own)
                    }
                    KernelOp::Generate { folds, .. } if kept => {
                        let rest = folds.split_off(1);
                        let rest = merge_kept(plan, k, rest);
                        // Its array, and the kept fold's results.
                        let kept_outputs: usize =
                            k.op.pass_folds().iter().map(|g| g.alone.outputs.len()).sum();
                        (rest, 1 + kept_outputs)
                    }
                    KernelOp::Generate { folds, .. } => (std::mem::take(folds), 1),
                    _ => (Vec::new(), k.outputs.len()),
                };
                if !folds.is_empty() {
                    k.outputs.truncate(own);
                    if own == 0 {
                        // The array the folds of the outputs read: stored again.
                        match folds.iter().find_map(|g| g.of_array) {
                            Some(b) => k.outputs.push(b),
                            None => unreachable!("a scan that stores nothing has a fold of its array"),
                        }
                    }
                    if !kept {
                        k.fused.truncate(k.own_fused());
                    }
                    out.push(step);
                    out.extend(folds.into_iter().map(|g| Step::Kernel(*g.alone)));
                    continue;
                }
            }
            _ => {
                for b in step.blocks_mut() {
                    apart(plan, &mut b.steps, keep);
                }
            }
        }
        out.push(step);
    }
    super::renumber(plan, &out);
    *steps = out;
}

/// Generate `k`, which keeps its first fold, given the folds split off
/// after it (`rest`): those of the first's kind (of everything, or of rows;
/// one output each) merged with the first into one fold of a tuple, as
/// sibling folds merge (`super::merge`); returns the folds left to run apart.
fn merge_kept(plan: &mut Plan, k: &mut Kernel, rest: Vec<PassFold>) -> Vec<PassFold> {
    let KernelOp::Generate { folds, .. } = &k.op else {
        return rest;
    };
    // To one value (of everything, or of a vector's one row), or of rows.
    let to_scalar = |g: &PassFold| plan.folds_to_one_value(g.all, g.alone.outputs[0]);
    let kind = to_scalar(&folds[0]);
    let (same, other): (Vec<PassFold>, Vec<PassFold>) = rest
        .into_iter()
        .partition(|g| to_scalar(g) == kind && g.alone.outputs.len() == 1);
    if same.is_empty() {
        return other;
    }
    let first = (*folds[0].alone).clone();
    let merged = same
        .iter()
        .fold(first, |x, g| super::merge(&mut plan.arena, x, (*g.alone).clone()));
    let mut pass = k.clone();
    if let KernelOp::Generate { folds, .. } = &mut pass.op {
        folds.clear();
    }
    pass.outputs.truncate(1);
    pass.fused.truncate(pass.own_fused());
    match join(plan, pass, merged, true) {
        Some(joined) => {
            *k = joined;
            other
        }
        // (Not expected: each part joined alone.) Apart, as they were.
        None => same.into_iter().chain(other).collect(),
    }
}
