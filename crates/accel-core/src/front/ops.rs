//! Method calls: the array operations (in the style of Rust iterators), the
//! array queries usable in scalar code, and the scalar math methods.

use super::expr::plural;
use super::library::LIBRARY_METHODS;
use super::Lowerer;
use crate::error::{err, CResult};
use crate::ir::{
    Arena, ArrayOp, BinOp, ErrorKind, Expr, Fun, MathFn, MathRes, Prim, Scalar, ScanDir, ScanKind, Ty, H,
};
use proc_macro2::Span;
use syn::spanned::Spanned;

/// The primitive array methods, for the "no such operation" message and the
/// guide's check (`tests/guide.rs`).
pub const ARRAY_METHODS: &str =
    "map, zip_with, zip_with_exact, zip_with_broadcast, zip, unzip, backpermute, reshape, fold, fold1, \
     fold_all, sum, product, minimum, maximum, scanl, scanl1, scanr, scanr1, scanl_total, \
     scanr_total, permute, stencil, stencil2, shape, len, value, rows, to_seq, split";

/// The operator and initial value of reduction `op` (`sum`, `product`,
/// `minimum`, `maximum`) on elements of type `p`: `+` from 0, `*` from 1,
/// `min` and `max` without one. `sum()` and the library's reductions along
/// an axis, over all elements and of rows (`mean`) share it.
pub(crate) fn reduction(arena: &mut Arena, op: &str, p: Prim, span: Span) -> (Fun, Option<H>) {
    let elem = Ty::Prim(p);
    let (x, y) = (arena.new_var("x", elem.clone()), arena.new_var("y", elem.clone()));
    let (xh, yh) = (arena.var_ref(x), arena.var_ref(y));
    let (body, z) = match op {
        "sum" => (arena.binary(BinOp::Add, xh, yh), Some(arena.lit(p, zero_bits(p)))),
        "product" => (arena.binary(BinOp::Mul, xh, yh), Some(arena.lit(p, one_bits(p)))),
        "minimum" => (
            arena.add(Expr::Scalar(Scalar::Math(MathFn::Min, vec![xh, yh])), elem, span),
            None,
        ),
        _ => (
            arena.add(Expr::Scalar(Scalar::Math(MathFn::Max, vec![xh, yh])), elem, span),
            None,
        ),
    };
    let f = Fun {
        params: vec![x, y],
        body,
    };
    (f, z)
}

impl Lowerer<'_> {
    pub(crate) fn method_call(&mut self, m: &syn::ExprMethodCall, expected: Option<&Ty>) -> CResult<H> {
        if let Some(t) = &m.turbofish {
            return err(t.span(), "turbofish `::<..>` is not supported here");
        }
        let name = m.method.to_string();
        let args: Vec<&syn::Expr> = m.args.iter().collect();
        // Math methods on a literal receiver (`2.0.sqrt()`) take the expected
        // type when the result has the receiver's type.
        let same = MathFn::from_name(&name).is_some_and(|f| f.info().result == MathRes::Same);
        let recv = self.expr(&m.receiver, if same { expected } else { None })?;
        let recv_ty = self.arena.ty(recv).clone();
        // A method of one of the program's structs (a math method of a
        // primitive wins: a struct of one field is that field to accel).
        let builtin = matches!(recv_ty, Ty::Prim(_)) && MathFn::from_name(&name).is_some();
        if matches!(recv_ty, Ty::Prim(_) | Ty::Tuple(_)) && !builtin {
            if let Some(f) = self.structs.method(&recv_ty, &name, self.fns) {
                let mut all = vec![&*m.receiver];
                all.extend(args.iter().copied());
                return self.inline_call(&f, &all, m.method.span());
            }
        }
        match &recv_ty {
            Ty::Array(..) if ["rows", "to_seq", "split"].contains(&name.as_str()) => {
                self.no_array_ops_here(m.method.span(), &name)?;
                self.seq_producer(recv, &name, m)
            }
            Ty::Array(..) => self.array_method(recv, &name, &args, m, expected),
            Ty::Seq(_) => self.seq_method(recv, &name, &args, m),
            Ty::Prim(p) => self.math_method(recv, *p, &name, &args, m),
            Ty::Tuple(_) => self.tuple_method(recv, &name, &args, m),
            other => err(
                m.method.span(),
                format!("no method `{name}` on a value of type `{other}`"),
            ),
        }
    }

    pub(crate) fn arity(&self, m: &syn::ExprMethodCall, args: &[&syn::Expr], n: usize) -> CResult<()> {
        if args.len() != n {
            let verb = if args.len() == 1 { "was" } else { "were" };
            return err(
                m.method.span(),
                format!(
                    "`{}` takes {n} argument{} but {} {verb} given",
                    m.method,
                    plural(n),
                    args.len()
                ),
            );
        }
        Ok(())
    }

    pub(crate) fn no_array_ops_here(&self, span: Span, name: &str) -> CResult<()> {
        if self.in_scalar_code() {
            return err(
                span,
                format!(
                    "array operation `{name}` cannot be used inside a closure: closures compute one element \
                     (nested parallelism is not supported)\nhelp: compute the array outside the closure and \
                     read it there (`let s = xs.sum(); xs.map(|x| x + s.value())`), `generate` over the \
                     larger index space and reduce it, or run an array program per row with a sequence: \
                     `m.rows().map(|r| r.sum()).collect()`"
                ),
            );
        }
        Ok(())
    }

    fn array_method(
        &mut self,
        a: H,
        name: &str,
        args: &[&syn::Expr],
        m: &syn::ExprMethodCall,
        expected: Option<&Ty>,
    ) -> CResult<H> {
        // The method's name: where run-time errors of the operation point
        // (the receiver may be a chain over several lines).
        let span = m.method.span();
        // The element type the context expects, for closures' results.
        let want_elem = match expected {
            Some(Ty::Array(e, _)) => Some((**e).clone()),
            _ => None,
        };
        let (elem, rank) = self.array_ty(a, m.receiver.span(), name)?;
        // Queries, allowed in scalar code.
        match name {
            "shape" => {
                self.arity(m, args, 0)?;
                return Ok(self
                    .arena
                    .add(Expr::Scalar(Scalar::Shape(a)), Ty::Index(rank), span));
            }
            "len" => {
                self.arity(m, args, 0)?;
                let sh = self
                    .arena
                    .add(Expr::Scalar(Scalar::Shape(a)), Ty::Index(rank), span);
                let mut n = self.arena.usize_lit(1);
                for d in 0..rank {
                    let c = self.arena.proj(sh, d);
                    n = if d == 0 {
                        c
                    } else {
                        self.arena.binary(BinOp::Mul, n, c)
                    };
                }
                return Ok(n);
            }
            "value" => {
                self.arity(m, args, 0)?;
                if rank != 0 {
                    return err(
                        m.method.span(),
                        format!(
                            "`value()` reads a Scalar, but this array has rank {rank}; index it with `[..]`"
                        ),
                    );
                }
                let ix = self
                    .arena
                    .add(Expr::Scalar(Scalar::MakeIndex(vec![])), Ty::Index(0), span);
                return Ok(self
                    .arena
                    .add(Expr::Scalar(Scalar::Read { array: a, index: ix }), elem, span));
            }
            _ => {}
        }
        self.no_array_ops_here(m.method.span(), name)?;
        let arr = |e: Ty, r: usize| Ty::array(e, r);
        match name {
            "map" => {
                self.arity(m, args, 1)?;
                let f = self.closure(args[0], &[elem], want_elem.as_ref())?;
                let out = self.elem_result(&f, args[0])?;
                Ok(self.arena.add(Expr::Array(ArrayOp::Map { f, a }), arr(out, rank), span))
            }
            "zip_with" | "zip_with_exact" | "zip_with_broadcast" | "zip" => {
                self.arity(m, args, if name == "zip" { 1 } else { 2 })?;
                let b = self.expr(args[0], None)?;
                let (eb, rb) = self.array_ty(b, args[0].span(), name)?;
                if rb != rank {
                    return err(
                        args[0].span(),
                        format!("rank mismatch: `{name}` of an array of rank {rank} with one of rank {rb}"),
                    );
                }
                let f = if name == "zip" {
                    let x = self.arena.new_var("x", elem.clone());
                    let y = self.arena.new_var("y", eb.clone());
                    let (xh, yh) = (self.arena.var_ref(x), self.arena.var_ref(y));
                    let body = self
                        .arena
                        .add(Expr::Scalar(Scalar::Tuple(vec![xh, yh])), Ty::Tuple(vec![elem, eb]), span);
                    Fun {
                        params: vec![x, y],
                        body,
                    }
                } else {
                    self.closure(args[1], &[elem, eb], want_elem.as_ref())?
                };
                let out = self.elem_result(&f, args.last().copied().unwrap_or(&m.receiver))?;
                let (a, b) = match name {
                    "zip_with_exact" => (self.same_shape_or_fail(a, b, rank), b),
                    "zip_with_broadcast" => self.broadcast(a, b, rank),
                    _ => (a, b),
                };
                Ok(self.arena.add(Expr::Array(ArrayOp::ZipWith { f, a, b }), arr(out, rank), span))
            }
            "unzip" => {
                self.arity(m, args, 0)?;
                let Ty::Tuple(parts) = &elem else {
                    return err(
                        m.method.span(),
                        format!("`unzip` needs an array of tuples, found elements of type `{elem}`"),
                    );
                };
                let mut outs = Vec::new();
                let mut tys = Vec::new();
                for (i, t) in parts.clone().into_iter().enumerate() {
                    let x = self.arena.new_var("x", elem.clone());
                    let xh = self.arena.var_ref(x);
                    let body = self.arena.proj(xh, i);
                    let f = Fun {
                        params: vec![x],
                        body,
                    };
                    let ty = arr(t, rank);
                    outs.push(self.arena.add(Expr::Array(ArrayOp::Map { f, a }), ty.clone(), span));
                    tys.push(ty);
                }
                Ok(self.arena.add(Expr::Scalar(Scalar::Tuple(outs)), Ty::Tuple(tys), span))
            }
            "backpermute" => {
                self.arity(m, args, 2)?;
                let (shape, r2) = self.shape_arg(args[0])?;
                let f = self.closure(args[1], &[Ty::Index(r2)], Some(&Ty::Index(rank)))?;
                Ok(self
                    .arena
                    .add(Expr::Array(ArrayOp::Backpermute { shape, f, a }), arr(elem, r2), span))
            }
            "reshape" => {
                self.arity(m, args, 1)?;
                let (shape, r2) = self.shape_arg(args[0])?;
                Ok(self.arena.add(Expr::Array(ArrayOp::Reshape { shape, a }), arr(elem, r2), span))
            }
            "fold" | "fold1" | "fold_all" => {
                let has_z = name != "fold1";
                self.arity(m, args, if has_z { 2 } else { 1 })?;
                let all = name == "fold_all";
                if rank == 0 && !all {
                    return err(
                        m.method.span(),
                        format!("`{name}` reduces the innermost dimension, but a Scalar has none"),
                    );
                }
                let z = if has_z {
                    let z = self.expr(args[0], Some(&elem))?;
                    let zt = self.arena.ty(z);
                    if *zt != elem {
                        return err(
                            args[0].span(),
                            format!(
                                "mismatched types: expected `{elem}`, found `{zt}`\nhelp: `{name}` combines the \
                                 array's elements, of type `{elem}`, starting from a value of that type; to \
                                 accumulate another type, as `Iterator::fold` does, `map` the elements to it \
                                 first: `xs.map(|x| ..).{name}(..)`"
                            ),
                        );
                    }
                    Some(z)
                } else {
                    None
                };
                let f = self.closure(args[args.len() - 1], &[elem.clone(), elem.clone()], Some(&elem))?;
                let out_rank = if all { 0 } else { rank - 1 };
                Ok(self
                    .arena
                    .add(Expr::Array(ArrayOp::Fold { f, z, a, all }), arr(elem, out_rank), span))
            }
            "sum" | "product" | "minimum" | "maximum" => {
                self.arity(m, args, 0)?;
                let Some(p) = elem.prim().filter(|p| name.ends_with("mum") || p.is_numeric()) else {
                    return err(
                        m.method.span(),
                        format!("`{name}` needs an array of numbers, found elements of type `{elem}`"),
                    );
                };
                if rank == 0 {
                    return err(
                        m.method.span(),
                        format!("`{name}` reduces the innermost dimension, but a Scalar has none"),
                    );
                }
                let (f, z) = reduction(&mut self.arena, name, p, span);
                Ok(self
                    .arena
                    .add(Expr::Array(ArrayOp::Fold { f, z, a, all: false }), arr(elem, rank - 1), span))
            }
            "scanl" | "scanl1" | "scanr" | "scanr1" | "scanl_total" | "scanr_total" => {
                let dir = if name.starts_with("scanl") {
                    ScanDir::Left
                } else {
                    ScanDir::Right
                };
                let kind = if name.ends_with('1') {
                    ScanKind::Inclusive
                } else if name.ends_with("_total") {
                    ScanKind::Exclusive
                } else {
                    ScanKind::WithInit
                };
                let has_z = kind != ScanKind::Inclusive;
                self.arity(m, args, if has_z { 2 } else { 1 })?;
                if rank == 0 {
                    return err(
                        m.method.span(),
                        format!("`{name}` scans the innermost dimension, but a Scalar has none"),
                    );
                }
                let z = if has_z {
                    Some(self.scalar_arg(args[0], &elem)?)
                } else {
                    None
                };
                let f = self.closure(args[args.len() - 1], &[elem.clone(), elem.clone()], Some(&elem))?;
                let ty = match kind {
                    ScanKind::Exclusive => Ty::Tuple(vec![arr(elem.clone(), rank), arr(elem, rank - 1)]),
                    _ => arr(elem, rank),
                };
                Ok(self.arena.add(Expr::Array(ArrayOp::Scan { dir, kind, f, z, a }), ty, span))
            }
            "permute" => {
                self.arity(m, args, 3)?;
                // The defaults hold the source's elements: `fill([n], 0.0)`
                // written here takes their type (the rank is only a hint).
                let hint = Ty::Array(Box::new(elem.clone()), rank);
                let defaults = self.expr(args[0], Some(&hint))?;
                let (ed, rd) = self.array_ty(defaults, args[0].span(), "permute")?;
                if ed != elem {
                    let help = match (&ed, &elem) {
                        (Ty::Prim(from @ (Prim::F64 | Prim::I32)), Ty::Prim(to)) => {
                            let lit = if *from == Prim::F64 { "0.0" } else { "0" };
                            // No suffix exists for the half-precision types.
                            let typed = if to.is_half() { format!("{lit} as {elem}") } else { format!("{lit}{elem}") };
                            format!(
                                "\nhelp: a literal without a suffix is an `{ed}` where nothing else gives its \
                                 type: write the defaults in the call (`&fill([n], {lit})`), or give the literal \
                                 its type (`{typed}`)"
                            )
                        }
                        _ => String::new(),
                    };
                    return err(
                        args[0].span(),
                        format!("mismatched types: the defaults hold `{ed}` but the source holds `{elem}`{help}"),
                    );
                }
                let target = Ty::Option(Box::new(Ty::Index(rd)));
                let index = self.closure(args[1], &[Ty::Index(rank)], Some(&target))?;
                let combine = self.closure(args[2], &[elem.clone(), elem.clone()], Some(&elem))?;
                Ok(self.arena.add(
                    Expr::Array(ArrayOp::Permute {
                        combine,
                        defaults,
                        index,
                        a,
                    }),
                    arr(elem, rd),
                    span,
                ))
            }
            "stencil" | "stencil2" => self.stencil_op(a, name, args, m, want_elem.as_ref()),
            _ => match self.library_method(a, name, args, m) {
                Some(r) => r,
                None => err(
                    m.method.span(),
                    format!(
                        "no array operation `{name}`; the array operations are: {ARRAY_METHODS}, {LIBRARY_METHODS}"
                    ),
                ),
            },
        }
    }

    /// `generate(shape, |ix| ..)` and `fill(shape, value)`.
    pub(crate) fn free_array_op(
        &mut self,
        name: &str,
        args: &[&syn::Expr],
        span: Span,
        expected: Option<&Ty>,
    ) -> CResult<H> {
        let want_elem = match expected {
            Some(Ty::Array(e, _)) => Some((**e).clone()),
            _ => None,
        };
        self.no_array_ops_here(span, name)?;
        if args.len() != 2 {
            return err(
                span,
                format!(
                    "`{name}` takes 2 arguments (a shape and {}) but {} were given",
                    if name == "fill" { "a value" } else { "a closure" },
                    args.len()
                ),
            );
        }
        let (shape, rank) = self.shape_arg(args[0])?;
        let f = if name == "fill" {
            let v = self.expr(args[1], want_elem.as_ref())?;
            let t = self.arena.ty(v).clone();
            if !t.is_elem() {
                return err(
                    args[1].span(),
                    format!("`fill` needs a scalar value, found `{t}`"),
                );
            }
            let ix = self.arena.new_var("ix", Ty::Index(rank));
            Fun {
                params: vec![ix],
                body: v,
            }
        } else {
            self.closure(args[1], &[Ty::Index(rank)], want_elem.as_ref())?
        };
        let out = self.elem_result(&f, args[1])?;
        Ok(self.arena.add(
            Expr::Array(ArrayOp::Generate { shape, f }),
            Ty::array(out, rank),
            span,
        ))
    }

    pub(crate) fn shape_arg(&mut self, e: &syn::Expr) -> CResult<(H, usize)> {
        let h = self.expr(e, None)?;
        match self.arena.ty(h) {
            Ty::Index(r) => Ok((h, *r)),
            other => err(
                e.span(),
                format!("expected a shape `[usize; R]` (like `[n, m]` or `xs.shape()`), found `{other}`"),
            ),
        }
    }

    /// `a` (of rank `r`), on the condition that its shape is `b`'s, else the
    /// run-time error `ShapeMismatch` of `zip_with_exact`: `a` backpermuted
    /// to its own shape as checked, which fuses away.
    fn same_shape_or_fail(&mut self, a: H, b: H, r: usize) -> H {
        let ar = &mut self.arena;
        let (sa, sb) = (ar.shape(a), ar.shape(b));
        let mut same = ar.bool_lit(true);
        for d in 0..r {
            let (x, y) = (ar.comp(sa, d), ar.comp(sb, d));
            let eq = ar.bin(BinOp::Eq, x, y);
            same = ar.bin(BinOp::And, same, eq);
        }
        let sh = ar.assert_kind(
            same,
            ErrorKind::ShapeMismatch,
            "zip_with_exact",
            "the two arrays have different shapes",
            sa,
        );
        ar.backpermute(a, sh, |_, ix| ix)
    }

    /// `a` and `b` (of rank `r`) read over their broadcast shape, NumPy's
    /// rule for arrays of one rank: on each axis the extents are equal, or
    /// one is 1 and that array's single entry is read along the axis; else
    /// the run-time error `ShapeMismatch`. Two backpermutes, which fuse into
    /// the zip.
    fn broadcast(&mut self, a: H, b: H, r: usize) -> (H, H) {
        let ar = &mut self.arena;
        let (sa, sb) = (ar.shape(a), ar.shape(b));
        let one = ar.usize_lit(1);
        let mut fits = ar.bool_lit(true);
        let mut extents = Vec::new();
        for d in 0..r {
            let (x, y) = (ar.comp(sa, d), ar.comp(sb, d));
            let same = ar.bin(BinOp::Eq, x, y);
            let (x1, y1) = (ar.bin(BinOp::Eq, x, one), ar.bin(BinOp::Eq, y, one));
            let either = ar.bin(BinOp::Or, x1, y1);
            let axis = ar.bin(BinOp::Or, same, either);
            fits = ar.bin(BinOp::And, fits, axis);
            // 1 against n is n (0 included, as in NumPy); otherwise they agree.
            extents.push(ar.if_(x1, y, x));
        }
        let shape = ar.index(extents);
        let shape = ar.assert_kind(
            fits,
            ErrorKind::ShapeMismatch,
            "zip_with_broadcast",
            "the shapes do not broadcast: on each axis the extents must be equal or one of them 1",
            shape,
        );
        let spread = |ar: &mut Arena, x: H, sx: H| {
            ar.backpermute(x, shape, |ar, ix| {
                let comps = (0..r)
                    .map(|d| {
                        let (n, i) = (ar.comp(sx, d), ar.comp(ix, d));
                        let single = ar.bin(BinOp::Eq, n, one);
                        let zero = ar.usize_lit(0);
                        ar.if_(single, zero, i)
                    })
                    .collect();
                ar.index(comps)
            })
        };
        let a = spread(ar, a, sa);
        let b = spread(ar, b, sb);
        (a, b)
    }

    pub(crate) fn scalar_arg(&mut self, e: &syn::Expr, want: &Ty) -> CResult<H> {
        let h = self.expr(e, Some(want))?;
        self.expect_ty(h, want, e.span())?;
        Ok(h)
    }

    fn elem_result(&self, f: &Fun, e: &syn::Expr) -> CResult<Ty> {
        let t = self.arena.ty(f.body).clone();
        if !t.is_elem() {
            return err(
                e.span(),
                format!("this closure returns `{t}`, which cannot be an array element"),
            );
        }
        Ok(t)
    }

    fn math_method(
        &mut self,
        x: H,
        p: Prim,
        name: &str,
        args: &[&syn::Expr],
        m: &syn::ExprMethodCall,
    ) -> CResult<H> {
        self.math_call(x, p, name, args, m.method.span(), m.span())
    }

    /// `x.name(args..)` on a primitive `x` of type `p` (also the path form
    /// `p::name(x, args..)`); `name_span` is where errors about the name go.
    pub(crate) fn math_call(
        &mut self,
        x: H,
        p: Prim,
        name: &str,
        args: &[&syn::Expr],
        name_span: Span,
        span: Span,
    ) -> CResult<H> {
        let Some(f) = MathFn::from_name(name).filter(|f| *f != MathFn::FromBits) else {
            return err(
                name_span,
                format!(
                    "no method `{name}` on `{}`; its methods are: {}",
                    p.name(),
                    math_names(p)
                ),
            );
        };
        let info = f.info();
        if !f.accepts(p) {
            return err(
                name_span,
                format!(
                    "no method `{name}` on `{}`: `{name}` is defined on {}",
                    p.name(),
                    info.on.describe()
                ),
            );
        }
        let n = info.arity - 1;
        if args.len() != n {
            let verb = if args.len() == 1 { "was" } else { "were" };
            return err(
                name_span,
                format!(
                    "`{name}` takes {n} argument{} but {} {verb} given",
                    plural(n),
                    args.len()
                ),
            );
        }
        let mut xs = vec![x];
        for (i, a) in args.iter().enumerate() {
            let want = Ty::Prim(f.arg_prim(p, i + 1));
            xs.push(self.scalar_arg(a, &want)?);
        }
        Ok(self.arena.add(
            Expr::Scalar(Scalar::Math(f, xs)),
            Ty::Prim(f.result_prim(p)),
            span,
        ))
    }

    /// `a.min(b)` / `a.max(b)` on tuples: lexicographic, as Rust's `Ord` for
    /// tuples (`min` keeps `a` unless `b < a`; `max` takes `b` unless `b < a`).
    fn tuple_method(&mut self, a: H, name: &str, args: &[&syn::Expr], m: &syn::ExprMethodCall) -> CResult<H> {
        let ty = self.arena.ty(a).clone();
        if !matches!(name, "min" | "max") || !ty.is_elem() {
            return err(
                m.method.span(),
                format!(
                    "no method `{name}` on a value of type `{ty}`; tuples of scalars have `min` and `max`"
                ),
            );
        }
        self.arity(m, args, 1)?;
        let b = self.scalar_arg(args[0], &ty)?;
        // Each operand is computed once, however many fields are compared.
        let (av, bv) = (
            self.arena.new_var("a", ty.clone()),
            self.arena.new_var("b", ty.clone()),
        );
        let (ah, bh) = (self.arena.var_ref(av), self.arena.var_ref(bv));
        let b_lt_a = self.tuple_lt(bh, ah);
        let (t, e) = if name == "min" { (bh, ah) } else { (ah, bh) };
        let pick = self
            .arena
            .add(Expr::Scalar(Scalar::If(b_lt_a, t, e)), ty, m.span());
        let inner = self.arena.let_(bv, b, pick);
        Ok(self.arena.let_(av, a, inner))
    }

    /// `x < y`, lexicographically on tuples.
    fn tuple_lt(&mut self, x: H, y: H) -> H {
        let Ty::Tuple(ts) = self.arena.ty(x).clone() else {
            return self.arena.binary(BinOp::Lt, x, y);
        };
        let bool_ty = Ty::Prim(Prim::Bool);
        let mut acc: Option<H> = None;
        for i in (0..ts.len()).rev() {
            let (xi, yi) = (self.arena.proj(x, i), self.arena.proj(y, i));
            let lt = self.tuple_lt(xi, yi);
            acc = Some(match acc {
                None => lt,
                Some(rest) => {
                    let eq = self.tuple_eq(xi, yi);
                    let eq_rest = self.arena.add(
                        Expr::Scalar(Scalar::Binary(BinOp::And, eq, rest)),
                        bool_ty.clone(),
                        Span::call_site(),
                    );
                    self.arena.add(
                        Expr::Scalar(Scalar::Binary(BinOp::Or, lt, eq_rest)),
                        bool_ty.clone(),
                        Span::call_site(),
                    )
                }
            });
        }
        acc.unwrap_or_else(|| self.arena.lit(Prim::Bool, 0))
    }

    fn tuple_eq(&mut self, x: H, y: H) -> H {
        let Ty::Tuple(ts) = self.arena.ty(x).clone() else {
            return self.arena.binary(BinOp::Eq, x, y);
        };
        let bool_ty = Ty::Prim(Prim::Bool);
        let mut acc: Option<H> = None;
        for i in (0..ts.len()).rev() {
            let (xi, yi) = (self.arena.proj(x, i), self.arena.proj(y, i));
            let eq = self.tuple_eq(xi, yi);
            acc = Some(match acc {
                None => eq,
                Some(rest) => self.arena.add(
                    Expr::Scalar(Scalar::Binary(BinOp::And, eq, rest)),
                    bool_ty.clone(),
                    Span::call_site(),
                ),
            });
        }
        acc.unwrap_or_else(|| self.arena.lit(Prim::Bool, 1))
    }
}

/// The math methods defined on `p`.
fn math_names(p: Prim) -> String {
    MathFn::ALL
        .iter()
        .filter(|m| **m != MathFn::FromBits && m.accepts(p))
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn zero_bits(p: Prim) -> u64 {
    match p {
        Prim::F32 => 0f32.to_bits() as u64,
        _ => 0,
    }
}

fn one_bits(p: Prim) -> u64 {
    match p {
        Prim::F32 => 1f32.to_bits() as u64,
        Prim::F64 => 1f64.to_bits(),
        _ => 1,
    }
}
