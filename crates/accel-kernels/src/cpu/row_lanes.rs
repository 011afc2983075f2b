//! Loops in lockstep along a row: an element function whose loop runs the
//! same trips for every element of a row (PolyBench's trmm, `for k in i +
//! 1..m { s += a[[k, i]] * b[[k, j]] }` for element `[i, j]`) is emitted a
//! second time for [`ROW_LANES`] neighbouring elements of one row, for
//! `accel_runtime::cpu::generate_row_lanes`.
//!
//! What is the same along the row (the loop's counter, its condition,
//! `a[[k, i]]`) is computed once per group, as scalar code; what varies
//! (`s`, `b[[k, j]]`) once per lane, as arrays `[T; ROW_LANES]`. Each trip
//! then reads `b[[k, j..j + 8]]`, neighbouring elements, where element by
//! element the loop walks a column: the loop interchange a user writes by
//! hand in a rayon version, without a dead lane (the condition is the
//! group's), so the loops may read memory, unlike [`super::lanes`]'s.
//!
//! A value is the same along the row when it reads no varying variable: the
//! index's last component varies, its others do not; a `let` varies as its
//! body, or when its value varies (the value runs, and may fail, in each
//! lane even when the body ignores it); a loop's state varies as its initial
//! value and step (to a fixed point).
//! Computing such a value once where each lane would compute it is exact:
//! each lane computes the same value, failures included (a read out of
//! bounds fails in every lane alike), so long as it is computed
//! unconditionally; only the parts every lane evaluates are taken out of the
//! lanes' code ([`RowLanes::lifted`]).

use super::Gen;
use crate::host::{rust_ty, var, Scalars};
use accel_core::ir::{BinOp, Expr, PlanRead, Scalar, Ty, VarId, H};
use accel_core::plan::ElemFn;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use std::cell::RefCell;
use std::collections::HashMap;

/// Elements per group: eight `f32`s fill an AVX register.
pub(super) const ROW_LANES: usize = 8;

/// How a variable varies along a row.
#[derive(Clone, Debug)]
enum Along {
    Fixed,
    Varies,
    /// The element's index: which components vary.
    Index(Vec<bool>),
}

impl Gen<'_> {
    /// Whether element function `e` has a loop worth running in lockstep
    /// along rows: one whose condition is the same along the row, met by
    /// every element (under `let`s, projections and strict operations only:
    /// tuples, arithmetic, casts), with state that varies.
    pub(super) fn row_lanes_pay(&self, e: &ElemFn) -> bool {
        let traces = self.a.reaches(e.fun().body, |_, x| {
            matches!(x, Expr::Scalar(Scalar::Trace { .. }))
        });
        if traces || !e.loops(self.a) {
            return false;
        }
        let w = RowLanes::new(self, e);
        w.lockstep_loops(e.fun().body) > 0
    }

    /// `|__i0: usize| -> [T; ROW_LANES]`: elements `__i0..__i0 + ROW_LANES`,
    /// all in one row, of element function `e` over an iteration space of
    /// shape `shape`.
    pub(super) fn row_lanes_closure(&self, e: &ElemFn, shape: &Ident) -> TokenStream {
        let rt = self.rt;
        self.row_lanes_fn(e, quote!(__i0: usize), quote!(#rt::cpu::index_at(&#shape, __i0)))
    }

    /// `|__i0: usize, __ix0: [usize; R]| -> [T; ROW_LANES]`: the elements
    /// from offset `__i0`, index `__ix0`, along the innermost dimension, for
    /// `update_box_lanes`.
    pub(super) fn row_lanes_box_closure(&self, e: &ElemFn, rank: usize) -> TokenStream {
        let r = Literal::usize_unsuffixed(rank);
        let g = self.row_lanes_fn(e, quote!(__i0: usize, __ix0: [usize; #r]), quote!(__ix0));
        // A `move` closure, as the box's element closure is.
        quote!(#[allow(unused_variables)] move #g)
    }

    /// The closure of `args` computing a group, the first element's index
    /// being `first` (its offset `__i0`).
    fn row_lanes_fn(&self, e: &ElemFn, args: TokenStream, first: TokenStream) -> TokenStream {
        let f = e.fun();
        let p = var(f.params[0]);
        let n = Literal::usize_unsuffixed(ROW_LANES);
        let bind = match e {
            ElemFn::Linear(_) => quote!(let #p: [usize; #n] = ::core::array::from_fn(|__l| __i0 + __l);),
            ElemFn::Index(_) => quote! {
                let #p = {
                    let __first = #first;
                    ::core::array::from_fn::<_, #n, _>(|__l| {
                        let mut __x = __first;
                        if let Some(__last) = __x.last_mut() {
                            *__last += __l;
                        }
                        __x
                    })
                };
            },
        };
        let w = RowLanes::new(self, e);
        let body = w.lanes(f.body);
        let t = rust_ty(self.a.ty(f.body));
        quote!(|#args| -> [#t; #n] { #bind #body })
    }
}

struct RowLanes<'g, 'a> {
    g: &'g Gen<'a>,
    /// The variables bound in the element function so far, and the index.
    env: RefCell<HashMap<VarId, Along>>,
    /// The variables that hold a value per lane (`[T; ROW_LANES]`), the
    /// index among them.
    lanes: RefCell<Vec<VarId>>,
    /// The index parameter.
    param: VarId,
}

impl<'g, 'a> RowLanes<'g, 'a> {
    fn new(g: &'g Gen<'a>, e: &ElemFn) -> Self {
        let param = e.fun().params[0];
        let along = match &g.a.var(param).ty {
            Ty::Index(r) => Along::Index((0..*r).map(|d| d + 1 == *r).collect()),
            _ => Along::Varies,
        };
        RowLanes {
            g,
            env: RefCell::new(HashMap::from([(param, along)])),
            lanes: RefCell::new(vec![param]),
            param,
        }
    }

    fn fresh(&self, what: &str) -> Ident {
        let n = self.g.fresh.get();
        self.g.fresh.set(n + 1);
        format_ident!("__{}{}", what, n)
    }

    fn bind(&self, v: VarId, along: Along) -> Option<Along> {
        self.env.borrow_mut().insert(v, along)
    }

    fn unbind(&self, v: VarId, before: Option<Along>) {
        match before {
            Some(x) => self.env.borrow_mut().insert(v, x),
            None => self.env.borrow_mut().remove(&v),
        };
    }

    /// The branch that the guard split being emitted takes at `h`, when `h`
    /// is an `if` it decides with nothing left to test (an in-place
    /// update's box, `super::Gen::in_place`): there every lane takes it.
    fn decided(&self, h: H) -> Option<H> {
        let Expr::Scalar(Scalar::If(_, t, e)) = self.g.a.expr(h) else {
            return None;
        };
        let d = self.g.decision(h)?;
        d.residual.is_empty().then_some(if d.then { *t } else { *e })
    }

    /// How `h` varies along a row, its variables as `env` says (those not
    /// there are the kernel's scalars).
    fn along(&self, h: H) -> Along {
        let a = self.g.a;
        if let Some(branch) = self.decided(h) {
            return self.along(branch);
        }
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => self.env.borrow().get(v).cloned().unwrap_or(Along::Fixed),
            Expr::Scalar(Scalar::Proj(x, k)) => match self.along(*x) {
                Along::Index(parts) => fixed(!parts.get(*k).copied().unwrap_or(true)),
                x => x,
            },
            // A value bound but not used still runs (and may fail) in each
            // lane: what binds a varying value varies, whatever its body.
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let v = self.along(*value);
                let varies = matches!(v, Along::Varies);
                let before = self.bind(*var, v);
                let out = self.along(*body);
                self.unbind(*var, before);
                if varies {
                    Along::Varies
                } else {
                    out
                }
            }
            Expr::Plan(PlanRead::Checked {
                index,
                shape,
                var,
                body,
                ..
            }) => {
                let read_fixed = self.fixed(*index) && self.fixed(*shape);
                let before = self.bind(*var, fixed(read_fixed));
                let out = self.along(*body);
                self.unbind(*var, before);
                if read_fixed {
                    out
                } else {
                    Along::Varies
                }
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                ..
            }) => {
                let state = self.loop_state(vars, init, cond, step);
                fixed(state.is_some_and(|s| s.iter().all(|v| !v)))
            }
            e => fixed(e.children().into_iter().all(|c| self.fixed(c))),
        }
    }

    fn fixed(&self, h: H) -> bool {
        matches!(self.along(h), Along::Fixed)
    }

    /// Which of a loop's state variables vary along the row (each fixed
    /// unless its initial value or step reads one that varies), when its
    /// condition is fixed; `None` when it varies.
    fn loop_state(&self, vars: &[VarId], init: &[H], cond: &H, step: &[H]) -> Option<Vec<bool>> {
        let mut varies: Vec<bool> = init.iter().map(|x| !self.fixed(*x)).collect();
        let saved: Vec<Option<Along>> = vars.iter().map(|v| self.env.borrow().get(v).cloned()).collect();
        let result = loop {
            for (v, var) in vars.iter().zip(&varies) {
                self.bind(*v, fixed(!var));
            }
            let next: Vec<bool> = step
                .iter()
                .zip(&varies)
                .map(|(x, was)| *was || !self.fixed(*x))
                .collect();
            if next == varies {
                break self.fixed(*cond).then_some(varies);
            }
            varies = next;
        };
        for (v, before) in vars.iter().zip(saved) {
            self.unbind(*v, before);
        }
        result
    }

    /// How many loops in `h` run in lockstep (see [`RowLanes::lanes`]).
    fn lockstep_loops(&self, h: H) -> usize {
        let a = self.g.a;
        if !self.g.loops_in(h) || self.fixed(h) {
            return 0;
        }
        if let Some(branch) = self.decided(h) {
            return self.lockstep_loops(branch);
        }
        match a.expr(h) {
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let n = self.lockstep_loops(*value);
                let before = self.bind(*var, self.along(*value));
                let m = self.lockstep_loops(*body);
                self.unbind(*var, before);
                n + m
            }
            Expr::Scalar(Scalar::Proj(x, _)) => self.lockstep_loops(*x),
            e if strict(e) => e.children().into_iter().map(|x| self.lockstep_loops(x)).sum(),
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                ..
            }) => usize::from(self.loop_state(vars, init, cond, step).is_some()),
            _ => 0,
        }
    }

    /// The value of `h` in every lane: `[T; ROW_LANES]` when it varies, else
    /// the scalar value once (see [`RowLanes::lanes`]).
    fn emit(&self, h: H) -> (TokenStream, bool) {
        if self.fixed(h) {
            (self.once(h), false)
        } else {
            (self.lanes(h), true)
        }
    }

    /// `[T; ROW_LANES]`: the value of `h` in every lane. `let`s, projections
    /// and strict operations around loops keep their structure; a loop whose
    /// condition is the same along the row runs in lockstep; anything else
    /// (a branch, a loop whose trips vary) runs as the scalar code in each
    /// lane.
    fn lanes(&self, h: H) -> TokenStream {
        let a = self.g.a;
        let n = Literal::usize_unsuffixed(ROW_LANES);
        let t = rust_ty(a.ty(h));
        if self.fixed(h) {
            let x = self.once(h);
            return quote!([#x; #n]);
        }
        if !self.g.loops_in(h) {
            return self.per_lane(h);
        }
        if let Some(branch) = self.decided(h) {
            return self.lanes(branch);
        }
        match a.expr(h) {
            Expr::Scalar(Scalar::Let { var: v, value, body }) => {
                let (value_e, varies) = self.emit(*value);
                let vt = rust_ty(&a.var(*v).ty);
                let before_let = self.g.lets_in_scope.borrow_mut().insert(*v, *value);
                let before = self.bind(*v, fixed(!varies));
                if varies {
                    self.lanes.borrow_mut().push(*v);
                }
                let body = self.lanes(*body);
                if varies {
                    self.lanes.borrow_mut().pop();
                }
                self.unbind(*v, before);
                match before_let {
                    Some(x) => self.g.lets_in_scope.borrow_mut().insert(*v, x),
                    None => self.g.lets_in_scope.borrow_mut().remove(v),
                };
                let v = var(*v);
                if varies {
                    quote!({ let #v: [#vt; #n] = #value_e; #body })
                } else {
                    quote!({ let #v: #vt = #value_e; #body })
                }
            }
            Expr::Scalar(Scalar::Proj(x, k)) => {
                let name = self.fresh("p");
                let value = self.lanes(*x);
                let part = self.g.proj(*x, quote!(#name[__l]), *k);
                quote!({
                    let #name = #value;
                    let __r: [#t; #n] = ::core::array::from_fn(|__l| #part);
                    __r
                })
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                ..
            }) => match self.loop_state(vars, init, cond, step) {
                Some(varies) => self.lockstep(vars, init, *cond, step, &varies, &t),
                None => self.per_lane(h),
            },
            e if strict(e) => self.operands_first(h),
            _ => self.per_lane(h),
        }
    }

    /// A loop whose condition is the same along the row, run once for the
    /// group: the fixed state as scalars, the varying state per lane.
    fn lockstep(
        &self,
        vars: &[VarId],
        init: &[H],
        cond: H,
        step: &[H],
        varies: &[bool],
        t: &TokenStream,
    ) -> TokenStream {
        let a = self.g.a;
        let n = Literal::usize_unsuffixed(ROW_LANES);
        let vs: Vec<Ident> = vars.iter().map(|v| var(*v)).collect();
        let tys: Vec<TokenStream> = vars
            .iter()
            .zip(varies)
            .map(|(v, varies)| {
                let t = rust_ty(&a.var(*v).ty);
                if *varies {
                    quote!([#t; #n])
                } else {
                    t
                }
            })
            .collect();
        let inits: Vec<TokenStream> = init
            .iter()
            .zip(varies)
            .map(|(x, varies)| if *varies { self.lanes(*x) } else { self.once(*x) })
            .collect();
        let saved: Vec<Option<Along>> = vars
            .iter()
            .zip(varies)
            .map(|(v, varies)| self.bind(*v, fixed(!varies)))
            .collect();
        let depth = self.lanes.borrow().len();
        self.lanes
            .borrow_mut()
            .extend(vars.iter().zip(varies).filter(|(_, x)| **x).map(|(v, _)| *v));
        let c = self.once(cond);
        // As in the scalar loop: facts from the condition hold in the step.
        let facts = accel_core::plan::bounds::loop_bounds(a, vars, cond);
        let below = self.g.below.borrow().len();
        self.g.below.borrow_mut().extend(facts);
        let nexts: Vec<Ident> = vars.iter().map(|_| self.fresh("next")).collect();
        // Steps projecting one loop body compute it once per trip.
        let shared = a.shared_projections(step);
        let bodies: Vec<Ident> = shared.iter().map(|_| self.fresh("body")).collect();
        let body_values: Vec<(TokenStream, bool)> = shared.iter().map(|b| self.emit(*b)).collect();
        let steps: Vec<TokenStream> = step
            .iter()
            .zip(varies)
            .map(|(x, x_varies)| match a.expr(*x) {
                Expr::Scalar(Scalar::Proj(b, k)) if shared.contains(b) => {
                    let at = shared.iter().position(|s| s == b).unwrap_or(0);
                    let name = &bodies[at];
                    match (body_values[at].1, *x_varies) {
                        (true, _) => {
                            let part = self.g.proj(*b, quote!(#name[__l]), *k);
                            let t = rust_ty(a.ty(*x));
                            quote!({ let __r: [#t; #n] = ::core::array::from_fn(|__l| #part); __r })
                        }
                        (false, false) => self.g.proj(*b, quote!(#name), *k),
                        (false, true) => {
                            let part = self.g.proj(*b, quote!(#name), *k);
                            quote!([#part; #n])
                        }
                    }
                }
                _ if *x_varies => self.lanes(*x),
                _ => self.once(*x),
            })
            .collect();
        let body_values = body_values.into_iter().map(|(e, _)| e);
        self.g.below.borrow_mut().truncate(below);
        self.lanes.borrow_mut().truncate(depth);
        for (v, before) in vars.iter().zip(saved) {
            self.unbind(*v, before);
        }
        let parts = vs
            .iter()
            .zip(varies)
            .map(|(v, varies)| if *varies { quote!(#v[__l]) } else { quote!(#v) });
        quote!({
            #(let mut #vs: #tys = #inits;)*
            loop {
                if !(#c) {
                    break;
                }
                #(let #bodies = #body_values;)*
                #(let #nexts: #tys = #steps;)*
                #(#vs = #nexts;)*
            }
            let __r: [#t; #n] = ::core::array::from_fn(|__l| (#(#parts,)*));
            __r
        })
    }

    /// A strict operation (every operand computed, as a tuple's fields or
    /// `+`'s) with a loop in an operand: each operand in lanes (or once,
    /// when it is the same along the row), then the operation in each lane.
    fn operands_first(&self, h: H) -> TokenStream {
        let a = self.g.a;
        let n = Literal::usize_unsuffixed(ROW_LANES);
        let t = rust_ty(a.ty(h));
        // A tuple computes a body that several of its fields project once
        // (`Scalars::tuple`): that body is the operand, not the fields.
        let shared = match a.expr(h) {
            Expr::Scalar(Scalar::Tuple(xs)) => a.shared_projections(xs),
            _ => Vec::new(),
        };
        let operands = distinct(
            a.expr(h)
                .children()
                .into_iter()
                .map(|x| match a.expr(x) {
                    Expr::Scalar(Scalar::Proj(b, _)) if shared.contains(b) => *b,
                    _ => x,
                })
                .collect(),
        );
        let names: Vec<Ident> = operands.iter().map(|_| self.fresh("arg")).collect();
        let (values, varies): (Vec<TokenStream>, Vec<bool>) = operands.iter().map(|x| self.emit(*x)).unzip();
        // Named only now: an operand met inside another is emitted as itself.
        let before: Vec<Option<TokenStream>> = operands
            .iter()
            .zip(&names)
            .zip(&varies)
            .map(|((x, name), varies)| {
                let in_lane = if *varies {
                    quote!(#name[__l])
                } else {
                    quote!(#name)
                };
                self.g.lane_values.borrow_mut().insert(*x, in_lane)
            })
            .collect();
        let op = self.g.expr(h);
        for (x, b) in operands.iter().zip(before).rev() {
            match b {
                Some(v) => self.g.lane_values.borrow_mut().insert(*x, v),
                None => self.g.lane_values.borrow_mut().remove(x),
            };
        }
        quote!({
            #(let #names = #values;)*
            let __r: [#t; #n] = ::core::array::from_fn(|__l| #op);
            __r
        })
    }

    /// `h`, the same along the row, as scalar code once: the index is the
    /// group's first (its fixed components are every lane's).
    fn once(&self, h: H) -> TokenStream {
        let a = self.g.a;
        let p = var(self.param);
        let index = a.mentions(h, self.param).then(|| quote!(let #p = #p[0];));
        let x = self.g.expr(h);
        quote!({ #index #x })
    }

    /// `h` as the scalar code in each lane, the parts of it that every lane
    /// computes and that are the same along the row computed once before.
    fn per_lane(&self, h: H) -> TokenStream {
        let a = self.g.a;
        let n = Literal::usize_unsuffixed(ROW_LANES);
        let t = rust_ty(a.ty(h));
        let mut lifted = Vec::new();
        self.lifted(h, &mut lifted);
        let lifted = distinct(lifted);
        let names: Vec<Ident> = lifted.iter().map(|_| self.fresh("once")).collect();
        let values: Vec<TokenStream> = lifted.iter().map(|x| self.once(*x)).collect();
        let lanes: Vec<Ident> = self
            .lanes
            .borrow()
            .iter()
            .filter(|v| a.mentions(h, **v))
            .map(|v| var(*v))
            .collect();
        let before: Vec<Option<TokenStream>> = lifted
            .iter()
            .zip(&names)
            .map(|(x, name)| self.g.lane_values.borrow_mut().insert(*x, quote!(#name)))
            .collect();
        let scalar = self.g.expr(h);
        for (x, b) in lifted.iter().zip(before).rev() {
            match b {
                Some(name) => self.g.lane_values.borrow_mut().insert(*x, name),
                None => self.g.lane_values.borrow_mut().remove(x),
            };
        }
        quote!({
            #(let #names = #values;)*
            let __r: [#t; #n] = ::core::array::from_fn(|__l| { #(let #lanes = #lanes[__l];)* #scalar });
            __r
        })
    }

    /// The largest parts of `h` that are the same along the row, read
    /// memory, and that every evaluation of `h` computes: below strict
    /// operations only (not a branch, `&&`, `||`, a loop, or the body of a
    /// `let`, whose variable the lanes bind).
    fn lifted(&self, h: H, out: &mut Vec<H>) {
        let a = self.g.a;
        if self.fixed(h) {
            if accel_core::plan::bounds::touches_memory(a, h) && !self.g.loops_in(h) {
                out.push(h);
            }
            return;
        }
        match a.expr(h) {
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
                self.lifted(*x, out);
                if !matches!(op, BinOp::And | BinOp::Or) {
                    self.lifted(*y, out);
                }
            }
            Expr::Scalar(Scalar::Unary(_, x))
            | Expr::Scalar(Scalar::Cast(x, _))
            | Expr::Scalar(Scalar::Proj(x, _)) => self.lifted(*x, out),
            Expr::Scalar(Scalar::Math(_, xs))
            | Expr::Scalar(Scalar::Tuple(xs))
            | Expr::Scalar(Scalar::MakeIndex(xs)) => xs.iter().for_each(|x| self.lifted(*x, out)),
            Expr::Scalar(Scalar::Let { value, .. }) => self.lifted(*value, out),
            _ => {}
        }
    }
}

/// `xs` without repeats, in order (an expression met twice, as both of
/// `x * x`'s operands, gets one name).
fn distinct(xs: Vec<H>) -> Vec<H> {
    let mut out: Vec<H> = Vec::with_capacity(xs.len());
    for x in xs {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Whether `e` computes all of its operands, whatever their values: an
/// operation other than a branch, `&&`, `||`, a binding or a loop.
fn strict(e: &Expr) -> bool {
    match e {
        Expr::Scalar(Scalar::Binary(op, ..)) => !matches!(op, BinOp::And | BinOp::Or),
        Expr::Scalar(
            Scalar::Unary(..) | Scalar::Cast(..) | Scalar::Math(..) | Scalar::Tuple(_) | Scalar::MakeIndex(_),
        ) => true,
        _ => false,
    }
}

fn fixed(yes: bool) -> Along {
    if yes {
        Along::Fixed
    } else {
        Along::Varies
    }
}
