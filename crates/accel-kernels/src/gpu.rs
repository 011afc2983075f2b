//! Kernel plan → the Rust host code of a program's GPU path: bring the array
//! parameters to the device, evaluate shapes and host scalars, run the plan's
//! control flow on the host, and run each kernel. Array parameters already on
//! the device are not uploaded again, and result arrays stay on the device
//! until the host reads them.
//!
//! A kernel's launches (outputs and scratch memory, grid sizes, the order of
//! its entries) are not generated: each kernel is described as data, a
//! [`Layout`] embedded as a `static`, and `accel_runtime::gpu::launch` runs it.
//! The in-process executor of the random-program tests (`tests/random/exec.rs`)
//! runs the same layouts.
//!
//! The walk over the steps, names and host expressions are the shared host
//! layer's (`crate::host`); this file is the GPU's [`Target`]. A host
//! expression that reads buffer data (a fold's result used on the host)
//! downloads those buffers first. A buffer is a `buffers::GBuf` (shared device
//! columns), so values flow between branches and loop iterations by cheap
//! clones; the walk drops each buffer after its last use, which frees its
//! device memory when no other clone holds it.
//!
//! The block evaluates to `Result<T>`; it expects `__dev: &Arc<dyn Device>` and
//! the module's text in `__ACCEL_PTX` (a `static`, so its address is stable for
//! the device's module cache).

use crate::host::{buf, buf_shape, buffers_in, leaf, leaf_paths, location, rust_ty, var, Scalars, Target};
use crate::ptx::{Arg, KernelPtx, PtxProgram};
use accel_core::ir::{Loc, ScanKind, Ty, VarId, H};
use accel_core::plan::{ExpandSink, Kernel, KernelOp, Plan};
use accel_types::launch::{private_bins, Param, PermuteEntry, Skeleton};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};
use std::cell::Cell;
use std::collections::HashSet;

pub fn program_body(plan: &Plan, prog: &PtxProgram, rt: &TokenStream) -> TokenStream {
    // The kernels `ptx::program` made PTX for.
    let plan = &*crate::ptx::gpu_plan(plan);
    if let Some(why) = &prog.unsupported {
        let name = &plan.name;
        return quote!(::core::result::Result::Err(#rt::gpu::error_word::unsupported(#name, #why)));
    }
    let layouts = plan
        .kernels()
        .zip(&prog.kernels)
        .map(|(k, kp)| layout(plan, kp, k))
        .collect();
    let g = Gen {
        plan,
        prog,
        layouts,
        rt,
        next_kernel: Cell::new(0),
    };
    crate::host::program(&g)
}

struct Gen<'a> {
    plan: &'a Plan,
    prog: &'a PtxProgram,
    /// Each kernel's launch, in `Plan::kernels()` order (computed once: the
    /// walk asks for a kernel's reads at every liveness query).
    layouts: Vec<Layout>,
    rt: &'a TokenStream,
    /// The next kernel's position in `Plan::kernels()` order.
    next_kernel: Cell<usize>,
}

/// Byte sizes of the primitive leaves of `t`.
fn leaf_bytes(t: &Ty) -> Vec<usize> {
    t.leaves().into_iter().map(|p| (p.width() / 8) as usize).collect()
}

/// A kernel's host side as data, for `accel_runtime::gpu::launch`: which
/// skeleton, its entries with the source of each parameter, and which of the
/// program's values the parameters read. The generated host code embeds it;
/// an in-process executor builds it the same way.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The operation named in errors.
    pub op: &'static str,
    pub skeleton: Skeleton,
    /// Entry names and their parameters, in the module's order.
    pub entries: Vec<(String, Vec<Param<'static>>)>,
    /// Bytes per element of each column of each output.
    pub out_leaf_bytes: Vec<Vec<usize>>,
    /// The accumulator's type (a fold's or scan's partial results, `z`).
    pub acc: Ty,
    /// The partial results' type: the accumulator's, followed for a scan by
    /// those of the folds in its pass.
    pub part: Ty,
    /// The buffers read, by their position in `Param::In`/`InDim`.
    pub inputs: Vec<u32>,
    /// The host scalars read, `(variable, leaf)`, by position in `Param::Scalar`.
    pub scalars: Vec<(VarId, usize)>,
    /// The buffers written.
    pub outputs: Vec<u32>,
    /// The iteration shape, and the initial value if any (host expressions).
    pub iter: H,
    pub z: Option<H>,
    /// The operation's source position.
    pub at: Option<Loc>,
    /// The source position of a scan's `empty_fold`.
    pub empty_at: Option<Loc>,
}

/// The [`Layout`] of kernel `k` of `plan`, whose PTX is `kp`.
pub fn layout(plan: &Plan, kp: &KernelPtx, k: &Kernel) -> Layout {
    let elem = k.stored(plan);
    // A fold's or scan's accumulator (its `z` and partial results) has the
    // combination's type; the output differs when maps follow (`post`).
    let acc = match &k.op {
        KernelOp::Fold { f, .. } | KernelOp::Scan { f, .. } => plan.arena.var(f.params[0]).ty.clone(),
        KernelOp::Generate { folds, .. } if !folds.is_empty() => {
            plan.arena.var(folds[0].f.params[0]).ty.clone()
        }
        KernelOp::Expand {
            sink: ExpandSink::Fold { f, .. },
            ..
        } => plan.arena.var(f.params[0]).ty.clone(),
        _ => elem,
    };
    let part = match k.op.pass_folds() {
        folds @ [_, ..] if matches!(k.op, KernelOp::Scan { .. }) => Ty::Tuple(
            std::iter::once(acc.clone())
                .chain(folds.iter().map(|g| plan.arena.var(g.f.params[0]).ty.clone()))
                .collect(),
        ),
        _ => acc.clone(),
    };
    let mut inputs: Vec<u32> = Vec::new();
    let mut input = |b: u32| match inputs.iter().position(|&x| x == b) {
        Some(i) => i,
        None => {
            inputs.push(b);
            inputs.len() - 1
        }
    };
    // Where a scan's fold in its pass names an empty reduction.
    let mut empty_at = None;
    let (skeleton, iter, z) = match &k.op {
        // A fold in the generate's pass (`ptx::gpu_plan`): the fold's
        // skeleton over the generate's shape, with the fold's outputs.
        KernelOp::Generate { shape, folds, .. } if !folds.is_empty() => {
            let g = &folds[0];
            (
                fold_skeleton(plan, g.all, g.z.is_some(), k.outputs[1]),
                *shape,
                g.z,
            )
        }
        KernelOp::Generate { shape, elem, .. } => (
            Skeleton::Generate {
                segments: crate::ptx::segments::shares(&plan.arena, elem),
            },
            *shape,
            None,
        ),
        KernelOp::Fold { shape, z, all, .. } => {
            (fold_skeleton(plan, *all, z.is_some(), k.outputs[0]), *shape, *z)
        }
        KernelOp::Scan {
            shape,
            z,
            folds,
            kind,
            ..
        } => {
            // A `fold1` has no element in an empty row, unless it folds a
            // `scanl`'s outputs (which hold the initial value).
            let empty = folds
                .iter()
                .find(|g| g.z.is_none() && !(g.of_array.is_some() && *kind == ScanKind::WithInit));
            empty_at = empty.and_then(|g| g.alone.at);
            let empty_fold = empty.map(|g| if g.all { "fold1_all" } else { "fold1" });
            let scan_leaves = crate::ptx::lower::leaf_bytes(&acc).len();
            (
                Skeleton::Scan {
                    scan_leaves,
                    empty_fold,
                },
                *shape,
                *z,
            )
        }
        KernelOp::Permute { defaults, shape, .. } => (
            Skeleton::Permute {
                defaults: input(defaults.0),
                // The emitter writes the private entry where the combination
                // is a native atomic per field (`ptx::permute`).
                private_bins: if kp.entries.len() > PermuteEntry::Private.index() {
                    private_bins(crate::ptx::permute::elem_bytes(&k.stored(plan)))
                } else {
                    0
                },
            },
            *shape,
            None,
        ),
        KernelOp::Sort { shape, key_bits, .. } => (
            Skeleton::Sort {
                key_bits: *key_bits,
                digit_bits: crate::ptx::sort::DIGIT_BITS,
                tile: crate::ptx::sort::TILE as u32,
            },
            *shape,
            None,
        ),
        KernelOp::Expand { shape, sink, .. } => match sink {
            ExpandSink::Permute { defaults, .. } => (
                Skeleton::ExpandPermute {
                    defaults: input(defaults.0),
                    chunk: crate::ptx::expand::CHUNK as u32,
                },
                *shape,
                None,
            ),
            ExpandSink::Fold { z, .. } => (Skeleton::ExpandFold { z: z.is_some() }, *shape, *z),
        },
    };
    let outputs: Vec<u32> = k.outputs.iter().map(|b| b.0).collect();
    let mut scalars: Vec<(VarId, usize)> = Vec::new();
    let entries = kp
        .entries
        .iter()
        .map(|e| {
            let params = e
                .params
                .iter()
                .map(|a| match *a {
                    Arg::Err => Param::Err,
                    Arg::Col(b, c) => match outputs.iter().position(|&o| o == b) {
                        Some(o) => Param::Out(o, c),
                        None => Param::In(input(b), c),
                    },
                    Arg::Dim(b, d) => match outputs.iter().position(|&o| o == b) {
                        Some(o) => Param::OutDim(o, d),
                        None => Param::InDim(input(b), d),
                    },
                    Arg::Var(v, leaf, _) => {
                        let s = match scalars.iter().position(|&x| x == (v, leaf)) {
                            Some(s) => s,
                            None => {
                                scalars.push((v, leaf));
                                scalars.len() - 1
                            }
                        };
                        Param::Scalar(s)
                    }
                    Arg::IterDim(d) => Param::IterDim(d),
                    Arg::Extra(name) => Param::Extra(name),
                    Arg::Z(leaf, _) => Param::Z(leaf),
                    Arg::Part(c) => Param::Part(c),
                })
                .collect();
            (e.name.clone(), params)
        })
        .collect();
    Layout {
        op: k.fused.last().copied().unwrap_or("kernel"),
        skeleton,
        entries,
        out_leaf_bytes: k
            .outputs
            .iter()
            .map(|b| leaf_bytes(&plan.buffer(*b).elem))
            .collect(),
        part,
        acc,
        inputs,
        scalars,
        outputs,
        iter,
        z,
        at: k.at,
        empty_at,
    }
}

/// A fold's skeleton: to one value (of everything, or into a rank-0
/// `result`), or of each row.
fn fold_skeleton(plan: &Plan, all: bool, z: bool, result: accel_core::ir::BufId) -> Skeleton {
    if plan.folds_to_one_value(all, result) {
        Skeleton::FoldAll { z }
    } else {
        Skeleton::FoldRows { z }
    }
}

/// `l` as a `launch::Kernel` expression (for a `static`).
fn desc_tokens(l: &Layout, launch: &TokenStream) -> TokenStream {
    let op = l.op;
    let skeleton = match l.skeleton {
        Skeleton::Generate { segments } => quote!(Generate { segments: #segments }),
        Skeleton::FoldAll { z } => quote!(FoldAll { z: #z }),
        Skeleton::FoldRows { z } => quote!(FoldRows { z: #z }),
        Skeleton::Scan {
            scan_leaves,
            empty_fold,
        } => {
            let empty_fold = match empty_fold {
                Some(op) => quote!(::core::option::Option::Some(#op)),
                None => quote!(::core::option::Option::None),
            };
            quote!(Scan { scan_leaves: #scan_leaves, empty_fold: #empty_fold })
        }
        Skeleton::Permute {
            defaults,
            private_bins,
        } => {
            quote!(Permute { defaults: #defaults, private_bins: #private_bins })
        }
        Skeleton::Sort {
            key_bits,
            digit_bits,
            tile,
        } => quote!(Sort { key_bits: #key_bits, digit_bits: #digit_bits, tile: #tile }),
        Skeleton::ExpandPermute { defaults, chunk } => {
            quote!(ExpandPermute { defaults: #defaults, chunk: #chunk })
        }
        Skeleton::ExpandFold { z } => quote!(ExpandFold { z: #z }),
    };
    let entries = l.entries.iter().map(|(name, params)| {
        let params = params.iter().map(|p| match *p {
            Param::Err => quote!(#launch::Param::Err),
            Param::In(b, c) => quote!(#launch::Param::In(#b, #c)),
            Param::InDim(b, d) => quote!(#launch::Param::InDim(#b, #d)),
            Param::Out(o, c) => quote!(#launch::Param::Out(#o, #c)),
            Param::OutDim(o, d) => quote!(#launch::Param::OutDim(#o, #d)),
            Param::Scalar(s) => quote!(#launch::Param::Scalar(#s)),
            Param::IterDim(d) => quote!(#launch::Param::IterDim(#d)),
            Param::Z(k) => quote!(#launch::Param::Z(#k)),
            Param::Part(k) => quote!(#launch::Param::Part(#k)),
            Param::Extra(name) => quote!(#launch::Param::Extra(#name)),
        });
        quote!(#launch::Entry { name: #name, params: &[#(#params),*] })
    });
    let outs = l.out_leaf_bytes.iter().map(|bs| quote!(&[#(#bs),*]));
    // As the kernel holds the accumulator (`ptx::lower::leaf_bytes`): the
    // host's splits must agree with the kernel's shared memory.
    let acc = crate::ptx::lower::leaf_bytes(&l.part);
    let (at, empty_at) = (location(l.at), location(l.empty_at));
    quote! {
        #launch::Kernel {
            op: #op,
            skeleton: #launch::Skeleton::#skeleton,
            entries: &[#(#entries),*],
            out_leaf_bytes: &[#(#outs),*],
            acc_leaf_bytes: &[#(#acc),*],
            at: #at,
            empty_at: #empty_at,
        }
    }
}

impl Scalars for Gen<'_> {
    fn plan(&self) -> &Plan {
        self.plan
    }
    fn rt(&self) -> &TokenStream {
        self.rt
    }
    fn expr(&self, h: H) -> TokenStream {
        self.node(h)
    }
}

impl Gen<'_> {
    /// Binds array `name` as buffer `b`: its shape, and its device copy from
    /// `gpu::buffers::<how>` (`input` or `pulled`).
    fn bind_device_copy(&self, name: &Ident, b: u32, how: Ident) -> TokenStream {
        let rt = self.rt;
        let (bi, bs) = (buf(b), buf_shape(b));
        quote! {
            let #bs = #name.shape();
            let #bi = #rt::gpu::buffers::#how(__dev, &#name)?;
        }
    }
}

impl Target for Gen<'_> {
    /// The array's device copy, uploaded only when it has none here.
    fn input(&self, name: &Ident, b: u32) -> TokenStream {
        self.bind_device_copy(name, b, format_ident!("input"))
    }

    /// As `input`, the device copy not remembered by the array.
    fn pulled(&self, name: &Ident, b: u32) -> TokenStream {
        self.bind_device_copy(name, b, format_ident!("pulled"))
    }

    /// A host expression; buffers whose data it reads are downloaded first.
    fn host(&self, h: H) -> TokenStream {
        let rt = self.rt;
        let mut pre = TokenStream::new();
        let mut bufs = buffers_in(&self.plan.arena, h);
        bufs.sort_unstable();
        bufs.dedup();
        if !bufs.is_empty() {
            // The download waits for the kernels anyway: report theirs first.
            pre.extend(quote!(__err.check(__SITES)?;));
        }
        for b in bufs {
            let buffer = self.plan.buffer(accel_core::ir::BufId(b));
            let (bi, bs) = (buf(b), buf_shape(b));
            for (k, p) in buffer.elem.leaves().into_iter().enumerate() {
                let t = rust_ty(&Ty::Prim(p));
                let hv = format_ident!("__b{}_h{}", b, k);
                let c = leaf(b, k);
                pre.extend(quote! {
                    let #hv: ::std::vec::Vec<#t> = #bi.download::<#t>(__dev, #k, #rt::shape::size(&#bs))?;
                    let #c: &[#t] = &#hv;
                });
            }
        }
        let e = self.expr(h);
        if pre.is_empty() {
            e
        } else {
            quote!({ #pre #e })
        }
    }

    /// Errors of host expressions, in program order with the kernels'.
    fn after_step(&self) -> TokenStream {
        let rt = self.rt;
        quote!(#rt::gpu::error_word::first_error(&__err, __SITES, &__ctx)?;)
    }

    fn fallible(&self, result: TokenStream) -> TokenStream {
        quote!(__err.after_kernels(__SITES, #result)?;)
    }

    /// Launches read their inputs and consume none.
    fn kernel(&self, k: &Kernel, _may_move: &HashSet<u32>) -> (TokenStream, HashSet<u32>) {
        let rt = self.rt;
        let n = self.next_kernel.get();
        self.next_kernel.set(n + 1);
        let l = &self.layouts[n];
        let mut out = TokenStream::new();
        for o in &k.outputs {
            let buffer = self.plan.buffer(*o);
            let s = self.host(buffer.shape);
            let bs = buf_shape(o.0);
            let r = Literal::usize_unsuffixed(buffer.rank);
            let op = l.op;
            out.extend(quote! {
                let #bs: [usize; #r] = #s;
                __err.after_kernels(__SITES, #rt::host::extent(#op, &#bs))?;
            });
        }
        let outs: Vec<Ident> = k.outputs.iter().map(|b| buf(b.0)).collect();
        let mut inner = self.launch(l);
        // The first rows of another array: its columns, shared (they are
        // never written again), when the shape leads its shape.
        if let Some(x) = self.plan.prefix_source(k) {
            let (xi, xs, bs) = (buf(x.0), buf_shape(x.0), buf_shape(k.outputs[0].0));
            inner = quote! {
                if #rt::shape::leading_block(&#bs, &#xs) {
                    (::core::clone::Clone::clone(&#xi),)
                } else {
                    #inner
                }
            };
        }
        // Host expressions of the shapes first, as on the CPU.
        out.extend(self.after_step());
        out.extend(quote!(let (#(#outs,)*) = { #inner };));
        (out, HashSet::new())
    }

    /// Every buffer a launch passes (its columns, or its dimensions: `Io::bufs`).
    fn kernel_reads(&self, k: &Kernel) -> Vec<u32> {
        // The PTX program's kernels are the plan's, in `Plan::kernels` order.
        match self.plan.kernels().position(|x| std::ptr::eq(x, k)) {
            Some(n) => self.layouts[n].inputs.clone(),
            None => Vec::new(),
        }
    }

    fn bind(&self, _b: u32) -> TokenStream {
        TokenStream::new()
    }

    /// Frees its device memory now (the last clone of its columns).
    fn recycle(&self, b: u32) -> TokenStream {
        let bi = buf(b);
        quote!(::core::mem::drop(#bi);)
    }

    /// Another handle on the same device columns (they are never written
    /// after their kernel).
    fn clone_buffer(&self, b: u32) -> TokenStream {
        let bi = buf(b);
        quote!(::core::clone::Clone::clone(&#bi))
    }

    /// Arrays stay on the device; the host downloads them when it reads them.
    fn array_from_columns(&self, t: &TokenStream, r: &Literal) -> TokenStream {
        let rt = self.rt;
        quote!(#rt::gpu::buffers::output::<#t, #r>)
    }

    fn frame(&self, steps: TokenStream, result: TokenStream) -> TokenStream {
        let rt = self.rt;
        let errors = quote!(#rt::gpu::error_word);
        let sites = self.prog.sites.iter().map(|s| {
            let kind = format_ident!("{}", format!("{:?}", s.kind));
            let (op, msg, at) = (&s.op, &s.msg, location(s.at));
            quote!((#rt::ErrorKind::#kind, #op, #msg, #at))
        });
        let name = &self.plan.name;
        quote! {{
            const __SITES: &[#errors::ErrSite] = &[#(#sites),*];
            let __ctx = #rt::host::Ctx::new();
            let __err = #errors::ErrWord::new(__dev, #name)?;
            #steps
            let __result = #result;
            // Kernels report run-time errors through the error word, read here
            // and before the host reads device data, not after every launch
            // (each read waits for the device).
            __err.check(__SITES)?;
            __ctx.check()?;
            ::core::result::Result::Ok(__result)
        }}
    }
}

impl Gen<'_> {
    /// The code of one kernel: evaluates to the tuple of its output buffers.
    /// The skeleton's host side is `launch::kernel`, given the kernel's
    /// [`Layout`] as a `static` and the values it reads.
    fn launch(&self, l: &Layout) -> TokenStream {
        let rt = self.rt;
        let launch = quote!(#rt::gpu::launch);
        let de = quote!(#rt::gpu::buffers::DevElem);
        let op = l.op;
        let iter = self.host(l.iter);
        let z = match l.z {
            Some(z) => {
                let t = rust_ty(&l.acc);
                let z = self.host(z);
                let leaves = leaf_paths(&l.acc).into_iter().map(|p| quote!(#de::arg(__z #p)));
                quote! {
                    let __z: #t = #z;
                    let __zargs = [#(#leaves),*];
                }
            }
            None => quote!(let __zargs: [#rt::gpu::KernelArg; 0] = [];),
        };
        let bufs = l.inputs.iter().map(|&b| {
            let (bi, bs) = (buf(b), buf_shape(b));
            quote!((&#bi, &#bs[..]))
        });
        let scalars = l.scalars.iter().map(|&(v, k)| {
            let vi = var(v);
            let path = match &self.plan.arena.var(v).ty {
                Ty::Index(_) => {
                    let k = Literal::usize_unsuffixed(k);
                    quote!([#k])
                }
                t => leaf_paths(t).get(k).cloned().unwrap_or_default(),
            };
            quote!(#de::arg(#vi #path))
        });
        let out_shapes = l.outputs.iter().map(|&b| {
            let bs = buf_shape(b);
            quote!(&#bs[..])
        });
        let outs: Vec<Ident> = l.outputs.iter().map(|&b| buf(b)).collect();
        let desc = desc_tokens(l, &launch);
        quote! {
            let __in = #iter;
            __err.after_kernels(__SITES, #rt::host::extent(#op, &__in))?;
            #z
            static __KERNEL: #launch::Kernel<'static> = #desc;
            let __io = #launch::Io {
                bufs: &[#(#bufs),*],
                scalars: &[#(#scalars),*],
                z: &__zargs,
                iter: &__in[..],
                outs: &[#(#out_shapes),*],
            };
            let [#(#outs),*] = #launch::outputs(#launch::kernel(__dev, __ACCEL_PTX, &__err, __SITES, &__KERNEL, &__io)?)?;
            (#(#outs,)*)
        }
    }
}
