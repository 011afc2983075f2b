//! Which checked reads of an element function are in bounds whatever the
//! input: a plan analysis that every back end uses to drop those checks.
//!
//! The first proof is the iteration space's: a read at the element's own
//! index (through `let`s that rename it, component by component) of an array
//! whose shape is, component by component, the same expression as the
//! iteration space's (`xs[[i, j]]` in `generate(xs.shape(), |[i, j]| ..)`).
//! The others need a context ([`prove`]): the `if`s and loop conditions
//! around a read, and tests the back end makes before the kernel
//! ([`Proof::Entry`]) or before a loop ([`Proof::BeforeLoop`]), emitting the
//! kernel or the loop in two versions.

use crate::ir::{Arena, BinOp, BufId, Expr, MathFn, PlanRead, Prim, Scalar, Ty, UnOp, VarId, H};
use crate::plan::ElemFn;
use std::collections::HashMap;
use std::collections::HashSet;

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

    /// The buffer that `h` reads at the iteration index itself (`a[[i, j]]`
    /// in a generate over `[i, j]`), checked or not, if `h` is such a read.
    pub fn identity_read(&self, a: &Arena, h: H) -> Option<BufId> {
        let identity = |mut index: H| {
            // `let w = ix; w` is `ix`.
            while let Expr::Scalar(Scalar::Let { var: w, value, body }) = a.expr(index) {
                match a.expr(*body) {
                    Expr::Scalar(Scalar::Var(u)) if u == w => index = *value,
                    _ => break,
                }
            }
            self.comps(a, index)
                .is_some_and(|ds| ds.iter().enumerate().all(|(k, d)| k == *d))
        };
        let array = match a.expr(h) {
            Expr::Plan(PlanRead::Checked {
                index, var: v, body, ..
            }) if identity(*index) => {
                // The checked index, under `let`s that rename it.
                let (mut body, mut names) = (*body, vec![*v]);
                while let Expr::Scalar(Scalar::Let {
                    var: w,
                    value,
                    body: b,
                }) = a.expr(body)
                {
                    match a.expr(*value) {
                        Expr::Scalar(Scalar::Var(u)) if names.contains(u) => names.push(*w),
                        _ => return None,
                    }
                    body = *b;
                }
                match a.expr(body) {
                    Expr::Plan(PlanRead::ReadIndex { array, index }) if matches!(a.expr(*index), Expr::Scalar(Scalar::Var(w)) if names.contains(w)) => {
                        *array
                    }
                    _ => return None,
                }
            }
            Expr::Plan(PlanRead::ReadIndex { array, index }) if identity(*index) => *array,
            _ => return None,
        };
        match a.expr(array) {
            Expr::Plan(PlanRead::Buffer(b)) => Some(*b),
            _ => None,
        }
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
        self.comp_at(a, h, 64)
    }

    /// [`Iteration::comp`], looking through at most `depth` variables. A
    /// variable bound in several places (a kernel merged from siblings that
    /// share a closure binds its parameter once per sibling) is component
    /// `d` when each of its values is.
    fn comp_at(&self, a: &Arena, h: H, depth: usize) -> Option<usize> {
        if depth == 0 {
            return None;
        }
        match a.expr(h) {
            // The linear parameter of a rank-1 iteration space.
            Expr::Scalar(Scalar::Var(v)) if *v == self.param => Some(0),
            Expr::Scalar(Scalar::Var(v)) => self.every_value(*v, |x| self.comp_at(a, x, depth - 1)),
            Expr::Scalar(Scalar::Proj(b, d)) => self.proj_comp(a, *b, *d, depth - 1),
            _ => None,
        }
    }

    /// Which component of the iteration index component `d` of index `b` is.
    fn proj_comp(&self, a: &Arena, b: H, d: usize, depth: usize) -> Option<usize> {
        if depth == 0 {
            return None;
        }
        match a.expr(b) {
            Expr::Scalar(Scalar::Var(v)) if *v == self.param => Some(d),
            Expr::Scalar(Scalar::Var(v)) => self.every_value(*v, |x| self.proj_comp(a, x, d, depth - 1)),
            Expr::Scalar(Scalar::MakeIndex(ys)) => self.comp_at(a, *ys.get(d)?, depth - 1),
            _ => None,
        }
    }

    /// `f` of every value `let`s bind `v` to, when they all agree.
    fn every_value(&self, v: VarId, f: impl Fn(H) -> Option<usize>) -> Option<usize> {
        let values = self.lets.get(&v)?;
        let first = f(*values.first()?)?;
        values
            .iter()
            .skip(1)
            .all(|x| f(*x) == Some(first))
            .then_some(first)
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

    /// Whether a permute's index function `body` (this iteration's, over a
    /// source of rank `rank` >= 2) moves whole rows: its result is `None` or
    /// `Some([.., j])`, `j` the source's innermost index component, and
    /// nothing else in it (the choice, the other components) depends on
    /// `j`. Then the target of each element of a source row is the target
    /// of the row's first element, `j` further along.
    pub fn moves_rows(&self, a: &Arena, body: H, rank: usize) -> bool {
        if rank < 2 {
            return false;
        }
        let last = rank - 1;
        let mut seen = HashSet::new();
        self.rows_result(a, body, last, &mut seen)
    }

    /// [`Iteration::moves_rows`] at `h`, a node whose value is the result.
    fn rows_result(&self, a: &Arena, h: H, last: usize, seen: &mut HashSet<H>) -> bool {
        match a.expr(h) {
            Expr::Scalar(Scalar::Let { value, body, .. }) => {
                (self.comp(a, *value) == Some(last) || self.free_of(a, *value, last, seen))
                    && self.rows_result(a, *body, last, seen)
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                self.free_of(a, *c, last, seen)
                    && self.rows_result(a, *t, last, seen)
                    && self.rows_result(a, *e, last, seen)
            }
            Expr::Scalar(Scalar::None(_)) => true,
            Expr::Scalar(Scalar::Some(x)) => match a.expr(self.resolve(a, *x)) {
                Expr::Scalar(Scalar::MakeIndex(cs)) => match cs.split_last() {
                    Some((j, rest)) => {
                        self.comp(a, *j) == Some(last) && rest.iter().all(|c| self.free_of(a, *c, last, seen))
                    }
                    None => false,
                },
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether `h` does not depend on component `last` of the iteration
    /// index (nor on the whole index). `seen`: nodes found free already.
    fn free_of(&self, a: &Arena, h: H, last: usize, seen: &mut HashSet<H>) -> bool {
        if seen.contains(&h) {
            return true;
        }
        if self.comp(a, h) == Some(last) {
            return false;
        }
        let free = match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => *v != self.param,
            // Another component of the index (`last` was ruled out above).
            Expr::Scalar(Scalar::Proj(..)) if self.comp(a, h).is_some() => true,
            // A `let` of the innermost component, then unused here (its
            // uses are caught as that component).
            Expr::Scalar(Scalar::Let { value, body, .. }) if self.comp(a, *value) == Some(last) => {
                self.free_of(a, *body, last, seen)
            }
            e => e.children().into_iter().all(|c| self.free_of(a, c, last, seen)),
        };
        if free {
            seen.insert(h);
        }
        free
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
        if self.comps(a, index).is_some_and(|comps| {
            comps
                .iter()
                .enumerate()
                .all(|(k, &d)| same_extent(a, self.shape, d, shape, k))
        }) {
            return true;
        }
        // A fused backpermute's index may bind its argument first: `let ix2
        // = ix; [ix2.0, ..]` (the element function's `let`s are known).
        let mut index = self.resolve(a, index);
        while let Expr::Scalar(Scalar::Let { body, .. }) = a.expr(index) {
            index = self.resolve(a, *body);
        }
        let Expr::Scalar(Scalar::MakeIndex(xs)) = a.expr(index) else {
            return false;
        };
        xs.iter().enumerate().all(|(k, &x)| {
            self.comp(a, x)
                .is_some_and(|d| same_extent(a, self.shape, d, shape, k))
                || self.offset_inside(a, x, shape, k)
                || self.reversed_inside(a, x, shape, k)
        })
    }

    /// Whether scalar `x`, used as component `k` of an index into `shape`,
    /// is `(n - 1) - i` or `(n - i) - 1`, where `n` is component `k` of
    /// `shape` and `i` a component of the iteration index of the same
    /// extent: then `i < n`, so `x` lies in `0..n` (a fused `reverse`).
    fn reversed_inside(&self, a: &Arena, x: H, shape: H, k: usize) -> bool {
        let sub = |h: H| match a.expr(self.resolve(a, h)) {
            Expr::Scalar(Scalar::Binary(BinOp::Sub, p, q)) => Some((*p, *q)),
            _ => None,
        };
        let one = |h: H| matches!(a.expr(self.resolve(a, h)), Expr::Scalar(Scalar::Lit(l)) if l.bits == 1);
        let Some((p, q)) = sub(x) else {
            return false;
        };
        let (n, i) = match sub(p) {
            Some((n, o)) if one(o) => (n, q),
            Some((n, i)) if one(q) => (n, i),
            _ => return false,
        };
        let is_extent = match (scalar_extent(a, self.resolve(a, n), 16), extent(a, shape, k, 16)) {
            (Some((e, j)), Some((f, l))) => j == l && same_expr(a, e, f),
            _ => false,
        };
        is_extent
            && self
                .comp(a, i)
                .is_some_and(|d| same_extent(a, self.shape, d, shape, k))
    }

    /// Whether scalar `x`, used as component `k` of an index into `shape`,
    /// is `o + i` (either order) for `i` component `d` of the iteration
    /// index, whose extent is at most `n - min(o, n)` with `n` at most
    /// component `k` of `shape`: then `o + i < n` whenever `o <= n`, and
    /// when `o > n` the extent is 0. (The chunks of a sequence read their
    /// slices `k + j` so, over an extent `min(c, n - min(k, n))`.)
    fn offset_inside(&self, a: &Arena, x: H, shape: H, k: usize) -> bool {
        let Expr::Scalar(Scalar::Binary(BinOp::Add, p, q)) = a.expr(self.resolve(a, x)) else {
            return false;
        };
        [(*p, *q), (*q, *p)].into_iter().any(|(o, i)| {
            let Some(d) = self.comp(a, i) else {
                return false;
            };
            let Some(extent) = component(a, self.shape, d) else {
                return false;
            };
            min_terms(a, extent).into_iter().any(|t| match a.expr(t) {
                Expr::Scalar(Scalar::Binary(BinOp::Sub, n, m)) => {
                    let below_shape = min_terms(a, *n).into_iter().any(|c| {
                        component(a, shape, k).is_some_and(|s| same_expr(a, c, s))
                            || matches!(a.expr(c), Expr::Scalar(Scalar::Proj(b, j)) if *j == k && same_expr(a, *b, shape))
                    });
                    let clamped = matches!(a.expr(*m), Expr::Scalar(Scalar::Math(MathFn::Min, ys))
                        if ys.len() == 2 && same_expr(a, ys[0], o) && same_expr(a, ys[1], *n));
                    below_shape && clamped
                }
                _ => false,
            })
        })
    }
}

/// Component `d` of shape `s` as an expression, when `s` is built from its
/// components.
fn component(a: &Arena, s: H, d: usize) -> Option<H> {
    match a.expr(s) {
        Expr::Scalar(Scalar::MakeIndex(xs)) => xs.get(d).copied(),
        _ => None,
    }
}

/// The terms of a nest of `min`s (`h` itself when it is no `min`): `h` is at
/// most each of them.
fn min_terms(a: &Arena, h: H) -> Vec<H> {
    match a.expr(h) {
        Expr::Scalar(Scalar::Math(MathFn::Min, xs)) if xs.len() == 2 => {
            let mut out = min_terms(a, xs[0]);
            out.extend(min_terms(a, xs[1]));
            out.push(h);
            out
        }
        _ => vec![h],
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

/// Whether shapes `x` and `y` are the same, component by component
/// ([`same_extent`]).
pub fn same_shape(a: &Arena, x: H, y: H) -> bool {
    match (a.ty(x), a.ty(y)) {
        (Ty::Index(r), Ty::Index(q)) if r == q => x == y || (0..*r).all(|k| same_extent(a, x, k, y, k)),
        _ => x == y,
    }
}

/// Whether component `d` of shape `x` and component `k` of shape `y` are the
/// same expression (and so the same value in a kernel), through what the
/// planner knows of shapes.
pub fn same_extent(a: &Arena, x: H, d: usize, y: H, k: usize) -> bool {
    match (extent(a, x, d, 16), extent(a, y, k, 16)) {
        (Some((p, i)), Some((q, j))) => i == j && same_expr(a, p, q),
        _ => false,
    }
}

/// Component `d` of shape `s`, as an expression `(e, None)`, or as
/// `(shape, Some(k))` when it is component `k` of a shape not built from
/// its components; through the host `let`s and the buffers' shapes the
/// planner recorded ([`crate::ir::ShapeFacts`]), at most `depth` steps.
fn extent(a: &Arena, s: H, d: usize, depth: usize) -> Option<(H, Option<usize>)> {
    if depth == 0 {
        return Some((s, Some(d)));
    }
    match a.expr(s) {
        Expr::Scalar(Scalar::MakeIndex(xs)) => scalar_extent(a, *xs.get(d)?, depth - 1),
        _ => match known(a, s) {
            Some(t) if t != s => extent(a, t, d, depth - 1),
            _ => Some((s, Some(d))),
        },
    }
}

/// [`extent`] of a component `c` given as a scalar: through `let`s, a
/// component of a shape, `min(x, x)` (a zip of an array with itself) and an
/// assertion's value (a shape asserted on the host, before any kernel that
/// uses it runs: `scanl1_seg`'s segment lengths adding up to the length).
fn scalar_extent(a: &Arena, c: H, depth: usize) -> Option<(H, Option<usize>)> {
    if depth == 0 {
        return Some((c, None));
    }
    match a.expr(c) {
        Expr::Scalar(Scalar::Proj(b, j)) => extent(a, *b, *j, depth - 1),
        Expr::Scalar(Scalar::Math(MathFn::Min, xs)) if xs.len() == 2 => {
            let (p, q) = (
                scalar_extent(a, xs[0], depth - 1)?,
                scalar_extent(a, xs[1], depth - 1)?,
            );
            if p.1 == q.1 && same_expr(a, p.0, q.0) {
                Some(p)
            } else {
                Some((c, None))
            }
        }
        Expr::Scalar(Scalar::Assert { body, .. }) => scalar_extent(a, *body, depth - 1),
        _ => match known(a, c) {
            Some(v) if v != c => scalar_extent(a, v, depth - 1),
            _ => Some((c, None)),
        },
    }
}

/// A shape or a component through what the planner recorded of it
/// ([`crate::ir::ShapeFacts`]): a host `let`'s value, a buffer's shape.
fn known(a: &Arena, h: H) -> Option<H> {
    let facts = &a.shape_facts;
    match a.expr(h) {
        Expr::Scalar(Scalar::Var(v)) => facts.lets.get(v).copied(),
        Expr::Scalar(Scalar::Shape(x)) => match a.expr(*x) {
            Expr::Plan(PlanRead::Buffer(b)) => facts.buffers.get(b).copied(),
            _ => None,
        },
        _ => None,
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

// ---- Proofs that need a context ----
//
// A read guarded by the element function's own `if`s (`if i >= 1 && i + 1 <
// n { a[[i - 1]] }`), a read at a loop counter (`while k < hi { xs[[k]] }`):
// in bounds where the expression runs, given what holds there. Back ends
// that walk the element function track that context themselves (the CPU
// generator, which also knows its guard split's box) or let
// [`Proofs::of`] walk it for them (the PTX emitter); both ask [`prove`].

/// Why a checked read needs no test where it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Its index is the element's own, inside the iteration space.
    Iteration,
    /// Each component is a loop counter that its loop's condition keeps
    /// below the extent.
    Counter,
    /// In bounds where the kernel's entry test holds: component `k` of the
    /// index stays below `bounds[k]`, and `bounds[k] <= shape[k]` (values
    /// the same for every element: the CPU tests them once before the
    /// kernel, the PTX kernel once in its prologue; see [`Proofs::entry`]).
    Entry { bounds: Vec<Bound>, shape: H },
    /// In bounds in `while` loop `lp` (the outermost such) when the tests
    /// made before the loop hold (see [`Proofs::before_loop`]).
    BeforeLoop(H),
}

/// What component `k` of an index stays below, for [`Proof::Entry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Component `d` of the iteration space.
    Extent(usize),
    /// A value the host computes (`e` of a guard `d + c < e`).
    Value(H),
    /// The component is itself a value the host computes (`t + 1` in
    /// `wall[[t + 1, n]]`, `t` a loop counter of the host): the test is
    /// `e < shape[k]`, not `<=`.
    At(H),
    /// `hi[d] + c`, where `hi` ends a box the caller knows the index to lie
    /// in ([`BoxFacts`]).
    BoxEnd(usize, i64),
}

/// A fact an `if` gives its branches: comparison `h` holds (`true`) or
/// fails (`false`).
pub type Fact = (H, bool);

/// The facts that hold where `cond` is `truth`: the conjuncts of an `&&`
/// that holds, the disjuncts of an `||` that fails, through `!`. The
/// then-branch of `if i >= 1 && i + 1 < n` has `i >= 1` and `i + 1 < n`;
/// the else-branch of `if i == 0 || i + 1 == n` has `i != 0` and `i + 1 != n`.
pub fn facts(a: &Arena, cond: H, truth: bool, out: &mut Vec<Fact>) {
    match a.expr(cond) {
        Expr::Scalar(Scalar::Binary(BinOp::And, p, q)) if truth => {
            facts(a, *p, truth, out);
            facts(a, *q, truth, out);
        }
        Expr::Scalar(Scalar::Binary(BinOp::Or, p, q)) if !truth => {
            facts(a, *p, truth, out);
            facts(a, *q, truth, out);
        }
        Expr::Scalar(Scalar::Unary(UnOp::Not, x)) if a.ty(*x) == &Ty::Prim(Prim::Bool) => {
            facts(a, *x, !truth, out)
        }
        _ => out.push((cond, truth)),
    }
}

/// Fact `f` as a comparison `x op y` that holds, for comparisons of
/// integers (where `!(x < y)` is `x >= y`).
fn comparison(a: &Arena, (h, truth): Fact) -> Option<(BinOp, H, H)> {
    let Expr::Scalar(Scalar::Binary(op, x, y)) = a.expr(h) else {
        return None;
    };
    if !op.is_comparison() || !a.ty(*x).prim().is_some_and(|p| p.is_int()) {
        return None;
    }
    let op = match (truth, op) {
        (true, op) => *op,
        (false, BinOp::Lt) => BinOp::Ge,
        (false, BinOp::Le) => BinOp::Gt,
        (false, BinOp::Gt) => BinOp::Le,
        (false, BinOp::Ge) => BinOp::Lt,
        (false, BinOp::Eq) => BinOp::Ne,
        (false, BinOp::Ne) => BinOp::Eq,
        _ => return None,
    };
    Some((op, *x, *y))
}

/// What a back end knows of a box the index lies in (the CPU's guard
/// split): per component, a constant it is at least, and whether the box
/// ends below a host value `hi[d]`.
#[derive(Clone, Debug, Default)]
pub struct BoxFacts {
    pub lo_min: Vec<i64>,
    pub has_hi: bool,
}

/// What holds where an expression runs.
#[derive(Clone, Copy)]
pub struct Context<'s> {
    /// What the `if` conditions around it say ([`facts`]).
    pub guards: &'s [Fact],
    /// The facts `v < x` of the `while` loops whose step encloses it
    /// ([`loop_bounds`]).
    pub below: &'s [(VarId, H)],
    /// The values of the `let`s around it.
    pub lets: &'s HashMap<VarId, H>,
    /// The loops around it whose counter reads are tested before the loop
    /// ([`counter_reads`]), outermost first.
    pub loops: &'s [(H, HashSet<H>)],
    /// A box the index lies in, if the back end split the iteration space.
    pub in_box: Option<&'s BoxFacts>,
}

/// Why the checked read `read` (at `index`, in an array of shape `shape`) is
/// in bounds in context `cx`, inside iteration `it` if there is one;
/// `host_var` says which variables the host computes. `None` when nothing
/// proves it.
pub fn prove(
    a: &Arena,
    it: Option<&Iteration>,
    cx: Context,
    read: H,
    index: H,
    shape: H,
    host_var: &dyn Fn(VarId) -> bool,
) -> Option<Proof> {
    if it.is_some_and(|it| it.inside(a, index, shape)) {
        return Some(Proof::Iteration);
    }
    if below_extent(a, it, cx, index, shape) {
        return Some(Proof::Counter);
    }
    if let Some((lp, _)) = cx.loops.iter().find(|(_, reads)| reads.contains(&read)) {
        return Some(Proof::BeforeLoop(*lp));
    }
    let bounds = it?.guarded_bounds(a, cx, index, host_var)?;
    host_only(a, shape).then_some(Proof::Entry { bounds, shape })
}

impl Iteration {
    /// For each component of `index`, a bound it stays below in context
    /// `cx`: component `d` of the iteration space for the iteration index's
    /// own component `d`; for a neighbour `d + c` or `d - c` (a constant
    /// `c`), a guard that keeps it inside: `d >= c` (then `d - c` lies below
    /// `d`), or `d + c' < e` with `c' >= c` and `e` a host value. So the edge
    /// tests of a neighbourhood written by hand (`if i >= 1 && i + 1 < n {
    /// a[[i - 1, j]] .. }`) prove its reads, as the interior of a `stencil`
    /// is proved. `None` when a component is none of these.
    pub fn guarded_bounds(
        &self,
        a: &Arena,
        cx: Context,
        index: H,
        host_var: &dyn Fn(VarId) -> bool,
    ) -> Option<Vec<Bound>> {
        if let Some(ds) = self.comps(a, index) {
            return Some(ds.into_iter().map(Bound::Extent).collect());
        }
        let Expr::Scalar(Scalar::MakeIndex(xs)) = a.expr(self.resolve(a, index)) else {
            return None;
        };
        xs.iter()
            .map(|&x| {
                let Some((d, off)) = self.neighbour(a, x) else {
                    // A loop counter below a host value (`a[[i, k]]` in `for k
                    // in 0..p`, `p` the host's): below the extent if `p` is.
                    // Rank 1 has its own proof, tested before the loop
                    // ([`counter_reads`]); proving those here too would
                    // version the kernel for the loop's checked version.
                    if let Some(e) = (xs.len() > 1)
                        .then(|| counter_bound(a, cx, x, host_var))
                        .flatten()
                    {
                        return Some(Bound::Value(e));
                    }
                    // The same for every element: tested once, before the kernel.
                    let x = self.resolve(a, x);
                    return on_host(a, x, host_var).then_some(Bound::At(x));
                };
                if off > 0 {
                    self.guard_upper(a, cx, d, off, host_var)
                } else if off < 0 && !self.guard_lower(a, cx, d, -off) {
                    None
                } else {
                    Some(Bound::Extent(d))
                }
            })
            .collect()
    }

    /// `x` as component `d` of the iteration index plus a constant: `(d, c)`
    /// for `d + c` or `c + d`, `(d, -c)` for `d - c`, `(d, 0)` for `d`.
    pub fn neighbour(&self, a: &Arena, x: H) -> Option<(usize, i64)> {
        match a.expr(self.resolve(a, x)) {
            Expr::Scalar(Scalar::Binary(BinOp::Add, p, q)) => {
                match (self.small_usize(a, *p), self.small_usize(a, *q)) {
                    (None, Some(c)) => Some((self.comp(a, *p)?, c)),
                    (Some(c), None) => Some((self.comp(a, *q)?, c)),
                    _ => None,
                }
            }
            Expr::Scalar(Scalar::Binary(BinOp::Sub, p, q)) => {
                Some((self.comp(a, *p)?, -self.small_usize(a, *q)?))
            }
            _ => Some((self.comp(a, x)?, 0)),
        }
    }

    /// A `usize` literal below 2^20 (through `let`s).
    pub fn small_usize(&self, a: &Arena, h: H) -> Option<i64> {
        match a.expr(self.resolve(a, h)) {
            Expr::Scalar(Scalar::Lit(l)) if l.prim == Prim::Usize && l.bits < 1 << 20 => Some(l.bits as i64),
            _ => None,
        }
    }

    /// Whether context `cx` says component `d` of the iteration index is at
    /// least `c`: `d >= c`, `d > c - 1`, `c <= d` or `c - 1 < d`, or the box.
    fn guard_lower(&self, a: &Arena, cx: Context, d: usize, c: i64) -> bool {
        if cx
            .in_box
            .is_some_and(|b| b.lo_min.get(d).is_some_and(|&l| l >= c))
        {
            return true;
        }
        let is_d = |h: H| matches!(self.neighbour(a, h), Some((e, 0)) if e == d);
        let at_least = |h: H, k: i64| is_d(h) && k >= c;
        cx.guards.iter().any(|&g| match comparison(a, g) {
            Some((BinOp::Ge, x, y)) | Some((BinOp::Le, y, x)) => {
                self.small_usize(a, y).is_some_and(|k| at_least(x, k))
            }
            Some((BinOp::Gt, x, y)) | Some((BinOp::Lt, y, x)) => {
                self.small_usize(a, y).is_some_and(|k| at_least(x, k + 1))
            }
            // An index component is unsigned: `d != 0` is `d >= 1`.
            Some((BinOp::Ne, x, y)) => {
                (self.small_usize(a, y) == Some(0) && at_least(x, 1))
                    || (self.small_usize(a, x) == Some(0) && at_least(y, 1))
            }
            _ => false,
        })
    }

    /// A bound `d + c` stays below by context `cx` (component `d` of the
    /// iteration index): `hi[d] + c` in a box, else a host value `e` from a
    /// guard `d + c' < e` with `c' >= c` (so `d + c + 1 <= e`).
    fn guard_upper(
        &self,
        a: &Arena,
        cx: Context,
        d: usize,
        c: i64,
        host_var: &dyn Fn(VarId) -> bool,
    ) -> Option<Bound> {
        if cx.in_box.is_some_and(|b| b.has_hi) {
            return Some(Bound::BoxEnd(d, c.max(0)));
        }
        cx.guards.iter().find_map(|&g| match comparison(a, g)? {
            (BinOp::Lt, x, e) | (BinOp::Gt, e, x) => {
                let (dx, cx) = self.neighbour(a, x)?;
                (dx == d && cx >= c && on_host(a, e, host_var)).then_some(Bound::Value(e))
            }
            // The last element excepted, as Rodinia's border cases write it
            // (`i + 1 != n`, `i != n - 1`, `n` the iteration space's extent
            // `d`): `d < n` makes `d + 1 <= n`, and the guard `d + 1 < n`.
            (BinOp::Ne, p, q) => [(p, q), (q, p)].into_iter().find_map(|(x, e)| {
                let (dx, cx) = self.neighbour(a, x)?;
                let (n, k) = match a.expr(self.resolve(a, e)) {
                    Expr::Scalar(Scalar::Binary(BinOp::Sub, n, k)) => (*n, self.small_usize(a, *k)?),
                    _ => (e, 0),
                };
                (dx == d && c == 1 && cx + k == 1 && self.is_extent(a, d, n) && on_host(a, n, host_var))
                    .then_some(Bound::Value(n))
            }),
            _ => None,
        })
    }

    /// Whether scalar `n` is the iteration space's extent `d`.
    fn is_extent(&self, a: &Arena, d: usize, n: H) -> bool {
        let n = self.resolve(a, n);
        match (a.expr(self.resolve(a, self.shape)), a.expr(n)) {
            (Expr::Scalar(Scalar::MakeIndex(xs)), _) => {
                xs.get(d).is_some_and(|x| same_expr(a, self.resolve(a, *x), n))
            }
            (_, Expr::Scalar(Scalar::Proj(s, i))) => *i == d && same_expr(a, *s, self.shape),
            _ => false,
        }
    }
}

/// Whether every component `k` of `index` is a variable known (by context
/// `cx`) to be below component `k` of `shape`: a loop counter `c` in `while
/// c < n`, `n` being that extent (`centroids[[c]]` in `for c in 0..k` with
/// `k = centroids.len()`), or, given the iteration `it`, a component of the
/// iteration index over the same extent (`b[[k, j]]` in `for k in 0..m`,
/// element `[i, j]` of a generate over `b`'s shape). Index components are
/// `usize`, so never negative.
pub fn below_extent(a: &Arena, it: Option<&Iteration>, cx: Context, index: H, shape: H) -> bool {
    if cx.below.is_empty() {
        return false;
    }
    let Expr::Scalar(Scalar::MakeIndex(xs)) = a.expr(index) else {
        return false;
    };
    xs.iter().enumerate().all(|(k, x)| {
        counter_below(a, cx, *x, shape, k)
            || it.is_some_and(|it| {
                it.comp(a, *x)
                    .is_some_and(|d| same_extent(a, it.shape, d, shape, k))
            })
    })
}

/// The loop counter that `x` is (through `let`s that rename it), if any.
fn counter_var(a: &Arena, cx: Context, x: H) -> Option<VarId> {
    let mut h = x;
    loop {
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) if cx.below.iter().any(|(w, _)| w == v) => return Some(*v),
            Expr::Scalar(Scalar::Var(v)) => h = *cx.lets.get(v)?,
            _ => return None,
        }
    }
}

/// A value `e` the host computes that `x`, a loop counter, stays below by
/// its loop's condition (`while k < e`): a kernel whose entry tests `e <=
/// shape[k]` reads at `x` in bounds.
fn counter_bound(a: &Arena, cx: Context, x: H, host_var: &dyn Fn(VarId) -> bool) -> Option<H> {
    let v = counter_var(a, cx, x)?;
    cx.below.iter().find_map(|&(w, e)| {
        let e = resolve_lets(a, e, |u| cx.lets.get(&u).copied());
        (w == v && on_host(a, e, host_var)).then_some(e)
    })
}

/// Whether `x` is a variable known (by context `cx`) to be below component
/// `k` of `shape`.
fn counter_below(a: &Arena, cx: Context, x: H, shape: H, k: usize) -> bool {
    let resolve = |h: H| resolve_lets(a, h, |v| cx.lets.get(&v).copied());
    // The counter itself, not resolved: the fact is about it.
    let Some(v) = counter_var(a, cx, x) else {
        return false;
    };
    cx.below.iter().filter(|(w, _)| *w == v).any(|(_, bound)| {
        match (a.expr(resolve(*bound)), a.expr(shape)) {
            (Expr::Scalar(Scalar::Proj(s, i)), _) => same_extent(a, *s, *i, shape, k),
            (_, Expr::Scalar(Scalar::MakeIndex(ys))) => ys
                .get(k)
                .is_some_and(|y| same_expr(a, resolve(*bound), resolve(*y))),
            _ => false,
        }
    })
}

/// The facts `v < x` that a `while` loop's condition `cond` requires of
/// its state `vars` (its `&&`-conjuncts), where `x` reads no state
/// variable: they hold in every step, which runs only after `cond` held
/// for the same state.
pub fn loop_bounds(a: &Arena, vars: &[VarId], cond: H) -> Vec<(VarId, H)> {
    let mut facts = Vec::new();
    let mut stack = vec![cond];
    while let Some(h) = stack.pop() {
        match a.expr(h) {
            Expr::Scalar(Scalar::Binary(BinOp::And, x, y)) => stack.extend([*x, *y]),
            Expr::Scalar(Scalar::Binary(BinOp::Lt, x, y)) => {
                if let Expr::Scalar(Scalar::Var(v)) = a.expr(*x) {
                    if vars.contains(v) && !vars.iter().any(|w| a.mentions(*y, *w)) {
                        facts.push((*v, *y));
                    }
                }
            }
            _ => {}
        }
    }
    facts
}

/// The checked reads of a loop's `step` at a counter `v` bounded by the
/// loop's condition (`v < x`, one of `facts`) in a rank-1 array whose shape
/// the host knows (`xs[[k]]` in `while k < hi`, `hi` being data: a
/// segment's end), and the tests `x <= shape[0]`, as `(x, shape)`, under
/// which all of them are in bounds. Made once before the loop, they let a
/// back end run a version of the loop without those checks.
pub fn counter_reads(a: &Arena, facts: &[(VarId, H)], step: &[H]) -> (HashSet<H>, Vec<(H, H)>) {
    let mut reads = HashSet::new();
    let mut tests: Vec<(H, H)> = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = step.to_vec();
    while let Some(h) = stack.pop() {
        if !seen.insert(h) {
            continue;
        }
        let e = a.expr(h);
        stack.extend(e.children());
        let Expr::Plan(PlanRead::Checked { index, shape, .. }) = e else {
            continue;
        };
        let Expr::Scalar(Scalar::MakeIndex(ix)) = a.expr(*index) else {
            continue;
        };
        let ([c], Ty::Index(1)) = (ix.as_slice(), a.ty(*shape)) else {
            continue;
        };
        let Expr::Scalar(Scalar::Var(v)) = a.expr(*c) else {
            continue;
        };
        // The bound is evaluated before the loop, where the condition might
        // not evaluate it: it must not read memory.
        let bound = facts.iter().find(|(w, x)| {
            w == v
                && !touches_memory(a, *x)
                && !a.reaches(*x, |_, e| matches!(e, Expr::Scalar(Scalar::While { .. })))
        });
        let Some(&(_, x)) = bound else {
            continue;
        };
        if !host_only(a, *shape) {
            continue;
        }
        let test = (x, *shape);
        if !tests
            .iter()
            .any(|t| same_expr(a, t.0, x) && same_expr(a, t.1, *shape))
        {
            tests.push(test);
        }
        reads.insert(h);
    }
    (reads, tests)
}

/// Whether evaluating `h` may read an array, fail or print (only such code
/// must not run where the program would not run it).
pub fn touches_memory(a: &Arena, h: H) -> bool {
    a.reaches(h, |_, e| {
        matches!(
            e,
            Expr::Scalar(Scalar::Read { .. })
                | Expr::Scalar(Scalar::Trace { .. })
                | Expr::Plan(PlanRead::ReadLinear { .. })
                | Expr::Plan(PlanRead::ReadIndex { .. })
                | Expr::Plan(PlanRead::ReadStencil { .. })
                | Expr::Plan(PlanRead::Checked { .. })
                | Expr::Scalar(Scalar::Assert { .. })
        )
    })
}

/// Whether the host can compute `h` before a kernel: shapes of buffers and
/// arithmetic on them, without variables (which may be bound inside the
/// element function).
pub fn host_only(a: &Arena, h: H) -> bool {
    match a.expr(h) {
        Expr::Scalar(Scalar::Var(_)) => false,
        Expr::Scalar(Scalar::Shape(x)) => matches!(a.expr(*x), Expr::Plan(PlanRead::Buffer(_))),
        Expr::Scalar(Scalar::Lit(_))
        | Expr::Scalar(Scalar::Proj(..))
        | Expr::Scalar(Scalar::MakeIndex(_))
        | Expr::Scalar(Scalar::Binary(..))
        | Expr::Scalar(Scalar::Unary(..))
        | Expr::Scalar(Scalar::Math(..))
        | Expr::Scalar(Scalar::Cast(..)) => a.expr(h).children().into_iter().all(|c| host_only(a, c)),
        _ => false,
    }
}

/// Whether `h` reads only scalars the host computes (`host_var`) and no
/// array, so the host can evaluate it before the kernel.
pub fn on_host(a: &Arena, h: H, host_var: &dyn Fn(VarId) -> bool) -> bool {
    !touches_memory(a, h)
        && !a.reaches(h, |_, e| match e {
            Expr::Scalar(Scalar::Var(v)) => !host_var(*v),
            Expr::Scalar(Scalar::Let { .. }) => true,
            _ => false,
        })
}

/// The proofs of every checked read of an element function, found by
/// walking it with its context, for a back end that lowers it without
/// tracking one (the PTX emitter).
#[derive(Clone, Debug, Default)]
pub struct Proofs {
    /// Each checked read reached, and its proof in every context it was
    /// reached in (`None` when one of them proves nothing, or they differ).
    reads: HashMap<H, Option<Proof>>,
    /// The tests `(x, shape)` (`x <= shape[0]`) before each loop whose
    /// counter reads they prove.
    loops: HashMap<H, Vec<(H, H)>>,
}

impl Proofs {
    /// The proofs of the checked reads reached from `roots`, in iteration
    /// `it` if there is one. Variables bound nowhere in `roots` (nor as
    /// `params`) are the host's.
    pub fn of(a: &Arena, roots: &[H], params: &[VarId], it: Option<&Iteration>) -> Proofs {
        let mut bound: HashSet<VarId> = params.iter().copied().collect();
        for &r in roots {
            a.reaches(r, |_, e| {
                match e {
                    Expr::Scalar(Scalar::Let { var, .. }) => {
                        bound.insert(*var);
                    }
                    Expr::Scalar(Scalar::While { vars, .. }) => bound.extend(vars.iter().copied()),
                    Expr::Plan(PlanRead::Checked { var, .. }) => {
                        bound.insert(*var);
                    }
                    _ => {}
                }
                false
            });
        }
        let mut w = Walk {
            a,
            it,
            bound,
            guards: Vec::new(),
            below: Vec::new(),
            lets: HashMap::new(),
            loops: Vec::new(),
            scope: 0,
            scopes: 0,
            seen: HashSet::new(),
            out: Proofs::default(),
        };
        for &r in roots {
            w.walk(r);
        }
        w.out
    }

    /// The proof of checked read `h`, if it holds wherever `h` runs.
    pub fn get(&self, h: H) -> Option<&Proof> {
        self.reads.get(&h)?.as_ref()
    }

    /// The tests the [`Proof::Entry`] proofs rely on, once each: `bound <=
    /// shape[k]`, as `(bound, shape, k)`.
    pub fn entry(&self, a: &Arena) -> Vec<(Bound, H, usize)> {
        let mut out: Vec<(Bound, H, usize)> = Vec::new();
        let mut reads: Vec<&H> = self.reads.keys().collect();
        reads.sort_unstable_by_key(|h| h.0);
        for h in reads {
            if let Some(Proof::Entry { bounds, shape }) = self.get(*h) {
                for (k, b) in bounds.iter().enumerate() {
                    let same = |(c, s, j): &(Bound, H, usize)| {
                        *j == k
                            && same_expr(a, *s, *shape)
                            && match (c, b) {
                                (Bound::Value(x), Bound::Value(y)) | (Bound::At(x), Bound::At(y)) => {
                                    same_expr(a, *x, *y)
                                }
                                _ => c == b,
                            }
                    };
                    if !out.iter().any(same) {
                        out.push((*b, *shape, k));
                    }
                }
            }
        }
        out
    }

    /// The tests `(x, shape)` (`x <= shape[0]`) to make before `while` loop
    /// `lp`, under which its [`Proof::BeforeLoop`] reads are in bounds.
    pub fn before_loop(&self, lp: H) -> &[(H, H)] {
        self.loops.get(&lp).map_or(&[], Vec::as_slice)
    }
}

/// The walk behind [`Proofs::of`]: the context at each node, as the back
/// ends see it when they lower the node.
struct Walk<'a> {
    a: &'a Arena,
    it: Option<&'a Iteration>,
    /// Variables bound in the walked code (the rest are the host's).
    bound: HashSet<VarId>,
    guards: Vec<Fact>,
    below: Vec<(VarId, H)>,
    lets: HashMap<VarId, H>,
    loops: Vec<(H, HashSet<H>)>,
    /// A number for the current context, new each time it changes, so that
    /// a node shared within one context is walked once.
    scope: u32,
    scopes: u32,
    seen: HashSet<(H, u32)>,
    out: Proofs,
}

impl Walk<'_> {
    /// `walk` of `h` in a context the caller has just changed (and restores
    /// afterwards).
    fn in_scope(&mut self, h: H) {
        let outer = self.scope;
        self.scopes += 1;
        self.scope = self.scopes;
        self.walk(h);
        self.scope = outer;
    }

    fn walk(&mut self, h: H) {
        if !self.seen.insert((h, self.scope)) {
            return;
        }
        let a = self.a;
        match a.expr(h) {
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                self.walk(*value);
                let before = self.lets.insert(*var, *value);
                self.in_scope(*body);
                match before {
                    Some(x) => self.lets.insert(*var, x),
                    None => self.lets.remove(var),
                };
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                self.walk(*c);
                for (branch, truth) in [(*t, true), (*e, false)] {
                    let depth = self.guards.len();
                    facts(a, *c, truth, &mut self.guards);
                    self.in_scope(branch);
                    self.guards.truncate(depth);
                }
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                ..
            }) => {
                for x in init {
                    self.walk(*x);
                }
                self.walk(*cond);
                let facts = loop_bounds(a, vars, *cond);
                let (reads, tests) = counter_reads(a, &facts, step);
                let (depth, loops) = (self.below.len(), self.loops.len());
                self.below.extend(facts);
                if !reads.is_empty() {
                    self.out.loops.insert(h, tests);
                    self.loops.push((h, reads));
                }
                let step = step.clone();
                self.scopes += 1;
                let outer = std::mem::replace(&mut self.scope, self.scopes);
                for x in step {
                    self.walk(x);
                }
                self.scope = outer;
                self.below.truncate(depth);
                self.loops.truncate(loops);
            }
            Expr::Plan(PlanRead::Checked {
                index, shape, body, ..
            }) => {
                let cx = Context {
                    guards: &self.guards,
                    below: &self.below,
                    lets: &self.lets,
                    loops: &self.loops,
                    in_box: None,
                };
                let bound = &self.bound;
                let proof = prove(a, self.it, cx, h, *index, *shape, &|v| !bound.contains(&v));
                match self.out.reads.get(&h) {
                    None => {
                        self.out.reads.insert(h, proof);
                    }
                    Some(p) if *p != proof => {
                        self.out.reads.insert(h, None);
                    }
                    Some(_) => {}
                }
                for x in [*index, *shape, *body] {
                    self.walk(x);
                }
            }
            e => {
                for x in e.children() {
                    self.walk(x);
                }
            }
        }
    }
}
