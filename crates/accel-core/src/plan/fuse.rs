//! Fusion: from the shared DAG to the kernel plan.
//!
//! Each array node becomes either *manifest* (a buffer) or *delayed*: its shape
//! and a function computing any element, by multi-dimensional index and, when the
//! producers allow it, by row-major offset (the paper's Yield and Step forms).
//! Producers (generate, map, zip_with, backpermute, reshape) compose delayed
//! functions; consumers (fold, scan, permute) embed their delayed input into
//! their kernel; a node with more than one data use, an array read by index in
//! scalar code, and the result are materialised by a generate kernel.

use super::{Buffer, ElemFn, Kernel, KernelOp, Origin, Output, ParamBinding, Plan, PlanParam, Step};
use crate::front::Program;
use crate::ir::{stencil_offsets, Arena, BinOp, Boundary, BufId, Expr, Fun, MathFn, Prim, ScanKind, Ty, H};
use crate::sharing;
use proc_macro2::Span;
use std::collections::HashMap;

/// Builds the fused kernel plan of a program whose sharing has been recovered
/// (`sharing::recover`).
pub fn build(p: &Program) -> Plan {
    let arena = p.arena.clone();
    let body = p.body;
    let uses = sharing::data_uses(&arena, body);
    let mut fz = Fuser {
        arena,
        uses,
        buffers: Vec::new(),
        steps: Vec::new(),
        manifest: HashMap::new(),
        multi: HashMap::new(),
        scalar_memo: HashMap::new(),
        shape_memo: HashMap::new(),
    };
    let mut params = Vec::new();
    for (i, prm) in p.params.iter().enumerate() {
        let binding = match &prm.ty {
            Ty::Array(elem, rank) => {
                let b = fz.new_buffer((**elem).clone(), *rank, Origin::Param(i), None);
                let v = fz.arena.var_ref(prm.var);
                fz.manifest.insert(v, b);
                ParamBinding::Array(b)
            }
            _ => ParamBinding::Scalar(prm.var),
        };
        params.push(PlanParam {
            name: prm.name.clone(),
            ty: prm.ty.clone(),
            binding,
        });
    }
    let result = fz.output(body);
    Plan {
        name: p.name.clone(),
        arena: fz.arena,
        params,
        buffers: fz.buffers,
        steps: fz.steps,
        result,
    }
}

enum Arr {
    Manifest(BufId),
    Delayed(Delayed),
}

#[derive(Clone)]
struct Delayed {
    shape: H,
    rank: usize,
    /// Element by row-major offset: valid for offsets below the shape's size.
    linear: Option<Fun>,
    /// Element by index: valid for indices inside the shape.
    index: Fun,
    /// Operations fused so far, producers first.
    ops: Vec<&'static str>,
}

struct Fuser {
    arena: Arena,
    uses: HashMap<H, usize>,
    buffers: Vec<Buffer>,
    steps: Vec<Step>,
    /// Array nodes already materialised.
    manifest: HashMap<H, BufId>,
    /// Multi-output operations (`scanl_total`) already run.
    multi: HashMap<H, Vec<BufId>>,
    scalar_memo: HashMap<H, H>,
    shape_memo: HashMap<H, H>,
}

impl Fuser {
    fn add(&mut self, e: Expr, ty: Ty) -> H {
        self.arena.add(e, ty, Span::call_site())
    }

    fn new_buffer(&mut self, elem: Ty, rank: usize, origin: Origin, shape: Option<H>) -> BufId {
        let b = BufId(self.buffers.len() as u32);
        let own_shape = {
            let buf = self.add(Expr::Buffer(b), Ty::array(elem.clone(), rank));
            self.add(Expr::Shape(buf), Ty::Index(rank))
        };
        self.buffers.push(Buffer {
            elem,
            rank,
            origin,
            shape: shape.unwrap_or(own_shape),
        });
        b
    }

    fn buffer_ref(&mut self, b: BufId) -> H {
        let buf = &self.buffers[b.0 as usize];
        let ty = Ty::array(buf.elem.clone(), buf.rank);
        self.add(Expr::Buffer(b), ty)
    }

    /// The shape of buffer `b`, as a host expression.
    fn buffer_shape(&mut self, b: BufId) -> H {
        let r = self.buffer_ref(b);
        let rank = self.buffers[b.0 as usize].rank;
        self.add(Expr::Shape(r), Ty::Index(rank))
    }

    fn elem_ty(&self, h: H) -> (Ty, usize) {
        match self.arena.ty(h) {
            Ty::Array(e, r) => ((**e).clone(), *r),
            _ => (Ty::Tuple(vec![]), 0),
        }
    }

    // ---- index arithmetic -------------------------------------------------

    fn component(&mut self, shape: H, d: usize) -> H {
        if let Expr::MakeIndex(xs) = self.arena.expr(shape) {
            return xs[d];
        }
        self.arena.proj(shape, d)
    }

    fn make_index(&mut self, xs: Vec<H>) -> H {
        let r = xs.len();
        self.add(Expr::MakeIndex(xs), Ty::Index(r))
    }

    /// The shape without its innermost dimension.
    fn init(&mut self, shape: H, rank: usize) -> H {
        let xs = (0..rank.saturating_sub(1))
            .map(|d| self.component(shape, d))
            .collect();
        self.make_index(xs)
    }

    fn intersect(&mut self, a: H, b: H, rank: usize) -> H {
        if a == b {
            return a;
        }
        let xs = (0..rank)
            .map(|d| {
                let (x, y) = (self.component(a, d), self.component(b, d));
                self.add(Expr::Math(MathFn::Min, vec![x, y]), Ty::Prim(Prim::Usize))
            })
            .collect();
        self.make_index(xs)
    }

    fn offset_of(&mut self, shape: H, ix: H, rank: usize) -> H {
        let mut l = self.arena.usize_lit(0);
        for d in 0..rank {
            let i = self.component(ix, d);
            l = if d == 0 {
                i
            } else {
                let n = self.component(shape, d);
                let m = self.arena.binary(BinOp::Mul, l, n);
                self.arena.binary(BinOp::Add, m, i)
            };
        }
        l
    }

    fn index_at(&mut self, shape: H, l: H, rank: usize) -> H {
        let mut xs = vec![l; rank];
        let mut rest = l;
        for d in (0..rank).rev() {
            if d == 0 {
                xs[0] = rest;
            } else {
                let n = self.component(shape, d);
                xs[d] = self.arena.binary(BinOp::Rem, rest, n);
                rest = self.arena.binary(BinOp::Div, rest, n);
            }
        }
        self.make_index(xs)
    }

    /// A one-parameter closure whose body `body(param)` builds.
    fn lambda(&mut self, name: &str, ty: Ty, body: impl FnOnce(&mut Self, H) -> H) -> Fun {
        let v = self.arena.new_var(name, ty);
        let vh = self.arena.var_ref(v);
        let b = body(self, vh);
        Fun {
            params: vec![v],
            body: b,
        }
    }

    fn compose(&mut self, f: &Fun, g: &Fun) -> Fun {
        let ty = self.arena.var(g.params[0]).ty.clone();
        let (f, g) = (f.clone(), g.clone());
        self.lambda("i", ty, |s, x| {
            let y = s.arena.apply(&g, &[x]);
            s.arena.apply(&f, &[y])
        })
    }

    // ---- scalar code ------------------------------------------------------

    /// Scalar code with its array reads turned into buffer reads.
    fn scalar(&mut self, h: H) -> H {
        if let Some(&r) = self.scalar_memo.get(&h) {
            return r;
        }
        let e = self.arena.expr(h).clone();
        let r = match &e {
            Expr::Read { array, index } => {
                let b = self.manifest(*array);
                let buf = self.buffer_ref(b);
                let elem = self.arena.ty(h).clone();
                let index = self.scalar(*index);
                let rank = self.buffers[b.0 as usize].rank;
                if rank == 0 {
                    // `s.value()`: always in bounds.
                    let zero = self.arena.usize_lit(0);
                    self.add(
                        Expr::ReadLinear {
                            array: buf,
                            index: zero,
                        },
                        elem,
                    )
                } else {
                    let shape = self.buffer_shape(b);
                    let v = self.arena.new_var("ix", Ty::Index(rank));
                    let vh = self.arena.var_ref(v);
                    let body = self.add(
                        Expr::ReadIndex {
                            array: buf,
                            index: vh,
                        },
                        elem.clone(),
                    );
                    self.add(
                        Expr::Checked {
                            op: "index",
                            index,
                            shape,
                            var: v,
                            body,
                        },
                        elem,
                    )
                }
            }
            Expr::Shape(a) => self.shape_of(*a),
            _ => {
                let new = e.map_children(|c| self.scalar(c));
                if new == e {
                    h
                } else {
                    let ty = self.arena.ty(h).clone();
                    self.add(new, ty)
                }
            }
        };
        self.scalar_memo.insert(h, r);
        r
    }

    fn fun(&mut self, f: &Fun) -> Fun {
        Fun {
            params: f.params.clone(),
            body: self.scalar(f.body),
        }
    }

    /// The shape of array node `h` without computing its elements.
    fn shape_of(&mut self, h: H) -> H {
        if let Some(&b) = self.manifest.get(&h) {
            return self.buffer_shape(b);
        }
        if let Some(&s) = self.shape_memo.get(&h) {
            return s;
        }
        let s = self.shape_of_once(h);
        self.shape_memo.insert(h, s);
        s
    }

    fn shape_of_once(&mut self, h: H) -> H {
        let (_, rank) = self.elem_ty(h);
        match self.arena.expr(h).clone() {
            Expr::Generate { shape, .. } | Expr::Backpermute { shape, .. } | Expr::Reshape { shape, .. } => {
                self.scalar(shape)
            }
            Expr::Map { a, .. } => self.shape_of(a),
            Expr::ZipWith { a, b, .. } => {
                let (sa, sb) = (self.shape_of(a), self.shape_of(b));
                self.intersect(sa, sb, rank)
            }
            Expr::Fold { a, all, .. } => {
                if all {
                    self.make_index(vec![])
                } else {
                    let s = self.shape_of(a);
                    self.init(s, rank + 1)
                }
            }
            Expr::Scan { kind, a, .. } => {
                let s = self.shape_of(a);
                if kind == ScanKind::WithInit {
                    self.bump_last(s, rank)
                } else {
                    s
                }
            }
            Expr::Proj(x, n) => {
                let Expr::Scan { a, .. } = self.arena.expr(x).clone() else {
                    let b = self.manifest(h);
                    return self.buffer_shape(b);
                };
                let s = self.shape_of(a);
                if n == 0 {
                    s
                } else {
                    self.init(s, rank + 1)
                }
            }
            Expr::Permute { defaults, .. } => self.shape_of(defaults),
            Expr::Stencil { arrays, .. } => {
                let mut s = self.shape_of(arrays[0]);
                for a in &arrays[1..] {
                    let t = self.shape_of(*a);
                    s = self.intersect(s, t, rank);
                }
                s
            }
            _ => {
                let b = self.manifest(h);
                self.buffer_shape(b)
            }
        }
    }

    fn bump_last(&mut self, s: H, rank: usize) -> H {
        let mut xs: Vec<H> = (0..rank).map(|d| self.component(s, d)).collect();
        let one = self.arena.usize_lit(1);
        xs[rank - 1] = self.arena.binary(BinOp::Add, xs[rank - 1], one);
        self.make_index(xs)
    }

    // ---- arrays -------------------------------------------------------------

    fn array(&mut self, h: H) -> Arr {
        if let Some(&b) = self.manifest.get(&h) {
            return Arr::Manifest(b);
        }
        match self.produce(h) {
            Arr::Manifest(b) => {
                self.manifest.insert(h, b);
                Arr::Manifest(b)
            }
            Arr::Delayed(d) if self.uses.get(&h).copied().unwrap_or(0) > 1 => {
                Arr::Manifest(self.materialise(h, d))
            }
            d => d,
        }
    }

    fn manifest(&mut self, h: H) -> BufId {
        match self.array(h) {
            Arr::Manifest(b) => b,
            Arr::Delayed(d) => self.materialise(h, d),
        }
    }

    fn delayed(&mut self, h: H) -> Delayed {
        match self.array(h) {
            Arr::Delayed(d) => d,
            Arr::Manifest(b) => self.view(b),
        }
    }

    /// A buffer seen as a delayed array.
    fn view(&mut self, b: BufId) -> Delayed {
        let (elem, rank) = {
            let buf = &self.buffers[b.0 as usize];
            (buf.elem.clone(), buf.rank)
        };
        let buf = self.buffer_ref(b);
        let shape = self.buffer_shape(b);
        let e2 = elem.clone();
        let linear = self.lambda("i", Ty::Prim(Prim::Usize), |s, i| {
            s.add(Expr::ReadLinear { array: buf, index: i }, e2)
        });
        let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
            s.add(
                Expr::ReadIndex {
                    array: buf,
                    index: ix,
                },
                elem,
            )
        });
        Delayed {
            shape,
            rank,
            linear: Some(linear),
            index,
            ops: vec![],
        }
    }

    /// For rank 0 and 1, the offset is the index: derive the linear form.
    fn with_linear(&mut self, mut d: Delayed) -> Delayed {
        if d.linear.is_none() && d.rank <= 1 {
            let index = d.index.clone();
            let rank = d.rank;
            d.linear = Some(self.lambda("i", Ty::Prim(Prim::Usize), |s, i| {
                let ix = s.make_index(if rank == 1 { vec![i] } else { vec![] });
                s.arena.apply(&index, &[ix])
            }));
        }
        d
    }

    fn materialise(&mut self, h: H, d: Delayed) -> BufId {
        let (elem, rank) = self.elem_ty(h);
        let b = self.new_buffer(elem, rank, Origin::Kernel(self.steps.len()), Some(d.shape));
        let mut fused = d.ops.clone();
        if fused.is_empty() {
            fused.push("copy");
        }
        let elem = elem_fn(&d);
        self.steps.push(Step::Kernel(Kernel {
            op: KernelOp::Generate { shape: d.shape, elem },
            outputs: vec![b],
            fused,
        }));
        self.manifest.insert(h, b);
        b
    }

    fn produce(&mut self, h: H) -> Arr {
        let (_, rank) = self.elem_ty(h);
        let e = self.arena.expr(h).clone();
        let d = match e {
            Expr::Generate { shape, f } => {
                let shape = self.scalar(shape);
                let index = self.fun(&f);
                Delayed {
                    shape,
                    rank,
                    linear: None,
                    index,
                    ops: vec!["generate"],
                }
            }
            Expr::Map { f, a } => {
                let d = self.delayed(a);
                let f = self.fun(&f);
                let index = self.compose(&f, &d.index);
                let linear = d.linear.as_ref().map(|l| self.compose(&f, l));
                Delayed {
                    shape: d.shape,
                    rank,
                    linear,
                    index,
                    ops: with(d.ops, "map"),
                }
            }
            Expr::ZipWith { f, a, b } => {
                let da = self.delayed(a);
                let db = self.delayed(b);
                let f = self.fun(&f);
                let shape = self.intersect(da.shape, db.shape, rank);
                let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
                    let x = s.arena.apply(&da.index, &[ix]);
                    let y = s.arena.apply(&db.index, &[ix]);
                    s.arena.apply(&f, &[x, y])
                });
                // Offsets agree when the shapes are the same (or there is at
                // most one dimension, where the offset is the index).
                let same = rank <= 1 || da.shape == db.shape;
                let linear = match (&da.linear, &db.linear) {
                    (Some(la), Some(lb)) if same => {
                        let (la, lb) = (la.clone(), lb.clone());
                        Some(self.lambda("i", Ty::Prim(Prim::Usize), |s, i| {
                            let x = s.arena.apply(&la, &[i]);
                            let y = s.arena.apply(&lb, &[i]);
                            s.arena.apply(&f, &[x, y])
                        }))
                    }
                    _ => None,
                };
                let mut ops = da.ops;
                ops.extend(db.ops);
                Delayed {
                    shape,
                    rank,
                    linear,
                    index,
                    ops: with(ops, "zip_with"),
                }
            }
            Expr::Backpermute { shape, f, a } => {
                let d = self.delayed(a);
                let shape = self.scalar(shape);
                let f = self.fun(&f);
                let src_rank = d.rank;
                let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
                    let src = s.arena.apply(&f, &[ix]);
                    let v = s.arena.new_var("src", Ty::Index(src_rank));
                    let vh = s.arena.var_ref(v);
                    let body = s.arena.apply(&d.index, &[vh]);
                    let ty = s.arena.ty(body).clone();
                    s.add(
                        Expr::Checked {
                            op: "backpermute",
                            index: src,
                            shape: d.shape,
                            var: v,
                            body,
                        },
                        ty,
                    )
                });
                Delayed {
                    shape,
                    rank,
                    linear: None,
                    index,
                    ops: with(d.ops, "backpermute"),
                }
            }
            Expr::Reshape { shape, a } => {
                let d = self.delayed(a);
                let shape = self.scalar(shape);
                self.steps.push(Step::CheckReshape {
                    from: d.shape,
                    to: shape,
                });
                let (linear, index) = match &d.linear {
                    Some(l) => {
                        let l = l.clone();
                        let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
                            let off = s.offset_of(shape, ix, rank);
                            s.arena.apply(&l, &[off])
                        });
                        (Some(l), index)
                    }
                    None => {
                        let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
                            let off = s.offset_of(shape, ix, rank);
                            let old = s.index_at(d.shape, off, d.rank);
                            s.arena.apply(&d.index, &[old])
                        });
                        (None, index)
                    }
                };
                Delayed {
                    shape,
                    rank,
                    linear,
                    index,
                    ops: with(d.ops, "reshape"),
                }
            }
            Expr::Stencil {
                boundaries,
                f,
                arrays,
                extents,
            } => {
                // The inputs are manifest; the stencil itself is a producer whose
                // element reads the neighbours (`ReadStencil`).
                let bufs: Vec<BufId> = arrays.iter().map(|x| self.manifest(*x)).collect();
                let mut bounds = Vec::new();
                for b in &boundaries {
                    bounds.push(match b.constant() {
                        Some(c) => Boundary::Constant(self.scalar(c)),
                        None => *b,
                    });
                }
                let f = self.fun(&f);
                let mut shape = self.buffer_shape(bufs[0]);
                for b in &bufs[1..] {
                    let t = self.buffer_shape(*b);
                    shape = self.intersect(shape, t, rank);
                }
                let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
                    let mut lets = Vec::new();
                    let mut params = f.params.iter();
                    for (k, buf) in bufs.iter().enumerate() {
                        let array = s.buffer_ref(*buf);
                        let elem = s.buffers[buf.0 as usize].elem.clone();
                        for offset in stencil_offsets(&extents[k]) {
                            let Some(&p) = params.next() else { break };
                            // Points the function never reads are never read.
                            if !mentions(&s.arena, f.body, p) {
                                continue;
                            }
                            let read = s.add(
                                Expr::ReadStencil {
                                    array,
                                    center: ix,
                                    offset,
                                    boundary: bounds[k],
                                },
                                elem.clone(),
                            );
                            lets.push((p, read));
                        }
                    }
                    let mut body = f.body;
                    for (p, read) in lets.into_iter().rev() {
                        body = s.arena.let_(p, read, body);
                    }
                    body
                });
                Delayed {
                    shape,
                    rank,
                    linear: None,
                    index,
                    ops: vec!["stencil"],
                }
            }
            Expr::Fold { f, z, a, all } => {
                let d = self.delayed(a);
                let z = z.map(|z| self.scalar(z));
                let f = self.fun(&f);
                let out_shape = if all {
                    self.make_index(vec![])
                } else {
                    self.init(d.shape, d.rank)
                };
                let name = match (all, z.is_some()) {
                    (true, true) => "fold_all",
                    (true, false) => "fold1_all",
                    (false, true) => "fold",
                    (false, false) => "fold1",
                };
                let op = KernelOp::Fold {
                    shape: d.shape,
                    elem: elem_fn(&d),
                    z,
                    f,
                    all,
                };
                return Arr::Manifest(self.kernel(h, op, d.ops, name, &[out_shape])[0]);
            }
            Expr::Scan { dir, kind, f, z, a } => {
                let d = self.delayed(a);
                let z = z.map(|z| self.scalar(z));
                let f = self.fun(&f);
                let main = if kind == ScanKind::WithInit {
                    self.bump_last(d.shape, d.rank)
                } else {
                    d.shape
                };
                let mut shapes = vec![main];
                if kind == ScanKind::Exclusive {
                    shapes.push(self.init(d.shape, d.rank));
                }
                let op = KernelOp::Scan {
                    shape: d.shape,
                    elem: elem_fn(&d),
                    dir,
                    kind,
                    z,
                    f,
                };
                let outs = self.kernel(h, op, d.ops, "scan", &shapes);
                if kind == ScanKind::Exclusive {
                    self.multi.insert(h, outs);
                    return Arr::Manifest(BufId(u32::MAX));
                }
                return Arr::Manifest(outs[0]);
            }
            Expr::Permute {
                combine,
                defaults,
                index,
                a,
            } => {
                let defaults_buf = self.manifest(defaults);
                let move_defaults = matches!(self.buffers[defaults_buf.0 as usize].origin, Origin::Kernel(_))
                    && self.uses.get(&defaults).copied().unwrap_or(0) <= 1;
                let d = self.delayed(a);
                let index = self.fun(&index);
                let combine = self.fun(&combine);
                let out_shape = self.buffer_shape(defaults_buf);
                let op = KernelOp::Permute {
                    defaults: defaults_buf,
                    move_defaults,
                    shape: d.shape,
                    elem: elem_fn(&d),
                    index,
                    combine,
                };
                return Arr::Manifest(self.kernel(h, op, d.ops, "permute", &[out_shape])[0]);
            }
            Expr::Proj(x, n) => {
                if !self.multi.contains_key(&x) {
                    self.produce(x);
                }
                let b = self.multi.get(&x).and_then(|bs| bs.get(n)).copied();
                return Arr::Manifest(b.unwrap_or(BufId(u32::MAX)));
            }
            // Only parameters remain: they were registered as manifest.
            _ => return Arr::Manifest(self.manifest.get(&h).copied().unwrap_or(BufId(u32::MAX))),
        };
        Arr::Delayed(self.with_linear(d))
    }

    /// Appends a consumer kernel writing one new buffer per shape.
    fn kernel(
        &mut self,
        h: H,
        op: KernelOp,
        mut fused: Vec<&'static str>,
        name: &'static str,
        shapes: &[H],
    ) -> Vec<BufId> {
        let (elem, rank) = match self.arena.ty(h) {
            Ty::Tuple(ts) => match &ts[0] {
                Ty::Array(e, r) => ((**e).clone(), *r),
                _ => (Ty::Tuple(vec![]), 0),
            },
            _ => self.elem_ty(h),
        };
        let k = self.steps.len();
        let outs: Vec<BufId> = shapes
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let r = if i == 0 { rank } else { rank - 1 };
                self.new_buffer(elem.clone(), r, Origin::Kernel(k), Some(*s))
            })
            .collect();
        fused.push(name);
        self.steps.push(Step::Kernel(Kernel {
            op,
            outputs: outs.clone(),
            fused,
        }));
        outs
    }

    fn output(&mut self, h: H) -> Output {
        match self.arena.ty(h).clone() {
            Ty::Array(..) => Output::Array(self.manifest(h)),
            Ty::Tuple(ts) if ts.iter().any(Ty::has_array) => match self.arena.expr(h).clone() {
                Expr::Tuple(xs) => Output::Tuple(xs.iter().map(|x| self.output(*x)).collect()),
                _ => {
                    self.produce(h);
                    let outs = self.multi.get(&h).cloned().unwrap_or_default();
                    Output::Tuple(outs.into_iter().map(Output::Array).collect())
                }
            },
            _ => Output::Scalar(self.scalar(h)),
        }
    }
}

/// Whether `h` reads variable `v`.
fn mentions(a: &Arena, h: H, v: crate::ir::VarId) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        let e = a.expr(x);
        if e == &Expr::Var(v) {
            return true;
        }
        stack.extend(e.children());
    }
    false
}

fn with(mut ops: Vec<&'static str>, op: &'static str) -> Vec<&'static str> {
    ops.push(op);
    ops
}

fn elem_fn(d: &Delayed) -> ElemFn {
    match &d.linear {
        Some(l) => ElemFn::Linear(l.clone()),
        None => ElemFn::Index(d.index.clone()),
    }
}
