//! Kernel plan → Rust code calling `accel_runtime::cpu`'s skeletons.
//!
//! The code is one block evaluating to `accel::Result<T>`. Every buffer is a
//! local of its struct-of-arrays columns (`__bN`), its shape (`__bN_shape`) and
//! one slice per primitive leaf (`__bN_cK`); every IR variable is `__vN`. Names
//! start with `__` and carry numbers, so they never collide with the user's.
//! Buffers are dropped after their last use, so no array lives longer than in
//! the plan.

use accel_core::ir::{
    Arena, BinOp, Boundary, Expr, Fun, MathFn, Prim, ScanDir, ScanKind, Ty, UnOp, VarId, H,
};
use accel_core::plan::{ElemFn, KernelOp, Origin, Output, ParamBinding, Plan, Step};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::cell::Cell;
use std::collections::HashMap;

/// The body of `name::on(backend, ..)` after the backend check: a block that
/// evaluates to `Result<T>`. `rt` is the path of the runtime crate.
pub fn program_body(plan: &Plan, rt: &TokenStream) -> TokenStream {
    let g = Gen {
        plan,
        a: &plan.arena,
        rt,
        fast_stencil: Cell::new(false),
    };
    g.body()
}

struct Gen<'a> {
    plan: &'a Plan,
    a: &'a Arena,
    rt: &'a TokenStream,
    /// Emitting the interior version of a stencil kernel: neighbours are read
    /// without the boundary rule.
    fast_stencil: Cell<bool>,
}

fn buf(b: u32) -> Ident {
    format_ident!("__b{}", b)
}
fn buf_shape(b: u32) -> Ident {
    format_ident!("__b{}_shape", b)
}
fn leaf(b: u32, k: usize) -> Ident {
    format_ident!("__b{}_c{}", b, k)
}
fn var(v: accel_core::ir::VarId) -> Ident {
    format_ident!("__v{}", v.0)
}

/// The Rust type of a scalar type.
pub fn rust_ty(t: &Ty) -> TokenStream {
    match t {
        Ty::Prim(p) => {
            let i = Ident::new(p.name(), Span::call_site());
            quote!(#i)
        }
        Ty::Tuple(ts) => {
            let ts = ts.iter().map(rust_ty);
            quote!((#(#ts,)*))
        }
        Ty::Index(r) => {
            let r = Literal::usize_unsuffixed(*r);
            quote!([usize; #r])
        }
        Ty::Option(t) => {
            let t = rust_ty(t);
            quote!(::core::option::Option<#t>)
        }
        Ty::Array(..) => quote!(()),
    }
}

/// Field paths to the primitive leaves of a type (`.0.1` for nested tuples).
fn leaf_paths(t: &Ty) -> Vec<TokenStream> {
    match t {
        Ty::Tuple(ts) => ts
            .iter()
            .enumerate()
            .flat_map(|(i, t)| {
                let i = syn::Index::from(i);
                leaf_paths(t).into_iter().map(move |p| quote!(.#i #p))
            })
            .collect(),
        _ => vec![quote!()],
    }
}

impl Gen<'_> {
    fn cols_ty(&self, elem: &Ty) -> TokenStream {
        let rt = self.rt;
        let t = rust_ty(elem);
        quote!(<#t as #rt::Elem>::Columns)
    }

    fn body(&self) -> TokenStream {
        let rt = self.rt;
        let mut out = TokenStream::new();
        for p in &self.plan.params {
            let name = Ident::new(&p.name, Span::call_site());
            match p.binding {
                ParamBinding::Scalar(v) => {
                    let v = var(v);
                    out.extend(quote!(let #v = #name;));
                }
                ParamBinding::Array(b) => {
                    let (bi, bs) = (buf(b.0), buf_shape(b.0));
                    out.extend(quote! {
                        let #bs = #name.shape();
                        let #bi = #name.columns();
                    });
                    out.extend(self.bind_leaves(b.0));
                }
            }
        }
        let last_use = self.last_uses();
        for (k, step) in self.plan.steps.iter().enumerate() {
            out.extend(self.step(step));
            out.extend(quote!(__ctx.check()?;));
            for (b, _) in last_use.iter().enumerate().filter(|(_, l)| **l == Some(k)) {
                if matches!(self.plan.buffers[b].origin, Origin::Kernel(_)) && !self.is_moved_at(b, k) {
                    let bi = buf(b as u32);
                    out.extend(quote!(::core::mem::drop(#bi);));
                }
            }
        }
        // A buffer returned several times is cloned for all but its last use.
        let mut remaining: Vec<u32> = Vec::new();
        collect_arrays(&self.plan.result, &mut remaining);
        let result = self.output(&self.plan.result, &mut remaining);
        quote! {{
            let __ctx = #rt::cpu::Ctx::new();
            #out
            let __result = #result;
            __ctx.check()?;
            ::core::result::Result::Ok(__result)
        }}
    }

    /// Whether buffer `b` is moved into the permute of step `k`.
    fn is_moved_at(&self, b: usize, k: usize) -> bool {
        matches!(&self.plan.steps[k], Step::Kernel(kernel)
            if matches!(kernel.op, KernelOp::Permute { defaults, move_defaults: true, .. } if defaults.0 as usize == b))
    }

    /// For each buffer, the last step that reads it (`None`: only the result,
    /// or never).
    fn last_uses(&self) -> Vec<Option<usize>> {
        let mut last = vec![None; self.plan.buffers.len()];
        let in_result = self.result_buffers();
        for (k, step) in self.plan.steps.iter().enumerate() {
            let mut hs: Vec<H> = Vec::new();
            match step {
                Step::CheckReshape { from, to } => hs.extend([*from, *to]),
                Step::Kernel(kernel) => {
                    let outs: Vec<u32> = kernel.outputs.iter().map(|b| b.0).collect();
                    for o in &outs {
                        hs.push(self.plan.buffers[*o as usize].shape);
                    }
                    hs.extend(kernel.op.host_exprs());
                    hs.extend(kernel.op.funs().iter().map(|f| f.body));
                    if let Some(d) = kernel.op.defaults() {
                        last[d.0 as usize] = Some(k);
                    }
                }
            }
            for h in hs {
                for b in buffers_in(self.a, h) {
                    last[b as usize] = Some(k);
                }
            }
        }
        for b in in_result {
            last[b as usize] = None;
        }
        last
    }

    fn result_buffers(&self) -> Vec<u32> {
        fn go(o: &Output, a: &Arena, out: &mut Vec<u32>) {
            match o {
                Output::Array(b) => out.push(b.0),
                Output::Scalar(h) => out.extend(buffers_in(a, *h)),
                Output::Tuple(xs) => xs.iter().for_each(|x| go(x, a, out)),
            }
        }
        let mut v = Vec::new();
        go(&self.plan.result, self.a, &mut v);
        v
    }

    fn bind_leaves(&self, b: u32) -> TokenStream {
        let buffer = &self.plan.buffers[b as usize];
        let bi = buf(b);
        let mut out = TokenStream::new();
        for (k, (path, prim)) in leaf_paths(&buffer.elem)
            .into_iter()
            .zip(buffer.elem.leaves())
            .enumerate()
        {
            let l = leaf(b, k);
            let t = rust_ty(&Ty::Prim(prim));
            out.extend(quote!(let #l: &[#t] = &#bi #path [..];));
        }
        out
    }

    fn step(&self, step: &Step) -> TokenStream {
        let rt = self.rt;
        match step {
            Step::CheckReshape { from, to } => {
                let (f, t) = (self.expr(*from), self.expr(*to));
                quote!(#rt::cpu::check_reshape(&#f, &#t)?;)
            }
            Step::Kernel(kernel) => {
                let mut out = TokenStream::new();
                let op = kernel.fused.last().copied().unwrap_or("kernel");
                for o in &kernel.outputs {
                    let buffer = &self.plan.buffers[o.0 as usize];
                    let s = self.expr(buffer.shape);
                    let bs = buf_shape(o.0);
                    let r = Literal::usize_unsuffixed(buffer.rank);
                    out.extend(quote! {
                        let #bs: [usize; #r] = #s;
                        #rt::cpu::extent(#op, &#bs)?;
                    });
                }
                let b0 = kernel.outputs[0].0;
                let (bi, bs) = (buf(b0), buf_shape(b0));
                let elem_ty = self.plan.buffers[b0 as usize].elem.clone();
                let buffer_rank = self.plan.buffers[b0 as usize].rank;
                let cols = self.cols_ty(&elem_ty);
                let t = rust_ty(&elem_ty);
                match &kernel.op {
                    KernelOp::Generate { elem, .. } => match self.stencil_split(elem, &bs, buffer_rank) {
                        Some(split) => out.extend(quote! {
                            let #bi: #cols = #split;
                        }),
                        None => {
                            let f = self.elem_closure(elem, &bs);
                            out.extend(quote! {
                                let #bi: #cols = #rt::cpu::generate::<#cols>(#rt::shape::size(&#bs), #f);
                            });
                        }
                    },
                    KernelOp::Fold {
                        shape,
                        elem,
                        z,
                        f,
                        all,
                    } => {
                        let s = self.expr(*shape);
                        let in_shape = format_ident!("__in{}", b0);
                        let e = self.elem_closure(elem, &in_shape);
                        let g = self.fun2(f, &t);
                        // A fold to a scalar (a vector's innermost fold too) has one
                        // row: reduce it as a whole.
                        let to_scalar = *all || self.plan.buffers[b0 as usize].rank == 0;
                        let call = match (to_scalar, z) {
                            (true, Some(z)) => {
                                let z = self.expr(*z);
                                quote!(#rt::Columns::from_elems(&[#rt::cpu::fold_all(#rt::shape::size(&#in_shape), #e, #z, #g)]))
                            }
                            (true, None) => quote! {
                                match #rt::cpu::fold1_all(#rt::shape::size(&#in_shape), #e, #g) {
                                    ::core::option::Option::Some(__x) => #rt::Columns::from_elems(&[__x]),
                                    ::core::option::Option::None => return ::core::result::Result::Err(#rt::cpu::empty_reduction("fold1_all")),
                                }
                            },
                            (false, Some(z)) => {
                                let z = self.expr(*z);
                                quote!(#rt::cpu::fold_rows::<#cols>(__rows, __len, #e, #z, #g))
                            }
                            (false, None) => quote! {
                                match #rt::cpu::fold1_rows::<#cols>(__rows, __len, #e, #g) {
                                    ::core::option::Option::Some(__x) => __x,
                                    ::core::option::Option::None => return ::core::result::Result::Err(#rt::cpu::empty_reduction("fold1")),
                                }
                            },
                        };
                        out.extend(quote! {
                            let #in_shape = #s;
                            #rt::cpu::extent(#op, &#in_shape)?;
                            let (__rows, __len) = #rt::cpu::rows_of(&#in_shape);
                            let #bi: #cols = #call;
                        });
                    }
                    KernelOp::Scan {
                        shape,
                        elem,
                        dir,
                        kind,
                        z,
                        f,
                    } => {
                        let s = self.expr(*shape);
                        let in_shape = format_ident!("__in{}", b0);
                        let e = self.elem_closure(elem, &in_shape);
                        let g = self.fun2(f, &t);
                        let d = match dir {
                            ScanDir::Left => quote!(#rt::cpu::ScanDir::Left),
                            ScanDir::Right => quote!(#rt::cpu::ScanDir::Right),
                        };
                        let z = z.map(|z| self.expr(z));
                        let call = match kind {
                            ScanKind::Inclusive => quote! {
                                let #bi: #cols = #rt::cpu::scan_inclusive::<#cols>(__rows, __len, #d, #e, #g);
                            },
                            ScanKind::WithInit => quote! {
                                let #bi: #cols = #rt::cpu::scan_with_init::<#cols>(__rows, __len, #d, #e, #z, #g);
                            },
                            ScanKind::Exclusive => {
                                let b1 = buf(kernel.outputs[1].0);
                                quote! {
                                    let (#bi, #b1): (#cols, #cols) = #rt::cpu::scan_exclusive::<#cols>(__rows, __len, #d, #e, #z, #g);
                                }
                            }
                        };
                        out.extend(quote! {
                            let #in_shape = #s;
                            #rt::cpu::extent(#op, &#in_shape)?;
                            let (__rows, __len) = #rt::cpu::rows_of(&#in_shape);
                            #call
                        });
                    }
                    KernelOp::Permute {
                        defaults,
                        move_defaults,
                        shape,
                        elem,
                        index,
                        combine,
                    } => {
                        let s = self.expr(*shape);
                        let in_shape = format_ident!("__in{}", b0);
                        let e = self.elem_closure(elem, &in_shape);
                        let g = self.fun2(combine, &t);
                        let d = buf(defaults.0);
                        let init = if *move_defaults {
                            quote!(#d)
                        } else {
                            self.clone_buffer(defaults.0)
                        };
                        let src_rank = match self.a.var(index.params[0]).ty {
                            Ty::Index(r) => r,
                            _ => 0,
                        };
                        let r = Literal::usize_unsuffixed(src_rank);
                        let p = var(index.params[0]);
                        let body = self.expr(index.body);
                        out.extend(quote! {
                            let #in_shape = #s;
                            #rt::cpu::extent(#op, &#in_shape)?;
                            let mut #bi: #cols = #init;
                            #rt::cpu::permute::<#cols>(
                                &mut #bi,
                                #rt::shape::size(&#in_shape),
                                |__i: usize| {
                                    let #p: [usize; #r] = #rt::shape::from_linear(&#in_shape, __i);
                                    match #body {
                                        ::core::option::Option::Some(__t) => __ctx.index("permute", __t, #bs),
                                        ::core::option::Option::None => ::core::option::Option::None,
                                    }
                                },
                                #e,
                                #g,
                            );
                        });
                    }
                }
                for o in &kernel.outputs {
                    out.extend(self.bind_leaves(o.0));
                }
                out
            }
        }
    }

    /// `|__i: usize| -> T` computing the element at row-major offset `__i` of an
    /// iteration space of shape `shape`.
    fn elem_closure(&self, e: &ElemFn, shape: &Ident) -> TokenStream {
        let rt = self.rt;
        match e {
            ElemFn::Linear(f) => {
                let p = var(f.params[0]);
                let body = self.expr(f.body);
                quote!(|#p: usize| #body)
            }
            ElemFn::Index(f) => {
                let p = var(f.params[0]);
                let body = self.expr(f.body);
                let r = match self.a.var(f.params[0]).ty {
                    Ty::Index(r) => r,
                    _ => 0,
                };
                let r = Literal::usize_unsuffixed(r);
                quote!(|__i: usize| { let #p: [usize; #r] = #rt::shape::from_linear(&#shape, __i); #body })
            }
        }
    }

    /// A generate kernel whose element function reads stencil neighbours, all
    /// around the iteration index: the call of `stencil_generate` with the
    /// interior box (where every neighbour is inside its array) and the two
    /// element closures. `None` when the kernel reads no neighbours, or reads
    /// some around another index (then the boundary rule applies everywhere).
    fn stencil_split(&self, e: &ElemFn, shape: &Ident, rank: usize) -> Option<TokenStream> {
        let rt = self.rt;
        let f = e.fun();
        let p = f.params[0];
        let reads = stencil_reads(self.a, f.body);
        if reads.is_empty() || rank == 0 {
            return None;
        }
        let lets = let_values(self.a, f.body);
        // Per buffer: the smallest and largest offset in each dimension.
        let mut reach: Vec<(u32, Vec<i32>, Vec<i32>)> = Vec::new();
        for h in reads {
            let Expr::ReadStencil {
                array,
                center,
                offset,
                ..
            } = self.a.expr(h)
            else {
                continue;
            };
            if offset.len() != rank || !is_iteration_index(self.a, *center, p, &lets) {
                return None;
            }
            let b = buffer_of(self.a, *array);
            match reach.iter_mut().find(|r| r.0 == b) {
                Some((_, lo, hi)) => {
                    for d in 0..rank {
                        lo[d] = lo[d].min(offset[d]);
                        hi[d] = hi[d].max(offset[d]);
                    }
                }
                None => reach.push((b, offset.clone(), offset.clone())),
            }
        }
        let lo = (0..rank).map(|d| {
            let l = reach.iter().map(|r| (-r.1[d]).max(0) as usize).max().unwrap_or(0);
            quote!(#l)
        });
        let hi = (0..rank).map(|d| {
            let dl = Literal::usize_unsuffixed(d);
            let mut h = quote!(#shape[#dl]);
            for (b, _, up) in &reach {
                let bs = buf_shape(*b);
                let u = up[d].max(0) as usize;
                h = quote!(::core::cmp::min(#h, #bs[#dl].saturating_sub(#u)));
            }
            h
        });
        let r = Literal::usize_unsuffixed(rank);
        let param_ty = rust_ty(&self.a.var(p).ty);
        let pv = var(p);
        let bind = match e {
            ElemFn::Linear(_) => quote!(let #pv: #param_ty = __i;),
            ElemFn::Index(_) => quote!(let #pv: #param_ty = __ix;),
        };
        self.fast_stencil.set(true);
        let fast = self.expr(f.body);
        self.fast_stencil.set(false);
        let border = self.expr(f.body);
        // `move` closures capture the slices and shapes they read by value (the
        // error context by reference), so they are `Copy` and their loads
        // loop-invariant.
        Some(quote! {{
            let __ctx = &__ctx;
            #rt::cpu::stencil_generate::<_, #r>(
                &#shape,
                [#(#lo),*],
                [#(#hi),*],
                move |__i: usize, __ix: [usize; #r]| { #bind #fast },
                move |__i: usize, __ix: [usize; #r]| { #bind #border },
            )
        }})
    }

    /// A two-parameter combination function over `t`.
    fn fun2(&self, f: &Fun, t: &TokenStream) -> TokenStream {
        let (a, b) = (var(f.params[0]), var(f.params[1]));
        let body = self.expr(f.body);
        quote!(|#a: #t, #b: #t| -> #t { #body })
    }

    /// `remaining`: the result's buffers not yet emitted, one entry per use.
    fn output(&self, o: &Output, remaining: &mut Vec<u32>) -> TokenStream {
        let rt = self.rt;
        match o {
            Output::Array(b) => {
                let (bi, bs) = (buf(b.0), buf_shape(b.0));
                let buffer = &self.plan.buffers[b.0 as usize];
                let t = rust_ty(&buffer.elem);
                let r = Literal::usize_unsuffixed(buffer.rank);
                let param = matches!(buffer.origin, Origin::Param(_));
                if let Some(i) = remaining.iter().position(|x| *x == b.0) {
                    remaining.remove(i);
                }
                let cols = if param || remaining.contains(&b.0) {
                    self.clone_buffer(b.0)
                } else {
                    quote!(#bi)
                };
                quote!(#rt::Array::<#t, #r>::from_columns(#bs, #cols)?)
            }
            Output::Scalar(h) => self.expr(*h),
            Output::Tuple(xs) => {
                let xs: Vec<TokenStream> = xs.iter().map(|x| self.output(x, remaining)).collect();
                quote!((#(#xs,)*))
            }
        }
    }

    /// A copy of buffer `b`'s columns (parameters are held by reference,
    /// intermediate buffers by value).
    fn clone_buffer(&self, b: u32) -> TokenStream {
        let bi = buf(b);
        match self.plan.buffers[b as usize].origin {
            Origin::Param(_) => quote!(::core::clone::Clone::clone(#bi)),
            Origin::Kernel(_) => quote!(::core::clone::Clone::clone(&#bi)),
        }
    }

    /// Reads the element of buffer `b` at row-major offset `off`.
    fn read(&self, b: u32, off: TokenStream) -> TokenStream {
        let rt = self.rt;
        let buffer = &self.plan.buffers[b as usize];
        let mut k = 0;
        fn build(t: &Ty, b: u32, k: &mut usize, rt: &TokenStream) -> TokenStream {
            match t {
                Ty::Tuple(ts) => {
                    let parts: Vec<TokenStream> = ts.iter().map(|t| build(t, b, k, rt)).collect();
                    quote!((#(#parts,)*))
                }
                _ => {
                    let l = leaf(b, *k);
                    *k += 1;
                    // SAFETY (of the generated block): the plan reads buffers only at
                    // offsets inside their shape; see `accel_runtime::cpu::at`.
                    quote!(unsafe { #rt::cpu::at(#l, __o) })
                }
            }
        }
        let value = build(&buffer.elem, b, &mut k, rt);
        quote!({ let __o: usize = #off; #value })
    }

    fn expr(&self, h: H) -> TokenStream {
        let rt = self.rt;
        let ops = quote!(#rt::ops::ScalarOps);
        match self.a.expr(h) {
            Expr::Var(v) => {
                let v = var(*v);
                quote!(#v)
            }
            Expr::Let { var: v, value, body } => {
                let t = rust_ty(&self.a.var(*v).ty);
                let (v, value, body) = (var(*v), self.expr(*value), self.expr(*body));
                quote!({ let #v: #t = #value; #body })
            }
            Expr::Lit(l) => lit(l.prim, l.bits),
            Expr::Tuple(xs) => {
                let xs = xs.iter().map(|x| self.expr(*x));
                quote!((#(#xs,)*))
            }
            Expr::Proj(x, n) => {
                let xe = self.expr(*x);
                match self.a.ty(*x) {
                    Ty::Index(_) => {
                        let n = Literal::usize_unsuffixed(*n);
                        quote!(#xe[#n])
                    }
                    _ => {
                        let n = syn::Index::from(*n);
                        quote!(#xe.#n)
                    }
                }
            }
            Expr::MakeIndex(xs) => {
                let xs = xs.iter().map(|x| self.expr(*x));
                quote!([#(#xs),*])
            }
            Expr::Unary(UnOp::Neg, x) => {
                let x = self.expr(*x);
                quote!(#ops::acc_neg(#x))
            }
            Expr::Unary(UnOp::Not, x) => {
                let x = self.expr(*x);
                quote!((!#x))
            }
            Expr::Binary(op, x, y) => {
                let (a, b) = (self.expr(*x), self.expr(*y));
                let shift = quote!(#rt::ops::ShiftOps);
                match op {
                    BinOp::Add => quote!(#ops::acc_add(#a, #b)),
                    BinOp::Sub => quote!(#ops::acc_sub(#a, #b)),
                    BinOp::Mul => quote!(#ops::acc_mul(#a, #b)),
                    BinOp::Div => quote!(#ops::acc_div(#a, #b)),
                    BinOp::Rem => quote!(#ops::acc_rem(#a, #b)),
                    BinOp::Shl => quote!(#shift::acc_shl(#a, #b)),
                    BinOp::Shr => quote!(#shift::acc_shr(#a, #b)),
                    BinOp::BitAnd => quote!((#a & #b)),
                    BinOp::BitOr => quote!((#a | #b)),
                    BinOp::BitXor => quote!((#a ^ #b)),
                    BinOp::Eq => quote!((#a == #b)),
                    BinOp::Ne => quote!((#a != #b)),
                    BinOp::Lt => quote!((#a < #b)),
                    BinOp::Le => quote!((#a <= #b)),
                    BinOp::Gt => quote!((#a > #b)),
                    BinOp::Ge => quote!((#a >= #b)),
                    BinOp::And => quote!((#a && #b)),
                    BinOp::Or => quote!((#a || #b)),
                }
            }
            Expr::Cast(x, to) => {
                let from = self.a.ty(*x).prim();
                let xe = self.expr(*x);
                let t = rust_ty(&Ty::Prim(*to));
                match (from, to) {
                    (Some(Prim::Bool), Prim::Bool) => xe,
                    (Some(Prim::Bool), _) => quote!(((#xe as u8) as #t)),
                    _ => quote!((#xe as #t)),
                }
            }
            Expr::If(c, t, e) => {
                let (c, t, e) = (self.expr(*c), self.expr(*t), self.expr(*e));
                quote!(if #c { #t } else { #e })
            }
            Expr::Math(f, xs) => {
                let args: Vec<TokenStream> = xs.iter().map(|x| self.expr(*x)).collect();
                let math = quote!(#rt::ops::MathOps);
                // Rust's method on the receiver's type, except where accel's
                // conventions differ from Rust's panics.
                let t = rust_ty(self.a.ty(xs[0]));
                match f {
                    MathFn::Abs => quote!(#ops::acc_abs(#(#args),*)),
                    MathFn::Min => quote!(#ops::acc_min(#(#args),*)),
                    MathFn::Max => quote!(#ops::acc_max(#(#args),*)),
                    MathFn::Clamp => quote!(#math::acc_clamp(#(#args),*)),
                    MathFn::DivEuclid => quote!(#math::acc_div_euclid(#(#args),*)),
                    MathFn::RemEuclid => quote!(#math::acc_rem_euclid(#(#args),*)),
                    MathFn::Pow => quote!(<#t>::wrapping_pow(#(#args),*)),
                    MathFn::FromBits => {
                        let r = rust_ty(self.a.ty(h));
                        quote!(<#r>::from_bits(#(#args),*))
                    }
                    _ => {
                        let m = Ident::new(f.name(), Span::call_site());
                        quote!(<#t>::#m(#(#args),*))
                    }
                }
            }
            Expr::While {
                vars,
                init,
                cond,
                step,
            } => {
                let vs: Vec<Ident> = vars.iter().map(|v| var(*v)).collect();
                let init = init.iter().map(|x| self.expr(*x));
                let step = step.iter().map(|x| self.expr(*x));
                let cond = self.expr(*cond);
                quote! {{
                    let mut __state = (#(#init,)*);
                    loop {
                        let (#(#vs,)*) = __state;
                        if !(#cond) { break __state; }
                        __state = (#(#step,)*);
                    }
                }}
            }
            Expr::Some(x) => {
                let x = self.expr(*x);
                quote!(::core::option::Option::Some(#x))
            }
            Expr::None(_) => quote!(::core::option::Option::None),
            Expr::Shape(x) => match self.a.expr(*x) {
                Expr::Buffer(b) => {
                    let bs = buf_shape(b.0);
                    quote!(#bs)
                }
                _ => quote!(compile_error!("accel internal error: shape of a non-buffer")),
            },
            Expr::ReadLinear { array, index } => {
                let b = buffer_of(self.a, *array);
                self.read(b, self.expr(*index))
            }
            Expr::ReadIndex { array, index } => {
                let b = buffer_of(self.a, *array);
                let bs = buf_shape(b);
                let ix = self.expr(*index);
                self.read(b, quote!(#rt::shape::to_linear(&#bs, &#ix)))
            }
            Expr::Assert { cond, op, msg, body } => {
                let (c, body) = (self.expr(*cond), self.expr(*body));
                quote! {{
                    if !(#c) {
                        __ctx.fail(#rt::Error::with_kind(#rt::ErrorKind::InvalidArgument, #op, #msg));
                    }
                    #body
                }}
            }
            Expr::Checked {
                op,
                index,
                shape,
                var: v,
                body,
            } => {
                let (ix, sh, body) = (self.expr(*index), self.expr(*shape), self.expr(*body));
                let v = var(*v);
                quote! {{
                    let #v = #ix;
                    if __ctx.index(#op, #v, #sh).is_some() { #body } else { ::core::default::Default::default() }
                }}
            }
            Expr::ReadStencil {
                array,
                center,
                offset,
                boundary,
            } => {
                let b = buffer_of(self.a, *array);
                let bs = buf_shape(b);
                let c = self.expr(*center);
                let r = Literal::usize_unsuffixed(offset.len());
                let offs = offset.iter().map(|o| {
                    let o = Literal::isize_suffixed(*o as isize);
                    quote!(#o)
                });
                let offs = quote!([#(#offs),*]);
                if self.fast_stencil.get() {
                    // The interior: every neighbour is inside (see `stencil_split`).
                    let read = self.read(b, quote!(#rt::cpu::stencil::offset_in(&#bs, &__c, #offs)));
                    return quote!({ let __c: [usize; #r] = #c; #read });
                }
                let kind = match boundary {
                    Boundary::Clamp => quote!(Clamp),
                    Boundary::Mirror => quote!(Mirror),
                    Boundary::Wrap => quote!(Wrap),
                    Boundary::Constant(_) => quote!(Constant),
                };
                let outside = match boundary {
                    Boundary::Constant(k) => self.expr(*k),
                    // Unreachable: the other rules always find an element.
                    _ => quote!(::core::default::Default::default()),
                };
                let read = self.read(b, quote!(__l));
                quote!({
                    let __c: [usize; #r] = #c;
                    match #rt::cpu::stencil::resolve(&#bs, &__c, #offs, #rt::cpu::Bound::#kind) {
                        ::core::option::Option::Some(__l) => #read,
                        ::core::option::Option::None => #outside,
                    }
                })
            }
            other => {
                let msg = format!("accel internal error: {other:?} left in the kernel plan");
                quote!(compile_error!(#msg))
            }
        }
    }
}

fn collect_arrays(o: &Output, out: &mut Vec<u32>) {
    match o {
        Output::Array(b) => out.push(b.0),
        Output::Scalar(_) => {}
        Output::Tuple(xs) => xs.iter().for_each(|x| collect_arrays(x, out)),
    }
}

/// The `ReadStencil`s in `h`.
fn stencil_reads(a: &Arena, h: H) -> Vec<H> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if matches!(a.expr(x), Expr::ReadStencil { .. }) {
            out.push(x);
        }
        stack.extend(a.expr(x).children());
    }
    out
}

/// The values each variable is `let`-bound to in `h`.
fn let_values(a: &Arena, h: H) -> HashMap<VarId, Vec<H>> {
    let mut out: HashMap<VarId, Vec<H>> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if let Expr::Let { var, value, .. } = a.expr(x) {
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
fn is_iteration_index(a: &Arena, h: H, p: VarId, lets: &HashMap<VarId, Vec<H>>) -> bool {
    let mut h = h;
    for _ in 0..1000 {
        match a.expr(h) {
            Expr::Var(v) if *v == p => return true,
            Expr::Var(v) => match lets.get(v).map(Vec::as_slice) {
                Some([x]) => h = *x,
                _ => return false,
            },
            Expr::MakeIndex(xs) if xs.len() == 1 && a.var(p).ty == Ty::Prim(Prim::Usize) => {
                h = xs[0];
            }
            _ => return false,
        }
    }
    false
}

fn buffer_of(a: &Arena, h: H) -> u32 {
    match a.expr(h) {
        Expr::Buffer(b) => b.0,
        _ => u32::MAX,
    }
}

/// Buffers referenced anywhere in `h`.
fn buffers_in(a: &Arena, h: H) -> Vec<u32> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if let Expr::Buffer(b) = a.expr(x) {
            out.push(b.0);
        }
        stack.extend(a.expr(x).children());
    }
    out
}

fn lit(p: Prim, bits: u64) -> TokenStream {
    let l = match p {
        Prim::Bool => return if bits != 0 { quote!(true) } else { quote!(false) },
        Prim::I8 => Literal::i8_suffixed(bits as i8),
        Prim::I16 => Literal::i16_suffixed(bits as i16),
        Prim::I32 => Literal::i32_suffixed(bits as i32),
        Prim::I64 => Literal::i64_suffixed(bits as i64),
        Prim::U8 => Literal::u8_suffixed(bits as u8),
        Prim::U16 => Literal::u16_suffixed(bits as u16),
        Prim::U32 => Literal::u32_suffixed(bits as u32),
        Prim::U64 => Literal::u64_suffixed(bits),
        Prim::Usize => Literal::usize_suffixed(bits as usize),
        Prim::F32 => {
            // Bits, not decimal text: exact for every value, NaN and infinities too.
            let b = Literal::u32_suffixed(bits as u32);
            return quote!(f32::from_bits(#b));
        }
        Prim::F64 => {
            let b = Literal::u64_suffixed(bits);
            return quote!(f64::from_bits(#b));
        }
    };
    quote!((#l))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(source: &str, name: &str) -> String {
        let (_, plan) = accel_core::compile_source(source, name).unwrap_or_else(|e| panic!("{}", e.message));
        program_body(&plan, &quote!(rt)).to_string()
    }

    #[test]
    fn stencil_kernels_split_interior_and_border() {
        // Around the kernel's own index (rank 1 through the linear form, rank 2
        // through lets, and zip_with of two stencils): the interior/border split.
        for (src, name) in [
            ("fn f(xs: &Vector<f32>) -> Vector<f32> { xs.stencil(Boundary::Clamp, |[a, b, c]| a + b - c).map(|x| x * 2.0) }", "f"),
            ("fn g(m: &Matrix<f32>) -> Matrix<f32> { m.stencil(Boundary::Wrap, |[[a, _, _], [_, e, _], [_, _, i]]| a + e + i) }", "g"),
            (
                "fn h(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> { \
                 a.stencil(Boundary::Mirror, |[[x, _, _], [_, _, _], [_, _, _]]| x) \
                 .zip_with(&a.stencil2(Boundary::Clamp, b, Boundary::Constant(3), |[[_], [y], [_]], [[_, z, _]]| y - z), |p, q| p * q) }",
                "h",
            ),
        ] {
            let c = code(src, name);
            assert!(c.contains("stencil_generate"), "{name}: {c}");
            assert!(c.contains("offset_in"), "{name}: {c}");
        }
        // Neighbours of another index (a backpermute consumer) and a fold
        // consumer: the boundary rule everywhere.
        for (src, name) in [
            ("fn r(xs: &Vector<f32>) -> Vector<f32> { let n = xs.len(); xs.stencil(Boundary::Clamp, |[a, b, c]| a + b - c).backpermute([n], |[i]| [n - 1 - i]) }", "r"),
            ("fn s(m: &Matrix<f32>) -> Vector<f32> { m.stencil(Boundary::Mirror, |[[a, _, _], [_, e, _], [_, _, i]]| a + e + i).sum() }", "s"),
        ] {
            let c = code(src, name);
            assert!(!c.contains("stencil_generate"), "{name}: {c}");
            assert!(!c.contains("offset_in"), "{name}: {c}");
            assert!(c.contains("resolve"), "{name}: {c}");
        }
    }
}
