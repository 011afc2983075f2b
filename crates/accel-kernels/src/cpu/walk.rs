//! A materialised `expand`'s source search, walked instead of repeated.
//!
//! The front end desugars `xs.expand(count, value)` into an exclusive prefix
//! sum of the counts and a generate whose element `j` finds its source by a
//! binary search in those offsets (`front/library.rs`): the last `s` with
//! `offs[s] <= j`. Fused into a permute or a fold, the plan drops the search
//! (`KernelOp::Expand`); stored as an array, it stays, and costs a dozen
//! dependent reads per element, most of them cache misses once the offsets
//! outgrow the cache.
//!
//! A thread of the CPU back end computes neighbouring elements in increasing
//! order, and the search's answer can only grow with `j`: so each thread
//! searches once, for the first element of its range, and then walks: from
//! the previous answer `s`, it steps while `offs[s + 1] <= j`. The walk reads
//! the offsets in order and takes as many steps over a range as the range
//! has sources, so the elements cost no search at all.
//!
//! That is exact when the offsets never decrease: the plan shows it, as the
//! search's array is the exclusive left scan of `usize` values by `+` from 0
//! (a prefix sum of counts, which wraps only past a total of 2^64 elements).
//! The search must be the front end's, over `0..n` for an `n` that does not
//! depend on the element, keyed by the element's own position.

use super::{Capture, Gen};
use crate::host::Scalars;
use accel_core::ir::{
    Arena, BinOp, BufId, Expr, Fun, PlanRead, Prim, Scalar, ScanDir, ScanKind, Ty, VarId, H,
};
use accel_core::plan::{ElemFn, KernelOp};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;

/// A binary search that a generate's threads may walk.
pub(super) struct Search {
    /// `search.0`: the node whose value the walk gives.
    node: H,
    /// The searched range's end (the search is over `0..n`).
    n: H,
    /// The key: the element's position.
    key: H,
    /// The buffer of offsets searched.
    offs: u32,
}

impl Gen<'_> {
    /// The walkable search in element function `e` of a vector generate, if
    /// it has one.
    pub(super) fn walked_search(&self, e: &ElemFn, rank: usize) -> Option<Search> {
        if rank != 1 {
            return None;
        }
        let (ElemFn::Linear(f) | ElemFn::Index(f)) = e;
        let p = *f.params.first()?;
        let a = self.a;
        let mut found = None;
        a.reaches(f.body, |h, x| {
            if let Expr::Scalar(Scalar::Proj(w, 0)) = x {
                if let Some(s) = self.search(h, *w, p, f.body) {
                    found = Some(s);
                    return true;
                }
            }
            false
        });
        let s = found?;
        // The walk replaces `search.0`: the loop must have no other use.
        let w = a_while(a, s.node);
        let other_use = a.reaches(f.body, |h, x| h != s.node && x.children().contains(&w));
        (!other_use).then_some(s)
    }

    /// `node` = `w.0` as a walkable search, `w` being
    /// `while (lo, hi) = (0, n); hi - lo > 1 { mid = (lo + hi) / 2; if offs[mid] <= key { (mid, hi) } else { (lo, mid) } }`.
    fn search(&self, node: H, w: H, p: VarId, body: H) -> Option<Search> {
        let a = self.a;
        let Expr::Scalar(Scalar::While {
            vars,
            init,
            cond,
            step,
            pulls,
        }) = a.expr(w)
        else {
            return None;
        };
        let (&[lo, hi], &[zero, n], &[s0, s1]) = (&vars[..], &init[..], &step[..]) else {
            return None;
        };
        if !pulls.is_empty() || !is_lit(a, zero, 0) || !free_of_vars(a, n) {
            return None;
        }
        let is_var = |h: H, v: VarId| matches!(a.expr(h), Expr::Scalar(Scalar::Var(u)) if *u == v);
        let bin = |h: H, op: BinOp| match a.expr(h) {
            Expr::Scalar(Scalar::Binary(o, x, y)) if *o == op => Some((*x, *y)),
            _ => None,
        };
        let (width, one) = bin(*cond, BinOp::Gt)?;
        let (h1, l1) = bin(width, BinOp::Sub)?;
        if !(is_var(h1, hi) && is_var(l1, lo) && is_lit(a, one, 1)) {
            return None;
        }
        let Expr::Scalar(Scalar::If(c, mid, keep_lo)) = *a.expr(s0) else {
            return None;
        };
        let Expr::Scalar(Scalar::If(c1, keep_hi, mid1)) = *a.expr(s1) else {
            return None;
        };
        if c1 != c || mid1 != mid || !is_var(keep_lo, lo) || !is_var(keep_hi, hi) {
            return None;
        }
        let (sum, two) = bin(mid, BinOp::Div)?;
        let (l2, h2) = bin(sum, BinOp::Add)?;
        if !(is_var(l2, lo) && is_var(h2, hi) && is_lit(a, two, 2)) {
            return None;
        }
        let (read, key) = bin(c, BinOp::Le)?;
        if !self.own_position(key, p, body) {
            return None;
        }
        let offs = self.read_at(read, mid)?;
        self.never_decreasing(offs)
            .then_some(Search { node, n, key, offs })
    }

    /// Whether `key` is the position of the element of the vector generate
    /// whose element function has parameter `p` and body `body`: `p` itself
    /// (a linear offset) or `p.0` (an index), where `let`s in `body` may
    /// rename `p` and build the index from the offset (`let ix = [p]`).
    fn own_position(&self, key: H, p: VarId, body: H) -> bool {
        let a = self.a;
        let mut lets = HashMap::new();
        a.reaches(body, |_, e| {
            if let Expr::Scalar(Scalar::Let { var, value, .. }) = e {
                lets.insert(*var, *value);
            }
            false
        });
        // What `h` stands for, through the `let`s that name it.
        let resolve = |mut h: H| {
            while let Expr::Scalar(Scalar::Var(v)) = a.expr(h) {
                match lets.get(v) {
                    Some(&value) => h = value,
                    None => break,
                }
            }
            h
        };
        let is_p = |h: H| matches!(a.expr(resolve(h)), Expr::Scalar(Scalar::Var(v)) if *v == p);
        let offset = a.var(p).ty == Ty::Prim(Prim::Usize);
        match a.expr(resolve(key)) {
            Expr::Scalar(Scalar::Var(v)) => *v == p && offset,
            Expr::Scalar(Scalar::Proj(x, 0)) => match a.expr(resolve(*x)) {
                Expr::Scalar(Scalar::Var(v)) => *v == p && a.var(p).ty == Ty::Index(1),
                Expr::Scalar(Scalar::MakeIndex(xs)) => offset && xs.len() == 1 && is_p(xs[0]),
                _ => false,
            },
            _ => false,
        }
    }

    /// The buffer that `read` reads at vector position `at`, if it is such a
    /// read.
    fn read_at(&self, read: H, at: H) -> Option<u32> {
        let a = self.a;
        let at_index = |ix: H| matches!(a.expr(ix), Expr::Scalar(Scalar::MakeIndex(xs)) if xs[..] == [at]);
        let buffer = |arr: H| match a.expr(arr) {
            Expr::Plan(PlanRead::Buffer(b)) => Some(b.0),
            _ => None,
        };
        match a.expr(read) {
            Expr::Plan(PlanRead::Checked { index, var, body, .. }) if at_index(*index) => match a.expr(*body)
            {
                Expr::Plan(PlanRead::ReadIndex { array, index }) if matches!(a.expr(*index), Expr::Scalar(Scalar::Var(v)) if v == var) => {
                    buffer(*array)
                }
                _ => None,
            },
            Expr::Plan(PlanRead::ReadIndex { array, index }) if at_index(*index) => buffer(*array),
            Expr::Plan(PlanRead::ReadLinear { array, index }) if *index == at => buffer(*array),
            _ => None,
        }
    }

    /// Whether buffer `b` is a prefix sum that never decreases: the exclusive
    /// left scan of `usize` values by `+` from `0`.
    fn never_decreasing(&self, b: u32) -> bool {
        let buffer = &self.plan.buffers[BufId(b)];
        if buffer.rank != 1 || buffer.elem != Ty::Prim(Prim::Usize) {
            return false;
        }
        self.plan.kernels().any(|k| {
            k.outputs.first() == Some(&BufId(b))
                && matches!(&k.op, KernelOp::Scan {
                    dir: ScanDir::Left,
                    kind: ScanKind::Exclusive,
                    z: Some(z),
                    f,
                    ..
                } if is_lit(self.a, *z, 0) && is_sum(self.a, f))
        })
    }

    /// The value of the search at `s.node`, found by walking from the
    /// previous element's answer in `*__cur` (`usize::MAX` before the
    /// range's first element, which searches as the program does).
    pub(super) fn walk_value(&self, s: &Search) -> TokenStream {
        let search = self.expr(s.node);
        let (n, key) = (self.expr(s.n), self.expr(s.key));
        let len = crate::host::buf_shape(s.offs);
        let next = self.read(s.offs, quote!(__s + 1));
        quote!({
            let __n: usize = #n;
            let __s: usize = if *__cur == usize::MAX || __n > #len[0] {
                #search
            } else {
                let __key: usize = #key;
                let mut __s: usize = *__cur;
                while __s + 1 < __n && #next <= __key {
                    __s += 1;
                }
                __s
            };
            *__cur = __s;
            __s
        })
    }

    /// The call of [`generate_walk`](accel_runtime::cpu::generate_walk) for
    /// a vector generate whose element function `e` has the walkable
    /// search `s`.
    pub(super) fn walk_call(
        &self,
        e: &ElemFn,
        s: &Search,
        shape: &proc_macro2::Ident,
        cols: &TokenStream,
    ) -> TokenStream {
        let rt = self.rt;
        let value = self.walk_value(s);
        self.lane_values.borrow_mut().insert(s.node, value);
        let f = self.elem_closure(e, shape, Capture::Borrow);
        self.lane_values.borrow_mut().remove(&s.node);
        quote!(#rt::cpu::generate_walk::<#cols>(#rt::shape::size(&#shape), |__cur: &mut usize, __wi: usize| ({ #f })(__wi)))
    }
}

/// The loop that `node` = `w.0` projects.
fn a_while(a: &Arena, node: H) -> H {
    match a.expr(node) {
        Expr::Scalar(Scalar::Proj(w, _)) => *w,
        _ => node,
    }
}

fn is_lit(a: &Arena, h: H, value: u64) -> bool {
    matches!(a.expr(h), Expr::Scalar(Scalar::Lit(l)) if l.bits == value)
}

/// Whether `h` reads no variable (its value is the same for every element).
fn free_of_vars(a: &Arena, h: H) -> bool {
    !a.reaches(h, |_, e| matches!(e, Expr::Scalar(Scalar::Var(_))))
}

/// Whether `f` is `|x, y| x + y` (either way round).
fn is_sum(a: &Arena, f: &Fun) -> bool {
    let [x, y] = f.params[..] else { return false };
    match a.expr(f.body) {
        Expr::Scalar(Scalar::Binary(BinOp::Add, l, r)) => {
            let v = |h: &H| match a.expr(*h) {
                Expr::Scalar(Scalar::Var(v)) => Some(*v),
                _ => None,
            };
            matches!((v(l), v(r)), (Some(l), Some(r)) if (l, r) == (x, y) || (l, r) == (y, x))
        }
        _ => false,
    }
}
