//! A tiny straight-line IR in which every math function is written once.
//! It has two back ends: PTX text (`emit.rs`) and a Rust evaluator (`eval.rs`)
//! that performs the same IEEE operations, so the functions are tested on the
//! CPU and the PTX translation stays one instruction per IR op.

/// Register types. Integers are bit types; signedness lives in the op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    F32,
    F64,
    B32,
    B64,
    Pred,
    /// Control instructions (skips and labels) define no value.
    Void,
}

/// A value: the index of the instruction that defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V(pub u32);

/// Rounding to an integral value (`cvt.rni/rmi/rpi/rzi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    Nearest,
    Down,
    Up,
    Zero,
}

/// Float comparisons: ordered ones are false on NaN, `u` ones true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub enum FCmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Neu,
    Ltu,
    Geu,
    Nan,
    Num,
}

/// Integer comparisons: `Lt..Ge` signed, `Lo/Hs` unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub enum ICmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Hs,
}

#[derive(Clone, Copy, Debug)]
pub enum Op {
    Param(usize),
    /// Bits of a constant of the instruction's type.
    Const(u64),
    FAdd(V, V),
    FSub(V, V),
    FMul(V, V),
    Fma(V, V, V),
    FDiv(V, V),
    FSqrt(V),
    /// Round to an integral value in the same float type.
    FRound(Rnd, V),
    /// f32 → f64 (exact) or f64 → f32 (round to nearest even).
    FCvt(V),
    /// Float → s32, rounded by the mode, saturating, NaN → 0.
    F2S(Rnd, V),
    /// s32 → float (round to nearest even).
    S2F(V),
    /// Reinterpret the bits (float ↔ integer of the same width).
    Bits(V),
    IAdd(V, V),
    ISub(V, V),
    And(V, V),
    Or(V, V),
    Xor(V, V),
    /// Shift amounts are B32; amounts ≥ width give 0 (or sign fill for `Sar`).
    Shl(V, V),
    Shr(V, V),
    Sar(V, V),
    /// B32 → B64, zero-extending.
    Zext(V),
    /// B64 → B32, the low half.
    Trunc(V),
    FSetp(FCmp, V, V),
    ISetp(ICmp, V, V),
    PAnd(V, V),
    POr(V, V),
    PNot(V),
    /// `p ? a : b` (not on predicates).
    Select(V, V, V),
    /// When `p` holds, jump forward to `Label(n)`. The values defined in
    /// between are then undefined: they may only be read by selects whose
    /// condition implies that the skip was not taken.
    SkipIf(V, u32),
    Label(u32),
}

#[derive(Clone, Copy, Debug)]
pub struct Inst {
    pub ty: Ty,
    pub op: Op,
}

/// A finished function: parameters (IR type, declared PTX type), body, result.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub params: Vec<(Ty, &'static str)>,
    pub ret: (Ty, &'static str),
    pub insts: Vec<Inst>,
    pub result: V,
}

/// Builds a [`Func`]. Type errors are bugs in this library (the functions are
/// fixed), so they panic; every function is built by the tests.
pub struct B {
    insts: Vec<Inst>,
    params: Vec<(Ty, &'static str)>,
    labels: u32,
}

impl B {
    pub fn new() -> B {
        B {
            insts: Vec::new(),
            params: Vec::new(),
            labels: 0,
        }
    }

    /// Starts a region skipped when `p` holds; close it with [`B::label`].
    pub fn skip_if(&mut self, p: V) -> u32 {
        assert_eq!(self.ty(p), Ty::Pred);
        self.labels += 1;
        self.push(Ty::Void, Op::SkipIf(p, self.labels));
        self.labels
    }

    pub fn label(&mut self, n: u32) {
        self.push(Ty::Void, Op::Label(n));
    }

    pub fn ty(&self, v: V) -> Ty {
        self.insts[v.0 as usize].ty
    }

    fn push(&mut self, ty: Ty, op: Op) -> V {
        self.insts.push(Inst { ty, op });
        V(self.insts.len() as u32 - 1)
    }

    fn same(&self, a: V, b: V) -> Ty {
        let t = self.ty(a);
        assert_eq!(t, self.ty(b), "math ir: operand types differ");
        t
    }

    fn float(&self, a: V) -> Ty {
        let t = self.ty(a);
        assert!(matches!(t, Ty::F32 | Ty::F64), "math ir: float expected");
        t
    }

    pub fn param(&mut self, ty: Ty, ptx: &'static str) -> V {
        let i = self.params.len();
        self.params.push((ty, ptx));
        self.push(ty, Op::Param(i))
    }

    pub fn finish(self, name: String, ret: V, ret_ptx: &'static str) -> Func {
        let ty = self.ty(ret);
        Func {
            name,
            params: self.params,
            ret: (ty, ret_ptx),
            insts: self.insts,
            result: ret,
        }
    }

    // Constants.
    pub fn c(&mut self, ty: Ty, x: f64) -> V {
        match ty {
            Ty::F32 => self.push(Ty::F32, Op::Const((x as f32).to_bits() as u64)),
            Ty::F64 => self.push(Ty::F64, Op::Const(x.to_bits())),
            _ => panic!("math ir: float constant of integer type"),
        }
    }
    pub fn cf64(&mut self, x: f64) -> V {
        self.c(Ty::F64, x)
    }
    pub fn cbits(&mut self, ty: Ty, bits: u64) -> V {
        self.push(ty, Op::Const(bits))
    }
    pub fn ci(&mut self, x: i32) -> V {
        self.push(Ty::B32, Op::Const(x as u32 as u64))
    }
    pub fn cu64(&mut self, x: u64) -> V {
        self.push(Ty::B64, Op::Const(x))
    }

    // Float arithmetic (all round to nearest even).
    pub fn add(&mut self, a: V, b: V) -> V {
        let t = self.same(a, b);
        self.float(a);
        self.push(t, Op::FAdd(a, b))
    }
    pub fn sub(&mut self, a: V, b: V) -> V {
        let t = self.same(a, b);
        self.float(a);
        self.push(t, Op::FSub(a, b))
    }
    pub fn mul(&mut self, a: V, b: V) -> V {
        let t = self.same(a, b);
        self.float(a);
        self.push(t, Op::FMul(a, b))
    }
    pub fn fma(&mut self, a: V, b: V, c: V) -> V {
        let t = self.same(a, b);
        self.same(a, c);
        self.float(a);
        self.push(t, Op::Fma(a, b, c))
    }
    pub fn div(&mut self, a: V, b: V) -> V {
        let t = self.same(a, b);
        self.float(a);
        self.push(t, Op::FDiv(a, b))
    }
    pub fn sqrt(&mut self, a: V) -> V {
        let t = self.float(a);
        self.push(t, Op::FSqrt(a))
    }
    pub fn round(&mut self, r: Rnd, a: V) -> V {
        let t = self.float(a);
        self.push(t, Op::FRound(r, a))
    }
    pub fn widen(&mut self, a: V) -> V {
        assert_eq!(self.ty(a), Ty::F32);
        self.push(Ty::F64, Op::FCvt(a))
    }
    pub fn narrow(&mut self, a: V) -> V {
        assert_eq!(self.ty(a), Ty::F64);
        self.push(Ty::F32, Op::FCvt(a))
    }
    pub fn f2s(&mut self, r: Rnd, a: V) -> V {
        self.float(a);
        self.push(Ty::B32, Op::F2S(r, a))
    }
    pub fn s2f(&mut self, ty: Ty, a: V) -> V {
        assert_eq!(self.ty(a), Ty::B32);
        self.push(ty, Op::S2F(a))
    }
    pub fn bits(&mut self, a: V) -> V {
        let t = match self.ty(a) {
            Ty::F32 => Ty::B32,
            Ty::F64 => Ty::B64,
            Ty::B32 => Ty::F32,
            Ty::B64 => Ty::F64,
            Ty::Pred | Ty::Void => panic!("math ir: bits of a predicate"),
        };
        self.push(t, Op::Bits(a))
    }

    // Integers.
    fn int(&self, a: V, b: V) -> Ty {
        let t = self.same(a, b);
        assert!(matches!(t, Ty::B32 | Ty::B64), "math ir: integer expected");
        t
    }
    pub fn iadd(&mut self, a: V, b: V) -> V {
        let t = self.int(a, b);
        self.push(t, Op::IAdd(a, b))
    }
    pub fn isub(&mut self, a: V, b: V) -> V {
        let t = self.int(a, b);
        self.push(t, Op::ISub(a, b))
    }
    pub fn and(&mut self, a: V, b: V) -> V {
        let t = self.int(a, b);
        self.push(t, Op::And(a, b))
    }
    pub fn or(&mut self, a: V, b: V) -> V {
        let t = self.int(a, b);
        self.push(t, Op::Or(a, b))
    }
    pub fn xor(&mut self, a: V, b: V) -> V {
        let t = self.int(a, b);
        self.push(t, Op::Xor(a, b))
    }
    pub fn shl(&mut self, a: V, n: V) -> V {
        assert_eq!(self.ty(n), Ty::B32);
        let t = self.ty(a);
        self.push(t, Op::Shl(a, n))
    }
    pub fn shr(&mut self, a: V, n: V) -> V {
        assert_eq!(self.ty(n), Ty::B32);
        let t = self.ty(a);
        self.push(t, Op::Shr(a, n))
    }
    pub fn sar(&mut self, a: V, n: V) -> V {
        assert_eq!(self.ty(n), Ty::B32);
        let t = self.ty(a);
        self.push(t, Op::Sar(a, n))
    }
    pub fn zext(&mut self, a: V) -> V {
        assert_eq!(self.ty(a), Ty::B32);
        self.push(Ty::B64, Op::Zext(a))
    }
    pub fn trunc(&mut self, a: V) -> V {
        assert_eq!(self.ty(a), Ty::B64);
        self.push(Ty::B32, Op::Trunc(a))
    }

    // Predicates.
    pub fn fcmp(&mut self, c: FCmp, a: V, b: V) -> V {
        self.same(a, b);
        self.float(a);
        self.push(Ty::Pred, Op::FSetp(c, a, b))
    }
    pub fn icmp(&mut self, c: ICmp, a: V, b: V) -> V {
        self.int(a, b);
        self.push(Ty::Pred, Op::ISetp(c, a, b))
    }
    pub fn pand(&mut self, a: V, b: V) -> V {
        assert_eq!(self.same(a, b), Ty::Pred);
        self.push(Ty::Pred, Op::PAnd(a, b))
    }
    pub fn por(&mut self, a: V, b: V) -> V {
        assert_eq!(self.same(a, b), Ty::Pred);
        self.push(Ty::Pred, Op::POr(a, b))
    }
    pub fn pnot(&mut self, a: V) -> V {
        assert_eq!(self.ty(a), Ty::Pred);
        self.push(Ty::Pred, Op::PNot(a))
    }
    pub fn sel(&mut self, p: V, a: V, b: V) -> V {
        assert_eq!(self.ty(p), Ty::Pred);
        let t = self.same(a, b);
        assert_ne!(t, Ty::Pred, "math ir: select of predicates");
        self.push(t, Op::Select(p, a, b))
    }

    // Small helpers built from the ops above.

    /// The integer type of the same width as float `ty`.
    pub fn ity(ty: Ty) -> Ty {
        if ty == Ty::F32 {
            Ty::B32
        } else {
            Ty::B64
        }
    }
    /// An integer constant of the width of float type `ty`.
    pub fn cint(&mut self, ty: Ty, bits: u64) -> V {
        self.cbits(B::ity(ty), bits)
    }
    pub fn sign_mask(ty: Ty) -> u64 {
        if ty == Ty::F32 {
            0x8000_0000
        } else {
            0x8000_0000_0000_0000
        }
    }
    pub fn abs(&mut self, a: V) -> V {
        let t = self.float(a);
        let bits = self.bits(a);
        let m = self.cint(
            t,
            !B::sign_mask(t) & if t == Ty::F32 { 0xffff_ffff } else { u64::MAX },
        );
        let r = self.and(bits, m);
        self.bits(r)
    }
    pub fn neg(&mut self, a: V) -> V {
        let t = self.float(a);
        let bits = self.bits(a);
        let m = self.cint(t, B::sign_mask(t));
        let r = self.xor(bits, m);
        self.bits(r)
    }
    /// `|a|` with the sign of `s`.
    pub fn copysign(&mut self, a: V, s: V) -> V {
        let t = self.same(a, s);
        let ab = self.bits(a);
        let sb = self.bits(s);
        let m = self.cint(t, B::sign_mask(t));
        let nm = self.cint(
            t,
            !B::sign_mask(t) & if t == Ty::F32 { 0xffff_ffff } else { u64::MAX },
        );
        let mag = self.and(ab, nm);
        let sg = self.and(sb, m);
        let r = self.or(mag, sg);
        self.bits(r)
    }
    /// Whether the sign bit of `a` is set (also for NaN).
    pub fn sign_bit(&mut self, a: V) -> V {
        let t = self.float(a);
        let ab = self.bits(a);
        let z = self.cint(t, 0);
        self.icmp(ICmp::Lt, ab, z)
    }
    /// `x * 2^k` for s32 `k` in [-2044, 2046] (f64) without double rounding
    /// except for a subnormal result (two exact scalings and one rounding).
    pub fn ldexp64(&mut self, x: V, k: V) -> V {
        // Split k = k1 + k2, both within the normal exponent range.
        let one = self.ci(1);
        let k1 = self.sar(k, one);
        let k2 = self.isub(k, k1);
        let s1 = self.pow2_64(k1);
        let s2 = self.pow2_64(k2);
        let y = self.mul(x, s1);
        self.mul(y, s2)
    }
    /// 2^k as f64 for s32 `k` in [-1022, 1023].
    pub fn pow2_64(&mut self, k: V) -> V {
        let bias = self.ci(1023);
        let e = self.iadd(k, bias);
        let e = self.zext(e);
        let sh = self.ci(52);
        let b = self.shl(e, sh);
        self.bits(b)
    }
    /// |a| < inf (false for NaN).
    pub fn is_finite(&mut self, a: V) -> V {
        let t = self.float(a);
        let ab = self.abs(a);
        let inf = self.c(t, f64::INFINITY);
        self.fcmp(FCmp::Lt, ab, inf)
    }
}
