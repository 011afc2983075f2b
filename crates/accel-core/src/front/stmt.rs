//! Blocks and statements. Mutable locals become single-assignment variables:
//! each assignment binds a fresh variable for the rest of the block, and a
//! `while` loop or an `if` statement that assigns variables evaluates to the tuple
//! of their new values, which the rest of the block then binds.

use super::{Binding, BindingKind, Lowerer};
use crate::error::{err, CResult};
use crate::ir::{BinOp, Expr, Scalar, Ty, VarId, H};
use proc_macro2::Span;
use std::collections::BTreeSet;
use std::rc::Rc;
use syn::spanned::Spanned;
use syn::visit::Visit;

/// What a statement list evaluates to.
pub(crate) enum Tail<'t> {
    /// The block's final expression, of the expected type if known.
    Value(Option<&'t Ty>, Span),
    /// The tuple of the current values of these mutable variables (a loop body or
    /// the branch of an `if` statement), with their declarations (`decls`).
    State(&'t [String], &'t [u32]),
}

impl Lowerer<'_> {
    pub(crate) fn block(&mut self, b: &syn::Block, expected: Option<&Ty>) -> CResult<H> {
        let mark = self.scope.len();
        let r = self.stmts(&b.stmts, &Tail::Value(expected, b.span()));
        self.scope.truncate(mark);
        r
    }

    pub(crate) fn stmts(&mut self, stmts: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        let Some((first, rest)) = stmts.split_first() else {
            return match tail {
                Tail::Value(_, span) => err(*span, "this block has no value: end it with an expression"),
                Tail::State(names, decls) => self.state_tuple(names, decls),
            };
        };
        match first {
            syn::Stmt::Local(local) => self.let_stmt(local, rest, tail),
            // An empty statement (a stray `;`), which syn holds as an empty
            // verbatim expression with no span of its own.
            syn::Stmt::Expr(syn::Expr::Verbatim(ts), Some(_)) if ts.is_empty() => self.stmts(rest, tail),
            syn::Stmt::Expr(e, semi) => {
                if rest.is_empty() && semi.is_none() {
                    if let Tail::Value(expected, _) = tail {
                        return self.expr(e, *expected);
                    }
                }
                self.effect_stmt(e, rest, tail)
            }
            syn::Stmt::Item(item) => err(item.span(), "items (fn, struct, use, ...) cannot be declared inside an accel function; put helper functions in the same `acc!` block"),
            syn::Stmt::Macro(m) if m.mac.path.is_ident("trace") => self.trace_stmt(&m.mac, rest, tail),
            syn::Stmt::Macro(m) => err(
                m.span(),
                "macros cannot be used inside an accel function (only `trace!(\"..\", args..)`, which prints while debugging)",
            ),
        }
    }

    /// `trace!("x = {}, pair = {:?}", x, p);` then the rest of the block: a
    /// message printed while debugging (see `Scalar::Trace`). Scalar code
    /// only: the arguments are scalars, and so is the block's value.
    fn trace_stmt(&mut self, mac: &syn::Macro, rest: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        let parts =
            mac.parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)?;
        let mut parts = parts.iter();
        let fmt = match parts.next() {
            Some(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) => s,
            Some(e) => {
                return err(
                    e.span(),
                    "`trace!` takes a format string first, as `println!` does",
                )
            }
            None => {
                return err(
                    mac.span(),
                    "`trace!` takes a format string: `trace!(\"x = {}\", x)`",
                )
            }
        };
        let holes = placeholders(&fmt.value()).map_err(|m| crate::error::CompileError::new(fmt.span(), m))?;
        let args: Vec<&syn::Expr> = parts.collect();
        if args.len() != holes.len() {
            return err(
                fmt.span(),
                format!(
                    "this format string has {} placeholder{} but `trace!` has {} argument{}",
                    holes.len(),
                    super::expr::plural(holes.len()),
                    args.len(),
                    super::expr::plural(args.len())
                ),
            );
        }
        let mut hs = Vec::new();
        for (a, debug) in args.iter().zip(holes) {
            let h = self.expr(a, None)?;
            match self.arena.ty(h) {
                Ty::Prim(_) => {}
                t @ (Ty::Tuple(_) | Ty::Index(_)) if debug && printable(t) => {}
                t => {
                    let how = if debug {
                        ""
                    } else {
                        " (tuples and indices with `{:?}`)"
                    };
                    return err(
                        a.span(),
                        format!("`trace!` prints numbers, `bool`s, tuples and indices{how}, found `{t}`"),
                    );
                }
            }
            hs.push(h);
        }
        let body = self.stmts(rest, tail)?;
        if matches!(self.arena.ty(body), Ty::Array(..)) {
            return err(
                mac.span(),
                "`trace!` prints from scalar code (closures, scalar `let`s and loops); print arrays after the program returns",
            );
        }
        let ty = self.arena.ty(body).clone();
        Ok(self.arena.add(
            Expr::Scalar(Scalar::Trace {
                fmt: fmt.value(),
                args: hs,
                body,
            }),
            ty,
            mac.span(),
        ))
    }

    fn state_tuple(&mut self, names: &[String], decls: &[u32]) -> CResult<H> {
        let mut xs = Vec::new();
        let mut tys = Vec::new();
        for (n, d) in names.iter().zip(decls) {
            // Not an inner `let` of the same name: the variable assigned.
            let found = self.scope.iter().rev().find(|b| &b.name == n && b.decl == *d);
            let Some(Binding {
                kind: BindingKind::Var(v),
                ..
            }) = found.cloned()
            else {
                return err(Span::call_site(), format!("loop state `{n}` is not a variable"));
            };
            let h = self.arena.var_ref(v);
            tys.push(self.arena.ty(h).clone());
            xs.push(h);
        }
        Ok(self
            .arena
            .add(Expr::Scalar(Scalar::Tuple(xs)), Ty::Tuple(tys), Span::call_site()))
    }

    fn let_stmt(&mut self, local: &syn::Local, rest: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        let Some(init) = &local.init else {
            return err(
                local.span(),
                "`let` needs a value: accel variables are always initialised",
            );
        };
        if let Some((else_tok, _)) = &init.diverge {
            return err(else_tok.span(), "`let ... else` is not supported");
        }
        let (pat, annot) = match &local.pat {
            syn::Pat::Type(pt) => (&*pt.pat, Some(super::lower_type(&pt.ty)?)),
            p => (p, None),
        };
        // A closure bound to a name is kept as syntax and inlined at each use.
        if let (syn::Expr::Closure(c), syn::Pat::Ident(pi)) = (&*init.expr, pat) {
            let mark = self.scope.len();
            let captured = self.scope.clone();
            self.scope.push(Binding {
                name: pi.ident.to_string(),
                kind: BindingKind::Closure(Rc::new((c.clone(), captured))),
                mutable: false,
                decl: u32::MAX,
            });
            let r = self.stmts(rest, tail);
            self.scope.truncate(mark);
            return r;
        }
        if let (None, syn::Pat::Ident(pi)) = (&annot, pat) {
            if pi.mutability.is_none() && super::expr::unsuffixed_literal(&init.expr) {
                let mark = self.scope.len();
                self.scope.push(Binding {
                    name: pi.ident.to_string(),
                    kind: BindingKind::Literal(Rc::new((*init.expr).clone())),
                    mutable: false,
                    decl: u32::MAX,
                });
                let r = self.stmts(rest, tail);
                self.scope.truncate(mark);
                return r;
            }
        }
        let value = self.expr(&init.expr, annot.as_ref())?;
        if let Some(t) = &annot {
            self.expect_ty(value, t, init.expr.span())?;
        }
        let ty = self.arena.ty(value).clone();
        let mark = self.scope.len();
        let mut lets = Vec::new();
        self.bind_pat(pat, &ty, value, &mut lets, true)?;
        let body = self.stmts(rest, tail);
        self.scope.truncate(mark);
        Ok(self.wrap_lets(lets, body?))
    }

    pub(crate) fn wrap_lets(&mut self, lets: Vec<(VarId, H)>, mut body: H) -> H {
        for (v, value) in lets.into_iter().rev() {
            body = self.let_if_used(v, value, body);
        }
        body
    }

    /// `let v = value; body`, or just `body` when it never reads `v`: a value
    /// that is never used is never computed (so its errors are not reported),
    /// the same in the interpreter and in compiled code.
    pub(crate) fn let_if_used(&mut self, v: VarId, value: H, body: H) -> H {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![body];
        while let Some(h) = stack.pop() {
            if !seen.insert(h) {
                continue;
            }
            let e = self.arena.expr(h);
            if e == &Expr::Scalar(Scalar::Var(v)) {
                return self.arena.let_(v, value, body);
            }
            stack.extend(e.children());
        }
        body
    }

    /// Binds the names of `pat` to (parts of) `value`, recording the `let`s that
    /// must wrap the code in their scope.
    pub(crate) fn bind_pat(
        &mut self,
        pat: &syn::Pat,
        ty: &Ty,
        value: H,
        lets: &mut Vec<(VarId, H)>,
        allow_mut: bool,
    ) -> CResult<()> {
        match pat {
            syn::Pat::Ident(pi) => {
                if pi.by_ref.is_some() || pi.subpat.is_some() {
                    return err(pi.span(), "`ref` and `@` patterns are not supported");
                }
                let mutable = pi.mutability.is_some();
                if mutable && !allow_mut {
                    return err(pi.span(), "closure parameters cannot be `mut`");
                }
                let name = pi.ident.to_string();
                let v = self.arena.new_var(&name, ty.clone());
                lets.push((v, value));
                self.bind(&name, v, mutable);
                Ok(())
            }
            syn::Pat::Wild(_) => Ok(()),
            syn::Pat::Paren(p) => self.bind_pat(&p.pat, ty, value, lets, allow_mut),
            syn::Pat::Reference(r) => self.bind_pat(&r.pat, ty, value, lets, allow_mut),
            syn::Pat::Type(pt) => {
                let want = super::lower_type(&pt.ty)?;
                if &want != ty {
                    return err(
                        pt.ty.span(),
                        format!("mismatched types: expected `{ty}`, found `{want}`"),
                    );
                }
                self.bind_pat(&pt.pat, ty, value, lets, allow_mut)
            }
            syn::Pat::Tuple(tp) => {
                let Ty::Tuple(ts) = ty else {
                    return err(
                        tp.span(),
                        format!("a tuple pattern cannot match a value of type `{ty}`"),
                    );
                };
                if ts.len() != tp.elems.len() {
                    return err(
                        tp.span(),
                        format!(
                            "this pattern has {} fields but the value `{ty}` has {}",
                            tp.elems.len(),
                            ts.len()
                        ),
                    );
                }
                let ts = ts.clone();
                let whole = self.whole_var(value, ty, lets);
                for (i, (p, t)) in tp.elems.iter().zip(&ts).enumerate() {
                    let part = self.arena.proj(whole, i);
                    debug_assert_eq!(self.arena.ty(part), t);
                    self.bind_pat(p, t, part, lets, allow_mut)?;
                }
                Ok(())
            }
            syn::Pat::Slice(sp) => {
                let Ty::Index(r) = ty else {
                    return err(
                        sp.span(),
                        format!("an index pattern `[i, ..]` cannot match a value of type `{ty}`"),
                    );
                };
                if *r != sp.elems.len() {
                    return err(
                        sp.span(),
                        format!(
                            "this index pattern has {} components but the index has rank {r}",
                            sp.elems.len()
                        ),
                    );
                }
                let whole = self.whole_var(value, ty, lets);
                for (i, p) in sp.elems.iter().enumerate() {
                    let part = self.arena.proj(whole, i);
                    self.bind_pat(p, &Ty::Prim(crate::ir::Prim::Usize), part, lets, allow_mut)?;
                }
                Ok(())
            }
            other => err(
                other.span(),
                "unsupported pattern; use a name, `_`, a tuple `(a, b)` or an index `[i, j]`",
            ),
        }
    }

    /// A variable holding `value`, so that destructuring projects from a variable
    /// rather than recomputing the value.
    fn whole_var(&mut self, value: H, ty: &Ty, lets: &mut Vec<(VarId, H)>) -> H {
        if matches!(self.arena.expr(value), Expr::Scalar(Scalar::Var(_))) {
            return value;
        }
        let v = self.arena.new_var("t", ty.clone());
        lets.push((v, value));
        self.arena.var_ref(v)
    }

    /// A statement that is not a `let`: an assignment, a loop, an `if` that
    /// assigns, or an expression whose value is dropped.
    fn effect_stmt(&mut self, e: &syn::Expr, rest: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        match e {
            syn::Expr::Assign(a) => {
                let name = self.assigned_name(&a.left)?;
                let (old, ty) = self.mutable_var(&name, a.left.span())?;
                let _ = old;
                let value = self.expr(&a.right, Some(&ty))?;
                self.expect_ty(value, &ty, a.right.span())?;
                self.rebind(&name, ty, value, rest, tail)
            }
            syn::Expr::Binary(b) if compound_op(&b.op).is_some() => {
                let op = compound_op(&b.op).unwrap_or(BinOp::Add);
                let name = self.assigned_name(&b.left)?;
                let (old, ty) = self.mutable_var(&name, b.left.span())?;
                let old_h = self.arena.var_ref(old);
                let value = self.binary_with_lhs(op, old_h, &b.right, b.span(), b.left.span())?;
                self.expect_ty(value, &ty, b.span())?;
                self.rebind(&name, ty, value, rest, tail)
            }
            syn::Expr::While(w) => {
                if let Some(l) = &w.label {
                    return err(l.span(), "loop labels are not supported");
                }
                let names = self.assigned_in(&w.body);
                let mut vars = Vec::new();
                let mut init = Vec::new();
                let mark = self.scope.len();
                for n in &names {
                    let (v, ty) = self.mutable_var(n, w.span())?;
                    init.push(self.arena.var_ref(v));
                    vars.push(self.arena.new_var(n, ty));
                }
                let decls = self.decls(&names);
                for (n, v) in names.iter().zip(&vars) {
                    self.bind_again(n, *v);
                }
                let cond = self.expr(&w.cond, Some(&Ty::Prim(crate::ir::Prim::Bool)))?;
                self.expect_ty(cond, &Ty::Prim(crate::ir::Prim::Bool), w.cond.span())?;
                let body = self.stmts(&w.body.stmts, &Tail::State(&names, &decls));
                self.scope.truncate(mark);
                let body = body?;
                let step = (0..names.len())
                    .map(|i| self.arena.proj(body, i))
                    .collect::<Vec<_>>();
                let tys = vars.iter().map(|v| self.arena.var(*v).ty.clone()).collect();
                let lp = self.arena.add(
                    Expr::Scalar(Scalar::While {
                        vars,
                        init,
                        cond,
                        step,
                        pulls: vec![],
                    }),
                    Ty::Tuple(tys),
                    w.span(),
                );
                self.rebind_all(&names, lp, rest, tail)
            }
            syn::Expr::If(i) => {
                let names = self.assigned_in_if(i);
                if names.is_empty() {
                    // An `if` without assignments has no effect; still check it.
                    self.if_stmt(i, &[])?;
                    return self.stmts(rest, tail);
                }
                let v = self.if_stmt(i, &names)?;
                self.rebind_all(&names, v, rest, tail)
            }
            syn::Expr::Match(m) => {
                let names = self.assigned_in_match(m);
                let v = self.match_stmt(m, &names)?;
                if names.is_empty() {
                    return self.stmts(rest, tail);
                }
                self.rebind_all(&names, v, rest, tail)
            }
            syn::Expr::ForLoop(f) => self.for_loop(f, rest, tail),
            syn::Expr::Loop(l) => err(
                l.loop_token.span(),
                "`loop` is not supported; use `while cond { .. }`",
            ),
            other => {
                // A value computed and dropped: check it, then go on.
                self.expr(other, None)?;
                self.stmts(rest, tail)
            }
        }
    }

    /// `for i in a..b { body }`: a `while` loop over a hidden counter that runs
    /// from `a` while it is below `b` (evaluated once, before the loop).
    fn for_loop(&mut self, f: &syn::ExprForLoop, rest: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        if let Some(l) = &f.label {
            return err(l.span(), "loop labels are not supported");
        }
        let syn::Expr::Range(range) = &*f.expr else {
            return err(
                f.expr.span(),
                "`for` loops run over a range `a..b` of integers only",
            );
        };
        let (Some(start), Some(end)) = (&range.start, &range.end) else {
            return err(range.span(), "a `for` range needs both bounds: `a..b`");
        };
        if let syn::RangeLimits::Closed(t) = &range.limits {
            return err(
                t.span(),
                "only half-open ranges `a..b` are supported; write `a..b + 1`",
            );
        }
        let loop_var = match &*f.pat {
            syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() && pi.mutability.is_none() => {
                Some(pi.ident.to_string())
            }
            syn::Pat::Wild(_) => None,
            other => {
                return err(
                    other.span(),
                    "the loop variable of a `for` is a plain name or `_`",
                )
            }
        };
        // The bounds take each other's type when one is an unsuffixed literal.
        let (s, e) = if super::expr::unsuffixed_literal(start) {
            let e = self.expr(end, None)?;
            let t = self.arena.ty(e).clone();
            (self.expr(start, Some(&t))?, e)
        } else {
            let s = self.expr(start, None)?;
            let t = self.arena.ty(s).clone();
            (s, self.expr(end, Some(&t))?)
        };
        let ty = self.arena.ty(s).clone();
        if !ty.prim().is_some_and(|p| p.is_int()) {
            return err(
                start.span(),
                format!("a `for` range runs over integers, found `{ty}`"),
            );
        }
        self.expect_ty(e, &ty, end.span())?;
        let names = self.assigned_in(&f.body);
        let end_var = self.arena.new_var("end", ty.clone());
        let end_h = self.arena.var_ref(end_var);
        let counter = self.arena.new_var(loop_var.as_deref().unwrap_or("i"), ty.clone());
        let counter_h = self.arena.var_ref(counter);
        let mut vars = vec![counter];
        let mut init = vec![s];
        let mark = self.scope.len();
        for n in &names {
            let (v, vty) = self.mutable_var(n, f.span())?;
            init.push(self.arena.var_ref(v));
            vars.push(self.arena.new_var(n, vty));
        }
        let decls = self.decls(&names);
        for (n, v) in names.iter().zip(&vars[1..]) {
            self.bind_again(n, *v);
        }
        if let Some(n) = &loop_var {
            self.bind(n, counter, false);
        }
        let cond = self.arena.binary(BinOp::Lt, counter_h, end_h);
        let body = self.stmts(&f.body.stmts, &Tail::State(&names, &decls));
        self.scope.truncate(mark);
        let body = body?;
        let one = self.one_of(&ty);
        let mut step = vec![self.arena.binary(BinOp::Add, counter_h, one)];
        step.extend((0..names.len()).map(|i| self.arena.proj(body, i)));
        let tys = vars.iter().map(|v| self.arena.var(*v).ty.clone()).collect();
        let lp = self.arena.add(
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls: vec![],
            }),
            Ty::Tuple(tys),
            f.span(),
        );
        // Only the assigned variables are visible after the loop. The loop is
        // bound once and projected: the IR is a DAG but back ends emit trees,
        // so projecting `lp` itself would run the loop once per field.
        let lp_ty = self.arena.ty(lp).clone();
        let done = self.arena.new_var("loop", lp_ty);
        let done_h = self.arena.var_ref(done);
        let fields: Vec<H> = (0..names.len()).map(|i| self.arena.proj(done_h, i + 1)).collect();
        let tys = fields.iter().map(|x| self.arena.ty(*x).clone()).collect();
        let state = self
            .arena
            .add(Expr::Scalar(Scalar::Tuple(fields)), Ty::Tuple(tys), f.span());
        let r = self.rebind_all(&names, state, rest, tail)?;
        let r = self.arena.let_(done, lp, r);
        Ok(self.arena.let_(end_var, e, r))
    }

    fn one_of(&mut self, ty: &Ty) -> H {
        let p = ty.prim().unwrap_or(crate::ir::Prim::I32);
        self.arena.lit(p, 1)
    }

    /// An `if` statement that assigns `names`: evaluates to their new values.
    fn if_stmt(&mut self, i: &syn::ExprIf, names: &[String]) -> CResult<H> {
        let bool_ty = Ty::Prim(crate::ir::Prim::Bool);
        let cond = self.expr(&i.cond, Some(&bool_ty))?;
        self.expect_ty(cond, &bool_ty, i.cond.span())?;
        let mark = self.scope.len();
        let decls = self.decls(names);
        let then = self.stmts(&i.then_branch.stmts, &Tail::State(names, &decls));
        self.scope.truncate(mark);
        let then = then?;
        let els = match i.else_branch.as_ref().map(|(_, e)| &**e) {
            None => self.state_tuple(names, &decls)?,
            Some(syn::Expr::Block(b)) => {
                let r = self.stmts(&b.block.stmts, &Tail::State(names, &decls));
                self.scope.truncate(mark);
                r?
            }
            Some(syn::Expr::If(inner)) => self.if_stmt(inner, names)?,
            Some(other) => return err(other.span(), "expected a block or `else if`"),
        };
        let ty = self.arena.ty(then).clone();
        Ok(self
            .arena
            .add(Expr::Scalar(Scalar::If(cond, then, els)), ty, i.span()))
    }

    fn assigned_name(&self, e: &syn::Expr) -> CResult<String> {
        match e {
            syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                Ok(p.path.get_ident().map(|i| i.to_string()).unwrap_or_default())
            }
            other => err(other.span(), "only local variables can be assigned (`x = ..`)"),
        }
    }

    fn mutable_var(&self, name: &str, span: Span) -> CResult<(VarId, Ty)> {
        let pos = self.scope.iter().rposition(|b| b.name == name);
        if pos.is_some_and(|p| p < self.closure_base) {
            return err(
                span,
                format!("a closure cannot assign `{name}`, a variable of the enclosing function: closures compute each element independently"),
            );
        }
        match self.lookup(name) {
            Some(Binding {
                kind: BindingKind::Var(v),
                mutable: true,
                ..
            }) => Ok((*v, self.arena.var(*v).ty.clone())),
            Some(_) => err(
                span,
                format!("cannot assign twice to immutable variable `{name}`; declare it `let mut`"),
            ),
            None => err(span, format!("cannot find value `{name}` in this scope")),
        }
    }

    /// Binds `name` to `value` (a fresh variable) for the rest of the block.
    fn rebind(&mut self, name: &str, ty: Ty, value: H, rest: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        let v = self.arena.new_var(name, ty);
        let mark = self.scope.len();
        self.bind_again(name, v);
        let body = self.stmts(rest, tail);
        self.scope.truncate(mark);
        let body = body?;
        Ok(self.let_if_used(v, value, body))
    }

    /// Binds each of `names` to the matching field of the tuple `value`.
    fn rebind_all(&mut self, names: &[String], value: H, rest: &[syn::Stmt], tail: &Tail) -> CResult<H> {
        let ty = self.arena.ty(value).clone();
        let whole = self.arena.new_var("state", ty);
        let whole_h = self.arena.var_ref(whole);
        let mark = self.scope.len();
        let mut lets = vec![(whole, value)];
        for (i, n) in names.iter().enumerate() {
            let part = self.arena.proj(whole_h, i);
            let v = self.arena.new_var(n, self.arena.ty(part).clone());
            lets.push((v, part));
            self.bind_again(n, v);
        }
        let body = self.stmts(rest, tail);
        self.scope.truncate(mark);
        Ok(self.wrap_lets(lets, body?))
    }

    /// Mutable variables of the enclosing scope assigned anywhere in `b`.
    fn assigned_in(&self, b: &syn::Block) -> Vec<String> {
        let mut found = Assigned::default();
        found.visit_block(b);
        self.keep_mutable(found.names)
    }

    fn assigned_in_if(&self, i: &syn::ExprIf) -> Vec<String> {
        let mut found = Assigned::default();
        found.visit_expr_if(i);
        self.keep_mutable(found.names)
    }

    fn assigned_in_match(&self, m: &syn::ExprMatch) -> Vec<String> {
        let mut found = Assigned::default();
        found.visit_expr_match(m);
        self.keep_mutable(found.names)
    }

    fn keep_mutable(&self, names: BTreeSet<String>) -> Vec<String> {
        names
            .into_iter()
            .filter(|n| matches!(self.lookup(n), Some(Binding { mutable: true, .. })))
            .collect()
    }
}

fn compound_op(op: &syn::BinOp) -> Option<BinOp> {
    Some(match op {
        syn::BinOp::AddAssign(_) => BinOp::Add,
        syn::BinOp::SubAssign(_) => BinOp::Sub,
        syn::BinOp::MulAssign(_) => BinOp::Mul,
        syn::BinOp::DivAssign(_) => BinOp::Div,
        syn::BinOp::RemAssign(_) => BinOp::Rem,
        syn::BinOp::BitAndAssign(_) => BinOp::BitAnd,
        syn::BinOp::BitOrAssign(_) => BinOp::BitOr,
        syn::BinOp::BitXorAssign(_) => BinOp::BitXor,
        syn::BinOp::ShlAssign(_) => BinOp::Shl,
        syn::BinOp::ShrAssign(_) => BinOp::Shr,
        _ => return None,
    })
}

/// Collects the names assigned (`x = ..`, `x += ..`) in a piece of syntax,
/// not looking into closures (which cannot assign outer variables).
#[derive(Default)]
struct Assigned {
    names: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for Assigned {
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        if let syn::Expr::Path(p) = &*a.left {
            if let Some(i) = p.path.get_ident() {
                self.names.insert(i.to_string());
            }
        }
        syn::visit::visit_expr_assign(self, a);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if compound_op(&b.op).is_some() {
            if let syn::Expr::Path(p) = &*b.left {
                if let Some(i) = p.path.get_ident() {
                    self.names.insert(i.to_string());
                }
            }
        }
        syn::visit::visit_expr_binary(self, b);
    }

    fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
}

/// The placeholders of a `trace!` format string, each `true` for `{:?}`
/// and `false` for `{}`; an error for any other (`{x}`, `{:.2}`) or for an
/// unmatched brace.
fn placeholders(fmt: &str) -> Result<Vec<bool>, String> {
    let mut out = Vec::new();
    let mut rest = fmt;
    while let Some(i) = rest.find(['{', '}']) {
        rest = &rest[i..];
        let (hole, len) = if rest.starts_with("{{") || rest.starts_with("}}") {
            (None, 2)
        } else if rest.starts_with("{}") {
            (Some(false), 2)
        } else if rest.starts_with("{:?}") {
            (Some(true), 4)
        } else {
            return Err(format!(
                "`trace!` takes `{{}}` and `{{:?}}` placeholders only (`{{{{` and `}}}}` for braces), found `{}`",
                rest.chars().take_while(|&c| c != '}').chain(['}']).collect::<String>()
            ));
        };
        out.extend(hole);
        rest = &rest[len..];
    }
    Ok(out)
}

/// Whether `trace!` prints a value of type `t` with `{:?}`: numbers,
/// `bool`s, indices, and tuples of those (not a tuple holding an array).
fn printable(t: &Ty) -> bool {
    match t {
        Ty::Prim(_) | Ty::Index(_) => true,
        Ty::Tuple(ts) => ts.iter().all(printable),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    /// A tuple holding an array is no `trace!` argument: a clean error at
    /// the argument, not an internal error after fusion (found by
    /// `fuzz_front`; here, outside its corpus, so that its mutants stay).
    #[test]
    fn trace_of_a_tuple_holding_an_array_is_an_error() {
        let src = "fn traced(xs: Vector<i32>) -> Vector<i32> { \
                   xs.map(|x| { trace!(\"pair = {:?}\", (xs, x > 0)); x * 2 }) }";
        let fns = crate::front::parse_source(src).unwrap();
        let e = crate::compile(&fns, 0).err().expect("an error");
        assert!(e.message.contains("`trace!` prints numbers"), "{}", e.message);
    }
}
