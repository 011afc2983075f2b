//! What every back end's host code shares: the names of the generated code's
//! locals, Rust types, source positions, and the Rust code of scalar
//! expressions ([`Scalars`]). Host code is Rust on every back end, so a host
//! expression (a shape, a loop condition, a fold's result read on the host)
//! is emitted here once; the CPU back end extends the same emitter with what
//! it knows inside a kernel (bounds proofs, hoisting, versioned loops).
//!
//! Names: `__bN` is buffer `N` (its columns on the CPU, its device columns
//! on the GPU), `__bN_shape` its shape, `__bN_cK` a slice of its leaf `K` on
//! the host, `__vN` variable `N`; `__ctx` is the run's error context.

use accel_core::ir::{Arena, BinOp, BufId, Expr, Loc, MathFn, PlanRead, Prim, Scalar, Ty, UnOp, VarId, H};
use accel_core::plan::Plan;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

mod walk;

pub use walk::{program, Target};

pub fn buf(b: u32) -> Ident {
    format_ident!("__b{}", b)
}

pub fn buf_shape(b: u32) -> Ident {
    format_ident!("__b{}_shape", b)
}

pub fn leaf(b: u32, k: usize) -> Ident {
    format_ident!("__b{}_c{}", b, k)
}

pub fn var(v: VarId) -> Ident {
    format_ident!("__v{}", v.0)
}

/// A source position as an `Option<&'static str>` expression of the generated
/// code: `Some("file:line:column")`, the file being the one `file!()` names
/// there (where the `#[acc]` function is), or `None`.
pub fn location(at: Option<Loc>) -> TokenStream {
    match at {
        Some(l) => {
            let pos = format!(":{l}");
            quote!(::core::option::Option::Some(
                ::core::concat!(::core::file!(), #pos)
            ))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// The Rust type of a scalar type.
pub fn rust_ty(t: &Ty) -> TokenStream {
    match t {
        // The half-precision types are `half`'s, re-exported by `accel`.
        Ty::Prim(Prim::F16) => quote!(::accel::f16),
        Ty::Prim(Prim::BF16) => quote!(::accel::bf16),
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
        Ty::Array(..) | Ty::Seq(_) => quote!(()),
    }
}

/// The field paths (`.0.1`) of the primitive leaves of `t`, in order.
pub fn leaf_paths(t: &Ty) -> Vec<TokenStream> {
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

/// Buffers whose data `h` reads.
pub fn buffers_in(a: &Arena, h: H) -> Vec<u32> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        match a.expr(x) {
            Expr::Plan(PlanRead::Buffer(b)) => out.push(b.0),
            // `__bN_shape` is its own local: reading it does not need the data.
            Expr::Scalar(Scalar::Shape(y)) if matches!(a.expr(*y), Expr::Plan(PlanRead::Buffer(_))) => {}
            e => stack.extend(e.children()),
        }
    }
    out
}

/// The buffer an array operand names (`u32::MAX` if it names none: the
/// validator rejects such plans).
pub fn buffer_of(a: &Arena, h: H) -> u32 {
    match a.expr(h) {
        Expr::Plan(PlanRead::Buffer(b)) => b.0,
        _ => u32::MAX,
    }
}

pub fn lit(p: Prim, bits: u64) -> TokenStream {
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
        Prim::F16 | Prim::BF16 => {
            let (t, b) = (rust_ty(&Ty::Prim(p)), Literal::u16_suffixed(bits as u16));
            return quote!(#t::from_bits(#b));
        }
    };
    quote!((#l))
}

/// The Rust code of scalar expressions. [`Scalars::node`] emits every node
/// in its plain form (reads checked, loops as written), calling
/// [`Scalars::expr`] for the children; an implementation's `expr` handles
/// the nodes it emits better and leaves the others to `node`.
pub trait Scalars {
    fn plan(&self) -> &Plan;
    /// The path of the runtime crate.
    fn rt(&self) -> &TokenStream;
    /// The code of expression `h`.
    fn expr(&self, h: H) -> TokenStream;
    /// Whether buffer `b`'s leaf is, where code is being emitted, its
    /// storage as an update in place writes it (`accel_runtime::cpu::InPlace`)
    /// instead of a slice.
    fn reads_in_place(&self, _b: u32) -> bool {
        false
    }

    /// The code of node `h` in its plain form.
    fn node(&self, h: H) -> TokenStream {
        let (a, rt) = (&self.plan().arena, self.rt());
        let ops = quote!(#rt::ops::ScalarOps);
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => {
                let v = var(*v);
                quote!(#v)
            }
            Expr::Scalar(Scalar::Let { var: v, value, body }) => {
                let t = rust_ty(&a.var(*v).ty);
                let (value, body) = (self.expr(*value), self.expr(*body));
                let v = var(*v);
                quote!({ let #v: #t = #value; #body })
            }
            Expr::Scalar(Scalar::Lit(l)) => lit(l.prim, l.bits),
            Expr::Scalar(Scalar::Tuple(xs)) => self.tuple(xs),
            Expr::Scalar(Scalar::Proj(x, n)) => self.proj(*x, self.expr(*x), *n),
            Expr::Scalar(Scalar::MakeIndex(xs)) => {
                let xs = xs.iter().map(|x| self.expr(*x));
                quote!([#(#xs),*])
            }
            Expr::Scalar(Scalar::Unary(UnOp::Neg, x)) => {
                let x = self.expr(*x);
                quote!(#ops::acc_neg(#x))
            }
            Expr::Scalar(Scalar::Unary(UnOp::Not, x)) => {
                let x = self.expr(*x);
                quote!((!#x))
            }
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
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
            Expr::Scalar(Scalar::Cast(x, to)) => {
                let from = a.ty(*x).prim();
                let xe = self.expr(*x);
                let t = rust_ty(&Ty::Prim(*to));
                let half = quote!(#rt::ops::Half);
                match (from, to) {
                    // Half-precision values convert through `f32`, both ways.
                    (Some(p), _) if p.is_half() => {
                        let wide = quote!(#half::to_f32(#xe));
                        if to.is_half() {
                            quote!(<#t as #half>::from_f32(#wide))
                        } else {
                            quote!((#wide as #t))
                        }
                    }
                    (Some(Prim::Bool), _) if to.is_half() => {
                        quote!(<#t as #half>::from_f32((#xe as u8) as f32))
                    }
                    (_, _) if to.is_half() => quote!(<#t as #half>::from_f32(#xe as f32)),
                    (Some(Prim::Bool), Prim::Bool) => xe,
                    (Some(Prim::Bool), _) => quote!(((#xe as u8) as #t)),
                    _ => quote!((#xe as #t)),
                }
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                let (c, t, e) = (self.expr(*c), self.expr(*t), self.expr(*e));
                quote!(if #c { #t } else { #e })
            }
            Expr::Scalar(Scalar::Math(f, xs)) => {
                let args: Vec<TokenStream> = xs.iter().map(|x| self.expr(*x)).collect();
                let math = quote!(#rt::ops::MathOps);
                // Rust's method on the receiver's type, except where accel's
                // conventions differ from Rust's panics.
                let t = rust_ty(a.ty(xs[0]));
                match f {
                    MathFn::Abs => quote!(#ops::acc_abs(#(#args),*)),
                    MathFn::Min => quote!(#ops::acc_min(#(#args),*)),
                    MathFn::Max => quote!(#ops::acc_max(#(#args),*)),
                    MathFn::Clamp => quote!(#math::acc_clamp(#(#args),*)),
                    MathFn::DivEuclid => quote!(#math::acc_div_euclid(#(#args),*)),
                    MathFn::RemEuclid => quote!(#math::acc_rem_euclid(#(#args),*)),
                    MathFn::Pow => quote!(<#t>::wrapping_pow(#(#args),*)),
                    MathFn::FromBits => {
                        let r = rust_ty(a.ty(h));
                        quote!(<#r>::from_bits(#(#args),*))
                    }
                    // On half-precision values: `f32`'s method on their
                    // `f32` values, a float result rounded back.
                    _ if xs.iter().any(|x| a.ty(*x).prim().is_some_and(Prim::is_half)) => {
                        let half = quote!(#rt::ops::Half);
                        let wide = xs.iter().zip(&args).map(|(x, e)| {
                            if a.ty(*x).prim().is_some_and(Prim::is_half) {
                                quote!(#half::to_f32(#e))
                            } else {
                                e.clone()
                            }
                        });
                        let m = Ident::new(f.name(), Span::call_site());
                        let call = quote!(<f32>::#m(#(#wide),*));
                        let r = rust_ty(a.ty(h));
                        match a.ty(h).prim() {
                            Some(p) if p.is_half() => quote!(<#r as #half>::from_f32(#call)),
                            _ => call,
                        }
                    }
                    _ => {
                        let m = Ident::new(f.name(), Span::call_site());
                        quote!(<#t>::#m(#(#args),*))
                    }
                }
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                ..
            }) => {
                let vs: Vec<Ident> = vars.iter().map(|v| var(*v)).collect();
                let (init, step, cond) = (self.tuple(init), self.loop_step(h, step), self.expr(*cond));
                quote! {{
                    let mut __state = #init;
                    loop {
                        let (#(#vs,)*) = __state;
                        if !(#cond) { break __state; }
                        __state = #step;
                    }
                }}
            }
            Expr::Scalar(Scalar::Some(x)) => {
                let x = self.expr(*x);
                quote!(::core::option::Option::Some(#x))
            }
            Expr::Scalar(Scalar::None(_)) => quote!(::core::option::Option::None),
            Expr::Scalar(Scalar::Shape(x)) => match a.expr(*x) {
                Expr::Plan(PlanRead::Buffer(b)) => {
                    let bs = buf_shape(b.0);
                    quote!(#bs)
                }
                _ => quote!(compile_error!("accel internal error: shape of a non-buffer")),
            },
            Expr::Plan(PlanRead::ReadLinear { array, index }) => {
                self.read(buffer_of(a, *array), self.expr(*index))
            }
            Expr::Plan(PlanRead::ReadIndex { array, index }) => {
                let b = buffer_of(a, *array);
                let bs = buf_shape(b);
                let ix = self.expr(*index);
                self.read(b, quote!(#rt::shape::to_linear(&#bs, &#ix)))
            }
            Expr::Scalar(Scalar::Trace { fmt, args, body }) => {
                // Printed in the user's builds with debug assertions only.
                let args: Vec<TokenStream> = args.iter().map(|x| self.expr(*x)).collect();
                let body = self.expr(*body);
                quote! {{
                    if ::core::cfg!(debug_assertions) {
                        ::std::eprintln!(#fmt, #(#args),*);
                    }
                    #body
                }}
            }
            Expr::Scalar(Scalar::Assert {
                cond,
                kind,
                op,
                msg,
                body,
            }) => {
                let kind = Ident::new(&format!("{kind:?}"), Span::call_site());
                let (c, body) = (self.expr(*cond), self.expr(*body));
                let at = location(a.loc(h));
                quote! {{
                    if !(#c) {
                        __ctx.fail(#rt::Error::with_kind(#rt::ErrorKind::#kind, #op, #msg).or_at(#at));
                    }
                    #body
                }}
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var: v,
                body,
            }) => {
                let (ix, sh, body) = (self.expr(*index), self.expr(*shape), self.expr(*body));
                let v = var(*v);
                let at = location(a.loc(h));
                quote! {{
                    let #v = #ix;
                    if __ctx.index(#op, #at, #v, #sh).is_some() { #body } else { ::core::default::Default::default() }
                }}
            }
            // Fusion leaves none of these in scalar code: array operations
            // became kernels, reads became checked or proved ones, and a
            // buffer is only the array argument of a read. Stencil reads are
            // the CPU kernels' own (`cpu::Gen::expr`).
            other @ (Expr::Array(_)
            | Expr::Seq(_)
            | Expr::Scalar(Scalar::Read { .. })
            | Expr::Plan(PlanRead::Buffer(_) | PlanRead::ReadStencil { .. })) => {
                let msg = format!("accel internal error: {other:?} left in the kernel plan");
                quote!(compile_error!(#msg))
            }
        }
    }

    /// The new state of `while` loop `h`, `step` (a back end that knows
    /// what holds inside the loop emits it knowing that).
    fn loop_step(&self, h: H, step: &[H]) -> TokenStream {
        let _ = h;
        self.tuple(step)
    }

    fn proj(&self, x: H, xe: TokenStream, n: usize) -> TokenStream {
        match self.plan().arena.ty(x) {
            Ty::Index(_) => {
                let n = Literal::usize_unsuffixed(n);
                quote!(#xe[#n])
            }
            _ => {
                let n = syn::Index::from(n);
                quote!(#xe.#n)
            }
        }
    }

    /// The tuple of `xs`. Components that project the same expression (a
    /// `while` loop's state update, the components of a `while`'s result)
    /// evaluate it once: the IR shares it, and emitting it per component
    /// would run a loop body, or a whole loop, once per component.
    fn tuple(&self, xs: &[H]) -> TokenStream {
        let a = &self.plan().arena;
        let shared = a.shared_projections(xs);
        let name = |b: H| format_ident!("__shared{}", shared.iter().position(|s| *s == b).unwrap_or(0));
        let lets = shared.iter().map(|b| {
            let (n, e) = (name(*b), self.expr(*b));
            quote!(let #n = #e;)
        });
        let items = xs.iter().map(|x| match a.expr(*x) {
            Expr::Scalar(Scalar::Proj(b, n)) if shared.contains(b) => {
                let v = name(*b);
                self.proj(*b, quote!(#v), *n)
            }
            _ => self.expr(*x),
        });
        quote!({ #(#lets)* (#(#items,)*) })
    }

    /// Reads the element of buffer `b` at row-major offset `off` from its
    /// leaves' slices `__bN_cK`.
    fn read(&self, b: u32, off: TokenStream) -> TokenStream {
        fn build(t: &Ty, b: u32, k: &mut usize, rt: &TokenStream, in_place: bool) -> TokenStream {
            match t {
                Ty::Tuple(ts) => {
                    let parts: Vec<TokenStream> = ts.iter().map(|t| build(t, b, k, rt, in_place)).collect();
                    quote!((#(#parts,)*))
                }
                _ => {
                    let l = leaf(b, *k);
                    *k += 1;
                    // SAFETY (of the generated block): the plan reads buffers only at
                    // offsets inside their shape; see `accel_runtime::cpu::at`.
                    if in_place {
                        quote!(unsafe { #l.at(__o) })
                    } else {
                        quote!(unsafe { #rt::cpu::at(#l, __o) })
                    }
                }
            }
        }
        let in_place = self.reads_in_place(b);
        let value = build(
            &self.plan().buffers[BufId(b)].elem,
            b,
            &mut 0,
            self.rt(),
            in_place,
        );
        quote!({ let __o: usize = #off; #value })
    }
}
