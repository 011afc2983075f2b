//! The decoded form of a PTX module: instructions with enum opcodes, register
//! indices and resolved addresses, so that execution never looks at text.

/// A PTX scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Pred,
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F32,
    F64,
    /// Half precision: only in `cvt` (to and from `.f32`).
    F16,
}

impl Ty {
    pub fn from_name(s: &str) -> Option<Ty> {
        Some(match s {
            "pred" => Ty::Pred,
            "b8" => Ty::B8,
            "b16" => Ty::B16,
            "b32" => Ty::B32,
            "b64" => Ty::B64,
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "s8" => Ty::S8,
            "s16" => Ty::S16,
            "s32" => Ty::S32,
            "s64" => Ty::S64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            "f16" => Ty::F16,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        match self {
            Ty::Pred => 1,
            Ty::B8 | Ty::U8 | Ty::S8 => 8,
            Ty::B16 | Ty::U16 | Ty::S16 | Ty::F16 => 16,
            Ty::B32 | Ty::U32 | Ty::S32 | Ty::F32 => 32,
            Ty::B64 | Ty::U64 | Ty::S64 | Ty::F64 => 64,
        }
    }

    /// Size in memory (a predicate has none; treated as one byte).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Ty::S8 | Ty::S16 | Ty::S32 | Ty::S64)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64 | Ty::F16)
    }

    pub fn is_int(self) -> bool {
        !self.is_float() && self != Ty::Pred
    }
}

/// Special registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    Laneid,
    Warpid,
    LanemaskLt,
    LanemaskLe,
    LanemaskEq,
    LanemaskGe,
    LanemaskGt,
}

/// A source operand. Immediates are already converted to the instruction's
/// type (float literals to their bit pattern).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    None,
    Reg(u32),
    /// `!%p`: a predicate register, negated.
    NotReg(u32),
    Imm(u64),
    Sreg(Sreg),
}

/// Where an address operand points before the register value is added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AddrBase {
    /// `[%rd+off]`
    Reg(u32),
    /// `[name+off]` of a shared variable: `off` is the shared-space address.
    Abs,
    /// `[param+off]` of a kernel parameter: `off` is the offset in the launch's parameter buffer.
    KernelParam,
    /// `[param+off]` of a `.func` parameter or a call's argument: offset in the thread's parameter frame.
    LocalParam,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Addr {
    pub base: AddrBase,
    pub off: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Param,
    /// No state space: a generic address (global, or the shared window).
    Generic,
}

/// Floating-point rounding (`.rn .rz .rm .rp`) or rounding to an integral value (`.rni` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    None,
    Rn,
    Rz,
    Rm,
    Rp,
    Rni,
    Rzi,
    Rmi,
    Rpi,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MulMode {
    Lo,
    Hi,
    Wide,
    /// Floating point: no mode.
    Float,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestKind {
    Finite,
    Infinite,
    Number,
    NotANumber,
    Normal,
    Subnormal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Exch,
    Cas,
}

/// Opcodes with the modifiers that change what they compute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    Mov,
    /// `mov.b64 d, {a, b}` (vec holds the parts) or `mov.b64 {a, b}, s` (unpack).
    MovPack,
    MovUnpack,
    Ld(Space),
    St(Space),
    /// `cvta.to.space` (to = true) or `cvta.space` (generic from space).
    Cvta {
        to: bool,
        space: Space,
    },
    Cvt {
        src: Ty,
        rnd: Rnd,
        sat: bool,
    },
    Add(Rnd),
    Sub(Rnd),
    Mul(MulMode, Rnd),
    Mad(MulMode, Rnd),
    Div,
    Rem,
    Abs,
    Neg,
    Min,
    Max,
    And,
    Or,
    Xor,
    Not,
    Cnot,
    Shl,
    Shr,
    Popc,
    Clz,
    Brev,
    Bfind {
        shiftamt: bool,
    },
    Bfe,
    Bfi,
    Selp,
    Setp {
        cmp: Cmp,
        bop: Option<BoolOp>,
    },
    Rcp,
    Sqrt,
    Rsqrt,
    Sin,
    Cos,
    Ex2,
    Lg2,
    Copysign,
    Testp(TestKind),
    Bra {
        target: u32,
    },
    Call {
        call: u32,
    },
    Ret,
    Exit,
    /// `bar.sync a{, b}`: the barrier id is `a`, the thread count `b` (Operand::None: all).
    Bar,
    /// `membar` / `fence`: ordering only, nothing to do in a sequential simulator.
    Fence,
    Shfl(ShflMode),
    Vote(VoteMode),
    Activemask,
    Atom {
        op: AtomOp,
        space: Space,
    },
    Red {
        op: AtomOp,
        space: Space,
    },
}

pub const NO_REG: u32 = u32::MAX;

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    pub op: Op,
    pub ty: Ty,
    pub ftz: bool,
    /// Guard predicate register (NO_REG: none) and whether it is negated.
    pub guard: u32,
    pub guard_neg: bool,
    pub dst: u32,
    /// Second destination: `setp p|q`, `shfl d|p`.
    pub dst2: u32,
    pub src: [Operand; 4],
    pub addr: Addr,
    /// Vector registers of `ld.v2`/`st.v4`/`mov` packing, and their count.
    pub vec: [u32; 4],
    pub nvec: u8,
    /// Sign-extend a sub-word load to this many bits (0: zero-extend).
    pub sext_to: u8,
    /// `ld.volatile`: a poll of a flag another block sets (the profile
    /// leaves it out of a warp's own time).
    pub volatile: bool,
    /// Source line (1-based).
    pub line: u32,
}

/// A `call`'s parameter copying: byte ranges in the thread's parameter frame.
#[derive(Clone, Debug)]
pub struct CallInfo {
    pub func: u32,
    /// (caller offset, callee offset, bytes) for each argument.
    pub args: Vec<(u32, u32, u32)>,
    /// (callee offset, caller offset, bytes) for each return value.
    pub rets: Vec<(u32, u32, u32)>,
}

/// A kernel's parameter: its name, offset in the buffer and size.
#[derive(Clone, Debug)]
pub struct KParam {
    pub name: String,
    pub offset: u32,
    pub size: u32,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub is_entry: bool,
    /// First instruction in `Module::code` (u32::MAX while only declared).
    pub entry: u32,
    pub end: u32,
    pub nregs: u32,
    /// Bytes of the parameter frame (formal params, return params, call-site params).
    pub param_bytes: u32,
    pub kparams: Vec<KParam>,
    pub kparam_bytes: u32,
    /// Static shared bytes, and where `.extern .shared` starts.
    pub shared_bytes: u32,
    pub dyn_shared_align: u32,
    /// Called functions (for frame sizing).
    pub callees: Vec<u32>,
    /// Register names, for messages.
    pub reg_names: Vec<String>,
    /// `.maxntid` / `.reqntid` of a kernel: launches must respect them.
    pub maxntid: Option<[u32; 3]>,
    pub reqntid: Option<[u32; 3]>,
}

#[derive(Clone, Debug)]
pub struct Module {
    pub code: Vec<Inst>,
    pub funcs: Vec<Function>,
    pub calls: Vec<CallInfo>,
    /// Source lines, for error messages.
    pub lines: Vec<String>,
}

impl Module {
    pub fn line_text(&self, line: u32) -> &str {
        (line as usize)
            .checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .map(|s| s.trim())
            .unwrap_or("")
    }
}
