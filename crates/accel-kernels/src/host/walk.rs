//! The walk over a plan's host steps, written once for every back end:
//! parameters, `let`s, branches, loops, reshapes and results, with each
//! buffer's life (an owned buffer dies at its last use, or is moved by it).
//! A back end plugs in through [`Target`]: how it binds an input, runs a
//! kernel, copies and frees a buffer, and returns a result array.

use super::{buf, buf_shape, buffers_in, location, rust_ty, var, Scalars};
use accel_core::ir::H;
use accel_core::plan::{Block, Kernel, Output, ParamBinding, PlanPull, Slot, Step, Val};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::cell::Cell;
use std::collections::HashSet;

/// A back end's host code, for [`program`].
pub trait Target: Scalars {
    /// Binds array parameter `name` as buffer `b` (`__bN`, `__bN_shape`,
    /// and whatever else the back end reads it through).
    fn input(&self, name: &Ident, b: u32) -> TokenStream;
    /// Binds a stream's element or chunk `name`, pulled for one iteration,
    /// as buffer `b` (as [`Target::input`] by default).
    fn pulled(&self, name: &Ident, b: u32) -> TokenStream {
        self.input(name, b)
    }
    /// The code of host expression `h`.
    fn host(&self, h: H) -> TokenStream {
        self.expr(h)
    }
    /// After each step: stop with its error, if any.
    fn after_step(&self) -> TokenStream;
    /// A statement that stops with the error of `result` (an
    /// `accel::Result<()>` the host computed), in program order.
    fn fallible(&self, result: TokenStream) -> TokenStream;
    /// Kernel `k`'s code, binding its outputs. It may consume the buffers of
    /// `may_move` (their last use is here); it returns those it consumed.
    fn kernel(&self, k: &Kernel, may_move: &HashSet<u32>) -> (TokenStream, HashSet<u32>);
    /// Buffers kernel `k` reads beyond those its expressions read the data
    /// of: a buffer whose shape the kernel reads stays alive until it ran
    /// where the target takes the dimensions from the buffer (the GPU); on
    /// the CPU a shape is a local of its own.
    fn kernel_reads(&self, _k: &Kernel) -> Vec<u32> {
        Vec::new()
    }
    /// After `__bN` is bound anew (by a branch or a loop).
    fn bind(&self, b: u32) -> TokenStream;
    /// Ends the life of owned buffer `b`.
    fn recycle(&self, b: u32) -> TokenStream;
    /// A copy of buffer `b` for a new owner.
    fn clone_buffer(&self, b: u32) -> TokenStream;
    /// The function that makes a result array of element type `t` and rank
    /// `r` from its shape and columns: `fn(shape, columns) -> Result<Array<t, r>>`.
    fn array_from_columns(&self, t: &TokenStream, r: &Literal) -> TokenStream;
    /// The program's body: `steps`, then `result`, in the back end's
    /// context; a block that evaluates to `Result<T>`.
    fn frame(&self, steps: TokenStream, result: TokenStream) -> TokenStream;
}

/// The host code of `t`'s plan.
pub fn program(t: &impl Target) -> TokenStream {
    Walk {
        t,
        fresh: Cell::new(0),
    }
    .body()
}

struct Walk<'t, T> {
    t: &'t T,
    /// Numbers for the names of loop states.
    fresh: Cell<usize>,
}

impl<T: Target> Walk<'_, T> {
    fn body(&self) -> TokenStream {
        let t = self.t;
        let mut out = TokenStream::new();
        for p in &t.plan().params {
            let name = Ident::new(&p.name, Span::call_site());
            match p.binding {
                ParamBinding::Scalar(v) => {
                    let v = var(v);
                    out.extend(quote!(let #v = #name;));
                }
                ParamBinding::Array(b) => out.extend(t.input(&name, b.0)),
                // Pulled by the loop that consumes it.
                ParamBinding::Stream => {}
            }
        }
        let mut leaves = Vec::new();
        flatten(&t.plan().result, &mut leaves);
        let items: Vec<Item> = t.plan().steps.iter().map(Item::Step).collect();
        let (code, toks) = self.seq(&items, &[], &leaves);
        out.extend(code);
        let mut toks = toks.into_iter();
        let result = self.output(&t.plan().result, &mut toks);
        t.frame(out, result)
    }

    /// Emits a sequence of steps that owns the buffers `pre_owned` (given to
    /// it) and those its steps write: each is dropped right after its last use,
    /// or moved by that use when it can be, so no array outlives its use. Returns
    /// the code and, for each value of `result`, its tokens (`(columns, shape)`
    /// for a buffer; buffers this sequence does not own are copied).
    fn seq(&self, items: &[Item], pre_owned: &[u32], result: &[Val]) -> (TokenStream, Vec<TokenStream>) {
        let uses: Vec<HashSet<u32>> = items.iter().map(|it| self.item_uses(it)).collect();
        let in_result: HashSet<u32> = result
            .iter()
            .filter_map(|v| match v {
                Val::Buf(b) => Some(b.0),
                _ => None,
            })
            .collect();
        let mut scalar_result_uses = HashSet::new();
        for v in result {
            if let Val::Scalar(h) = v {
                scalar_result_uses.extend(buffers_in(&self.t.plan().arena, *h));
            }
        }
        // (buffer, the item that writes it)
        let mut owned: Vec<(u32, Option<usize>)> = pre_owned.iter().map(|b| (*b, None)).collect();
        for (i, it) in items.iter().enumerate() {
            if let Item::Step(st) = it {
                owned.extend(written_by(st).into_iter().map(|b| (b, Some(i))));
            }
        }
        let owned_set: HashSet<u32> = owned.iter().map(|(b, _)| *b).collect();
        // Buffers the result reads stay alive to the end; the others die at
        // their last use (`None`: never used).
        let kept = |b: u32| in_result.contains(&b) || scalar_result_uses.contains(&b);
        let last: Vec<(u32, Option<usize>, Option<usize>)> = owned
            .iter()
            .filter(|(b, _)| !kept(*b))
            .map(|(b, at)| (*b, *at, (0..items.len()).rev().find(|i| uses[*i].contains(b))))
            .collect();
        let mut out = TokenStream::new();
        for (b, at, l) in &last {
            if at.is_none() && l.is_none() {
                out.extend(self.t.recycle(*b));
            }
        }
        for (i, it) in items.iter().enumerate() {
            let may_move: HashSet<u32> = last
                .iter()
                .filter(|(_, _, l)| *l == Some(i))
                .map(|(b, _, _)| *b)
                .collect();
            let (code, moved) = self.item(it, &may_move);
            out.extend(code);
            if matches!(it, Item::Step(_)) {
                out.extend(self.t.after_step());
            }
            for (b, at, l) in &last {
                let dead_here = (*l == Some(i) && !moved.contains(b)) || (*at == Some(i) && l.is_none());
                if dead_here {
                    out.extend(self.t.recycle(*b));
                }
            }
        }
        let mut toks = Vec::new();
        for (j, v) in result.iter().enumerate() {
            toks.push(match v {
                Val::Buf(b) => {
                    let later = result[j + 1..].contains(v);
                    let cols = if owned_set.contains(&b.0) && !later {
                        let bi = buf(b.0);
                        quote!(#bi)
                    } else {
                        self.t.clone_buffer(b.0)
                    };
                    let bs = buf_shape(b.0);
                    quote!((#cols, #bs))
                }
                Val::Scalar(h) => {
                    // Computed now, so that the buffers it reads can be dropped.
                    let r = format_ident!("__res{}", j);
                    let e = self.t.host(*h);
                    out.extend(quote!(let #r = #e;));
                    quote!(#r)
                }
            });
        }
        for (b, _) in &owned {
            if scalar_result_uses.contains(b) && !in_result.contains(b) {
                out.extend(self.t.recycle(*b));
            }
        }
        (out, toks)
    }

    /// The buffers whose data an item reads (inside its sub-plans too).
    fn item_uses(&self, it: &Item) -> HashSet<u32> {
        let mut u = HashSet::new();
        match it {
            Item::Check(c, state) => {
                u.extend(buffers_in(&self.t.plan().arena, *c));
                u.extend(state.iter().filter_map(|s| match s {
                    Slot::Buf(b) => Some(b.0),
                    _ => None,
                }));
            }
            Item::Step(st) => self.step_uses(st, &mut u),
        }
        u
    }

    fn step_uses(&self, st: &Step, u: &mut HashSet<u32>) {
        let mut hs: Vec<H> = Vec::new();
        let vals = |vs: &[Val], u: &mut HashSet<u32>| {
            for v in vs {
                match v {
                    Val::Buf(b) => {
                        u.insert(b.0);
                    }
                    Val::Scalar(h) => u.extend(buffers_in(&self.t.plan().arena, *h)),
                }
            }
        };
        match st {
            Step::CheckReshape { from, to, .. } => hs.extend([*from, *to]),
            Step::Let { value, .. } => hs.push(*value),
            Step::Kernel(kernel) => {
                for o in &kernel.outputs {
                    hs.push(self.t.plan().buffers[*o].shape);
                }
                hs.extend(kernel.op.host_exprs());
                hs.extend(kernel.op.funs().iter().map(|f| f.body));
                u.extend(self.t.kernel_reads(kernel));
                if let Some(d) = kernel.op.defaults() {
                    u.insert(d.0);
                }
            }
            Step::If { cond, then, els, .. } => {
                hs.push(*cond);
                for b in [then, els] {
                    b.steps.iter().for_each(|s| self.step_uses(s, u));
                    vals(&b.result, u);
                }
            }
            Step::While { init, cond, body, .. } => {
                vals(init, u);
                for b in [cond, body] {
                    b.steps.iter().for_each(|s| self.step_uses(s, u));
                    vals(&b.result, u);
                }
            }
        }
        for h in hs {
            u.extend(buffers_in(&self.t.plan().arena, h));
        }
    }

    /// One item's code, and the buffers of `may_move` it consumed.
    fn item(&self, it: &Item, may_move: &HashSet<u32>) -> (TokenStream, HashSet<u32>) {
        match it {
            Item::Check(c, state) => {
                let c = self.t.host(*c);
                let st = state.iter().map(|s| self.slot_pattern(s));
                (quote!(if !(#c) { break (#(#st,)*); }), HashSet::new())
            }
            Item::Step(Step::If {
                cond,
                then,
                els,
                outs,
            }) => {
                // The buffers that die here are handed to both branches, which
                // drop or return them.
                let mut given: Vec<u32> = may_move.iter().copied().collect();
                given.sort_unstable();
                let c = self.t.host(*cond);
                let branch = |b: &Block| {
                    let items: Vec<Item> = b.steps.iter().map(Item::Step).collect();
                    let (code, toks) = self.seq(&items, &given, &b.result);
                    quote!({ #code (#(#toks,)*) })
                };
                let (t, e) = (branch(then), branch(els));
                let pat = outs.iter().map(|s| self.slot_pattern(s));
                let mut code = quote!(let (#(#pat,)*) = if #c #t else #e;);
                code.extend(self.bind_slots(outs));
                (code, may_move.clone())
            }
            Item::Step(Step::While {
                state,
                init,
                cond,
                body,
                outs,
                pulls,
            }) => {
                let n = self.fresh.get();
                self.fresh.set(n + 1);
                let st = format_ident!("__st{}", n);
                // A buffer that the loop reads as well as starting its state
                // from it (sharing may make them one) must stay: copy it.
                let mut inside = HashSet::new();
                for b in [cond, body] {
                    b.steps.iter().for_each(|s| self.step_uses(s, &mut inside));
                    for v in &b.result {
                        match v {
                            Val::Buf(b) => {
                                inside.insert(b.0);
                            }
                            Val::Scalar(h) => inside.extend(buffers_in(&self.t.plan().arena, *h)),
                        }
                    }
                }
                let mut moved = HashSet::new();
                let init_toks: Vec<TokenStream> = init
                    .iter()
                    .enumerate()
                    .map(|(j, v)| match v {
                        Val::Buf(b) => {
                            let cols = if may_move.contains(&b.0)
                                && !init[j + 1..].contains(v)
                                && !inside.contains(&b.0)
                            {
                                moved.insert(b.0);
                                let bi = buf(b.0);
                                quote!(#bi)
                            } else {
                                self.t.clone_buffer(b.0)
                            };
                            let bs = buf_shape(b.0);
                            quote!((#cols, #bs))
                        }
                        Val::Scalar(h) => self.t.host(*h),
                    })
                    .collect();
                let mut items: Vec<Item> = cond.steps.iter().map(Item::Step).collect();
                let c = match cond.result.first() {
                    Some(Val::Scalar(c)) => *c,
                    _ => self.t.plan().arena.handles().next().unwrap_or(H(0)),
                };
                items.push(Item::Check(c, state));
                items.extend(body.steps.iter().map(Item::Step));
                let state_bufs: Vec<u32> = state
                    .iter()
                    .filter_map(|s| match s {
                        Slot::Buf(b) => Some(b.0),
                        _ => None,
                    })
                    .collect();
                let (code, next) = self.seq(&items, &state_bufs, &body.result);
                // Each stream's next element, or the end of the loop.
                let rt = self.t.rt();
                let stream =
                    |p: &PlanPull| Ident::new(&self.t.plan().params[p.param].name, Span::call_site());
                let item = |p: &PlanPull| format_ident!("__item{}", p.item.0);
                let mut pull = TokenStream::new();
                for p in pulls {
                    let (stream, item) = (stream(p), item(p));
                    let next = match p.chunk {
                        None => quote!(#rt::seq::next(&mut #stream)?),
                        Some((len, elems)) => {
                            let r1 = self.t.plan().buffers[p.item].rank;
                            let (r, r1) = (Literal::usize_unsuffixed(r1 - 1), Literal::usize_unsuffixed(r1));
                            let (len, elems) = (self.t.host(len), self.t.host(elems));
                            quote!(#rt::seq::next_chunk::<_, #r, #r1>(&mut #stream, #len, #elems)?)
                        }
                    };
                    pull.extend(quote! {
                        let #item = match #next {
                            ::core::option::Option::Some(__x) => __x,
                            ::core::option::Option::None => break #st,
                        };
                    });
                }
                // Chunks of several streams: cut to the shortest (see `ir::Pull`).
                let chunked: Vec<&PlanPull> = pulls.iter().filter(|p| p.chunk.is_some()).collect();
                if chunked.len() > 1 {
                    let items = chunked.iter().map(|p| item(p));
                    pull.extend(quote!(let __n = [#(#items.shape()[0]),*].into_iter().min().unwrap_or(0);));
                    for p in &chunked {
                        let (stream, item) = (stream(p), item(p));
                        pull.extend(quote!(let #item = #rt::seq::cut(&mut #stream, #item, __n)?;));
                    }
                }
                for p in pulls {
                    pull.extend(self.t.pulled(&item(p), p.item.0));
                }
                let pat = state.iter().map(|s| self.slot_pattern(s));
                let bind = self.bind_slots(state);
                let opat = outs.iter().map(|s| self.slot_pattern(s));
                let mut out = quote! {
                    let mut #st = (#(#init_toks,)*);
                    let (#(#opat,)*) = loop {
                        #pull
                        let (#(#pat,)*) = #st;
                        #bind
                        #code
                        #st = (#(#next,)*);
                    };
                };
                out.extend(self.bind_slots(outs));
                (out, moved)
            }
            Item::Step(Step::Let { var: v, value }) => {
                let t = rust_ty(&self.t.plan().arena.var(*v).ty);
                let (v, value) = (var(*v), self.t.host(*value));
                (quote!(let #v: #t = #value;), HashSet::new())
            }
            Item::Step(Step::Kernel(k)) => self.t.kernel(k, may_move),
            Item::Step(Step::CheckReshape { from, to, at }) => {
                let rt = self.t.rt();
                let (f, t, at) = (self.t.host(*from), self.t.host(*to), location(*at));
                let check = quote!(#rt::host::check_reshape(&#f, &#t).map_err(|__e| __e.or_at(#at)));
                (self.t.fallible(check), HashSet::new())
            }
        }
    }

    fn slot_pattern(&self, s: &Slot) -> TokenStream {
        match s {
            Slot::Buf(b) => {
                let (bi, bs) = (buf(b.0), buf_shape(b.0));
                quote!((#bi, #bs))
            }
            Slot::Var(v) => {
                let v = var(*v);
                quote!(#v)
            }
        }
    }

    fn bind_slots(&self, slots: &[Slot]) -> TokenStream {
        let mut out = TokenStream::new();
        for s in slots {
            if let Slot::Buf(b) = s {
                out.extend(self.t.bind(b.0));
            }
        }
        out
    }

    /// The result, from the tokens of its leaves (in order).
    fn output(&self, o: &Output, toks: &mut impl Iterator<Item = TokenStream>) -> TokenStream {
        match o {
            Output::Array(b) => {
                let value = toks.next().unwrap_or_default();
                let buffer = &self.t.plan().buffers[*b];
                let t = rust_ty(&buffer.elem);
                let r = Literal::usize_unsuffixed(buffer.rank);
                let from_columns = self.t.array_from_columns(&t, &r);
                quote!({ let (__c, __s) = #value; #from_columns(__s, __c)? })
            }
            Output::Scalar(_) => toks.next().unwrap_or_default(),
            Output::Tuple(xs) => {
                let xs: Vec<TokenStream> = xs.iter().map(|x| self.output(x, toks)).collect();
                quote!((#(#xs,)*))
            }
        }
    }
}

/// A step list's items; a loop's iteration adds its exit test.
enum Item<'p> {
    Step(&'p Step),
    /// Leave the loop with the state when the condition fails.
    Check(H, &'p [Slot]),
}

/// The result's leaves, in order.
fn flatten(o: &Output, out: &mut Vec<Val>) {
    match o {
        Output::Array(b) => out.push(Val::Buf(*b)),
        Output::Scalar(h) => out.push(Val::Scalar(*h)),
        Output::Tuple(xs) => xs.iter().for_each(|x| flatten(x, out)),
    }
}

/// The buffers a step writes and that live after it.
fn written_by(st: &Step) -> Vec<u32> {
    let slots = |s: &[Slot]| -> Vec<u32> {
        s.iter()
            .filter_map(|x| match x {
                Slot::Buf(b) => Some(b.0),
                _ => None,
            })
            .collect()
    };
    match st {
        Step::Kernel(k) => k.outputs.iter().map(|b| b.0).collect(),
        Step::If { outs, .. } | Step::While { outs, .. } => slots(outs),
        Step::CheckReshape { .. } | Step::Let { .. } => vec![],
    }
}
