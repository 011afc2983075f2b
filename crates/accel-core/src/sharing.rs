//! Sharing recovery.
//!
//! The front end's arena is hash-consed, so a subterm written twice is already
//! one node. This pass inlines the `let`s of the array level (array-valued ones,
//! and every `let` outside closures) so that the program becomes one DAG whose
//! edges are the real uses, then counts, for each array node, its *data* uses:
//! the operations that read its elements. `a.shape()` and `a.len()` are not data
//! uses. Fusion materialises a node with more than one data use once and fuses
//! every other producer into its single consumer.

use crate::front::Program;
use crate::ir::{Arena, Expr, Ty, VarId, H};
use std::collections::HashMap;

/// The program as one DAG: array-level `let`s inlined, so that every edge to an
/// array node is a real use.
pub fn recover(p: &Program) -> Program {
    let mut shared = p.clone();
    shared.body = inline_array_lets(&mut shared.arena, p.body);
    shared
}

/// The program body with array-level `let`s inlined.
pub fn inline_array_lets(arena: &mut Arena, body: H) -> H {
    let mut inl = Inliner {
        subst: HashMap::new(),
        memo: HashMap::new(),
    };
    inl.go(arena, body, false)
}

struct Inliner {
    subst: HashMap<VarId, H>,
    memo: HashMap<(H, bool), H>,
}

impl Inliner {
    fn go(&mut self, a: &mut Arena, h: H, in_closure: bool) -> H {
        if let Some(&r) = self.memo.get(&(h, in_closure)) {
            return r;
        }
        let e = a.expr(h).clone();
        let r = match &e {
            Expr::Var(v) => self.subst.get(v).copied().unwrap_or(h),
            Expr::Let { var, value, body } if !in_closure || a.var(*var).ty.has_array() => {
                let v = self.go(a, *value, in_closure);
                self.subst.insert(*var, v);
                self.go(a, *body, in_closure)
            }
            Expr::Proj(x, n) => {
                let x = self.go(a, *x, in_closure);
                match a.expr(x) {
                    // Projections out of a tuple of arrays name the array itself.
                    Expr::Tuple(xs) if a.ty(x).has_array() => xs[*n],
                    _ => rebuild(a, h, Expr::Proj(x, *n)),
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
    if let Expr::Tuple(xs) = arena.expr(body) {
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
            let is_data_use =
                arena.ty(c).has_array() && !matches!(e, Expr::Shape(_) | Expr::Tuple(_) | Expr::Proj(..));
            if is_data_use {
                *uses.entry(c).or_default() += 1;
            }
            stack.push(c);
        }
        // A projection out of a multi-result operation uses that operation.
        if let Expr::Proj(x, _) = e {
            if matches!(arena.ty(*x), Ty::Tuple(_)) && arena.ty(*x).has_array() {
                *uses.entry(*x).or_default() += 1;
            }
        }
    }
    uses
}
