//! The typed array IR: one arena of expressions per program, scalar and array
//! level alike, addressed by handles.
//!
//! The arena hash-conses: appending an expression equal to one already there
//! returns the existing handle. Programs are therefore DAGs in which a repeated
//! subterm is one node, and sharing is a property of the graph (see `sharing`).
//! Every binder (`let`, closure parameter, loop variable) has its own `VarId`, so
//! equal expressions under different binders never merge by accident.
//!
//! The same arena type holds the fused kernel plan's scalar functions: the plan
//! adds the buffer leaves (`Buffer`, `ReadLinear`, `ReadIndex`, `Checked`) and
//! drops the array operations.

mod build;
mod display;

pub use accel_types::ErrorKind;
pub use accel_types::Prim;
pub use accel_types::ScanDir;
use proc_macro2::Span;
use std::collections::HashMap;

/// A type in the IR.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Prim(Prim),
    /// A tuple of scalars, or (at the top level only) of arrays. `()` is the
    /// empty tuple.
    Tuple(Vec<Ty>),
    /// An array index or shape `[usize; R]`.
    Index(usize),
    /// `Option<T>`: the result of a `permute` index function.
    Option(Box<Ty>),
    /// An array of rank `rank` whose elements are a scalar type.
    Array(Box<Ty>, usize),
    /// A sequence of arrays of this (array) type, traversed once in order:
    /// a parameter streamed from a Rust iterator, or the slices of an array.
    Seq(Box<Ty>),
}

impl Ty {
    pub fn array(elem: Ty, rank: usize) -> Ty {
        Ty::Array(Box::new(elem), rank)
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Ty::Array(..))
    }

    pub fn seq(elem: Ty) -> Ty {
        Ty::Seq(Box::new(elem))
    }

    /// The element type of a sequence type.
    pub fn seq_elem(&self) -> Option<&Ty> {
        match self {
            Ty::Seq(e) => Some(e),
            _ => None,
        }
    }

    /// A scalar type that arrays may hold: a primitive, or a tuple of 2 to 5
    /// of them (nested tuples too).
    pub fn is_elem(&self) -> bool {
        match self {
            Ty::Prim(_) => true,
            Ty::Tuple(ts) => (2..=5).contains(&ts.len()) && ts.iter().all(Ty::is_elem),
            _ => false,
        }
    }

    /// Contains an array anywhere.
    pub fn has_array(&self) -> bool {
        match self {
            Ty::Array(..) | Ty::Seq(_) => true,
            Ty::Tuple(ts) => ts.iter().any(Ty::has_array),
            Ty::Option(t) => t.has_array(),
            _ => false,
        }
    }

    pub fn prim(&self) -> Option<Prim> {
        match self {
            Ty::Prim(p) => Some(*p),
            _ => None,
        }
    }

    pub fn elem_and_rank(&self) -> Option<(&Ty, usize)> {
        match self {
            Ty::Array(e, r) => Some((e, *r)),
            _ => None,
        }
    }

    /// Primitive leaves, depth first (the struct-of-arrays columns).
    pub fn leaves(&self) -> Vec<Prim> {
        let mut out = Vec::new();
        fn go(t: &Ty, out: &mut Vec<Prim>) {
            match t {
                Ty::Prim(p) => out.push(*p),
                Ty::Tuple(ts) => ts.iter().for_each(|t| go(t, out)),
                _ => {}
            }
        }
        go(self, &mut out);
        out
    }
}

/// A handle to an expression in an [`Arena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct H(pub u32);

impl H {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A variable: a function parameter, a `let`, a closure parameter, a loop state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

#[derive(Clone, Debug)]
pub struct VarInfo {
    pub name: String,
    pub ty: Ty,
}

/// A materialised array of the kernel plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BufId(pub u32);

/// A closure: parameters bound in `body`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fun {
    pub params: Vec<VarId>,
    pub body: H,
}

/// A literal, stored by bits so that expressions can be hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lit {
    pub prim: Prim,
    pub bits: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    /// `!`: logical on bool, bitwise on integers.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Short-circuit `&&` and `||`.
    And,
    Or,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// Which receiver types a math method is defined on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathOn {
    Float,
    /// Every integer type.
    Int,
    /// Unsigned integers.
    Unsigned,
    /// Signed integers.
    Signed,
    /// Signed integers and floats.
    SignedOrFloat,
    /// Integers and floats.
    Num,
    /// `u32` and `u64` (the bits of `f32` and `f64`).
    FloatBits,
}

impl MathOn {
    pub fn accepts(self, p: Prim) -> bool {
        match self {
            MathOn::Float => p.is_float(),
            MathOn::Int => p.is_int(),
            MathOn::Unsigned => p.is_int() && !p.is_signed(),
            MathOn::Signed => p.is_int() && p.is_signed(),
            MathOn::SignedOrFloat => p.is_signed(),
            MathOn::Num => p.is_numeric(),
            MathOn::FloatBits => matches!(p, Prim::U32 | Prim::U64),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            MathOn::Float => "floats (`f32`, `f64`; `f16` and `bf16` but for `to_bits` and `is_normal`)",
            MathOn::Int => "integers",
            MathOn::Unsigned => "unsigned integers",
            MathOn::Signed => "signed integers",
            MathOn::SignedOrFloat => "signed integers and floats",
            MathOn::Num => "integers and floats",
            MathOn::FloatBits => "`u32` and `u64`",
        }
    }
}

/// The type of a math function's arguments after the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathArg {
    /// The receiver's type.
    Same,
    U32,
    I32,
}

/// The type of a math function's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathRes {
    /// The receiver's type.
    Same,
    Bool,
    U32,
    /// The unsigned integer of the receiver's width (`to_bits`, `abs_diff`).
    Unsigned,
    /// The float of the receiver's width (`from_bits`).
    Float,
}

/// One row of the math table.
#[derive(Clone, Copy, Debug)]
pub struct MathInfo {
    /// The Rust method name.
    pub name: &'static str,
    /// Number of arguments, the receiver included.
    pub arity: usize,
    pub on: MathOn,
    pub args: MathArg,
    pub result: MathRes,
}

macro_rules! math_table {
    ($($(#[$doc:meta])* $v:ident = $name:literal, $arity:literal, $on:ident, $args:ident, $res:ident;)*) => {
        /// Scalar math functions: Rust's float and integer methods of the same
        /// name (see [`MathFn::info`] for the table of names, arities and types).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MathFn { $($(#[$doc])* $v),* }

        impl MathFn {
            pub const ALL: &'static [MathFn] = &[$(MathFn::$v),*];

            pub fn info(self) -> MathInfo {
                match self {
                    $(MathFn::$v => MathInfo {
                        name: $name,
                        arity: $arity,
                        on: MathOn::$on,
                        args: MathArg::$args,
                        result: MathRes::$res,
                    },)*
                }
            }
        }
    };
}

math_table! {
    Sqrt = "sqrt", 1, Float, Same, Same;
    Cbrt = "cbrt", 1, Float, Same, Same;
    Exp = "exp", 1, Float, Same, Same;
    Exp2 = "exp2", 1, Float, Same, Same;
    ExpM1 = "exp_m1", 1, Float, Same, Same;
    Ln = "ln", 1, Float, Same, Same;
    Ln1p = "ln_1p", 1, Float, Same, Same;
    Log2 = "log2", 1, Float, Same, Same;
    Log10 = "log10", 1, Float, Same, Same;
    /// `x.log(base)`.
    Log = "log", 2, Float, Same, Same;
    Sin = "sin", 1, Float, Same, Same;
    Cos = "cos", 1, Float, Same, Same;
    Tan = "tan", 1, Float, Same, Same;
    Asin = "asin", 1, Float, Same, Same;
    Acos = "acos", 1, Float, Same, Same;
    Atan = "atan", 1, Float, Same, Same;
    Atan2 = "atan2", 2, Float, Same, Same;
    Sinh = "sinh", 1, Float, Same, Same;
    Cosh = "cosh", 1, Float, Same, Same;
    Tanh = "tanh", 1, Float, Same, Same;
    Asinh = "asinh", 1, Float, Same, Same;
    Acosh = "acosh", 1, Float, Same, Same;
    Atanh = "atanh", 1, Float, Same, Same;
    Hypot = "hypot", 2, Float, Same, Same;
    Powf = "powf", 2, Float, Same, Same;
    Powi = "powi", 2, Float, I32, Same;
    Recip = "recip", 1, Float, Same, Same;
    ToDegrees = "to_degrees", 1, Float, Same, Same;
    ToRadians = "to_radians", 1, Float, Same, Same;
    Floor = "floor", 1, Float, Same, Same;
    Ceil = "ceil", 1, Float, Same, Same;
    Round = "round", 1, Float, Same, Same;
    Trunc = "trunc", 1, Float, Same, Same;
    Fract = "fract", 1, Float, Same, Same;
    MulAdd = "mul_add", 3, Float, Same, Same;
    Copysign = "copysign", 2, Float, Same, Same;
    IsNan = "is_nan", 1, Float, Same, Bool;
    IsInfinite = "is_infinite", 1, Float, Same, Bool;
    IsFinite = "is_finite", 1, Float, Same, Bool;
    IsNormal = "is_normal", 1, Float, Same, Bool;
    IsSignNegative = "is_sign_negative", 1, Float, Same, Bool;
    IsSignPositive = "is_sign_positive", 1, Float, Same, Bool;
    ToBits = "to_bits", 1, Float, Same, Unsigned;
    /// `f32::from_bits(u)`: the receiver is the `u32` (`u64` for `f64`).
    FromBits = "from_bits", 1, FloatBits, Same, Float;
    /// Wrapping for integers (`i32::MIN.abs() == i32::MIN`).
    Abs = "abs", 1, SignedOrFloat, Same, Same;
    Signum = "signum", 1, SignedOrFloat, Same, Same;
    Min = "min", 2, Num, Same, Same;
    Max = "max", 2, Num, Same, Same;
    /// Never panics: `lo > hi` gives `hi` (see `accel_types::ops::MathOps`).
    Clamp = "clamp", 3, Num, Same, Same;
    /// Integers: `x.div_euclid(0) == 0`, `MIN.div_euclid(-1) == MIN`.
    DivEuclid = "div_euclid", 2, Num, Same, Same;
    /// Integers: `x.rem_euclid(0) == x`.
    RemEuclid = "rem_euclid", 2, Num, Same, Same;
    CountOnes = "count_ones", 1, Int, Same, U32;
    CountZeros = "count_zeros", 1, Int, Same, U32;
    LeadingZeros = "leading_zeros", 1, Int, Same, U32;
    TrailingZeros = "trailing_zeros", 1, Int, Same, U32;
    LeadingOnes = "leading_ones", 1, Int, Same, U32;
    TrailingOnes = "trailing_ones", 1, Int, Same, U32;
    RotateLeft = "rotate_left", 2, Int, U32, Same;
    RotateRight = "rotate_right", 2, Int, U32, Same;
    SwapBytes = "swap_bytes", 1, Int, Same, Same;
    ReverseBits = "reverse_bits", 1, Int, Same, Same;
    /// Wrapping (`wrapping_pow`).
    Pow = "pow", 2, Int, U32, Same;
    WrappingAdd = "wrapping_add", 2, Int, Same, Same;
    WrappingSub = "wrapping_sub", 2, Int, Same, Same;
    WrappingMul = "wrapping_mul", 2, Int, Same, Same;
    WrappingNeg = "wrapping_neg", 1, Int, Same, Same;
    SaturatingAdd = "saturating_add", 2, Int, Same, Same;
    SaturatingSub = "saturating_sub", 2, Int, Same, Same;
    SaturatingMul = "saturating_mul", 2, Int, Same, Same;
    AbsDiff = "abs_diff", 2, Int, Same, Unsigned;
    IsPositive = "is_positive", 1, Signed, Same, Bool;
    IsNegative = "is_negative", 1, Signed, Same, Bool;
    IsPowerOfTwo = "is_power_of_two", 1, Unsigned, Same, Bool;
}

impl MathFn {
    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn from_name(name: &str) -> Option<MathFn> {
        MathFn::ALL.iter().copied().find(|m| m.name() == name)
    }

    /// Number of arguments, the receiver included.
    pub fn arity(self) -> usize {
        self.info().arity
    }

    /// Defined on a receiver of type `p`.
    pub fn accepts(self, p: Prim) -> bool {
        // Half-precision values live in `f32` registers while computed: their
        // bits, and normality (an `f16` subnormal is a normal `f32`), are not
        // what an `f32` operation gives.
        let f32_meaning = !matches!(self, MathFn::ToBits | MathFn::IsNormal);
        self.info().on.accepts(p) && (f32_meaning || !p.is_half())
    }

    /// The type of argument `i` (0 is the receiver) for a receiver of type `p`.
    pub fn arg_prim(self, p: Prim, i: usize) -> Prim {
        match (i, self.info().args) {
            (0, _) | (_, MathArg::Same) => p,
            (_, MathArg::U32) => Prim::U32,
            (_, MathArg::I32) => Prim::I32,
        }
    }

    /// The result type for a receiver of type `p`.
    pub fn result_prim(self, p: Prim) -> Prim {
        match self.info().result {
            MathRes::Same => p,
            MathRes::Bool => Prim::Bool,
            MathRes::U32 => Prim::U32,
            MathRes::Unsigned => unsigned_of(p),
            MathRes::Float => match p {
                Prim::U64 | Prim::I64 => Prim::F64,
                _ => Prim::F32,
            },
        }
    }
}

/// The unsigned integer type of the same width as `p`.
pub fn unsigned_of(p: Prim) -> Prim {
    match p {
        Prim::I8 | Prim::U8 | Prim::Bool => Prim::U8,
        Prim::I16 | Prim::U16 | Prim::F16 | Prim::BF16 => Prim::U16,
        Prim::I32 | Prim::U32 | Prim::F32 => Prim::U32,
        Prim::I64 | Prim::U64 | Prim::F64 => Prim::U64,
        Prim::Usize => Prim::Usize,
    }
}

/// How a scan treats its initial value (Accelerate's `scanl`, `scanl1`, `scanl'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanKind {
    /// `scanl1`/`scanr1`: no initial value, as many outputs as inputs.
    Inclusive,
    /// `scanl`/`scanr`: the initial value included, one more output than inputs.
    WithInit,
    /// `scanl_total`/`scanr_total`: exclusive outputs and the total, a pair.
    Exclusive,
}

/// What a stencil reads where a neighbour lies outside its array (Accelerate's
/// boundary conditions). `Constant` holds a scalar expression of the element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Boundary {
    Clamp,
    Mirror,
    Wrap,
    Constant(H),
}

impl Boundary {
    /// The constant's expression, if any.
    pub fn constant(&self) -> Option<H> {
        match self {
            Boundary::Constant(h) => Some(*h),
            _ => None,
        }
    }

    pub fn map_constant(&self, f: impl FnOnce(H) -> H) -> Boundary {
        match self {
            Boundary::Constant(h) => Boundary::Constant(f(*h)),
            b => *b,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Boundary::Clamp => "clamp",
            Boundary::Mirror => "mirror",
            Boundary::Wrap => "wrap",
            Boundary::Constant(_) => "constant",
        }
    }
}

/// The offsets of a stencil pattern of the given extents (odd sizes), row-major:
/// the order of the stencil function's parameters.
pub fn stencil_offsets(extents: &[usize]) -> Vec<Vec<i32>> {
    let mut out = vec![vec![]];
    for &n in extents {
        let r = (n / 2) as i32;
        out = out
            .into_iter()
            .flat_map(|o| {
                (-r..=r).map(move |k| {
                    let mut o = o.clone();
                    o.push(k);
                    o
                })
            })
            .collect();
    }
    out
}

/// An expression, at one of three levels: scalar code (what element
/// functions and host code compute), array operations (what the front end
/// builds and fusion consumes), and the kernel plan's reads of materialised
/// arrays (what fusion leaves for the back ends). One arena holds them all
/// (array operations contain scalar functions, scalar code reads arrays);
/// the levels let a pass match the level it handles exhaustively.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    Scalar(Scalar),
    Array(ArrayOp),
    Plan(PlanRead),
    Seq(SeqOp),
}

/// Scalar code. The two reads of an array (`Read`, `Shape`) take the array
/// as an expression of any level.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Var(VarId),
    Let {
        var: VarId,
        value: H,
        body: H,
    },
    Lit(Lit),
    Tuple(Vec<H>),
    /// Field `n` of a tuple, or component `n` of an index.
    Proj(H, usize),
    /// An index `[i, j, ..]`.
    MakeIndex(Vec<H>),
    Unary(UnOp, H),
    Binary(BinOp, H, H),
    Cast(H, Prim),
    If(H, H, H),
    Math(MathFn, Vec<H>),
    /// A scalar loop: state `vars` start at `init`; while `cond` holds they take
    /// the values of `step` (all computed from the old state). Evaluates to the
    /// tuple of the final state.
    ///
    /// A loop over streamed sequences (`pulls`, host code only) first binds
    /// each pull's item to the next element of its stream, and ends, before
    /// testing `cond`, when any stream has no next element.
    While {
        vars: Vec<VarId>,
        init: Vec<H>,
        cond: H,
        step: Vec<H>,
        pulls: Vec<Pull>,
    },
    Some(H),
    /// `None` of the given `Option` type.
    None(Ty),
    /// `body`, after checking `cond`: when it is false the program fails with
    /// the run-time error "`op`: `msg"` of kind `kind` (`InvalidArgument`,
    /// `ShapeMismatch`). The library operations use it for arguments only
    /// known at run time (a negative `expand` count, segment lengths that do
    /// not add up, the shapes of `zip_with_exact`).
    Assert {
        cond: H,
        kind: ErrorKind,
        op: &'static str,
        msg: &'static str,
        body: H,
    },
    /// `trace!(fmt, args..)` before `body`: `fmt` with `args` in its `{}` and
    /// `{:?}` placeholders, printed on standard error (by the interpreter,
    /// and by the CPU back end in builds with debug assertions; the GPU path
    /// prints nothing), then `body`'s value.
    Trace {
        fmt: String,
        args: Vec<H>,
        body: H,
    },

    // Arrays seen from scalar code.
    /// `xs[ix]`: bounds-checked.
    Read {
        array: H,
        index: H,
    },
    /// The shape of an array (a shape-only use: does not need its data).
    Shape(H),
}

/// A stream a host loop pulls elements from (see [`Scalar::While`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pull {
    /// The streamed sequence: a parameter (a `Var` of type `Seq`).
    pub source: H,
    /// Bound to the stream's next element at each iteration.
    pub item: VarId,
    /// Empty: one element per iteration. Otherwise `[len, elems]`: a chunk
    /// of consecutive elements of one shape, as an array of rank + 1 (the
    /// elements outermost), of `len` elements when `len > 0`, else of about
    /// `elems` array elements (see `seq::CHUNK_LEN`). When a loop pulls
    /// chunks from several streams, all are cut to the shortest, the rest
    /// staying in its stream for the next iteration: their outermost
    /// extents are equal.
    pub chunk: Vec<H>,
}

impl Pull {
    /// Its expressions: the stream, then the chunk's.
    pub fn exprs(&self) -> impl Iterator<Item = &H> {
        std::iter::once(&self.source).chain(&self.chunk)
    }
}

/// A sequence operation (the front end's; `seq::lower` turns each group of
/// consumers of one sequence into one loop before sharing recovery).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeqOp {
    /// `rows()`, `to_seq()`: the slices of `a` along its outermost dimension,
    /// in order (arrays of rank one less).
    Slices { a: H },
    /// Each element through `f` (an array program of one array).
    Map { f: Fun, s: H },
    /// Pairs of elements through `f`; as long as the shorter sequence.
    Zip { f: Fun, a: H, b: H },
    /// The consumer of a sequence of Scalars: scalar closure `f(acc, x)` from
    /// scalar `z` over the elements' values, in order (`f` is associative:
    /// chunks may be combined first); a Scalar. An empty sequence gives `z`.
    /// With an array `z`, a fold of arrays: `f(acc, x)` an array program,
    /// one element at a time. With `flatten` (`fold_flatten`, of vectors),
    /// `f(acc, lens, values)` is an array program over groups of
    /// consecutive elements: their lengths and their values one after the
    /// other.
    Fold { f: Fun, z: H, s: H, flatten: bool },
    /// All elements' values in order, as a vector (`collect`), or, for a
    /// sequence whose elements have one shape, as an array of rank + 1 whose
    /// outermost dimension counts them (`tabulate`).
    Collect { s: H, tabulate: bool },
}

/// An array operation. Array operations take their array arguments last.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArrayOp {
    Generate {
        shape: H,
        f: Fun,
    },
    Map {
        f: Fun,
        a: H,
    },
    ZipWith {
        f: Fun,
        a: H,
        b: H,
    },
    Backpermute {
        shape: H,
        f: Fun,
        a: H,
    },
    Reshape {
        shape: H,
        a: H,
    },
    /// Along the innermost dimension, or over all elements (`all`); no initial
    /// value means `fold1`.
    Fold {
        f: Fun,
        z: Option<H>,
        a: H,
        all: bool,
    },
    Scan {
        dir: ScanDir,
        kind: ScanKind,
        f: Fun,
        z: Option<H>,
        a: H,
    },
    Permute {
        combine: Fun,
        defaults: H,
        index: Fun,
        a: H,
    },
    /// The vector `a` in ascending order of `key` (an unsigned integer of
    /// 32 or 64 bits), stable: elements with equal keys keep their order.
    /// The library's `sort`s map their keys to such integers.
    Sort {
        key: Fun,
        a: H,
    },
    /// `stencil`/`stencil2`: element `ix` of the result is `f` of the neighbours
    /// of `ix` in each array (the pattern of `extents[k]` around `ix` in
    /// `arrays[k]`, row-major, the arrays one after the other), out-of-bounds
    /// neighbours given by `boundaries[k]`. The result's shape is the
    /// intersection of the arrays' shapes.
    Stencil {
        boundaries: Vec<Boundary>,
        f: Fun,
        arrays: Vec<H>,
        extents: Vec<Vec<usize>>,
    },
}

impl ArrayOp {
    /// The operation's closures, in order.
    pub fn funs(&self) -> Vec<&Fun> {
        match self {
            ArrayOp::Generate { f, .. }
            | ArrayOp::Map { f, .. }
            | ArrayOp::ZipWith { f, .. }
            | ArrayOp::Backpermute { f, .. }
            | ArrayOp::Fold { f, .. }
            | ArrayOp::Scan { f, .. }
            | ArrayOp::Stencil { f, .. }
            | ArrayOp::Sort { key: f, .. } => vec![f],
            ArrayOp::Permute { combine, index, .. } => vec![combine, index],
            ArrayOp::Reshape { .. } => vec![],
        }
    }

    /// The operation's closures, to change (in the order of [`ArrayOp::funs`]).
    pub fn funs_mut(&mut self) -> Vec<&mut Fun> {
        match self {
            ArrayOp::Generate { f, .. }
            | ArrayOp::Map { f, .. }
            | ArrayOp::ZipWith { f, .. }
            | ArrayOp::Backpermute { f, .. }
            | ArrayOp::Fold { f, .. }
            | ArrayOp::Scan { f, .. }
            | ArrayOp::Stencil { f, .. }
            | ArrayOp::Sort { key: f, .. } => vec![f],
            ArrayOp::Permute { combine, index, .. } => vec![combine, index],
            ArrayOp::Reshape { .. } => vec![],
        }
    }
}

/// The kernel plan's own nodes: a materialised array and the reads of one
/// that fusion has proved in bounds or checks itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlanRead {
    /// A materialised array.
    Buffer(BufId),
    /// Element at a row-major offset known to be in bounds.
    ReadLinear { array: H, index: H },
    /// Element at an index known to be in bounds.
    ReadIndex { array: H, index: H },
    /// If `index` lies within `shape`, `body` with `var` bound to it; otherwise
    /// the run-time error "`op`: index out of bounds" and a default value.
    Checked {
        op: &'static str,
        index: H,
        shape: H,
        var: VarId,
        body: H,
    },
    /// A stencil's neighbour: the element of buffer `array` at `center + offset`,
    /// where `center` lies inside the buffer's shape and the neighbour may not
    /// (then `boundary` decides).
    ReadStencil {
        array: H,
        center: H,
        offset: Vec<i32>,
        boundary: Boundary,
    },
}

impl Expr {
    /// A loop's children: those evaluated once, before it (its streams, their
    /// chunks' lengths, the initial state), and those evaluated at every
    /// iteration (the condition, the step); `None` for other expressions.
    pub fn loop_children(&self) -> Option<(Vec<H>, Vec<H>)> {
        let Expr::Scalar(Scalar::While {
            init,
            cond,
            step,
            pulls,
            ..
        }) = self
        else {
            return None;
        };
        let mut once: Vec<H> = pulls.iter().flat_map(Pull::exprs).copied().collect();
        once.extend(init);
        let every = std::iter::once(cond).chain(step).copied().collect();
        Some((once, every))
    }

    /// Sub-expressions, in order.
    pub fn children(&self) -> Vec<H> {
        match self {
            Expr::Scalar(Scalar::Var(_))
            | Expr::Scalar(Scalar::Lit(_))
            | Expr::Scalar(Scalar::None(_))
            | Expr::Plan(PlanRead::Buffer(_)) => vec![],
            Expr::Scalar(Scalar::Let { value, body, .. }) => vec![*value, *body],
            Expr::Scalar(Scalar::Tuple(xs))
            | Expr::Scalar(Scalar::MakeIndex(xs))
            | Expr::Scalar(Scalar::Math(_, xs)) => xs.clone(),
            Expr::Scalar(Scalar::Proj(x, _))
            | Expr::Scalar(Scalar::Unary(_, x))
            | Expr::Scalar(Scalar::Cast(x, _))
            | Expr::Scalar(Scalar::Some(x)) => vec![*x],
            Expr::Scalar(Scalar::Shape(x)) => vec![*x],
            Expr::Scalar(Scalar::Binary(_, a, b)) | Expr::Scalar(Scalar::Assert { cond: a, body: b, .. }) => {
                vec![*a, *b]
            }
            Expr::Scalar(Scalar::Trace { args, body, .. }) => args.iter().chain([body]).copied().collect(),
            Expr::Scalar(Scalar::If(c, t, e)) => vec![*c, *t, *e],
            Expr::Scalar(Scalar::While { .. }) => {
                let (mut v, every) = self.loop_children().unwrap_or_default();
                v.extend(every);
                v
            }
            Expr::Seq(SeqOp::Slices { a }) => vec![*a],
            Expr::Seq(SeqOp::Map { f, s }) => vec![f.body, *s],
            Expr::Seq(SeqOp::Zip { f, a, b }) => vec![f.body, *a, *b],
            Expr::Seq(SeqOp::Fold { f, z, s, .. }) => vec![f.body, *z, *s],
            Expr::Seq(SeqOp::Collect { s, .. }) => vec![*s],
            Expr::Scalar(Scalar::Read { array, index })
            | Expr::Plan(PlanRead::ReadLinear { array, index })
            | Expr::Plan(PlanRead::ReadIndex { array, index }) => vec![*array, *index],
            Expr::Array(ArrayOp::Generate { shape, f }) => vec![*shape, f.body],
            Expr::Array(ArrayOp::Map { f, a }) => vec![f.body, *a],
            Expr::Array(ArrayOp::ZipWith { f, a, b }) => vec![f.body, *a, *b],
            Expr::Array(ArrayOp::Backpermute { shape, f, a }) => vec![*shape, f.body, *a],
            Expr::Array(ArrayOp::Reshape { shape, a }) => vec![*shape, *a],
            Expr::Array(ArrayOp::Fold { f, z, a, .. }) | Expr::Array(ArrayOp::Scan { f, z, a, .. }) => {
                let mut v = vec![f.body];
                v.extend(z);
                v.push(*a);
                v
            }
            Expr::Array(ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            }) => {
                vec![combine.body, *defaults, index.body, *a]
            }
            Expr::Array(ArrayOp::Sort { key, a }) => vec![key.body, *a],
            Expr::Plan(PlanRead::Checked {
                index, shape, body, ..
            }) => vec![*index, *shape, *body],
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f,
                arrays,
                ..
            }) => {
                let mut v: Vec<H> = boundaries.iter().filter_map(Boundary::constant).collect();
                v.push(f.body);
                v.extend(arrays);
                v
            }
            Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                boundary,
                ..
            }) => {
                let mut v = vec![*array, *center];
                v.extend(boundary.constant());
                v
            }
        }
    }

    /// The same expression with every child `c` replaced by `f(c)` (closure
    /// bodies included), in the order of [`Expr::children`].
    pub fn map_children(&self, mut f: impl FnMut(H) -> H) -> Expr {
        let fun = |x: &Fun, f: &mut dyn FnMut(H) -> H| Fun {
            params: x.params.clone(),
            body: f(x.body),
        };
        match self {
            Expr::Scalar(Scalar::Var(_))
            | Expr::Scalar(Scalar::Lit(_))
            | Expr::Scalar(Scalar::None(_))
            | Expr::Plan(PlanRead::Buffer(_)) => self.clone(),
            Expr::Scalar(Scalar::Let { var, value, body }) => Expr::Scalar(Scalar::Let {
                var: *var,
                value: f(*value),
                body: f(*body),
            }),
            Expr::Scalar(Scalar::Tuple(xs)) => {
                Expr::Scalar(Scalar::Tuple(xs.iter().map(|x| f(*x)).collect()))
            }
            Expr::Scalar(Scalar::MakeIndex(xs)) => {
                Expr::Scalar(Scalar::MakeIndex(xs.iter().map(|x| f(*x)).collect()))
            }
            Expr::Scalar(Scalar::Math(m, xs)) => {
                Expr::Scalar(Scalar::Math(*m, xs.iter().map(|x| f(*x)).collect()))
            }
            Expr::Scalar(Scalar::Proj(x, n)) => Expr::Scalar(Scalar::Proj(f(*x), *n)),
            Expr::Scalar(Scalar::Unary(op, x)) => Expr::Scalar(Scalar::Unary(*op, f(*x))),
            Expr::Scalar(Scalar::Cast(x, p)) => Expr::Scalar(Scalar::Cast(f(*x), *p)),
            Expr::Scalar(Scalar::Some(x)) => Expr::Scalar(Scalar::Some(f(*x))),
            Expr::Scalar(Scalar::Shape(x)) => Expr::Scalar(Scalar::Shape(f(*x))),
            Expr::Scalar(Scalar::Binary(op, a, b)) => {
                let a = f(*a);
                Expr::Scalar(Scalar::Binary(*op, a, f(*b)))
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                let c = f(*c);
                let t = f(*t);
                Expr::Scalar(Scalar::If(c, t, f(*e)))
            }
            Expr::Scalar(Scalar::Trace { fmt, args, body }) => {
                let args = args.iter().map(|x| f(*x)).collect();
                Expr::Scalar(Scalar::Trace {
                    fmt: fmt.clone(),
                    args,
                    body: f(*body),
                })
            }
            Expr::Scalar(Scalar::Assert {
                cond,
                kind,
                op,
                msg,
                body,
            }) => {
                let cond = f(*cond);
                Expr::Scalar(Scalar::Assert {
                    cond,
                    kind: *kind,
                    op,
                    msg,
                    body: f(*body),
                })
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }) => {
                let pulls = pulls
                    .iter()
                    .map(|p| Pull {
                        source: f(p.source),
                        item: p.item,
                        chunk: p.chunk.iter().map(|x| f(*x)).collect(),
                    })
                    .collect();
                let init = init.iter().map(|x| f(*x)).collect();
                let cond = f(*cond);
                Expr::Scalar(Scalar::While {
                    vars: vars.clone(),
                    init,
                    cond,
                    step: step.iter().map(|x| f(*x)).collect(),
                    pulls,
                })
            }
            Expr::Seq(SeqOp::Slices { a }) => Expr::Seq(SeqOp::Slices { a: f(*a) }),
            Expr::Seq(SeqOp::Map { f: g, s }) => {
                let g = fun(g, &mut f);
                Expr::Seq(SeqOp::Map { f: g, s: f(*s) })
            }
            Expr::Seq(SeqOp::Zip { f: g, a, b }) => {
                let g = fun(g, &mut f);
                let a = f(*a);
                Expr::Seq(SeqOp::Zip { f: g, a, b: f(*b) })
            }
            Expr::Seq(SeqOp::Fold { f: g, z, s, flatten }) => {
                let g = fun(g, &mut f);
                let z = f(*z);
                Expr::Seq(SeqOp::Fold {
                    f: g,
                    z,
                    s: f(*s),
                    flatten: *flatten,
                })
            }
            Expr::Seq(SeqOp::Collect { s, tabulate }) => Expr::Seq(SeqOp::Collect {
                s: f(*s),
                tabulate: *tabulate,
            }),
            Expr::Scalar(Scalar::Read { array, index }) => {
                let array = f(*array);
                Expr::Scalar(Scalar::Read {
                    array,
                    index: f(*index),
                })
            }
            Expr::Plan(PlanRead::ReadLinear { array, index }) => {
                let array = f(*array);
                Expr::Plan(PlanRead::ReadLinear {
                    array,
                    index: f(*index),
                })
            }
            Expr::Plan(PlanRead::ReadIndex { array, index }) => {
                let array = f(*array);
                Expr::Plan(PlanRead::ReadIndex {
                    array,
                    index: f(*index),
                })
            }
            Expr::Array(ArrayOp::Generate { shape, f: g }) => {
                let shape = f(*shape);
                Expr::Array(ArrayOp::Generate {
                    shape,
                    f: fun(g, &mut f),
                })
            }
            Expr::Array(ArrayOp::Map { f: g, a }) => {
                let g = fun(g, &mut f);
                Expr::Array(ArrayOp::Map { f: g, a: f(*a) })
            }
            Expr::Array(ArrayOp::ZipWith { f: g, a, b }) => {
                let g = fun(g, &mut f);
                let a = f(*a);
                Expr::Array(ArrayOp::ZipWith { f: g, a, b: f(*b) })
            }
            Expr::Array(ArrayOp::Backpermute { shape, f: g, a }) => {
                let shape = f(*shape);
                let g = fun(g, &mut f);
                Expr::Array(ArrayOp::Backpermute {
                    shape,
                    f: g,
                    a: f(*a),
                })
            }
            Expr::Array(ArrayOp::Reshape { shape, a }) => {
                let shape = f(*shape);
                Expr::Array(ArrayOp::Reshape { shape, a: f(*a) })
            }
            Expr::Array(ArrayOp::Fold { f: g, z, a, all }) => {
                let g = fun(g, &mut f);
                let z = z.map(&mut f);
                Expr::Array(ArrayOp::Fold {
                    f: g,
                    z,
                    a: f(*a),
                    all: *all,
                })
            }
            Expr::Array(ArrayOp::Scan {
                dir,
                kind,
                f: g,
                z,
                a,
            }) => {
                let g = fun(g, &mut f);
                let z = z.map(&mut f);
                Expr::Array(ArrayOp::Scan {
                    dir: *dir,
                    kind: *kind,
                    f: g,
                    z,
                    a: f(*a),
                })
            }
            Expr::Array(ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            }) => {
                let combine = fun(combine, &mut f);
                let defaults = f(*defaults);
                let index = fun(index, &mut f);
                Expr::Array(ArrayOp::Permute {
                    combine,
                    defaults,
                    index,
                    a: f(*a),
                })
            }
            Expr::Array(ArrayOp::Sort { key, a }) => {
                let key = fun(key, &mut f);
                Expr::Array(ArrayOp::Sort { key, a: f(*a) })
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var,
                body,
            }) => {
                let index = f(*index);
                let shape = f(*shape);
                Expr::Plan(PlanRead::Checked {
                    op,
                    index,
                    shape,
                    var: *var,
                    body: f(*body),
                })
            }
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f: g,
                arrays,
                extents,
            }) => {
                let boundaries = boundaries.iter().map(|b| b.map_constant(&mut f)).collect();
                let g = fun(g, &mut f);
                Expr::Array(ArrayOp::Stencil {
                    boundaries,
                    f: g,
                    arrays: arrays.iter().map(|x| f(*x)).collect(),
                    extents: extents.clone(),
                })
            }
            Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                offset,
                boundary,
            }) => {
                let array = f(*array);
                let center = f(*center);
                Expr::Plan(PlanRead::ReadStencil {
                    array,
                    center,
                    offset: offset.clone(),
                    boundary: boundary.map_constant(f),
                })
            }
        }
    }

    /// Closures of an array operation (none for other nodes), in order.
    pub fn funs(&self) -> Vec<&Fun> {
        match self {
            Expr::Array(op) => op.funs(),
            Expr::Seq(SeqOp::Map { f, .. } | SeqOp::Zip { f, .. } | SeqOp::Fold { f, .. }) => vec![f],
            Expr::Seq(SeqOp::Slices { .. } | SeqOp::Collect { .. }) | Expr::Scalar(_) | Expr::Plan(_) => {
                vec![]
            }
        }
    }

    /// Closures of an array operation, to change (in the order of [`Expr::funs`]).
    pub fn funs_mut(&mut self) -> Vec<&mut Fun> {
        match self {
            Expr::Array(op) => op.funs_mut(),
            Expr::Seq(SeqOp::Map { f, .. } | SeqOp::Zip { f, .. } | SeqOp::Fold { f, .. }) => vec![f],
            Expr::Seq(SeqOp::Slices { .. } | SeqOp::Collect { .. }) | Expr::Scalar(_) | Expr::Plan(_) => {
                vec![]
            }
        }
    }

    /// Is this one of the array operations (a node that computes an array)?
    pub fn is_array_op(&self) -> bool {
        matches!(self, Expr::Array(_))
    }
}

/// A position in the source: line and column, both counted from 1 (as
/// `line!()` and `column!()` count). Run-time errors name the position of the
/// failing expression; the plan resolves spans to positions where it is built,
/// so code generators never see spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub line: u32,
    pub column: u32,
}

impl Loc {
    /// Where `span` starts, or `None` for a span that names no expression of
    /// the source: the macro's call site (the span of nodes the compiler makes
    /// up) or a position the compiler does not know.
    pub fn of(span: Span) -> Option<Loc> {
        let start = span.start();
        if start.line == 0 || start == Span::call_site().start() {
            return None;
        }
        Some(Loc {
            line: start.line as u32,
            column: start.column as u32 + 1,
        })
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Expressions with their types and source spans; appending hash-conses.
#[derive(Clone, Debug, Default)]
pub struct Arena {
    exprs: Vec<Expr>,
    types: Vec<Ty>,
    spans: Vec<Span>,
    interned: HashMap<Expr, H>,
    pub vars: Vec<VarInfo>,
    /// The span of nodes built without one (`node`, the library's derived
    /// operations): the call site, or the library call being expanded.
    build_span: Option<Span>,
    /// The source positions of the plan's nodes that can fail (`Checked`,
    /// `Assert`), resolved from their spans when the plan is built.
    locs: HashMap<H, Loc>,
    /// What the planner knows of shapes, for proofs that reads are in
    /// bounds ([`ShapeFacts`]).
    pub shape_facts: ShapeFacts,
}

/// Equalities the planner records as it builds a plan, each true wherever
/// its left side is in scope: a host `let`'s variable is its value, and a
/// buffer's shape is the expression it was allocated with (or, for a loop's
/// state, the shape every iteration keeps). The bounds analysis compares
/// shapes through them (`generate([n], ..)` reading an array of shape
/// `xs.shape()` when `n = xs.len()`).
#[derive(Clone, Debug, Default)]
pub struct ShapeFacts {
    pub lets: HashMap<VarId, H>,
    pub buffers: HashMap<BufId, H>,
}

impl Arena {
    /// The handle of `e` (of type `ty`), appending it if it is new.
    pub fn add(&mut self, e: Expr, ty: Ty, span: Span) -> H {
        if let Some(&h) = self.interned.get(&e) {
            return h;
        }
        let h = H(self.exprs.len() as u32);
        self.exprs.push(e.clone());
        self.types.push(ty);
        self.spans.push(span);
        self.interned.insert(e, h);
        h
    }

    pub fn new_var(&mut self, name: impl Into<String>, ty: Ty) -> VarId {
        self.vars.push(VarInfo {
            name: name.into(),
            ty,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    pub fn var(&self, v: VarId) -> &VarInfo {
        &self.vars[v.0 as usize]
    }

    pub fn expr(&self, h: H) -> &Expr {
        &self.exprs[h.index()]
    }

    pub fn ty(&self, h: H) -> &Ty {
        &self.types[h.index()]
    }

    pub fn span(&self, h: H) -> Span {
        self.spans[h.index()]
    }

    /// The span of the nodes the typed constructors build from now on
    /// (`None`: the call site); returns the previous one.
    pub fn set_build_span(&mut self, span: Option<Span>) -> Option<Span> {
        std::mem::replace(&mut self.build_span, span)
    }

    /// The span the typed constructors give their nodes.
    pub fn build_span(&self) -> Span {
        self.build_span.unwrap_or_else(Span::call_site)
    }

    /// The source position of plan node `h` (a `Checked` read or an `Assert`),
    /// if it has one.
    pub fn loc(&self, h: H) -> Option<Loc> {
        self.locs.get(&h).copied()
    }

    /// Resolves the spans of the nodes that can fail at run time (`Checked`,
    /// `Assert`) to source positions, for [`Arena::loc`].
    pub fn resolve_locs(&mut self) {
        for h in self.handles() {
            if matches!(
                self.expr(h),
                Expr::Plan(PlanRead::Checked { .. }) | Expr::Scalar(Scalar::Assert { .. })
            ) {
                if let Some(l) = Loc::of(self.span(h)) {
                    self.locs.insert(h, l);
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    pub fn handles(&self) -> impl Iterator<Item = H> {
        (0..self.exprs.len() as u32).map(H)
    }

    /// Whether some node reachable from `h` (`h` included) satisfies `pred`.
    pub fn reaches(&self, h: H, mut pred: impl FnMut(H, &Expr) -> bool) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![h];
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            let e = self.expr(x);
            if pred(x, e) {
                return true;
            }
            stack.extend(e.children());
        }
        false
    }

    /// The values that two or more of `xs` project (the components of a
    /// `while` loop's state update, projected from one loop body by the front
    /// end). The arena is a DAG and back ends emit trees, so they evaluate each
    /// of these once and project it, instead of running a loop body, or a whole
    /// loop, once per component. Variables are left out: projecting one is free.
    pub fn shared_projections(&self, xs: &[H]) -> Vec<H> {
        let mut seen = Vec::new();
        let mut shared = Vec::new();
        for &x in xs {
            if let Expr::Scalar(Scalar::Proj(b, _)) = self.expr(x) {
                if matches!(self.expr(*b), Expr::Scalar(Scalar::Var(_))) {
                    continue;
                }
                if seen.contains(b) {
                    if !shared.contains(b) {
                        shared.push(*b);
                    }
                } else {
                    seen.push(*b);
                }
            }
        }
        shared
    }

    /// Whether `h` reads variable `v`.
    pub fn mentions(&self, h: H, v: VarId) -> bool {
        self.reaches(h, |_, e| matches!(e, Expr::Scalar(Scalar::Var(w)) if *w == v))
    }

    // Small constructors used by every pass.

    pub fn lit(&mut self, prim: Prim, bits: u64) -> H {
        self.add(
            Expr::Scalar(Scalar::Lit(Lit { prim, bits })),
            Ty::Prim(prim),
            Span::call_site(),
        )
    }

    pub fn usize_lit(&mut self, n: usize) -> H {
        self.lit(Prim::Usize, n as u64)
    }

    pub fn var_ref(&mut self, v: VarId) -> H {
        let ty = self.var(v).ty.clone();
        self.add(Expr::Scalar(Scalar::Var(v)), ty, Span::call_site())
    }

    pub fn let_(&mut self, var: VarId, value: H, body: H) -> H {
        let ty = self.ty(body).clone();
        let span = self.span(body);
        self.add(Expr::Scalar(Scalar::Let { var, value, body }), ty, span)
    }

    pub fn proj(&mut self, x: H, n: usize) -> H {
        let ty = match self.ty(x) {
            Ty::Tuple(ts) => ts[n].clone(),
            _ => Ty::Prim(Prim::Usize),
        };
        self.add(Expr::Scalar(Scalar::Proj(x, n)), ty, Span::call_site())
    }

    pub fn binary(&mut self, op: BinOp, a: H, b: H) -> H {
        let ty = if op.is_comparison() {
            Ty::Prim(Prim::Bool)
        } else {
            self.ty(a).clone()
        };
        self.add(Expr::Scalar(Scalar::Binary(op, a, b)), ty, Span::call_site())
    }

    /// `f` applied to `args`: its body under `let`s of its parameters.
    pub fn apply(&mut self, f: &Fun, args: &[H]) -> H {
        let mut body = f.body;
        for (&p, &a) in f.params.iter().zip(args).rev() {
            body = self.let_(p, a, body);
        }
        body
    }
}
