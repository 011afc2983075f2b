//! Expand fusion: `xs[.map(f)].expand(count, value)[.map(g)]` consumed by a
//! `permute` or a `fold_all` becomes one `KernelOp::Expand`, so that neither
//! the expanded array nor the offsets of the counts are materialised.
//!
//! The front end desugars `expand` into an exclusive scan of the counts and a
//! generate whose element finds its source by binary search in the offsets
//! (`front/library.rs`). This pass recognises that generate by its shape:
//!
//! ```text
//! generate([total], |ix| let s = while(..binary search in offs..).0;
//!                        let x = xs[[s]];
//!                        let k = (ix.0 - offs[[s]]) as I;
//!                        body)                 // body reads neither s nor ix
//! offs = scan[Left, Exclusive](+, 0, map(count, xs)).0
//! ```
//!
//! and rebuilds `count`, `item = |x, k| body` and the source `xs` from it.
//! Anything else (sharing off, the expanded array used elsewhere, a permute
//! whose index function reads the expanded array other than at its own
//! position) keeps the unfused path.

use super::{cost, elem_fn, Arr, Fuser};
use crate::ir::{ArrayOp, BinOp, Expr, Fun, Prim, Scalar, ScanKind, Ty, VarId, H};
use crate::plan::{ExpandSink, KernelOp};
use std::collections::HashMap;

/// The cost (`super::cost`) up to which a producer before the expand is
/// computed in the fused kernel instead of stored: a dozen floating-point
/// operations.
const SOURCE_LIMIT: u32 = 100;

/// An `expand` recognised in the program.
struct Parts {
    /// The expanded vector.
    src: H,
    /// `|x| -> usize`.
    count: Fun,
    /// `x`'s variable in `body`.
    x: VarId,
    /// `k`'s variable in `body`, and its type.
    k: VarId,
    k_prim: Prim,
    body: H,
}

impl Fuser {
    /// `h` = `expansion[.map(g)..].permute(..)` fused, if it has that form.
    pub(super) fn expand_permute(&mut self, h: H) -> Option<Arr> {
        let Expr::Array(ArrayOp::Permute {
            combine,
            defaults,
            index,
            a,
        }) = self.arena.expr(h).clone()
        else {
            return None;
        };
        let (g, maps) = self.map_chain(a)?;
        // The index function may read the expanded array at its own position
        // (`|[j]| Some([ys[[j]].0])`): that read is the element itself.
        let ev = self.arena.new_var("e", self.elem_ty(g).0);
        let ix = *index.params.first()?;
        let reads_g = self.arena.reaches(index.body, |x, _| x == g);
        let index_body = if reads_g {
            self.replace_own_reads(index.body, g, ix, ev)?
        } else {
            index.body
        };
        let uses = self.uses.get(&g).copied().unwrap_or(0);
        if uses > 1 + usize::from(reads_g) {
            return None;
        }
        let parts = self.expand_parts(g)?;

        let (defaults_buf, move_defaults) = self.permute_defaults(defaults);
        let (shape, elem, ops, count, item, map) = self.expand_common(&parts, ev, &maps);
        // `index(e, j)`: the original index function at `[j]`.
        let j = self.arena.new_var("j", Ty::Prim(Prim::Usize));
        let jh = self.arena.var_ref(j);
        let at = self.make_index(vec![jh]);
        let body = self.arena.let_(ix, at, index_body);
        let index = self.fun(&Fun {
            params: vec![ev, j],
            body,
        });
        let combine = self.fun(&combine);
        let out_shape = self.buffer_shape(defaults_buf);
        let op = KernelOp::Expand {
            shape,
            elem,
            count,
            item,
            map,
            sink: ExpandSink::Permute {
                defaults: defaults_buf,
                move_defaults,
                index,
                combine,
            },
        };
        Some(Arr::Manifest(
            self.kernel(h, h, op, ops, "permute", &[out_shape])[0],
        ))
    }

    /// Fold `fold` (over everything) of `expansion[.map(g)..]`, followed by
    /// `post_maps`, computing node `h`, fused, if it has that form.
    pub(super) fn expand_fold(&mut self, h: H, fold: H, post_maps: &[Fun]) -> Option<Arr> {
        // Over everything, or along the innermost dimension of the expanded
        // vector, which is the same.
        let Expr::Array(ArrayOp::Fold { f, z, a, .. }) = self.arena.expr(fold).clone() else {
            return None;
        };
        let (g, maps) = self.map_chain(a)?;
        if self.uses.get(&g).copied().unwrap_or(0) > 1 {
            return None;
        }
        let parts = self.expand_parts(g)?;
        let ev = self.arena.new_var("e", self.elem_ty(g).0);
        let (shape, elem, mut ops, count, item, map) = self.expand_common(&parts, ev, &maps);
        let z = z.map(|z| self.scalar(z));
        let f = self.fun(&f);
        let post = self.post(post_maps);
        let name = if z.is_some() { "fold_all" } else { "fold1_all" };
        if !post_maps.is_empty() {
            ops.push(name);
        }
        let out_shape = self.make_index(vec![]);
        let op = KernelOp::Expand {
            shape,
            elem,
            count,
            item,
            map,
            sink: ExpandSink::Fold { z, f, post },
        };
        let last = if post_maps.is_empty() { name } else { "map" };
        Some(Arr::Manifest(
            self.kernel(h, fold, op, ops, last, &[out_shape])[0],
        ))
    }

    /// `a` = `g.map(m1)..map(mn)` (n ≥ 0) where each map is used only by the
    /// next and `g` is not yet materialised: `g` and the maps, innermost first.
    fn map_chain(&self, a: H) -> Option<(H, Vec<Fun>)> {
        if !self.opts.fusion || !self.opts.expand_fusion {
            return None;
        }
        let mut maps = Vec::new();
        let mut x = a;
        while let Expr::Array(ArrayOp::Map { f, a }) = self.arena.expr(x) {
            if self.manifest.contains_key(&x) || self.uses.get(&x).copied().unwrap_or(0) > 1 {
                return None;
            }
            maps.push(f.clone());
            x = *a;
        }
        maps.reverse();
        (!self.manifest.contains_key(&x)
            && matches!(self.arena.expr(x), Expr::Array(ArrayOp::Generate { .. })))
        .then_some((x, maps))
    }

    /// The source, its element function, the fused operations so far, and the
    /// kernel's `count`, `item` and `map` functions.
    #[allow(clippy::type_complexity)]
    fn expand_common(
        &mut self,
        p: &Parts,
        ev: VarId,
        maps: &[Fun],
    ) -> (H, crate::plan::ElemFn, Vec<&'static str>, Fun, Fun, Fun) {
        // The source's element is computed twice (counting, then expanding),
        // but the counting pass keeps only what the count reads (the code
        // generators inline it, and the compiler drops the rest): store the
        // source only when it is dear (loops, many math functions).
        // (Its two uses, the counts and the element, are both in this kernel.)
        let mut d = match self.manifest.get(&p.src) {
            Some(&b) => self.view(b),
            None => match self.produce(p.src) {
                Arr::Delayed(d) => d,
                Arr::Manifest(b) => {
                    self.manifest.insert(p.src, b);
                    self.view(b)
                }
            },
        };
        if cost(&self.arena, d.index.body) > SOURCE_LIMIT {
            let b = self.materialise(p.src, d);
            d = self.view(b);
        }
        let count = self.fun(&p.count);
        let k = self.arena.new_var("k", Ty::Prim(Prim::Usize));
        let kh = self.arena.var_ref(k);
        let kv = if p.k_prim == Prim::Usize {
            kh
        } else {
            self.arena.cast(kh, p.k_prim)
        };
        let body = self.arena.let_(p.k, kv, p.body);
        let item = self.fun(&Fun {
            params: vec![p.x, k],
            body,
        });
        let mut body = self.arena.var_ref(ev);
        for m in maps {
            body = self.arena.apply(m, &[body]);
        }
        let map = self.fun(&Fun {
            params: vec![ev],
            body,
        });
        let mut ops = d.ops.clone();
        ops.push("expand");
        ops.extend(maps.iter().map(|_| "map"));
        (d.shape, elem_fn(&d), ops, count, item, map)
    }

    /// The parts of `g` if it is the generate of a desugared `expand`.
    fn expand_parts(&self, g: H) -> Option<Parts> {
        let a = &self.arena;
        let Expr::Array(ArrayOp::Generate { f, .. }) = a.expr(g) else {
            return None;
        };
        let [ix] = f.params[..] else { return None };
        let Expr::Scalar(Scalar::Let {
            var: s,
            value: sv,
            body: b1,
        }) = a.expr(f.body).clone()
        else {
            return None;
        };
        let Expr::Scalar(Scalar::Proj(w, 0)) = a.expr(sv) else {
            return None;
        };
        if !matches!(a.expr(*w), Expr::Scalar(Scalar::While { vars, .. }) if vars.len() == 2) {
            return None;
        }
        let is_var = |h: H, v: VarId| matches!(a.expr(h), Expr::Scalar(Scalar::Var(u)) if *u == v);
        // `[s]`: the read of the source's element.
        let at_s = |h: H| matches!(a.expr(h), Expr::Scalar(Scalar::MakeIndex(xs)) if xs.len() == 1 && is_var(xs[0], s));
        let Expr::Scalar(Scalar::Let {
            var: x,
            value: xv,
            body: b2,
        }) = a.expr(b1).clone()
        else {
            return None;
        };
        let Expr::Scalar(Scalar::Read { array: src, index }) = a.expr(xv).clone() else {
            return None;
        };
        if !at_s(index) {
            return None;
        }
        let Expr::Scalar(Scalar::Let {
            var: k,
            value: kv,
            body,
        }) = a.expr(b2).clone()
        else {
            return None;
        };
        let k_prim = a.ty(kv).prim()?;
        let diff = match a.expr(kv) {
            Expr::Scalar(Scalar::Cast(d, _)) => *d,
            _ => kv,
        };
        let Expr::Scalar(Scalar::Binary(BinOp::Sub, pos, start)) = a.expr(diff).clone() else {
            return None;
        };
        if !matches!(a.expr(pos), Expr::Scalar(Scalar::Proj(v, 0)) if is_var(*v, ix)) {
            return None;
        }
        let Expr::Scalar(Scalar::Read { array: offs, index }) = a.expr(start).clone() else {
            return None;
        };
        if !at_s(index) {
            return None;
        }
        let Expr::Scalar(Scalar::Proj(scan, 0)) = a.expr(offs) else {
            return None;
        };
        let Expr::Array(ArrayOp::Scan {
            kind: ScanKind::Exclusive,
            a: counts,
            ..
        }) = a.expr(*scan)
        else {
            return None;
        };
        let Expr::Array(ArrayOp::Map { f: count, a: src2 }) = a.expr(*counts) else {
            return None;
        };
        if *src2 != src || a.mentions(body, s) || a.mentions(body, ix) {
            return None;
        }
        Some(Parts {
            src,
            count: count.clone(),
            x,
            k,
            k_prim,
            body,
        })
    }

    /// `h` with every read of `g` at the permute's own position (`g[ix]` or
    /// `g[[ix.0]]`, also through a `let j = ix.0`) replaced by `ev`; `None`
    /// when `h` reads `g` anywhere else.
    fn replace_own_reads(&mut self, h: H, g: H, ix: VarId, ev: VarId) -> Option<H> {
        // Variables bound to `ix.0`.
        let mut pos_vars = Vec::new();
        let mut stack = vec![h];
        let mut seen = std::collections::HashSet::new();
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let e = self.arena.expr(n);
            if let Expr::Scalar(Scalar::Let { var, value, .. }) = e {
                if self.is_ix0(*value, ix) {
                    pos_vars.push(*var);
                }
            }
            stack.extend(e.children());
        }
        let mut memo = HashMap::new();
        self.replace_reads_in(h, g, ix, ev, &pos_vars, &mut memo)
    }

    fn is_ix0(&self, h: H, ix: VarId) -> bool {
        matches!(self.arena.expr(h), Expr::Scalar(Scalar::Proj(v, 0)) if matches!(self.arena.expr(*v), Expr::Scalar(Scalar::Var(u)) if *u == ix))
    }

    fn replace_reads_in(
        &mut self,
        h: H,
        g: H,
        ix: VarId,
        ev: VarId,
        pos_vars: &[VarId],
        memo: &mut HashMap<H, Option<H>>,
    ) -> Option<H> {
        if let Some(r) = memo.get(&h) {
            return *r;
        }
        let e = self.arena.expr(h).clone();
        let r = match &e {
            Expr::Scalar(Scalar::Read { array, index }) if *array == g => {
                let own = match self.arena.expr(*index) {
                    Expr::Scalar(Scalar::Var(v)) => *v == ix,
                    Expr::Scalar(Scalar::MakeIndex(xs)) if xs.len() == 1 => {
                        self.is_ix0(xs[0], ix)
                            || matches!(self.arena.expr(xs[0]), Expr::Scalar(Scalar::Var(v)) if pos_vars.contains(v))
                    }
                    _ => false,
                };
                own.then(|| self.arena.var_ref(ev))
            }
            _ if h == g => None,
            _ => {
                let mut ok = true;
                let new = e.map_children(|c| match self.replace_reads_in(c, g, ix, ev, pos_vars, memo) {
                    Some(c) => c,
                    None => {
                        ok = false;
                        c
                    }
                });
                if !ok {
                    None
                } else if new == e {
                    Some(h)
                } else {
                    let ty = self.arena.ty(h).clone();
                    Some(self.add_at(new, ty, h))
                }
            }
        };
        memo.insert(h, r);
        r
    }
}
