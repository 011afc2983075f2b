//! Sequences (`Seq<A>`, the paper "Functional Array Streams"): their
//! producers on arrays (`rows`, `to_seq`, `split`), and the methods of a sequence:
//! `map` and `zip_with` (whose closures are array programs of one element)
//! and the folds that consume it. `seq::lower` turns the folds into loops.

use super::ops::reduction;
use super::Lowerer;
use crate::error::{err, CResult};
use crate::ir::{Arena, ArrayOp, Expr, Fun, Prim, SeqOp, Ty, H};
use syn::spanned::Spanned;

/// The methods of a sequence, for the "no such method" message and the guide.
pub const SEQ_METHODS: &str =
    "map, zip_with, fold, fold_flatten, sum, product, minimum, maximum, collect, tabulate";

impl Lowerer<'_> {
    /// `a.rows()` and `a.to_seq()`: a sequence of `a`'s slices along its
    /// outermost dimension, or of its elements; `a.split([..])`, of its
    /// slices along the dimensions marked `Split`.
    pub(crate) fn seq_producer(&mut self, a: H, name: &str, m: &syn::ExprMethodCall) -> CResult<H> {
        let span = m.method.span();
        let (elem, rank) = self.array_ty(a, m.receiver.span(), name)?;
        if name == "split" {
            return self.split(a, rank, m);
        }
        if !m.args.is_empty() {
            return err(span, format!("`{name}` takes no arguments"));
        }
        let a = match (name, rank) {
            (_, 0) => {
                return err(
                    span,
                    format!("`{name}` splits an array along a dimension, but a Scalar has none"),
                )
            }
            // The elements in row-major order: slices of the flat array.
            ("to_seq", r) if r > 1 => {
                let sh = self.arena.shape(a);
                let n = self.arena.size_of(sh, r);
                let flat = self.arena.index(vec![n]);
                self.arena.add(
                    Expr::Array(ArrayOp::Reshape { shape: flat, a }),
                    Ty::array(elem.clone(), 1),
                    span,
                )
            }
            _ => a,
        };
        let rank = self.arena.arr_ty(a).1;
        Ok(self.arena.add(
            Expr::Seq(SeqOp::Slices { a }),
            Ty::seq(Ty::array(elem, rank - 1)),
            span,
        ))
    }

    /// `a.split([Split, All, ..])`: one mark per dimension of `a`. The
    /// sequence runs over the `Split` dimensions in row-major order; each
    /// element is the slice of the `All` dimensions there. It is the
    /// outermost slices of `a` with the split dimensions brought to the
    /// front and merged into one (a `backpermute` and a `reshape`, read
    /// where the elements are used).
    fn split(&mut self, a: H, rank: usize, m: &syn::ExprMethodCall) -> CResult<H> {
        let span = m.method.span();
        let marks = match m.args.first() {
            Some(syn::Expr::Array(xs)) if m.args.len() == 1 => xs,
            _ => return err(
                span,
                "`split` takes one mark per dimension: `m.split([All, Split])` is the columns of a matrix",
            ),
        };
        let mut split = Vec::new();
        for x in &marks.elems {
            match x {
                syn::Expr::Path(p) if p.path.is_ident("Split") => split.push(true),
                syn::Expr::Path(p) if p.path.is_ident("All") => split.push(false),
                _ => return err(x.span(), "expected `Split` or `All`"),
            }
        }
        if split.len() != rank {
            return err(
                marks.span(),
                format!(
                    "`split` takes one mark per dimension: {} given for an array of rank {rank}",
                    split.len()
                ),
            );
        }
        if !split.contains(&true) {
            return err(
                marks.span(),
                "`split` needs a dimension marked `Split` to run along",
            );
        }
        let elem = self.arena.arr_ty(a).0;
        let outer: Vec<usize> = (0..rank).filter(|d| split[*d]).collect();
        let inner: Vec<usize> = (0..rank).filter(|d| !split[*d]).collect();
        let order: Vec<usize> = outer.iter().chain(&inner).copied().collect();
        let sh = self.arena.shape(a);
        // The split dimensions first: dimension `d` of `a` is at `order`'s
        // position of `d` in the index of `b`.
        let b = if order.iter().enumerate().all(|(i, d)| i == *d) {
            a
        } else {
            let dims: Vec<H> = order.iter().map(|d| self.arena.comp(sh, *d)).collect();
            let dims = self.arena.index(dims);
            let f = self.arena.lam("ix", Ty::Index(rank), |x, ix| {
                let at: Vec<H> = (0..rank)
                    .map(|d| {
                        let i = order.iter().position(|o| *o == d).unwrap_or(d);
                        x.comp(ix, i)
                    })
                    .collect();
                x.index(at)
            });
            self.arena.add(
                Expr::Array(ArrayOp::Backpermute { shape: dims, f, a }),
                Ty::array(elem.clone(), rank),
                span,
            )
        };
        // The split dimensions merged into one.
        let c = if outer.len() == 1 {
            b
        } else {
            let bs = self.arena.shape(b);
            let lead: Vec<H> = (0..outer.len()).map(|i| self.arena.comp(bs, i)).collect();
            let lead = self.arena.index(lead);
            let n = self.arena.size_of(lead, outer.len());
            let mut dims = vec![n];
            dims.extend((outer.len()..rank).map(|i| self.arena.comp(bs, i)));
            let dims = self.arena.index(dims);
            self.arena.add(
                Expr::Array(ArrayOp::Reshape { shape: dims, a: b }),
                Ty::array(elem.clone(), inner.len() + 1),
                span,
            )
        };
        Ok(self.arena.add(
            Expr::Seq(SeqOp::Slices { a: c }),
            Ty::seq(Ty::array(elem, inner.len())),
            span,
        ))
    }

    pub(crate) fn seq_method(
        &mut self,
        s: H,
        name: &str,
        args: &[&syn::Expr],
        m: &syn::ExprMethodCall,
    ) -> CResult<H> {
        let span = m.method.span();
        self.no_array_ops_here(span, name)?;
        let Some(elem) = self.arena.ty(s).seq_elem().cloned() else {
            return err(span, "expected a sequence");
        };
        match name {
            "map" => {
                self.arity(m, args, 1)?;
                let f = self.element_program(args[0], &[elem])?;
                let out = self.arena.ty(f.body).clone();
                Ok(self.arena.add(Expr::Seq(SeqOp::Map { f, s }), Ty::seq(out), span))
            }
            "zip_with" => {
                self.arity(m, args, 2)?;
                let b = self.expr(args[0], None)?;
                let Some(eb) = self.arena.ty(b).seq_elem().cloned() else {
                    let t = self.arena.ty(b).clone();
                    return err(
                        args[0].span(),
                        format!(
                            "`zip_with` of a sequence takes another sequence, found `{t}`\nhelp: an array \
                             used by every element is read inside the closure: `s.map(|x| x.zip_with(v, ..))`"
                        ),
                    );
                };
                let f = self.element_program(args[1], &[elem, eb])?;
                let out = self.arena.ty(f.body).clone();
                Ok(self
                    .arena
                    .add(Expr::Seq(SeqOp::Zip { f, a: s, b }), Ty::seq(out), span))
            }
            "fold" if matches!(elem, Ty::Array(_, r) if r > 0) => {
                // A fold of arrays: `z` and the closure's result are arrays of
                // the elements' type; the closure is an array program.
                self.arity(m, args, 2)?;
                let z = self.expr(args[0], Some(&elem))?;
                let zt = self.arena.ty(z).clone();
                if zt != elem {
                    return err(
                        args[0].span(),
                        format!("the initial value of a fold of `{elem}` elements must be a `{elem}`, found `{zt}`"),
                    );
                }
                let f = self.element_program(args[1], &[elem.clone(), elem.clone()])?;
                let ft = self.arena.ty(f.body).clone();
                if ft != elem {
                    return err(
                        args[1].span(),
                        format!(
                            "the closure of a fold of `{elem}` elements must return a `{elem}`, found `{ft}`"
                        ),
                    );
                }
                let fold = SeqOp::Fold {
                    f,
                    z,
                    s,
                    flatten: false,
                };
                Ok(self.arena.add(Expr::Seq(fold), elem, span))
            }
            "fold_flatten" => {
                // Groups of consecutive vectors: their lengths and values.
                self.arity(m, args, 2)?;
                let Ty::Array(e, 1) = &elem else {
                    return err(
                        span,
                        format!("`fold_flatten` takes a sequence of vectors, but its elements are `{elem}`"),
                    );
                };
                let values = Ty::array((**e).clone(), 1);
                let z = self.expr(args[0], None)?;
                let zt = self.arena.ty(z).clone();
                if !zt.is_array() {
                    return err(
                        args[0].span(),
                        format!("the accumulator of `fold_flatten` is an array, found `{zt}`"),
                    );
                }
                let lens = Ty::array(Ty::Prim(Prim::Usize), 1);
                let f = self.element_program(args[1], &[zt.clone(), lens, values])?;
                let ft = self.arena.ty(f.body).clone();
                if ft != zt {
                    return err(
                        args[1].span(),
                        format!("the closure of `fold_flatten` must return its accumulator's type `{zt}`, found `{ft}`"),
                    );
                }
                let fold = SeqOp::Fold {
                    f,
                    z,
                    s,
                    flatten: true,
                };
                Ok(self.arena.add(Expr::Seq(fold), zt, span))
            }
            "fold" | "sum" | "product" | "minimum" | "maximum" => {
                let p = match &elem {
                    Ty::Array(e, 0) => (**e).clone(),
                    _ => {
                        return err(
                            span,
                            format!(
                                "`{name}` of a sequence combines scalars, but its elements are `{elem}`\n\
                                 help: reduce each element first, `s.map(|x| x.sum()).{name}()`, or fold the \
                                 arrays: `s.fold(z, |acc, x| acc.zip_with(x, |a, b| a + b))`"
                            ),
                        );
                    }
                };
                let (f, z) = if name == "fold" {
                    self.arity(m, args, 2)?;
                    let z = self.scalar_arg(args[0], &p)?;
                    let f = self.closure(args[1], &[p.clone(), p.clone()], Some(&p))?;
                    (f, z)
                } else {
                    self.arity(m, args, 0)?;
                    let Some(prim) = p.prim().filter(|q| name.ends_with("mum") || q.is_numeric()) else {
                        return err(
                            span,
                            format!("`{name}` needs a sequence of numbers, found `{elem}`"),
                        );
                    };
                    let (f, z) = reduction(&mut self.arena, name, prim, span);
                    let z = z.unwrap_or_else(|| {
                        let bits = extreme_bits(prim, name == "minimum");
                        self.arena.lit(prim, bits)
                    });
                    (f, z)
                };
                Ok(fold_scalars(&mut self.arena, f, z, s, span))
            }
            "collect" | "tabulate" => {
                self.arity(m, args, 0)?;
                let Ty::Array(e, r) = &elem else {
                    return err(span, "expected a sequence of arrays");
                };
                let tabulate = name == "tabulate";
                let ty = Ty::array((**e).clone(), if tabulate { r + 1 } else { 1 });
                Ok(self
                    .arena
                    .add(Expr::Seq(SeqOp::Collect { s, tabulate }), ty, span))
            }
            _ => err(
                span,
                format!("no method `{name}` on a sequence; sequences have: {SEQ_METHODS}"),
            ),
        }
    }

    /// A closure of a sequence's `map` or `zip_with`: an array program of
    /// its elements. A scalar result is a Scalar.
    fn element_program(&mut self, e: &syn::Expr, params: &[Ty]) -> CResult<Fun> {
        let saved = std::mem::replace(&mut self.element_program, true);
        let f = self.closure(e, params, None);
        self.element_program = saved;
        let f = f?;
        let t = self.arena.ty(f.body).clone();
        match t {
            Ty::Array(..) => Ok(f),
            t if t.is_elem() => {
                let shape = self.arena.index(vec![]);
                let body = self.arena.fill(shape, f.body);
                Ok(Fun {
                    params: f.params,
                    body,
                })
            }
            t => err(
                e.span(),
                format!("the elements of a sequence are arrays, but this closure returns `{t}`"),
            ),
        }
    }
}

/// The fold of a sequence of Scalars with scalar closure `f` from scalar `z`.
fn fold_scalars(a: &mut Arena, f: Fun, z: H, s: H, span: proc_macro2::Span) -> H {
    let scalar = Ty::array(a.ty(z).clone(), 0);
    let fold = SeqOp::Fold {
        f,
        z,
        s,
        flatten: false,
    };
    a.add(Expr::Seq(fold), scalar, span)
}

/// The identity of `min` (the largest value) or of `max` (the smallest).
pub(crate) fn extreme_bits(p: Prim, largest: bool) -> u64 {
    match (p, largest) {
        (Prim::Bool, largest) => largest as u64,
        (Prim::F32, true) => f32::INFINITY.to_bits() as u64,
        (Prim::F32, false) => f32::NEG_INFINITY.to_bits() as u64,
        (Prim::F64, true) => f64::INFINITY.to_bits(),
        (Prim::F64, false) => f64::NEG_INFINITY.to_bits(),
        (p, true) if p.is_signed() => (u64::MAX >> (65 - p.width())) & mask(p),
        (p, false) if p.is_signed() => (1u64 << (p.width() - 1)) & mask(p),
        (p, true) => mask(p),
        (_, false) => 0,
    }
}

fn mask(p: Prim) -> u64 {
    match p.width() {
        64 => u64::MAX,
        w => (1u64 << w) - 1,
    }
}
