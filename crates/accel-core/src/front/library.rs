//! The library: array operations defined on top of the primitives (generate,
//! map, zip_with, backpermute, reshape, fold, scan, permute), as Accelerate
//! defines its prelude over a small core. Because they expand to primitives
//! before sharing recovery, every back end runs them, the interpreter checks
//! them, and fusion treats them as what they are made of: `reverse` is a
//! backpermute and fuses like one, `filter` is a scan and a permute.

use super::Lowerer;
use crate::error::{err, CResult};
use crate::ir::{Arena, BinOp, Fun, Prim, ScanDir, ScanKind, Ty, H};
use syn::spanned::Spanned;

/// The library's method names, for the "no such operation" message and the
/// guide's check (`tests/guide.rs`).
pub const LIBRARY_METHODS: &str = "reverse, transpose, take, drop, init, tail, concat, flatten, \
     gather, enumerate, indexed, replicate, slice, fold1_all, all, any, argmin, argmax, matmul, fold_seg, \
     fold_seg_offsets, prescanl, postscanl, prescanr, postscanr, scanl_seg, scanl1_seg, scanr_seg, \
     scanr1_seg, scanl_seg_total, scanr_seg_total, scatter, scatter_if, filter, compact, expand, sort, \
     sort_by_key, sort_indices, fold_axis, sum_axis, product_axis, minimum_axis, maximum_axis, sum_all, \
     mean, variance";

/// One entry of a `replicate`/`slice` specification.
enum Spec {
    All,
    Any,
    Int(H),
}

type Call<'c> = (&'c syn::ExprMethodCall, &'c [&'c syn::Expr]);

impl Lowerer<'_> {
    /// A library operation on array `a`, or `None` when `name` is not one.
    pub(crate) fn library_method(
        &mut self,
        a: H,
        name: &str,
        args: &[&syn::Expr],
        m: &syn::ExprMethodCall,
    ) -> Option<CResult<H>> {
        let c: Call = (m, args);
        // The nodes of the derived operation are at the method's name: its
        // run-time errors (a bad index of `gather`, a negative count of
        // `expand`) point there.
        let outer = self.arena.set_build_span(Some(m.method.span()));
        let r = self.library_op(a, name, c);
        self.arena.set_build_span(outer);
        r
    }

    fn library_op(&mut self, a: H, name: &str, c: Call) -> Option<CResult<H>> {
        let r = match name {
            "reverse" => self.reverse(a, c),
            "transpose" => self.transpose(a, c),
            "take" | "drop" => self.take_drop(a, c, name == "take"),
            "init" | "tail" => self.init_tail(a, c, name == "init"),
            "concat" => self.concat(a, c),
            "flatten" => self.flatten_op(a, c),
            "gather" => self.gather(a, c),
            "enumerate" | "indexed" => self.enumerate(a, c, name == "indexed"),
            "replicate" => self.replicate(a, c),
            "slice" => self.slice(a, c),
            "fold1_all" => self.fold1_all(a, c),
            "fold_axis" => self.fold_axis(a, c),
            "sum_axis" | "product_axis" | "minimum_axis" | "maximum_axis" => self.reduce_axis(a, c, name),
            "sum_all" => self.sum_all(a, c),
            "mean" | "variance" => self.moments(a, c, name == "variance"),
            "all" | "any" => self.all_any(a, c, name == "all"),
            "argmin" | "argmax" => self.arg_extreme(a, c, name == "argmin"),
            "matmul" => self.matmul(a, c),
            "fold_seg" | "fold_seg_offsets" => self.fold_seg(a, c, name == "fold_seg_offsets"),
            "prescanl" | "prescanr" => self.prescan(a, c, dir_of(name)),
            "postscanl" | "postscanr" => self.postscan(a, c, dir_of(name)),
            "scanl_seg" | "scanl1_seg" | "scanr_seg" | "scanr1_seg" | "scanl_seg_total"
            | "scanr_seg_total" => self.scan_seg(a, c, name),
            "scatter" | "scatter_if" => self.scatter(a, c, name == "scatter_if"),
            "filter" | "compact" => self.filter(a, c, name == "compact"),
            "expand" => self.expand(a, c),
            "sort" | "sort_by_key" | "sort_indices" => self.sort(a, c, name),
            _ => return None,
        };
        Some(r.map(|h| self.arena.bind_shared_arrays(h)))
    }

    /// `iota(n)`: `0, 1, .., n - 1`, of the numeric element type the context
    /// expects (`usize` when it expects none).
    pub(crate) fn iota(
        &mut self,
        args: &[&syn::Expr],
        span: proc_macro2::Span,
        expected: Option<&Ty>,
    ) -> CResult<H> {
        if self.in_scalar_code() {
            return err(span, "array operation `iota` cannot be used inside a closure: closures compute one element (nested parallelism is not supported)");
        }
        if args.len() != 1 {
            return err(
                span,
                format!("`iota` takes 1 argument (a length) but {} were given", args.len()),
            );
        }
        let n = self.usize_arg(args[0])?;
        let p = match expected {
            Some(Ty::Array(e, 1)) => e.prim().filter(|p| p.is_numeric()).unwrap_or(Prim::Usize),
            _ => Prim::Usize,
        };
        let b = &mut self.arena;
        let sh = b.index(vec![n]);
        Ok(b.generate_with(sh, |b, ix| {
            let i = b.comp(ix, 0);
            b.cast(i, p)
        }))
    }

    // ---- argument helpers -----------------------------------------------------

    fn arity_is(&self, (m, args): Call, n: usize, what: &str) -> CResult<()> {
        if args.len() != n {
            return err(
                m.method.span(),
                format!(
                    "`{}` takes {n} argument{} ({what}) but {} {} given",
                    m.method,
                    if n == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
            );
        }
        Ok(())
    }

    fn rank_at_least(&self, a: H, (m, _): Call, r: usize) -> CResult<(Ty, usize)> {
        let (e, rank) = self.arena.arr_ty(a);
        if rank < r {
            return err(
                m.method.span(),
                format!(
                    "`{}` needs an array of rank at least {r}, but this one has rank {rank}",
                    m.method
                ),
            );
        }
        Ok((e, rank))
    }

    fn vector_only(&self, a: H, (m, _): Call) -> CResult<Ty> {
        let (e, rank) = self.arena.arr_ty(a);
        if rank != 1 {
            return err(
                m.method.span(),
                format!(
                    "`{}` works on vectors, but this array has rank {rank}{}",
                    m.method,
                    if rank > 1 { "; use `.flatten()` first" } else { "" }
                ),
            );
        }
        Ok(e)
    }

    fn usize_arg(&mut self, e: &syn::Expr) -> CResult<H> {
        let h = self.expr(e, Some(&Ty::Prim(Prim::Usize)))?;
        self.expect_ty(h, &Ty::Prim(Prim::Usize), e.span())?;
        Ok(h)
    }

    fn array_arg(&mut self, e: &syn::Expr, what: &str) -> CResult<(H, Ty, usize)> {
        let h = self.expr(e, None)?;
        let (t, r) = self.array_ty(h, e.span(), what)?;
        Ok((h, t, r))
    }

    /// A vector of integers (indices, lengths, offsets).
    fn int_vector_arg(&mut self, e: &syn::Expr, what: &str) -> CResult<(H, Prim)> {
        let (h, t, r) = self.array_arg(e, what)?;
        match t.prim() {
            Some(p) if p.is_int() && r == 1 => Ok((h, p)),
            _ => err(
                e.span(),
                format!("{what} must be a vector of integers, found `{}`", Ty::array(t, r)),
            ),
        }
    }

    fn pred(&mut self, e: &syn::Expr, param: &Ty) -> CResult<Fun> {
        let f = self.closure(e, std::slice::from_ref(param), Some(&Ty::Prim(Prim::Bool)))?;
        self.expect_ty(f.body, &Ty::Prim(Prim::Bool), e.span())?;
        Ok(f)
    }

    fn combine_fn(&mut self, e: &syn::Expr, elem: &Ty) -> CResult<Fun> {
        let f = self.closure(e, &[elem.clone(), elem.clone()], Some(elem))?;
        self.expect_ty(f.body, elem, e.span())?;
        Ok(f)
    }

    // ---- shape and layout -------------------------------------------------------

    /// Reverses the innermost dimension.
    fn reverse(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (_, r) = self.rank_at_least(a, c, 1)?;
        let b = &mut self.arena;
        let sh = b.shape(a);
        Ok(b.backpermute(a, sh, |b, ix| {
            let mut xs = b.comps(ix, r);
            let n = b.comp(sh, r - 1);
            let one = b.usize_lit(1);
            let last = b.sub_(n, one);
            xs[r - 1] = b.sub_(last, xs[r - 1]);
            b.index(xs)
        }))
    }

    fn transpose(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (_, r) = self.arena.arr_ty(a);
        if r != 2 {
            return err(
                c.0.method.span(),
                format!("`transpose` needs a matrix, but this array has rank {r}"),
            );
        }
        let b = &mut self.arena;
        let sh = b.shape(a);
        let (rows, cols) = (b.comp(sh, 0), b.comp(sh, 1));
        let out = b.index(vec![cols, rows]);
        Ok(b.backpermute(a, out, |b, ix| {
            let (i, j) = (b.comp(ix, 0), b.comp(ix, 1));
            b.index(vec![j, i])
        }))
    }

    /// `take(n)` keeps the first `min(n, len)` elements of each row; `drop(n)`
    /// the rest.
    fn take_drop(&mut self, a: H, c: Call, take: bool) -> CResult<H> {
        self.arity_is(c, 1, "a count")?;
        let (_, r) = self.rank_at_least(a, c, 1)?;
        let n = self.usize_arg(c.1[0])?;
        Ok(self.arena.let_in("n", n, |b, n| {
            let sh = b.shape(a);
            let len = b.comp(sh, r - 1);
            let k = b.min_(n, len);
            let mut out = b.comps(sh, r);
            out[r - 1] = if take { k } else { b.sub_(len, k) };
            let out = b.index(out);
            if take {
                b.reshape_prefix(a, out)
            } else {
                b.shift_innermost(a, out, k, r)
            }
        }))
    }

    fn init_tail(&mut self, a: H, c: Call, init: bool) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (_, r) = self.rank_at_least(a, c, 1)?;
        let b = &mut self.arena;
        let sh = b.shape(a);
        let len = b.comp(sh, r - 1);
        let one = b.usize_lit(1);
        let k = b.min_(len, one);
        let mut out = b.comps(sh, r);
        out[r - 1] = b.sub_(len, k);
        let out = b.index(out);
        Ok(if init {
            b.reshape_prefix(a, out)
        } else {
            b.shift_innermost(a, out, k, r)
        })
    }

    /// Concatenates along the innermost dimension; the other dimensions are
    /// intersected (Accelerate's `++`).
    fn concat(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 1, "the array to append")?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let (b2, e2, r2) = self.array_arg(c.1[0], "`concat`")?;
        if e2 != e || r2 != r {
            return err(
                c.1[0].span(),
                format!(
                    "mismatched types: `concat` of `{}` with `{}`",
                    Ty::array(e, r),
                    Ty::array(e2, r2)
                ),
            );
        }
        let b = &mut self.arena;
        let (sa, sb) = (b.shape(a), b.shape(b2));
        let na = b.comp(sa, r - 1);
        let mut out = Vec::new();
        for d in 0..r - 1 {
            let (x, y) = (b.comp(sa, d), b.comp(sb, d));
            out.push(b.min_(x, y));
        }
        let nb = b.comp(sb, r - 1);
        out.push(b.add_(na, nb));
        let out = b.index(out);
        Ok(b.generate_with(out, |b, ix| {
            let xs = b.comps(ix, r);
            let i = xs[r - 1];
            let first = b.bin(BinOp::Lt, i, na);
            let from_a = b.read(a, ix);
            let mut ys = xs.clone();
            ys[r - 1] = b.sub_(i, na);
            let iy = b.index(ys);
            let from_b = b.read(b2, iy);
            b.if_(first, from_a, from_b)
        }))
    }

    fn flatten_op(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        Ok(self.arena.flatten(a))
    }

    /// `xs.gather(&indices)`: `indices.map(|i| xs[i])`.
    fn gather(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 1, "the indices")?;
        self.vector_only(a, c)?;
        let (ixs, t, _) = self.array_arg(c.1[0], "`gather`")?;
        if !t.prim().is_some_and(Prim::is_int) {
            return err(
                c.1[0].span(),
                format!("`gather` needs integer indices, found `{t}`"),
            );
        }
        Ok(self.arena.map(ixs, |b, i| {
            let i = b.cast(i, Prim::Usize);
            b.read1(a, i)
        }))
    }

    /// `enumerate`: each element with its row-major offset; `indexed`: with its
    /// index as a tuple (`usize` for vectors).
    fn enumerate(&mut self, a: H, c: Call, indexed: bool) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (_, r) = self.arena.arr_ty(a);
        let b = &mut self.arena;
        let sh = b.shape(a);
        let ixs = b.generate_with(sh, |b, ix| {
            if indexed && r != 1 {
                let xs = b.comps(ix, r);
                b.tuple(xs)
            } else {
                b.offset_in(sh, ix, r)
            }
        });
        Ok(b.zip_with(ixs, a, |b, i, x| b.tuple(vec![i, x])))
    }

    fn spec(&mut self, e: &syn::Expr) -> CResult<Vec<Spec>> {
        let syn::Expr::Array(arr) = e else {
            return err(
                e.span(),
                "expected a specification like `[All, n]`: one entry per dimension, outermost first, each `All`, `Any` (first only) or a `usize`",
            );
        };
        let mut out = Vec::new();
        for (i, x) in arr.elems.iter().enumerate() {
            let word = match x {
                syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
                _ => None,
            };
            out.push(match word.as_deref() {
                Some("All") => Spec::All,
                Some("Any") if i == 0 => Spec::Any,
                Some("Any") => {
                    return err(
                        x.span(),
                        "`Any` stands for the outer dimensions: it may only come first",
                    )
                }
                _ => Spec::Int(self.usize_arg(x)?),
            });
        }
        Ok(out)
    }

    /// The spec with `Any` expanded to the `k` outer dimensions it stands for.
    fn expand_any(&self, spec: Vec<Spec>, rank: usize, e: &syn::Expr, what: &str) -> CResult<Vec<Spec>> {
        let has_any = matches!(spec.first(), Some(Spec::Any));
        let named = spec.iter().filter(|s| matches!(s, Spec::All)).count();
        let listed = spec.len() - has_any as usize;
        let need = if what == "replicate" { named } else { listed };
        if need > rank || (!has_any && need != rank) {
            return err(
                e.span(),
                format!(
                    "this specification describes {need} dimension{} of the source, but the array has rank {rank}",
                    if need == 1 { "" } else { "s" }
                ),
            );
        }
        let mut out: Vec<Spec> = Vec::new();
        for s in spec {
            match s {
                Spec::Any => (0..rank - need).for_each(|_| out.push(Spec::All)),
                s => out.push(s),
            }
        }
        Ok(out)
    }

    /// `replicate([All, n, ..])`: `All` keeps a source dimension, `n` adds a
    /// new one of extent `n`; `Any` (first) keeps the remaining outer ones.
    fn replicate(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 1, "a specification")?;
        let (_, r) = self.arena.arr_ty(a);
        let spec = self.spec(c.1[0])?;
        let spec = self.expand_any(spec, r, c.1[0], "replicate")?;
        let b = &mut self.arena;
        let sh = b.shape(a);
        let mut src = 0;
        let mut out = Vec::new();
        for s in &spec {
            out.push(match s {
                Spec::Int(n) => *n,
                _ => {
                    src += 1;
                    b.comp(sh, src - 1)
                }
            });
        }
        let out = b.index(out);
        Ok(b.backpermute(a, out, |b, ix| {
            let xs: Vec<H> = spec
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, Spec::All | Spec::Any))
                .map(|(d, _)| b.comp(ix, d))
                .collect();
            b.index(xs)
        }))
    }

    /// `slice([All, i, ..])`: `All` keeps a dimension, `i` fixes it at index `i`.
    fn slice(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 1, "a specification")?;
        let (_, r) = self.arena.arr_ty(a);
        let spec = self.spec(c.1[0])?;
        let spec = self.expand_any(spec, r, c.1[0], "slice")?;
        let b = &mut self.arena;
        let sh = b.shape(a);
        let mut out = Vec::new();
        for (d, s) in spec.iter().enumerate() {
            if !matches!(s, Spec::Int(_)) {
                out.push(b.comp(sh, d));
            }
        }
        let out = b.index(out);
        Ok(b.backpermute(a, out, |b, ix| {
            let mut k = 0;
            let xs: Vec<H> = spec
                .iter()
                .map(|s| match s {
                    Spec::Int(i) => *i,
                    _ => {
                        k += 1;
                        b.comp(ix, k - 1)
                    }
                })
                .collect();
            b.index(xs)
        }))
    }

    // ---- reductions -----------------------------------------------------------

    fn fold1_all(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 1, "a closure")?;
        let (e, _) = self.arena.arr_ty(a);
        let f = self.combine_fn(c.1[0], &e)?;
        Ok(self.arena.fold(a, None, f, true))
    }

    /// The axis argument of an `_axis` operation on an array of rank `r`: an
    /// integer literal below `r` (ranks are known at compile time, and so
    /// must the result's be).
    fn axis_arg(&self, (m, args): Call, r: usize) -> CResult<usize> {
        let e = args[0];
        let lit = match e {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                ..
            }) => i.base10_parse::<usize>().ok(),
            _ => None,
        };
        let Some(k) = lit else {
            return err(
                e.span(),
                format!(
                    "the axis of `{}` must be an integer literal (`0`, `1`, ..)",
                    m.method
                ),
            );
        };
        if k >= r {
            return err(
                e.span(),
                format!(
                    "axis {k} is out of range for an array of rank {r} (axes 0 to {})",
                    r.saturating_sub(1)
                ),
            );
        }
        Ok(k)
    }

    /// Array `a` of rank `r` with axis `k` moved innermost, the others in
    /// order: a backpermute, which a reduction fuses (its loops then run
    /// interchanged where that reads memory in order).
    fn axis_innermost(&mut self, a: H, k: usize, r: usize) -> H {
        if k + 1 == r {
            return a;
        }
        let b = &mut self.arena;
        let sh = b.shape(a);
        let mut dims = b.comps(sh, r);
        let d = dims.remove(k);
        dims.push(d);
        let out = b.index(dims);
        b.backpermute(a, out, |b, ix| {
            let mut o = b.comps(ix, r);
            let last = o.pop().expect("rank at least 1");
            o.insert(k, last);
            b.index(o)
        })
    }

    /// `fold_axis(k, z, f)`: `fold(z, f)` along axis `k`, in index order.
    fn fold_axis(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 3, "an axis, an initial value and a closure")?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let k = self.axis_arg(c, r)?;
        let z = self.scalar_arg(c.1[1], &e)?;
        let f = self.combine_fn(c.1[2], &e)?;
        let moved = self.axis_innermost(a, k, r);
        Ok(self.arena.fold(moved, Some(z), f, false))
    }

    /// `sum_axis(k)`, `product_axis(k)`, `minimum_axis(k)`, `maximum_axis(k)`:
    /// `sum()` and the others along axis `k`.
    fn reduce_axis(&mut self, a: H, c: Call, name: &str) -> CResult<H> {
        self.arity_is(c, 1, "an axis")?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let k = self.axis_arg(c, r)?;
        let op = name.trim_end_matches("_axis");
        let p = match e.prim() {
            Some(p) if op.ends_with("mum") || p.is_numeric() => p,
            _ => {
                let what = if op.ends_with("mum") {
                    "primitive values"
                } else {
                    "numbers"
                };
                return err(
                    c.0.method.span(),
                    format!("`{name}` needs an array of {what}, found elements of type `{e}`"),
                );
            }
        };
        let moved = self.axis_innermost(a, k, r);
        let (f, z) = super::ops::reduction(&mut self.arena, op, p, c.0.method.span());
        let b = &mut self.arena;
        Ok(b.fold(moved, z, f, false))
    }

    /// `sum_all()`: the sum of every element, a `Scalar`.
    fn sum_all(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (e, _) = self.arena.arr_ty(a);
        let Some(p) = e.prim().filter(|p| p.is_numeric()) else {
            return err(
                c.0.method.span(),
                format!("`sum_all` needs an array of numbers, found elements of type `{e}`"),
            );
        };
        let (f, z) = super::ops::reduction(&mut self.arena, "sum", p, c.0.method.span());
        Ok(self.arena.fold(a, z, f, true))
    }

    /// `mean()` and `variance()` of each row (the innermost dimension), of
    /// floating-point numbers: the sum over the length, and the mean of the
    /// squared deviations from the row's mean (the population variance,
    /// NumPy's default). An empty row gives NaN (0 / 0).
    fn moments(&mut self, a: H, c: Call, variance: bool) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let Some(p) = e.prim().filter(|p| p.is_float()) else {
            return err(
                c.0.method.span(),
                format!(
                    "`{}` needs an array of floating-point numbers, found elements of type `{e}` (map them with `as f64` first)",
                    c.0.method
                ),
            );
        };
        let b = &mut self.arena;
        let sh = b.shape(a);
        let len = b.comp(sh, r - 1);
        let n = b.cast(len, p);
        let span = c.0.method.span();
        let sum_of = |b: &mut Arena, xs: H| {
            let (f, z) = super::ops::reduction(b, "sum", p, span);
            let s = b.fold(xs, z, f, false);
            b.map(s, |b, s| b.bin(BinOp::Div, s, n))
        };
        let mean = sum_of(b, a);
        if !variance {
            return Ok(mean);
        }
        let squares = b.generate_with(sh, |b, ix| {
            let x = b.read(a, ix);
            let mut row = b.comps(ix, r);
            row.pop();
            let row = b.index(row);
            let m = b.read(mean, row);
            let d = b.sub_(x, m);
            b.bin(BinOp::Mul, d, d)
        });
        Ok(sum_of(b, squares))
    }

    /// `all(p)`/`any(p)` over the innermost dimension.
    fn all_any(&mut self, a: H, c: Call, all: bool) -> CResult<H> {
        self.arity_is(c, 1, "a predicate")?;
        let (e, _) = self.rank_at_least(a, c, 1)?;
        let p = self.pred(c.1[0], &e)?;
        let b = &mut self.arena;
        let flags = b.map(a, |b, x| b.apply(&p, &[x]));
        let z = b.bool_lit(all);
        let op = if all { BinOp::And } else { BinOp::Or };
        let f = b.op2(&Ty::Prim(Prim::Bool), |b, x, y| b.bin(op, x, y));
        Ok(b.fold(flags, Some(z), f, false))
    }

    /// The position of the least (greatest) element of each row, the first
    /// one among equals; NaN counts as greater (smaller) than every number so
    /// the answer does not depend on the order of the parallel reduction.
    fn arg_extreme(&mut self, a: H, c: Call, min: bool) -> CResult<H> {
        self.arity_is(c, 0, "none")?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let Some(p) = e.prim().filter(|p| p.is_numeric()) else {
            return err(
                c.0.method.span(),
                format!("`{}` needs an array of numbers, found `{e}`", c.0.method),
            );
        };
        let b = &mut self.arena;
        let sh = b.shape(a);
        let pos = b.generate_with(sh, |b, ix| b.comp(ix, r - 1));
        let pairs = b.zip_with(a, pos, |b, x, k| b.tuple(vec![x, k]));
        let pt = Ty::Tuple(vec![e.clone(), Ty::Prim(Prim::Usize)]);
        let f = b.op2(&pt, |b, x, y| {
            let (xv, xk, yv, yk) = (b.proj(x, 0), b.proj(x, 1), b.proj(y, 0), b.proj(y, 1));
            let cmp = if min { BinOp::Lt } else { BinOp::Gt };
            let mut better = b.bin(cmp, yv, xv);
            let mut same = b.bin(BinOp::Eq, yv, xv);
            if p.is_float() {
                let (xn, yn) = (b.bin(BinOp::Ne, xv, xv), b.bin(BinOp::Ne, yv, yv));
                let y_num = b.not_(yn);
                let nan_loses = b.bin(BinOp::And, xn, y_num);
                better = b.bin(BinOp::Or, better, nan_loses);
                let both = b.bin(BinOp::And, xn, yn);
                same = b.bin(BinOp::Or, same, both);
            }
            let earlier = b.bin(BinOp::Lt, yk, xk);
            let tie = b.bin(BinOp::And, same, earlier);
            let take_y = b.bin(BinOp::Or, better, tie);
            b.if_(take_y, y, x)
        });
        let best = b.fold(pairs, None, f, false);
        Ok(b.map(best, |b, x| b.proj(x, 1)))
    }

    /// `a.matmul(&b)`: the matrix product, as NumPy's `matmul` for ranks 1
    /// and 2 (a vector on the left is a row, on the right a column; two
    /// vectors give their dot product as a `Scalar`). Built from primitives:
    /// the products over the index space `[rows of a, columns of b, inner]`,
    /// summed over the inner axis; the CPU back end runs that fold with its
    /// loops interchanged (contiguous reads of `b`). Inner extents that differ
    /// are a run-time `InvalidArgument`.
    fn matmul(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 1, "a matrix or a vector")?;
        let (e, ra) = self.arena.arr_ty(a);
        let (bm, eb, rb) = self.array_arg(c.1[0], "`matmul`")?;
        let span = c.0.method.span();
        if !(1..=2).contains(&ra) || !(1..=2).contains(&rb) {
            return err(
                span,
                format!("`matmul` multiplies matrices and vectors (rank 1 or 2), but these arrays have ranks {ra} and {rb}"),
            );
        }
        if e.prim().filter(|p| p.is_numeric()).is_none() || eb != e {
            return err(
                span,
                format!("`matmul` needs two arrays of the same numeric element type, found `{e}` and `{eb}`"),
            );
        }
        let b = &mut self.arena;
        let (sa, sb) = (b.shape(a), b.shape(bm));
        let k = b.comp(sa, ra - 1);
        let kb = b.comp(sb, 0);
        let same = b.bin(BinOp::Eq, k, kb);
        // The smaller extent when they differ: no read is ever out of bounds,
        // so every executor reports the same error (the assertion's).
        let inner = b.min_(k, kb);
        let k = b.assert(
            same,
            "matmul",
            "the inner extents differ (a has as many columns as b has rows)",
            inner,
        );
        // The index space: a's rows (a matrix), b's columns (a matrix), inner.
        let mut dims = Vec::new();
        if ra == 2 {
            dims.push(b.comp(sa, 0));
        }
        if rb == 2 {
            dims.push(b.comp(sb, 1));
        }
        dims.push(k);
        let space = b.index(dims);
        let prod = b.generate_with(space, |b, ix| {
            let mut xs = b.comps(ix, ra + rb - 1);
            let l = xs.pop().expect("the inner index");
            let (mut ia, mut ib) = (vec![l], vec![l]);
            if ra == 2 {
                ia.insert(0, xs[0]);
            }
            if rb == 2 {
                ib.push(xs[xs.len() - 1]);
            }
            let (ia, ib) = (b.index(ia), b.index(ib));
            let (x, y) = (b.read(a, ia), b.read(bm, ib));
            b.bin(BinOp::Mul, x, y)
        });
        let zero = b.zero_of(&e);
        let plus = b.op2(&e, |b, x, y| b.bin(BinOp::Add, x, y));
        Ok(b.fold(prod, Some(zero), plus, false))
    }

    /// Segmented fold along the innermost dimension: one result per segment,
    /// `z` for an empty one. Each segment is reduced left to right.
    fn fold_seg(&mut self, a: H, c: Call, by_offsets: bool) -> CResult<H> {
        self.arity_is(
            c,
            3,
            if by_offsets {
                "offsets, an initial value and a closure"
            } else {
                "segment lengths, an initial value and a closure"
            },
        )?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let what = if by_offsets {
            "the segment offsets"
        } else {
            "the segment lengths"
        };
        let (segs, _) = self.int_vector_arg(c.1[0], what)?;
        let z = self.scalar_arg(c.1[1], &e)?;
        let f = self.combine_fn(c.1[2], &e)?;
        let b = &mut self.arena;
        let offs = if by_offsets {
            b.map(segs, |b, x| {
                b.as_index(x, "fold_seg_offsets", "negative segment offset")
            })
        } else {
            let lens = b.map(segs, |b, x| b.as_index(x, "fold_seg", "negative segment length"));
            let zero = b.usize_lit(0);
            let plus = b.op2(&Ty::Prim(Prim::Usize), |b, x, y| b.add_(x, y));
            b.scan(lens, ScanDir::Left, ScanKind::WithInit, Some(zero), plus)
        };
        let sh = b.shape(a);
        let noffs = b.extent(offs, 0);
        let one = b.usize_lit(1);
        let k = b.min_(noffs, one);
        let nseg = b.sub_(noffs, k);
        let mut out = b.comps(sh, r);
        out[r - 1] = nseg;
        let out = b.index(out);
        let op = if by_offsets {
            "fold_seg_offsets"
        } else {
            "fold_seg"
        };
        Ok(b.generate_with(out, |b, ix| {
            let xs = b.comps(ix, r);
            let s = xs[r - 1];
            let start = b.read1(offs, s);
            let s1 = b.add_(s, one);
            let end = b.read1(offs, s1);
            b.let_in("end", end, |b, end| {
                let ok = b.bin(BinOp::Le, start, end);
                let lp = b.while_(
                    &["k", "acc"],
                    vec![start, z],
                    |b, st| b.bin(BinOp::Lt, st[0], end),
                    |b, st| {
                        let mut ys = xs.clone();
                        ys[r - 1] = st[0];
                        let iy = b.index(ys);
                        let x = b.read(a, iy);
                        let k1 = b.add_(st[0], one);
                        vec![k1, b.apply(&f, &[st[1], x])]
                    },
                );
                let acc = b.proj(lp, 1);
                b.assert(ok, op, "segment offsets decrease", acc)
            })
        }))
    }

    // ---- scans ------------------------------------------------------------------

    /// `prescanl(z, f)`: the exclusive scan without its total.
    fn prescan(&mut self, a: H, c: Call, dir: ScanDir) -> CResult<H> {
        self.arity_is(c, 2, "an initial value and a closure")?;
        let (e, _) = self.rank_at_least(a, c, 1)?;
        let z = self.scalar_arg(c.1[0], &e)?;
        let f = self.combine_fn(c.1[1], &e)?;
        let b = &mut self.arena;
        let s = b.scan(a, dir, ScanKind::Exclusive, Some(z), f);
        Ok(b.proj(s, 0))
    }

    /// `postscanl(z, f)`: the inclusive scan with `z` folded into every
    /// element; computed as `scanl1` over the row with `z` combined into its
    /// first element, so the producer fuses into the scan.
    fn postscan(&mut self, a: H, c: Call, dir: ScanDir) -> CResult<H> {
        self.arity_is(c, 2, "an initial value and a closure")?;
        let (e, r) = self.rank_at_least(a, c, 1)?;
        let z = self.scalar_arg(c.1[0], &e)?;
        let f = self.combine_fn(c.1[1], &e)?;
        let b = &mut self.arena;
        let sh = b.shape(a);
        let pos = b.generate_with(sh, |b, ix| b.comp(ix, r - 1));
        let first = b.zip_with(a, pos, |b, x, k| {
            let edge = match dir {
                ScanDir::Left => b.usize_lit(0),
                ScanDir::Right => {
                    let n = b.comp(sh, r - 1);
                    let one = b.usize_lit(1);
                    b.sub_(n, one)
                }
            };
            let at_edge = b.bin(BinOp::Eq, k, edge);
            let with_z = match dir {
                ScanDir::Left => b.apply(&f, &[z, x]),
                ScanDir::Right => b.apply(&f, &[x, z]),
            };
            b.if_(at_edge, with_z, x)
        });
        Ok(b.scan(first, dir, ScanKind::Inclusive, None, f))
    }

    /// Segmented scans of a vector by segment lengths (which must add up to
    /// its length). Built from a scatter of head flags (whether a segment
    /// begins at each position) and an unsegmented scan over (head flag,
    /// value) pairs with the segmented operator; `scanl_seg` and `scanr_seg`,
    /// whose output has a slot more per segment, also count the segments
    /// beginning at each position and scan those counts (each element's
    /// segment, hence its place).
    fn scan_seg(&mut self, a: H, c: Call, name: &str) -> CResult<H> {
        let has_z = !name.contains('1');
        let op: &'static str = match name {
            "scanl_seg" => "scanl_seg",
            "scanl1_seg" => "scanl1_seg",
            "scanr_seg" => "scanr_seg",
            "scanr1_seg" => "scanr1_seg",
            "scanl_seg_total" => "scanl_seg_total",
            _ => "scanr_seg_total",
        };
        let left = name.starts_with("scanl");
        let total = name.ends_with("_total");
        self.arity_is(
            c,
            if has_z { 3 } else { 2 },
            if has_z {
                "segment lengths, an initial value and a closure"
            } else {
                "segment lengths and a closure"
            },
        )?;
        let e = self.vector_only(a, c)?;
        let (segs, _) = self.int_vector_arg(c.1[0], "the segment lengths")?;
        let z = if has_z {
            Some(self.scalar_arg(c.1[1], &e)?)
        } else {
            None
        };
        let f = self.combine_fn(c.1[c.1.len() - 1], &e)?;
        let b = &mut self.arena;
        let u = Ty::Prim(Prim::Usize);
        let lens = b.map(segs, |b, x| b.as_index(x, op, "negative segment length"));
        let (offs, sum) = b.prefix_sum(lens);
        let n = b.extent(a, 0);
        let nseg = b.extent(lens, 0);
        let sum = b.value(sum);
        let adds_up = b.bin(BinOp::Eq, sum, n);
        let n_checked = b.assert(
            adds_up,
            op,
            "the segment lengths do not add up to the array's length",
            n,
        );
        // Where each nonempty segment begins (a segment's offset, if inside).
        let nsh = b.index(vec![n_checked]);
        let zero = b.usize_lit(0);
        let one = b.usize_lit(1);
        let segsh = b.index(vec![nseg]);
        let at = b.lam("ix", Ty::Index(1), |b, ix| {
            let s = b.comp(ix, 0);
            let o = b.read1(offs, s);
            let inside = b.bin(BinOp::Lt, o, n);
            let t = b.index(vec![o]);
            let some = b.some(t);
            let none = b.none(Ty::Index(1));
            b.if_(inside, some, none)
        });
        // heads[i]: whether a segment begins at position i, as bytes (a
        // scan reads them with every element; empty segments begin where
        // the next one does, and their stores agree).
        let no_heads = b.bool_lit(false);
        let no_heads = b.fill(nsh, no_heads);
        let yes = b.bool_lit(true);
        let yes = b.fill(segsh, yes);
        let keep_new = b.op2(&Ty::Prim(Prim::Bool), |_, new, _| new);
        let heads = b.permute(yes, no_heads, at.clone(), keep_new);
        // The segmented inclusive scan over (boundary flag, value) pairs: a
        // head flag for left scans, a tail flag for right scans.
        let flags = if left {
            heads
        } else {
            let sh = b.index(vec![n]);
            b.generate_with(sh, |b, ix| {
                let i = b.comp(ix, 0);
                let i1 = b.add_(i, one);
                let last = b.bin(BinOp::Eq, i1, n);
                let next = b.read1(heads, i1);
                b.bin(BinOp::Or, last, next)
            })
        };
        let pairs = b.zip_with(flags, a, |b, fl, x| b.tuple(vec![fl, x]));
        let pt = Ty::Tuple(vec![Ty::Prim(Prim::Bool), e.clone()]);
        let seg_op = b.op2(&pt, |b, x, y| {
            let (fx, vx, fy, vy) = (b.proj(x, 0), b.proj(x, 1), b.proj(y, 0), b.proj(y, 1));
            let fl = b.bin(BinOp::Or, fx, fy);
            let joined = b.apply(&f, &[vx, vy]);
            let v = if left {
                b.if_(fy, vy, joined)
            } else {
                b.if_(fx, vx, joined)
            };
            b.tuple(vec![fl, v])
        });
        let dir = if left { ScanDir::Left } else { ScanDir::Right };
        let scanned = b.scan(pairs, dir, ScanKind::Inclusive, None, seg_op);
        let incl = b.map(scanned, |b, p| b.proj(p, 1));
        let Some(z) = z else { return Ok(incl) };
        let with_z = |b: &mut Arena, v: H| {
            if left {
                b.apply(&f, &[z, v])
            } else {
                b.apply(&f, &[v, z])
            }
        };
        if !total {
            // Every element moves right by the number of segments before it
            // (plus one for a left scan, whose `z` comes first); the gaps
            // keep `z`.
            // starts[i]: how many segments begin at position i.
            let no_starts = b.fill(nsh, zero);
            let ones = b.fill(segsh, one);
            let plus = b.op2(&u, |b, x, y| b.add_(x, y));
            let starts = b.permute(ones, no_starts, at, plus.clone());
            let seg_of = b.scan(starts, ScanDir::Left, ScanKind::Inclusive, None, plus);
            let vals = b.map(incl, |b, v| with_z(b, v));
            let outn = b.add_(n_checked, nseg);
            let outsh = b.index(vec![outn]);
            let zs = b.fill(outsh, z);
            return Ok(b.scatter_by(vals, zs, |b, ix| {
                let i = b.comp(ix, 0);
                let s1 = b.read1(seg_of, i);
                let t = b.add_(i, s1);
                let t = if left { t } else { b.sub_(t, one) };
                let t = b.index(vec![t]);
                b.some(t)
            }));
        }
        // Exclusive scan and per-segment totals.
        let nsh = b.index(vec![n_checked]);
        let excl = b.generate_with(nsh, |b, ix| {
            let i = b.comp(ix, 0);
            let fl = b.read(flags, ix);
            let j = if left { b.sub_(i, one) } else { b.add_(i, one) };
            let prev = b.read1(incl, j);
            let v = with_z(b, prev);
            b.if_(fl, z, v)
        });
        let totals = b.generate_with(segsh, |b, ix| {
            let s = b.comp(ix, 0);
            let len = b.read1(lens, s);
            let empty = b.bin(BinOp::Eq, len, zero);
            let o = b.read1(offs, s);
            let j = if left {
                let end = b.add_(o, len);
                b.sub_(end, one)
            } else {
                o
            };
            let v = b.read1(incl, j);
            let v = with_z(b, v);
            b.if_(empty, z, v)
        });
        Ok(b.tuple(vec![excl, totals]))
    }

    // ---- scatter and irregular operations --------------------------------------

    /// `xs.scatter(&indices, &defaults)` and
    /// `xs.scatter_if(&indices, &mask, |m| p, &defaults)`.
    fn scatter(&mut self, a: H, c: Call, masked: bool) -> CResult<H> {
        if masked {
            self.arity_is(c, 4, "indices, a mask, a predicate and the defaults")?;
        } else {
            self.arity_is(c, 2, "indices and the defaults")?;
        }
        let e = self.vector_only(a, c)?;
        let (ixs, _) = self.int_vector_arg(c.1[0], "the target indices")?;
        let mask = if masked {
            let (mk, me, mr) = self.array_arg(c.1[1], "`scatter_if`")?;
            if mr != 1 {
                return err(c.1[1].span(), "the mask must be a vector");
            }
            Some((mk, self.pred(c.1[2], &me)?))
        } else {
            None
        };
        let dflt = c.1[c.1.len() - 1];
        let (defaults, de, dr) = self.array_arg(dflt, "`scatter`")?;
        if de != e || dr != 1 {
            return err(
                dflt.span(),
                format!(
                    "mismatched types: the defaults are `{}` but the source holds `{e}`",
                    Ty::array(de, dr)
                ),
            );
        }
        Ok(self.arena.scatter_by(a, defaults, |b, ix| {
            let i = b.comp(ix, 0);
            let t = b.read1(ixs, i);
            let t = b.cast(t, Prim::Usize);
            let t = b.index(vec![t]);
            let some = b.some(t);
            match &mask {
                None => some,
                Some((mk, p)) => {
                    let m = b.read1(*mk, i);
                    let keep = b.apply(p, &[m]);
                    let none = b.none(Ty::Index(1));
                    b.if_(keep, some, none)
                }
            }
        }))
    }

    /// `filter(p)` keeps the elements satisfying `p`, `compact(&flags)` those
    /// whose flag is set, in order (row-major for arrays of higher rank; the
    /// result is a vector): an exclusive scan of the 0/1 flags gives each kept
    /// element its position, and a permute writes it there.
    fn filter(&mut self, a: H, c: Call, by_flags: bool) -> CResult<H> {
        self.arity_is(c, 1, if by_flags { "the flags" } else { "a predicate" })?;
        let (e, _) = self.arena.arr_ty(a);
        let keep = if by_flags {
            let (fl, fe, _) = self.array_arg(c.1[0], "`compact`")?;
            if fe != Ty::Prim(Prim::Bool) {
                return err(
                    c.1[0].span(),
                    format!("`compact` needs flags of type `bool`, found `{fe}`"),
                );
            }
            Err(fl)
        } else {
            Ok(self.pred(c.1[0], &e)?)
        };
        let b = &mut self.arena;
        let v = b.flatten(a);
        let n = b.extent(v, 0);
        let flags = match keep {
            Ok(p) => b.map(v, |b, x| {
                let k = b.apply(&p, &[x]);
                b.cast(k, Prim::Usize)
            }),
            Err(fl) => {
                let fl = b.flatten(fl);
                let nf = b.extent(fl, 0);
                let same = b.bin(BinOp::Eq, nf, n);
                let n = b.assert(same, "compact", "the flags and the array have different sizes", n);
                let sh = b.index(vec![n]);
                let fl = b.backpermute(fl, sh, |_, ix| ix);
                b.map(fl, |b, k| b.cast(k, Prim::Usize))
            }
        };
        let (offs, total) = b.prefix_sum(flags);
        let total = b.value(total);
        let outsh = b.index(vec![total]);
        let zero = b.zero_of(&e);
        let blank = b.fill(outsh, zero);
        Ok(b.scatter_by(v, blank, |b, ix| {
            let i = b.comp(ix, 0);
            let one = b.usize_lit(1);
            let i1 = b.add_(i, one);
            let more = b.bin(BinOp::Lt, i1, n);
            let after = b.read1(offs, i1);
            let next = b.if_(more, after, total);
            let here = b.read1(offs, i);
            let kept = b.bin(BinOp::Ne, next, here);
            let t = b.index(vec![here]);
            let some = b.some(t);
            let none = b.none(Ty::Index(1));
            b.if_(kept, some, none)
        }))
    }

    /// `expand(|x| count, |x, k| value)`: each element yields `count` values in
    /// order. Each output finds its source by binary search in the exclusive
    /// scan of the counts.
    fn expand(&mut self, a: H, c: Call) -> CResult<H> {
        self.arity_is(c, 2, "a count closure and a value closure")?;
        let e = self.vector_only(a, c)?;
        let count = self.closure(c.1[0], std::slice::from_ref(&e), None)?;
        let ct = self.arena.ty(count.body).clone();
        let Some(cp) = ct.prim().filter(|p| p.is_int()) else {
            return err(
                c.1[0].span(),
                format!("the count must be an integer, found `{ct}`"),
            );
        };
        let value = self.closure(c.1[1], &[e, Ty::Prim(cp)], None)?;
        let vt = self.arena.ty(value.body).clone();
        if !vt.is_elem() {
            return err(
                c.1[1].span(),
                format!("this closure returns `{vt}`, which cannot be an array element"),
            );
        }
        let b = &mut self.arena;
        let counts = b.map(a, |b, x| {
            let k = b.apply(&count, &[x]);
            b.as_index(k, "expand", "negative count")
        });
        let (offs, total) = b.prefix_sum(counts);
        let n = b.extent(a, 0);
        let total = b.value(total);
        let outsh = b.index(vec![total]);
        Ok(b.generate_with(outsh, |b, ix| {
            let j = b.comp(ix, 0);
            let zero = b.usize_lit(0);
            let one = b.usize_lit(1);
            let two = b.usize_lit(2);
            // The last source whose first output is at or before `j`.
            let found = b.while_(
                &["lo", "hi"],
                vec![zero, n],
                |b, st| {
                    let w = b.sub_(st[1], st[0]);
                    b.bin(BinOp::Gt, w, one)
                },
                |b, st| {
                    let sum = b.add_(st[0], st[1]);
                    let mid = b.bin(BinOp::Div, sum, two);
                    let o = b.read1(offs, mid);
                    let right = b.bin(BinOp::Le, o, j);
                    let lo = b.if_(right, mid, st[0]);
                    let hi = b.if_(right, st[1], mid);
                    vec![lo, hi]
                },
            );
            let s = b.proj(found, 0);
            b.let_in("s", s, |b, s| {
                let x = b.read1(a, s);
                let o = b.read1(offs, s);
                let k = b.sub_(j, o);
                let k = b.cast(k, cp);
                b.apply(&value, &[x, k])
            })
        }))
    }

    // ---- sorting ------------------------------------------------------------------

    /// `sort`, `sort_by_key`, `sort_indices`: one stable sort node, keyed by
    /// an unsigned integer whose order is the key's (for floats, `total_cmp`'s).
    fn sort(&mut self, a: H, c: Call, name: &str) -> CResult<H> {
        let by_key = name == "sort_by_key";
        self.arity_is(c, by_key as usize, if by_key { "a key closure" } else { "none" })?;
        let e = self.vector_only(a, c)?;
        let key = if by_key {
            self.closure(c.1[0], std::slice::from_ref(&e), None)?
        } else {
            let x = self.arena.new_var("x", e.clone());
            let body = self.arena.var_ref(x);
            Fun {
                params: vec![x],
                body,
            }
        };
        let kt = self.arena.ty(key.body).clone();
        let kp = match kt.prim() {
            Some(p) if p.is_numeric() => p,
            _ => {
                let span = if by_key { c.1[0].span() } else { c.0.method.span() };
                return err(
                    span,
                    format!("`{name}` sorts by integer or float keys, found `{kt}`"),
                );
            }
        };
        let bits_ty = if kp.width() > 32 { Prim::U64 } else { Prim::U32 };
        let b = &mut self.arena;
        let by_index = name == "sort_indices";
        // `sort_indices` sorts the indices, index `i` keyed as `a[i]`.
        let (input, p) = if by_index {
            let sh = b.shape(a);
            let indices = b.generate_with(sh, |b, ix| b.comp(ix, 0));
            (indices, b.new_var("i", Ty::Prim(Prim::Usize)))
        } else {
            (a, b.new_var("x", e))
        };
        let pv = b.var_ref(p);
        let x = if by_index { b.read1(a, pv) } else { pv };
        let k = b.apply(&key, &[x]);
        let body = b.order_bits(k, kp, bits_ty);
        Ok(b.sort_by(
            input,
            Fun {
                params: vec![p],
                body,
            },
        ))
    }
}

fn dir_of(name: &str) -> ScanDir {
    if name.ends_with('l') {
        ScanDir::Left
    } else {
        ScanDir::Right
    }
}

/// Builders the library shares, on the arena.
impl Arena {
    /// `root` with every array node it uses more than once bound by a `let`
    /// at its top. The library builds DAGs; the reference interpreter (which
    /// runs the program before sharing recovery) would otherwise compute a
    /// shared array once per use, exponentially often in chains of shared
    /// arrays. Sharing recovery inlines these `let`s again.
    fn bind_shared_arrays(&mut self, root: H) -> H {
        use std::collections::{HashMap, HashSet};
        // Parents of each array node, and a post-order (children first).
        let mut parents: HashMap<H, usize> = HashMap::new();
        let mut order = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(root, false)];
        while let Some((h, done)) = stack.pop() {
            if done {
                order.push(h);
                continue;
            }
            if !seen.insert(h) {
                continue;
            }
            stack.push((h, true));
            for c in self.expr(h).children() {
                if self.ty(c).is_array() {
                    *parents.entry(c).or_default() += 1;
                }
                stack.push((c, false));
            }
        }
        let shared: Vec<H> = order
            .into_iter()
            .filter(|h| {
                h != &root
                    && parents.get(h).copied().unwrap_or(0) > 1
                    && !matches!(self.expr(*h), crate::ir::Expr::Scalar(crate::ir::Scalar::Var(_)))
            })
            .collect();
        if shared.is_empty() {
            return root;
        }
        let mut names: HashMap<H, H> = HashMap::new();
        let mut memo: HashMap<H, H> = HashMap::new();
        let mut lets = Vec::new();
        for s in shared {
            let value = self.rewrite_children(s, &names, &mut memo);
            let v = self.new_var("shared", self.ty(s).clone());
            names.insert(s, self.var_ref(v));
            memo.clear();
            lets.push((v, value));
        }
        let mut body = self.rewrite_children(root, &names, &mut memo);
        for (v, value) in lets.into_iter().rev() {
            body = self.let_(v, value, body);
        }
        body
    }

    /// `h` with its descendants in `names` replaced by their variables.
    fn rewrite_children(
        &mut self,
        h: H,
        names: &std::collections::HashMap<H, H>,
        memo: &mut std::collections::HashMap<H, H>,
    ) -> H {
        if let Some(&r) = memo.get(&h) {
            return r;
        }
        let e = self.expr(h).clone();
        let new = e.map_children(|c| match names.get(&c) {
            Some(&v) => v,
            None => self.rewrite_children(c, names, memo),
        });
        let r = if new == e {
            h
        } else {
            let (ty, span) = (self.ty(h).clone(), self.span(h));
            self.add(new, ty, span)
        };
        memo.insert(h, r);
        r
    }

    /// The first elements of each row: a backpermute to a smaller shape with
    /// the same index.
    fn reshape_prefix(&mut self, a: H, out: H) -> H {
        self.backpermute(a, out, |_, ix| ix)
    }

    /// Rows shifted left by `k`: element `i` of a row is element `i + k`.
    fn shift_innermost(&mut self, a: H, out: H, k: H, r: usize) -> H {
        self.backpermute(a, out, |b, ix| {
            let mut xs = b.comps(ix, r);
            xs[r - 1] = b.add_(xs[r - 1], k);
            b.index(xs)
        })
    }

    /// The array as a vector, row-major (itself when it is one).
    fn flatten(&mut self, a: H) -> H {
        let (_, r) = self.arr_ty(a);
        if r == 1 {
            return a;
        }
        let sh = self.shape(a);
        let n = self.size_of(sh, r);
        let out = self.index(vec![n]);
        self.reshape(a, out)
    }

    /// The row-major offset of `ix` in `shape`.
    fn offset_in(&mut self, shape: H, ix: H, r: usize) -> H {
        let mut l = self.usize_lit(0);
        for d in 0..r {
            let i = self.comp(ix, d);
            l = if d == 0 {
                i
            } else {
                let n = self.comp(shape, d);
                let m = self.bin(BinOp::Mul, l, n);
                self.add_(m, i)
            };
        }
        l
    }

    /// An integer as a `usize` count or index; a negative one is the run-time
    /// error `op: msg` (and counts as 0).
    fn as_index(&mut self, x: H, op: &'static str, msg: &'static str) -> H {
        let p = self.ty(x).prim().unwrap_or(Prim::Usize);
        if !p.is_signed() {
            return self.cast(x, Prim::Usize);
        }
        let zero = self.lit_of(p, 0);
        let ok = self.bin(BinOp::Ge, x, zero);
        let u = self.cast(x, Prim::Usize);
        let z = self.usize_lit(0);
        let v = self.if_(ok, u, z);
        self.assert(ok, op, msg, v)
    }

    /// Unsigned bits of key `k` in the key's order: signed integers have their
    /// sign bit flipped; floats (in `total_cmp`'s order) have all their bits
    /// flipped when negative and the sign bit flipped otherwise.
    fn order_bits(&mut self, k: H, p: Prim, to: Prim) -> H {
        if p.is_half() {
            // In `f32`, exactly: the same order.
            let wide = self.cast(k, Prim::F32);
            return self.order_bits(wide, Prim::F32, to);
        }
        if p.is_float() {
            let u = if p == Prim::F32 { Prim::U32 } else { Prim::U64 };
            let bits = self.node(
                crate::ir::Expr::Scalar(crate::ir::Scalar::Math(crate::ir::MathFn::ToBits, vec![k])),
                Ty::Prim(u),
            );
            return self.let_in("bits", bits, |b, bits| {
                let sign = b.lit(u, 1u64 << (p.width() - 1));
                let neg_bit = b.bin(BinOp::BitAnd, bits, sign);
                let zero = b.lit_of(u, 0);
                let negative = b.bin(BinOp::Ne, neg_bit, zero);
                let flipped = b.not_(bits);
                let marked = b.bin(BinOp::BitOr, bits, sign);
                let key = b.if_(negative, flipped, marked);
                b.cast(key, to)
            });
        }
        let unsigned = match p {
            Prim::I8 => Prim::U8,
            Prim::I16 => Prim::U16,
            Prim::I32 => Prim::U32,
            Prim::I64 => Prim::U64,
            other => other,
        };
        let u = self.cast(k, unsigned);
        let u = if p.is_signed() {
            let sign = self.lit(unsigned, 1u64 << (p.width() - 1));
            self.bin(BinOp::BitXor, u, sign)
        } else {
            u
        };
        self.cast(u, to)
    }
}
