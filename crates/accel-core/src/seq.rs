//! The pass `sequences`: every fold of a sequence becomes a loop over its
//! elements, and the folds of one sequence share one loop (one traversal:
//! `(s.sum(), s.maximum())` reads `s` once).
//!
//! A sequence's element is built from its leaves: the `k`-th slice of an
//! array (`rows`, `to_seq`: a `generate` reading the array at `k`, fused into
//! the per-element work, never built whole) or the item a loop pulls from a
//! streamed parameter. `map` and `zip_with` apply their per-element programs
//! to it. The loop counts `k` up to the shortest array's extent and stops when
//! a stream has no next element, so a zip is as long as the shorter sequence.
//!
//! A streamed parameter can be traversed once: its folds must all belong to
//! one sequence (one loop), outside any loop or closure.

use crate::error::{CResult, CompileError};
use crate::front::Program;
use crate::ir::{Arena, BinOp, Expr, Pull, Scalar, SeqOp, Ty, VarId, H};
use std::collections::{HashMap, HashSet};

/// `p` without sequences (unchanged when it has none).
pub fn lower(p: &Program) -> CResult<Program> {
    let mut a = p.arena.clone();
    let nodes = reachable(&a, p.body);
    if !nodes.iter().any(|h| matches!(a.expr(*h), Expr::Seq(_))) {
        return Ok(p.clone());
    }
    let let_values: HashMap<VarId, H> = nodes
        .iter()
        .filter_map(|h| match a.expr(*h) {
            Expr::Scalar(Scalar::Let { var, value, .. }) if matches!(a.var(*var).ty, Ty::Seq(_)) => {
                Some((*var, *value))
            }
            _ => None,
        })
        .collect();
    // The folds, grouped by the sequence they consume, in arena order.
    let mut groups: Vec<(H, Vec<H>)> = Vec::new();
    let mut folds: Vec<H> = nodes
        .iter()
        .copied()
        .filter(|h| matches!(a.expr(*h), Expr::Seq(SeqOp::Fold { .. })))
        .collect();
    folds.sort_unstable();
    for h in folds {
        let Expr::Seq(SeqOp::Fold { s, .. }) = a.expr(h) else {
            continue;
        };
        let s = resolve(&a, &let_values, *s);
        match groups.iter_mut().find(|(g, _)| *g == s) {
            Some((_, fs)) => fs.push(h),
            None => groups.push((s, vec![h])),
        }
    }
    let params: HashMap<VarId, usize> = p
        .params
        .iter()
        .enumerate()
        .filter(|(_, x)| matches!(x.ty, Ty::Seq(_)))
        .map(|(i, x)| (x.var, i))
        .collect();
    let mut replace: HashMap<H, H> = HashMap::new();
    let mut streamed_by: HashMap<usize, H> = HashMap::new();
    let mut loops_with_pulls = HashSet::new();
    for (s, fs) in &groups {
        let mut lw = Loop {
            a: &mut a,
            let_values: &let_values,
            params: &params,
            pulls: Vec::new(),
            slices: Vec::new(),
            counter: None,
        };
        let counter = lw.a.new_var("k", Ty::Prim(crate::ir::Prim::Usize));
        lw.counter = Some(counter);
        let elem = lw.elem(*s)?;
        let (pulls, slices) = (lw.pulls, lw.slices);
        for pl in &pulls {
            if let Expr::Scalar(Scalar::Var(v)) = a.expr(pl.source) {
                let i = params[v];
                if streamed_by.insert(i, *s).is_some_and(|other| other != *s) {
                    return Err(twice(p, i));
                }
            }
        }
        // The loop: `k` and one accumulator per fold.
        let k = a.var_ref(counter);
        let mut vars = vec![counter];
        let mut init = vec![a.usize_lit(0)];
        let mut step = vec![{
            let one = a.usize_lit(1);
            a.binary(BinOp::Add, k, one)
        }];
        for f in fs {
            let Expr::Seq(SeqOp::Fold { f: g, z, .. }) = a.expr(*f).clone() else {
                continue;
            };
            let acc = a.new_var("acc", a.ty(*f).clone());
            let acc_h = a.var_ref(acc);
            vars.push(acc);
            init.push(z);
            step.push(a.apply(&g, &[acc_h, elem]));
        }
        let mut cond = a.lit(crate::ir::Prim::Bool, 1);
        for (i, x) in slices.iter().enumerate() {
            let sh = a.shape(*x);
            let n = a.comp(sh, 0);
            let below = a.binary(BinOp::Lt, k, n);
            cond = if i == 0 {
                below
            } else {
                a.binary(BinOp::And, cond, below)
            };
        }
        let tys = vars.iter().map(|v| a.var(*v).ty.clone()).collect();
        let span = a.span(fs[0]);
        let has_pulls = !pulls.is_empty();
        let w = a.add(
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }),
            Ty::Tuple(tys),
            span,
        );
        if has_pulls {
            loops_with_pulls.insert(w);
        }
        for (i, f) in fs.iter().enumerate() {
            let r = a.proj(w, i + 1);
            replace.insert(*f, r);
        }
    }
    let mut memo = HashMap::new();
    let body = rewrite(&mut a, p.body, &replace, &mut memo);
    if let Some(i) = streamed_in_loop(&a, body, &loops_with_pulls, &params) {
        return Err(twice(p, i));
    }
    // What is left of sequences is the streams the loops pull from.
    let left = reachable(&a, body).into_iter().find(|h| match a.expr(*h) {
        Expr::Seq(_) => true,
        Expr::Scalar(Scalar::Var(v)) => matches!(a.var(*v).ty, Ty::Seq(_)) && !params.contains_key(v),
        _ => false,
    });
    if let Some(h) = left {
        return Err(unsupported(&a, h));
    }
    Ok(Program {
        name: p.name.clone(),
        arena: a,
        params: p.params.clone(),
        body,
        result: p.result.clone(),
    })
}

fn twice(p: &Program, i: usize) -> CompileError {
    let x = &p.params[i];
    CompileError::new(
        x.span,
        format!(
            "`{}` is streamed, so it can be traversed only once: consume it in one place, outside loops and \
             closures\nhelp: several consumers of one sequence share its traversal: `({n}.sum(), {n}.maximum())`",
            x.name,
            n = x.name
        ),
    )
}

/// Builds one loop's element.
struct Loop<'a> {
    a: &'a mut Arena,
    let_values: &'a HashMap<VarId, H>,
    params: &'a HashMap<VarId, usize>,
    pulls: Vec<Pull>,
    /// The arrays whose slices the loop reads at `k`.
    slices: Vec<H>,
    counter: Option<VarId>,
}

impl Loop<'_> {
    /// The current element of sequence `s`.
    fn elem(&mut self, s: H) -> CResult<H> {
        let s = resolve(self.a, self.let_values, s);
        match self.a.expr(s).clone() {
            Expr::Scalar(Scalar::Var(v)) if self.params.contains_key(&v) => {
                if let Some(pl) = self.pulls.iter().find(|pl| pl.source == s) {
                    return Ok(self.a.var_ref(pl.item));
                }
                let elem = self.a.ty(s).seq_elem().cloned().unwrap_or(Ty::Tuple(vec![]));
                let item = self.a.new_var(self.a.var(v).name.clone(), elem);
                self.pulls.push(Pull { source: s, item });
                Ok(self.a.var_ref(item))
            }
            Expr::Seq(SeqOp::Slices { a }) => {
                if !self.slices.contains(&a) {
                    self.slices.push(a);
                }
                let Some(k) = self.counter.map(|c| self.a.var_ref(c)) else {
                    return Err(unsupported(self.a, s));
                };
                let (_, rank) = self.a.arr_ty(a);
                let sh = self.a.shape(a);
                let inner: Vec<H> = (1..rank).map(|d| self.a.comp(sh, d)).collect();
                let inner = self.a.index(inner);
                Ok(self.a.generate_with(inner, |x, ix| {
                    let mut at = vec![k];
                    at.extend(x.comps(ix, rank - 1));
                    let at = x.index(at);
                    x.read(a, at)
                }))
            }
            Expr::Seq(SeqOp::Map { f, s }) => {
                let x = self.elem(s)?;
                Ok(self.a.apply(&f, &[x]))
            }
            Expr::Seq(SeqOp::Zip { f, a, b }) => {
                let x = self.elem(a)?;
                let y = self.elem(b)?;
                Ok(self.a.apply(&f, &[x, y]))
            }
            _ => Err(unsupported(self.a, s)),
        }
    }
}

fn unsupported(a: &Arena, s: H) -> CompileError {
    CompileError::new(
        a.span(s),
        "this sequence is not supported yet: a sequence comes from a parameter, `rows()` or `to_seq()`, \
         through `map` and `zip_with` (not `if` or a loop)",
    )
}

/// `s` seen through the `let`s that name it.
fn resolve(a: &Arena, let_values: &HashMap<VarId, H>, mut s: H) -> H {
    while let Expr::Scalar(Scalar::Var(v)) = a.expr(s) {
        match let_values.get(v) {
            Some(x) => s = *x,
            None => break,
        }
    }
    s
}

fn reachable(a: &Arena, root: H) -> Vec<H> {
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(h) = stack.pop() {
        if seen.insert(h) {
            out.push(h);
            stack.extend(a.expr(h).children());
        }
    }
    out
}

/// `h` with the nodes of `replace` replaced (in the replacements too), and
/// the `let`s of sequences dropped: nothing reads them any more.
fn rewrite(a: &mut Arena, h: H, replace: &HashMap<H, H>, memo: &mut HashMap<H, H>) -> H {
    if let Some(r) = memo.get(&h) {
        return *r;
    }
    let r = if let Some(x) = replace.get(&h) {
        rewrite(a, *x, replace, memo)
    } else {
        match a.expr(h).clone() {
            Expr::Scalar(Scalar::Let { var, body, .. }) if matches!(a.var(var).ty, Ty::Seq(_)) => {
                rewrite(a, body, replace, memo)
            }
            e => {
                let new = e.map_children(|c| rewrite(a, c, replace, memo));
                if new == e {
                    h
                } else {
                    let (ty, span) = (a.ty(h).clone(), a.span(h));
                    a.add(new, ty, span)
                }
            }
        }
    };
    memo.insert(h, r);
    r
}

/// A streamed parameter whose loop runs inside another loop or a closure
/// (where it would run again), if any.
fn streamed_in_loop(
    a: &Arena,
    body: H,
    pulling: &HashSet<H>,
    params: &HashMap<VarId, usize>,
) -> Option<usize> {
    let mut seen = HashSet::new();
    let mut stack = vec![(body, false)];
    while let Some((h, inside)) = stack.pop() {
        if !seen.insert((h, inside)) {
            continue;
        }
        let e = a.expr(h);
        if inside && pulling.contains(&h) {
            if let Expr::Scalar(Scalar::While { pulls, .. }) = e {
                for pl in pulls {
                    if let Expr::Scalar(Scalar::Var(v)) = a.expr(pl.source) {
                        return params.get(v).copied();
                    }
                }
            }
        }
        let bodies: Vec<H> = e.funs().iter().map(|f| f.body).collect();
        match e {
            Expr::Scalar(Scalar::While {
                init,
                cond,
                step,
                pulls,
                ..
            }) => {
                stack.extend(
                    init.iter()
                        .chain(pulls.iter().map(|p| &p.source))
                        .map(|x| (*x, inside)),
                );
                stack.extend(std::iter::once(cond).chain(step).map(|x| (*x, true)));
            }
            _ => stack.extend(
                e.children()
                    .into_iter()
                    .map(|c| (c, inside || bodies.contains(&c))),
            ),
        }
    }
    None
}
