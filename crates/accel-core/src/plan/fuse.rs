//! Fusion: from the shared DAG to the kernel plan.
//!
//! Each array node becomes either *manifest* (a buffer) or *delayed*: its shape
//! and a function computing any element, by multi-dimensional index and, when the
//! producers allow it, by row-major offset (the paper's Yield and Step forms).
//! Producers (generate, map, zip_with, backpermute, reshape) compose delayed
//! functions; consumers (fold, scan, permute) embed their delayed input into
//! their kernel; a node with more than one data use, an array read by index in
//! scalar code, and the result are materialised by a generate kernel.

use super::{
    Block, Buffer, Buffers, ElemFn, Kernel, KernelOp, Origin, Output, ParamBinding, Plan, PlanParam,
    PlanPull, Slot, Step, Val,
};
use crate::front::Program;
use crate::ir::{
    stencil_offsets, Arena, ArrayOp, BinOp, Boundary, BufId, Expr, Fun, Loc, MathFn, PlanRead, Prim, Pull,
    Scalar, ScanKind, Ty, VarId, H,
};
use crate::sharing;
use proc_macro2::Span;
use std::collections::{HashMap, HashSet};

mod expand;

/// Builds the fused kernel plan of a program whose sharing has been recovered
/// (`sharing::recover`).
pub fn build(p: &Program) -> Plan {
    build_with(p, crate::Options::default())
}

/// [`build`] with chosen optimisations: without fusion every array operation
/// is materialised by its own kernel; without sharing a producer used twice is
/// recomputed in each consumer.
pub fn build_with(p: &Program, opts: crate::Options) -> Plan {
    let mut plan = fuse(p, opts);
    cluster(&mut plan, opts);
    plan
}

/// The pass `fusion`: producers fused into their consumers, every array that
/// stays one written by its own kernel.
pub fn fuse(p: &Program, opts: crate::Options) -> Plan {
    let arena = p.arena.clone();
    let body = p.body;
    let uses = sharing::data_uses(&arena, body);
    let mut fz = Fuser {
        arena,
        opts,
        uses,
        buffers: Buffers::default(),
        steps: Vec::new(),
        manifest: HashMap::new(),
        multi: HashMap::new(),
        scalar_memo: HashMap::new(),
        cvals: HashMap::new(),
        created: HashSet::new(),
        lets_done: HashSet::new(),
        work: HashMap::new(),
        streams: HashMap::new(),
        generated: HashMap::new(),
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
            Ty::Seq(_) => {
                fz.streams.insert(prm.var, i);
                ParamBinding::Stream
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
        fusion: Default::default(),
    }
}

/// The pass `clustering`: kernels merged and arrays computed inside their one
/// reader (`plan::horizontal`), then spans resolved to source positions.
pub fn cluster(plan: &mut Plan, opts: crate::Options) {
    let clustering = if opts.fusion {
        opts.clustering
    } else {
        super::horizontal::Clustering::Off
    };
    plan.fusion = super::horizontal::fuse(plan, clustering);
    // Spans become source positions here, where the program was parsed: the
    // code generators name them in run-time errors.
    plan.arena.resolve_locs();
}

enum Arr {
    Manifest(BufId),
    Delayed(Delayed),
}

/// An input of a stencil: read from a buffer, or computed at each tap.
enum StencilInput {
    Buffer(BufId),
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
    opts: crate::Options,
    uses: HashMap<H, usize>,
    buffers: Buffers,
    steps: Vec<Step>,
    /// Array nodes already materialised.
    manifest: HashMap<H, BufId>,
    /// Multi-output operations (`scanl_total`) already run.
    multi: HashMap<H, Vec<BufId>>,
    /// Scalar code converted, keyed by whether it runs on the host.
    scalar_memo: HashMap<(H, bool), H>,
    /// Values of control flow, and of variables holding tuples with arrays.
    cvals: HashMap<H, Output>,
    /// Buffers written in the current sub-plan (only these may be moved).
    created: HashSet<BufId>,
    /// Kept `let`s already bound in the current sub-plan.
    lets_done: HashSet<VarId>,
    /// Memo of `sharing::array_work`.
    work: HashMap<H, bool>,
    /// The streamed parameters, by variable: their positions.
    streams: HashMap<VarId, usize>,
    /// Buffers written by a `generate` (in any sub-plan): its node, to find
    /// the constant fills among them (`permute_defaults`).
    generated: HashMap<BufId, H>,
}

/// What a sub-plan saves of its parent's memo tables, to restore on exit.
struct Saved {
    steps: Vec<Step>,
    manifest: HashMap<H, BufId>,
    multi: HashMap<H, Vec<BufId>>,
    scalar_memo: HashMap<(H, bool), H>,
    cvals: HashMap<H, Output>,
    created: HashSet<BufId>,
    lets_done: HashSet<VarId>,
}

/// One planning of a loop's condition and body ([`Fuser::plan_iteration`]).
struct Iteration {
    /// The parent's tables, for leaving the sub-plan.
    saved: Saved,
    state: Vec<Slot>,
    cond: H,
    cond_steps: Vec<Step>,
    next: Vec<Val>,
    pulls: Vec<PlanPull>,
}

impl Fuser {
    fn add(&mut self, e: Expr, ty: Ty) -> H {
        self.arena.add(e, ty, Span::call_site())
    }

    /// `e`, at the source span of node `at` (where its run-time errors point).
    fn add_at(&mut self, e: Expr, ty: Ty, at: H) -> H {
        let span = self.arena.span(at);
        self.arena.add(e, ty, span)
    }

    /// The source position of node `h`.
    fn loc(&self, h: H) -> Option<Loc> {
        Loc::of(self.arena.span(h))
    }

    fn new_buffer(&mut self, elem: Ty, rank: usize, origin: Origin, shape: Option<H>) -> BufId {
        // The id the buffer gets below: its shape expression names it.
        let b = BufId(self.buffers.len() as u32);
        let own_shape = {
            let buf = self.add(Expr::Plan(PlanRead::Buffer(b)), Ty::array(elem.clone(), rank));
            self.add(Expr::Scalar(Scalar::Shape(buf)), Ty::Index(rank))
        };
        if let Some(s) = shape {
            self.arena.shape_facts.buffers.insert(b, s);
        }
        self.buffers.push(Buffer {
            elem,
            rank,
            origin,
            shape: shape.unwrap_or(own_shape),
        });
        b
    }

    fn buffer_ref(&mut self, b: BufId) -> H {
        let buf = &self.buffers[b];
        let ty = Ty::array(buf.elem.clone(), buf.rank);
        self.add(Expr::Plan(PlanRead::Buffer(b)), ty)
    }

    /// The shape of buffer `b`, as a host expression.
    fn buffer_shape(&mut self, b: BufId) -> H {
        let r = self.buffer_ref(b);
        let rank = self.buffers[b].rank;
        self.add(Expr::Scalar(Scalar::Shape(r)), Ty::Index(rank))
    }

    fn elem_ty(&self, h: H) -> (Ty, usize) {
        match self.arena.ty(h) {
            Ty::Array(e, r) => ((**e).clone(), *r),
            _ => (Ty::Tuple(vec![]), 0),
        }
    }

    // ---- index arithmetic -------------------------------------------------

    fn component(&mut self, shape: H, d: usize) -> H {
        if let Expr::Scalar(Scalar::MakeIndex(xs)) = self.arena.expr(shape) {
            return xs[d];
        }
        self.arena.proj(shape, d)
    }

    fn make_index(&mut self, xs: Vec<H>) -> H {
        let r = xs.len();
        self.add(Expr::Scalar(Scalar::MakeIndex(xs)), Ty::Index(r))
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
                self.add(
                    Expr::Scalar(Scalar::Math(MathFn::Min, vec![x, y])),
                    Ty::Prim(Prim::Usize),
                )
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
        self.scalar_in(h, true)
    }

    /// `host`: the code runs on the host (not per element in a kernel), where
    /// array-level control flow and kept `let`s become steps.
    fn scalar_in(&mut self, h: H, host: bool) -> H {
        if let Some(&r) = self.scalar_memo.get(&(h, host)) {
            return r;
        }
        let e = self.arena.expr(h).clone();
        let r = match &e {
            Expr::Scalar(Scalar::If(..)) | Expr::Scalar(Scalar::While { .. })
                if host && self.is_control(h) =>
            {
                let v = self.control(h);
                self.output_scalar(&v)
            }
            // `x && y`, `x || y` on the host with array work in `y`: that work runs
            // only when `y` is evaluated, as an `if`.
            Expr::Scalar(Scalar::Binary(op @ (BinOp::And | BinOp::Or), x, y))
                if host && sharing::array_work(&self.arena, *y, &HashMap::new(), &mut self.work) =>
            {
                let b = |s: &mut Self, v: bool| s.arena.lit(Prim::Bool, v as u64);
                let (t, f) = if *op == BinOp::And {
                    (*y, b(self, false))
                } else {
                    (b(self, true), *y)
                };
                let span = self.arena.span(h);
                let i = self
                    .arena
                    .add(Expr::Scalar(Scalar::If(*x, t, f)), Ty::Prim(Prim::Bool), span);
                self.scalar_in(i, host)
            }
            Expr::Scalar(Scalar::Let { var, value, body }) if host => {
                self.bind_let(*var, *value);
                self.scalar_in(*body, host)
            }
            Expr::Scalar(Scalar::Proj(x, n)) if self.arena.ty(*x).has_array() => {
                let v = self.cval(*x);
                match v {
                    Output::Tuple(mut xs) if *n < xs.len() => {
                        let x = xs.swap_remove(*n);
                        self.output_scalar(&x)
                    }
                    _ => h,
                }
            }
            Expr::Scalar(Scalar::Read { array, index }) if !host && self.fuses_into_read(*array) => {
                // A cheap producer read by index inside a kernel: its element is
                // computed where it is read (as a backpermute would).
                let d = self.delayed(*array);
                let index = self.scalar_in(*index, host);
                let elem = self.arena.ty(h).clone();
                let v = self.arena.new_var("ix", Ty::Index(d.rank));
                let vh = self.arena.var_ref(v);
                let body = self.arena.apply(&d.index, &[vh]);
                self.add_at(
                    Expr::Plan(PlanRead::Checked {
                        op: "index",
                        index,
                        shape: d.shape,
                        var: v,
                        body,
                    }),
                    elem,
                    h,
                )
            }
            Expr::Scalar(Scalar::Read { array, index }) => {
                let b = self.manifest(*array);
                let buf = self.buffer_ref(b);
                let elem = self.arena.ty(h).clone();
                let index = self.scalar_in(*index, host);
                let rank = self.buffers[b].rank;
                if rank == 0 {
                    // `s.value()`: always in bounds.
                    let zero = self.arena.usize_lit(0);
                    self.add(
                        Expr::Plan(PlanRead::ReadLinear {
                            array: buf,
                            index: zero,
                        }),
                        elem,
                    )
                } else {
                    let shape = self.buffer_shape(b);
                    let v = self.arena.new_var("ix", Ty::Index(rank));
                    let vh = self.arena.var_ref(v);
                    let body = self.add(
                        Expr::Plan(PlanRead::ReadIndex {
                            array: buf,
                            index: vh,
                        }),
                        elem.clone(),
                    );
                    self.add_at(
                        Expr::Plan(PlanRead::Checked {
                            op: "index",
                            index,
                            shape,
                            var: v,
                            body,
                        }),
                        elem,
                        h,
                    )
                }
            }
            Expr::Scalar(Scalar::Shape(a)) => self.shape_of(*a),
            _ => {
                let new = e.map_children(|c| self.scalar_in(c, host));
                if new == e {
                    h
                } else {
                    // Keeps the span: an `Assert`'s errors are reported there.
                    let ty = self.arena.ty(h).clone();
                    self.add_at(new, ty, h)
                }
            }
        };
        self.scalar_memo.insert((h, host), r);
        r
    }

    fn fun(&mut self, f: &Fun) -> Fun {
        Fun {
            params: f.params.clone(),
            body: self.scalar_in(f.body, false),
        }
    }

    /// The shape of array node `h` without computing its elements.
    fn shape_of(&mut self, h: H) -> H {
        if let Some(&b) = self.manifest.get(&h) {
            return self.buffer_shape(b);
        }
        let (_, rank) = self.elem_ty(h);
        match self.arena.expr(h).clone() {
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                self.bind_let(var, value);
                self.shape_of(body)
            }
            Expr::Array(ArrayOp::Generate { shape, .. })
            | Expr::Array(ArrayOp::Backpermute { shape, .. })
            | Expr::Array(ArrayOp::Reshape { shape, .. }) => self.scalar(shape),
            Expr::Array(ArrayOp::Map { a, .. }) => self.shape_of(a),
            Expr::Array(ArrayOp::ZipWith { a, b, .. }) => {
                let (sa, sb) = (self.shape_of(a), self.shape_of(b));
                self.intersect(sa, sb, rank)
            }
            Expr::Array(ArrayOp::Fold { a, all, .. }) => {
                if all {
                    self.make_index(vec![])
                } else {
                    let s = self.shape_of(a);
                    self.init(s, rank + 1)
                }
            }
            Expr::Array(ArrayOp::Scan { kind, a, .. }) => {
                let s = self.shape_of(a);
                if kind == ScanKind::WithInit {
                    self.bump_last(s, rank)
                } else {
                    s
                }
            }
            Expr::Scalar(Scalar::Proj(x, n)) => {
                let Expr::Array(ArrayOp::Scan { a, .. }) = self.arena.expr(x).clone() else {
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
            Expr::Array(ArrayOp::Permute { defaults, .. }) => self.shape_of(defaults),
            Expr::Array(ArrayOp::Sort { a, .. }) => self.shape_of(a),
            Expr::Array(ArrayOp::Stencil { arrays, .. }) => {
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
            Arr::Delayed(d) if !self.opts.fusion => Arr::Manifest(self.materialise(h, d)),
            // Used twice: stored once, unless recomputing it is as cheap as
            // reading it back (index arithmetic over buffers).
            // Without sharing it is recomputed, but only up to a bound: each
            // level of a chain of producers used twice doubles the code.
            Arr::Delayed(d)
                if self.uses.get(&h).copied().unwrap_or(0) > 1
                    && cost(&self.arena, d.index.body) > self.repeat_limit() =>
            {
                Arr::Manifest(self.materialise(h, d))
            }
            d => d,
        }
    }

    /// A stencil input computed at each tap instead of stored: a producer used
    /// only by the stencil that is index arithmetic over arrays.
    fn stencil_fusable(&mut self, a: H) -> Option<Delayed> {
        if !self.opts.fusion || self.manifest.contains_key(&a) || self.uses.get(&a).copied().unwrap_or(0) > 1
        {
            return None;
        }
        if !matches!(
            self.arena.expr(a),
            Expr::Array(ArrayOp::Generate { .. })
                | Expr::Array(ArrayOp::Map { .. })
                | Expr::Array(ArrayOp::ZipWith { .. })
                | Expr::Array(ArrayOp::Backpermute { .. })
        ) {
            return None;
        }
        match self.array(a) {
            Arr::Delayed(d) if cost(&self.arena, d.index.body) <= CHEAP_TO_REPEAT => Some(d),
            Arr::Delayed(d) => {
                self.materialise(a, d);
                None
            }
            Arr::Manifest(_) => None,
        }
    }

    /// The element of delayed array `d` (of shape `shape`) at `center + offset`,
    /// with `boundary` deciding outside the shape: the rule of
    /// `accel_runtime::cpu::stencil::coord`, in signed 64-bit arithmetic (clamp;
    /// wrap modulo n; mirror with period 2n - 2; a constant).
    fn stencil_tap(&mut self, d: &Delayed, shape: H, center: H, offset: &[i32], boundary: Boundary) -> H {
        let i64t = Ty::Prim(Prim::I64);
        let lit = |s: &mut Self, v: i64| s.arena.lit(Prim::I64, v as u64);
        let mut coords = Vec::new();
        let mut inside: Option<H> = None;
        for (k, &off) in offset.iter().enumerate() {
            let c = self.component(center, k);
            let n = self.component(shape, k);
            let c = self.add(Expr::Scalar(Scalar::Cast(c, Prim::I64)), i64t.clone());
            let n = self.add(Expr::Scalar(Scalar::Cast(n, Prim::I64)), i64t.clone());
            let o = lit(self, off as i64);
            let i = self.arena.binary(BinOp::Add, c, o);
            let zero = lit(self, 0);
            let one = lit(self, 1);
            let below = self.arena.binary(BinOp::Lt, i, zero);
            let above = self.arena.binary(BinOp::Ge, i, n);
            // `((x % m) + m) % m`: the Euclidean remainder for m > 0.
            let modulo = |s: &mut Self, x: H, m: H| {
                let r = s.arena.binary(BinOp::Rem, x, m);
                let r = s.arena.binary(BinOp::Add, r, m);
                s.arena.binary(BinOp::Rem, r, m)
            };
            let r = match boundary {
                Boundary::Clamp => {
                    let last = self.arena.binary(BinOp::Sub, n, one);
                    let hi = self.add(Expr::Scalar(Scalar::If(above, last, i)), i64t.clone());
                    self.add(Expr::Scalar(Scalar::If(below, zero, hi)), i64t.clone())
                }
                Boundary::Wrap => modulo(self, i, n),
                Boundary::Mirror => {
                    let two = lit(self, 2);
                    let twice = self.arena.binary(BinOp::Mul, n, two);
                    let p = self.arena.binary(BinOp::Sub, twice, two);
                    let m = modulo(self, i, p);
                    let reflect = self.arena.binary(BinOp::Ge, m, n);
                    let back = self.arena.binary(BinOp::Sub, p, m);
                    let r = self.add(Expr::Scalar(Scalar::If(reflect, back, m)), i64t.clone());
                    let single = self.arena.binary(BinOp::Eq, n, one);
                    self.add(Expr::Scalar(Scalar::If(single, zero, r)), i64t.clone())
                }
                Boundary::Constant(_) => {
                    let out = self.arena.binary(BinOp::Or, below, above);
                    let ok = self.add(
                        Expr::Scalar(Scalar::Unary(crate::ir::UnOp::Not, out)),
                        Ty::Prim(Prim::Bool),
                    );
                    inside = Some(match inside {
                        Some(x) => self.arena.binary(BinOp::And, x, ok),
                        None => ok,
                    });
                    // Clamped so that the read below stays in bounds; its value
                    // is not used when the constant applies.
                    let last = self.arena.binary(BinOp::Sub, n, one);
                    let hi = self.add(Expr::Scalar(Scalar::If(above, last, i)), i64t.clone());
                    self.add(Expr::Scalar(Scalar::If(below, zero, hi)), i64t.clone())
                }
            };
            coords.push(self.add(Expr::Scalar(Scalar::Cast(r, Prim::Usize)), Ty::Prim(Prim::Usize)));
        }
        let ix = self.make_index(coords);
        let value = self.arena.apply(&d.index, &[ix]);
        match (boundary, inside) {
            (Boundary::Constant(c), Some(ok)) => {
                let ty = self.arena.ty(value).clone();
                self.add(Expr::Scalar(Scalar::If(ok, value, c)), ty)
            }
            _ => value,
        }
    }

    /// Is the array `a`, read by index in a kernel, a producer cheap enough to
    /// compute at the read instead of storing it? Each element is then computed
    /// as often as it is read, as for a backpermute: allowed for a gather and an
    /// operation or two when this read is its one data use, and for index
    /// arithmetic when it has several.
    fn fuses_into_read(&mut self, a: H) -> bool {
        if !self.opts.fusion || self.manifest.contains_key(&a) {
            return false;
        }
        let limit = match self.uses.get(&a).copied().unwrap_or(0) {
            0 | 1 => CHEAP_AT_READ,
            _ => self.repeat_limit(),
        };
        if !matches!(
            self.arena.expr(a),
            Expr::Array(ArrayOp::Generate { .. })
                | Expr::Array(ArrayOp::Map { .. })
                | Expr::Array(ArrayOp::ZipWith { .. })
                | Expr::Array(ArrayOp::Backpermute { .. })
        ) {
            return false;
        }
        match self.array(a) {
            Arr::Delayed(d) => {
                let cheap = cost(&self.arena, d.index.body) <= limit;
                if !cheap {
                    self.materialise(a, d);
                }
                cheap
            }
            Arr::Manifest(_) => false,
        }
    }

    /// The cost up to which a producer used more than once is recomputed by
    /// each use instead of stored.
    fn repeat_limit(&self) -> u32 {
        if self.opts.sharing {
            CHEAP_TO_REPEAT
        } else {
            NO_SHARING_LIMIT
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
            let buf = &self.buffers[b];
            (buf.elem.clone(), buf.rank)
        };
        let buf = self.buffer_ref(b);
        let shape = self.buffer_shape(b);
        let e2 = elem.clone();
        let linear = self.lambda("i", Ty::Prim(Prim::Usize), |s, i| {
            s.add(Expr::Plan(PlanRead::ReadLinear { array: buf, index: i }), e2)
        });
        let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
            s.add(
                Expr::Plan(PlanRead::ReadIndex {
                    array: buf,
                    index: ix,
                }),
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

    /// The buffer a permute of `defaults` starts from, and whether it is
    /// moved into the output (else copied). Only a buffer of this sub-plan,
    /// used once, may be moved: one from outside a loop is needed again by
    /// the next iteration. A constant fill gets a fresh buffer of its own
    /// instead, moved: writing it costs less than copying a shared one (a
    /// loop scattering onto `fill(..)` every step, the fill merged with the
    /// loop's initial state, or two permutes onto the same fill).
    fn permute_defaults(&mut self, defaults: H) -> (BufId, bool) {
        let once = self.uses.get(&defaults).copied().unwrap_or(0) <= 1;
        if !once {
            if let Some(fill) = self.constant_fill(defaults) {
                return (self.store(defaults, fill), true);
            }
        }
        let b = self.manifest(defaults);
        if once && self.created.contains(&b) {
            return (b, true);
        }
        // A fill stored before (outside the loop this permute runs in).
        if let Some(&h) = self.generated.get(&b) {
            if let Some(fill) = self.constant_fill(h) {
                return (self.store(h, fill), true);
            }
        }
        (b, false)
    }

    /// `h` as a delayed array when it is a `generate` whose elements are one
    /// value, computed from scalars alone (`fill(shape, v)`), and whose shape
    /// reads no array (computing it again, maybe inside a loop, runs nothing).
    fn constant_fill(&mut self, h: H) -> Option<Delayed> {
        let Expr::Array(ArrayOp::Generate { shape, f }) = self.arena.expr(h).clone() else {
            return None;
        };
        let reads = self.arena.reaches(shape, |_, e| {
            matches!(
                e,
                Expr::Array(_) | Expr::Seq(_) | Expr::Scalar(Scalar::Read { .. })
            )
        });
        if reads || !scalar_constant(&self.arena, f.body, f.params[0]) {
            return None;
        }
        let d = self.generate_delayed(h, shape, &f, "fill");
        Some(self.with_linear(d))
    }

    /// `generate(shape, f)` (node `h`) as a delayed array, its kernel named `op`.
    fn generate_delayed(&mut self, h: H, shape: H, f: &Fun, op: &'static str) -> Delayed {
        let (_, rank) = self.elem_ty(h);
        let shape = self.scalar(shape);
        let index = self.fun(f);
        Delayed {
            shape,
            rank,
            linear: None,
            index,
            ops: vec![op],
        }
    }

    fn materialise(&mut self, h: H, d: Delayed) -> BufId {
        let b = self.store(h, d);
        self.manifest.insert(h, b);
        if matches!(self.arena.expr(h), Expr::Array(ArrayOp::Generate { .. })) {
            self.generated.insert(b, h);
        }
        b
    }

    /// A new buffer holding the delayed array `d` (of `h`'s type), written by
    /// a generate kernel; not remembered as `h`'s (see [`Self::materialise`]).
    fn store(&mut self, h: H, d: Delayed) -> BufId {
        let (elem, rank) = self.elem_ty(h);
        let b = self.new_buffer(elem, rank, Origin::Kernel(self.steps.len()), Some(d.shape));
        let mut fused = d.ops.clone();
        if fused.is_empty() {
            fused.push("copy");
        }
        let elem = elem_fn(&d);
        self.steps.push(Step::Kernel(Kernel {
            op: KernelOp::Generate {
                shape: d.shape,
                elem,
                folds: Vec::new(),
            },
            outputs: vec![b],
            fused,
            at: None,
        }));
        self.created.insert(b);
        b
    }

    fn produce(&mut self, h: H) -> Arr {
        let (_, rank) = self.elem_ty(h);
        let e = self.arena.expr(h).clone();
        let d = match e {
            Expr::Array(ArrayOp::Generate { shape, f }) => self.generate_delayed(h, shape, &f, "generate"),
            Expr::Array(ArrayOp::Map { .. }) if self.consumer_then_map(h).is_some() => {
                let Some((consumer, maps)) = self.consumer_then_map(h) else {
                    unreachable!()
                };
                return match self.arena.expr(consumer) {
                    Expr::Array(ArrayOp::Fold { .. }) => self.fold_kernel(h, consumer, &maps),
                    _ => self.scan_kernel(h, consumer, &maps),
                };
            }
            Expr::Array(ArrayOp::Map { f, a }) => {
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
            Expr::Array(ArrayOp::ZipWith { f, a, b }) => {
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
            Expr::Array(ArrayOp::Backpermute { shape, f, a }) => {
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
                    s.add_at(
                        Expr::Plan(PlanRead::Checked {
                            op: "backpermute",
                            index: src,
                            shape: d.shape,
                            var: v,
                            body,
                        }),
                        ty,
                        h,
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
            Expr::Array(ArrayOp::Reshape { shape, a }) => {
                let d = self.delayed(a);
                let shape = self.scalar(shape);
                self.steps.push(Step::CheckReshape {
                    from: d.shape,
                    to: shape,
                    at: self.loc(h),
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
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f,
                arrays,
                extents,
            }) => {
                // The stencil is a producer whose element reads the neighbours.
                // An input is read from a buffer (`ReadStencil`), except one that
                // is index arithmetic over arrays (a reversal, a transpose): that
                // is computed at each tap, at the coordinates the boundary gives.
                // Anything dearer would be computed once per tap, so it is stored.
                let inputs: Vec<StencilInput> = arrays
                    .iter()
                    .map(|x| match self.stencil_fusable(*x) {
                        Some(d) => StencilInput::Delayed(d),
                        None => StencilInput::Buffer(self.manifest(*x)),
                    })
                    .collect();
                let mut bounds = Vec::new();
                for b in &boundaries {
                    bounds.push(match b.constant() {
                        Some(c) => Boundary::Constant(self.scalar(c)),
                        None => *b,
                    });
                }
                let f = self.fun(&f);
                let shapes: Vec<H> = inputs
                    .iter()
                    .map(|i| match i {
                        StencilInput::Buffer(b) => self.buffer_shape(*b),
                        StencilInput::Delayed(d) => d.shape,
                    })
                    .collect();
                let mut shape = shapes[0];
                for t in &shapes[1..] {
                    shape = self.intersect(shape, *t, rank);
                }
                let index = self.lambda("ix", Ty::Index(rank), |s, ix| {
                    let mut lets = Vec::new();
                    let mut params = f.params.iter();
                    for (k, input) in inputs.iter().enumerate() {
                        for offset in stencil_offsets(&extents[k]) {
                            let Some(&p) = params.next() else { break };
                            // Points the function never reads are never read.
                            if !s.arena.mentions(f.body, p) {
                                continue;
                            }
                            let read = match input {
                                StencilInput::Buffer(buf) => {
                                    let array = s.buffer_ref(*buf);
                                    let elem = s.buffers[*buf].elem.clone();
                                    s.add(
                                        Expr::Plan(PlanRead::ReadStencil {
                                            array,
                                            center: ix,
                                            offset,
                                            boundary: bounds[k],
                                        }),
                                        elem,
                                    )
                                }
                                StencilInput::Delayed(d) => {
                                    s.stencil_tap(d, shapes[k], ix, &offset, bounds[k])
                                }
                            };
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
            Expr::Array(ArrayOp::Fold { .. }) => return self.fold_kernel(h, h, &[]),
            Expr::Array(ArrayOp::Scan { .. }) => return self.scan_kernel(h, h, &[]),
            Expr::Array(ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            }) => {
                if let Some(r) = self.expand_permute(h) {
                    return r;
                }
                let (defaults_buf, move_defaults) = self.permute_defaults(defaults);
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
                return Arr::Manifest(self.kernel(h, h, op, d.ops, "permute", &[out_shape])[0]);
            }
            Expr::Array(ArrayOp::Sort { key, a }) => {
                let d = self.delayed(a);
                // A u32 or a u64 (the validator checks).
                let key_bits = self.arena.ty(key.body).prim().map_or(64, |p| p.width());
                let key = self.fun(&key);
                let op = KernelOp::Sort {
                    shape: d.shape,
                    elem: elem_fn(&d),
                    key,
                    key_bits,
                };
                return Arr::Manifest(self.kernel(h, h, op, d.ops, "sort", &[d.shape])[0]);
            }
            Expr::Scalar(Scalar::Proj(x, n))
                if matches!(self.arena.expr(x), Expr::Array(ArrayOp::Scan { .. })) =>
            {
                if !self.multi.contains_key(&x) {
                    self.produce(x);
                }
                let b = self.multi.get(&x).and_then(|bs| bs.get(n)).copied();
                return Arr::Manifest(b.unwrap_or(BufId(u32::MAX)));
            }
            Expr::Scalar(Scalar::Proj(x, n)) => {
                let b = match self.cval(x) {
                    Output::Tuple(xs) => match xs.get(n) {
                        Some(Output::Array(b)) => *b,
                        _ => BufId(u32::MAX),
                    },
                    _ => BufId(u32::MAX),
                };
                return Arr::Manifest(b);
            }
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                self.bind_let(var, value);
                return self.array(body);
            }
            Expr::Scalar(Scalar::If(..)) | Expr::Scalar(Scalar::While { .. }) => {
                let b = match self.control(h) {
                    Output::Array(b) => b,
                    _ => BufId(u32::MAX),
                };
                return Arr::Manifest(b);
            }
            // Only parameters remain: they were registered as manifest.
            _ => return Arr::Manifest(self.manifest.get(&h).copied().unwrap_or(BufId(u32::MAX))),
        };
        Arr::Delayed(self.with_linear(d))
    }

    /// For `h` = `a.fold(..).map(g1)..map(gn)` (or a scan with one result in
    /// place of the fold) where the consumer and each map but the last are used
    /// only by the next, the consumer and the maps (innermost first): the maps
    /// are applied to each result before it is stored, so the consumer's own
    /// result is never written (the paper could not fuse this).
    fn consumer_then_map(&self, h: H) -> Option<(H, Vec<Fun>)> {
        if !self.opts.fusion || !self.opts.maps_after_consumers {
            return None;
        }
        let mut maps = Vec::new();
        let mut x = h;
        while let Expr::Array(ArrayOp::Map { f, a }) = self.arena.expr(x) {
            maps.push(f.clone());
            x = *a;
            if self.manifest.contains_key(&x) || self.uses.get(&x).copied().unwrap_or(0) > 1 {
                return None;
            }
        }
        maps.reverse();
        let consumer = match self.arena.expr(x) {
            Expr::Array(ArrayOp::Fold { .. }) => true,
            Expr::Array(ArrayOp::Scan { kind, .. }) => *kind != ScanKind::Exclusive,
            _ => false,
        };
        (consumer && !maps.is_empty()).then_some((x, maps))
    }

    /// The composition of `maps` (innermost first), if any.
    fn post(&mut self, maps: &[Fun]) -> Option<Fun> {
        let mut post: Option<Fun> = None;
        for g in maps {
            let g = self.fun(g);
            post = Some(match post {
                Some(p) => self.compose(&g, &p),
                None => g,
            });
        }
        post
    }

    /// The kernel of scan `scan`, followed by `maps`, computing node `h`.
    fn scan_kernel(&mut self, h: H, scan: H, maps: &[Fun]) -> Arr {
        let Expr::Array(ArrayOp::Scan { dir, kind, f, z, a }) = self.arena.expr(scan).clone() else {
            return Arr::Manifest(BufId(u32::MAX));
        };
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
        let post = self.post(maps);
        let mut ops = d.ops.clone();
        if !maps.is_empty() {
            ops.push("scan");
        }
        let op = KernelOp::Scan {
            shape: d.shape,
            elem: elem_fn(&d),
            dir,
            kind,
            z,
            f,
            post,
            folds: Vec::new(),
            stored: true,
        };
        let last = if maps.is_empty() { "scan" } else { "map" };
        let outs = self.kernel(h, scan, op, ops, last, &shapes);
        if kind == ScanKind::Exclusive {
            self.multi.insert(h, outs);
            return Arr::Manifest(BufId(u32::MAX));
        }
        Arr::Manifest(outs[0])
    }

    /// The kernel of fold `fold`, followed by `maps`, computing node `h`.
    fn fold_kernel(&mut self, h: H, fold: H, maps: &[Fun]) -> Arr {
        if let Some(r) = self.expand_fold(h, fold, maps) {
            return r;
        }
        let Expr::Array(ArrayOp::Fold { f, z, a, all }) = self.arena.expr(fold).clone() else {
            return Arr::Manifest(BufId(u32::MAX));
        };
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
        let post = self.post(maps);
        let mut ops = d.ops.clone();
        if !maps.is_empty() {
            ops.push(name);
        }
        let op = KernelOp::Fold {
            shape: d.shape,
            elem: elem_fn(&d),
            z,
            f,
            all,
            post,
        };
        let last = if maps.is_empty() { name } else { "map" };
        Arr::Manifest(self.kernel(h, fold, op, ops, last, &[out_shape])[0])
    }

    /// Appends a consumer kernel writing one new buffer per shape; `site` is
    /// the consumer, whose position the kernel's own errors name (an index
    /// out of bounds of a permute, an empty reduction).
    fn kernel(
        &mut self,
        h: H,
        site: H,
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
        self.created.extend(outs.iter().copied());
        let at = self.loc(site);
        self.steps.push(Step::Kernel(Kernel {
            op,
            outputs: outs.clone(),
            fused,
            at,
        }));
        outs
    }

    fn output(&mut self, h: H) -> Output {
        self.cval(h)
    }

    // ---- control flow -------------------------------------------------------

    /// The value of an array-level node: buffers for arrays, host expressions for
    /// scalars, by the structure of its type.
    fn cval(&mut self, h: H) -> Output {
        let ty = self.arena.ty(h).clone();
        if ty.is_array() {
            return Output::Array(self.manifest(h));
        }
        if !ty.has_array() {
            return Output::Scalar(self.scalar(h));
        }
        if let Some(v) = self.cvals.get(&h) {
            return v.clone();
        }
        let v = match self.arena.expr(h).clone() {
            Expr::Scalar(Scalar::Tuple(xs)) => Output::Tuple(xs.iter().map(|x| self.cval(*x)).collect()),
            Expr::Scalar(Scalar::Proj(x, n)) => match self.cval(x) {
                Output::Tuple(mut xs) if n < xs.len() => xs.swap_remove(n),
                other => other,
            },
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                self.bind_let(var, value);
                self.cval(body)
            }
            Expr::Scalar(Scalar::If(..)) | Expr::Scalar(Scalar::While { .. }) => self.control(h),
            Expr::Array(ArrayOp::Scan { .. }) => {
                if !self.multi.contains_key(&h) {
                    self.produce(h);
                }
                let outs = self.multi.get(&h).cloned().unwrap_or_default();
                Output::Tuple(outs.into_iter().map(Output::Array).collect())
            }
            // A variable bound by a kept `let` or a loop's state is in `cvals`.
            _ => Output::Tuple(vec![]),
        };
        self.cvals.insert(h, v.clone());
        v
    }

    /// A scalar value as one host expression.
    fn output_scalar(&mut self, v: &Output) -> H {
        match v {
            Output::Scalar(h) => *h,
            Output::Tuple(xs) => {
                let hs: Vec<H> = xs.iter().map(|x| self.output_scalar(x)).collect();
                let tys = hs.iter().map(|x| self.arena.ty(*x).clone()).collect();
                self.add(Expr::Scalar(Scalar::Tuple(hs)), Ty::Tuple(tys))
            }
            Output::Array(_) => self.arena.usize_lit(0),
        }
    }

    fn is_control(&mut self, h: H) -> bool {
        sharing::is_control(&self.arena, h, &HashMap::new(), &mut self.work)
    }

    /// A `let` kept by sharing: its value is computed here, once.
    fn bind_let(&mut self, var: VarId, value: H) {
        if !self.lets_done.insert(var) {
            return;
        }
        let vh = self.arena.var_ref(var);
        match self.arena.ty(value).clone() {
            Ty::Array(..) => {
                let b = self.manifest(value);
                self.manifest.insert(vh, b);
            }
            t if t.has_array() => {
                let v = self.cval(value);
                self.cvals.insert(vh, v);
            }
            t => {
                let value = self.scalar(value);
                if matches!(t, Ty::Prim(Prim::Usize) | Ty::Index(_)) {
                    self.arena.shape_facts.lets.insert(var, value);
                }
                self.steps.push(Step::Let { var, value });
            }
        }
    }

    fn enter(&mut self) -> Saved {
        Saved {
            steps: std::mem::take(&mut self.steps),
            manifest: self.manifest.clone(),
            multi: self.multi.clone(),
            scalar_memo: self.scalar_memo.clone(),
            cvals: self.cvals.clone(),
            created: std::mem::take(&mut self.created),
            lets_done: self.lets_done.clone(),
        }
    }

    /// Leaves a sub-plan: its steps, and the parent's tables back.
    fn leave(&mut self, s: Saved) -> Vec<Step> {
        self.manifest = s.manifest;
        self.multi = s.multi;
        self.scalar_memo = s.scalar_memo;
        self.cvals = s.cvals;
        self.created = s.created;
        self.lets_done = s.lets_done;
        std::mem::replace(&mut self.steps, s.steps)
    }

    /// Fresh slots shaped like a value of type `ty`, and that value.
    fn slots_for(&mut self, ty: &Ty, name: &str, origin: Origin, slots: &mut Vec<Slot>) -> Output {
        match ty {
            Ty::Array(e, r) => {
                let b = self.new_buffer((**e).clone(), *r, origin, None);
                slots.push(Slot::Buf(b));
                Output::Array(b)
            }
            Ty::Tuple(ts) if ty.has_array() => Output::Tuple(
                ts.iter()
                    .map(|t| self.slots_for(t, name, origin, slots))
                    .collect(),
            ),
            _ => {
                let v = self.arena.new_var(name, ty.clone());
                slots.push(Slot::Var(v));
                Output::Scalar(self.arena.var_ref(v))
            }
        }
    }

    /// The leaves of a value, in slot order.
    fn vals_of(v: &Output, out: &mut Vec<Val>) {
        match v {
            Output::Array(b) => out.push(Val::Buf(*b)),
            Output::Scalar(h) => out.push(Val::Scalar(*h)),
            Output::Tuple(xs) => xs.iter().for_each(|x| Self::vals_of(x, out)),
        }
    }

    /// Plans an array-level `if` or `while` as one structured step.
    fn control(&mut self, h: H) -> Output {
        if let Some(v) = self.cvals.get(&h) {
            return v.clone();
        }
        let ty = self.arena.ty(h).clone();
        let v = match self.arena.expr(h).clone() {
            Expr::Scalar(Scalar::If(c, t, e)) => {
                let cond = self.scalar(c);
                let branch = |s: &mut Self, x: H| {
                    let saved = s.enter();
                    let v = s.cval(x);
                    let mut result = Vec::new();
                    Self::vals_of(&v, &mut result);
                    let steps = s.leave(saved);
                    Block { steps, result }
                };
                let then = branch(self, t);
                let els = branch(self, e);
                let mut outs = Vec::new();
                let k = self.steps.len();
                let v = self.slots_for(&ty, "if", Origin::Control(k), &mut outs);
                self.steps.push(Step::If {
                    cond,
                    then,
                    els,
                    outs,
                });
                v
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }) => self.plan_while(&vars, &init, cond, &step, &pulls),
            _ => Output::Tuple(vec![]),
        };
        self.cvals.insert(h, v.clone());
        v
    }

    /// Plans an array-level `while` as one step.
    fn plan_while(&mut self, vars: &[VarId], init: &[H], cond: H, step: &[H], pulls: &[Pull]) -> Output {
        let mut init_vals = Vec::new();
        for x in init {
            let v = self.cval(*x);
            Self::vals_of(&v, &mut init_vals);
        }
        // Which array states keep their initial shape in every iteration:
        // assumed of all, the body planned, and planned again without those
        // whose next value's shape the plan does not show to be the same (a
        // greatest fixed point).
        let mut keeps: Vec<Option<H>> = init_vals
            .iter()
            .map(|v| match v {
                Val::Buf(b) => Some(self.buffers[*b].shape),
                Val::Scalar(_) => None,
            })
            .collect();
        let (mark, lets) = (self.buffers.len(), self.arena.shape_facts.lets.clone());
        let it = loop {
            let it = self.plan_iteration(vars, cond, step, pulls, &keeps);
            let broken: Vec<usize> = (0..keeps.len())
                .filter(|&k| match (keeps[k], &it.next[k]) {
                    (Some(s), Val::Buf(b)) => {
                        !super::bounds::same_shape(&self.arena, s, self.buffers[*b].shape)
                    }
                    _ => false,
                })
                .collect();
            if broken.is_empty() {
                break it;
            }
            broken.iter().for_each(|&k| keeps[k] = None);
            // The abandoned plan's buffers are dropped, never reused: arena
            // nodes that name them keep their types.
            self.leave(it.saved);
            self.buffers.drop_from(mark);
            self.arena.shape_facts.buffers.retain(|b, _| b.0 < mark as u32);
            self.arena.shape_facts.lets = lets.clone();
        };
        let body_steps = self.leave(it.saved);
        // One slot per leaf of each state variable, as the state has.
        let mut outs = Vec::new();
        let k = self.steps.len();
        let v = Output::Tuple(
            vars.iter()
                .map(|x| {
                    let t = self.arena.var(*x).ty.clone();
                    let name = self.arena.var(*x).name.clone();
                    self.slots_for(&t, &name, Origin::Control(k), &mut outs)
                })
                .collect(),
        );
        self.assume_kept_shapes(&outs, &keeps);
        self.steps.push(Step::While {
            state: it.state,
            init: init_vals,
            cond: Block {
                steps: it.cond_steps,
                result: vec![Val::Scalar(it.cond)],
            },
            body: Block {
                steps: body_steps,
                result: it.next,
            },
            outs,
            pulls: it.pulls,
        });
        v
    }

    /// Plans a loop's condition and body once, in a sub-plan left open (the
    /// caller leaves it), assuming each array state with `Some` shape in
    /// `keeps` has that shape.
    fn plan_iteration(
        &mut self,
        vars: &[VarId],
        cond: H,
        step: &[H],
        pulls: &[Pull],
        keeps: &[Option<H>],
    ) -> Iteration {
        let saved = self.enter();
        let pulls = self.plan_pulls(pulls);
        let mut state = Vec::new();
        for v in vars {
            let vty = self.arena.var(*v).ty.clone();
            let vh = self.arena.var_ref(*v);
            if vty.has_array() {
                match self.slots_for(&vty, "state", Origin::State, &mut state) {
                    Output::Array(b) => {
                        self.manifest.insert(vh, b);
                    }
                    other => {
                        self.cvals.insert(vh, other);
                    }
                }
            } else {
                state.push(Slot::Var(*v));
            }
        }
        self.assume_kept_shapes(&state, keeps);
        let cond = self.scalar(cond);
        let cond_steps = std::mem::take(&mut self.steps);
        let mut next = Vec::new();
        for x in step {
            let v = self.cval(*x);
            Self::vals_of(&v, &mut next);
        }
        Iteration {
            saved,
            state,
            cond,
            cond_steps,
            next,
            pulls,
        }
    }

    /// A loop's pulls of streamed items: each item is a buffer bound anew at
    /// every iteration.
    fn plan_pulls(&mut self, pulls: &[Pull]) -> Vec<PlanPull> {
        let mut planned = Vec::new();
        for p in pulls {
            let param = match self.arena.expr(p.source) {
                Expr::Scalar(Scalar::Var(v)) => self.streams.get(v).copied(),
                _ => None,
            };
            let Some((elem, rank)) = self
                .arena
                .var(p.item)
                .ty
                .elem_and_rank()
                .map(|(e, r)| (e.clone(), r))
            else {
                continue;
            };
            let item = self.new_buffer(elem, rank, Origin::State, None);
            let vh = self.arena.var_ref(p.item);
            self.manifest.insert(vh, item);
            let chunk = match p.chunk.as_slice() {
                [len, elems] => Some((self.scalar(*len), self.scalar(*elems))),
                _ => None,
            };
            planned.push(PlanPull {
                // The validator rejects a pull of no streamed parameter.
                param: param.unwrap_or(usize::MAX),
                item,
                chunk,
            });
        }
        planned
    }

    /// Records that each buffer slot whose state keeps its shape has it.
    fn assume_kept_shapes(&mut self, slots: &[Slot], keeps: &[Option<H>]) {
        for (slot, keep) in slots.iter().zip(keeps) {
            if let (Slot::Buf(b), Some(s)) = (slot, keep) {
                self.arena.shape_facts.buffers.insert(*b, *s);
            }
        }
    }
}

/// Producers costing at most this much are recomputed by each of several
/// consumers instead of being stored: index arithmetic and a read or two.
const CHEAP_TO_REPEAT: u32 = 6;
/// Producers costing at most this much are computed where a kernel reads them
/// by index instead of being stored (a gather and an operation or two).
const CHEAP_AT_READ: u32 = 12;
/// Without sharing, producers used several times are recomputed by each use
/// (the paper's "no sharing" column) up to this cost: past it, a chain of
/// producers each used twice (code doubling at each level) would make the
/// compiler and the generated code exponential.
const NO_SHARING_LIMIT: u32 = 20_000;

/// A rough cost of evaluating `h` once: the operations on the way, counted as
/// a tree (what the code generators emit). Loops and math functions are dear;
/// one floating-point operation is above `CHEAP_TO_REPEAT` (only index
/// arithmetic is recomputed by several consumers) and below `CHEAP_AT_READ`.
fn cost(a: &Arena, h: H) -> u32 {
    fn go(a: &Arena, h: H, memo: &mut HashMap<H, u32>) -> u32 {
        if let Some(&c) = memo.get(&h) {
            return c;
        }
        let e = a.expr(h);
        let float = matches!(a.ty(h), Ty::Prim(p) if p.is_float());
        let own: u32 = match e {
            Expr::Scalar(Scalar::While { .. }) => 1000,
            // Floating-point work is never repeated: only index arithmetic is.
            Expr::Scalar(Scalar::Binary(..)) | Expr::Scalar(Scalar::Unary(..)) if float => {
                CHEAP_TO_REPEAT + 1
            }
            Expr::Scalar(Scalar::Math(..)) => 8,
            Expr::Scalar(Scalar::Binary(BinOp::Div | BinOp::Rem, ..)) => 4,
            Expr::Scalar(Scalar::Binary(..))
            | Expr::Scalar(Scalar::Unary(..))
            | Expr::Scalar(Scalar::Cast(..))
            | Expr::Scalar(Scalar::If(..)) => 1,
            Expr::Plan(PlanRead::ReadIndex { .. })
            | Expr::Plan(PlanRead::ReadLinear { .. })
            | Expr::Plan(PlanRead::ReadStencil { .. })
            | Expr::Plan(PlanRead::Checked { .. }) => 1,
            _ => 0,
        };
        let c = e
            .children()
            .into_iter()
            .fold(own, |acc, c| acc.saturating_add(go(a, c, memo)));
        memo.insert(h, c);
        c
    }
    go(a, h, &mut HashMap::new())
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

/// Whether `body`, an element function's body over index `ix`, is one value
/// for every element: scalar arithmetic on literals and host values, reading
/// no array and not the index (an unused `let` of an index made of
/// variables is allowed, as `fill` binds one).
fn scalar_constant(a: &Arena, body: H, ix: VarId) -> bool {
    let plain = |h: H| {
        a.expr(h)
            .children()
            .into_iter()
            .all(|c| matches!(a.expr(c), Expr::Scalar(Scalar::Var(_) | Scalar::Lit(_))))
    };
    match a.expr(body) {
        Expr::Scalar(Scalar::Let { var, value, body }) => {
            let unused_index = !a.mentions(*body, *var)
                && matches!(a.expr(*value), Expr::Scalar(Scalar::MakeIndex(_)))
                && plain(*value);
            (unused_index || scalar_constant(a, *value, ix)) && scalar_constant(a, *body, ix)
        }
        Expr::Scalar(Scalar::Var(v)) => *v != ix,
        Expr::Scalar(Scalar::Lit(_)) => true,
        Expr::Scalar(
            Scalar::Tuple(_)
            | Scalar::Proj(..)
            | Scalar::MakeIndex(_)
            | Scalar::Unary(..)
            | Scalar::Binary(..)
            | Scalar::Cast(..)
            | Scalar::If(..),
        ) => a
            .expr(body)
            .children()
            .into_iter()
            .all(|c| scalar_constant(a, c, ix)),
        _ => false,
    }
}
