//! Lockstep lanes: an element function whose elements each run an arithmetic
//! `while` loop (a Mandelbrot pixel, a Newton iteration) is emitted a second
//! time for [`LANES`] neighbouring elements at once, for
//! `accel_runtime::cpu::generate_lanes`.
//!
//! Every value becomes an array `[T; LANES]`. The loops run while any lane is
//! live: each trip computes the condition and the step for every lane and
//! keeps the new state only in the live lanes, so the lanes' arithmetic is the
//! same instructions on neighbouring data, which LLVM packs into vector
//! registers (a scalar loop cannot be vectorised: its trip count depends on the
//! element). Everything that contains no loop is the scalar code, once per lane.
//!
//! Computing a dead lane's step is harmless only where the step cannot fail
//! or touch memory, so the transformation applies when no loop's condition or
//! step reads an array or asserts ([`Gen::lanes_pay`]); loops that read memory
//! gain little from vector arithmetic anyway. Nor may they call math functions
//! that are library calls (`exp`, `sin`): those run once per lane, dead lanes
//! included, so lockstep would cost more than it saves. Reads outside loops run
//! only in the lanes where the scalar code would run them: under a branch, a
//! lane outside the branch's mask skips them.
//!
//! A group costs as many trips as its longest element, where the scalar code
//! pays for each element's own trips: with the arithmetic in vector
//! registers, a trip of the group costs about what one element's does, so
//! lockstep never loses much and gains up to 4× (about 2.5× on
//! `mandelbrot_while`, `docs/bench/RESULTS.md`).

use super::{touches_memory, Gen};
use crate::host::{rust_ty, var, Scalars};
use accel_core::ir::{Expr, Scalar, VarId, H};
use accel_core::plan::ElemFn;
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

/// Elements per group: four `f32` lanes fill an SSE register, the baseline of
/// every x86-64 CPU (more lanes measured slower there: the groups diverge more).
pub(super) const LANES: usize = 4;

impl Gen<'_> {
    /// Whether element function `e` runs a loop and suits lanes: no loop's
    /// condition or step reads memory, asserts or calls a math function that
    /// is not a vector instruction ([`Gen::vector_math`]), and every loop sits under
    /// `let`s, tuples, projections, branches and other loops only, the forms
    /// `Lanes::expr` handles; and it has no `trace!`.
    pub(super) fn lanes_pay(&self, e: &ElemFn) -> bool {
        // A `trace!` prints one element's values, which lanes hold by eights.
        let traces = self.a.reaches(e.fun().body, |_, x| {
            matches!(x, Expr::Scalar(Scalar::Trace { .. }))
        });
        e.loops(self.a) && !traces && self.lane_form(e.fun().body)
    }

    fn lane_form(&self, h: H) -> bool {
        if !self.loops_in(h) {
            return true;
        }
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Let { value, body, .. }) => self.lane_form(*value) && self.lane_form(*body),
            Expr::Scalar(Scalar::Tuple(xs)) => xs.iter().all(|x| self.lane_form(*x)),
            Expr::Scalar(Scalar::Proj(x, _)) => self.lane_form(*x),
            Expr::Scalar(Scalar::If(c, t, e)) => {
                self.lane_form(*c) && self.lane_form(*t) && self.lane_form(*e)
            }
            Expr::Scalar(Scalar::While { init, cond, step, .. }) => {
                init.iter().all(|x| self.lane_form(*x))
                    && std::iter::once(cond)
                        .chain(step)
                        .all(|x| self.lane_form(*x) && !touches_memory(self.a, *x) && self.vector_math(*x))
            }
            _ => false,
        }
    }

    /// Whether `h` calls only math functions that x86-64's baseline vector
    /// instructions have. The others (`exp`, `sin`, `floor` before SSE4.1,
    /// `mul_add` without FMA) are calls, once per lane: a loop of them in
    /// lockstep would pay for its dead lanes too.
    fn vector_math(&self, h: H) -> bool {
        use accel_core::ir::MathFn::*;
        !self.a.reaches(h, |_, e| match e {
            Expr::Scalar(Scalar::Math(f, _)) => !matches!(
                f,
                Sqrt | Recip
                    | ToDegrees
                    | ToRadians
                    | Copysign
                    | IsNan
                    | IsInfinite
                    | IsFinite
                    | IsNormal
                    | IsSignNegative
                    | IsSignPositive
                    | ToBits
                    | FromBits
                    | Abs
                    | Signum
                    | Min
                    | Max
                    | Clamp
                    | WrappingAdd
                    | WrappingSub
                    | WrappingMul
                    | WrappingNeg
                    | SaturatingAdd
                    | SaturatingSub
                    | AbsDiff
                    | IsPositive
                    | IsNegative
                    | RotateLeft
                    | RotateRight
            ),
            _ => false,
        })
    }

    pub(super) fn loops_in(&self, h: H) -> bool {
        self.a
            .reaches(h, |_, e| matches!(e, Expr::Scalar(Scalar::While { .. })))
    }

    /// `|__i0: usize| -> [T; LANES]`: elements `__i0..__i0 + LANES` of element
    /// function `e` over an iteration space of shape `shape`.
    pub(super) fn lanes_closure(&self, e: &ElemFn, shape: &Ident) -> TokenStream {
        let rt = self.rt;
        let f = e.fun();
        let p = var(f.params[0]);
        let n = Literal::usize_unsuffixed(LANES);
        let bind = match e {
            ElemFn::Linear(_) => quote!(let #p: [usize; #n] = ::core::array::from_fn(|__l| __i0 + __l);),
            ElemFn::Index(_) => quote! {
                let #p = ::core::array::from_fn::<_, #n, _>(|__l| #rt::cpu::index_at(&#shape, __i0 + __l));
            },
        };
        let lanes = Lanes {
            g: self,
            varying: std::cell::RefCell::new(vec![f.params[0]]),
        };
        let body = lanes.expr(f.body, None);
        let t = rust_ty(self.a.ty(f.body));
        quote!(|__i0: usize| -> [#t; #n] { #bind #body })
    }
}

/// The lane emitter: `varying` are the variables in scope that hold one
/// value per lane (`[T; LANES]`); the others are the kernel's scalars.
struct Lanes<'g, 'a> {
    g: &'g Gen<'a>,
    varying: std::cell::RefCell<Vec<VarId>>,
}

impl Lanes<'_, '_> {
    fn fresh(&self, what: &str) -> Ident {
        let n = self.g.fresh.get();
        self.g.fresh.set(n + 1);
        format_ident!("__{}{}", what, n)
    }

    /// `[T; LANES]`: the value of `h` in every lane. `mask` names the lanes
    /// whose value is used (`None`: all); the others compute only what
    /// cannot fail.
    fn expr(&self, h: H, mask: Option<&Ident>) -> TokenStream {
        let n = Literal::usize_unsuffixed(LANES);
        let t = rust_ty(self.g.a.ty(h));
        if !self.g.loops_in(h) {
            return self.per_lane(h, mask);
        }
        match self.g.a.expr(h) {
            Expr::Scalar(Scalar::Let { var: v, value, body }) => {
                let value_e = self.expr(*value, mask);
                let vt = rust_ty(&self.g.a.var(*v).ty);
                // The scalar code's checks look through `let`s, as there.
                let before = self.g.lets_in_scope.borrow_mut().insert(*v, *value);
                self.varying.borrow_mut().push(*v);
                let body = self.expr(*body, mask);
                self.varying.borrow_mut().pop();
                match before {
                    Some(x) => self.g.lets_in_scope.borrow_mut().insert(*v, x),
                    None => self.g.lets_in_scope.borrow_mut().remove(v),
                };
                let v = var(*v);
                quote!({ let #v: [#vt; #n] = #value_e; #body })
            }
            Expr::Scalar(Scalar::Tuple(xs)) => {
                let names: Vec<Ident> = xs.iter().map(|_| self.fresh("t")).collect();
                let values = xs.iter().map(|x| self.expr(*x, mask));
                quote!({
                    #(let #names = #values;)*
                    let __r: [#t; #n] = ::core::array::from_fn(|__l| (#(#names[__l],)*));
                    __r
                })
            }
            Expr::Scalar(Scalar::Proj(x, k)) => {
                let name = self.fresh("p");
                let value = self.expr(*x, mask);
                let part = self.g.proj(*x, quote!(#name[__l]), *k);
                quote!({
                    let #name = #value;
                    let __r: [#t; #n] = ::core::array::from_fn(|__l| #part);
                    __r
                })
            }
            Expr::Scalar(Scalar::If(c, then, other)) => {
                let (cn, mt, me) = (self.fresh("c"), self.fresh("m"), self.fresh("m"));
                let cond = self.expr(*c, mask);
                let (in_then, in_else) = match mask {
                    Some(m) => (quote!(#m[__l] & #cn[__l]), quote!(#m[__l] & !#cn[__l])),
                    None => (quote!(#cn[__l]), quote!(!#cn[__l])),
                };
                let (te, ee) = (self.expr(*then, Some(&mt)), self.expr(*other, Some(&me)));
                quote!({
                    let #cn: [bool; #n] = #cond;
                    let #mt: [bool; #n] = ::core::array::from_fn(|__l| #in_then);
                    let #me: [bool; #n] = ::core::array::from_fn(|__l| #in_else);
                    let (__t, __e): ([#t; #n], [#t; #n]) = (#te, #ee);
                    let __r: [#t; #n] = ::core::array::from_fn(|__l| if #cn[__l] { __t[__l] } else { __e[__l] });
                    __r
                })
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                ..
            }) => self.while_loop(vars, init, *cond, step, mask, &t),
            _ => quote!(compile_error!(
                "accel internal error: a loop outside the lane forms"
            )),
        }
    }

    /// A loop run while any lane in `mask` is live: each trip computes the
    /// next state in every lane and keeps it in the live ones.
    fn while_loop(
        &self,
        vars: &[VarId],
        init: &[H],
        cond: H,
        step: &[H],
        mask: Option<&Ident>,
        t: &TokenStream,
    ) -> TokenStream {
        let n = Literal::usize_unsuffixed(LANES);
        let live = self.fresh("live");
        let vs: Vec<Ident> = vars.iter().map(|v| var(*v)).collect();
        let tys: Vec<TokenStream> = vars.iter().map(|v| rust_ty(&self.g.a.var(*v).ty)).collect();
        let inits: Vec<TokenStream> = init.iter().map(|x| self.expr(*x, mask)).collect();
        let start = match mask {
            Some(m) => quote!(#m),
            None => quote!([true; #n]),
        };
        let depth = self.varying.borrow().len();
        self.varying.borrow_mut().extend(vars);
        let c = self.expr(cond, Some(&live));
        // As in the scalar loop: facts from the condition hold in the step.
        let facts = accel_core::plan::bounds::loop_bounds(self.g.a, vars, cond);
        let below = self.g.below.borrow().len();
        self.g.below.borrow_mut().extend(facts);
        let nexts: Vec<Ident> = vars.iter().map(|_| self.fresh("next")).collect();
        // Steps projecting one loop body compute it once per trip.
        let shared = self.g.a.shared_projections(step);
        let bodies: Vec<Ident> = shared.iter().map(|_| self.fresh("body")).collect();
        let body_values: Vec<TokenStream> = shared.iter().map(|b| self.expr(*b, Some(&live))).collect();
        let steps: Vec<TokenStream> = step
            .iter()
            .map(|x| match self.g.a.expr(*x) {
                Expr::Scalar(Scalar::Proj(b, k)) if shared.contains(b) => {
                    let name = &bodies[shared.iter().position(|s| s == b).unwrap_or(0)];
                    let part = self.g.proj(*b, quote!(#name[__l]), *k);
                    let t = rust_ty(self.g.a.ty(*x));
                    quote!({ let __r: [#t; #n] = ::core::array::from_fn(|__l| #part); __r })
                }
                _ => self.expr(*x, Some(&live)),
            })
            .collect();
        self.g.below.borrow_mut().truncate(below);
        self.varying.borrow_mut().truncate(depth);
        quote!({
            #(let mut #vs: [#tys; #n] = #inits;)*
            let mut #live: [bool; #n] = #start;
            loop {
                let __c: [bool; #n] = #c;
                #live = ::core::array::from_fn(|__l| #live[__l] & __c[__l]);
                if !#live.iter().fold(false, |__a, __b| __a | *__b) {
                    break;
                }
                #(let #bodies = #body_values;)*
                #(let #nexts: [#tys; #n] = #steps;)*
                #(#vs = ::core::array::from_fn(|__l| if #live[__l] { #nexts[__l] } else { #vs[__l] });)*
            }
            let __r: [#t; #n] = ::core::array::from_fn(|__l| (#(#vs[__l],)*));
            __r
        })
    }

    /// `h`, which runs no loop, as the scalar code in each lane; under a
    /// mask, a lane outside it skips what may read memory or fail (and takes
    /// a default value that is never used).
    fn per_lane(&self, h: H, mask: Option<&Ident>) -> TokenStream {
        let n = Literal::usize_unsuffixed(LANES);
        let t = rust_ty(self.g.a.ty(h));
        let lanes: Vec<Ident> = self
            .varying
            .borrow()
            .iter()
            .filter(|v| self.g.a.mentions(h, **v))
            .map(|v| var(*v))
            .collect();
        let before = self.g.eager_logic.replace(true);
        let scalar = self.g.expr(h);
        self.g.eager_logic.set(before);
        let body = quote!({ #(let #lanes = #lanes[__l];)* #scalar });
        let body = match mask {
            Some(m) if touches_memory(self.g.a, h) => {
                quote!(if #m[__l] { #body } else { ::core::default::Default::default() })
            }
            _ => body,
        };
        quote!({
            let __r: [#t; #n] = ::core::array::from_fn(|__l| #body);
            __r
        })
    }
}
