//! `a.stencil(boundary, |[l, c, r]| ..)` and
//! `a.stencil2(boundary_a, &b, boundary_b, |pa, pb| ..)`: the closure's
//! parameter patterns give the stencils' shapes and name their points.

use super::Lowerer;
use crate::error::{err, CResult};
use crate::ir::{ArrayOp, Boundary, Expr, Fun, Ty, VarId, H};
use syn::spanned::Spanned;

/// The largest stencil extent in any dimension.
pub const MAX_STENCIL: usize = 9;

const BOUNDARIES: &str =
    "`Boundary::Clamp`, `Boundary::Mirror`, `Boundary::Wrap` or `Boundary::Constant(value)`";

impl Lowerer<'_> {
    /// Lowers a stencil over `a` (and `b` for `stencil2`); `args` as written.
    pub(crate) fn stencil_op(
        &mut self,
        a: H,
        name: &str,
        args: &[&syn::Expr],
        m: &syn::ExprMethodCall,
        want_elem: Option<&Ty>,
    ) -> CResult<H> {
        let two = name == "stencil2";
        let n = if two { 4 } else { 2 };
        if args.len() != n {
            let usage = if two {
                "`stencil2(boundary_a, &b, boundary_b, |pattern_a, pattern_b| ..)`"
            } else {
                "`stencil(boundary, |pattern| ..)`"
            };
            return err(
                m.method.span(),
                format!(
                    "`{name}` takes {n} arguments but {} {} given: {usage}",
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            );
        }
        let (elem, rank) = self.array_ty(a, m.receiver.span(), name)?;
        if rank == 0 {
            return err(
                m.method.span(),
                format!("`{name}` needs an array of rank 1 to 3, but a Scalar has no neighbours"),
            );
        }
        if rank > 3 {
            return err(
                m.method.span(),
                format!("`{name}` supports arrays of rank 1 to 3, found rank {rank}"),
            );
        }
        let mut arrays = vec![(a, elem.clone(), m.receiver.span())];
        let mut boundaries = vec![self.boundary(args[0], &elem)?];
        if two {
            let b = self.expr(args[1], None)?;
            let (eb, rb) = self.array_ty(b, args[1].span(), name)?;
            if rb != rank {
                return err(
                    args[1].span(),
                    format!("rank mismatch: `stencil2` of an array of rank {rank} with one of rank {rb}"),
                );
            }
            boundaries.push(self.boundary(args[2], &eb)?);
            arrays.push((b, eb, args[1].span()));
        }
        let (f, extents) = self.stencil_closure(args[n - 1], name, &arrays, rank, want_elem)?;
        let t = self.arena.ty(f.body).clone();
        if !t.is_elem() {
            return err(
                args[n - 1].span(),
                format!("this closure returns `{t}`, which cannot be an array element"),
            );
        }
        Ok(self.arena.add(
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f,
                arrays: arrays.iter().map(|x| x.0).collect(),
                extents,
            }),
            Ty::array(t, rank),
            m.span(),
        ))
    }

    /// `Boundary::Clamp | Mirror | Wrap | Constant(v)` with `v` of type `elem`.
    fn boundary(&mut self, e: &syn::Expr, elem: &Ty) -> CResult<Boundary> {
        let variant = |p: &syn::Path| -> Option<String> {
            let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
            match segs.as_slice() {
                [b, v] if b == "Boundary" => Some(v.clone()),
                _ => None,
            }
        };
        match e {
            syn::Expr::Paren(p) => self.boundary(&p.expr, elem),
            syn::Expr::Group(g) => self.boundary(&g.expr, elem),
            syn::Expr::Path(p) if p.qself.is_none() => match variant(&p.path).as_deref() {
                Some("Clamp") => Ok(Boundary::Clamp),
                Some("Mirror") => Ok(Boundary::Mirror),
                Some("Wrap") => Ok(Boundary::Wrap),
                Some("Constant") => err(
                    e.span(),
                    "`Boundary::Constant` needs the value read outside the array: `Boundary::Constant(0.0)`",
                ),
                _ => err(
                    last_span(&p.path),
                    format!(
                        "unknown boundary `{}`; expected {BOUNDARIES}",
                        quote_path(&p.path)
                    ),
                ),
            },
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else {
                    return err(e.span(), format!("expected a boundary: {BOUNDARIES}"));
                };
                match variant(&p.path).as_deref() {
                    Some("Constant") => {
                        if c.args.len() != 1 {
                            return err(c.span(), "`Boundary::Constant` takes one value");
                        }
                        let v = self.expr(&c.args[0], Some(elem))?;
                        self.expect_ty(v, elem, c.args[0].span())?;
                        Ok(Boundary::Constant(v))
                    }
                    _ => err(
                        last_span(&p.path),
                        format!(
                            "unknown boundary `{}`; expected {BOUNDARIES}",
                            quote_path(&p.path)
                        ),
                    ),
                }
            }
            _ => err(e.span(), format!("expected a boundary: {BOUNDARIES}")),
        }
    }

    /// The stencil function: one parameter per point of each pattern
    /// (row-major, the arrays in order), and the patterns' extents.
    fn stencil_closure(
        &mut self,
        e: &syn::Expr,
        name: &str,
        arrays: &[(H, Ty, proc_macro2::Span)],
        rank: usize,
        ret: Option<&Ty>,
    ) -> CResult<(Fun, Vec<Vec<usize>>)> {
        let c = match e {
            syn::Expr::Closure(c) => c,
            syn::Expr::Paren(p) => return self.stencil_closure(&p.expr, name, arrays, rank, ret),
            syn::Expr::Group(g) => return self.stencil_closure(&g.expr, name, arrays, rank, ret),
            other => {
                return err(
                    other.span(),
                    format!(
                    "`{name}` needs a closure whose parameter{} the stencil pattern{}, like `|[l, c, r]| ..`",
                    if arrays.len() == 1 { " is" } else { "s are" },
                    if arrays.len() == 1 { "" } else { "s" }
                ),
                )
            }
        };
        if c.inputs.len() != arrays.len() {
            return err(
                c.or1_token.span(),
                format!(
                    "closure of the wrong shape: `{name}` takes a closure of {} parameter{} (one stencil pattern per array), found {}",
                    arrays.len(),
                    if arrays.len() == 1 { "" } else { "s" },
                    c.inputs.len()
                ),
            );
        }
        if let Some(m) = &c.movability {
            return err(m.span(), "`static` closures are not supported");
        }
        // Shapes and leaves of every pattern, checked before anything is bound.
        let mut extents = Vec::new();
        let mut leaves: Vec<(&syn::Pat, Ty)> = Vec::new();
        for (pat, (_, elem, _)) in c.inputs.iter().zip(arrays) {
            let mut ls = Vec::new();
            let ext = pattern_shape(pat, &mut ls)?;
            if ext.len() != rank {
                return err(
                    pat.span(),
                    format!(
                        "this stencil pattern has rank {} but the array has rank {rank}: nest the pattern {rank} level{} deep",
                        ext.len(),
                        if rank == 1 { "" } else { "s" }
                    ),
                );
            }
            leaves.extend(ls.into_iter().map(|p| (p, elem.clone())));
            extents.push(ext);
        }
        let mut names: Vec<String> = Vec::new();
        for (p, _) in &leaves {
            if let syn::Pat::Ident(pi) = p {
                let n = pi.ident.to_string();
                if names.contains(&n) {
                    return err(
                        pi.span(),
                        format!("identifier `{n}` is bound more than once in the stencil pattern"),
                    );
                }
                names.push(n);
            }
        }
        // Bind the points: names in scope for the body only.
        let mark = self.scope.len();
        let saved_base = std::mem::replace(&mut self.closure_base, mark);
        let r = self.stencil_body(c, &leaves, ret);
        self.scope.truncate(mark);
        self.closure_base = saved_base;
        let (params, body) = r?;
        Ok((Fun { params, body }, extents))
    }

    fn stencil_body(
        &mut self,
        c: &syn::ExprClosure,
        leaves: &[(&syn::Pat, Ty)],
        ret: Option<&Ty>,
    ) -> CResult<(Vec<VarId>, H)> {
        let mut vars = Vec::new();
        let mut lets = Vec::new();
        for (pat, ty) in leaves {
            match pat {
                syn::Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                    if pi.mutability.is_some() {
                        return err(pi.span(), "closure parameters cannot be `mut`");
                    }
                    let n = pi.ident.to_string();
                    let v = self.arena.new_var(&n, ty.clone());
                    self.bind(&n, v, false);
                    vars.push(v);
                }
                syn::Pat::Wild(_) => vars.push(self.arena.new_var("_", ty.clone())),
                _ => {
                    let v = self.arena.new_var("p", ty.clone());
                    let vh = self.arena.var_ref(v);
                    self.bind_pat(pat, ty, vh, &mut lets, false)?;
                    vars.push(v);
                }
            }
        }
        let declared = match &c.output {
            syn::ReturnType::Default => None,
            syn::ReturnType::Type(_, t) => Some(super::lower_type(t)?),
        };
        let want = declared.as_ref().or(ret);
        self.closure_depth += 1;
        let body = self.expr(&c.body, want);
        self.closure_depth -= 1;
        let body = body?;
        if let Some(t) = want {
            self.expect_ty(body, t, c.body.span())?;
        }
        if self.arena.ty(body).has_array() {
            return err(
                c.body.span(),
                "a stencil closure computes one element, not an array",
            );
        }
        Ok((vars, self.wrap_lets(lets, body)))
    }
}

/// The extents of a stencil pattern (`[a, b, c]`, `[[..], [..], [..]]`, ..),
/// its leaf patterns collected row-major into `leaves`.
fn pattern_shape<'p>(pat: &'p syn::Pat, leaves: &mut Vec<&'p syn::Pat>) -> CResult<Vec<usize>> {
    let sp = match pat {
        syn::Pat::Slice(sp) => sp,
        syn::Pat::Paren(p) => return pattern_shape(&p.pat, leaves),
        other => {
            return err(
                other.span(),
                "a stencil closure's parameter is the pattern of its neighbourhood, like `|[l, c, r]|` or `|[[a, b, c], [d, e, f], [g, h, i]]|`",
            )
        }
    };
    let n = sp.elems.len();
    if n % 2 == 0 {
        return err(
            sp.span(),
            format!("stencil sizes must be odd (the centre is the middle point), found {n}"),
        );
    }
    if n > MAX_STENCIL {
        return err(
            sp.span(),
            format!("stencil sizes are at most {MAX_STENCIL} in each dimension, found {n}"),
        );
    }
    let nested = sp.elems.iter().filter(|p| is_slice(p)).count();
    if nested == 0 {
        leaves.extend(sp.elems.iter());
        return Ok(vec![n]);
    }
    if nested != n {
        let odd = sp.elems.iter().find(|p| !is_slice(p)).unwrap_or(pat);
        return err(
            odd.span(),
            "every row of a stencil pattern must be a pattern `[..]` of the same size",
        );
    }
    let mut inner: Option<Vec<usize>> = None;
    for p in &sp.elems {
        let s = pattern_shape(p, leaves)?;
        match &inner {
            Some(i) if *i != s => {
                return err(
                    p.span(),
                    format!(
                        "the rows of a stencil pattern must have the same shape: {} and {}",
                        dims(i),
                        dims(&s)
                    ),
                )
            }
            _ => inner = Some(s),
        }
    }
    let mut out = vec![n];
    out.extend(inner.unwrap_or_default());
    Ok(out)
}

fn is_slice(p: &syn::Pat) -> bool {
    match p {
        syn::Pat::Slice(_) => true,
        syn::Pat::Paren(q) => is_slice(&q.pat),
        _ => false,
    }
}

fn dims(e: &[usize]) -> String {
    e.iter().map(|n| n.to_string()).collect::<Vec<_>>().join("x")
}

/// The span of a path's last segment (`Reflect` in `Boundary::Reflect`).
fn last_span(p: &syn::Path) -> proc_macro2::Span {
    p.segments
        .last()
        .map(|s| s.ident.span())
        .unwrap_or_else(|| p.span())
}

fn quote_path(p: &syn::Path) -> String {
    p.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}
