//! Lifting a sequence's per-element program over a chunk of elements (the
//! paper's vectorisation): each array the program builds gains an outermost
//! dimension, the chunk's elements.

use super::resolve;
use crate::ir::{Arena, ArrayOp, BinOp, Expr, Fun, Scalar, SeqOp, Ty, VarId, H};
use proc_macro2::Span;
use std::collections::{BTreeSet, HashMap};

/// A value of a per-element program, lifted over a chunk.
#[derive(Clone, Copy)]
pub(super) enum L {
    /// The same for every element (it reads no element).
    Same(H),
    /// One more dimension, outermost: the chunk's elements.
    Lifted(H),
}

/// Lifts per-element programs: `env` maps each variable bound to an element
/// (an array) to its lifted array, `cn` is the chunk's length.
pub(super) struct Lift<'a> {
    a: &'a mut Arena,
    env: HashMap<VarId, H>,
    cn: H,
    /// The streams the loop pulls chunks from, and their chunks.
    streams: Vec<(H, H)>,
    free: HashMap<H, BTreeSet<VarId>>,
    memo: HashMap<H, Option<L>>,
}

impl<'a> Lift<'a> {
    /// A lifter over chunks of `cn` elements, where each stream of `streams`
    /// (its source) gives its chunk (an array of rank + 1).
    pub(super) fn new(a: &'a mut Arena, cn: H, streams: Vec<(H, H)>) -> Self {
        Lift {
            a,
            env: HashMap::new(),
            cn,
            streams,
            free: HashMap::new(),
            memo: HashMap::new(),
        }
    }

    /// The lifted element of sequence `s`: the chunk at `k`.
    pub(super) fn seq(&mut self, s: H, k: H, let_values: &HashMap<VarId, H>) -> Option<H> {
        let s = resolve(self.a, let_values, s);
        match self.a.expr(s).clone() {
            Expr::Scalar(Scalar::Var(_)) => self.streams.iter().find(|(src, _)| *src == s).map(|(_, x)| *x),
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
