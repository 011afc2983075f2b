//! Typed constructors for building IR by hand: the front end's library of
//! derived operations (`reverse`, `filter`, `sort`, ...) is written with them
//! on top of the primitives, as Accelerate builds its library on a small core.
//!
//! Every constructor computes its node's type; spans are the arena's build
//! span: the call site, or, while the front end expands a library call
//! (`xs.reverse()`), that call, where its run-time errors are reported.

use super::{
    Arena, ArrayOp, BinOp, ErrorKind, Expr, Fun, Lit, MathFn, Prim, Scalar, ScanDir, ScanKind, Ty, UnOp, H,
};

impl Arena {
    pub fn node(&mut self, e: Expr, ty: Ty) -> H {
        let span = self.build_span();
        self.add(e, ty, span)
    }

    /// A closure of one parameter whose body `body(param)` builds.
    pub fn lam(&mut self, name: &str, ty: Ty, body: impl FnOnce(&mut Arena, H) -> H) -> Fun {
        let v = self.new_var(name, ty);
        let vh = self.var_ref(v);
        let b = body(self, vh);
        Fun {
            params: vec![v],
            body: b,
        }
    }

    /// A closure of two parameters.
    pub fn lam2(
        &mut self,
        (n1, t1): (&str, Ty),
        (n2, t2): (&str, Ty),
        body: impl FnOnce(&mut Arena, H, H) -> H,
    ) -> Fun {
        let (v1, v2) = (self.new_var(n1, t1), self.new_var(n2, t2));
        let (h1, h2) = (self.var_ref(v1), self.var_ref(v2));
        let b = body(self, h1, h2);
        Fun {
            params: vec![v1, v2],
            body: b,
        }
    }

    /// `let x = value in body(x)`: shares a scalar value between several uses.
    pub fn let_in(&mut self, name: &str, value: H, body: impl FnOnce(&mut Arena, H) -> H) -> H {
        let ty = self.ty(value).clone();
        let v = self.new_var(name, ty);
        let vh = self.var_ref(v);
        let b = body(self, vh);
        self.let_(v, value, b)
    }

    pub fn lit_of(&mut self, prim: Prim, v: i64) -> H {
        let bits = match prim {
            Prim::F32 => (v as f32).to_bits() as u64,
            Prim::F64 => (v as f64).to_bits(),
            Prim::Bool => (v != 0) as u64,
            _ => v as u64 & mask(prim),
        };
        self.node(Expr::Scalar(Scalar::Lit(Lit { prim, bits })), Ty::Prim(prim))
    }

    pub fn bool_lit(&mut self, b: bool) -> H {
        self.lit(Prim::Bool, b as u64)
    }

    /// The zero of an element type (`false` for `bool`, tuples of zeros).
    pub fn zero_of(&mut self, t: &Ty) -> H {
        match t {
            Ty::Prim(p) => self.lit_of(*p, 0),
            Ty::Tuple(ts) => {
                let xs = ts.iter().map(|t| self.zero_of(t)).collect();
                self.node(Expr::Scalar(Scalar::Tuple(xs)), t.clone())
            }
            Ty::Index(r) => {
                let z = self.usize_lit(0);
                self.index(vec![z; *r])
            }
            _ => self.node(Expr::Scalar(Scalar::Tuple(vec![])), Ty::Tuple(vec![])),
        }
    }

    pub fn bin(&mut self, op: BinOp, a: H, b: H) -> H {
        self.binary(op, a, b)
    }

    pub fn add_(&mut self, a: H, b: H) -> H {
        self.binary(BinOp::Add, a, b)
    }

    pub fn sub_(&mut self, a: H, b: H) -> H {
        self.binary(BinOp::Sub, a, b)
    }

    pub fn not_(&mut self, a: H) -> H {
        let t = self.ty(a).clone();
        self.node(Expr::Scalar(Scalar::Unary(UnOp::Not, a)), t)
    }

    pub fn min_(&mut self, a: H, b: H) -> H {
        let t = self.ty(a).clone();
        self.node(Expr::Scalar(Scalar::Math(MathFn::Min, vec![a, b])), t)
    }

    pub fn cast(&mut self, x: H, to: Prim) -> H {
        if self.ty(x) == &Ty::Prim(to) {
            return x;
        }
        self.node(Expr::Scalar(Scalar::Cast(x, to)), Ty::Prim(to))
    }

    pub fn if_(&mut self, c: H, t: H, e: H) -> H {
        let ty = self.ty(t).clone();
        self.node(Expr::Scalar(Scalar::If(c, t, e)), ty)
    }

    pub fn tuple(&mut self, xs: Vec<H>) -> H {
        let ty = Ty::Tuple(xs.iter().map(|x| self.ty(*x).clone()).collect());
        self.node(Expr::Scalar(Scalar::Tuple(xs)), ty)
    }

    pub fn index(&mut self, xs: Vec<H>) -> H {
        let r = xs.len();
        self.node(Expr::Scalar(Scalar::MakeIndex(xs)), Ty::Index(r))
    }

    /// Component `d` of an index or shape.
    pub fn comp(&mut self, ix: H, d: usize) -> H {
        if let Expr::Scalar(Scalar::MakeIndex(xs)) = self.expr(ix) {
            return xs[d];
        }
        self.node(Expr::Scalar(Scalar::Proj(ix, d)), Ty::Prim(Prim::Usize))
    }

    /// The components of an index of rank `r`.
    pub fn comps(&mut self, ix: H, r: usize) -> Vec<H> {
        (0..r).map(|d| self.comp(ix, d)).collect()
    }

    pub fn some(&mut self, x: H) -> H {
        let t = self.ty(x).clone();
        self.node(Expr::Scalar(Scalar::Some(x)), Ty::Option(Box::new(t)))
    }

    pub fn none(&mut self, t: Ty) -> H {
        let o = Ty::Option(Box::new(t));
        self.node(Expr::Scalar(Scalar::None(o.clone())), o)
    }

    /// `body` after checking `cond` (an `InvalidArgument` error if it fails).
    pub fn assert(&mut self, cond: H, op: &'static str, msg: &'static str, body: H) -> H {
        self.assert_kind(cond, ErrorKind::InvalidArgument, op, msg, body)
    }

    pub fn assert_kind(
        &mut self,
        cond: H,
        kind: ErrorKind,
        op: &'static str,
        msg: &'static str,
        body: H,
    ) -> H {
        let ty = self.ty(body).clone();
        self.node(
            Expr::Scalar(Scalar::Assert {
                cond,
                kind,
                op,
                msg,
                body,
            }),
            ty,
        )
    }

    // ---- arrays ---------------------------------------------------------------

    pub fn arr_ty(&self, a: H) -> (Ty, usize) {
        match self.ty(a) {
            Ty::Array(e, r) => ((**e).clone(), *r),
            _ => (Ty::Tuple(vec![]), 0),
        }
    }

    pub fn shape(&mut self, a: H) -> H {
        let (_, r) = self.arr_ty(a);
        self.node(Expr::Scalar(Scalar::Shape(a)), Ty::Index(r))
    }

    /// Extent of dimension `d` of array `a`.
    pub fn extent(&mut self, a: H, d: usize) -> H {
        let s = self.shape(a);
        self.comp(s, d)
    }

    /// The number of elements of a shape of rank `r`.
    pub fn size_of(&mut self, shape: H, r: usize) -> H {
        let mut n = self.usize_lit(1);
        for d in 0..r {
            let c = self.comp(shape, d);
            n = if d == 0 { c } else { self.binary(BinOp::Mul, n, c) };
        }
        n
    }

    /// `a[ix]`, bounds-checked.
    pub fn read(&mut self, a: H, ix: H) -> H {
        let (e, _) = self.arr_ty(a);
        self.node(Expr::Scalar(Scalar::Read { array: a, index: ix }), e)
    }

    /// `a[[i]]` of a vector.
    pub fn read1(&mut self, a: H, i: H) -> H {
        let ix = self.index(vec![i]);
        self.read(a, ix)
    }

    pub fn generate(&mut self, shape: H, f: Fun) -> H {
        let Ty::Index(r) = self.ty(shape).clone() else {
            unreachable!("generate over a non-shape")
        };
        let e = self.ty(f.body).clone();
        self.node(Expr::Array(ArrayOp::Generate { shape, f }), Ty::array(e, r))
    }

    /// `generate(shape, |ix| body(ix))`.
    pub fn generate_with(&mut self, shape: H, body: impl FnOnce(&mut Arena, H) -> H) -> H {
        let t = self.ty(shape).clone();
        let f = self.lam("ix", t, body);
        self.generate(shape, f)
    }

    pub fn fill(&mut self, shape: H, v: H) -> H {
        self.generate_with(shape, |_, _| v)
    }

    pub fn map(&mut self, a: H, body: impl FnOnce(&mut Arena, H) -> H) -> H {
        let (e, r) = self.arr_ty(a);
        let f = self.lam("x", e, body);
        let out = self.ty(f.body).clone();
        self.node(Expr::Array(ArrayOp::Map { f, a }), Ty::array(out, r))
    }

    pub fn zip_with(&mut self, a: H, b: H, body: impl FnOnce(&mut Arena, H, H) -> H) -> H {
        let ((ea, r), (eb, _)) = (self.arr_ty(a), self.arr_ty(b));
        let f = self.lam2(("x", ea), ("y", eb), body);
        let out = self.ty(f.body).clone();
        self.node(Expr::Array(ArrayOp::ZipWith { f, a, b }), Ty::array(out, r))
    }

    /// `backpermute(shape, |ix| src(ix))`.
    pub fn backpermute(&mut self, a: H, shape: H, src: impl FnOnce(&mut Arena, H) -> H) -> H {
        let (e, _) = self.arr_ty(a);
        let Ty::Index(r) = self.ty(shape).clone() else {
            unreachable!("backpermute to a non-shape")
        };
        let f = self.lam("ix", Ty::Index(r), src);
        self.node(Expr::Array(ArrayOp::Backpermute { shape, f, a }), Ty::array(e, r))
    }

    pub fn reshape(&mut self, a: H, shape: H) -> H {
        let (e, _) = self.arr_ty(a);
        let Ty::Index(r) = self.ty(shape).clone() else {
            unreachable!("reshape to a non-shape")
        };
        self.node(Expr::Array(ArrayOp::Reshape { shape, a }), Ty::array(e, r))
    }

    /// The binary operator closure `|x, y| body(x, y)` over elements of type `t`.
    pub fn op2(&mut self, t: &Ty, body: impl FnOnce(&mut Arena, H, H) -> H) -> Fun {
        self.lam2(("x", t.clone()), ("y", t.clone()), body)
    }

    pub fn fold(&mut self, a: H, z: Option<H>, f: Fun, all: bool) -> H {
        let (e, r) = self.arr_ty(a);
        let out = if all { 0 } else { r - 1 };
        self.node(Expr::Array(ArrayOp::Fold { f, z, a, all }), Ty::array(e, out))
    }

    pub fn scan(&mut self, a: H, dir: ScanDir, kind: ScanKind, z: Option<H>, f: Fun) -> H {
        let (e, r) = self.arr_ty(a);
        let ty = match kind {
            ScanKind::Exclusive => Ty::Tuple(vec![Ty::array(e.clone(), r), Ty::array(e, r - 1)]),
            _ => Ty::array(e, r),
        };
        self.node(Expr::Array(ArrayOp::Scan { dir, kind, f, z, a }), ty)
    }

    /// The exclusive running sum of a `usize` vector and its total (a Scalar).
    pub fn prefix_sum(&mut self, a: H) -> (H, H) {
        let zero = self.usize_lit(0);
        let plus = self.op2(&Ty::Prim(Prim::Usize), |b, x, y| b.add_(x, y));
        let s = self.scan(a, ScanDir::Left, ScanKind::Exclusive, Some(zero), plus);
        let offsets = self.proj(s, 0);
        let total = self.proj(s, 1);
        (offsets, total)
    }

    /// The value of a Scalar array.
    pub fn value(&mut self, s: H) -> H {
        let ix = self.index(vec![]);
        self.read(s, ix)
    }

    /// `a.permute(defaults, index, combine)` where the source index has rank `r`.
    pub fn permute(&mut self, a: H, defaults: H, index: Fun, combine: Fun) -> H {
        let ty = self.ty(defaults).clone();
        self.node(
            Expr::Array(ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            }),
            ty,
        )
    }

    /// Vector `a` sorted stably by `key`, an unsigned integer.
    pub fn sort_by(&mut self, a: H, key: Fun) -> H {
        let ty = self.ty(a).clone();
        self.node(Expr::Array(ArrayOp::Sort { key, a }), ty)
    }

    /// A scatter: each source element replaces its target (which one wins when
    /// targets repeat is unspecified).
    pub fn scatter_by(&mut self, a: H, defaults: H, index: impl FnOnce(&mut Arena, H) -> H) -> H {
        let (e, r) = self.arr_ty(a);
        let index = self.lam("ix", Ty::Index(r), index);
        let combine = self.op2(&e, |_, new, _old| new);
        self.permute(a, defaults, index, combine)
    }

    /// A scalar `while` loop over `state` (initial values); `cond` and `step`
    /// see the state variables.
    pub fn while_(
        &mut self,
        names: &[&str],
        init: Vec<H>,
        cond: impl FnOnce(&mut Arena, &[H]) -> H,
        step: impl FnOnce(&mut Arena, &[H]) -> Vec<H>,
    ) -> H {
        let vars: Vec<_> = names
            .iter()
            .zip(&init)
            .map(|(n, x)| {
                let t = self.ty(*x).clone();
                self.new_var(*n, t)
            })
            .collect();
        let hs: Vec<H> = vars.iter().map(|v| self.var_ref(*v)).collect();
        let c = cond(self, &hs);
        let s = step(self, &hs);
        let ty = Ty::Tuple(init.iter().map(|x| self.ty(*x).clone()).collect());
        self.node(
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond: c,
                step: s,
                pulls: vec![],
            }),
            ty,
        )
    }
}

fn mask(p: Prim) -> u64 {
    match p.width() {
        64 => u64::MAX,
        b => (1u64 << b) - 1,
    }
}
