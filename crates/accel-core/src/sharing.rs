//! Sharing recovery.
//!
//! The front end's arena is hash-consed, so a subterm written twice is already
//! one node. This pass inlines the `let`s of the array level (array-valued ones,
//! and every `let` outside closures) so that the program becomes one DAG whose
//! edges are the real uses, then counts, for each array node, its *data* uses:
//! the operations that read its elements. `a.shape()` and `a.len()` are not data
//! uses. Fusion materialises a node with more than one data use once and fuses
//! every other producer into its single consumer.
//!
//! Array-level control flow (an `if` whose branches compute arrays, a `while`
//! with array state or array work in its body) is a boundary: a `let` written
//! outside it and used inside it stays a `let`, so its value is computed once,
//! where the program computes it, and not inside every iteration or only in one
//! branch. A scalar `let` whose value runs such control flow and that a closure
//! reads stays a `let` too, so that the closure reads a host value.

use crate::front::Program;
use crate::ir::{Arena, Expr, Scalar, Ty, VarId, H};
use std::collections::{HashMap, HashSet};

/// The program as one DAG: array-level `let`s inlined, so that every edge to an
/// array node is a real use.
pub fn recover(p: &Program) -> Program {
    recover_with(p, true)
}

/// [`recover`], or with `sharing` off, the program as a tree of uses: every
/// `let` inside closures substituted too, so that each use of a scalar value
/// computes it again (the "no sharing recovery" build).
pub fn recover_with(p: &Program, sharing: bool) -> Program {
    let mut shared = p.clone();
    let kept = kept_lets(&shared.arena, p.body);
    let mut inl = Inliner {
        subst: HashMap::new(),
        memo: HashMap::new(),
        kept,
        scalar_lets_too: !sharing,
    };
    shared.body = inl.go(&mut shared.arena, p.body, false);
    if sharing {
        shared.body = crate::alpha::merge(&mut shared.arena, shared.body);
    }
    shared
}

/// The program body with array-level `let`s inlined.
pub fn inline_array_lets(arena: &mut Arena, body: H) -> H {
    let kept = kept_lets(arena, body);
    let mut inl = Inliner {
        subst: HashMap::new(),
        memo: HashMap::new(),
        kept,
        scalar_lets_too: false,
    };
    inl.go(arena, body, false)
}

struct Inliner {
    subst: HashMap<VarId, H>,
    memo: HashMap<(H, bool), H>,
    kept: HashSet<VarId>,
    /// Substitute the `let`s inside closures as well (sharing off).
    scalar_lets_too: bool,
}

/// Does `h` do array-level work: an array operation, an array-valued `if` or
/// `while`, or a `let` kept by sharing (looking through variables bound by
/// `let`s to their values)?
pub fn array_work(a: &Arena, h: H, let_values: &HashMap<VarId, H>, memo: &mut HashMap<H, bool>) -> bool {
    if let Some(&r) = memo.get(&h) {
        return r;
    }
    memo.insert(h, false);
    let e = a.expr(h);
    let r = e.is_array_op()
        || matches!(e, Expr::Scalar(Scalar::Let { .. }))
        || (matches!(
            e,
            Expr::Scalar(Scalar::If(..)) | Expr::Scalar(Scalar::While { .. })
        ) && a.ty(h).has_array())
        || match e {
            Expr::Scalar(Scalar::Var(v)) => let_values
                .get(v)
                .is_some_and(|x| array_work(a, *x, let_values, memo)),
            _ => e
                .children()
                .into_iter()
                .any(|c| array_work(a, c, let_values, memo)),
        };
    memo.insert(h, r);
    r
}

/// Is `h` (outside closures) control flow of the array level?
pub fn is_control(a: &Arena, h: H, let_values: &HashMap<VarId, H>, memo: &mut HashMap<H, bool>) -> bool {
    match a.expr(h) {
        Expr::Scalar(Scalar::If(_, t, e)) => {
            a.ty(h).has_array() || array_work(a, *t, let_values, memo) || array_work(a, *e, let_values, memo)
        }
        Expr::Scalar(Scalar::While { cond, step, .. }) => {
            a.ty(h).has_array()
                || array_work(a, *cond, let_values, memo)
                || step.iter().any(|x| array_work(a, *x, let_values, memo))
        }
        _ => false,
    }
}

/// The host-level `let`s that must stay `let`s (see the module comment).
fn kept_lets(a: &Arena, body: H) -> HashSet<VarId> {
    let mut let_values = HashMap::new();
    for h in a.handles() {
        if let Expr::Scalar(Scalar::Let { var, value, .. }) = a.expr(h) {
            let_values.insert(*var, *value);
        }
    }
    let mut sc = Scan {
        a,
        let_values,
        work: HashMap::new(),
        depth_of: HashMap::new(),
        seen: HashSet::new(),
        kept: HashSet::new(),
    };
    sc.go(body, 0, false);
    sc.kept
}

struct Scan<'a> {
    a: &'a Arena,
    let_values: HashMap<VarId, H>,
    work: HashMap<H, bool>,
    /// Control-flow depth at which each host-level `let` binds its variable.
    depth_of: HashMap<VarId, usize>,
    seen: HashSet<(H, usize, bool)>,
    kept: HashSet<VarId>,
}

impl Scan<'_> {
    fn go(&mut self, h: H, depth: usize, in_closure: bool) {
        if !self.seen.insert((h, depth, in_closure)) {
            return;
        }
        let a = self.a;
        let e = a.expr(h);
        match e {
            Expr::Scalar(Scalar::Var(v)) => {
                if let Some(&d) = self.depth_of.get(v) {
                    let crosses = d < depth;
                    let scalar_in_closure = in_closure && !a.var(*v).ty.has_array() && {
                        let value = self.let_values[v];
                        self.has_control(value)
                    };
                    if crosses || scalar_in_closure {
                        self.kept.insert(*v);
                    }
                }
            }
            Expr::Scalar(Scalar::Let { var, value, body }) if !in_closure => {
                self.go(*value, depth, false);
                self.depth_of.insert(*var, depth);
                self.go(*body, depth, false);
            }
            Expr::Scalar(Scalar::If(c, t, f)) if !in_closure && self.control(h) => {
                self.go(*c, depth, false);
                self.go(*t, depth + 1, false);
                self.go(*f, depth + 1, false);
            }
            Expr::Scalar(Scalar::While {
                init,
                cond,
                step,
                pulls,
                ..
            }) if !in_closure && self.control(h) => {
                for x in init.iter().chain(pulls.iter().flat_map(crate::ir::Pull::exprs)) {
                    self.go(*x, depth, false);
                }
                self.go(*cond, depth + 1, false);
                for x in step {
                    self.go(*x, depth + 1, false);
                }
            }
            _ => {
                let bodies: Vec<H> = e.funs().iter().map(|f| f.body).collect();
                for c in e.children() {
                    let inner = in_closure || bodies.contains(&c);
                    self.go(c, depth, inner);
                }
            }
        }
    }

    fn control(&mut self, h: H) -> bool {
        is_control(self.a, h, &self.let_values, &mut self.work)
    }

    /// Does `h` contain array-level control flow (through `let` values)?
    fn has_control(&mut self, h: H) -> bool {
        let mut stack = vec![h];
        let mut seen = HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            if self.control(x) {
                return true;
            }
            match self.a.expr(x) {
                Expr::Scalar(Scalar::Var(v)) => stack.extend(self.let_values.get(v)),
                e => stack.extend(e.children()),
            }
        }
        false
    }
}

impl Inliner {
    fn go(&mut self, a: &mut Arena, h: H, in_closure: bool) -> H {
        if let Some(&r) = self.memo.get(&(h, in_closure)) {
            return r;
        }
        let e = a.expr(h).clone();
        let r = match &e {
            Expr::Scalar(Scalar::Var(v)) => self.subst.get(v).copied().unwrap_or(h),
            // Sharing off: a scalar `let` inside a closure is substituted into
            // its own body only. Not through `subst` and the memo, which are
            // global: the library binds the parameters of one closure by
            // `let`s at several places (`postscanl` applies `f` in a map and
            // uses it as the scan's combination), so a global substitution
            // would leak into the other uses of the same body.
            Expr::Scalar(Scalar::Let { var, value, body })
                if in_closure
                    && self.scalar_lets_too
                    && !a.var(*var).ty.has_array()
                    && !self.kept.contains(var) =>
            {
                let v = self.go(a, *value, in_closure);
                let b = self.go(a, *body, in_closure);
                substitute(a, b, *var, v, &mut HashMap::new())
            }
            Expr::Scalar(Scalar::Let { var, value, body })
                if (!in_closure || a.var(*var).ty.has_array()) && !self.kept.contains(var) =>
            {
                let v = self.go(a, *value, in_closure);
                self.subst.insert(*var, v);
                self.go(a, *body, in_closure)
            }
            Expr::Scalar(Scalar::Proj(x, n)) => {
                let x = self.go(a, *x, in_closure);
                match a.expr(x) {
                    // Projections out of a tuple of arrays name the array itself.
                    Expr::Scalar(Scalar::Tuple(xs)) if a.ty(x).has_array() => xs[*n],
                    _ => rebuild(a, h, Expr::Scalar(Scalar::Proj(x, *n))),
                }
            }
            _ => {
                let closure_bodies: Vec<H> = e.funs().iter().map(|f| f.body).collect();
                let new = e.map_children(|c| {
                    let inner = in_closure || closure_bodies.contains(&c);
                    self.go(a, c, inner)
                });
                rebuild(a, h, new)
            }
        };
        self.memo.insert((h, in_closure), r);
        r
    }
}

/// `h` with variable `var` replaced by `value`, except where a binder of `var`
/// shadows it.
fn substitute(a: &mut Arena, h: H, var: VarId, value: H, memo: &mut HashMap<H, H>) -> H {
    if let Some(&r) = memo.get(&h) {
        return r;
    }
    let e = a.expr(h).clone();
    let r = match &e {
        Expr::Scalar(Scalar::Var(v)) if *v == var => value,
        Expr::Scalar(Scalar::Let {
            var: v,
            value: x,
            body,
        }) if *v == var => {
            let x = substitute(a, *x, var, value, memo);
            rebuild(
                a,
                h,
                Expr::Scalar(Scalar::Let {
                    var: *v,
                    value: x,
                    body: *body,
                }),
            )
        }
        Expr::Scalar(Scalar::While {
            vars,
            init,
            cond,
            step,
            pulls,
        }) if vars.contains(&var) || pulls.iter().any(|p| p.item == var) => {
            let init = init.iter().map(|x| substitute(a, *x, var, value, memo)).collect();
            let pulls = pulls
                .iter()
                .map(|p| crate::ir::Pull {
                    source: substitute(a, p.source, var, value, memo),
                    item: p.item,
                    chunk: p
                        .chunk
                        .iter()
                        .map(|x| substitute(a, *x, var, value, memo))
                        .collect(),
                })
                .collect();
            rebuild(
                a,
                h,
                Expr::Scalar(Scalar::While {
                    vars: vars.clone(),
                    init,
                    cond: *cond,
                    step: step.clone(),
                    pulls,
                }),
            )
        }
        _ => {
            let shadowed: Vec<H> = e
                .funs()
                .iter()
                .filter(|f| f.params.contains(&var))
                .map(|f| f.body)
                .collect();
            let new = e.map_children(|c| {
                if shadowed.contains(&c) {
                    c
                } else {
                    substitute(a, c, var, value, memo)
                }
            });
            rebuild(a, h, new)
        }
    };
    memo.insert(h, r);
    r
}

fn rebuild(a: &mut Arena, h: H, e: Expr) -> H {
    if &e == a.expr(h) {
        return h;
    }
    let ty = a.ty(h).clone();
    let span = a.span(h);
    a.add(e, ty, span)
}

/// For every array node reachable from `body`, the number of operations that
/// read its elements.
pub fn data_uses(arena: &Arena, body: H) -> HashMap<H, usize> {
    let mut uses: HashMap<H, usize> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![body];
    // The result itself is a use: it must be materialised.
    if arena.ty(body).is_array() {
        *uses.entry(body).or_default() += 1;
    }
    if let Expr::Scalar(Scalar::Tuple(xs)) = arena.expr(body) {
        for x in xs {
            if arena.ty(*x).is_array() {
                *uses.entry(*x).or_default() += 1;
            }
        }
    }
    while let Some(h) = stack.pop() {
        if !seen.insert(h) {
            continue;
        }
        let e = arena.expr(h);
        for c in e.children() {
            let is_data_use = arena.ty(c).has_array()
                && !matches!(
                    e,
                    Expr::Scalar(Scalar::Shape(_))
                        | Expr::Scalar(Scalar::Tuple(_))
                        | Expr::Scalar(Scalar::Proj(..))
                );
            if is_data_use {
                *uses.entry(c).or_default() += 1;
            }
            stack.push(c);
        }
        // A projection out of a multi-result operation uses that operation.
        if let Expr::Scalar(Scalar::Proj(x, _)) = e {
            if matches!(arena.ty(*x), Ty::Tuple(_)) && arena.ty(*x).has_array() {
                *uses.entry(*x).or_default() += 1;
            }
        }
    }
    uses
}
