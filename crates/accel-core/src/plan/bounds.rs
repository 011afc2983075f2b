//! Which checked reads of an element function are in bounds whatever the
//! input: a plan analysis that every back end uses to drop those checks.
//!
//! The proof here is the iteration space's: a read at the element's own index
//! (through `let`s that rename it, component by component) of an array whose
//! shape is, component by component, the same expression as the iteration
//! space's (`xs[[i, j]]` in `generate(xs.shape(), |[i, j]| ..)`). Proofs that
//! need a context (a loop's condition, tests made before a kernel) stay
//! with the back end that emits that context.

use crate::ir::{Arena, Expr, Prim, Scalar, Ty, VarId, H};
use crate::plan::ElemFn;
use std::collections::HashMap;

/// An element function's index parameter, its iteration space's shape, and
/// the values its `let`s bind.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub param: VarId,
    pub shape: H,
    pub lets: HashMap<VarId, Vec<H>>,
}

impl Iteration {
    /// The iteration of element function `e` over a space of shape `shape`;
    /// `None` when its parameter is not the index (a linear parameter of a
    /// space of rank 2 or more).
    pub fn of(a: &Arena, e: &ElemFn, shape: H) -> Option<Iteration> {
        let f = e.fun();
        match (e, &a.var(f.params[0]).ty) {
            (ElemFn::Index(_), Ty::Index(_)) => {}
            (ElemFn::Linear(_), Ty::Prim(Prim::Usize)) if matches!(a.ty(shape), Ty::Index(1)) => {}
            _ => return None,
        }
        Some(Iteration {
            param: f.params[0],
            shape,
            lets: let_values(a, f.body),
        })
    }

    /// `h` through the `let`s bound once (the parameter itself excepted).
    pub fn resolve(&self, a: &Arena, h: H) -> H {
        resolve_lets(a, h, |v| match self.lets.get(&v).map(Vec::as_slice) {
            Some([x]) if v != self.param => Some(*x),
            _ => None,
        })
    }

    /// Which component of the iteration index the scalar `h` is (through
    /// `let`s bound once, and `[i][0]` for an index built from a linear
    /// parameter).
    pub fn comp(&self, a: &Arena, h: H) -> Option<usize> {
        let mut x = h;
        for _ in 0..64 {
            match a.expr(self.resolve(a, x)) {
                // The linear parameter of a rank-1 iteration space.
                Expr::Scalar(Scalar::Var(v)) if *v == self.param => return Some(0),
                Expr::Scalar(Scalar::Proj(b, d)) => match a.expr(self.resolve(a, *b)) {
                    Expr::Scalar(Scalar::Var(v)) if *v == self.param => return Some(*d),
                    Expr::Scalar(Scalar::MakeIndex(ys)) => x = *ys.get(*d)?,
                    _ => return None,
                },
                _ => return None,
            }
        }
        None
    }

    /// When each component `k` of index `index` is component `d_k` of the
    /// iteration index: the `d_k`.
    pub fn comps(&self, a: &Arena, index: H) -> Option<Vec<usize>> {
        let Ty::Index(rank) = a.ty(index) else {
            return None;
        };
        let comps: Vec<usize> = match a.expr(self.resolve(a, index)) {
            Expr::Scalar(Scalar::Var(v)) if *v == self.param => (0..*rank).collect(),
            Expr::Scalar(Scalar::MakeIndex(xs)) => {
                xs.iter().map(|x| self.comp(a, *x)).collect::<Option<_>>()?
            }
            _ => return None,
        };
        (comps.len() == *rank).then_some(comps)
    }

    /// Whether `index` is the iteration index itself.
    pub fn is_index(&self, a: &Arena, index: H) -> bool {
        is_iteration_index(a, index, self.param, &self.lets)
    }

    /// Whether `index` lies inside `shape` in every call of the element
    /// function: each component `k` is component `d` of the iteration index,
    /// and component `d` of the iteration space is the same expression as
    /// component `k` of `shape`.
    pub fn inside(&self, a: &Arena, index: H, shape: H) -> bool {
        self.comps(a, index).is_some_and(|comps| {
            comps
                .iter()
                .enumerate()
                .all(|(k, &d)| same_extent(a, self.shape, d, shape, k))
        })
    }
}

/// The values each variable is `let`-bound to in `h`.
pub fn let_values(a: &Arena, h: H) -> HashMap<VarId, Vec<H>> {
    let mut out: HashMap<VarId, Vec<H>> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if let Expr::Scalar(Scalar::Let { var, value, .. }) = a.expr(x) {
            let vs = out.entry(*var).or_default();
            if !vs.contains(value) {
                vs.push(*value);
            }
        }
        stack.extend(a.expr(x).children());
    }
    out
}

/// Whether index expression `h` is always the kernel's iteration index (its
/// parameter `p`, or `[p]` for a linear parameter of rank 1), through `let`s
/// that bind one value only.
pub fn is_iteration_index(a: &Arena, h: H, p: VarId, lets: &HashMap<VarId, Vec<H>>) -> bool {
    let mut h = h;
    for _ in 0..1000 {
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) if *v == p => return true,
            Expr::Scalar(Scalar::Var(v)) => match lets.get(v).map(Vec::as_slice) {
                Some([x]) => h = *x,
                _ => return false,
            },
            Expr::Scalar(Scalar::MakeIndex(xs)) if xs.len() == 1 && a.var(p).ty == Ty::Prim(Prim::Usize) => {
                h = xs[0];
            }
            _ => return false,
        }
    }
    false
}

/// `h` with variables replaced by their `let` values (`value_of`), as long as
/// they have one.
pub fn resolve_lets(a: &Arena, mut h: H, value_of: impl Fn(VarId) -> Option<H>) -> H {
    for _ in 0..1000 {
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => match value_of(*v) {
                Some(x) => h = x,
                None => return h,
            },
            _ => return h,
        }
    }
    h
}

/// Whether component `d` of shape `x` and component `k` of shape `y` are the
/// same expression (and so the same value in a kernel).
pub fn same_extent(a: &Arena, x: H, d: usize, y: H, k: usize) -> bool {
    // A component as an expression, or as (shape, component) when the shape
    // is not built from its components.
    let comp = |s: H, i: usize| match a.expr(s) {
        Expr::Scalar(Scalar::MakeIndex(xs)) => xs.get(i).map(|c| match a.expr(*c) {
            Expr::Scalar(Scalar::Proj(b, j)) => (*b, Some(*j)),
            _ => (*c, None),
        }),
        _ => Some((s, Some(i))),
    };
    match (comp(x, d), comp(y, k)) {
        (Some((p, i)), Some((q, j))) => i == j && same_expr(a, p, q),
        _ => false,
    }
}

/// Whether `x` and `y` are structurally the same expression.
pub fn same_expr(a: &Arena, x: H, y: H) -> bool {
    if x == y {
        return true;
    }
    let (ex, ey) = (a.expr(x), a.expr(y));
    let (mut cx, mut cy) = (vec![], vec![]);
    let bx = ex.map_children(|h| {
        cx.push(h);
        H(0)
    });
    let by = ey.map_children(|h| {
        cy.push(h);
        H(0)
    });
    bx == by && cx.len() == cy.len() && cx.iter().zip(&cy).all(|(p, q)| same_expr(a, *p, *q))
}
