//! Rows of a fold that nothing reads. A fold of rows whose one reader is a
//! generate over the fold's shape that reads it only at its own element, and
//! only in the first branch of a guard, needs the rows where the guard holds
//! and no others: PolyBench's `syr2k` sums `n * n` rows and reads the lower
//! triangle (`if j <= i { beta * c[[i, j]] + s[[i, j]] } else { c[[i, j]] }`).
//! A back end may compute only those rows ([`Plan::fold_demand`]; the CPU's
//! `fold_rows_wanted_then`) and leave the others unwritten.
//!
//! The guard must be computable for a row without the reader's other work:
//! arithmetic, comparisons and logic of the index, literals and variables
//! bound outside the kernel, after `let`s of the same kind. Such a guard
//! reads no memory and cannot fail, so evaluating it once more per row
//! changes no program's errors.

use super::horizontal::{reads_at_own_element, Facts, Name};
use super::{bounds::same_shape, ElemFn, Kernel, KernelOp, Output, Plan, Step, Val};
use crate::alpha::free_vars;
use crate::ir::{BufId, Expr, PlanRead, Scalar, VarId, H};
use std::collections::{BTreeSet, HashMap};

/// The rows a fold's reader needs: those whose index (as the reader's
/// element function names it) satisfies `cond`.
#[derive(Clone, Debug)]
pub struct Demand {
    /// The reader's index parameter (of the fold's output rank).
    pub param: VarId,
    /// The reader's `let`s before its guard, in order (values as plain as
    /// the guard: `let (r, q) = (i, j)`).
    pub lets: Vec<(VarId, H)>,
    /// The guard.
    pub cond: H,
}

impl Plan {
    /// The rows of fold kernel `fold` that its one reader needs, when that
    /// reader leaves some unread (see the module's documentation).
    pub fn fold_demand(&self, fold: &Kernel) -> Option<Demand> {
        let KernelOp::Fold { all, .. } = &fold.op else {
            return None;
        };
        let [b] = fold.outputs[..] else { return None };
        if self.folds_to_one_value(*all, b) || self.buffers[b].rank == 0 {
            return None;
        }
        let (steps, result) = block_of(&self.steps, fold, None)?;
        // A result of its block (or of the program) is read whole.
        let escapes = match result {
            Some(vals) => vals.contains(&Val::Buf(b)),
            None => mentions(&self.result, b),
        };
        if escapes {
            return None;
        }
        // Exactly one other step of the block uses it: a generate.
        let facts: Vec<Facts> = steps
            .iter()
            .map(|s| Facts::of(&self.arena, &self.buffers, s))
            .collect();
        let at = steps
            .iter()
            .position(|s| matches!(s, Step::Kernel(k) if std::ptr::eq(k, fold)))?;
        let mut readers = (0..steps.len()).filter(|&s| s != at && facts[s].uses.contains(&Name::Buf(b.0)));
        let (Some(r), None) = (readers.next(), readers.next()) else {
            return None;
        };
        let Step::Kernel(reader) = &steps[r] else {
            return None;
        };
        let KernelOp::Generate {
            shape,
            elem: ElemFn::Index(f),
            folds,
        } = &reader.op
        else {
            return None;
        };
        let a = &self.arena;
        if !folds.is_empty()
            || reader.outputs.len() != 1
            || !same_shape(a, *shape, self.buffers[b].shape)
            || !reads_at_own_element(a, reader, b)
        {
            return None;
        }
        let param = f.params[0];
        // Variables bound outside the kernel, and bound before the fold (the
        // guard is computed there).
        let outside: BTreeSet<VarId> = free_vars(a, f.body, &mut HashMap::new());
        let before_fold = |v: VarId| (at..r).all(|s| !facts[s].defines.contains(&Name::Var(v.0)));
        let mut lets: Vec<(VarId, H)> = Vec::new();
        let named = |lets: &[(VarId, H)], v: VarId| {
            v == param || lets.iter().any(|(x, _)| *x == v) || (outside.contains(&v) && before_fold(v))
        };
        let mut h = f.body;
        while let Expr::Scalar(Scalar::Let { var, value, body }) = a.expr(h) {
            if !plain(self, *value, &|v| named(&lets, v)) {
                return None;
            }
            lets.push((*var, *value));
            h = *body;
        }
        let Expr::Scalar(Scalar::If(cond, _, els)) = a.expr(h) else {
            return None;
        };
        let reads_b = |x: H| a.reaches(x, |_, e| matches!(e, Expr::Plan(PlanRead::Buffer(y)) if *y == b));
        if reads_b(*els) || !plain(self, *cond, &|v| named(&lets, v)) {
            return None;
        }
        Some(Demand {
            param,
            lets,
            cond: *cond,
        })
    }
}

/// The steps of the block that holds `k`, with the block's result (`None`
/// for the program's top level).
fn block_of<'p>(
    steps: &'p [Step],
    k: &Kernel,
    result: Option<&'p [Val]>,
) -> Option<(&'p [Step], Option<&'p [Val]>)> {
    for s in steps {
        if matches!(s, Step::Kernel(x) if std::ptr::eq(x, k)) {
            return Some((steps, result));
        }
        if let Some(found) = s.blocks().find_map(|b| block_of(&b.steps, k, Some(&b.result))) {
            return Some(found);
        }
    }
    None
}

fn mentions(o: &Output, b: BufId) -> bool {
    match o {
        Output::Array(x) => *x == b,
        Output::Tuple(xs) => xs.iter().any(|x| mentions(x, b)),
        // A scalar result may read any buffer: be safe.
        Output::Scalar(_) => true,
    }
}

/// Whether `h` is arithmetic, comparisons, logic and casts of literals and
/// the variables `named` allows, tuples of them and their fields: nothing
/// that reads memory or can fail (integer arithmetic wraps). Also what a
/// GPU kernel can compute from its parameters (`ptx::gpu_plan`).
pub fn plain(plan: &Plan, h: H, named: &dyn Fn(VarId) -> bool) -> bool {
    match plan.arena.expr(h) {
        Expr::Scalar(Scalar::Binary(_, x, y)) => plain(plan, *x, named) && plain(plan, *y, named),
        Expr::Scalar(Scalar::Unary(_, x) | Scalar::Cast(x, _) | Scalar::Proj(x, _)) => plain(plan, *x, named),
        Expr::Scalar(Scalar::Tuple(xs)) => xs.iter().all(|x| plain(plan, *x, named)),
        Expr::Scalar(Scalar::Lit(_)) => true,
        Expr::Scalar(Scalar::Var(v)) => named(*v),
        _ => false,
    }
}
