//! Expressions: literals, operators, casts, `if`, tuples, indexing, calls and
//! closures. Types are inferred bottom-up, with the expected type passed down
//! so that literals and closure results take the type their context needs.

use super::{Binding, BindingKind, Lowerer};
use crate::error::{err, CResult};
use crate::ir::{BinOp, Expr, Fun, Lit, MathFn, Prim, Scalar, Ty, UnOp, H};
use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;

const SUPPORTED_SYNTAX: &str = "supported: literals, variables, arithmetic, comparisons, \
     `&&`/`||`/`!`, bit operations, `as` casts, `if`/`else`, `match` on integers and `bool`, blocks with `let`, tuples, \
     `xs[[i]]` indexing, method calls and closures";

impl Lowerer<'_> {
    pub(crate) fn expr(&mut self, e: &syn::Expr, expected: Option<&Ty>) -> CResult<H> {
        let span = e.span();
        match e {
            syn::Expr::Lit(l) => self.literal(&l.lit, expected, false),
            syn::Expr::Paren(p) => self.expr(&p.expr, expected),
            syn::Expr::Group(g) => self.expr(&g.expr, expected),
            syn::Expr::Reference(r) => {
                if r.mutability.is_some() {
                    return err(
                        r.span(),
                        "`&mut` is not supported: accel programs do not mutate arrays",
                    );
                }
                self.expr(&r.expr, expected)
            }
            syn::Expr::Path(p) => self.path(p, expected),
            syn::Expr::Unary(u) => self.unary(u, expected),
            syn::Expr::Binary(b) => {
                let op = bin_op(&b.op).ok_or_else(|| {
                    Self::new_error(
                        b.op.span(),
                        "compound assignment is a statement: write it on its own line",
                    )
                })?;
                self.binary(op, &b.left, &b.right, expected, span)
            }
            syn::Expr::Cast(c) => {
                let to = match super::lower_type(&c.ty)? {
                    Ty::Prim(p) => p,
                    other => {
                        return err(
                            c.ty.span(),
                            format!("`as` converts between primitive types, not to `{other}`"),
                        )
                    }
                };
                let x = self.expr(&c.expr, None)?;
                let from = match self.arena.ty(x) {
                    Ty::Prim(p) => *p,
                    other => {
                        return err(
                            c.expr.span(),
                            format!("cannot cast a value of type `{other}` with `as`"),
                        )
                    }
                };
                if to == Prim::Bool && from != Prim::Bool {
                    return err(
                        c.span(),
                        format!(
                            "cannot cast `{}` as `bool`; compare with zero instead",
                            from.name()
                        ),
                    );
                }
                Ok(self
                    .arena
                    .add(Expr::Scalar(Scalar::Cast(x, to)), Ty::Prim(to), span))
            }
            syn::Expr::If(i) => {
                let bool_ty = Ty::Prim(Prim::Bool);
                let c = self.expr(&i.cond, Some(&bool_ty))?;
                self.expect_ty(c, &bool_ty, i.cond.span())?;
                let Some((_, els)) = &i.else_branch else {
                    return err(i.span(), "an `if` used as a value needs an `else` branch");
                };
                // A branch that is just a literal takes the other branch's type.
                let then_flexible = match i.then_branch.stmts.as_slice() {
                    [syn::Stmt::Expr(x, None)] => self.is_flexible(x),
                    _ => false,
                };
                let (t, e) = if then_flexible && expected.is_none() {
                    let e = self.expr(els, None)?;
                    let e_ty = self.arena.ty(e).clone();
                    let t = self.block(&i.then_branch, Some(&e_ty))?;
                    (t, e)
                } else {
                    let t = self.block(&i.then_branch, expected)?;
                    let t_ty = self.arena.ty(t).clone();
                    (t, self.expr(els, Some(&t_ty))?)
                };
                let t_ty = self.arena.ty(t).clone();
                if t_ty.has_array() && self.closure_depth > 0 {
                    return err(i.span(), "a closure cannot choose between arrays");
                }
                self.expect_ty(e, &t_ty, els.span())?;
                Ok(self.arena.add(Expr::Scalar(Scalar::If(c, t, e)), t_ty, span))
            }
            syn::Expr::Block(b) => {
                if let Some(l) = &b.label {
                    return err(l.span(), "block labels are not supported");
                }
                self.block(&b.block, expected)
            }
            syn::Expr::Tuple(t) => {
                if t.elems.is_empty() {
                    return err(t.span(), "`()` has no use in an accel program");
                }
                let expected_parts = match expected {
                    Some(Ty::Tuple(ts)) if ts.len() == t.elems.len() => Some(ts.clone()),
                    _ => None,
                };
                let mut xs = Vec::new();
                let mut tys = Vec::new();
                for (i, x) in t.elems.iter().enumerate() {
                    let h = self.expr(x, expected_parts.as_ref().map(|ts| &ts[i]))?;
                    tys.push(self.arena.ty(h).clone());
                    xs.push(h);
                }
                Ok(self
                    .arena
                    .add(Expr::Scalar(Scalar::Tuple(xs)), Ty::Tuple(tys), span))
            }
            syn::Expr::Field(f) => {
                let x = self.expr(&f.base, None)?;
                let base = self.arena.ty(x).clone();
                // A tuple's `.k`; otherwise a field of one of the program's
                // structs, which are tuples (or, of one field, that field).
                if let (syn::Member::Unnamed(idx), Ty::Tuple(ts)) = (&f.member, &base) {
                    let n = idx.index as usize;
                    return match ts.get(n) {
                        Some(_) => Ok(self.arena.proj(x, n)),
                        None => err(
                            idx.span(),
                            format!("no field `{n}` on a tuple of {} fields", ts.len()),
                        ),
                    };
                }
                match self.structs.field(&base, &f.member) {
                    Ok((_, 1)) => Ok(x),
                    Ok((k, _)) => Ok(self.arena.proj(x, k)),
                    Err(_) if matches!(f.member, syn::Member::Unnamed(_)) => err(
                        f.base.span(),
                        format!("`.{}` needs a tuple, found `{base}`", f.member.to_token_stream()),
                    ),
                    Err(why) => err(f.member.span(), why),
                }
            }
            syn::Expr::Array(a) => {
                let usize_ty = Ty::Prim(Prim::Usize);
                let mut xs = Vec::new();
                for x in &a.elems {
                    let h = self.expr(x, Some(&usize_ty))?;
                    self.expect_ty(h, &usize_ty, x.span())?;
                    xs.push(h);
                }
                let r = xs.len();
                Ok(self
                    .arena
                    .add(Expr::Scalar(Scalar::MakeIndex(xs)), Ty::Index(r), span))
            }
            syn::Expr::Index(ix) => self.index(ix),
            syn::Expr::Match(m) => self.match_expr(m, expected),
            syn::Expr::MethodCall(m) => self.method_call(m, expected),
            syn::Expr::Call(c) => self.call(c, expected),
            syn::Expr::Closure(c) => err(
                c.span(),
                "a closure can only be an argument of an array operation, or be bound with `let` and called",
            ),
            syn::Expr::While(w) => err(
                w.span(),
                "a `while` loop is a statement; its variables hold the results",
            ),
            syn::Expr::ForLoop(f) => err(
                f.for_token.span(),
                "a `for` loop is a statement; its variables hold the results",
            ),
            syn::Expr::Break(b) => err(
                b.span(),
                "`break` is not supported; put the exit test into the `while` condition",
            ),
            syn::Expr::Continue(c) => err(
                c.span(),
                "`continue` is not supported; use `if` inside the loop body",
            ),
            syn::Expr::Return(r) => err(
                r.span(),
                "`return` is not supported; the last expression is the result",
            ),
            syn::Expr::Macro(m) => err(m.span(), "macros cannot be used inside an accel function"),
            syn::Expr::Assign(a) => err(a.span(), "an assignment is a statement: write it on its own line"),
            syn::Expr::Range(r) => err(
                r.span(),
                "a range is only the bounds of a `for` loop here\nhelp: write an iterator chain such as \
                 `(0..n).map(|k| ..).sum()` as a loop: `let mut s = 0.0; for k in 0..n { s += ..; }`",
            ),
            other => err(
                other.span(),
                format!("unsupported Rust syntax in an accel program; {SUPPORTED_SYNTAX}"),
            ),
        }
    }

    fn path(&mut self, p: &syn::ExprPath, expected: Option<&Ty>) -> CResult<H> {
        let span = p.span();
        let Some(ident) = p.path.get_ident() else {
            return self.const_path(p);
        };
        let name = ident.to_string();
        if name == "None" {
            return match expected {
                Some(t @ Ty::Option(_)) => {
                    Ok(self
                        .arena
                        .add(Expr::Scalar(Scalar::None(t.clone())), t.clone(), span))
                }
                _ => err(span, "cannot infer the type of `None` here"),
            };
        }
        match self.lookup(&name).cloned() {
            Some(Binding {
                kind: BindingKind::Var(v),
                ..
            }) => {
                let ty = self.arena.var(v).ty.clone();
                Ok(self.arena.add(Expr::Scalar(Scalar::Var(v)), ty, span))
            }
            Some(Binding {
                kind: BindingKind::Closure(_),
                ..
            }) => err(
                span,
                format!("`{name}` is a closure: call it, or pass it to an array operation"),
            ),
            Some(Binding {
                kind: BindingKind::Literal(e),
                ..
            }) => self.expr(&e, expected),
            None => {
                // A constant's name: the program cannot see the crate's items.
                let hint = if name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                {
                    format!(
                        "\nhelp: an accel function sees only its parameters and its own `let`s, not the \
                         crate's `const`s: pass `{name}` as a parameter, write its value, or declare the \
                         `const` beside the function in an `#[acc] mod` or an `accel! {{ .. }}` block"
                    )
                } else {
                    String::new()
                };
                err(
                    ident.span(),
                    format!("cannot find value `{name}` in this scope{hint}"),
                )
            }
        }
    }

    /// A constant named by a path: `i32::MAX`, `std::f32::consts::PI`.
    fn const_path(&mut self, p: &syn::ExprPath) -> CResult<H> {
        let span = p.span();
        let segs = path_segments(p)?;
        if let Some((prim, bits)) = super::consts::lookup(&segs) {
            return Ok(self.arena.add(
                Expr::Scalar(Scalar::Lit(Lit { prim, bits })),
                Ty::Prim(prim),
                span,
            ));
        }
        // `f32::NOPE` or `f32::consts::NOPE`: name the constants of `f32`.
        let names: Vec<&str> = segs.iter().map(String::as_str).collect();
        let ty = match super::consts::strip_std(&names) {
            [t, _] | [t, "consts", _] => Prim::from_name(t),
            _ => None,
        };
        match ty {
            Some(t) => err(
                p.path.segments.last().map_or(span, |s| s.ident.span()),
                format!(
                    "unknown constant `{}`; the constants of `{}` are: {}",
                    segs.join("::"),
                    t.name(),
                    super::consts::names(t)
                ),
            ),
            None => err(
                span,
                "paths are not supported here; use a local name or a constant such as `f32::consts::PI` or `i32::MAX`",
            ),
        }
    }

    /// A literal of the expected type when it has no suffix (`i32`/`f64` otherwise).
    pub(crate) fn literal(&mut self, l: &syn::Lit, expected: Option<&Ty>, negate: bool) -> CResult<H> {
        let span = l.span();
        let want = expected.and_then(Ty::prim);
        let (prim, bits) = match l {
            syn::Lit::Bool(b) => {
                if negate {
                    return err(span, "cannot negate a `bool`; use `!`");
                }
                (Prim::Bool, b.value as u64)
            }
            syn::Lit::Int(i) => {
                let prim = match i.suffix() {
                    "" => match want {
                        Some(p) if p.is_numeric() => p,
                        _ => Prim::I32,
                    },
                    s @ ("f16" | "bf16") => return err(span, half_suffix(s)),
                    s => Prim::from_name(s)
                        .ok_or_else(|| Self::new_error(span, format!("unknown literal suffix `{s}`")))?,
                };
                let mag: u128 = i.base10_parse()?;
                if prim.is_float() {
                    let v = if negate { -(mag as f64) } else { mag as f64 };
                    float_bits(prim, v)
                } else {
                    (
                        prim,
                        int_bits(prim, mag, negate).ok_or_else(|| {
                            Self::new_error(span, format!("literal out of range for `{}`", prim.name()))
                        })?,
                    )
                }
            }
            syn::Lit::Float(f) => {
                let prim = match f.suffix() {
                    "" => match want {
                        Some(p) if p.is_float() => p,
                        Some(p) if p.is_numeric() => {
                            return err(
                                span,
                                format!(
                                    "mismatched types: expected `{}`, found floating-point literal",
                                    p.name()
                                ),
                            )
                        }
                        _ => Prim::F64,
                    },
                    "f32" => Prim::F32,
                    "f64" => Prim::F64,
                    s @ ("f16" | "bf16") => return err(span, half_suffix(s)),
                    s => return err(span, format!("unknown literal suffix `{s}`")),
                };
                let v: f64 = f.base10_parse()?;
                float_bits(prim, if negate { -v } else { v })
            }
            other => return err(other.span(), "only number and bool literals are supported"),
        };
        Ok(self.arena.add(
            Expr::Scalar(Scalar::Lit(Lit { prim, bits })),
            Ty::Prim(prim),
            span,
        ))
    }

    fn unary(&mut self, u: &syn::ExprUnary, expected: Option<&Ty>) -> CResult<H> {
        let span = u.span();
        match u.op {
            syn::UnOp::Neg(_) => {
                if let Some(l) = literal_of(&u.expr) {
                    return self.literal(l, expected, true);
                }
                let x = self.expr(&u.expr, expected)?;
                match self.arena.ty(x).prim() {
                    Some(p) if p.is_signed() => {
                        Ok(self
                            .arena
                            .add(Expr::Scalar(Scalar::Unary(UnOp::Neg, x)), Ty::Prim(p), span))
                    }
                    _ => err(
                        span,
                        format!("cannot apply unary `-` to type `{}`", self.arena.ty(x)),
                    ),
                }
            }
            syn::UnOp::Not(_) => {
                let x = self.expr(&u.expr, expected)?;
                match self.arena.ty(x).prim() {
                    Some(p) if !p.is_float() => {
                        Ok(self
                            .arena
                            .add(Expr::Scalar(Scalar::Unary(UnOp::Not, x)), Ty::Prim(p), span))
                    }
                    _ => err(span, format!("cannot apply `!` to type `{}`", self.arena.ty(x))),
                }
            }
            syn::UnOp::Deref(_) => self.expr(&u.expr, expected),
            _ => err(span, "unsupported unary operator"),
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        l: &syn::Expr,
        r: &syn::Expr,
        expected: Option<&Ty>,
        span: Span,
    ) -> CResult<H> {
        let operand_expected = if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) {
            None
        } else {
            expected
        };
        if matches!(op, BinOp::And | BinOp::Or) {
            let b = Ty::Prim(Prim::Bool);
            let a = self.expr(l, Some(&b))?;
            self.expect_ty(a, &b, l.span())?;
            let c = self.expr(r, Some(&b))?;
            self.expect_ty(c, &b, r.span())?;
            return Ok(self.arena.add(Expr::Scalar(Scalar::Binary(op, a, c)), b, span));
        }
        // An unsuffixed literal on the left takes the type of the right operand.
        if self.is_flexible(l) && !self.is_flexible(r) && !matches!(op, BinOp::Shl | BinOp::Shr) {
            let b = self.expr(r, operand_expected)?;
            let t = self.arena.ty(b).clone();
            let a = self.expr(l, Some(&t))?;
            return self.finish_binary(op, a, b, span, l.span(), r.span());
        }
        let a = self.expr(l, operand_expected)?;
        self.binary_with_lhs(op, a, r, span, l.span())
    }

    /// `a == b` (`a != b` when not `eq`) on tuples (and so on structs) of
    /// `n` fields: field by field, as Rust's derived `PartialEq` compares
    /// (a NaN field makes them unequal).
    fn tuple_equality(&mut self, eq: bool, a: H, b: H, n: usize, span: Span) -> H {
        let t = self.arena.ty(a).clone();
        let bool_ty = Ty::Prim(Prim::Bool);
        let (va, vb) = (
            self.arena.new_var("__eq_l", t.clone()),
            self.arena.new_var("__eq_r", t),
        );
        let (xa, xb) = (self.var_expr(va, span), self.var_expr(vb, span));
        let mut all: Option<H> = None;
        for k in 0..n {
            let (fa, fb) = (self.arena.proj(xa, k), self.arena.proj(xb, k));
            let field_eq = match self.arena.ty(fa) {
                Ty::Tuple(ts) => {
                    let m = ts.len();
                    self.tuple_equality(true, fa, fb, m, span)
                }
                _ => self.arena.add(
                    Expr::Scalar(Scalar::Binary(BinOp::Eq, fa, fb)),
                    bool_ty.clone(),
                    span,
                ),
            };
            all = Some(match all {
                None => field_eq,
                Some(acc) => self.arena.add(
                    Expr::Scalar(Scalar::Binary(BinOp::And, acc, field_eq)),
                    bool_ty.clone(),
                    span,
                ),
            });
        }
        // A tuple has fields (`()` is refused earlier); none would be equal.
        let mut r = all.unwrap_or_else(|| {
            let t = Lit {
                prim: Prim::Bool,
                bits: 1,
            };
            self.arena
                .add(Expr::Scalar(Scalar::Lit(t)), bool_ty.clone(), span)
        });
        if !eq {
            r = self
                .arena
                .add(Expr::Scalar(Scalar::Unary(UnOp::Not, r)), bool_ty.clone(), span);
        }
        let inner = self.arena.add(
            Expr::Scalar(Scalar::Let {
                var: vb,
                value: b,
                body: r,
            }),
            bool_ty.clone(),
            span,
        );
        self.arena.add(
            Expr::Scalar(Scalar::Let {
                var: va,
                value: a,
                body: inner,
            }),
            bool_ty,
            span,
        )
    }

    fn var_expr(&mut self, v: crate::ir::VarId, span: Span) -> H {
        let ty = self.arena.var(v).ty.clone();
        self.arena.add(Expr::Scalar(Scalar::Var(v)), ty, span)
    }

    /// `a op r` where `a` is already lowered from the source at `lspan` (the
    /// node's own span may be none: a variable, an operation's result).
    pub(crate) fn binary_with_lhs(
        &mut self,
        op: BinOp,
        a: H,
        r: &syn::Expr,
        span: Span,
        lspan: Span,
    ) -> CResult<H> {
        let t = self.arena.ty(a).clone();
        let rhs_expected = if matches!(op, BinOp::Shl | BinOp::Shr) {
            None
        } else {
            Some(&t)
        };
        let b = self.expr(r, rhs_expected)?;
        self.finish_binary(op, a, b, span, lspan, r.span())
    }

    fn finish_binary(&mut self, op: BinOp, a: H, b: H, span: Span, lspan: Span, rspan: Span) -> CResult<H> {
        let ta = self.arena.ty(a).clone();
        let tb = self.arena.ty(b).clone();
        if let (Ty::Tuple(ts), BinOp::Eq | BinOp::Ne) = (&ta, op) {
            if ta == tb {
                return Ok(self.tuple_equality(op == BinOp::Eq, a, b, ts.len(), span));
            }
        }
        let Some(p) = ta.prim() else {
            return err(
                lspan,
                format!("cannot apply `{}` to a value of type `{ta}`", op.symbol()),
            );
        };
        match op {
            BinOp::Shl | BinOp::Shr => {
                let ok = p.is_int() && tb.prim().is_some_and(Prim::is_int);
                if !ok {
                    return err(
                        span,
                        format!(
                            "no implementation for `{ta} {} {tb}`: shifts need integers",
                            op.symbol()
                        ),
                    );
                }
                // The amount is taken modulo the width, so any integer type will do.
                let b = if tb != Ty::Prim(Prim::U32) {
                    self.arena.add(
                        Expr::Scalar(Scalar::Cast(b, Prim::U32)),
                        Ty::Prim(Prim::U32),
                        rspan,
                    )
                } else {
                    b
                };
                Ok(self.arena.add(Expr::Scalar(Scalar::Binary(op, a, b)), ta, span))
            }
            _ => {
                if ta != tb {
                    return err(rspan, super::mismatch(&ta, &tb));
                }
                let ok = match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => p.is_numeric(),
                    BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => !p.is_float(),
                    _ => true,
                };
                if !ok {
                    return err(span, format!("cannot apply `{}` to `{ta}`", op.symbol()));
                }
                let ty = if op.is_comparison() {
                    Ty::Prim(Prim::Bool)
                } else {
                    ta
                };
                Ok(self.arena.add(Expr::Scalar(Scalar::Binary(op, a, b)), ty, span))
            }
        }
    }

    fn index(&mut self, ix: &syn::ExprIndex) -> CResult<H> {
        let span = ix.span();
        let base = self.expr(&ix.expr, None)?;
        match self.arena.ty(base).clone() {
            Ty::Array(elem, rank) => {
                let want = Ty::Index(rank);
                let i = self.expr(&ix.index, Some(&want))?;
                if self.arena.ty(i) != &want {
                    let got = self.arena.ty(i);
                    let mut m =
                        format!("this array has rank {rank}: index it with `[usize; {rank}]`, found `{got}`");
                    if rank == 1 && got.prim().is_some_and(|p| p.is_int()) {
                        let (a, i) = (ix.expr.to_token_stream(), ix.index.to_token_stream());
                        m += &format!(
                            "\nhelp: an index is an array, one component per dimension: write `{a}[[{i}]]`"
                        );
                    }
                    return err(ix.index.span(), m);
                }
                Ok(self.arena.add(
                    Expr::Scalar(Scalar::Read {
                        array: base,
                        index: i,
                    }),
                    *elem,
                    span,
                ))
            }
            Ty::Index(r) => match &*ix.index {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => {
                    let n: usize = n.base10_parse()?;
                    if n >= r {
                        return err(ix.index.span(), format!("component {n} of an index of rank {r}"));
                    }
                    Ok(self.arena.proj(base, n))
                }
                other => err(
                    other.span(),
                    "index components are selected with a number literal (`ix[0]`)",
                ),
            },
            other => err(
                ix.expr.span(),
                format!("cannot index into a value of type `{other}`"),
            ),
        }
    }

    fn call(&mut self, c: &syn::ExprCall, expected: Option<&Ty>) -> CResult<H> {
        let span = c.span();
        let syn::Expr::Path(p) = &*c.func else {
            return err(c.func.span(), "only named functions and closures can be called");
        };
        let Some(ident) = p.path.get_ident() else {
            return self.path_call(p, c);
        };
        let name = ident.to_string();
        let args: Vec<&syn::Expr> = c.args.iter().collect();
        if let Some(b) = self.lookup(&name).cloned() {
            return match b.kind {
                BindingKind::Closure(def) => {
                    if def.0.inputs.len() != args.len() {
                        return err(
                            span,
                            format!(
                                "the closure `{name}` takes {} argument{} but {} {} given",
                                def.0.inputs.len(),
                                plural(def.0.inputs.len()),
                                args.len(),
                                if args.len() == 1 { "was" } else { "were" }
                            ),
                        );
                    }
                    let mut hs = Vec::new();
                    let mut tys = Vec::new();
                    for (a, pat) in args.iter().zip(&def.0.inputs) {
                        let annotated = match pat {
                            syn::Pat::Type(pt) => Some(super::lower_type(&pt.ty)?),
                            _ => None,
                        };
                        let h = self.expr(a, annotated.as_ref())?;
                        tys.push(self.arena.ty(h).clone());
                        hs.push(h);
                    }
                    let f = self.closure_def(&def, &tys, expected, span)?;
                    Ok(self.arena.apply(&f, &hs))
                }
                BindingKind::Var(_) | BindingKind::Literal(_) => {
                    err(ident.span(), format!("`{name}` is a value, not a function"))
                }
            };
        }
        match name.as_str() {
            "generate" | "fill" => self.free_array_op(&name, &args, span, expected),
            "iota" => self.iota(&args, span, expected),
            "uniform" | "random_bits" => self.random(&name, &args, span, expected),
            "Some" => {
                if args.len() != 1 {
                    return err(span, "`Some` takes one argument");
                }
                let inner = match expected {
                    Some(Ty::Option(t)) => Some((**t).clone()),
                    _ => None,
                };
                let x = self.expr(args[0], inner.as_ref())?;
                let t = self.arena.ty(x).clone();
                Ok(self
                    .arena
                    .add(Expr::Scalar(Scalar::Some(x)), Ty::Option(Box::new(t)), span))
            }
            _ => self.inline_call(&name, &args, ident.span()),
        }
    }

    /// `f32::from_bits(u)`, and a math method in path form: `f32::sqrt(x)`,
    /// `i32::wrapping_add(a, b)` (the first argument is the receiver).
    fn path_call(&mut self, p: &syn::ExprPath, c: &syn::ExprCall) -> CResult<H> {
        let segs = path_segments(p)?;
        let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let segs = super::consts::strip_std(&segs);
        let (Some(prim), [_, name]) = (segs.first().and_then(|t| Prim::from_name(t)), segs) else {
            return err(
                p.span(),
                "only local function names and primitive methods (`f32::from_bits(u)`, `i32::max(a, b)`) can be called",
            );
        };
        let name_span = p.path.segments.last().map(|s| s.ident.span()).unwrap_or(p.span());
        let args: Vec<&syn::Expr> = c.args.iter().collect();
        let Some((first, rest)) = args.split_first() else {
            return err(c.span(), format!("`{}::{name}` needs an argument", prim.name()));
        };
        let name = *name;
        if name == "from_bits" {
            let bits = match prim {
                Prim::F32 => Prim::U32,
                Prim::F64 => Prim::U64,
                _ => {
                    return err(
                        name_span,
                        format!("no function `from_bits` on `{}`; it is `f32::from_bits(u32)` or `f64::from_bits(u64)`", prim.name()),
                    )
                }
            };
            if !rest.is_empty() {
                return err(
                    c.span(),
                    format!("`from_bits` takes 1 argument but {} were given", args.len()),
                );
            }
            let want = Ty::Prim(bits);
            let u = self.expr(first, Some(&want))?;
            self.expect_ty(u, &want, first.span())?;
            return Ok(self.arena.add(
                Expr::Scalar(Scalar::Math(MathFn::FromBits, vec![u])),
                Ty::Prim(prim),
                c.span(),
            ));
        }
        let want = Ty::Prim(prim);
        let x = self.expr(first, Some(&want))?;
        self.expect_ty(x, &want, first.span())?;
        self.math_call(x, prim, name, rest, name_span, c.span())
    }

    /// A call to another function of the same `acc!` block: its body, inlined.
    pub(crate) fn inline_call(&mut self, name: &str, args: &[&syn::Expr], name_span: Span) -> CResult<H> {
        let fns = self.fns;
        let Some(f) = fns.iter().find(|f| f.sig.ident == name) else {
            let hint = if MathFn::from_name(name).is_some() {
                format!("; math functions are methods: `x.{name}(..)`")
            } else {
                format!(
                    "\nhelp: accel compiles only the functions it is given: put `{name}` in an \
                     `#[acc] mod` or an `accel! {{ .. }}` block with the functions that call it"
                )
            };
            return err(
                name_span,
                format!("cannot find function `{name}` in this accel program{hint}"),
            );
        };
        if let Some(first) = self.calls.iter().position(|c| c == name) {
            let cycle = self.calls[first..].join(" -> ");
            return err(
                name_span,
                format!("recursive call ({cycle} -> {name}): recursion cannot be compiled into kernels"),
            );
        }
        if let Some(e) = super::block_items::deferred_error(f) {
            return Err(e.into());
        }
        let (params, result) = super::signature(f)?;
        if params.len() != args.len() {
            return err(
                name_span,
                format!(
                    "`{name}` takes {} argument{} but {} {} given",
                    params.len(),
                    plural(params.len()),
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            );
        }
        let mut lets = Vec::new();
        for ((pname, pty, _), a) in params.iter().zip(args) {
            let h = self.expr(a, Some(pty))?;
            self.expect_ty(h, pty, a.span())?;
            if pty.has_array() && self.closure_depth > 0 {
                return err(
                    a.span(),
                    "functions over arrays cannot be called inside scalar code",
                );
            }
            let v = self.arena.new_var(pname, pty.clone());
            lets.push((v, h));
        }
        // The callee sees only its own parameters.
        let saved = std::mem::take(&mut self.scope);
        let saved_base = std::mem::replace(&mut self.closure_base, 0);
        for ((pname, _, _), (v, _)) in params.iter().zip(&lets) {
            self.bind(pname, *v, false);
        }
        self.calls.push(name.to_string());
        let body = self.block(&f.block, Some(&result));
        self.calls.pop();
        self.scope = saved;
        self.closure_base = saved_base;
        let body = body?;
        self.expect_ty(body, &result, f.block.span())?;
        Ok(self.wrap_lets(lets, body))
    }

    /// A closure argument of an array operation, given its parameter types.
    pub(crate) fn closure(&mut self, e: &syn::Expr, params: &[Ty], ret: Option<&Ty>) -> CResult<Fun> {
        match e {
            syn::Expr::Closure(c) => self.closure_syntax(c, params, ret),
            syn::Expr::Paren(p) => self.closure(&p.expr, params, ret),
            syn::Expr::Path(p) if p.path.get_ident().is_some() => {
                let name = p.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                match self.lookup(&name).cloned() {
                    Some(Binding {
                        kind: BindingKind::Closure(def),
                        ..
                    }) => self.closure_def(&def, params, ret, e.span()),
                    _ => err(e.span(), format!("expected a closure, found `{name}`")),
                }
            }
            other => err(
                other.span(),
                format!(
                    "expected a closure taking {} argument{}",
                    params.len(),
                    plural(params.len())
                ),
            ),
        }
    }

    fn closure_def(
        &mut self,
        def: &(syn::ExprClosure, Vec<Binding>),
        params: &[Ty],
        ret: Option<&Ty>,
        _span: Span,
    ) -> CResult<Fun> {
        let saved = std::mem::replace(&mut self.scope, def.1.clone());
        let r = self.closure_syntax(&def.0, params, ret);
        self.scope = saved;
        r
    }

    fn closure_syntax(&mut self, c: &syn::ExprClosure, params: &[Ty], ret: Option<&Ty>) -> CResult<Fun> {
        if c.inputs.len() != params.len() {
            let tys: Vec<String> = params.iter().map(|t| format!("`{t}`")).collect();
            return err(
                c.or1_token.span(),
                format!(
                    "closure of the wrong shape: expected {} parameter{} ({}), found {}",
                    params.len(),
                    plural(params.len()),
                    tys.join(", "),
                    c.inputs.len()
                ),
            );
        }
        if let Some(m) = &c.movability {
            return err(m.span(), "`static` closures are not supported");
        }
        let mark = self.scope.len();
        let saved_base = std::mem::replace(&mut self.closure_base, mark);
        let r = self.closure_params_and_body(c, params, ret, mark);
        self.closure_base = saved_base;
        r
    }

    fn closure_params_and_body(
        &mut self,
        c: &syn::ExprClosure,
        params: &[Ty],
        ret: Option<&Ty>,
        mark: usize,
    ) -> CResult<Fun> {
        let mut vars = Vec::new();
        let mut lets = Vec::new();
        for (pat, ty) in c.inputs.iter().zip(params) {
            if let syn::Pat::Ident(pi) = pat {
                if pi.mutability.is_some() {
                    self.scope.truncate(mark);
                    return err(pi.span(), "closure parameters cannot be `mut`");
                }
                let v = self.arena.new_var(pi.ident.to_string(), ty.clone());
                self.bind(&pi.ident.to_string(), v, false);
                vars.push(v);
            } else {
                let v = self.arena.new_var("arg", ty.clone());
                let vh = self.arena.var_ref(v);
                if let Err(e) = self.bind_pat(pat, ty, vh, &mut lets, false) {
                    self.scope.truncate(mark);
                    return Err(e);
                }
                vars.push(v);
            }
        }
        let declared = match &c.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, t) => Some(super::lower_type(t)?),
        };
        let want = declared.as_ref().or(ret);
        // A sequence's per-element program is array code; closures inside
        // it are element functions again.
        let program = std::mem::replace(&mut self.element_program, false);
        let depth = if program { 0 } else { 1 };
        self.closure_depth += depth;
        let body = self.expr(&c.body, want);
        self.closure_depth -= depth;
        self.scope.truncate(mark);
        let body = body?;
        if let Some(t) = want {
            self.expect_ty(body, t, c.body.span())?;
        }
        if !program && self.arena.ty(body).has_array() {
            return err(
                c.body.span(),
                "a closure passed to an array operation computes scalars, not arrays",
            );
        }
        let body = self.wrap_lets(lets, body);
        Ok(Fun { params: vars, body })
    }

    /// A literal without a type suffix, a name bound to one, or an `if`
    /// choosing between such: its type comes from the context.
    pub(crate) fn is_flexible(&self, e: &syn::Expr) -> bool {
        match e {
            syn::Expr::Path(p) => p.path.get_ident().is_some_and(|i| {
                matches!(
                    self.lookup(&i.to_string()),
                    Some(Binding {
                        kind: BindingKind::Literal(_),
                        ..
                    })
                )
            }),
            syn::Expr::Paren(p) => self.is_flexible(&p.expr),
            syn::Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) => self.is_flexible(expr),
            syn::Expr::If(syn::ExprIf {
                then_branch,
                else_branch: Some((_, other)),
                ..
            }) => {
                let then_flexible = match then_branch.stmts.as_slice() {
                    [syn::Stmt::Expr(x, None)] => self.is_flexible(x),
                    _ => false,
                };
                then_flexible && self.is_flexible(other)
            }
            syn::Expr::Block(b) if b.label.is_none() => match b.block.stmts.as_slice() {
                [syn::Stmt::Expr(x, None)] => self.is_flexible(x),
                _ => false,
            },
            _ => unsuffixed_literal(e),
        }
    }

    pub(crate) fn in_scalar_code(&self) -> bool {
        self.closure_depth > 0
    }
}

/// The names of a path's segments; generic arguments are rejected.
fn path_segments(p: &syn::ExprPath) -> CResult<Vec<String>> {
    if let Some(q) = &p.qself {
        return err(
            q.lt_token.span(),
            "qualified paths `<T as Trait>::..` are not supported",
        );
    }
    p.path
        .segments
        .iter()
        .map(|s| {
            if s.arguments.is_empty() {
                Ok(s.ident.to_string())
            } else {
                err(s.arguments.span(), "generic arguments are not supported here")
            }
        })
        .collect()
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// A number literal without a type suffix (possibly negated or parenthesised).
pub(crate) fn unsuffixed_literal(e: &syn::Expr) -> bool {
    match literal_of(e) {
        Some(syn::Lit::Int(i)) => i.suffix().is_empty(),
        Some(syn::Lit::Float(f)) => f.suffix().is_empty(),
        _ => false,
    }
}

fn literal_of(e: &syn::Expr) -> Option<&syn::Lit> {
    match e {
        syn::Expr::Lit(l) => Some(&l.lit),
        syn::Expr::Paren(p) => literal_of(&p.expr),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => literal_of(expr),
        _ => None,
    }
}

fn bin_op(op: &syn::BinOp) -> Option<BinOp> {
    Some(match op {
        syn::BinOp::Add(_) => BinOp::Add,
        syn::BinOp::Sub(_) => BinOp::Sub,
        syn::BinOp::Mul(_) => BinOp::Mul,
        syn::BinOp::Div(_) => BinOp::Div,
        syn::BinOp::Rem(_) => BinOp::Rem,
        syn::BinOp::And(_) => BinOp::And,
        syn::BinOp::Or(_) => BinOp::Or,
        syn::BinOp::BitXor(_) => BinOp::BitXor,
        syn::BinOp::BitAnd(_) => BinOp::BitAnd,
        syn::BinOp::BitOr(_) => BinOp::BitOr,
        syn::BinOp::Shl(_) => BinOp::Shl,
        syn::BinOp::Shr(_) => BinOp::Shr,
        syn::BinOp::Eq(_) => BinOp::Eq,
        syn::BinOp::Lt(_) => BinOp::Lt,
        syn::BinOp::Le(_) => BinOp::Le,
        syn::BinOp::Ne(_) => BinOp::Ne,
        syn::BinOp::Ge(_) => BinOp::Ge,
        syn::BinOp::Gt(_) => BinOp::Gt,
        _ => return None,
    })
}

/// Two's-complement bits of an integer literal, if it fits `prim`.
fn int_bits(prim: Prim, mag: u128, negate: bool) -> Option<u64> {
    let (min, max): (i128, i128) = match prim {
        Prim::Bool => return None,
        Prim::I8 => (i8::MIN as i128, i8::MAX as i128),
        Prim::I16 => (i16::MIN as i128, i16::MAX as i128),
        Prim::I32 => (i32::MIN as i128, i32::MAX as i128),
        Prim::I64 => (i64::MIN as i128, i64::MAX as i128),
        Prim::U8 => (0, u8::MAX as i128),
        Prim::U16 => (0, u16::MAX as i128),
        Prim::U32 => (0, u32::MAX as i128),
        Prim::U64 | Prim::Usize => (0, u64::MAX as i128),
        Prim::F32 | Prim::F64 | Prim::F16 | Prim::BF16 => return None,
    };
    let v = if negate {
        -(i128::try_from(mag).ok()?)
    } else {
        i128::try_from(mag).ok()?
    };
    if v < min || v > max {
        return None;
    }
    Some(v as i64 as u64)
}

/// A float literal's bits in type `prim` (a half-precision one rounded
/// from `f64`, to nearest).
fn float_bits(prim: Prim, v: f64) -> (Prim, u64) {
    match prim {
        Prim::F32 => (Prim::F32, (v as f32).to_bits() as u64),
        Prim::F16 => (Prim::F16, half::f16::from_f64(v).to_bits() as u64),
        Prim::BF16 => (Prim::BF16, half::bf16::from_f64(v).to_bits() as u64),
        _ => (Prim::F64, v.to_bits()),
    }
}

/// Why `2.0f16` is an error: Rust has no such suffix on stable; the type
/// comes from the context.
fn half_suffix(s: &str) -> String {
    format!("no literal suffix `{s}`: a float literal takes `{s}` from its context (`x * 2.0` where `x: {s}`), or write `2.0f32 as {s}`")
}
