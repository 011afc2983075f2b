//! The pass `sequences`: every fold of a sequence becomes a loop over its
//! elements, and the folds of one sequence share one loop (one traversal:
//! `(s.sum(), s.maximum())` reads `s` once). A `collect` or `tabulate` of a
//! stream is one more consumer of that loop, which appends the elements to
//! a buffer that grows by doubling (`collect_state`); of slices, it runs the
//! per-element program over all elements at once.
//!
//! A sequence's element is built from its leaves: a slice of an array
//! (`rows`, `to_seq`, `split`: a `generate` reading the array, fused into the
//! per-element work, never built whole) or an element pulled from a streamed
//! parameter. `map` and `zip_with` apply their per-element programs to it.
//!
//! **Chunks.** A sequence of slices or streams runs in chunks when its
//! per-element program can be *lifted* (`lift`, the paper's
//! vectorisation): the program applied to `c` consecutive elements at once,
//! as one array of rank + 1 whose outermost index `j` is the element's
//! position in the chunk. Each chunk's values are reduced by the fold's
//! operator, then combined with the accumulator in sequence order (the
//! operator is associative); a `fold_flatten` takes the chunk whole. Each
//! stream gives a chunk per iteration, cut to the shortest (see `Pull`). The
//! chunk length is `ACCEL_CHUNK` (or [`CHUNK_LEN`] set by the caller), else
//! the backend's target number of array elements per chunk over the
//! element's size ([`CHUNK_ELEMS`]). Other sequences, and folds of arrays
//! (whose closures are array programs, not associative operators), run one
//! element per iteration.
//!
//! A streamed parameter can be traversed once: its folds must all belong to
//! one sequence (one loop), outside any loop or closure.

use crate::error::{CResult, CompileError};
use crate::front::{returned, Param, Program};
use crate::ir::{Arena, ArrayOp, BinOp, ErrorKind, Expr, Fun, Prim, Pull, Scalar, SeqOp, Ty, VarId, H};
use proc_macro2::Span;
use std::collections::{HashMap, HashSet};

mod lift;
use lift::Lift;

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
    let mut let_values: HashMap<VarId, H> = nodes
        .iter()
        .filter_map(|h| match a.expr(*h) {
            Expr::Scalar(Scalar::Let { var, value, .. }) if matches!(a.var(*var).ty, Ty::Seq(_)) => {
                Some((*var, *value))
            }
            _ => None,
        })
        .collect();
    // A returned sequence's chunk program: the returned slices of arrays
    // start after the elements of the chunks before.
    if let Some(start) = p.params.iter().find(|x| x.name == returned::START) {
        let start = a.var_ref(start.var);
        let var = let_values
            .keys()
            .copied()
            .find(|v| a.var(*v).name == returned::RETURNED);
        if let Some(v) = var {
            let s = from_start(&mut a, &let_values, let_values[&v], start);
            let_values.insert(v, s);
        }
    }
    // The consumers (folds, `collect`s, `tabulate`s), grouped by the
    // sequence they consume, in arena order.
    let mut groups: Vec<(H, Vec<H>)> = Vec::new();
    let mut consumers: Vec<H> = nodes
        .iter()
        .copied()
        .filter(|h| matches!(a.expr(*h), Expr::Seq(SeqOp::Fold { .. } | SeqOp::Collect { .. })))
        .collect();
    consumers.sort_unstable();
    for h in consumers {
        let (Expr::Seq(SeqOp::Fold { s, .. }) | Expr::Seq(SeqOp::Collect { s, .. })) = a.expr(h) else {
            continue;
        };
        let s = resolve(&a, &let_values, *s);
        match groups.iter_mut().find(|(g, _)| *g == s) {
            Some((_, cs)) => cs.push(h),
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
    if matches!(p.result, Ty::Seq(_)) {
        check_returned(p, &mut a, &let_values, &streams, &groups)?;
        return Ok(p.clone());
    }
    let mut params = p.params.clone();
    let mut chunk_vars: Option<(VarId, VarId)> = None;
    let mut replace: HashMap<H, H> = HashMap::new();
    let mut streamed_by: HashMap<usize, H> = HashMap::new();
    let mut pulling = HashSet::new();
    for (s, cs) in &groups {
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
        // A `collect` of slices runs over every element at once; of a
        // stream, in the loop that its other consumers share.
        let mut fs = Vec::new();
        for &c in cs {
            match lw.a.expr(c) {
                Expr::Seq(SeqOp::Collect { tabulate, .. }) if leaves.streams.is_empty() => {
                    let r = lw.collect_at_once(c, *s, *tabulate, &leaves)?;
                    replace.insert(c, r);
                }
                _ => fs.push(c),
            }
        }
        if fs.is_empty() {
            continue;
        }
        // Folds of arrays combine one element at a time.
        let of_arrays = fs.iter().any(|f| match lw.a.expr(*f) {
            Expr::Seq(SeqOp::Fold { z, flatten, .. }) => !flatten && lw.a.ty(*z).is_array(),
            _ => false,
        });
        let chunkable = !of_arrays && (!leaves.streams.is_empty() || !leaves.slices.is_empty());
        let chunked = if chunkable {
            let (len, elems) = *chunk_vars.get_or_insert_with(|| {
                let u = Ty::Prim(Prim::Usize);
                (lw.a.new_var(CHUNK_LEN, u.clone()), lw.a.new_var(CHUNK_ELEMS, u))
            });
            let (lh, eh) = (lw.a.var_ref(len), lw.a.var_ref(elems));
            let w = lw.chunked(*s, &leaves, &fs, lh, eh);
            if w.is_some() && !params.iter().any(|x| x.var == len) {
                params.extend([param(len, CHUNK_LEN), param(elems, CHUNK_ELEMS)]);
            }
            w
        } else {
            None
        };
        let (w, results) = match chunked {
            Some(w) => w,
            None => lw.per_element(*s, &fs)?,
        };
        if !leaves.streams.is_empty() {
            pulling.insert(w);
        }
        replace.extend(fs.iter().copied().zip(results));
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

/// The checks on a program that returns a sequence (the macro compiles it
/// as a program over one chunk of its streams, `front::returned`): its
/// streams are traversed by the returned sequence only.
fn check_returned(
    p: &Program,
    a: &mut Arena,
    let_values: &HashMap<VarId, H>,
    streams: &HashMap<VarId, usize>,
    groups: &[(H, Vec<H>)],
) -> CResult<()> {
    let mut result = p.body;
    while let Expr::Scalar(Scalar::Let { body, .. }) = a.expr(result) {
        result = *body;
    }
    let mut lw = Lowering {
        a,
        let_values,
        streams,
    };
    let leaves = lw.leaves(result)?;
    for (s, _) in groups {
        for src in lw.leaves(*s)?.streams {
            if leaves.streams.contains(&src) {
                if let Expr::Scalar(Scalar::Var(v)) = lw.a.expr(src) {
                    return Err(twice(p, streams[v]));
                }
            }
        }
    }
    Ok(())
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
    fn per_element(&mut self, s: H, fs: &[H]) -> CResult<(H, Vec<H>)> {
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
        // A fold of Scalars combines the element's value; a fold of arrays,
        // the element; a `fold_flatten`, a group of one element.
        let rank = self.a.arr_ty(elem).1;
        let x = match rank {
            0 => self.a.read(elem, empty),
            _ => elem,
        };
        // A group of one element (`fold_flatten`, `collect`).
        let mut dims = vec![self.a.usize_lit(1)];
        dims.extend((0..rank).map(|d| self.a.extent(elem, d)));
        let dims = self.a.index(dims);
        let group = self.a.reshape(elem, dims);
        Ok(
            self.consume_loop(counter, next_k, cond, pulls, fs, |_, value| match value {
                Value::Combined(_) => x,
                Value::Group => group,
            }),
        )
    }

    /// The loop over counter `counter` (from 0 to `next_k`, while `cond`)
    /// whose state holds each consumer of `cs`, and the value of each
    /// consumer after it. Per iteration, `value` gives a consumer its
    /// elements:
    /// * a fold combines `value(Combined(f))` with its accumulator: a Scalar
    ///   (it stays where the kernels run), or for a fold of arrays the array
    ///   its closure returns;
    /// * a `fold_flatten` gets a group of elements (`value(Group)`, one per
    ///   row of a matrix): its closure gets their lengths and their values;
    /// * a `collect` or `tabulate` appends the group (`collect_state`).
    fn consume_loop(
        &mut self,
        counter: VarId,
        next_k: H,
        cond: H,
        pulls: Vec<Pull>,
        cs: &[H],
        mut value: impl FnMut(&mut Arena, Value) -> H,
    ) -> (H, Vec<H>) {
        let a = &mut *self.a;
        let mut st = State {
            vars: vec![counter],
            init: vec![a.usize_lit(0)],
            step: vec![next_k],
        };
        let empty = a.index(vec![]);
        let mut finals: Vec<Final> = Vec::new();
        for c in cs {
            let (g, z, flatten) = match a.expr(*c).clone() {
                Expr::Seq(SeqOp::Fold { f, z, flatten, .. }) => (f, z, flatten),
                Expr::Seq(SeqOp::Collect { tabulate, .. }) => {
                    let x = value(a, Value::Group);
                    finals.push(collect_state(a, x, tabulate, &mut st));
                    continue;
                }
                _ => continue,
            };
            let acc = a.new_var("acc", a.ty(*c).clone());
            let acc_h = a.var_ref(acc);
            finals.push(Final::Value(st.vars.len()));
            st.vars.push(acc);
            if flatten {
                let x = value(a, Value::Group);
                let n = a.extent(x, 0);
                let w = a.extent(x, 1);
                let lens_shape = a.index(vec![n]);
                let lens = a.fill(lens_shape, w);
                let size = a.binary(BinOp::Mul, n, w);
                let flat = a.index(vec![size]);
                let values = a.reshape(x, flat);
                st.init.push(z);
                st.step.push(a.apply(&g, &[acc_h, lens, values]));
                continue;
            }
            let x = value(a, Value::Combined(&g));
            if a.ty(z).is_array() {
                st.init.push(z);
                st.step.push(a.apply(&g, &[acc_h, x]));
                continue;
            }
            st.init.push(a.fill(empty, z));
            st.step.push(a.generate_with(empty, |a, _| {
                let acc = a.read(acc_h, empty);
                a.apply(&g, &[acc, x])
            }));
        }
        let tys = st.vars.iter().map(|v| a.var(*v).ty.clone()).collect();
        let span = a.span(cs[0]);
        let w = a.add(
            Expr::Scalar(Scalar::While {
                vars: st.vars,
                init: st.init,
                cond,
                step: st.step,
                pulls,
            }),
            Ty::Tuple(tys),
            span,
        );
        let results = finals.into_iter().map(|f| f.of(a, w)).collect();
        (w, results)
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

    /// `collect` or `tabulate` `c` of sequence `s` of slices (`leaves`):
    /// its per-element program over all elements at once.
    fn collect_at_once(&mut self, c: H, s: H, tabulate: bool, leaves: &Leaves) -> CResult<H> {
        let what = if tabulate { "tabulate" } else { "collect" };
        let all = self.all_at_once(s, &leaves.slices).ok_or_else(|| {
            CompileError::new(
                self.a.span(c),
                format!(
                    "`{what}` needs a per-element program that runs over all elements at once, and this one \
                     cannot yet (it may use map, zip_with, generate, backpermute, reshape, folds and scans)"
                ),
            )
        })?;
        let a = &mut *self.a;
        let (e, rank) = a.arr_ty(all);
        let sh = a.shape(all);
        let span = a.span(c);
        Ok(if tabulate {
            // An empty sequence has no element shape: all extents are 0.
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
                span,
            )
        } else {
            let n = a.size_of(sh, rank);
            let flat = a.index(vec![n]);
            a.add(
                Expr::Array(ArrayOp::Reshape { shape: flat, a: all }),
                Ty::array(e, 1),
                span,
            )
        })
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
        let mut lift = Lift::new(&mut *self.a, n, Vec::new());
        lift.seq(s, zero, self.let_values)
    }

    /// The chunked loop of a sequence of slices or of one stream, if its
    /// per-element program lifts: the counter advances by the chunk's
    /// length `cn`.
    fn chunked(&mut self, s: H, leaves: &Leaves, fs: &[H], len: H, elems: H) -> Option<(H, Vec<H>)> {
        // Named for `explain`: a loop over chunks.
        let counter = self.a.new_var("chunk", Ty::Prim(Prim::Usize));
        let k = self.a.var_ref(counter);
        let a = &mut *self.a;
        // Each stream gives a chunk of consecutive elements of one shape;
        // chunks of several are cut to the shortest (see `Pull`).
        let mut pulls = Vec::new();
        let mut streams = Vec::new();
        for &src in &leaves.streams {
            let t = match a.ty(src).seq_elem()? {
                Ty::Array(e, r) => Ty::array((**e).clone(), r + 1),
                _ => return None,
            };
            let name = match a.expr(src) {
                Expr::Scalar(Scalar::Var(v)) => a.var(*v).name.clone(),
                _ => "chunk".into(),
            };
            let item = a.new_var(name, t);
            pulls.push(Pull {
                source: src,
                item,
                chunk: vec![len, elems],
            });
            streams.push((src, a.var_ref(item)));
        }
        // The chunks' extents are equal (cut to the shortest), but their
        // minimum tells the bounds analysis that every read is inside each.
        let mut cn: Option<H> = None;
        for &(_, x) in &streams {
            let n = a.extent(x, 0);
            cn = Some(match cn {
                Some(m) => a.min_(m, n),
                None => n,
            });
        }
        let mut cond = a.lit(Prim::Bool, 1);
        if let Some(&first) = leaves.slices.first() {
            // n: the shortest array's extent; chunks of `c` slices, fewer at
            // the end (and no longer than the streams' chunks).
            let slices = &leaves.slices;
            let mut n = a.extent(first, 0);
            for x in &slices[1..] {
                let m = a.extent(*x, 0);
                n = a.min_(n, m);
            }
            let c = match cn {
                Some(c) => c,
                None => {
                    let (_, rank) = a.arr_ty(first);
                    let sh = a.shape(first);
                    let inner: Vec<H> = (1..rank).map(|d| a.comp(sh, d)).collect();
                    let inner = a.index(inner);
                    let size = a.size_of(inner, rank - 1);
                    let one = a.usize_lit(1);
                    let zero = a.usize_lit(0);
                    let size = max(a, size, one);
                    let auto = a.binary(BinOp::Div, elems, size);
                    let auto = max(a, auto, one);
                    let asked = a.binary(BinOp::Gt, len, zero);
                    a.if_(asked, len, auto)
                }
            };
            // `n - min(k, n)`: never below 0, and the bounds analysis proves
            // the reads `k + j` of the slices from it.
            let done = a.min_(k, n);
            let left = a.binary(BinOp::Sub, n, done);
            cond = a.binary(BinOp::Lt, k, n);
            cn = Some(a.min_(c, left));
        }
        let cn = cn?;
        // With slices, a stream's chunk may outlast them (at the end): its
        // elements are read up to `cn`.
        if !leaves.slices.is_empty() {
            for (_, x) in &mut streams {
                *x = take_rows(a, *x, cn);
            }
        }
        let mut lift = Lift::new(&mut *self.a, cn, streams);
        let elem = lift.seq(s, k, self.let_values)?;
        let next_k = self.a.binary(BinOp::Add, k, cn);
        // Each fold reduces the chunk's values (in order: `fold1_all`), then
        // its accumulator combines with the result; a `fold_flatten` or a
        // `collect` takes the chunk whole.
        Some(self.consume_loop(counter, next_k, cond, pulls, fs, |a, value| {
            let Value::Combined(g) = value else {
                return elem;
            };
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

/// What a loop's consumer gets of each iteration's elements.
enum Value<'f> {
    /// Their values combined by this operator (a fold of Scalars), or the
    /// one element (other folds, one element per iteration).
    Combined(&'f Fun),
    /// The elements as one array of rank + 1, the outermost dimension
    /// counting them (a chunk, or a group of one element).
    Group,
}

/// A loop's state under construction: its variables, their initial values
/// and their next values.
struct State {
    vars: Vec<VarId>,
    init: Vec<H>,
    step: Vec<H>,
}

impl State {
    /// A new state variable; returns a reference to it.
    fn push(&mut self, a: &mut Arena, name: &str, init: H, step: impl FnOnce(&mut Arena, H) -> H) -> H {
        let v = a.new_var(name, a.ty(init).clone());
        let h = a.var_ref(v);
        self.vars.push(v);
        self.init.push(init);
        let next = step(a, h);
        self.step.push(next);
        h
    }
}

/// How a consumer's value comes out of its loop's final state (a tuple).
enum Final {
    /// It is state variable `i`.
    Value(usize),
    /// `collect` or `tabulate` (see `collect_state`): the values are the
    /// first `used` of `buf`; a `tabulate`'s shape is `[rows, inner..]`.
    Collected {
        buf: usize,
        used: usize,
        tabulate: Option<(usize, Vec<usize>)>,
    },
}

impl Final {
    fn of(self, a: &mut Arena, w: H) -> H {
        match self {
            Final::Value(i) => a.proj(w, i),
            Final::Collected { buf, used, tabulate } => {
                let buf = a.proj(w, buf);
                let used = a.proj(w, used);
                let n = a.index(vec![used]);
                // A backpermute, not a generate: the loop must not be read
                // from inside a closure, where it would seem to run again.
                let values = a.backpermute(buf, n, |_, ix| ix);
                let Some((rows, inner)) = tabulate else {
                    return values;
                };
                // An empty sequence has no element shape: all extents are 0.
                let rows = a.proj(w, rows);
                let zero = a.usize_lit(0);
                let empty = a.binary(BinOp::Eq, rows, zero);
                let mut dims = vec![rows];
                for d in inner {
                    let x = a.proj(w, d);
                    dims.push(a.if_(empty, zero, x));
                }
                let dims = a.index(dims);
                a.reshape(values, dims)
            }
        }
    }
}

/// Adds to a loop's state `st` a `collect` (or a `tabulate`) of the
/// elements `x` of each iteration (an array of rank + 1 whose outermost
/// dimension counts them): their values are appended to a vector `buf`, of
/// which `used` are written. Like a `Vec`, `buf` grows by doubling, so each
/// value is copied O(1) times in all; otherwise only the appended values are
/// written (in place on the CPU, where `buf` dies at its update). A
/// `tabulate` also keeps the elements' count and shape, and fails with
/// `ShapeMismatch` when an element's shape differs from the first's.
fn collect_state(a: &mut Arena, x: H, tabulate: bool, st: &mut State) -> Final {
    let (e, r1) = a.arr_ty(x);
    let u = Ty::Prim(Prim::Usize);
    let zero = a.usize_lit(0);
    let one = a.usize_lit(1);
    let sh = a.shape(x);
    let m = a.size_of(sh, r1);
    // Reads of `used` before its own update: its variable, bound below.
    let used_var = a.new_var("used", u.clone());
    let used = a.var_ref(used_var);
    let none = a.index(vec![zero]);
    let z = a.zero_of(&e);
    let init = a.fill(none, z);
    let buf_i = st.vars.len();
    st.push(a, "collected", init, |a, buf| {
        let cap = a.extent(buf, 0);
        let need = a.binary(BinOp::Add, used, m);
        // The new values only, over the old ones: `buf` updated in a box.
        let cap_shape = a.index(vec![cap]);
        let write = a.generate_with(cap_shape, |a, ix| {
            let i = a.comp(ix, 0);
            let from = a.binary(BinOp::Le, used, i);
            let below = a.binary(BinOp::Lt, i, need);
            let inside = a.binary(BinOp::And, from, below);
            let off = a.binary(BinOp::Sub, i, used);
            let new = read_flat(a, x, off);
            let old = a.read(buf, ix);
            a.if_(inside, new, old)
        });
        // Out of room: a buffer twice as large (or as large as needed),
        // whose values past `need` are copies of the last one.
        let two = a.usize_lit(2);
        let twice = a.binary(BinOp::Mul, cap, two);
        let new_cap = max(a, twice, need);
        let new_shape = a.index(vec![new_cap]);
        let m1 = max(a, m, one);
        let last = a.binary(BinOp::Sub, m1, one);
        let grown = a.generate_with(new_shape, |a, ix| {
            let i = a.comp(ix, 0);
            let old_part = a.binary(BinOp::Lt, i, used);
            let old = a.read(buf, ix);
            let off = a.binary(BinOp::Sub, i, used);
            let off = a.min_(off, last);
            let new = read_flat(a, x, off);
            a.if_(old_part, old, new)
        });
        let full = a.binary(BinOp::Gt, need, cap);
        a.if_(full, grown, write)
    });
    let used_i = st.vars.len();
    st.vars.push(used_var);
    st.init.push(zero);
    st.step.push(a.binary(BinOp::Add, used, m));
    if !tabulate {
        return Final::Collected {
            buf: buf_i,
            used: used_i,
            tabulate: None,
        };
    }
    // The elements' count, and the shape of the first (0s until then).
    let rows_var = a.new_var("rows", u);
    let rows = a.var_ref(rows_var);
    let first = a.binary(BinOp::Eq, rows, zero);
    let mut same: Option<H> = None;
    let mut inner = Vec::new();
    for d in 1..r1 {
        let xd = a.comp(sh, d);
        inner.push(st.vars.len());
        let hd = st.push(a, "extent", zero, |a, h| a.if_(first, xd, h));
        let eq = a.binary(BinOp::Eq, hd, xd);
        same = Some(match same {
            Some(s) => a.binary(BinOp::And, s, eq),
            None => eq,
        });
    }
    let count = a.comp(sh, 0);
    let mut next = a.binary(BinOp::Add, rows, count);
    if let Some(same) = same {
        let ok = a.binary(BinOp::Or, first, same);
        next = a.assert_kind(
            ok,
            ErrorKind::ShapeMismatch,
            "tabulate",
            "the elements of a tabulated sequence must all have one shape",
            next,
        );
    }
    let rows_i = st.vars.len();
    st.vars.push(rows_var);
    st.init.push(zero);
    st.step.push(next);
    Final::Collected {
        buf: buf_i,
        used: used_i,
        tabulate: Some((rows_i, inner)),
    }
}

/// Sequence `s` with each slice of an array `a` (not a stream's chunk, a
/// parameter `__chunk_..`) read from element `start` on: the slices of
/// `a[start..]`, none when `start` is past the end.
fn from_start(a: &mut Arena, let_values: &HashMap<VarId, H>, s: H, start: H) -> H {
    let s = resolve(a, let_values, s);
    let (ty, span) = (a.ty(s).clone(), a.span(s));
    let e = match a.expr(s).clone() {
        Expr::Seq(SeqOp::Slices { a: x }) => {
            let chunk = matches!(a.expr(x), Expr::Scalar(Scalar::Var(v)) if a.var(*v).name.starts_with(returned::CHUNK_PARAM));
            if chunk {
                return s;
            }
            let (_, rank) = a.arr_ty(x);
            let sh = a.shape(x);
            let n = a.comp(sh, 0);
            let done = a.min_(start, n);
            let mut dims = vec![a.binary(BinOp::Sub, n, done)];
            dims.extend((1..rank).map(|d| a.comp(sh, d)));
            let dims = a.index(dims);
            let rest = a.backpermute(x, dims, |a, ix| {
                let mut at = a.comps(ix, rank);
                at[0] = a.binary(BinOp::Add, start, at[0]);
                a.index(at)
            });
            SeqOp::Slices { a: rest }
        }
        Expr::Seq(SeqOp::Map { f, s: t }) => SeqOp::Map {
            f,
            s: from_start(a, let_values, t, start),
        },
        Expr::Seq(SeqOp::Zip { f, a: p, b: q }) => SeqOp::Zip {
            f,
            a: from_start(a, let_values, p, start),
            b: from_start(a, let_values, q, start),
        },
        _ => return s,
    };
    a.add(Expr::Seq(e), ty, span)
}

/// Element `off` of array `x` in row-major order (read through its index,
/// not a reshape, so that `x` fuses into the read).
fn read_flat(a: &mut Arena, x: H, off: H) -> H {
    let (_, rank) = a.arr_ty(x);
    let sh = a.shape(x);
    let mut ix = vec![off; rank];
    let mut rest = off;
    for d in (1..rank).rev() {
        let n = a.comp(sh, d);
        ix[d] = a.binary(BinOp::Rem, rest, n);
        rest = a.binary(BinOp::Div, rest, n);
    }
    if rank > 0 {
        ix[0] = rest;
    }
    let ix = a.index(ix);
    a.read(x, ix)
}

/// The first `n` elements (outermost) of array `x`, read where used.
fn take_rows(a: &mut Arena, x: H, n: H) -> H {
    let (_, rank) = a.arr_ty(x);
    let sh = a.shape(x);
    let mut dims = vec![n];
    dims.extend((1..rank).map(|d| a.comp(sh, d)));
    let dims = a.index(dims);
    a.generate_with(dims, |a, ix| a.read(x, ix))
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
        match e.loop_children() {
            Some((once, every)) => {
                stack.extend(once.into_iter().map(|x| (x, inside)));
                stack.extend(every.into_iter().map(|x| (x, true)));
            }
            None => stack.extend(
                e.children()
                    .into_iter()
                    .map(|c| (c, inside || bodies.contains(&c))),
            ),
        }
    }
    None
}
