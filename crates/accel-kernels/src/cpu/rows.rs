//! Values the same along a row: in a generate over rows (rank 2 or more),
//! the parts of the element function that depend on the row alone
//! (`(y[[r, 0]] / y[[r, n - 1]]).sqrt()` for element `[r, c]`) are computed
//! once per row ([`generate_rows_with`](accel_runtime::cpu::generate_rows_with)).
//! The Rust compiler does not hoist them itself: it cannot move a read past
//! the kernel's stores, nor a division out of a loop that may fail first.

use accel_core::alpha::free_vars;
use accel_core::ir::{Arena, BinOp, Expr, PlanRead, Scalar, Ty, VarId, H};
use std::collections::{BTreeSet, HashMap, HashSet};

/// How an expression varies along a row.
#[derive(Clone, Debug, PartialEq)]
enum Along {
    /// The same for every element of a row.
    Fixed,
    /// Depends on the position in the row.
    Varies,
    /// An index or tuple whose components vary differently.
    Parts(Vec<Along>),
}

impl Along {
    fn fixed(&self) -> bool {
        match self {
            Along::Fixed => true,
            Along::Varies => false,
            Along::Parts(ps) => ps.iter().all(Along::fixed),
        }
    }
}

/// The largest parts of element function body `body` (over index `param`
/// of rank `rank`) that are the same along a row, worth computing once per
/// row, and computed by every element: not inside a branch, the right side
/// of `&&` or `||`, or a loop, so that computing them once per row (from
/// its first element) can make no element fail that would not have. `host`
/// says whether a variable is bound outside the kernel; values computed
/// from host variables alone are left to the kernel's own hoisting.
/// `elided` says whether a checked read is proved in bounds, so that its
/// variable is a plain `let` of its index (a fused `reverse`'s `[r, n - 1 -
/// c]`): the row's closure may compute it without the test.
/// `guarded`: an `if` of the body whose first branch every element in the
/// row's span computes ([`Span::guard`]): its parts count as computed by
/// every element, the row's values being computed only for rows whose span
/// is not empty.
pub(super) fn row_values(
    a: &Arena,
    body: H,
    param: VarId,
    rank: usize,
    host: &dyn Fn(VarId) -> bool,
    elided: &dyn Fn(H) -> bool,
    guarded: Option<H>,
) -> Vec<H> {
    let mut w = Walk {
        a,
        host,
        elided,
        guarded,
        env: HashMap::new(),
        memo: HashMap::new(),
        scopes: 0,
        open: HashSet::new(),
        free: HashMap::new(),
        found: Vec::new(),
    };
    let mut index = vec![Along::Fixed; rank];
    if let Some(last) = index.last_mut() {
        *last = Along::Varies;
    }
    w.env.insert(param, Along::Parts(index));
    w.visit(body);
    w.found
}

struct Walk<'a> {
    a: &'a Arena,
    host: &'a dyn Fn(VarId) -> bool,
    elided: &'a dyn Fn(H) -> bool,
    guarded: Option<H>,
    /// The `let`-bound variables in scope, those of checked reads proved
    /// in bounds, and the index parameter.
    env: HashMap<VarId, Along>,
    /// Memo of [`Walk::along`] outside [`Walk::scoped`] bindings (each
    /// variable is bound once, so a node varies the same way wherever it is
    /// met, but a variable bound inside a part that [`Walk::visit`] then
    /// enters unbound, as a checked read's, is not tracked there).
    memo: HashMap<H, Along>,
    /// How many [`Walk::scoped`] bindings are in force.
    scopes: usize,
    /// The `let`s of `env` whose values read a variable the row's closure
    /// does not have (see [`Walk::closed`]).
    open: HashSet<VarId>,
    /// Memo of [`free_vars`].
    free: HashMap<H, BTreeSet<VarId>>,
    found: Vec<H>,
}

impl Walk<'_> {
    /// Collects the row values among the parts of `h` that every element
    /// computes.
    fn visit(&mut self, h: H) {
        if self.along(h).fixed() && self.worth(h) && self.closed(h) {
            self.found.push(h);
            return;
        }
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                self.visit(*value);
                self.bind(*var, *value);
                self.visit(*body);
            }
            // A read proved in bounds binds its index like a `let`.
            Expr::Plan(PlanRead::Checked { index, var, body, .. }) if (self.elided)(h) => {
                self.visit(*index);
                self.bind(*var, *index);
                self.visit(*body);
            }
            // Only the condition is computed by every element (and the
            // first branch of the span's guard by every element visited).
            Expr::Scalar(Scalar::If(c, t, _)) => {
                self.visit(*c);
                if self.guarded == Some(h) {
                    self.visit(*t);
                }
            }
            Expr::Scalar(Scalar::Binary(BinOp::And | BinOp::Or, x, _)) => self.visit(*x),
            Expr::Scalar(Scalar::While { .. }) | Expr::Scalar(Scalar::Trace { .. }) => {}
            // The body runs when the index is inside the shape; when it is
            // not, the program fails anyway.
            Expr::Plan(PlanRead::Checked { index, body, .. }) => {
                self.visit(*index);
                self.visit(*body);
            }
            e => {
                for c in e.children() {
                    self.visit(c);
                }
            }
        }
    }

    /// How `h` varies along a row (in the scope of `self.env`).
    fn along(&mut self, h: H) -> Along {
        if let Some(x) = self.memo.get(&h) {
            return x.clone();
        }
        let x = self.along_uncached(h);
        if self.scopes == 0 {
            self.memo.insert(h, x.clone());
        }
        x
    }

    fn along_uncached(&mut self, h: H) -> Along {
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => match self.env.get(v) {
                Some(x) => x.clone(),
                None if (self.host)(*v) => Along::Fixed,
                // Bound by a checked read not proved in bounds, or by a loop,
                // outside `h`: not tracked.
                None => Along::Varies,
            },
            Expr::Scalar(Scalar::Lit(_)) | Expr::Scalar(Scalar::None(_)) | Expr::Scalar(Scalar::Shape(_)) => {
                Along::Fixed
            }
            Expr::Plan(PlanRead::Buffer(_)) => Along::Fixed,
            Expr::Scalar(Scalar::Proj(x, k)) => match self.along(*x) {
                Along::Parts(ps) => ps.get(*k).cloned().unwrap_or(Along::Varies),
                x => x,
            },
            Expr::Scalar(Scalar::MakeIndex(xs)) | Expr::Scalar(Scalar::Tuple(xs)) => {
                Along::Parts(xs.iter().map(|x| self.along(*x)).collect())
            }
            // Computing the `let` computes its value, which may fail at
            // some elements of the row only (a read out of bounds), even
            // when the body does not use it: a value that may fail is the
            // same along the row only when its index is.
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let v = self.along(*value);
                if !v.fixed() && self.may_fail(*value) {
                    return Along::Varies;
                }
                self.scoped(*var, v, *body)
            }
            // A read: the same element along the row when its index is.
            Expr::Plan(PlanRead::Checked { index, var, body, .. }) if (self.elided)(h) => {
                let ix = self.along(*index);
                self.scoped(*var, ix, *body)
            }
            Expr::Plan(PlanRead::Checked {
                index,
                shape,
                var,
                body,
                ..
            }) => {
                let (ix, sh) = (self.along(*index), self.along(*shape));
                if !(ix.fixed() && sh.fixed()) {
                    return Along::Varies;
                }
                self.scoped(*var, Along::Fixed, *body)
            }
            Expr::Scalar(Scalar::While { .. })
            | Expr::Scalar(Scalar::Trace { .. })
            | Expr::Plan(PlanRead::ReadStencil { .. }) => Along::Varies,
            e => {
                let fixed = e.children().into_iter().all(|c| self.along(c).fixed());
                if fixed {
                    Along::Fixed
                } else {
                    Along::Varies
                }
            }
        }
    }

    /// Binds `var` (in scope from here on) to `value`.
    fn bind(&mut self, var: VarId, value: H) {
        let v = self.along(value);
        self.env.insert(var, v);
        if !self.closed(value) {
            self.open.insert(var);
        }
    }

    /// [`Self::along`] of `body` with `var` bound as `v`.
    fn scoped(&mut self, var: VarId, v: Along, body: H) -> Along {
        let before = self.env.insert(var, v);
        self.scopes += 1;
        let out = self.along(body);
        self.scopes -= 1;
        match before {
            Some(x) => self.env.insert(var, x),
            None => self.env.remove(&var),
        };
        out
    }

    /// Whether every variable `h` reads is bound inside it, by a `let`
    /// around it whose value is closed too, the index, or outside the
    /// kernel, and it runs no loop: the row's closure, which computes `h`
    /// with those `let`s inlined, has no other variable. (A part that is the
    /// same along the row may still read a variable that is not, as `let x
    /// = a[[i, j]]; 1.0 / y[[i, 0]]` does, or one bound by a checked read
    /// around it.)
    fn closed(&mut self, h: H) -> bool {
        let loops = self
            .a
            .reaches(h, |_, e| matches!(e, Expr::Scalar(Scalar::While { .. })));
        !loops
            && free_vars(self.a, h, &mut self.free)
                .iter()
                .all(|v| (self.env.contains_key(v) && !self.open.contains(v)) || (self.host)(*v))
    }

    /// Whether computing `h` may fail: a read not proved in bounds, or an
    /// assertion.
    fn may_fail(&self, h: H) -> bool {
        self.a.reaches(h, |x, e| match e {
            Expr::Plan(PlanRead::Checked { .. }) => !(self.elided)(x),
            Expr::Scalar(Scalar::Read { .. }) | Expr::Scalar(Scalar::Assert { .. }) => true,
            _ => false,
        })
    }

    /// Whether `h` is worth a slot of the row's values: it reads memory,
    /// divides or calls a math function, has a plain type (numbers and
    /// tuples of them), and reads some variable of the element (values of
    /// host variables alone are hoisted before the kernel).
    fn worth(&self, h: H) -> bool {
        fn plain(t: &Ty) -> bool {
            match t {
                Ty::Prim(_) => true,
                Ty::Tuple(ts) => ts.iter().all(plain),
                _ => false,
            }
        }
        if !plain(self.a.ty(h)) {
            return false;
        }
        let costly = self.a.reaches(h, |_, e| {
            matches!(
                e,
                Expr::Plan(
                    PlanRead::Checked { .. } | PlanRead::ReadIndex { .. } | PlanRead::ReadLinear { .. }
                ) | Expr::Scalar(Scalar::Read { .. })
                    | Expr::Scalar(Scalar::Binary(BinOp::Div | BinOp::Rem, ..))
                    | Expr::Scalar(Scalar::Math(..))
            )
        });
        let element = self.a.reaches(
            h,
            |_, e| matches!(e, Expr::Scalar(Scalar::Var(v)) if !(self.host)(*v)),
        );
        costly && element
    }
}

/// The positions of a row at which an index function can give a target:
/// its body is `let`s of the index's components, then `if c { .. } else {
/// None }`, where `c` is comparisons (`<`, `<=`, `>`, `>=`, joined by `&&`)
/// of the row position (the index's last component) with values fixed along
/// the row that cannot fail: the other components, literals and variables
/// bound outside the kernel. Elsewhere in the row the body gives `None`
/// without computing anything that could fail, so the positions outside
/// `max(lo) .. min(hi)` need no visit (the pairs `j > i` of a triangle).
pub(super) struct Span {
    /// The `if`.
    pub guard: H,
    /// Lower bounds on the position: `bound + add <= j`.
    pub lo: Vec<(Bound, usize)>,
    /// Upper bounds: `j < bound + add`.
    pub hi: Vec<(Bound, usize)>,
}

/// A value fixed along a row that bounds the positions of a [`Span`].
pub(super) enum Bound {
    /// A component of the index (below the last).
    Component(usize),
    /// A literal or a variable bound outside the kernel.
    Value(H),
}

/// The [`Span`] of index function body `body` over index `param` of rank
/// `rank` (2 or more), if it has one.
pub(super) fn span(
    a: &Arena,
    body: H,
    param: VarId,
    rank: usize,
    host: &dyn Fn(VarId) -> bool,
) -> Option<Span> {
    // What each `let`-bound component variable is.
    let mut comps: HashMap<VarId, usize> = HashMap::new();
    let mut h = body;
    let component = |comps: &HashMap<VarId, usize>, x: H| match a.expr(x) {
        Expr::Scalar(Scalar::Proj(p, k)) if matches!(a.expr(*p), Expr::Scalar(Scalar::Var(v)) if *v == param) => {
            Some(*k)
        }
        Expr::Scalar(Scalar::Var(v)) => comps.get(v).copied(),
        _ => None,
    };
    loop {
        match a.expr(h) {
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                comps.insert(*var, component(&comps, *value)?);
                h = *body;
            }
            Expr::Scalar(Scalar::If(c, _, e)) if matches!(a.expr(*e), Expr::Scalar(Scalar::None(_))) => {
                let mut span = Span {
                    guard: h,
                    lo: vec![],
                    hi: vec![],
                };
                let bound = |x: H| match component(&comps, x) {
                    Some(k) if k + 1 < rank => Some(Bound::Component(k)),
                    Some(_) => None,
                    None => match a.expr(x) {
                        Expr::Scalar(Scalar::Lit(_)) => Some(Bound::Value(x)),
                        Expr::Scalar(Scalar::Var(v)) if host(*v) => Some(Bound::Value(x)),
                        _ => None,
                    },
                };
                let mut conds = vec![*c];
                while let Some(c) = conds.pop() {
                    let Expr::Scalar(Scalar::Binary(op, x, y)) = a.expr(c) else {
                        return None;
                    };
                    let (op, x, y) = (*op, *x, *y);
                    if op == BinOp::And {
                        conds.extend([x, y]);
                        continue;
                    }
                    // `j op b`, with the position on the left.
                    let (op, b) = if component(&comps, x) == Some(rank - 1) {
                        (op, y)
                    } else if component(&comps, y) == Some(rank - 1) {
                        let flipped = match op {
                            BinOp::Lt => BinOp::Gt,
                            BinOp::Le => BinOp::Ge,
                            BinOp::Gt => BinOp::Lt,
                            BinOp::Ge => BinOp::Le,
                            _ => return None,
                        };
                        (flipped, x)
                    } else {
                        return None;
                    };
                    let b = bound(b)?;
                    match op {
                        BinOp::Gt => span.lo.push((b, 1)),
                        BinOp::Ge => span.lo.push((b, 0)),
                        BinOp::Lt => span.hi.push((b, 0)),
                        BinOp::Le => span.hi.push((b, 1)),
                        _ => return None,
                    }
                }
                return Some(span);
            }
            _ => return None,
        }
    }
}
