//! Folds in a scan's traversal: the thesis's cluster `{sum1, scan, sum2}`
//! (seed 004, `normalise2`). A fold of a scan's array, reading it at its own
//! element, takes each element as the scan stores it; the array is then
//! stored only if something else reads it. A fold over the scan's input
//! space that reads an array the scan reads takes its elements in the same
//! pass. Both are always worth it: the fold's reads are the scan's, and it
//! computes nothing twice.
//!
//! The CPU back end runs the folds inside the scan's tasks
//! (`accel_runtime::cpu::scan_inclusive_folds`). The PTX back end runs them
//! apart, after the scan, as the kernels they were
//! ([`Plan::scan_folds_apart`]).

use super::inline::{facts_of, read_in_register};
use super::{offset, Facts, Name, SIBLING};
use crate::ir::{BufId, Fun, ScanKind, Ty};
use crate::plan::bounds::same_shape;
use crate::plan::{ElemFn, Kernel, KernelOp, Origin, Plan, ScanFold, Step};
use std::borrow::Cow;
use std::collections::HashSet;

/// Puts one fold into a scan's kernel, if one can go: returns the steps of
/// the scan and of the fold (the fold's step is gone).
pub(super) fn fold_into_scan(
    plan: &mut Plan,
    steps: &mut Vec<Step>,
    escapes: &HashSet<BufId>,
) -> Option<(usize, usize)> {
    let facts = facts_of(plan, steps);
    for i in 0..steps.len() {
        let Step::Kernel(s) = &steps[i] else { continue };
        let KernelOp::Scan {
            kind,
            stored,
            shape: space,
            ..
        } = &s.op
        else {
            continue;
        };
        if *kind == ScanKind::Exclusive {
            continue;
        }
        let scanned = stored.then(|| s.outputs[0]);
        let space = *space;
        for j in 0..steps.len() {
            let Step::Kernel(k) = &steps[j] else { continue };
            if j == i || k.outputs.len() != 1 || !matches!(k.op, KernelOp::Fold { .. }) {
                continue;
            }
            let (fs, fk) = (&facts[i], &facts[j]);
            if fs.fails && (fk.fails || fk.empty) || fk.fails && fs.empty {
                continue;
            }
            let of_outputs = scanned.is_some_and(|b| fk.reads.contains(&b));
            if of_outputs {
                // It comes after the scan, and moves up to it.
                if j < i || !facts[i + 1..j].iter().all(|x| fk.may_move_past(x)) {
                    continue;
                }
            } else {
                let KernelOp::Fold { shape, .. } = &k.op else {
                    continue;
                };
                let reads_scan = |x: &Facts| {
                    x.uses
                        .iter()
                        .any(|n| s.outputs.iter().any(|o| *n == Name::Buf(o.0)))
                };
                if !same_shape(&plan.arena, *shape, space)
                    || fs.reads.is_disjoint(&fk.reads)
                    || reads_scan(fk)
                {
                    continue;
                }
                if !movable(&facts, i, j) {
                    continue;
                }
            }
            let (scan, fold) = (s.clone(), k.clone());
            let Some(merged) = join(plan, scan, fold, of_outputs) else {
                continue;
            };
            let mut merged = merged;
            // The scan's array stays stored where another step reads it.
            if let Some(b) = scanned.filter(|_| of_outputs) {
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

/// Scan kernel `scan` with fold kernel `fold` in its traversal; `None` when
/// the fold reads the scan's array other than at its own element.
fn join(plan: &mut Plan, scan: Kernel, fold: Kernel, of_outputs: bool) -> Option<Kernel> {
    let alone = fold.clone();
    let scanned = of_outputs.then(|| scan.outputs[0]);
    let fold = match scanned {
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
    let mut scan = scan;
    let KernelOp::Scan {
        f: sf,
        post: spost,
        folds,
        ..
    } = &mut scan.op
    else {
        return None;
    };
    let a = &mut plan.arena;
    let Ty::Index(rank) = a.ty(shape).clone() else {
        return None;
    };
    // `|v, ix| { let t = v; elem(ix) }`, `elem` by offset or by index.
    let value_ty = a.ty(spost.as_ref().unwrap_or(sf).body).clone();
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
    folds.push(ScanFold {
        shape,
        elem: Fun {
            params: vec![v, ix],
            body,
        },
        scanned,
        z,
        f,
        all,
        post,
        alone: Box::new(alone),
    });
    scan.fused.push(SIBLING);
    scan.fused.extend(fused);
    scan.outputs.extend(outputs);
    Some(scan)
}

impl Plan {
    /// The plan with every scan's folds run apart, after the scan, as the
    /// fold kernels they were, the scan storing its array again: for a back
    /// end that does not run folds inside a scan (the PTX back end). The
    /// plan itself when it has none.
    pub fn scan_folds_apart(&self) -> Cow<'_, Plan> {
        let has_folds = self
            .kernels()
            .any(|k| matches!(&k.op, KernelOp::Scan { folds, .. } if !folds.is_empty()));
        if !has_folds {
            return Cow::Borrowed(self);
        }
        let mut plan = self.clone();
        let mut steps = std::mem::take(&mut plan.steps);
        apart(&mut plan, &mut steps);
        plan.steps = steps;
        Cow::Owned(plan)
    }
}

fn apart(plan: &mut Plan, steps: &mut Vec<Step>) {
    let mut out = Vec::with_capacity(steps.len());
    for step in std::mem::take(steps) {
        match step {
            Step::Kernel(mut k) => {
                let KernelOp::Scan { folds, stored, .. } = &mut k.op else {
                    out.push(Step::Kernel(k));
                    continue;
                };
                let folds = std::mem::take(folds);
                if folds.is_empty() {
                    out.push(Step::Kernel(k));
                    continue;
                }
                let own = if *stored { 1 } else { 0 };
                *stored = true;
                k.outputs.truncate(own);
                if own == 0 {
                    // The array the folds of the outputs read: stored again.
                    match folds.iter().find_map(|g| g.scanned) {
                        Some(b) => k.outputs.push(b),
                        None => unreachable!("a scan that stores nothing has a fold of its array"),
                    }
                }
                let split = k
                    .fused
                    .iter()
                    .position(|o| *o == SIBLING)
                    .unwrap_or(k.fused.len());
                k.fused.truncate(split);
                out.push(Step::Kernel(k));
                out.extend(folds.into_iter().map(|g| Step::Kernel(*g.alone)));
            }
            Step::If {
                cond,
                mut then,
                mut els,
                outs,
            } => {
                apart(plan, &mut then.steps);
                apart(plan, &mut els.steps);
                out.push(Step::If {
                    cond,
                    then,
                    els,
                    outs,
                });
            }
            Step::While {
                state,
                init,
                mut cond,
                mut body,
                outs,
                pulls,
            } => {
                apart(plan, &mut cond.steps);
                apart(plan, &mut body.steps);
                out.push(Step::While {
                    state,
                    init,
                    cond,
                    body,
                    outs,
                    pulls,
                });
            }
            s => out.push(s),
        }
    }
    super::renumber(plan, &out);
    *steps = out;
}
