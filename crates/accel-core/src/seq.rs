//! The pass `sequences`: every fold of a sequence becomes a loop over its
//! elements, and the folds of one sequence share one loop (one traversal:
//! `(s.sum(), s.maximum())` reads `s` once).
//!
//! A sequence's element is built from its leaves: a slice of an array
//! (`rows`, `to_seq`: a `generate` reading the array, fused into the
//! per-element work, never built whole) or an element pulled from a streamed
//! parameter. `map` and `zip_with` apply their per-element programs to it.
//!
//! **Chunks.** A sequence of slices runs in chunks when its per-element
//! program can be *lifted* (the paper's vectorisation): the program applied
//! to `c` consecutive elements at once, as one array of rank + 1 whose
//! outermost index `j` is the element's position in the chunk. Each chunk's
//! values are reduced by the fold's operator, then combined with the
//! accumulator in sequence order (the operator is associative). The chunk
//! length is `ACCEL_CHUNK` (or [`CHUNK_LEN`] set by the caller), else the
//! backend's target number of array elements per chunk over the element's
//! size ([`CHUNK_ELEMS`]). Other sequences run one element per iteration.
//!
//! A streamed parameter can be traversed once: its folds must all belong to
//! one sequence (one loop), outside any loop or closure.

use crate::error::{CResult, CompileError};
use crate::front::{Param, Program};
use crate::ir::{Arena, ArrayOp, BinOp, Expr, Fun, Prim, Pull, Scalar, SeqOp, Ty, VarId, H};
use proc_macro2::Span;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The scalar parameter a program with chunked sequences gets (after the
/// user's): the chunk length asked for (`ACCEL_CHUNK`; 0 chooses it).
pub const CHUNK_LEN: &str = "__chunk_len";
/// The second one: the backend's target number of array elements a chunk
/// holds (its parallel width times some work per thread).
pub const CHUNK_ELEMS: &str = "__chunk_elems";

/// `p` without sequences (unchanged when it has none).
pub fn lower(p: &Program) -> CResult<Program> {
    let mut a = p.arena.clone();
    let nodes = reachable(&a, p.body);
    if !nodes.iter().any(|h| matches!(a.expr(*h), Expr::Seq(_))) {
        return Ok(p.clone());
    }
    let let_values: HashMap<VarId, H> = nodes
        .iter()
        .filter_map(|h| match a.expr(*h) {
            Expr::Scalar(Scalar::Let { var, value, .. }) if matches!(a.var(*var).ty, Ty::Seq(_)) => {
                Some((*var, *value))
            }
            _ => None,
        })
        .collect();
    // The folds, grouped by the sequence they consume, in arena order.
    let mut groups: Vec<(H, Vec<H>)> = Vec::new();
    let mut folds: Vec<H> = nodes
        .iter()
        .copied()
        .filter(|h| matches!(a.expr(*h), Expr::Seq(SeqOp::Fold { .. })))
        .collect();
    folds.sort_unstable();
    for h in folds {
        let Expr::Seq(SeqOp::Fold { s, .. }) = a.expr(h) else {
            continue;
        };
        let s = resolve(&a, &let_values, *s);
        match groups.iter_mut().find(|(g, _)| *g == s) {
            Some((_, fs)) => fs.push(h),
            None => groups.push((s, vec![h])),
        }
    }
    let streams: HashMap<VarId, usize> = p
        .params
        .iter()
        .enumerate()
        .filter(|(_, x)| matches!(x.ty, Ty::Seq(_)))
        .map(|(i, x)| (x.var, i))
        .collect();
    let mut params = p.params.clone();
    let mut chunk_vars: Option<(VarId, VarId)> = None;
    let mut replace: HashMap<H, H> = HashMap::new();
    let mut streamed_by: HashMap<usize, H> = HashMap::new();
    let mut pulling = HashSet::new();
    for (s, fs) in &groups {
        let mut lw = Lowering {
            a: &mut a,
            let_values: &let_values,
            streams: &streams,
        };
        let leaves = lw.leaves(*s)?;
        for src in &leaves.streams {
            if let Expr::Scalar(Scalar::Var(v)) = lw.a.expr(*src) {
                let i = streams[v];
                if streamed_by.insert(i, *s).is_some_and(|other| other != *s) {
                    return Err(twice(p, i));
                }
            }
        }
        // Chunks: of slices, or of one stream (two streams' chunks could differ).
        let chunkable = match (leaves.streams.len(), leaves.slices.len()) {
            (0, n) => n > 0,
            (1, 0) => true,
            _ => false,
        };
        let chunked = if chunkable {
            let (len, elems) = *chunk_vars.get_or_insert_with(|| {
                let u = Ty::Prim(Prim::Usize);
                (lw.a.new_var(CHUNK_LEN, u.clone()), lw.a.new_var(CHUNK_ELEMS, u))
            });
            let (lh, eh) = (lw.a.var_ref(len), lw.a.var_ref(elems));
            let w = lw.chunked(*s, &leaves, fs, lh, eh);
            if w.is_some() && !params.iter().any(|x| x.var == len) {
                params.extend([param(len, CHUNK_LEN), param(elems, CHUNK_ELEMS)]);
            }
            w
        } else {
            None
        };
        let w = match chunked {
            Some(w) => w,
            None => lw.per_element(*s, fs)?,
        };
        if !leaves.streams.is_empty() {
            pulling.insert(w);
        }
        for (i, f) in fs.iter().enumerate() {
            let r = a.proj(w, i + 1);
            replace.insert(*f, r);
        }
    }
    // `collect` and `tabulate` of slices: every element at once, as one chunk.
    let mut collects: Vec<H> = nodes
        .iter()
        .copied()
        .filter(|h| matches!(a.expr(*h), Expr::Seq(SeqOp::Collect { .. })))
        .collect();
    collects.sort_unstable();
    for c in collects {
        let Expr::Seq(SeqOp::Collect { s, tabulate }) = a.expr(c).clone() else {
            continue;
        };
        let mut lw = Lowering {
            a: &mut a,
            let_values: &let_values,
            streams: &streams,
        };
        let leaves = lw.leaves(s)?;
        let what = if tabulate { "tabulate" } else { "collect" };
        if !leaves.streams.is_empty() {
            return Err(CompileError::new(
                a.span(c),
                format!("`{what}` of a streamed sequence is not supported yet: fold it, or {what} slices of arrays"),
            ));
        }
        let all = lw.all_at_once(s, &leaves.slices).ok_or_else(|| {
            CompileError::new(
                a.span(c),
                format!(
                    "`{what}` needs a per-element program that runs over all elements at once, and this one \
                     cannot yet (it may use map, zip_with, generate, backpermute, reshape, folds and scans)"
                ),
            )
        })?;
        let r = if tabulate {
            // An empty sequence has no element shape: all extents are 0.
            let (e, rank) = a.arr_ty(all);
            let sh = a.shape(all);
            let n = a.comp(sh, 0);
            let zero = a.usize_lit(0);
            let empty = a.binary(BinOp::Eq, n, zero);
            let dims: Vec<H> = (0..rank)
                .map(|d| {
                    let x = a.comp(sh, d);
                    a.if_(empty, zero, x)
                })
                .collect();
            let dims = a.index(dims);
            let f = a.lam("ix", Ty::Index(rank), |_, ix| ix);
            a.add(
                Expr::Array(ArrayOp::Backpermute {
                    shape: dims,
                    f,
                    a: all,
                }),
                Ty::array(e, rank),
                a.span(c),
            )
        } else {
            let (e, rank) = a.arr_ty(all);
            let sh = a.shape(all);
            let n = a.size_of(sh, rank);
            let flat = a.index(vec![n]);
            a.add(
                Expr::Array(ArrayOp::Reshape { shape: flat, a: all }),
                Ty::array(e, 1),
                a.span(c),
            )
        };
        replace.insert(c, r);
    }
    let mut memo = HashMap::new();
    let body = rewrite(&mut a, p.body, &replace, &mut memo);
    if let Some(i) = streamed_in_loop(&a, body, &pulling, &streams) {
        return Err(twice(p, i));
    }
    // What is left of sequences is the streams the loops pull from.
    let left = reachable(&a, body).into_iter().find(|h| match a.expr(*h) {
        Expr::Seq(_) => true,
        Expr::Scalar(Scalar::Var(v)) => matches!(a.var(*v).ty, Ty::Seq(_)) && !streams.contains_key(v),
        _ => false,
    });
    if let Some(h) = left {
        return Err(unsupported(&a, h));
    }
    Ok(Program {
        name: p.name.clone(),
        arena: a,
        params,
        body,
        result: p.result.clone(),
    })
}

/// The `usize` parameter `name` bound to `var`.
fn param(var: VarId, name: &str) -> Param {
    Param {
        name: name.to_string(),
        var,
        ty: Ty::Prim(Prim::Usize),
        span: Span::call_site(),
    }
}

fn twice(p: &Program, i: usize) -> CompileError {
    let x = &p.params[i];
    CompileError::new(
        x.span,
        format!(
            "`{}` is streamed, so it can be traversed only once: consume it in one place, outside loops and \
             closures\nhelp: several consumers of one sequence share its traversal: `({n}.sum(), {n}.maximum())`",
            x.name,
            n = x.name
        ),
    )
}

/// What a sequence is made from.
#[derive(Default)]
struct Leaves {
    /// Streamed parameters (their `Var`s).
    streams: Vec<H>,
    /// Arrays whose slices it reads.
    slices: Vec<H>,
}

struct Lowering<'a> {
    a: &'a mut Arena,
    let_values: &'a HashMap<VarId, H>,
    streams: &'a HashMap<VarId, usize>,
}

impl Lowering<'_> {
    fn leaves(&mut self, s: H) -> CResult<Leaves> {
        let mut out = Leaves::default();
        let mut stack = vec![s];
        while let Some(s) = stack.pop() {
            let s = resolve(self.a, self.let_values, s);
            match self.a.expr(s) {
                Expr::Scalar(Scalar::Var(v)) if self.streams.contains_key(v) => {
                    if !out.streams.contains(&s) {
                        out.streams.push(s);
                    }
                }
                Expr::Seq(SeqOp::Slices { a }) => {
                    if !out.slices.contains(a) {
                        out.slices.push(*a);
                    }
                }
                Expr::Seq(SeqOp::Map { s, .. }) => stack.push(*s),
                Expr::Seq(SeqOp::Zip { a, b, .. }) => stack.extend([*b, *a]),
                _ => return Err(unsupported(self.a, s)),
            }
        }
        Ok(out)
    }

    /// The loop that runs one element per iteration: `k` counts the
    /// elements, each stream gives its next one.
    fn per_element(&mut self, s: H, fs: &[H]) -> CResult<H> {
        let counter = self.a.new_var("k", Ty::Prim(Prim::Usize));
        let k = self.a.var_ref(counter);
        let mut pulls = Vec::new();
        let mut slices = Vec::new();
        let elem = self.elem(s, k, &mut pulls, &mut slices)?;
        let one = self.a.usize_lit(1);
        let next_k = self.a.binary(BinOp::Add, k, one);
        let mut cond = self.a.lit(Prim::Bool, 1);
        for (i, x) in slices.iter().enumerate() {
            let n = self.a.extent(*x, 0);
            let below = self.a.binary(BinOp::Lt, k, n);
            cond = if i == 0 {
                below
            } else {
                self.a.binary(BinOp::And, cond, below)
            };
        }
        let empty = self.a.index(vec![]);
        let x = self.a.read(elem, empty);
        Ok(self.fold_loop(counter, next_k, cond, pulls, fs, |_, _, _| x))
    }

    /// The loop over counter `counter` (from 0 to `next_k`, while `cond`)
    /// that folds, for each fold of `fs`, the value `value(a, f, z)` of each
    /// iteration into its accumulator (a Scalar: it stays where the kernels
    /// run).
    fn fold_loop(
        &mut self,
        counter: VarId,
        next_k: H,
        cond: H,
        pulls: Vec<Pull>,
        fs: &[H],
        mut value: impl FnMut(&mut Arena, &Fun, H) -> H,
    ) -> H {
        let a = &mut *self.a;
        let mut vars = vec![counter];
        let mut init = vec![a.usize_lit(0)];
        let mut step = vec![next_k];
        let empty = a.index(vec![]);
        for f in fs {
            let Expr::Seq(SeqOp::Fold { f: g, z, .. }) = a.expr(*f).clone() else {
                continue;
            };
            let acc = a.new_var("acc", a.ty(*f).clone());
            let acc_h = a.var_ref(acc);
            vars.push(acc);
            init.push(a.fill(empty, z));
            let x = value(a, &g, z);
            step.push(a.generate_with(empty, |a, _| {
                let acc = a.read(acc_h, empty);
                a.apply(&g, &[acc, x])
            }));
        }
        let tys = vars.iter().map(|v| a.var(*v).ty.clone()).collect();
        let span = a.span(fs[0]);
        a.add(
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }),
            Ty::Tuple(tys),
            span,
        )
    }

    /// The current element of sequence `s` at counter `k`.
    fn elem(&mut self, s: H, k: H, pulls: &mut Vec<Pull>, slices: &mut Vec<H>) -> CResult<H> {
        let s = resolve(self.a, self.let_values, s);
        match self.a.expr(s).clone() {
            Expr::Scalar(Scalar::Var(v)) if self.streams.contains_key(&v) => {
                if let Some(pl) = pulls.iter().find(|pl| pl.source == s) {
                    return Ok(self.a.var_ref(pl.item));
                }
                let elem = self.a.ty(s).seq_elem().cloned().unwrap_or(Ty::Tuple(vec![]));
                let item = self.a.new_var(self.a.var(v).name.clone(), elem);
                pulls.push(Pull {
                    source: s,
                    item,
                    chunk: vec![],
                });
                Ok(self.a.var_ref(item))
            }
            Expr::Seq(SeqOp::Slices { a }) => {
                if !slices.contains(&a) {
                    slices.push(a);
                }
                let (_, rank) = self.a.arr_ty(a);
                let sh = self.a.shape(a);
                let inner: Vec<H> = (1..rank).map(|d| self.a.comp(sh, d)).collect();
                let inner = self.a.index(inner);
                Ok(self.a.generate_with(inner, |x, ix| {
                    let mut at = vec![k];
                    at.extend(x.comps(ix, rank - 1));
                    let at = x.index(at);
                    x.read(a, at)
                }))
            }
            Expr::Seq(SeqOp::Map { f, s }) => {
                let x = self.elem(s, k, pulls, slices)?;
                Ok(self.a.apply(&f, &[x]))
            }
            Expr::Seq(SeqOp::Zip { f, a, b }) => {
                let x = self.elem(a, k, pulls, slices)?;
                let y = self.elem(b, k, pulls, slices)?;
                Ok(self.a.apply(&f, &[x, y]))
            }
            _ => Err(unsupported(self.a, s)),
        }
    }

    /// The per-element program of a sequence of slices over all its
    /// elements at once (one chunk), if it lifts.
    fn all_at_once(&mut self, s: H, slices: &[H]) -> Option<H> {
        let a = &mut *self.a;
        let mut n = a.extent(*slices.first()?, 0);
        for x in &slices[1..] {
            let m = a.extent(*x, 0);
            n = a.min_(n, m);
        }
        let zero = a.usize_lit(0);
        let mut lift = Lift {
            a: &mut *self.a,
            env: HashMap::new(),
            cn: n,
            stream: None,
            free: HashMap::new(),
            memo: HashMap::new(),
        };
        lift.seq(s, zero, self.let_values)
    }

    /// The chunked loop of a sequence of slices or of one stream, if its
    /// per-element program lifts: the counter advances by the chunk's
    /// length `cn`.
    fn chunked(&mut self, s: H, leaves: &Leaves, fs: &[H], len: H, elems: H) -> Option<H> {
        // Named for `explain`: a loop over chunks.
        let counter = self.a.new_var("chunk", Ty::Prim(Prim::Usize));
        let k = self.a.var_ref(counter);
        let a = &mut *self.a;
        let (cn, cond, pulls, stream) = if let [src] = leaves.streams[..] {
            // The stream gives chunks of consecutive elements of one shape.
            let t = match a.ty(src).seq_elem()? {
                Ty::Array(e, r) => Ty::array((**e).clone(), r + 1),
                _ => return None,
            };
            let name = match a.expr(src) {
                Expr::Scalar(Scalar::Var(v)) => a.var(*v).name.clone(),
                _ => "chunk".into(),
            };
            let item = a.new_var(name, t);
            let x = a.var_ref(item);
            let pull = Pull {
                source: src,
                item,
                chunk: vec![len, elems],
            };
            let yes = a.lit(Prim::Bool, 1);
            (a.extent(x, 0), yes, vec![pull], Some((src, x)))
        } else {
            // n: the shortest array's extent; chunks of `c` slices, fewer at the end.
            let slices = &leaves.slices;
            let mut n = a.extent(*slices.first()?, 0);
            for x in &slices[1..] {
                let m = a.extent(*x, 0);
                n = a.min_(n, m);
            }
            let (_, rank) = a.arr_ty(slices[0]);
            let sh = a.shape(slices[0]);
            let inner: Vec<H> = (1..rank).map(|d| a.comp(sh, d)).collect();
            let inner = a.index(inner);
            let size = a.size_of(inner, rank - 1);
            let one = a.usize_lit(1);
            let zero = a.usize_lit(0);
            let size = max(a, size, one);
            let auto = a.binary(BinOp::Div, elems, size);
            let auto = max(a, auto, one);
            let asked = a.binary(BinOp::Gt, len, zero);
            let c = a.if_(asked, len, auto);
            // `n - min(k, n)`: never below 0, and the bounds analysis proves
            // the reads `k + j` of the slices from it.
            let done = a.min_(k, n);
            let left = a.binary(BinOp::Sub, n, done);
            let below = a.binary(BinOp::Lt, k, n);
            (a.min_(c, left), below, vec![], None)
        };
        let mut lift = Lift {
            a: &mut *self.a,
            env: HashMap::new(),
            cn,
            stream,
            free: HashMap::new(),
            memo: HashMap::new(),
        };
        let elem = lift.seq(s, k, self.let_values)?;
        let next_k = self.a.binary(BinOp::Add, k, cn);
        // Each fold reduces the chunk's values (in order: `fold1_all`), then
        // its accumulator combines with the result.
        Some(self.fold_loop(counter, next_k, cond, pulls, fs, |a, g, _| {
            let (e, _) = a.arr_ty(elem);
            let all = a.add(
                Expr::Array(ArrayOp::Fold {
                    f: g.clone(),
                    z: None,
                    a: elem,
                    all: true,
                }),
                Ty::array(e, 0),
                Span::call_site(),
            );
            let empty = a.index(vec![]);
            a.read(all, empty)
        }))
    }
}

/// A value of a per-element program, lifted over a chunk.
#[derive(Clone, Copy)]
enum L {
    /// The same for every element (it reads no element).
    Same(H),
    /// One more dimension, outermost: the chunk's elements.
    Lifted(H),
}

/// Lifts per-element programs: `env` maps each variable bound to an element
/// (an array) to its lifted array, `cn` is the chunk's length.
struct Lift<'a> {
    a: &'a mut Arena,
    env: HashMap<VarId, H>,
    cn: H,
    /// The stream the loop pulls chunks from, and its chunk.
    stream: Option<(H, H)>,
    free: HashMap<H, BTreeSet<VarId>>,
    memo: HashMap<H, Option<L>>,
}

impl Lift<'_> {
    /// The lifted element of sequence `s`: the chunk at `k`.
    fn seq(&mut self, s: H, k: H, let_values: &HashMap<VarId, H>) -> Option<H> {
        let s = resolve(self.a, let_values, s);
        match self.a.expr(s).clone() {
            Expr::Scalar(Scalar::Var(_)) => self.stream.filter(|(src, _)| *src == s).map(|(_, x)| x),
            Expr::Seq(SeqOp::Slices { a }) => {
                // Rows `k .. k + cn` of `a`, read where they are used.
                let (_, rank) = self.a.arr_ty(a);
                let sh = self.a.shape(a);
                let mut dims = vec![self.cn];
                dims.extend((1..rank).map(|d| self.a.comp(sh, d)));
                let dims = self.a.index(dims);
                Some(self.a.generate_with(dims, |x, ix| {
                    let j = x.comp(ix, 0);
                    let mut at = vec![x.binary(BinOp::Add, k, j)];
                    at.extend((1..rank).map(|d| x.comp(ix, d)));
                    let at = x.index(at);
                    x.read(a, at)
                }))
            }
            Expr::Seq(SeqOp::Map { f, s }) => {
                let x = self.seq(s, k, let_values)?;
                self.apply(&f, &[x])
            }
            Expr::Seq(SeqOp::Zip { f, a, b }) => {
                let x = self.seq(a, k, let_values)?;
                let y = self.seq(b, k, let_values)?;
                self.apply(&f, &[x, y])
            }
            _ => None,
        }
    }

    /// Per-element program `f` applied to lifted arguments.
    fn apply(&mut self, f: &Fun, args: &[H]) -> Option<H> {
        for (p, x) in f.params.iter().zip(args) {
            self.env.insert(*p, *x);
        }
        self.lifted(f.body)
    }

    /// Does `h` read an element?
    fn dep(&mut self, h: H) -> bool {
        let free = crate::alpha::free_vars(self.a, h, &mut self.free);
        free.iter().any(|v| self.env.contains_key(v))
    }

    /// `h` lifted, replicated over the chunk if it reads no element.
    fn lifted(&mut self, h: H) -> Option<H> {
        match self.lift(h)? {
            L::Lifted(x) => Some(x),
            L::Same(x) => {
                let (_, rank) = self.a.arr_ty(x);
                let sh = self.a.shape(x);
                let mut dims = vec![self.cn];
                dims.extend((0..rank).map(|d| self.a.comp(sh, d)));
                let dims = self.a.index(dims);
                Some(self.a.generate_with(dims, |a, ix| {
                    let inner: Vec<H> = (1..=rank).map(|d| a.comp(ix, d)).collect();
                    let inner = a.index(inner);
                    a.read(x, inner)
                }))
            }
        }
    }

    fn lift(&mut self, h: H) -> Option<L> {
        if !self.dep(h) {
            return Some(L::Same(h));
        }
        if let Some(r) = self.memo.get(&h) {
            return *r;
        }
        let r = self.lift_node(h);
        self.memo.insert(h, r);
        r
    }

    fn lift_node(&mut self, h: H) -> Option<L> {
        let ty = self.a.ty(h).clone();
        let (elem, rank) = match &ty {
            Ty::Array(e, r) => ((**e).clone(), *r),
            _ => return None,
        };
        let lifted_ty = Ty::array(elem.clone(), rank + 1);
        let node = |a: &mut Arena, e: ArrayOp| a.add(Expr::Array(e), lifted_ty.clone(), Span::call_site());
        let r = match self.a.expr(h).clone() {
            Expr::Scalar(Scalar::Var(v)) => self.env.get(&v).copied()?,
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let value = match self.lift(value)? {
                    L::Same(x) => x,
                    L::Lifted(x) => {
                        let t = match &self.a.var(var).ty {
                            Ty::Array(e, r) => Ty::array((**e).clone(), r + 1),
                            _ => return None,
                        };
                        let name = self.a.var(var).name.clone();
                        let nv = self.a.new_var(name, t);
                        let nh = self.a.var_ref(nv);
                        self.env.insert(var, nh);
                        let b = self.lifted(body)?;
                        return Some(L::Lifted(self.a.let_(nv, x, b)));
                    }
                };
                let b = self.lifted(body)?;
                self.a.let_(var, value, b)
            }
            Expr::Array(ArrayOp::Map { f, a }) => {
                let x = self.lifted(a)?;
                if self.fun_dep(&f) {
                    let sh = self.a.shape(x);
                    let f = self.in_chunk_fun(&f, |a, ix| vec![a.read(x, ix)], rank + 1)?;
                    self.a.generate(sh, f)
                } else {
                    node(self.a, ArrayOp::Map { f, a: x })
                }
            }
            Expr::Array(ArrayOp::ZipWith { f, a, b }) => {
                let (x, y) = (self.lifted(a)?, self.lifted(b)?);
                if self.fun_dep(&f) {
                    let (sx, sy) = (self.a.shape(x), self.a.shape(y));
                    let dims: Vec<H> = (0..=rank)
                        .map(|d| {
                            let (p, q) = (self.a.comp(sx, d), self.a.comp(sy, d));
                            self.a.min_(p, q)
                        })
                        .collect();
                    let sh = self.a.index(dims);
                    let f = self.in_chunk_fun(&f, |a, ix| vec![a.read(x, ix), a.read(y, ix)], rank + 1)?;
                    self.a.generate(sh, f)
                } else {
                    node(self.a, ArrayOp::ZipWith { f, a: x, b: y })
                }
            }
            Expr::Array(ArrayOp::Generate { shape, f }) => {
                let sh = self.outer_shape(shape, rank)?;
                let g = self.in_chunk_fun(&f, |a, ix| vec![inner_index(a, ix, rank)], rank + 1)?;
                self.a.generate(sh, g)
            }
            Expr::Array(ArrayOp::Backpermute { shape, f, a }) => {
                let x = self.lifted(a)?;
                let (_, src_rank) = self.a.arr_ty(a);
                let sh = self.outer_shape(shape, rank)?;
                let g = self.in_chunk_fun(&f, |a, ix| vec![inner_index(a, ix, rank)], rank + 1)?;
                // The source index, with the element's position in front.
                let ix = self.a.var_ref(g.params[0]);
                let mut at = vec![self.a.comp(ix, 0)];
                at.extend(self.a.comps(g.body, src_rank));
                let body = self.a.index(at);
                let f = Fun {
                    params: g.params,
                    body,
                };
                node(self.a, ArrayOp::Backpermute { shape: sh, f, a: x })
            }
            Expr::Array(ArrayOp::Reshape { shape, a }) => {
                let x = self.lifted(a)?;
                let sh = self.outer_shape(shape, rank)?;
                node(self.a, ArrayOp::Reshape { shape: sh, a: x })
            }
            Expr::Array(ArrayOp::Fold { f, z, a, all }) => {
                if self.fun_dep(&f) || z.is_some_and(|z| self.dep(z)) {
                    return None;
                }
                let mut x = self.lifted(a)?;
                if all {
                    // Each element's values in one row.
                    let (e, r) = self.a.arr_ty(x);
                    let sh = self.a.shape(x);
                    let inner: Vec<H> = (1..r).map(|d| self.a.comp(sh, d)).collect();
                    let inner = self.a.index(inner);
                    let size = self.a.size_of(inner, r - 1);
                    let rows = self.a.index(vec![self.cn, size]);
                    x = self.a.add(
                        Expr::Array(ArrayOp::Reshape { shape: rows, a: x }),
                        Ty::array(e, 2),
                        Span::call_site(),
                    );
                }
                node(
                    self.a,
                    ArrayOp::Fold {
                        f,
                        z,
                        a: x,
                        all: false,
                    },
                )
            }
            Expr::Array(ArrayOp::Scan { dir, kind, f, z, a }) if kind != crate::ir::ScanKind::Exclusive => {
                if self.fun_dep(&f) || z.is_some_and(|z| self.dep(z)) {
                    return None;
                }
                let x = self.lifted(a)?;
                node(
                    self.a,
                    ArrayOp::Scan {
                        dir,
                        kind,
                        f,
                        z,
                        a: x,
                    },
                )
            }
            _ => return None,
        };
        Some(L::Lifted(r))
    }

    /// Does closure `f` read an element (by index or its shape)?
    fn fun_dep(&mut self, f: &Fun) -> bool {
        self.dep(f.body)
    }

    /// The lifted shape of a per-element array of rank `rank` whose shape
    /// is `shape`: the chunk's length in front. The shape may read an
    /// element's shape (the same for all elements of a chunk), not its data.
    fn outer_shape(&mut self, shape: H, rank: usize) -> Option<H> {
        let sh = self.host_scalar(shape)?;
        let mut dims = vec![self.cn];
        dims.extend((0..rank).map(|d| self.a.comp(sh, d)));
        Some(self.a.index(dims))
    }

    /// Scalar code outside closures that reads at most elements' shapes.
    fn host_scalar(&mut self, h: H) -> Option<H> {
        if !self.dep(h) {
            return Some(h);
        }
        match self.a.expr(h).clone() {
            Expr::Scalar(Scalar::Shape(x)) => {
                let (_, r) = self.a.arr_ty(x);
                let lx = self.lifted(x)?;
                let sh = self.a.shape(lx);
                let dims: Vec<H> = (1..=r).map(|d| self.a.comp(sh, d)).collect();
                Some(self.a.index(dims))
            }
            Expr::Scalar(Scalar::Read { .. }) | Expr::Scalar(Scalar::Var(_)) => None,
            e if e.funs().is_empty() && !e.is_array_op() => self.rebuild(h, &e, |l, c| l.host_scalar(c)),
            _ => None,
        }
    }

    /// Element function `f` of a per-element operation as the element
    /// function of its lifted version over index `ix` (rank `rank`, the
    /// element's position `j` first): its arguments from `args(ix)`, and its
    /// reads of an element's arrays made reads of their lifted arrays at `j`.
    fn in_chunk_fun(
        &mut self,
        f: &Fun,
        args: impl FnOnce(&mut Arena, H) -> Vec<H>,
        rank: usize,
    ) -> Option<Fun> {
        let ix = self.a.new_var("ix", Ty::Index(rank));
        let ixh = self.a.var_ref(ix);
        let j = self.a.comp(ixh, 0);
        let xs = args(self.a, ixh);
        // The closure's parameters bound to `args`, around its rewritten body.
        let mut body = self.in_chunk(f.body, j)?;
        for (p, x) in f.params.iter().zip(&xs).rev() {
            body = self.a.let_(*p, *x, body);
        }
        Some(Fun {
            params: vec![ix],
            body,
        })
    }

    /// Node `h` (expression `e`) with each child `c` replaced by `f(c)`;
    /// `None` if one of them is.
    fn rebuild(&mut self, h: H, e: &Expr, mut f: impl FnMut(&mut Self, H) -> Option<H>) -> Option<H> {
        let mut ok = true;
        let new = e.map_children(|c| {
            f(self, c).unwrap_or_else(|| {
                ok = false;
                c
            })
        });
        if !ok {
            return None;
        }
        let ty = self.a.ty(h).clone();
        Some(self.a.add(new, ty, self.a.span(h)))
    }

    /// Scalar code inside a closure, for the element at position `j`.
    fn in_chunk(&mut self, h: H, j: H) -> Option<H> {
        if !self.dep(h) {
            return Some(h);
        }
        match self.a.expr(h).clone() {
            Expr::Scalar(Scalar::Read { array, index }) => {
                let x = self.lifted(array)?;
                let (_, r) = self.a.arr_ty(array);
                let ix = self.in_chunk(index, j)?;
                let mut at = vec![j];
                at.extend(self.a.comps(ix, r));
                let at = self.a.index(at);
                Some(self.a.read(x, at))
            }
            Expr::Scalar(Scalar::Shape(_)) => self.host_scalar(h),
            Expr::Scalar(Scalar::Var(_)) => None,
            e if e.funs().is_empty() && !e.is_array_op() => self.rebuild(h, &e, |l, c| l.in_chunk(c, j)),
            _ => None,
        }
    }
}

/// Index `ix` of a lifted array (rank `rank` + 1) without its first
/// component: the index into one element.
fn inner_index(a: &mut Arena, ix: H, rank: usize) -> H {
    let inner: Vec<H> = (1..=rank).map(|d| a.comp(ix, d)).collect();
    a.index(inner)
}

fn max(a: &mut Arena, x: H, y: H) -> H {
    let gt = a.binary(BinOp::Gt, x, y);
    a.if_(gt, x, y)
}

fn unsupported(a: &Arena, s: H) -> CompileError {
    CompileError::new(
        a.span(s),
        "this sequence is not supported yet: a sequence comes from a parameter, `rows()` or `to_seq()`, \
         through `map` and `zip_with` (not `if` or a loop)",
    )
}

/// `s` seen through the `let`s that name it.
fn resolve(a: &Arena, let_values: &HashMap<VarId, H>, mut s: H) -> H {
    while let Expr::Scalar(Scalar::Var(v)) = a.expr(s) {
        match let_values.get(v) {
            Some(x) => s = *x,
            None => break,
        }
    }
    s
}

fn reachable(a: &Arena, root: H) -> Vec<H> {
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    let mut out = Vec::new();
    while let Some(h) = stack.pop() {
        if seen.insert(h) {
            out.push(h);
            stack.extend(a.expr(h).children());
        }
    }
    out
}

/// `h` with the nodes of `replace` replaced (in the replacements too), and
/// the `let`s of sequences dropped: nothing reads them any more.
fn rewrite(a: &mut Arena, h: H, replace: &HashMap<H, H>, memo: &mut HashMap<H, H>) -> H {
    if let Some(r) = memo.get(&h) {
        return *r;
    }
    let r = if let Some(x) = replace.get(&h) {
        rewrite(a, *x, replace, memo)
    } else {
        match a.expr(h).clone() {
            Expr::Scalar(Scalar::Let { var, body, .. }) if matches!(a.var(var).ty, Ty::Seq(_)) => {
                rewrite(a, body, replace, memo)
            }
            e => {
                let new = e.map_children(|c| rewrite(a, c, replace, memo));
                if new == e {
                    h
                } else {
                    let (ty, span) = (a.ty(h).clone(), a.span(h));
                    a.add(new, ty, span)
                }
            }
        }
    };
    memo.insert(h, r);
    r
}

/// A streamed parameter whose loop runs inside another loop or a closure
/// (where it would run again), if any.
fn streamed_in_loop(
    a: &Arena,
    body: H,
    pulling: &HashSet<H>,
    params: &HashMap<VarId, usize>,
) -> Option<usize> {
    let mut seen = HashSet::new();
    let mut stack = vec![(body, false)];
    while let Some((h, inside)) = stack.pop() {
        if !seen.insert((h, inside)) {
            continue;
        }
        let e = a.expr(h);
        if inside && pulling.contains(&h) {
            if let Expr::Scalar(Scalar::While { pulls, .. }) = e {
                for pl in pulls {
                    if let Expr::Scalar(Scalar::Var(v)) = a.expr(pl.source) {
                        return params.get(v).copied();
                    }
                }
            }
        }
        let bodies: Vec<H> = e.funs().iter().map(|f| f.body).collect();
        match e {
            Expr::Scalar(Scalar::While {
                init,
                cond,
                step,
                pulls,
                ..
            }) => {
                stack.extend(
                    init.iter()
                        .chain(pulls.iter().flat_map(Pull::exprs))
                        .map(|x| (*x, inside)),
                );
                stack.extend(std::iter::once(cond).chain(step).map(|x| (*x, true)));
            }
            _ => stack.extend(
                e.children()
                    .into_iter()
                    .map(|c| (c, inside || bodies.contains(&c))),
            ),
        }
    }
    None
}
