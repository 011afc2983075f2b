//! `match` on integers and `bool`: literal, range, `_`, binding and `|`
//! patterns with guards, lowered to a chain of `If`s on the scrutinee.
//!
//! A `match` must be exhaustive: the unguarded arms must cover every value of
//! the scrutinee's type (a `_` or a binding does; so do `true` and `false`, or
//! ranges reaching from `MIN` to `MAX`).

use super::stmt::Tail;
use super::Lowerer;
use crate::error::{err, CResult};
use crate::ir::{BinOp, Expr, Lit, Prim, Scalar, Ty, H};

use syn::spanned::Spanned;

/// What the arms compute.
enum Arms<'a> {
    /// A value, of the expected type if known.
    Value(Option<&'a Ty>),
    /// The new values of these mutable variables (a `match` statement).
    State(&'a [String], &'a [u32]),
}

/// What a pattern tests and binds.
struct PatInfo {
    /// `None`: matches every value.
    cond: Option<H>,
    /// Names bound to the scrutinee.
    names: Vec<String>,
    /// The values matched, as inclusive intervals.
    ranges: Vec<(i128, i128)>,
}

/// The smallest and largest value of an integer type (`bool`: 0 and 1).
fn bounds(p: Prim) -> (i128, i128) {
    match p {
        Prim::Bool => (0, 1),
        Prim::I8 => (i8::MIN as i128, i8::MAX as i128),
        Prim::I16 => (i16::MIN as i128, i16::MAX as i128),
        Prim::I32 => (i32::MIN as i128, i32::MAX as i128),
        Prim::I64 => (i64::MIN as i128, i64::MAX as i128),
        Prim::U8 => (0, u8::MAX as i128),
        Prim::U16 => (0, u16::MAX as i128),
        Prim::U32 => (0, u32::MAX as i128),
        Prim::U64 | Prim::Usize => (0, u64::MAX as i128),
        Prim::F32 | Prim::F64 | Prim::F16 | Prim::BF16 => (0, -1),
    }
}

fn show(p: Prim, v: i128) -> String {
    match p {
        Prim::Bool => (v != 0).to_string(),
        _ => v.to_string(),
    }
}

impl Lowerer<'_> {
    pub(crate) fn match_expr(&mut self, m: &syn::ExprMatch, expected: Option<&Ty>) -> CResult<H> {
        self.match_arms(m, Arms::Value(expected))
    }

    /// A `match` statement whose arms assign the mutable variables `names`:
    /// evaluates to the tuple of their new values.
    pub(crate) fn match_stmt(&mut self, m: &syn::ExprMatch, names: &[String]) -> CResult<H> {
        let decls = self.decls(names);
        self.match_arms(m, Arms::State(names, &decls))
    }

    fn match_arms(&mut self, m: &syn::ExprMatch, arms: Arms) -> CResult<H> {
        let expected = match arms {
            Arms::Value(e) => e,
            Arms::State(..) => None,
        };
        let span = m.span();
        let scrut = self.expr(&m.expr, None)?;
        let sty = self.arena.ty(scrut).clone();
        let p = match &sty {
            Ty::Prim(p) if !p.is_float() => *p,
            other => {
                let hint = match other {
                    Ty::Tuple(_) => "match on one field (`.0`), or use `if`",
                    _ => "use `if` and comparisons instead",
                };
                return err(
                    m.expr.span(),
                    format!("`match` works on integers and `bool`, not on `{other}`; {hint}"),
                );
            }
        };
        if m.arms.is_empty() {
            return err(span, "a `match` needs at least one arm");
        }
        let sv = self.arena.new_var("scrutinee", sty.clone());
        let sh = self.arena.var_ref(sv);
        let mut pats = Vec::new();
        for arm in &m.arms {
            pats.push(self.pattern(&arm.pat, p, sh)?);
        }
        // Exhaustiveness, and the last arm needed (the `else` of the chain).
        let (min, max) = bounds(p);
        let mut covered: Vec<(i128, i128)> = Vec::new();
        let mut last = None;
        for (i, (arm, pat)) in m.arms.iter().zip(&pats).enumerate() {
            if arm.guard.is_none() {
                covered.extend(&pat.ranges);
                if first_gap(&mut covered, min, max).is_none() {
                    last = Some(i);
                    break;
                }
            }
        }
        let Some(last) = last else {
            let gap = first_gap(&mut covered, min, max).unwrap_or(min);
            let mut hint = String::from(if p == Prim::Bool {
                "cover `true` and `false`, or add a `_ => ..` arm"
            } else {
                "add a `_ => ..` arm"
            });
            if m.arms.iter().any(|a| a.guard.is_some()) {
                hint.push_str(" (arms with an `if` guard do not count)");
            }
            return err(
                span,
                format!(
                    "non-exhaustive `match` on `{}`: `{}` is not covered; {hint}",
                    p.name(),
                    show(p, gap)
                ),
            );
        };
        // The arms' type: the expected one, else the first arm that is not
        // just a literal (as for `if`).
        let order: Vec<usize> = {
            let first = if expected.is_none() {
                m.arms
                    .iter()
                    .position(|a| !self.is_flexible(&a.body))
                    .unwrap_or(0)
            } else {
                0
            };
            std::iter::once(first)
                .chain((0..m.arms.len()).filter(|i| *i != first))
                .collect()
        };
        let mut want = expected.cloned();
        let mut lowered: Vec<Option<(Option<H>, H)>> = vec![None; m.arms.len()];
        for i in order {
            let arm = &m.arms[i];
            let mark = self.scope.len();
            for n in &pats[i].names {
                self.bind(n, sv, false);
            }
            let r = self.arm(arm, want.as_ref(), &arms);
            self.scope.truncate(mark);
            let (guard, body) = r?;
            match &want {
                Some(t) => self.expect_ty(body, t, arm.body.span())?,
                None => want = Some(self.arena.ty(body).clone()),
            }
            lowered[i] = Some((guard, body));
        }
        let ty = want.unwrap_or(Ty::Tuple(vec![]));
        if ty.has_array() {
            return err(
                span,
                "`match` over arrays is not supported yet; choose between scalars inside a closure",
            );
        }
        let bool_ty = Ty::Prim(Prim::Bool);
        let Some((_, mut chain)) = lowered[last] else {
            return err(span, "accel internal error: match arm not lowered");
        };
        for i in (0..last).rev() {
            let Some((guard, body)) = lowered[i] else {
                continue;
            };
            let cond = match (pats[i].cond, guard) {
                (None, None) => {
                    chain = body;
                    continue;
                }
                (Some(c), None) | (None, Some(c)) => c,
                (Some(c), Some(g)) => self.arena.add(
                    Expr::Scalar(Scalar::Binary(BinOp::And, c, g)),
                    bool_ty.clone(),
                    span,
                ),
            };
            chain = self.arena.add(
                Expr::Scalar(Scalar::If(cond, body, chain)),
                ty.clone(),
                m.arms[i].span(),
            );
        }
        Ok(self.let_if_used(sv, scrut, chain))
    }

    fn arm(&mut self, arm: &syn::Arm, want: Option<&Ty>, arms: &Arms) -> CResult<(Option<H>, H)> {
        let guard = match &arm.guard {
            Some((_, g)) => {
                let b = Ty::Prim(Prim::Bool);
                let h = self.expr(g, Some(&b))?;
                self.expect_ty(h, &b, g.span())?;
                Some(h)
            }
            None => None,
        };
        let body = match (arms, &*arm.body) {
            (Arms::Value(_), e) => self.expr(e, want)?,
            (Arms::State(names, decls), syn::Expr::Block(b)) if b.label.is_none() => {
                self.stmts(&b.block.stmts, &Tail::State(names, decls))?
            }
            (Arms::State(names, decls), e) => {
                let stmt = syn::Stmt::Expr(e.clone(), Some(Default::default()));
                self.stmts(&[stmt], &Tail::State(names, decls))?
            }
        };
        Ok((guard, body))
    }

    fn pattern(&mut self, pat: &syn::Pat, p: Prim, s: H) -> CResult<PatInfo> {
        let (min, max) = bounds(p);
        let all = PatInfo {
            cond: None,
            names: vec![],
            ranges: vec![(min, max)],
        };
        let bool_ty = Ty::Prim(Prim::Bool);
        match pat {
            syn::Pat::Wild(_) => Ok(all),
            syn::Pat::Paren(q) => self.pattern(&q.pat, p, s),
            syn::Pat::Ident(pi) => {
                if let Some(r) = &pi.by_ref {
                    return err(r.span(), "`ref` bindings are not supported");
                }
                if let Some(m) = &pi.mutability {
                    return err(m.span(), "`mut` bindings in patterns are not supported");
                }
                let mut info = match &pi.subpat {
                    Some((_, sub)) => self.pattern(sub, p, s)?,
                    None => all,
                };
                info.names.push(pi.ident.to_string());
                Ok(info)
            }
            syn::Pat::Lit(l) => {
                let e = syn::Expr::Lit(l.clone());
                self.value_pattern(&e, p, s)
            }
            syn::Pat::Path(path) => {
                let e = syn::Expr::Path(path.clone());
                self.value_pattern(&e, p, s)
            }
            syn::Pat::Range(r) => {
                if p == Prim::Bool {
                    return err(r.span(), "range patterns need an integer scrutinee, not `bool`");
                }
                let lo = match &r.start {
                    Some(e) => Some(self.pattern_value(e, p)?),
                    None => None,
                };
                let hi = match &r.end {
                    Some(e) => Some(self.pattern_value(e, p)?),
                    None => None,
                };
                let closed = matches!(r.limits, syn::RangeLimits::Closed(_));
                let lo_v = lo.map_or(min, |(v, _)| v);
                let hi_v = match hi {
                    Some((v, _)) if closed => v,
                    Some((v, _)) => v - 1,
                    None => max,
                };
                if lo_v > hi_v {
                    return err(r.span(), "this range pattern is empty");
                }
                let mut cond = None;
                if let Some((v, h)) = lo.filter(|(v, _)| *v > min) {
                    let _ = v;
                    cond = Some(self.arena.add(Expr::Scalar(Scalar::Binary(BinOp::Ge, s, h)), bool_ty.clone(), r.span()));
                }
                if let Some((v, h)) = hi {
                    let op = if closed { BinOp::Le } else { BinOp::Lt };
                    if !(closed && v == max) {
                        let c = self.arena.add(Expr::Scalar(Scalar::Binary(op, s, h)), bool_ty.clone(), r.span());
                        cond = Some(match cond {
                            Some(a) => self.arena.add(Expr::Scalar(Scalar::Binary(BinOp::And, a, c)), bool_ty.clone(), r.span()),
                            None => c,
                        });
                    }
                }
                Ok(PatInfo {
                    cond,
                    names: vec![],
                    ranges: vec![(lo_v, hi_v)],
                })
            }
            syn::Pat::Or(o) => {
                let mut cond: Option<Option<H>> = None;
                let mut ranges = Vec::new();
                for case in &o.cases {
                    let info = self.pattern(case, p, s)?;
                    if !info.names.is_empty() {
                        return err(case.span(), "bindings inside `|` patterns are not supported");
                    }
                    ranges.extend(info.ranges);
                    cond = Some(match (cond, info.cond) {
                        (None, c) => c,
                        (Some(None), _) | (Some(_), None) => None,
                        (Some(Some(a)), Some(b)) => {
                            Some(self.arena.add(Expr::Scalar(Scalar::Binary(BinOp::Or, a, b)), bool_ty.clone(), o.span()))
                        }
                    });
                }
                Ok(PatInfo {
                    cond: cond.flatten(),
                    names: vec![],
                    ranges,
                })
            }
            other => err(
                other.span(),
                "unsupported pattern; `match` patterns are literals, ranges (`1..=5`, `..3`), `_`, names, `name @ pattern` and `a | b`",
            ),
        }
    }

    /// A pattern that matches one value.
    fn value_pattern(&mut self, e: &syn::Expr, p: Prim, s: H) -> CResult<PatInfo> {
        let (v, h) = self.pattern_value(e, p)?;
        let cond = self.arena.add(
            Expr::Scalar(Scalar::Binary(BinOp::Eq, s, h)),
            Ty::Prim(Prim::Bool),
            e.span(),
        );
        Ok(PatInfo {
            cond: Some(cond),
            names: vec![],
            ranges: vec![(v, v)],
        })
    }

    /// A literal or constant of type `p` in a pattern: its value and literal.
    fn pattern_value(&mut self, e: &syn::Expr, p: Prim) -> CResult<(i128, H)> {
        let span = e.span();
        let (min, max) = bounds(p);
        let v = self.pattern_int(e, p)?;
        if v < min || v > max {
            return err(span, format!("literal out of range for `{}`", p.name()));
        }
        let bits = v as i64 as u64;
        Ok((
            v,
            self.arena.add(
                Expr::Scalar(Scalar::Lit(Lit { prim: p, bits })),
                Ty::Prim(p),
                span,
            ),
        ))
    }

    /// The value of a pattern's literal or constant, not yet range-checked.
    fn pattern_int(&mut self, e: &syn::Expr, p: Prim) -> CResult<i128> {
        let span = e.span();
        Ok(match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => {
                if !i.suffix().is_empty() && i.suffix() != p.name() {
                    return err(
                        span,
                        format!(
                            "mismatched types: expected `{}`, found `{}`",
                            p.name(),
                            i.suffix()
                        ),
                    );
                }
                if p == Prim::Bool {
                    return err(span, "mismatched types: expected `bool`, found an integer");
                }
                i.base10_digits()
                    .parse::<i128>()
                    .map_err(|_| Self::new_error(span, format!("literal out of range for `{}`", p.name())))?
            }
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            }) => {
                if p != Prim::Bool {
                    return err(
                        span,
                        format!("mismatched types: expected `{}`, found `bool`", p.name()),
                    );
                }
                b.value as i128
            }
            syn::Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) => {
                if p.is_signed() {
                    -self.pattern_int(expr, p)?
                } else {
                    return err(span, format!("cannot negate a value of type `{}`", p.name()));
                }
            }
            syn::Expr::Path(_) => {
                let h = self.expr(e, Some(&Ty::Prim(p)))?;
                match self.arena.expr(h) {
                    Expr::Scalar(Scalar::Lit(l)) if l.prim == p => {
                        if p.is_signed() {
                            l.bits as i64 as i128
                        } else {
                            l.bits as i128
                        }
                    }
                    _ => {
                        return err(
                            span,
                            format!("expected a constant of type `{}` in this pattern", p.name()),
                        )
                    }
                }
            }
            _ => {
                return err(
                    span,
                    "patterns hold literals and constants (`1`, `-3`, `i32::MAX`)",
                )
            }
        })
    }
}

/// The smallest value of `min..=max` outside `ranges` (sorted and merged in
/// place), if any.
fn first_gap(ranges: &mut [(i128, i128)], min: i128, max: i128) -> Option<i128> {
    ranges.sort();
    let mut next = min;
    for &(lo, hi) in ranges.iter() {
        if lo > next {
            return Some(next);
        }
        next = next.max(hi + 1);
        if next > max {
            return None;
        }
    }
    (next <= max).then_some(next)
}
