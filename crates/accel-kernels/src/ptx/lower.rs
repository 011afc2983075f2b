//! Scalar lowering: the plan's element functions (expression trees of the
//! arena) to PTX instructions on virtual registers.
//!
//! A value is a list of registers, one per primitive leaf (tuples are one
//! register per component, an index one `.b64` per dimension, an `Option` a
//! predicate followed by its payload). Registers by class: `%p` (`bool`),
//! `%r` (`.b32`: every integer of 32 bits or less, kept sign- or zero-extended
//! to 32 bits), `%rd` (`.b64`), `%f` (`f32`), `%fd` (`f64`).
//!
//! Every integer operation has accel's wrapping semantics (`accel_runtime::ops`):
//! `x / 0 == 0`, `x % 0 == x`, `MIN / -1 == MIN`, shifts by the amount modulo
//! the width, all checked explicitly because PTX leaves those cases undefined.
//! Run-time errors (an index out of bounds, a failed assertion) are written to
//! the launch's error word with `atom.cas` (the first error wins) and the
//! computation goes on with a zero value, as the CPU back end does.

use super::math_lib;
use accel_core::ir::ErrorKind;
use accel_core::ir::{
    Arena, BinOp, Boundary, Expr, Lit, Loc, MathFn, PlanRead, Prim, Scalar, Ty, UnOp, VarId, H,
};
use accel_core::plan::bounds::{Bound, Iteration, Proof, Proofs};
use std::collections::HashMap;
use std::fmt::Write;

/// Something the PTX back end cannot compile (yet), by kind; its `Display`
/// is the phrase the program's "not supported on the GPU path" error uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// An operator or method on a type it has no PTX for: `op` on `on`.
    Operation { op: String, on: String },
    /// An expression a kernel cannot hold.
    Expression(String),
    /// A host value of a type kernels cannot take as an argument.
    HostValue(String),
    /// An entry asked of a kernel of another skeleton: a bug in the emitter.
    Internal(String),
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsupported::Operation { op, on } => write!(f, "`{op}` on {on}"),
            Unsupported::Expression(what) => f.write_str(what),
            Unsupported::HostValue(ty) => write!(f, "a host value of type {ty} read in a kernel"),
            Unsupported::Internal(what) => write!(f, "{what} (an internal error of the PTX emitter)"),
        }
    }
}

impl Unsupported {
    fn op(op: impl std::fmt::Display, on: impl std::fmt::Display) -> Unsupported {
        Unsupported::Operation {
            op: op.to_string(),
            on: on.to_string(),
        }
    }
}

/// The source of one kernel parameter: what the host passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The launch's error word (`.u64` pointer).
    Err,
    /// Column `k` of buffer `b` (`.u64` pointer).
    Col(u32, usize),
    /// Dimension `d` of buffer `b`'s shape (`.u64`).
    Dim(u32, usize),
    /// Leaf `k` of host variable `v` (a scalar parameter, a `let`, a loop state).
    Var(VarId, usize, Prim),
    /// Dimension `d` of the kernel's iteration shape (`.u64`).
    IterDim(usize),
    /// A skeleton's own parameter, passed by the host code of that skeleton.
    Extra(&'static str),
    /// Leaf `k` of the kernel's initial value `z`.
    Z(usize, Prim),
    /// Column `k` of the partial results of a two-pass fold (`.u64` pointer).
    Part(usize),
}

impl Arg {
    /// The PTX parameter type.
    pub fn ptx_ty(&self) -> &'static str {
        match self {
            Arg::Var(_, _, p) | Arg::Z(_, p) => param_ty(*p),
            _ => ".u64",
        }
    }
}

/// The `.param` type a scalar of type `p` is passed as (narrow integers and
/// `bool` widened to 32 bits).
pub fn param_ty(p: Prim) -> &'static str {
    match p {
        Prim::F32 => ".f32",
        Prim::F64 => ".f64",
        Prim::I64 | Prim::U64 | Prim::Usize => ".u64",
        _ => ".u32",
    }
}

/// A run-time error a kernel can report: its code in the error word is its
/// position in the module's list plus one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrSite {
    pub kind: ErrorKind,
    pub op: String,
    pub msg: String,
    /// The source position of the failing expression.
    pub at: Option<Loc>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    P,
    R,
    Rd,
    F,
    Fd,
    /// `.b16`: only to convert half-precision values (`cvt.f32.f16`).
    H,
}

impl Class {
    fn prefix(self) -> &'static str {
        match self {
            Class::P => "%p",
            Class::R => "%r",
            Class::Rd => "%rd",
            Class::F => "%f",
            Class::Fd => "%fd",
            Class::H => "%h",
        }
    }
    fn decl(self) -> &'static str {
        match self {
            Class::P => ".pred",
            Class::R => ".b32",
            Class::Rd => ".b64",
            Class::F => ".f32",
            Class::Fd => ".f64",
            Class::H => ".b16",
        }
    }
    const ALL: [Class; 6] = [Class::P, Class::R, Class::Rd, Class::F, Class::Fd, Class::H];
}

/// The register class of a value of type `p`. A half-precision value is its
/// 16 bits in a `.b32` register, as a `u16` is (so loads, stores, shared
/// memory and selects treat it as one); arithmetic converts it to `f32` and
/// rounds back ([`Lower::widen_half`], [`Lower::narrow_half`]).
pub fn class(p: Prim) -> Class {
    match p {
        Prim::Bool => Class::P,
        Prim::I64 | Prim::U64 | Prim::Usize => Class::Rd,
        Prim::F32 => Class::F,
        Prim::F64 => Class::Fd,
        _ => Class::R,
    }
}

/// The type suffix of arithmetic on a value of type `p` in its register.
pub fn aty(p: Prim) -> &'static str {
    match p {
        Prim::I8 | Prim::I16 | Prim::I32 => "s32",
        Prim::U8 | Prim::U16 | Prim::U32 | Prim::Bool | Prim::F16 | Prim::BF16 => "u32",
        Prim::I64 => "s64",
        Prim::U64 | Prim::Usize => "u64",
        Prim::F32 => "f32",
        Prim::F64 => "f64",
    }
}

/// The memory type of an element of type `p` (`bool` is a byte).
pub fn mty(p: Prim) -> &'static str {
    match p {
        Prim::Bool | Prim::U8 => "u8",
        Prim::I8 => "s8",
        Prim::I16 => "s16",
        Prim::U16 | Prim::F16 | Prim::BF16 => "u16",
        Prim::I32 => "s32",
        Prim::U32 => "u32",
        Prim::I64 => "s64",
        Prim::U64 | Prim::Usize => "u64",
        Prim::F32 => "f32",
        Prim::F64 => "f64",
    }
}

pub fn bytes(p: Prim) -> u32 {
    p.width() / 8
}

/// Primitive leaves of a scalar type, as registers hold them.
pub fn leaves(t: &Ty) -> Vec<Prim> {
    match t {
        Ty::Prim(p) => vec![*p],
        Ty::Tuple(ts) => ts.iter().flat_map(leaves).collect(),
        Ty::Index(r) => vec![Prim::Usize; *r],
        Ty::Option(t) => {
            let mut v = vec![Prim::Bool];
            v.extend(leaves(t));
            v
        }
        Ty::Array(..) | Ty::Seq(_) => vec![],
    }
}

/// Byte sizes of the leaves of a scalar type, as registers hold them: what a
/// kernel keeps per value in shared memory (the host sizes its splits from
/// the same numbers, `Layout::acc`).
pub fn leaf_bytes(t: &Ty) -> Vec<usize> {
    leaves(t).into_iter().map(|p| bytes(p) as usize).collect()
}

/// Registers holding values already loaded, by (buffer, leaf).
pub type Loaded = HashMap<(u32, usize), String>;

/// One kernel's body under construction.
/// The segment loops a generate's warps share (`super::segments`).
#[derive(Clone, Debug)]
pub struct WarpLoops {
    pub loops: Vec<H>,
    /// The register of the thread's lane (`.u32`).
    pub lane: String,
    /// A predicate: the whole warp computes one element (else each thread
    /// its own).
    pub whole: String,
}

pub struct Lower<'a> {
    pub a: &'a Arena,
    /// Buffer element types, by buffer number.
    pub buf_elems: &'a [Ty],
    pub body: String,
    prologue: String,
    regs: HashMap<Class, u32>,
    labels: u32,
    pub params: Vec<Arg>,
    param_regs: HashMap<String, Vec<String>>,
    env: HashMap<VarId, Vec<String>>,
    pub sites: &'a mut Vec<ErrSite>,
    pub funcs: &'a mut Vec<super::math_lib::FuncKey>,
    prefix: String,
    /// In a quad of a vectorised loop (`super::vector`): the register of
    /// the element's index, and this lane's values of the columns (buffer,
    /// leaf) already loaded at that index.
    pub lane: Option<(String, Loaded)>,
    /// In the interior branch of a stencil (`super::stencil`): the element's
    /// index, whose neighbours are all inside the arrays read.
    pub interior: Option<Vec<String>>,
    /// The element function being lowered and its iteration space, where the
    /// skeleton runs it only at indices inside that space: its reads that
    /// the space proves in bounds go unchecked (`plan::bounds`), as on the CPU.
    pub iteration: Option<Iteration>,
    /// The proofs of the kernel's checked reads (`plan::bounds::Proofs`, in
    /// `iteration`): reads they prove go unchecked, those proved by tests
    /// in the version of the element function or loop that made the tests.
    pub proofs: Proofs,
    /// The predicate of the kernel's entry tests ([`Lower::entry_tests`]),
    /// once made.
    entry_pred: Option<String>,
    /// Lowering the version of the element function whose entry tests held.
    pub(super) assume_entry: bool,
    /// The loops around the code being lowered in their fast version (their
    /// counter reads tested before the loop), and how deep such versions nest.
    fast_loops: Vec<H>,
    /// In a generate whose warps share long segments (`super::segments`).
    pub(super) warp_loops: Option<WarpLoops>,
}

impl<'a> Lower<'a> {
    pub fn new(
        a: &'a Arena,
        buf_elems: &'a [Ty],
        sites: &'a mut Vec<ErrSite>,
        funcs: &'a mut Vec<super::math_lib::FuncKey>,
        prefix: &str,
    ) -> Lower<'a> {
        Lower {
            a,
            buf_elems,
            body: String::new(),
            prologue: String::new(),
            regs: HashMap::new(),
            labels: 0,
            params: Vec::new(),
            param_regs: HashMap::new(),
            env: HashMap::new(),
            sites,
            funcs,
            prefix: prefix.to_string(),
            lane: None,
            interior: None,
            iteration: None,
            proofs: Proofs::default(),
            entry_pred: None,
            assume_entry: false,
            fast_loops: Vec::new(),
            warp_loops: None,
        }
    }

    pub fn reg(&mut self, c: Class) -> String {
        let n = self.regs.entry(c).or_insert(0);
        *n += 1;
        format!("{}{}", c.prefix(), *n - 1)
    }

    pub fn label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("$L_{}_{}{}", self.prefix, what, self.labels)
    }

    pub fn ins(&mut self, s: impl AsRef<str>) {
        self.body.push('\t');
        self.body.push_str(s.as_ref());
        self.body.push('\n');
    }

    pub fn put_label(&mut self, l: &str) {
        let _ = writeln!(self.body, "{l}:");
    }

    pub fn bind(&mut self, v: VarId, regs: Vec<String>) -> Option<Vec<String>> {
        self.env.insert(v, regs)
    }

    pub fn unbind(&mut self, v: VarId, old: Option<Vec<String>>) {
        match old {
            Some(o) => self.env.insert(v, o),
            None => self.env.remove(&v),
        };
    }

    /// The registers holding a kernel parameter (loaded once, in the prologue).
    pub fn param(&mut self, arg: Arg) -> Vec<String> {
        let key = format!("{arg:?}");
        if let Some(r) = self.param_regs.get(&key) {
            return r.clone();
        }
        let name = format!("{}_p{}", self.prefix, self.params.len());
        let t = arg.ptx_ty();
        let regs = match &arg {
            Arg::Err | Arg::Col(..) | Arg::Part(_) => {
                let (r0, r1) = (self.reg(Class::Rd), self.reg(Class::Rd));
                let _ = writeln!(self.prologue, "\tld.param.u64 {r0}, [{name}];");
                let _ = writeln!(self.prologue, "\tcvta.to.global.u64 {r1}, {r0};");
                vec![r1]
            }
            Arg::Var(_, _, p) | Arg::Z(_, p) => {
                let p = *p;
                if p == Prim::Bool {
                    let (r, q) = (self.reg(Class::R), self.reg(Class::P));
                    let _ = writeln!(self.prologue, "\tld.param.u32 {r}, [{name}];");
                    let _ = writeln!(self.prologue, "\tsetp.ne.u32 {q}, {r}, 0;");
                    vec![q]
                } else {
                    let r = self.reg(class(p));
                    let _ = writeln!(self.prologue, "\tld.param{t} {r}, [{name}];");
                    vec![r]
                }
            }
            _ => {
                let r = self.reg(Class::Rd);
                let _ = writeln!(self.prologue, "\tld.param.u64 {r}, [{name}];");
                vec![r]
            }
        };
        self.params.push(arg);
        self.param_regs.insert(key, regs.clone());
        regs
    }

    /// The finished entry: signature, register declarations, prologue, body.
    pub fn finish(self, name: &str, shared: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, ".visible .entry {name}(");
        let ps: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, a)| format!("\t.param {} {}_p{}", a.ptx_ty(), self.prefix, i))
            .collect();
        let _ = writeln!(s, "{}\n)\n{{", ps.join(",\n"));
        for c in Class::ALL {
            let n = self.regs.get(&c).copied().unwrap_or(0);
            if n > 0 {
                let _ = writeln!(s, "\t.reg {} {}<{}>;", c.decl(), c.prefix(), n);
            }
        }
        s.push_str(shared);
        s.push_str(&self.prologue);
        s.push_str(&self.body);
        s.push_str("}\n");
        s
    }

    // ---- moving values ----

    /// Fresh registers for a value of type `t`.
    pub fn fresh(&mut self, t: &Ty) -> Vec<String> {
        leaves(t).into_iter().map(|p| self.reg(class(p))).collect()
    }

    /// `dst = src`, leaf by leaf, as a parallel copy.
    pub fn assign(&mut self, dst: &[String], src: &[String], t: &Ty) {
        let moves = dst
            .iter()
            .zip(src)
            .zip(leaves(t))
            .map(|((d, s), p)| (d.clone(), s.clone(), p));
        self.parallel_copy(moves.collect());
    }

    /// Moves `(dst, src, prim)` as one parallel copy: every source is read
    /// before any destination is written. A loop's back edge assigns its
    /// state from values that may be other state registers (`(a, b) = (b, a)`
    /// after copy propagation), so plain sequential moves would lose a value.
    pub fn parallel_copy(&mut self, moves: Vec<(String, String, Prim)>) {
        let mut pending: Vec<_> = moves.into_iter().filter(|(d, s, _)| d != s).collect();
        while !pending.is_empty() {
            // A move whose destination no pending move still reads.
            let free = (0..pending.len()).find(|&i| pending.iter().all(|(_, s, _)| *s != pending[i].0));
            match free {
                Some(i) => {
                    let (d, s, p) = pending.remove(i);
                    self.mov(&d, &s, p);
                }
                None => {
                    // Only cycles are left: save one destination in a
                    // temporary and let its readers read that instead.
                    let (d, _, p) = pending[0].clone();
                    let tmp = self.reg(class(p));
                    self.mov(&tmp, &d, p);
                    for (_, s, _) in pending.iter_mut() {
                        if *s == d {
                            *s = tmp.clone();
                        }
                    }
                }
            }
        }
    }

    pub fn mov(&mut self, d: &str, s: &str, p: Prim) {
        if d == s {
            return;
        }
        match class(p) {
            Class::P => {
                let r = self.reg(Class::R);
                self.ins(format!("selp.u32 {r}, 1, 0, {s};"));
                self.ins(format!("setp.ne.u32 {d}, {r}, 0;"));
            }
            Class::R => self.ins(format!("mov.b32 {d}, {s};")),
            Class::Rd => self.ins(format!("mov.b64 {d}, {s};")),
            Class::F => self.ins(format!("mov.f32 {d}, {s};")),
            Class::Fd => self.ins(format!("mov.f64 {d}, {s};")),
            Class::H => self.ins(format!("mov.b16 {d}, {s};")),
        }
    }

    /// Zero of type `t` (the value after an error).
    /// The registers variable `v` is bound to, if it is.
    pub(super) fn var_regs(&self, v: VarId) -> Option<Vec<String>> {
        self.env.get(&v).cloned()
    }

    /// A register holding literal `l`.
    pub fn literal(&mut self, l: Lit) -> String {
        let r = self.reg(class(l.prim));
        match l.prim {
            Prim::Bool => {
                let t = self.reg(Class::R);
                self.ins(format!("mov.b32 {t}, {};", (l.bits != 0) as u32));
                self.ins(format!("setp.ne.u32 {r}, {t}, 0;"));
            }
            Prim::F32 => self.ins(format!("mov.f32 {r}, 0f{:08X};", l.bits as u32)),
            Prim::F64 => self.ins(format!("mov.f64 {r}, 0d{:016X};", l.bits)),
            p if class(p) == Class::Rd => self.ins(format!("mov.b64 {r}, 0x{:016X};", l.bits)),
            p => {
                // Narrow literals as their 32-bit extension.
                let v: u32 = match p {
                    Prim::I8 => l.bits as i8 as i32 as u32,
                    Prim::I16 => l.bits as i16 as i32 as u32,
                    Prim::U8 => l.bits as u8 as u32,
                    Prim::U16 | Prim::F16 | Prim::BF16 => l.bits as u16 as u32,
                    _ => l.bits as u32,
                };
                self.ins(format!("mov.b32 {r}, 0x{v:08X};"));
            }
        }
        r
    }

    pub fn zero(&mut self, t: &Ty) -> Vec<String> {
        let ps = leaves(t);
        let regs = self.fresh(t);
        for (r, p) in regs.iter().zip(ps) {
            self.set_zero(r, p);
        }
        regs
    }

    fn set_zero(&mut self, r: &str, p: Prim) {
        match class(p) {
            Class::P => {
                let z = self.reg(Class::R);
                self.ins(format!("mov.b32 {z}, 0;"));
                self.ins(format!("setp.ne.u32 {r}, {z}, 0;"));
            }
            Class::R => self.ins(format!("mov.b32 {r}, 0;")),
            Class::Rd => self.ins(format!("mov.b64 {r}, 0;")),
            Class::F => self.ins(format!("mov.f32 {r}, 0f00000000;")),
            Class::Fd => self.ins(format!("mov.f64 {r}, 0d0000000000000000;")),
            Class::H => self.ins(format!("mov.b16 {r}, 0;")),
        }
    }

    /// Half-precision value `v` (of type `p`, its bits in a `.b32`) as the
    /// `f32` of the same value, exactly.
    pub fn widen_half(&mut self, v: &str, p: Prim) -> String {
        let f = self.reg(Class::F);
        if p == Prim::F16 {
            let h = self.reg(Class::H);
            self.ins(format!("cvt.u16.u32 {h}, {v};"));
            self.ins(format!("cvt.f32.f16 {f}, {h};"));
        } else {
            // A bfloat16 is the high half of an `f32`.
            let t = self.reg(Class::R);
            self.ins(format!("shl.b32 {t}, {v}, 16;"));
            self.ins(format!("mov.b32 {f}, {t};"));
        }
        f
    }

    /// `f32` value `f` rounded to the half-precision type `p` (to nearest,
    /// ties to even, as the `half` crate rounds), its bits in a `.b32`.
    pub fn narrow_half(&mut self, f: &str, p: Prim) -> String {
        let r = self.reg(Class::R);
        if p == Prim::F16 {
            let h = self.reg(Class::H);
            self.ins(format!("cvt.rn.f16.f32 {h}, {f};"));
            self.ins(format!("cvt.u32.u16 {r}, {h};"));
            return r;
        }
        // bfloat16 (no `cvt` for it before sm_80): add 0x7FFF and the lowest
        // kept bit, so that the carry rounds to nearest even, and keep the
        // high half; a NaN keeps its high half with the quiet bit set.
        let (b, lsb, nan, q) = (
            self.reg(Class::R),
            self.reg(Class::R),
            self.reg(Class::R),
            self.reg(Class::P),
        );
        self.ins(format!("mov.b32 {b}, {f};"));
        self.ins(format!("shr.u32 {lsb}, {b}, 16;"));
        self.ins(format!("or.b32 {nan}, {lsb}, 64;"));
        self.ins(format!("and.b32 {lsb}, {lsb}, 1;"));
        self.ins(format!("add.u32 {lsb}, {lsb}, 32767;"));
        self.ins(format!("add.u32 {r}, {b}, {lsb};"));
        self.ins(format!("shr.u32 {r}, {r}, 16;"));
        self.ins(format!("setp.nan.f32 {q}, {f}, {f};"));
        self.ins(format!("@{q} mov.b32 {r}, {nan};"));
        r
    }

    /// A bool as a 0/1 `.u32`.
    pub fn pred_to_u32(&mut self, p: &str) -> String {
        let r = self.reg(Class::R);
        self.ins(format!("selp.u32 {r}, 1, 0, {p};"));
        r
    }

    /// Loads element `idx` (a `.b64` register) of a column at `base` into a fresh register.
    pub fn load(&mut self, base: &str, idx: &str, p: Prim, volatile: bool) -> String {
        let addr = self.reg(Class::Rd);
        self.ins(format!("mad.lo.u64 {addr}, {idx}, {}, {base};", bytes(p)));
        let v = if volatile {
            "ld.volatile.global"
        } else {
            "ld.global"
        };
        if p == Prim::Bool {
            let (r, q) = (self.reg(Class::R), self.reg(Class::P));
            self.ins(format!("{v}.u8 {r}, [{addr}];"));
            self.ins(format!("setp.ne.u32 {q}, {r}, 0;"));
            q
        } else {
            let r = self.reg(class(p));
            self.ins(format!("{v}.{} {r}, [{addr}];", mty(p)));
            r
        }
    }

    pub fn store(&mut self, base: &str, idx: &str, p: Prim, val: &str, volatile: bool) {
        let addr = self.reg(Class::Rd);
        self.ins(format!("mad.lo.u64 {addr}, {idx}, {}, {base};", bytes(p)));
        let v = if volatile {
            "st.volatile.global"
        } else {
            "st.global"
        };
        if p == Prim::Bool {
            let r = self.pred_to_u32(val);
            self.ins(format!("{v}.u8 [{addr}], {r};"));
        } else {
            let t = match p {
                Prim::I8 | Prim::U8 => "u8",
                Prim::I16 | Prim::U16 => "u16",
                Prim::I32 | Prim::U32 => "u32",
                Prim::I64 | Prim::U64 | Prim::Usize => "u64",
                _ => mty(p),
            };
            self.ins(format!("{v}.{t} [{addr}], {val};"));
        }
    }

    /// Records the error of `op` at source position `at` in the error word
    /// (the first error wins).
    pub fn fail(&mut self, kind: ErrorKind, op: &str, msg: &str, at: Option<Loc>) {
        let site = ErrSite {
            kind,
            op: op.to_string(),
            msg: msg.to_string(),
            at,
        };
        let code = match self.sites.iter().position(|s| *s == site) {
            Some(i) => i + 1,
            None => {
                self.sites.push(site);
                self.sites.len()
            }
        };
        let e = self.param(Arg::Err)[0].clone();
        let r = self.reg(Class::R);
        self.ins(format!("atom.global.cas.b32 {r}, [{e}], 0, {code};"));
    }

    /// Sign- or zero-extends a narrow integer result kept in a 32-bit register.
    fn normalize(&mut self, r: &str, p: Prim) {
        match p {
            Prim::I8 => self.ins(format!("cvt.s32.s8 {r}, {r};")),
            Prim::I16 => self.ins(format!("cvt.s32.s16 {r}, {r};")),
            Prim::U8 => self.ins(format!("and.b32 {r}, {r}, 255;")),
            Prim::U16 => self.ins(format!("and.b32 {r}, {r}, 65535;")),
            _ => {}
        }
    }

    // ---- expressions ----

    pub fn expr(&mut self, h: H) -> Result<Vec<String>, Unsupported> {
        let a = self.a;
        let ty = a.ty(h).clone();
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => match self.env.get(v) {
                Some(r) => Ok(r.clone()),
                None => {
                    // A host scalar: passed to the kernel, one parameter per leaf.
                    let vty = a.var(*v).ty.clone();
                    if matches!(vty, Ty::Option(_) | Ty::Array(..)) {
                        return Err(Unsupported::HostValue(vty.to_string()));
                    }
                    let mut regs = Vec::new();
                    for (k, p) in leaves(&vty).into_iter().enumerate() {
                        regs.extend(self.param(Arg::Var(*v, k, p)));
                    }
                    self.env.insert(*v, regs.clone());
                    Ok(regs)
                }
            },
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let v = self.expr(*value)?;
                let old = self.bind(*var, v);
                let r = self.expr(*body);
                self.unbind(*var, old);
                r
            }
            Expr::Scalar(Scalar::Lit(l)) => Ok(vec![self.literal(*l)]),
            Expr::Scalar(Scalar::Tuple(xs)) | Expr::Scalar(Scalar::MakeIndex(xs)) => {
                Ok(self.components(xs)?.concat())
            }
            Expr::Scalar(Scalar::Proj(x, n)) => {
                let v = self.expr(*x)?;
                Ok(proj_regs(a.ty(*x), &v, *n))
            }
            Expr::Scalar(Scalar::Unary(UnOp::Neg, x)) if prim_of(&ty)?.is_half() => {
                // The sign bit flipped, as `-x` on a half does.
                let v = self.expr(*x)?;
                let r = self.reg(Class::R);
                self.ins(format!("xor.b32 {r}, {}, 32768;", v[0]));
                Ok(vec![r])
            }
            Expr::Scalar(Scalar::Unary(op, x)) => {
                let p = prim_of(&ty)?;
                let v = self.expr(*x)?;
                let r = self.reg(class(p));
                match (op, p) {
                    (UnOp::Not, Prim::Bool) => {
                        let u = self.pred_to_u32(&v[0]);
                        self.ins(format!("setp.eq.u32 {r}, {u}, 0;"));
                    }
                    (UnOp::Neg, Prim::Bool) => return Ok(v),
                    (UnOp::Not, _) => {
                        let w = if class(p) == Class::Rd { "b64" } else { "b32" };
                        self.ins(format!("not.{w} {r}, {};", v[0]));
                        self.normalize(&r, p);
                    }
                    (UnOp::Neg, _) => {
                        let t = match p {
                            Prim::U64 | Prim::Usize | Prim::I64 => "s64",
                            Prim::F32 => "f32",
                            Prim::F64 => "f64",
                            _ => "s32",
                        };
                        self.ins(format!("neg.{t} {r}, {};", v[0]));
                        self.normalize(&r, p);
                    }
                }
                Ok(vec![r])
            }
            Expr::Scalar(Scalar::Binary(op, x, y)) => self.binary(*op, *x, *y),
            Expr::Scalar(Scalar::Cast(x, to)) => {
                let from = prim_of(a.ty(*x))?;
                let v = self.expr(*x)?;
                Ok(vec![self.cast(&v[0], from, *to)])
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                let c = self.expr(*c)?;
                let out = self.fresh(&ty);
                let (l_else, l_end) = (self.label("else"), self.label("endif"));
                self.ins(format!("@!{} bra {l_else};", c[0]));
                let tv = self.expr(*t)?;
                self.assign(&out, &tv, &ty);
                self.ins(format!("bra {l_end};"));
                self.put_label(&l_else);
                let ev = self.expr(*e)?;
                self.assign(&out, &ev, &ty);
                self.put_label(&l_end);
                Ok(out)
            }
            Expr::Scalar(Scalar::While { .. }) => self.versioned_loop(h),
            Expr::Scalar(Scalar::Some(x)) => {
                let v = self.expr(*x)?;
                let t = self.reg(Class::R);
                let p = self.reg(Class::P);
                self.ins(format!("mov.b32 {t}, 1;"));
                self.ins(format!("setp.ne.u32 {p}, {t}, 0;"));
                let mut out = vec![p];
                out.extend(v);
                Ok(out)
            }
            Expr::Scalar(Scalar::None(t)) => Ok(self.zero(t)),
            Expr::Scalar(Scalar::Shape(x)) => match a.expr(*x) {
                Expr::Plan(PlanRead::Buffer(b)) => {
                    let rank = match a.ty(*x) {
                        Ty::Array(_, r) => *r,
                        _ => 0,
                    };
                    Ok((0..rank).flat_map(|d| self.param(Arg::Dim(b.0, d))).collect())
                }
                _ => Err(Unsupported::Expression(
                    "the shape of an array that is not materialised".into(),
                )),
            },
            Expr::Plan(PlanRead::ReadLinear { array, index }) => {
                let b = buffer(a, *array)?;
                let i = self.expr(*index)?;
                // In a quad, reads at the element's own index are loaded already.
                let loaded = match &self.lane {
                    Some((at, loaded)) if *at == i[0] => loaded.clone(),
                    _ => HashMap::new(),
                };
                Ok(self.read_loaded(b, &i[0], &loaded))
            }
            Expr::Plan(PlanRead::ReadIndex { array, index }) => {
                let b = buffer(a, *array)?;
                let ix = self.expr(*index)?;
                let l = self.linearize(b, &ix);
                Ok(self.read(b, &l))
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var,
                body,
            }) if self.proved(h) => {
                let ix = self.expr(*index)?;
                let old = self.bind(*var, ix);
                let v = self.expr(*body)?;
                self.unbind(*var, old);
                Ok(v)
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var,
                body,
            }) => {
                let ix = self.expr(*index)?;
                let sh = self.expr(*shape)?;
                let ok = self.in_bounds(&ix, &sh);
                let out = self.fresh(&ty);
                let (l_bad, l_end) = (self.label("oob"), self.label("inb"));
                self.ins(format!("@!{ok} bra {l_bad};"));
                let old = self.bind(*var, ix);
                let v = self.expr(*body)?;
                self.unbind(*var, old);
                self.assign(&out, &v, &ty);
                self.ins(format!("bra {l_end};"));
                self.put_label(&l_bad);
                self.fail(ErrorKind::IndexOutOfBounds, op, "index out of bounds", a.loc(h));
                let z = self.zero(&ty);
                self.assign(&out, &z, &ty);
                self.put_label(&l_end);
                Ok(out)
            }
            // The GPU path prints nothing (see `Scalar::Trace`).
            Expr::Scalar(Scalar::Trace { body, .. }) => self.expr(*body),
            Expr::Scalar(Scalar::Assert {
                cond,
                kind,
                op,
                msg,
                body,
            }) => {
                let c = self.expr(*cond)?;
                let l_ok = self.label("assert");
                self.ins(format!("@{} bra {l_ok};", c[0]));
                self.fail(*kind, op, msg, a.loc(h));
                self.put_label(&l_ok);
                self.expr(*body)
            }
            Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                offset,
                boundary,
            }) => {
                let b = buffer(a, *array)?;
                let c = self.expr(*center)?;
                self.read_stencil(b, &c, offset, *boundary, &ty)
            }
            Expr::Scalar(Scalar::Math(f, xs)) => self.math(*f, xs, &ty),
            // Fusion leaves none of these in element code: array operations
            // became kernels, reads became checked or proved ones, and a
            // buffer is only the array argument of a read.
            other @ (Expr::Array(_)
            | Expr::Seq(_)
            | Expr::Scalar(Scalar::Read { .. })
            | Expr::Plan(PlanRead::Buffer(_))) => Err(Unsupported::Expression(format!(
                "{} in a kernel",
                expr_name(other)
            ))),
        }
    }

    /// The registers of each of `xs`. Components projecting one shared
    /// expression (a loop body's state update) evaluate it once.
    fn components(&mut self, xs: &[H]) -> Result<Vec<Vec<String>>, Unsupported> {
        let a = self.a;
        let shared = a.shared_projections(xs);
        let mut done: HashMap<H, Vec<String>> = HashMap::new();
        let mut out = Vec::new();
        for &x in xs {
            out.push(match a.expr(x) {
                Expr::Scalar(Scalar::Proj(b, j)) if shared.contains(b) => {
                    if !done.contains_key(b) {
                        let v = self.expr(*b)?;
                        done.insert(*b, v);
                    }
                    proj_regs(a.ty(*b), &done[b], *j)
                }
                _ => self.expr(x)?,
            });
        }
        Ok(out)
    }

    /// Reads buffer `b` at row-major offset `l`.
    pub fn read(&mut self, b: u32, l: &str) -> Vec<String> {
        self.read_loaded(b, l, &HashMap::new())
    }

    /// Reads buffer `b` at row-major offset `l`, but takes the leaves in
    /// `loaded` (by (buffer, leaf)) from their registers.
    fn read_loaded(&mut self, b: u32, l: &str, loaded: &Loaded) -> Vec<String> {
        let ps = leaves(&self.buf_elems[b as usize]);
        let mut out = Vec::new();
        for (k, p) in ps.into_iter().enumerate() {
            match loaded.get(&(b, k)) {
                Some(r) => out.push(r.clone()),
                None => {
                    let base = self.param(Arg::Col(b, k))[0].clone();
                    out.push(self.load(&base, l, p, false));
                }
            }
        }
        out
    }

    /// Row-major offset of index `ix` in buffer `b`.
    pub fn linearize(&mut self, b: u32, ix: &[String]) -> String {
        let dims: Vec<String> = (0..ix.len())
            .map(|d| self.param(Arg::Dim(b, d))[0].clone())
            .collect();
        self.linearize_in(ix, &dims)
    }

    pub fn linearize_in(&mut self, ix: &[String], dims: &[String]) -> String {
        let l = self.reg(Class::Rd);
        self.ins(format!("mov.b64 {l}, 0;"));
        for (i, d) in ix.iter().zip(dims) {
            self.ins(format!("mad.lo.u64 {l}, {l}, {d}, {i};"));
        }
        l
    }

    /// Index `ix` of a shape of dimensions `dims` from row-major offset `l`.
    pub fn delinearize(&mut self, l: &str, dims: &[String]) -> Vec<String> {
        let rem = self.reg(Class::Rd);
        self.ins(format!("mov.b64 {rem}, {l};"));
        let mut ix = vec![String::new(); dims.len()];
        for d in (0..dims.len()).rev() {
            let r = self.reg(Class::Rd);
            if d == 0 {
                self.ins(format!("mov.b64 {r}, {rem};"));
            } else {
                self.ins(format!("rem.u64 {r}, {rem}, {};", dims[d]));
                self.ins(format!("div.u64 {rem}, {rem}, {};", dims[d]));
            }
            ix[d] = r;
        }
        ix
    }

    /// A predicate: every component of `ix` below the shape's.
    pub fn in_bounds(&mut self, ix: &[String], sh: &[String]) -> String {
        let ok = self.reg(Class::R);
        self.ins(format!("mov.b32 {ok}, 1;"));
        for (i, s) in ix.iter().zip(sh) {
            let p = self.reg(Class::P);
            self.ins(format!("setp.ge.u64 {p}, {i}, {s};"));
            self.ins(format!("@{p} mov.b32 {ok}, 0;"));
        }
        let p = self.reg(Class::P);
        self.ins(format!("setp.ne.u32 {p}, {ok}, 0;"));
        p
    }

    // ---- bounds proofs (`plan::bounds`) ----

    /// Whether checked read `h` goes unchecked where it is being lowered.
    fn proved(&self, h: H) -> bool {
        match self.proofs.get(h) {
            Some(Proof::Iteration | Proof::Counter) => true,
            Some(Proof::BeforeLoop(lp)) => self.fast_loops.contains(lp),
            Some(Proof::Entry { .. }) => self.assume_entry,
            None => false,
        }
    }

    /// `body()` (an element function's value, of type `ty`) in two
    /// versions when some of its reads are proved by the kernel's entry
    /// tests: one without those checks, run when the tests hold, and one
    /// with them. The tests compare extents and host values, the same for
    /// every thread, so whole warps take one branch.
    pub fn versioned_elem(
        &mut self,
        ty: &Ty,
        mut body: impl FnMut(&mut Self) -> Result<Vec<String>, Unsupported>,
    ) -> Result<Vec<String>, Unsupported> {
        if self.assume_entry {
            return body(self);
        }
        let Some(p) = self.entry_tests()? else {
            return body(self);
        };
        let out = self.fresh(ty);
        let (checked, done) = (self.label("checked"), self.label("tested"));
        self.ins(format!("@!{p} bra {checked};"));
        self.assume_entry = true;
        let v = body(self);
        self.assume_entry = false;
        self.assign(&out, &v?, ty);
        self.ins(format!("bra {done};"));
        self.put_label(&checked);
        let v = body(self)?;
        self.assign(&out, &v, ty);
        self.put_label(&done);
        Ok(out)
    }

    /// The predicate of the kernel's entry tests (`bound <= shape[k]` for
    /// each test of [`Proofs::entry`]), made once in the prologue; `None`
    /// when no read relies on them.
    fn entry_tests(&mut self) -> Result<Option<String>, Unsupported> {
        if let Some(p) = &self.entry_pred {
            return Ok(Some(p.clone()));
        }
        let tests = self.proofs.entry(self.a);
        if tests.is_empty() {
            return Ok(None);
        }
        // Lowered into the prologue: the values are parameters and
        // arithmetic on them.
        let body = std::mem::take(&mut self.body);
        let p = self.reg(Class::P);
        self.ins(format!("setp.eq.u32 {p}, 0, 0;"));
        let made = tests.into_iter().try_for_each(|(bound, shape, k)| {
            let (b, cmp) = match bound {
                Bound::Extent(d) => (self.param(Arg::IterDim(d))[0].clone(), "le"),
                Bound::Value(e) => (self.expr(e)?[0].clone(), "le"),
                Bound::At(e) => (self.expr(e)?[0].clone(), "lt"),
                Bound::BoxEnd(..) => return Err(Unsupported::Internal("a box bound outside a box".into())),
            };
            let n = self.expr(shape)?[k].clone();
            let t = self.reg(Class::P);
            self.ins(format!("setp.{cmp}.u64 {t}, {b}, {n};"));
            self.ins(format!("and.pred {p}, {p}, {t};"));
            Ok(())
        });
        let tests = std::mem::replace(&mut self.body, body);
        made?;
        self.prologue.push_str(&tests);
        self.entry_pred = Some(p.clone());
        Ok(Some(p))
    }

    /// A `while` loop, in two versions when its counter reads are proved by
    /// tests made before it (`x <= shape[0]` for each of
    /// [`Proofs::before_loop`]): one without those checks, run when the
    /// tests hold. Each version doubles the loops inside it: two levels at
    /// most, as on the CPU.
    pub(super) fn versioned_loop(&mut self, h: H) -> Result<Vec<String>, Unsupported> {
        if let Some(w) = &self.warp_loops {
            if w.loops.contains(&h) {
                let w = w.clone();
                return super::segments::shared_loop(self, h, &w);
            }
        }
        let tests = self.proofs.before_loop(h).to_vec();
        if tests.is_empty() || self.fast_loops.len() >= 2 {
            return self.while_loop(h);
        }
        let p = self.reg(Class::P);
        self.ins(format!("setp.eq.u32 {p}, 0, 0;"));
        for (x, shape) in tests {
            let (x, n) = (self.expr(x)?[0].clone(), self.expr(shape)?[0].clone());
            let t = self.reg(Class::P);
            self.ins(format!("setp.le.u64 {t}, {x}, {n};"));
            self.ins(format!("and.pred {p}, {p}, {t};"));
        }
        let ty = self.a.ty(h).clone();
        let out = self.fresh(&ty);
        let (checked, done) = (self.label("lchecked"), self.label("ltested"));
        self.ins(format!("@!{p} bra {checked};"));
        self.fast_loops.push(h);
        let v = self.while_loop(h);
        self.fast_loops.pop();
        self.assign(&out, &v?, &ty);
        self.ins(format!("bra {done};"));
        self.put_label(&checked);
        let v = self.while_loop(h)?;
        self.assign(&out, &v, &ty);
        self.put_label(&done);
        Ok(out)
    }

    fn while_loop(&mut self, h: H) -> Result<Vec<String>, Unsupported> {
        let a = self.a;
        let Expr::Scalar(Scalar::While {
            vars,
            init,
            cond,
            step,
            ..
        }) = a.expr(h)
        else {
            return Err(Unsupported::Internal("while_loop of another node".into()));
        };
        let tys: Vec<Ty> = vars.iter().map(|v| a.var(*v).ty.clone()).collect();
        let mut state = Vec::new();
        for (x, t) in init.iter().zip(&tys) {
            let v = self.expr(*x)?;
            let s = self.fresh(t);
            self.assign(&s, &v, t);
            state.push(s);
        }
        let olds: Vec<_> = vars
            .iter()
            .zip(&state)
            .map(|(v, s)| self.bind(*v, s.clone()))
            .collect();
        let (l_top, l_end) = (self.label("while"), self.label("wend"));
        self.put_label(&l_top);
        let c = self.expr(*cond)?;
        self.ins(format!("@!{} bra {l_end};", c[0]));
        let next = self.components(step)?;
        let moves = state.iter().zip(next).zip(&tys).flat_map(|((s, n), t)| {
            s.iter()
                .cloned()
                .zip(n)
                .zip(leaves(t))
                .map(|((d, s), p)| (d, s, p))
        });
        self.parallel_copy(moves.collect());
        self.ins(format!("bra {l_top};"));
        self.put_label(&l_end);
        for (v, o) in vars.iter().zip(olds) {
            self.unbind(*v, o);
        }
        Ok(state.concat())
    }

    fn read_stencil(
        &mut self,
        b: u32,
        c: &[String],
        offset: &[i32],
        boundary: Boundary,
        ty: &Ty,
    ) -> Result<Vec<String>, Unsupported> {
        if self.interior.as_deref() == Some(c) {
            let mut ix = Vec::new();
            for (d, o) in offset.iter().enumerate() {
                let i = self.reg(Class::Rd);
                self.ins(format!("add.s64 {i}, {}, {o};", c[d]));
                ix.push(i);
            }
            let l = self.linearize(b, &ix);
            return Ok(self.read(b, &l));
        }
        // Accelerate's boundary rules, as `accel_runtime::cpu::stencil::coord`.
        let out = self.fresh(ty);
        let l_out = self.label("sout");
        let l_end = self.label("send");
        let mut ix = Vec::new();
        for (d, o) in offset.iter().enumerate() {
            let n = self.param(Arg::Dim(b, d))[0].clone();
            let i = self.reg(Class::Rd);
            self.ins(format!("add.s64 {i}, {}, {o};", c[d]));
            let inside = self.reg(Class::P);
            self.ins(format!("setp.lt.u64 {inside}, {i}, {n};"));
            let l_ok = self.label("sin");
            self.ins(format!("@{inside} bra {l_ok};"));
            match boundary {
                Boundary::Constant(_) => self.ins(format!("bra {l_out};")),
                Boundary::Clamp => {
                    let nm1 = self.reg(Class::Rd);
                    self.ins(format!("sub.s64 {nm1}, {n}, 1;"));
                    self.ins(format!("max.s64 {i}, {i}, 0;"));
                    self.ins(format!("min.s64 {i}, {i}, {nm1};"));
                }
                Boundary::Wrap => {
                    self.ins(format!("rem.s64 {i}, {i}, {n};"));
                    let neg = self.reg(Class::P);
                    self.ins(format!("setp.lt.s64 {neg}, {i}, 0;"));
                    self.ins(format!("@{neg} add.s64 {i}, {i}, {n};"));
                }
                Boundary::Mirror => {
                    // Period 2n - 2; an extent of 1 always reads 0.
                    let p = self.reg(Class::Rd);
                    let one = self.reg(Class::P);
                    self.ins(format!("setp.le.u64 {one}, {n}, 1;"));
                    self.ins(format!("shl.b64 {p}, {n}, 1;"));
                    self.ins(format!("sub.s64 {p}, {p}, 2;"));
                    self.ins(format!("@{one} mov.b64 {p}, 1;"));
                    self.ins(format!("rem.s64 {i}, {i}, {p};"));
                    let neg = self.reg(Class::P);
                    self.ins(format!("setp.lt.s64 {neg}, {i}, 0;"));
                    self.ins(format!("@{neg} add.s64 {i}, {i}, {p};"));
                    let big = self.reg(Class::P);
                    self.ins(format!("setp.ge.s64 {big}, {i}, {n};"));
                    self.ins(format!("@{big} sub.s64 {i}, {p}, {i};"));
                    self.ins(format!("@{one} mov.b64 {i}, 0;"));
                }
            }
            self.put_label(&l_ok);
            ix.push(i);
        }
        let l = self.linearize(b, &ix);
        let v = self.read(b, &l);
        self.assign(&out, &v, ty);
        self.ins(format!("bra {l_end};"));
        self.put_label(&l_out);
        if let Boundary::Constant(k) = boundary {
            let kv = self.expr(k)?;
            self.assign(&out, &kv, ty);
        }
        self.put_label(&l_end);
        Ok(out)
    }

    fn binary(&mut self, op: BinOp, x: H, y: H) -> Result<Vec<String>, Unsupported> {
        let a = self.a;
        let xt = a.ty(x).clone();
        if matches!(op, BinOp::And | BinOp::Or) {
            // Short-circuit: `y` runs only when it decides the result.
            let u = self.reg(Class::R);
            let xv = self.expr(x)?;
            self.ins(format!("selp.u32 {u}, 1, 0, {};", xv[0]));
            let l_end = self.label("sc");
            let skip = if op == BinOp::And { "@!" } else { "@" };
            self.ins(format!("{skip}{} bra {l_end};", xv[0]));
            let yv = self.expr(y)?;
            self.ins(format!("selp.u32 {u}, 1, 0, {};", yv[0]));
            self.put_label(&l_end);
            let p = self.reg(Class::P);
            self.ins(format!("setp.ne.u32 {p}, {u}, 0;"));
            return Ok(vec![p]);
        }
        let mut xv = self.expr(x)?;
        let mut yv = self.expr(y)?;
        if op.is_comparison() {
            return self.compare(op, &xv, &yv, &xt);
        }
        let mut p = prim_of(&xt)?;
        // Half precision: computed in `f32`, rounded back.
        let half = p.is_half().then_some(p);
        if let Some(h) = half {
            xv = vec![self.widen_half(&xv[0], h)];
            yv = vec![self.widen_half(&yv[0], h)];
            p = Prim::F32;
        }
        if p == Prim::Bool {
            // `&`, `|`, `^` on bools (arithmetic is rejected by the type checker).
            let (u, v) = (self.pred_to_u32(&xv[0]), self.pred_to_u32(&yv[0]));
            let w = self.reg(Class::R);
            let i = match op {
                BinOp::BitAnd | BinOp::Mul => "and",
                BinOp::BitOr => "or",
                BinOp::BitXor | BinOp::Add | BinOp::Sub => "xor",
                _ => return Err(Unsupported::op(op.symbol(), "bool")),
            };
            self.ins(format!("{i}.b32 {w}, {u}, {v};"));
            let r = self.reg(Class::P);
            self.ins(format!("setp.ne.u32 {r}, {w}, 0;"));
            return Ok(vec![r]);
        }
        let (xa, ya) = (xv[0].clone(), yv[0].clone());
        let c = class(p);
        let t = aty(p);
        let r = self.reg(c);
        let bits = if c == Class::Rd { "b64" } else { "b32" };
        if p.is_float() {
            match op {
                BinOp::Add => self.ins(format!("add.rn.{t} {r}, {xa}, {ya};")),
                BinOp::Sub => self.ins(format!("sub.rn.{t} {r}, {xa}, {ya};")),
                BinOp::Mul => self.ins(format!("mul.rn.{t} {r}, {xa}, {ya};")),
                BinOp::Div => self.ins(format!("div.rn.{t} {r}, {xa}, {ya};")),
                BinOp::Rem => {
                    if self
                        .call_func((None, p), &[xa.clone(), ya.clone()], p, &r)
                        .is_none()
                    {
                        return Err(Unsupported::op("%", p.name()));
                    }
                }
                _ => return Err(Unsupported::op(op.symbol(), p.name())),
            }
            if let Some(h) = half {
                return Ok(vec![self.narrow_half(&r, h)]);
            }
            return Ok(vec![r]);
        }
        match op {
            BinOp::Add => self.ins(format!("add.{t} {r}, {xa}, {ya};")),
            BinOp::Sub => self.ins(format!("sub.{t} {r}, {xa}, {ya};")),
            BinOp::Mul => self.ins(format!("mul.lo.{t} {r}, {xa}, {ya};")),
            BinOp::BitAnd => self.ins(format!("and.{bits} {r}, {xa}, {ya};")),
            BinOp::BitOr => self.ins(format!("or.{bits} {r}, {xa}, {ya};")),
            BinOp::BitXor => self.ins(format!("xor.{bits} {r}, {xa}, {ya};")),
            BinOp::Div | BinOp::Rem => {
                let q = self.int_div(op == BinOp::Div, p, &xa, &ya);
                self.ins(format!("mov.{bits} {r}, {q};"));
            }
            BinOp::Shl | BinOp::Shr => {
                // The amount modulo the width (`wrapping_shl`).
                let yp = prim_of(a.ty(y))?;
                let amt = self.reg(Class::R);
                if class(yp) == Class::Rd {
                    self.ins(format!("cvt.u32.u64 {amt}, {ya};"));
                } else {
                    self.ins(format!("mov.b32 {amt}, {ya};"));
                }
                self.ins(format!("and.b32 {amt}, {amt}, {};", p.width() - 1));
                if op == BinOp::Shl {
                    self.ins(format!("shl.{bits} {r}, {xa}, {amt};"));
                } else {
                    self.ins(format!("shr.{t} {r}, {xa}, {amt};"));
                }
            }
            _ => return Err(Unsupported::op(op.symbol(), p.name())),
        }
        self.normalize(&r, p);
        Ok(vec![r])
    }

    /// Integer `x / y` (`div`) or `x % y` with accel's semantics: by zero
    /// they give `0` and `x`; `MIN / -1` wraps to `MIN` and `MIN % -1` is 0.
    /// The result is normalised for narrow types.
    fn int_div(&mut self, div: bool, p: Prim, xa: &str, ya: &str) -> String {
        let c = class(p);
        let t = aty(p);
        let bits = if c == Class::Rd { "b64" } else { "b32" };
        let r = self.reg(c);
        // Divide by a safe divisor; patch the results for 0 and -1.
        let zero = self.reg(Class::P);
        self.ins(format!("setp.eq.{t} {zero}, {ya}, 0;"));
        let d = self.reg(c);
        self.ins(format!("selp.{t} {d}, 1, {ya}, {zero};"));
        let minus1 = if p.is_signed() {
            let m = self.reg(Class::P);
            self.ins(format!("setp.eq.{t} {m}, {ya}, -1;"));
            self.ins(format!("@{m} mov.{bits} {d}, 1;"));
            Some(m)
        } else {
            None
        };
        if div {
            self.ins(format!("div.{t} {r}, {xa}, {d};"));
            self.ins(format!("@{zero} mov.{bits} {r}, 0;"));
            if let Some(m) = minus1 {
                self.ins(format!("@{m} neg.{t} {r}, {xa};"));
            }
        } else {
            self.ins(format!("rem.{t} {r}, {xa}, {d};"));
            self.ins(format!("@{zero} mov.{bits} {r}, {xa};"));
            if let Some(m) = minus1 {
                self.ins(format!("@{m} mov.{bits} {r}, 0;"));
            }
        }
        self.normalize(&r, p);
        r
    }

    fn compare(
        &mut self,
        op: BinOp,
        xv: &[String],
        yv: &[String],
        t: &Ty,
    ) -> Result<Vec<String>, Unsupported> {
        let ps = leaves(t);
        if ps.len() != 1 {
            // Tuples: equality only, component by component (the language
            // has no other comparison of tuples; `min`/`max` desugar).
            if !matches!(op, BinOp::Eq | BinOp::Ne) {
                return Err(Unsupported::op(op.symbol(), "tuples"));
            }
            let all = self.reg(Class::R);
            self.ins(format!("mov.b32 {all}, 1;"));
            for ((x, y), p) in xv.iter().zip(yv).zip(ps) {
                let e = self.compare(
                    BinOp::Eq,
                    std::slice::from_ref(x),
                    std::slice::from_ref(y),
                    &Ty::Prim(p),
                )?;
                self.ins(format!("@!{} mov.b32 {all}, 0;", e[0]));
            }
            let r = self.reg(Class::P);
            let c = if op == BinOp::Eq { "ne" } else { "eq" };
            self.ins(format!("setp.{c}.u32 {r}, {all}, 0;"));
            return Ok(vec![r]);
        }
        let mut p = ps[0];
        let (mut x, mut y) = (xv[0].clone(), yv[0].clone());
        if p.is_half() {
            x = self.widen_half(&x, p);
            y = self.widen_half(&y, p);
            p = Prim::F32;
        }
        if p == Prim::Bool {
            x = self.pred_to_u32(&x);
            y = self.pred_to_u32(&y);
        }
        let c = match op {
            BinOp::Eq => "eq",
            // Rust's `!=` holds when either side is NaN.
            BinOp::Ne if p.is_float() => "neu",
            BinOp::Ne => "ne",
            BinOp::Lt => "lt",
            BinOp::Le => "le",
            BinOp::Gt => "gt",
            _ => "ge",
        };
        let r = self.reg(Class::P);
        self.ins(format!("setp.{c}.{} {r}, {x}, {y};", aty(p)));
        Ok(vec![r])
    }

    /// Rust's `as` from `from` to `to`.
    pub fn cast(&mut self, v: &str, from: Prim, to: Prim) -> String {
        if from == to {
            return v.to_string();
        }
        // Half-precision values convert through `f32`, both ways.
        if from.is_half() {
            let f = self.widen_half(v, from);
            return self.cast(&f, Prim::F32, to);
        }
        if to.is_half() {
            let f = self.cast(v, from, Prim::F32);
            return self.narrow_half(&f, to);
        }
        let r = self.reg(class(to));
        if from == Prim::Bool {
            let u = self.pred_to_u32(v);
            return self.cast(&u, Prim::U32, to);
        }
        if to == Prim::Bool {
            // Not valid Rust; kept total.
            self.ins(format!("setp.ne.{} {r}, {v}, 0;", aty(from)));
            return r;
        }
        match (from.is_float(), to.is_float()) {
            (true, true) => {
                let rnd = if to.width() < from.width() { ".rn" } else { "" };
                self.ins(format!("cvt{rnd}.{}.{} {r}, {v};", aty(to), aty(from)));
            }
            (false, true) => {
                self.ins(format!("cvt.rn.{}.{} {r}, {v};", aty(to), aty(from)));
            }
            (true, false) => {
                // Saturating, NaN to 0: convert to the wide type of the same
                // signedness (saturating), then clamp narrow types.
                let wide = match (to.width(), to.is_signed()) {
                    (64, true) => "s64",
                    (64, false) => "u64",
                    (_, true) => "s32",
                    (_, false) => "u32",
                };
                self.ins(format!("cvt.rzi.sat.{wide}.{} {r}, {v};", aty(from)));
                let (lo, hi): (i64, i64) = match to {
                    Prim::I8 => (-128, 127),
                    Prim::I16 => (-32768, 32767),
                    Prim::U8 => (0, 255),
                    Prim::U16 => (0, 65535),
                    _ => (0, 0),
                };
                if hi != 0 {
                    self.ins(format!("max.{wide} {r}, {r}, {lo};"));
                    self.ins(format!("min.{wide} {r}, {r}, {hi};"));
                }
                let nan = self.reg(Class::P);
                self.ins(format!("setp.nan.{} {nan}, {v}, {v};", aty(from)));
                let bits = if class(to) == Class::Rd { "b64" } else { "b32" };
                self.ins(format!("@{nan} mov.{bits} {r}, 0;"));
            }
            (false, false) => {
                let (fc, tc) = (class(from), class(to));
                match (fc, tc) {
                    (Class::Rd, Class::Rd) => self.ins(format!("mov.b64 {r}, {v};")),
                    (Class::Rd, _) => {
                        self.ins(format!("cvt.u32.u64 {r}, {v};"));
                        self.normalize(&r, to);
                    }
                    (_, Class::Rd) => {
                        // The 32-bit register holds the value extended by the
                        // source's signedness.
                        let s = if from.is_signed() { "s" } else { "u" };
                        self.ins(format!("cvt.{s}64.{s}32 {r}, {v};"));
                    }
                    _ => {
                        self.ins(format!("mov.b32 {r}, {v};"));
                        self.normalize(&r, to);
                    }
                }
            }
        }
        r
    }

    fn math(&mut self, f: MathFn, xs: &[H], ty: &Ty) -> Result<Vec<String>, Unsupported> {
        let a = self.a;
        let mut p = prim_of(a.ty(xs[0]))?;
        let mut args = Vec::new();
        for x in xs {
            let v = self.expr(*x)?[0].clone();
            // Half-precision arguments in `f32`; the result rounded back.
            match prim_of(a.ty(*x))? {
                h if h.is_half() => args.push(self.widen_half(&v, h)),
                _ => args.push(v),
            }
        }
        let mut rp = prim_of(ty)?;
        if p.is_half() {
            let narrow = rp.is_half().then_some(rp);
            p = Prim::F32;
            if narrow.is_some() {
                rp = Prim::F32;
            }
            let r = self.math_regs(f, p, &args, rp)?;
            return Ok(vec![match narrow {
                Some(h) => self.narrow_half(&r, h),
                None => r,
            }]);
        }
        Ok(vec![self.math_regs(f, p, &args, rp)?])
    }

    /// [`Lower::math`] on registers: `f` of `args` (receiver type `p`), the
    /// result (of type `rp`) in a fresh register.
    fn math_regs(&mut self, f: MathFn, p: Prim, args: &[String], rp: Prim) -> Result<String, Unsupported> {
        let t = aty(p);
        let c = class(p);
        let r = self.reg(class(rp));
        // Operations with one PTX instruction and Rust's semantics.
        let inline = match (f, p.is_float()) {
            (MathFn::Sqrt, true) => Some(format!("sqrt.rn.{t} {r}, {};", args[0])),
            (MathFn::Abs, true) => Some(format!("abs.{t} {r}, {};", args[0])),
            (MathFn::MulAdd, true) => Some(format!("fma.rn.{t} {r}, {}, {}, {};", args[0], args[1], args[2])),
            (MathFn::Min, false) if p != Prim::Bool => {
                Some(format!("min.{t} {r}, {}, {};", args[0], args[1]))
            }
            (MathFn::Max, false) if p != Prim::Bool => {
                Some(format!("max.{t} {r}, {}, {};", args[0], args[1]))
            }
            (MathFn::CountOnes, false) if c != Class::P => {
                let w = if c == Class::Rd { "b64" } else { "b32" };
                let mut s = format!("popc.{w} {r}, {};", args[0]);
                if matches!(p, Prim::I8 | Prim::I16) {
                    // Count the bits of the narrow type only.
                    let m = self.reg(Class::R);
                    self.ins(format!("and.b32 {m}, {}, {};", args[0], (1u32 << p.width()) - 1));
                    s = format!("popc.b32 {r}, {m};");
                }
                Some(s)
            }
            (MathFn::ToBits, true) => Some(format!("mov.b{} {r}, {};", p.width(), args[0])),
            (MathFn::FromBits, false) if matches!(p, Prim::U32 | Prim::U64) => {
                Some(format!("mov.b{} {r}, {};", p.width(), args[0]))
            }
            (MathFn::IsNan, true) => Some(format!("setp.nan.{t} {r}, {}, {};", args[0], args[0])),
            _ => None,
        };
        if let Some(i) = inline {
            self.ins(i);
            return Ok(r);
        }
        if !p.is_float() {
            if let Some(v) = self.int_math(f, p, args, &r)? {
                return Ok(v);
            }
        }
        // Everything else through the math library's `.func`s.
        match self.call_func((Some(f), p), args, rp, &r) {
            Some(()) => Ok(r),
            None => Err(Unsupported::op(format!("x.{}()", f.name()), p.name())),
        }
    }

    /// Calls the math library's `.func` for `key` with `args`, the result in
    /// `r` (of type `rp`); `None` when the library has no such function.
    fn call_func(&mut self, key: math_lib::FuncKey, args: &[String], rp: Prim, r: &str) -> Option<()> {
        let func = math_lib::lookup(key)?;
        if !self.funcs.contains(&key) {
            self.funcs.push(key);
        }
        let mut s = String::from("{\n");
        let mut names = Vec::new();
        for (i, (arg, pt)) in args.iter().zip(&func.params).enumerate() {
            let n = format!("__a{i}");
            let _ = writeln!(s, "\t.param {pt} {n};");
            let _ = writeln!(s, "\tst.param{pt} [{n}], {arg};");
            names.push(n);
        }
        let _ = writeln!(s, "\t.param {} __rv;", func.ret);
        let _ = writeln!(s, "\tcall.uni (__rv), {}, ({});", func.name, names.join(", "));
        if rp == Prim::Bool {
            let u = self.reg(Class::R);
            let _ = writeln!(s, "\tld.param{} {u}, [__rv];", func.ret);
            let _ = write!(s, "\tsetp.ne.u32 {r}, {u}, 0;\n\t}}");
        } else {
            let _ = write!(s, "\tld.param{} {r}, [__rv];\n\t}}", func.ret);
        }
        self.ins(s);
        Some(())
    }

    /// Integer (and bool) math methods, inline, with accel's semantics; the
    /// result is `r`. `None`: not one of these.
    fn int_math(
        &mut self,
        f: MathFn,
        p: Prim,
        args: &[String],
        r: &str,
    ) -> Result<Option<String>, Unsupported> {
        let t = aty(p);
        let c = class(p);
        let bits = if c == Class::Rd { "b64" } else { "b32" };
        let w = p.width();
        let x = args.first().cloned().unwrap_or_default();
        if p == Prim::Bool {
            // min/max on bool: false < true.
            let op = match f {
                MathFn::Min => "and",
                MathFn::Max => "or",
                _ => return Ok(None),
            };
            let (u, v) = (self.pred_to_u32(&args[0]), self.pred_to_u32(&args[1]));
            let o = self.reg(Class::R);
            self.ins(format!("{op}.b32 {o}, {u}, {v};"));
            self.ins(format!("setp.ne.u32 {r}, {o}, 0;"));
            return Ok(Some(r.to_string()));
        }
        // The value's bits of its own width, zero-extended (narrow types).
        let zext = |l: &mut Lower, x: &str| -> String {
            if w < 32 {
                let m = l.reg(Class::R);
                l.ins(format!("and.b32 {m}, {x}, {};", (1u32 << w) - 1));
                m
            } else {
                x.to_string()
            }
        };
        match f {
            MathFn::Abs => {
                // Wrapping: `MIN.abs() == MIN`.
                self.ins(format!("abs.{t} {r}, {x};"));
                self.normalize(r, p);
            }
            MathFn::WrappingAdd | MathFn::WrappingSub | MathFn::WrappingMul => {
                let i = match f {
                    MathFn::WrappingAdd => "add",
                    MathFn::WrappingSub => "sub",
                    _ => "mul.lo",
                };
                self.ins(format!("{i}.{t} {r}, {x}, {};", args[1]));
                self.normalize(r, p);
            }
            MathFn::WrappingNeg => {
                let nt = if c == Class::Rd { "s64" } else { "s32" };
                self.ins(format!("neg.{nt} {r}, {x};"));
                self.normalize(r, p);
            }
            MathFn::Clamp => {
                // `lo > hi` gives `hi`, as `accel_runtime::ops::MathOps`.
                let (lo, hi) = (&args[1], &args[2]);
                let (q1, q2) = (self.reg(Class::P), self.reg(Class::P));
                let m = self.reg(c);
                self.ins(format!("setp.lt.{t} {q1}, {x}, {lo};"));
                self.ins(format!("selp.{t} {m}, {lo}, {x}, {q1};"));
                self.ins(format!("setp.gt.{t} {q2}, {m}, {hi};"));
                self.ins(format!("selp.{t} {r}, {hi}, {m}, {q2};"));
            }
            MathFn::Signum if p.is_signed() => {
                let (q1, q2) = (self.reg(Class::P), self.reg(Class::P));
                self.ins(format!("setp.gt.{t} {q1}, {x}, 0;"));
                self.ins(format!("setp.lt.{t} {q2}, {x}, 0;"));
                self.ins(format!("selp.{t} {r}, 1, 0, {q1};"));
                self.ins(format!("@{q2} mov.{bits} {r}, -1;"));
            }
            MathFn::IsPositive | MathFn::IsNegative => {
                let cmp = if f == MathFn::IsPositive { "gt" } else { "lt" };
                self.ins(format!("setp.{cmp}.{t} {r}, {x}, 0;"));
            }
            MathFn::IsPowerOfTwo => {
                let m = self.reg(c);
                self.ins(format!("sub.{t} {m}, {x}, 1;"));
                self.ins(format!("and.{bits} {m}, {m}, {x};"));
                let o = self.reg(Class::R);
                let (q1, q2) = (self.reg(Class::P), self.reg(Class::P));
                self.ins(format!("setp.eq.{t} {q1}, {m}, 0;"));
                self.ins(format!("setp.ne.{t} {q2}, {x}, 0;"));
                self.ins(format!("selp.u32 {o}, 1, 0, {q1};"));
                self.ins(format!("@!{q2} mov.b32 {o}, 0;"));
                self.ins(format!("setp.ne.u32 {r}, {o}, 0;"));
            }
            MathFn::CountZeros => {
                let z = zext(self, &x);
                self.ins(format!("popc.{bits} {r}, {z};"));
                self.ins(format!("sub.u32 {r}, {w}, {r};"));
            }
            MathFn::LeadingZeros => {
                let z = zext(self, &x);
                self.ins(format!("clz.{bits} {r}, {z};"));
                if w < 32 {
                    self.ins(format!("sub.u32 {r}, {r}, {};", 32 - w));
                }
            }
            MathFn::TrailingZeros => {
                // Bit-reverse, count leading zeros; zero gives the width.
                let z = zext(self, &x);
                let b = self.reg(c);
                self.ins(format!("brev.{bits} {b}, {z};"));
                self.ins(format!("clz.{bits} {r}, {b};"));
                self.ins(format!("min.u32 {r}, {r}, {w};"));
            }
            MathFn::RotateLeft | MathFn::RotateRight => {
                // On the bits of the type's width; the amount modulo the width.
                let z = zext(self, &x);
                let n = self.reg(Class::R);
                self.ins(format!("and.b32 {n}, {}, {};", args[1], w - 1));
                let m = self.reg(Class::R);
                self.ins(format!("sub.u32 {m}, {w}, {n};"));
                let (lsh, rsh) = if f == MathFn::RotateLeft {
                    (&n, &m)
                } else {
                    (&m, &n)
                };
                let (a, b) = (self.reg(c), self.reg(c));
                let ut = if c == Class::Rd { "u64" } else { "u32" };
                self.ins(format!("shl.{bits} {a}, {z}, {lsh};"));
                self.ins(format!("shr.{ut} {b}, {z}, {rsh};"));
                self.ins(format!("or.{bits} {r}, {a}, {b};"));
                self.normalize(r, p);
            }
            MathFn::AbsDiff => {
                let (q, m) = (self.reg(Class::P), self.reg(c));
                self.ins(format!("setp.gt.{t} {q}, {x}, {};", args[1]));
                self.ins(format!("sub.{t} {m}, {x}, {};", args[1]));
                self.ins(format!("@!{q} sub.{t} {m}, {}, {x};", args[1]));
                self.ins(format!("mov.{bits} {r}, {m};"));
                self.normalize(r, crate::ptx::lower::unsigned(p));
            }
            MathFn::LeadingOnes | MathFn::TrailingOnes => {
                // The zeros of the complement.
                let n = self.reg(c);
                self.ins(format!("not.{bits} {n}, {x};"));
                let g = if f == MathFn::LeadingOnes {
                    MathFn::LeadingZeros
                } else {
                    MathFn::TrailingZeros
                };
                return self.int_math(g, p, &[n], r);
            }
            MathFn::ReverseBits => {
                // Reverse the full register, then bring a narrow type's bits down.
                let z = zext(self, &x);
                self.ins(format!("brev.{bits} {r}, {z};"));
                if w < 32 {
                    self.ins(format!("shr.u32 {r}, {r}, {};", 32 - w));
                }
                self.normalize(r, p);
            }
            MathFn::SwapBytes => {
                // Byte i moves to byte (n - 1 - i).
                let n = w / 8;
                let ut = if c == Class::Rd { "u64" } else { "u32" };
                self.ins(format!("mov.{bits} {r}, 0;"));
                let b = self.reg(c);
                for i in 0..n {
                    self.ins(format!("shr.{ut} {b}, {x}, {};", 8 * i));
                    self.ins(format!("and.{bits} {b}, {b}, 255;"));
                    self.ins(format!("shl.{bits} {b}, {b}, {};", 8 * (n - 1 - i)));
                    self.ins(format!("or.{bits} {r}, {r}, {b};"));
                }
                self.normalize(r, p);
            }
            MathFn::Pow => {
                // `wrapping_pow`: square and multiply over the exponent's bits.
                let (b, e) = (self.reg(c), self.reg(Class::R));
                let q = self.reg(Class::P);
                self.ins(format!("mov.{bits} {r}, 1;"));
                self.ins(format!("mov.{bits} {b}, {x};"));
                self.ins(format!("mov.b32 {e}, {};", args[1]));
                let (l_top, l_end) = (self.label("pow"), self.label("pow_end"));
                self.put_label(&l_top);
                self.ins(format!("setp.eq.u32 {q}, {e}, 0;"));
                self.ins(format!("@{q} bra {l_end};"));
                let o = self.reg(Class::R);
                self.ins(format!("and.b32 {o}, {e}, 1;"));
                self.ins(format!("setp.ne.u32 {q}, {o}, 0;"));
                self.ins(format!("@{q} mul.lo.{t} {r}, {r}, {b};"));
                self.ins(format!("mul.lo.{t} {b}, {b}, {b};"));
                self.ins(format!("shr.u32 {e}, {e}, 1;"));
                self.ins(format!("bra {l_top};"));
                self.put_label(&l_end);
                self.normalize(r, p);
            }
            MathFn::DivEuclid | MathFn::RemEuclid => {
                let y = &args[1];
                let div = f == MathFn::DivEuclid;
                let q = self.int_div(div, p, &x, y);
                self.ins(format!("mov.{bits} {r}, {q};"));
                if p.is_signed() {
                    // A negative remainder (y != 0) moves the quotient one
                    // step towards -inf for y > 0 (+inf for y < 0), and the
                    // remainder up by |y| (wrapping, for y == MIN).
                    let m = self.int_div(false, p, &x, y);
                    let (nz, neg) = (self.reg(Class::P), self.reg(Class::P));
                    self.ins(format!("setp.ne.{t} {nz}, {y}, 0;"));
                    self.ins(format!("setp.lt.and.{t} {neg}, {m}, 0, {nz};"));
                    let adj = self.reg(c);
                    if div {
                        let ypos = self.reg(Class::P);
                        self.ins(format!("setp.gt.{t} {ypos}, {y}, 0;"));
                        self.ins(format!("selp.{t} {adj}, -1, 1, {ypos};"));
                    } else {
                        self.ins(format!("abs.{t} {adj}, {y};"));
                    }
                    self.ins(format!("@{neg} add.{t} {r}, {r}, {adj};"));
                    self.normalize(r, p);
                }
            }
            MathFn::SaturatingAdd | MathFn::SaturatingSub => self.saturating_add_sub(f, p, &x, &args[1], r),
            MathFn::SaturatingMul => self.saturating_mul(p, &x, &args[1], r),
            _ => return Ok(None),
        }
        Ok(Some(r.to_string()))
    }

    /// `saturating_add` / `saturating_sub` of `x` and `y` of type `p` into `r`.
    fn saturating_add_sub(&mut self, f: MathFn, p: Prim, x: &str, y: &str, r: &str) {
        let c = class(p);
        let t = aty(p);
        let bits = if c == Class::Rd { "b64" } else { "b32" };
        let op = if f == MathFn::SaturatingAdd { "add" } else { "sub" };
        let w = p.width();
        if w < 32 {
            // Exact in 32 bits (the registers hold extended values); clamp.
            let (lo, hi) = int_range(p);
            self.ins(format!("{op}.s32 {r}, {x}, {y};"));
            self.ins(format!("max.s32 {r}, {r}, {lo};"));
            self.ins(format!("min.s32 {r}, {r}, {hi};"));
            return;
        }
        let q = self.reg(Class::P);
        let s = self.reg(c);
        self.ins(format!("{op}.{t} {s}, {x}, {y};"));
        if !p.is_signed() {
            // Wrapped iff the sum is below x (add) or y is above x (sub).
            if op == "add" {
                self.ins(format!("setp.lt.{t} {q}, {s}, {x};"));
                self.ins(format!("@{q} mov.{bits} {s}, -1;"));
            } else {
                self.ins(format!("setp.lt.{t} {q}, {x}, {y};"));
                self.ins(format!("@{q} mov.{bits} {s}, 0;"));
            }
        } else {
            // Overflow iff the result's sign differs from x's where the
            // operands' signs agree (add) or differ (sub): the sign bit of
            // (x ^ s) & (x ^ y') with y' = y (add) or !y (sub).
            let (a, b) = (self.reg(c), self.reg(c));
            self.ins(format!("xor.{bits} {a}, {x}, {s};"));
            self.ins(format!("xor.{bits} {b}, {x}, {y};"));
            if op == "add" {
                self.ins(format!("not.{bits} {b}, {b};"));
            }
            self.ins(format!("and.{bits} {a}, {a}, {b};"));
            self.ins(format!("setp.lt.{t} {q}, {a}, 0;"));
            // On overflow: MIN when x < 0, MAX otherwise.
            let (lo, hi) = int_range(p);
            let xn = self.reg(Class::P);
            self.ins(format!("setp.lt.{t} {xn}, {x}, 0;"));
            let m = self.reg(c);
            self.ins(format!("selp.{t} {m}, {lo}, {hi}, {xn};"));
            self.ins(format!("@{q} mov.{bits} {s}, {m};"));
        }
        self.ins(format!("mov.{bits} {r}, {s};"));
    }

    /// `saturating_mul` of `x` and `y` of type `p` into `r`.
    fn saturating_mul(&mut self, p: Prim, x: &str, y: &str, r: &str) {
        let c = class(p);
        let t = aty(p);
        let (lo, hi) = int_range(p);
        match p.width() {
            8 | 16 if p.is_signed() => {
                // Exact in 32 bits; clamp.
                self.ins(format!("mul.lo.s32 {r}, {x}, {y};"));
                self.ins(format!("max.s32 {r}, {r}, {lo};"));
                self.ins(format!("min.s32 {r}, {r}, {hi};"));
            }
            8 | 16 => {
                // Exact in 32 unsigned bits; clamp.
                self.ins(format!("mul.lo.u32 {r}, {x}, {y};"));
                self.ins(format!("min.u32 {r}, {r}, {hi};"));
            }
            32 => {
                // Exact in 64 bits; clamp and narrow.
                let d = self.reg(Class::Rd);
                let wt = if p.is_signed() { "s64" } else { "u64" };
                self.ins(format!("mul.wide.{t} {d}, {x}, {y};"));
                if p.is_signed() {
                    self.ins(format!("max.s64 {d}, {d}, {lo};"));
                }
                self.ins(format!("min.{wt} {d}, {d}, {hi};"));
                self.ins(format!("cvt.u32.u64 {r}, {d};"));
            }
            _ => {
                // The high half of the 128-bit product tells overflow: nonzero
                // (unsigned), or not the sign extension of the low half.
                let (l, h) = (self.reg(c), self.reg(c));
                self.ins(format!("mul.lo.{t} {l}, {x}, {y};"));
                self.ins(format!("mul.hi.{t} {h}, {x}, {y};"));
                let q = self.reg(Class::P);
                if p.is_signed() {
                    let sx = self.reg(c);
                    self.ins(format!("shr.s64 {sx}, {l}, 63;"));
                    self.ins(format!("setp.ne.s64 {q}, {h}, {sx};"));
                    // The true product's sign is that of x ^ y.
                    let (a, n) = (self.reg(c), self.reg(Class::P));
                    self.ins(format!("xor.b64 {a}, {x}, {y};"));
                    self.ins(format!("setp.lt.s64 {n}, {a}, 0;"));
                    let m = self.reg(c);
                    self.ins(format!("selp.s64 {m}, {lo}, {hi}, {n};"));
                    self.ins(format!("@{q} mov.b64 {l}, {m};"));
                } else {
                    self.ins(format!("setp.ne.u64 {q}, {h}, 0;"));
                    self.ins(format!("@{q} mov.b64 {l}, -1;"));
                }
                self.ins(format!("mov.b64 {r}, {l};"));
            }
        }
    }
}

/// The smallest and largest values of integer type `p`, as PTX immediates
/// (64-bit ones in hexadecimal: their bits).
fn int_range(p: Prim) -> (String, String) {
    let w = p.width();
    let (lo, hi) = if p.is_signed() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    };
    let imm = |v: i128| {
        if w < 64 {
            v.to_string()
        } else {
            format!("0x{:016X}", v as u64)
        }
    };
    (imm(lo), imm(hi))
}

/// The unsigned type of the width of `p`.
pub fn unsigned(p: Prim) -> Prim {
    match p {
        Prim::I8 => Prim::U8,
        Prim::I16 => Prim::U16,
        Prim::I32 => Prim::U32,
        Prim::I64 => Prim::U64,
        p => p,
    }
}

/// The registers of field `n` of a value of type `t` held in `v`.
fn proj_regs(t: &Ty, v: &[String], n: usize) -> Vec<String> {
    match t {
        Ty::Tuple(ts) => {
            let off: usize = ts[..n].iter().map(|t| leaves(t).len()).sum();
            let len = leaves(&ts[n]).len();
            v[off..off + len].to_vec()
        }
        _ => vec![v[n].clone()],
    }
}

fn prim_of(t: &Ty) -> Result<Prim, Unsupported> {
    t.prim()
        .ok_or_else(|| Unsupported::Expression(format!("a value of type {t} where a primitive is expected")))
}

fn buffer(a: &Arena, h: H) -> Result<u32, Unsupported> {
    match a.expr(h) {
        Expr::Plan(PlanRead::Buffer(b)) => Ok(b.0),
        _ => Err(Unsupported::Expression(
            "a read of an array that is not materialised".into(),
        )),
    }
}

fn expr_name(e: &Expr) -> &'static str {
    match e {
        Expr::Scalar(Scalar::Read { .. }) => "an unchecked array read",
        Expr::Plan(PlanRead::Buffer(_)) => "an array value",
        Expr::Array(_) => "an array operation",
        Expr::Seq(_) => "a sequence",
        Expr::Scalar(_) | Expr::Plan(_) => "this expression",
    }
}

#[cfg(test)]
mod tests {
    use accel_core::ir::{MathFn, MathOn, Prim};

    /// The PTX program of `fn f` in `source`; panics if it does not compile.
    fn ptx(source: &str) -> super::super::PtxProgram {
        let (_, plan) =
            accel_core::compile_source(source, "f").unwrap_or_else(|e| panic!("{source}: {}", e.message));
        super::super::program(&plan)
    }

    /// With `ACCEL_PTXAS` set (CI sets it): `ptxas`'s complaint about `text`
    /// for sm_70, if any (warnings included).
    fn ptxas_rejects(text: &str) -> Option<String> {
        let ptxas = std::env::var_os("ACCEL_PTXAS")?;
        // One folder per call: tests run in parallel threads of one process.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("accel-lower-{}-{call}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let file = dir.join("m.ptx");
        std::fs::write(&file, text).ok()?;
        let out = std::process::Command::new(ptxas)
            .args(["-arch=sm_70", "-o", "/dev/null"])
            .arg(&file)
            .output()
            .ok()?;
        let msg = String::from_utf8_lossy(&out.stderr).into_owned();
        let _ = std::fs::remove_dir_all(&dir);
        (!out.status.success() || !msg.trim().is_empty()).then_some(msg)
    }

    /// A loop in a closure returning a tuple is emitted once (not once per
    /// field), and neither its body nor its rotating state update is copied.
    #[test]
    fn loop_with_tuple_state_is_emitted_once() {
        let source = "fn f(xs: &Vector<u32>) -> Vector<(u32, u32, u32)> { xs.map(|x| {
            let (mut a, mut b, mut c): (u32, u32, u32) = (x, 1, 2);
            for _i in 0..3usize { let t = a; a = b; b = c; c = t; }
            while a > 5 { let t = a; a = c / 2; c = t; }
            (a, b, c) }) }";
        let prog = ptx(source);
        let headers = |what: &str| {
            prog.text
                .lines()
                .filter(|l| l.ends_with(':') && l.contains(what))
                .count()
        };
        assert_eq!(headers("_while"), 2, "{}", prog.text);
        assert!(ptxas_rejects(&prog.text).is_none());
    }

    /// Every scalar method the language accepts, on every type it accepts,
    /// lowers to PTX (no `unsupported` program on the GPU back end).
    #[test]
    fn every_scalar_method_lowers() {
        let mut missing = Vec::new();
        for &f in MathFn::ALL {
            for p in Prim::ALL {
                if !f.accepts(p) {
                    continue;
                }
                let params: String = (1..f.arity())
                    .map(|i| format!(", a{i}: {}", f.arg_prim(p, i).name()))
                    .collect();
                let args: Vec<String> = (1..f.arity()).map(|i| format!("a{i}")).collect();
                let call = if f.info().on == MathOn::FloatBits {
                    format!("{}::from_bits(x)", f.result_prim(p).name())
                } else {
                    format!("x.{}({})", f.name(), args.join(", "))
                };
                let source = format!(
                    "fn f(xs: &Vector<{}>{params}) -> Vector<{}> {{ xs.map(|x| {call}) }}",
                    p.name(),
                    f.result_prim(p).name()
                );
                let prog = ptx(&source);
                if let Some(why) = prog.unsupported {
                    missing.push(format!("{}: {why}", source));
                } else if let Some(bad) = ptxas_rejects(&prog.text) {
                    missing.push(format!("{source}: ptxas: {bad}"));
                }
            }
        }
        assert!(missing.is_empty(), "not lowered:\n{}", missing.join("\n"));
    }

    /// `min`/`max` on tuples (lexicographic, desugared by the front end) lower.
    #[test]
    fn tuple_min_max_lower() {
        for m in ["min", "max"] {
            let source = format!(
                "fn f(xs: &Vector<(i32, f64, bool)>, ys: &Vector<(i32, f64, bool)>) -> Vector<(i32, f64, bool)> {{ xs.zip_with(ys, |x, y| x.{m}(y)) }}"
            );
            let p = ptx(&source);
            assert!(p.unsupported.is_none(), "{source}: {:?}", p.unsupported);
        }
    }
}
