//! Merging array operations that are equal up to the names of their bound
//! variables.
//!
//! The arena is hash-consed, so a subterm written twice is one node, but only
//! when its variables are the same: `xs.map(|x| x + 1.0)` written twice has two
//! closures with two parameters, and the same helper closure inlined at two
//! call sites is lowered twice. This pass gives every array operation a
//! canonical form in a scratch arena, where each variable bound inside the
//! operation is named by its binding depth (a de Bruijn level) and every other
//! variable keeps its identity, and replaces each operation by the first one
//! with the same canonical form. Nothing is renamed in the program itself: the
//! survivor keeps its own variables, so no binder is ever shadowed.

use crate::ir::{Arena, Expr, PlanRead, Pull, Scalar, Ty, VarId, H};
use std::collections::{BTreeSet, HashMap};

/// `body` with alpha-equivalent array operations merged.
pub fn merge(arena: &mut Arena, body: H) -> H {
    let mut m = Merger {
        canon: Canon::default(),
        first: HashMap::new(),
        memo: HashMap::new(),
    };
    m.go(arena, body)
}

struct Merger {
    canon: Canon,
    /// Canonical form → the first operation seen with it (after rewriting).
    first: HashMap<H, H>,
    memo: HashMap<H, H>,
}

impl Merger {
    fn go(&mut self, a: &mut Arena, h: H) -> H {
        if let Some(&r) = self.memo.get(&h) {
            return r;
        }
        let key = a.expr(h).is_array_op().then(|| self.canon.top(a, h));
        if let Some(&r) = key.and_then(|k| self.first.get(&k)) {
            self.memo.insert(h, r);
            return r;
        }
        let e = a.expr(h).clone();
        let new = e.map_children(|c| self.go(a, c));
        let r = if new == e {
            h
        } else {
            let (ty, span) = (a.ty(h).clone(), a.span(h));
            a.add(new, ty, span)
        };
        if let Some(k) = key {
            self.first.insert(k, r);
        }
        self.memo.insert(h, r);
        r
    }
}

/// Canonical forms, built in a scratch arena.
#[derive(Default)]
struct Canon {
    scratch: Arena,
    /// The scratch variable of binding level `k` with type `ty`.
    levels: HashMap<(usize, Ty), VarId>,
    /// The scratch variable standing for a variable bound outside the operation.
    free: HashMap<VarId, VarId>,
    /// Free variables of each node of the program's arena.
    fvs: HashMap<H, BTreeSet<VarId>>,
    /// Canonical form of a node under the levels of its free variables.
    memo: HashMap<(H, Vec<(VarId, usize)>), H>,
}

impl Canon {
    /// The canonical form of `h`, binding nothing outside it.
    fn top(&mut self, a: &Arena, h: H) -> H {
        self.form(a, h, &mut Vec::new())
    }

    fn level(&mut self, k: usize, ty: &Ty) -> VarId {
        if let Some(&v) = self.levels.get(&(k, ty.clone())) {
            return v;
        }
        let v = self.scratch.new_var(format!("l{k}"), ty.clone());
        self.levels.insert((k, ty.clone()), v);
        v
    }

    /// `env[k]` is the variable bound at level `k` on the way down to `h`.
    fn form(&mut self, a: &Arena, h: H, env: &mut Vec<VarId>) -> H {
        let fvs = free_vars(a, h, &mut self.fvs);
        let ctx: Vec<(VarId, usize)> = fvs
            .iter()
            .filter_map(|v| env.iter().rposition(|b| b == v).map(|k| (*v, k)))
            .collect();
        if let Some(&r) = self.memo.get(&(h, ctx.clone())) {
            return r;
        }
        let e = a.expr(h);
        let new = match e {
            Expr::Scalar(Scalar::Var(v)) => match env.iter().rposition(|b| b == v) {
                Some(k) => Expr::Scalar(Scalar::Var(self.level(k, &a.var(*v).ty))),
                None => {
                    let s = match self.free.get(v) {
                        Some(&s) => s,
                        None => {
                            let info = a.var(*v).clone();
                            let s = self.scratch.new_var(info.name, info.ty);
                            self.free.insert(*v, s);
                            s
                        }
                    };
                    Expr::Scalar(Scalar::Var(s))
                }
            },
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let value = self.form(a, *value, env);
                let var2 = self.level(env.len(), &a.var(*var).ty);
                env.push(*var);
                let body = self.form(a, *body, env);
                env.pop();
                Expr::Scalar(Scalar::Let {
                    var: var2,
                    value,
                    body,
                })
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var,
                body,
            }) => {
                let index = self.form(a, *index, env);
                let shape = self.form(a, *shape, env);
                let var2 = self.level(env.len(), &a.var(*var).ty);
                env.push(*var);
                let body = self.form(a, *body, env);
                env.pop();
                Expr::Plan(PlanRead::Checked {
                    op,
                    index,
                    shape,
                    var: var2,
                    body,
                })
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }) => {
                let sources: Vec<(H, Vec<H>)> = pulls
                    .iter()
                    .map(|p| {
                        let chunk = p.chunk.iter().map(|x| self.form(a, *x, env)).collect();
                        (self.form(a, p.source, env), chunk)
                    })
                    .collect();
                let init = init.iter().map(|x| self.form(a, *x, env)).collect();
                let base = env.len();
                // The state, then the pulls' items, are bound in `cond` and `step`.
                let bound: Vec<VarId> = vars
                    .iter()
                    .chain(pulls.iter().map(|p| &p.item))
                    .copied()
                    .collect();
                let levels: Vec<VarId> = bound
                    .iter()
                    .enumerate()
                    .map(|(i, v)| self.level(base + i, &a.var(*v).ty))
                    .collect();
                env.extend(bound.iter().copied());
                let cond = self.form(a, *cond, env);
                let step = step.iter().map(|x| self.form(a, *x, env)).collect();
                env.truncate(base);
                let pulls = sources
                    .into_iter()
                    .zip(&levels[vars.len()..])
                    .map(|((source, chunk), item)| Pull {
                        source,
                        item: *item,
                        chunk,
                    })
                    .collect();
                Expr::Scalar(Scalar::While {
                    vars: levels[..vars.len()].to_vec(),
                    init,
                    cond,
                    step,
                    pulls,
                })
            }
            e => {
                // Closure bodies see their parameters at the levels after `env`;
                // sibling closures start from the same level.
                let funs: Vec<(H, Vec<VarId>)> =
                    e.funs().iter().map(|f| (f.body, f.params.clone())).collect();
                let base = env.len();
                let mut new = e.map_children(|c| match funs.iter().find(|(b, _)| *b == c) {
                    Some((_, params)) => {
                        env.extend(params.iter().copied());
                        let r = self.form(a, c, env);
                        env.truncate(base);
                        r
                    }
                    None => self.form(a, c, env),
                });
                for (f, (_, params)) in new.funs_mut().into_iter().zip(&funs) {
                    f.params = params
                        .iter()
                        .enumerate()
                        .map(|(i, p)| self.level(base + i, &a.var(*p).ty))
                        .collect();
                }
                new
            }
        };
        let r = self.scratch.add(new, a.ty(h).clone(), a.span(h));
        self.memo.insert((h, ctx), r);
        r
    }
}

/// The variables that occur free in `h`.
pub fn free_vars(a: &Arena, h: H, memo: &mut HashMap<H, BTreeSet<VarId>>) -> BTreeSet<VarId> {
    if let Some(s) = memo.get(&h) {
        return s.clone();
    }
    let e = a.expr(h);
    let mut s = BTreeSet::new();
    match e {
        Expr::Scalar(Scalar::Var(v)) => {
            s.insert(*v);
        }
        Expr::Scalar(Scalar::Let { var, value, body }) => {
            s = free_vars(a, *body, memo);
            s.remove(var);
            s.extend(free_vars(a, *value, memo));
        }
        Expr::Plan(PlanRead::Checked {
            index,
            shape,
            var,
            body,
            ..
        }) => {
            s = free_vars(a, *body, memo);
            s.remove(var);
            s.extend(free_vars(a, *index, memo));
            s.extend(free_vars(a, *shape, memo));
        }
        Expr::Scalar(Scalar::While {
            vars,
            init,
            cond,
            step,
            pulls,
        }) => {
            s = free_vars(a, *cond, memo);
            for x in step {
                s.extend(free_vars(a, *x, memo));
            }
            for v in vars.iter().chain(pulls.iter().map(|p| &p.item)) {
                s.remove(v);
            }
            for x in init.iter().chain(pulls.iter().flat_map(Pull::exprs)) {
                s.extend(free_vars(a, *x, memo));
            }
        }
        e => {
            let funs: Vec<(H, Vec<VarId>)> = e.funs().iter().map(|f| (f.body, f.params.clone())).collect();
            for c in e.children() {
                let mut cs = free_vars(a, c, memo);
                if let Some((_, params)) = funs.iter().find(|(b, _)| *b == c) {
                    for p in params {
                        cs.remove(p);
                    }
                }
                s.extend(cs);
            }
        }
    }
    memo.insert(h, s.clone());
    s
}
