//! A generator of random, well-typed accel programs and their inputs.
//!
//! Programs are built type-directed: an array expression of a wanted element
//! type and rank is drawn from the operations that can give it (variables,
//! producers, consumers, layout, irregular operations, array control flow),
//! and scalar code from literals with edge values, operators, casts, math
//! methods, `match`, tuples and loops whose state swaps and rotates. Inputs are
//! drawn with the same care: shapes with empty and length-one extents, integer
//! edge values, float specials.
//!
//! Every program is meant to compile; run-time errors (an index out of
//! bounds, an empty reduction) are part of what is compared.

use std::fmt::Write;

/// xorshift64*: small, fast, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum P {
    Bool,
    I8,
    I32,
    I64,
    U8,
    U32,
    U64,
    Usize,
    F32,
    F64,
}

use P::*;

const NUMS: &[P] = &[I8, I32, I64, U8, U32, U64, Usize, F32, F64];
const INTS: &[P] = &[I8, I32, I64, U8, U32, U64, Usize];
/// Element types of arrays (weighted to the common ones).
const ELEMS: &[P] = &[I32, I32, U32, I64, U8, F32, F32, F64, Bool, Usize, I8, U64];

impl P {
    pub fn name(self) -> &'static str {
        match self {
            Bool => "bool",
            I8 => "i8",
            I32 => "i32",
            I64 => "i64",
            U8 => "u8",
            U32 => "u32",
            U64 => "u64",
            Usize => "usize",
            F32 => "f32",
            F64 => "f64",
        }
    }
    fn is_float(self) -> bool {
        matches!(self, F32 | F64)
    }
    fn is_int(self) -> bool {
        INTS.contains(&self)
    }
    fn is_signed(self) -> bool {
        matches!(self, I8 | I32 | I64)
    }
    fn bits(self) -> u32 {
        match self {
            Bool => 1,
            I8 | U8 => 8,
            I32 | U32 | F32 => 32,
            _ => 64,
        }
    }
}

/// An element type: a primitive or a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum E {
    P(P),
    Pair(P, P),
}

impl E {
    fn name(self) -> String {
        match self {
            E::P(p) => p.name().to_string(),
            E::Pair(a, b) => format!("({}, {})", a.name(), b.name()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrTy {
    pub elem: E,
    pub rank: usize,
}

impl ArrTy {
    pub fn rust(self) -> String {
        let e = self.elem.name();
        match self.rank {
            0 => format!("Scalar<{e}>"),
            1 => format!("Vector<{e}>"),
            2 => format!("Matrix<{e}>"),
            r => format!("Array<{e}, {r}>"),
        }
    }
}

/// An input array of primitives: its type, shape and elements as Rust literals.
#[derive(Clone)]
pub struct Input {
    pub name: String,
    pub ty: ArrTy,
    pub shape: Vec<usize>,
    pub elems: Vec<String>,
}

#[derive(Clone)]
pub struct Program {
    pub name: String,
    pub source: String,
    pub inputs: Vec<Input>,
    /// Whether results may differ in the last bits between executors (float
    /// reductions and scans combine in another order in parallel).
    pub reordered_floats: bool,
}

impl Program {
    /// Rust code that builds the inputs as `let` bindings.
    pub fn input_code(&self) -> String {
        let mut s = String::new();
        for i in &self.inputs {
            let sh: Vec<String> = i.shape.iter().map(|d| d.to_string()).collect();
            let _ = writeln!(
                s,
                "let {}: {} = Array::from_vec([{}], vec![{}]).unwrap();",
                i.name,
                i.ty.rust(),
                sh.join(", "),
                i.elems.join(", ")
            );
        }
        s
    }
}

impl Input {
    /// The input as a dynamic value (for executors run in-process).
    pub fn to_dyn(&self) -> accel::dynamic::Dyn {
        let E::P(p) = self.ty.elem else {
            unreachable!("inputs are arrays of primitives")
        };
        accel::dynamic::Dyn::Array(accel::dynamic::DynArray {
            shape: self.shape.clone(),
            elems: self.elems.iter().map(|e| elem_value(p, e)).collect(),
        })
    }
}

/// The value of element literal `lit` (as `input_elem` writes it) of type `p`.
fn elem_value(p: P, lit: &str) -> accel::dynamic::Value {
    use accel::dynamic::Value as V;
    let body = lit.trim_start_matches('(').trim_end_matches(')');
    fn fail<T>(lit: &str, p: P) -> T {
        panic!("input literal `{lit}` of type {}", p.name())
    }
    if let Some(c) = body.strip_prefix(&format!("{}::", p.name())) {
        let bits = |c: &str| {
            c.strip_prefix("from_bits(")
                .and_then(|b| b.trim_end_matches(')').parse::<u64>().ok())
        };
        return match (p, c) {
            (F32, "NAN") => V::F32(f32::NAN),
            (F32, "INFINITY") => V::F32(f32::INFINITY),
            (F32, "NEG_INFINITY") => V::F32(f32::NEG_INFINITY),
            (F32, "MIN_POSITIVE") => V::F32(f32::MIN_POSITIVE),
            (F32, "MAX") => V::F32(f32::MAX),
            (F32, c) => V::F32(f32::from_bits(bits(c).unwrap_or_else(|| fail(lit, p)) as u32)),
            (F64, "NAN") => V::F64(f64::NAN),
            (F64, "INFINITY") => V::F64(f64::INFINITY),
            (F64, "NEG_INFINITY") => V::F64(f64::NEG_INFINITY),
            (F64, "MIN_POSITIVE") => V::F64(f64::MIN_POSITIVE),
            (F64, "MAX") => V::F64(f64::MAX),
            (F64, c) => V::F64(f64::from_bits(bits(c).unwrap_or_else(|| fail(lit, p)))),
            (I8, "MIN") => V::I8(i8::MIN),
            (I8, "MAX") => V::I8(i8::MAX),
            (I32, "MIN") => V::I32(i32::MIN),
            (I32, "MAX") => V::I32(i32::MAX),
            (I64, "MIN") => V::I64(i64::MIN),
            (I64, "MAX") => V::I64(i64::MAX),
            (U8, "MAX") => V::U8(u8::MAX),
            (U32, "MAX") => V::U32(u32::MAX),
            (U64, "MAX") => V::U64(u64::MAX),
            (Usize, "MAX") => V::Usize(usize::MAX),
            _ => fail(lit, p),
        };
    }
    let num = body.strip_suffix(p.name()).unwrap_or(body);
    fn parse<T: std::str::FromStr>(num: &str, lit: &str, p: P) -> T {
        num.parse().unwrap_or_else(|_| fail(lit, p))
    }
    match p {
        Bool => V::Bool(parse(num, lit, p)),
        I8 => V::I8(parse(num, lit, p)),
        I32 => V::I32(parse(num, lit, p)),
        I64 => V::I64(parse(num, lit, p)),
        U8 => V::U8(parse(num, lit, p)),
        U32 => V::U32(parse(num, lit, p)),
        U64 => V::U64(parse(num, lit, p)),
        Usize => V::Usize(parse(num, lit, p)),
        F32 => V::F32(parse(num, lit, p)),
        F64 => V::F64(parse(num, lit, p)),
    }
}

/// A scalar in scope: a name and its type.
#[derive(Clone)]
struct SVar {
    name: String,
    ty: P,
}

/// An array in scope with its shape class: arrays of one class have equal
/// shapes (parameters of one rank, maps of them).
#[derive(Clone)]
struct AVar {
    name: String,
    ty: ArrTy,
}

pub struct Gen<'r> {
    rng: &'r mut Rng,
    arrays: Vec<AVar>,
    /// Scalars visible at the array level (parameters, `let`s of sizes).
    host: Vec<SVar>,
    fresh: usize,
    reordered: bool,
    /// Inside a `generate`'s element function: its index variables and the
    /// arrays of its rank, which loops in it may read.
    loop_reads: Option<(Vec<String>, Vec<AVar>)>,
}

/// `MIN` or `MAX` of integer type `p` (`MAX` only when unsigned: its `MIN` is 0).
fn int_edge(rng: &mut Rng, p: P) -> String {
    let c = if p.is_signed() {
        rng.pick(&["MIN", "MAX"])
    } else {
        "MAX"
    };
    format!("{}::{c}", p.name())
}

/// Float expression `y` with any NaN replaced by `NAN`: the sign of a NaN
/// that an operation makes is not specified (docs/language.md), so programs
/// that read the sign must not depend on it.
fn known_nan_sign(y: &str, p: P) -> String {
    format!("(if {y}.is_nan() {{ {}::NAN }} else {{ {y} }})", p.name())
}

/// A literal of type `p`: edge values often, small values mostly.
fn literal(rng: &mut Rng, p: P) -> String {
    let n = p.name();
    match p {
        Bool => rng.pick(&["true", "false"]).to_string(),
        F32 | F64 => {
            let special = [
                "NAN",
                "INFINITY",
                "NEG_INFINITY",
                "MIN_POSITIVE",
                "EPSILON",
                "MAX",
                "MIN",
            ];
            if rng.chance(0.15) {
                format!("{n}::{}", rng.pick(&special))
            } else if rng.chance(0.05) {
                // A subnormal.
                let bits = if p == F32 {
                    "f32::from_bits(3)"
                } else {
                    "f64::from_bits(3)"
                };
                bits.to_string()
            } else {
                let v = rng.pick(&[0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.25, -7.5, 100.0, 1e-3]);
                format!("({v:?}{n})")
            }
        }
        _ => {
            if rng.chance(0.2) {
                int_edge(rng, p)
            } else {
                let mut v = rng.pick(&[0i64, 1, 2, 3, 5, 7, 16, 31, 100, -1, -2, -128]);
                if !p.is_signed() && v < 0 {
                    v = -v;
                }
                if p.bits() == 8 && !(-128..=255).contains(&v) || (p == I8 && v > 127) {
                    v = 3;
                }
                format!("({v}{n})")
            }
        }
    }
}

/// The elements of an input: edge values, small values and some spread.
fn input_elem(rng: &mut Rng, p: P, i: usize) -> String {
    let n = p.name();
    match p {
        Bool => (rng.chance(0.5)).to_string(),
        F32 | F64 => {
            if rng.chance(0.06) {
                let s = rng.pick(&["NAN", "INFINITY", "NEG_INFINITY", "MIN_POSITIVE", "MAX"]);
                format!("{n}::{s}")
            } else if rng.chance(0.05) {
                format!("{n}::from_bits({})", rng.below(5) + 1)
            } else {
                let v = (rng.below(2001) as f64 - 1000.0) / 8.0;
                let v = if rng.chance(0.05) { -0.0 } else { v };
                format!("{v:?}{n}")
            }
        }
        _ => {
            if rng.chance(0.08) {
                int_edge(rng, p)
            } else {
                let (lo, hi): (i64, i64) = match p {
                    I8 => (-128, 127),
                    U8 => (0, 255),
                    _ if p.is_signed() => (-50, 200),
                    _ => (0, 200),
                };
                let v = if rng.chance(0.7) {
                    (rng.below(20) as i64 + i as i64 % 3).min(hi)
                } else {
                    lo + rng.below((hi - lo + 1) as usize) as i64
                };
                format!("{v}{n}")
            }
        }
    }
}

impl<'r> Gen<'r> {
    fn fresh(&mut self, what: &str) -> String {
        self.fresh += 1;
        format!("{what}{}", self.fresh)
    }

    // ------------------------------------------------------------ scalars

    /// A scalar expression of type `p` over the scalars in `env`.
    fn scalar(&mut self, p: P, env: &[SVar], depth: usize) -> String {
        let vars: Vec<&SVar> = env.iter().filter(|v| v.ty == p).collect();
        if depth == 0 || self.rng.chance(0.2) {
            if !vars.is_empty() && self.rng.chance(0.75) {
                return vars[self.rng.below(vars.len())].name.clone();
            }
            return literal(self.rng, p);
        }
        let d = depth - 1;
        match self.rng.below(12) {
            0 | 1 | 2 => self.binary(p, env, d),
            3 => {
                // A cast from another type.
                let from = self.rng.pick(if p == Bool { &[Bool] } else { &ELEMS[..] });
                if p == Bool {
                    let a = self.scalar(I32, env, d);
                    let b = self.scalar(I32, env, d);
                    let op = self.rng.pick(&["<", "<=", "==", "!=", ">", ">="]);
                    return format!("({a} {op} {b})");
                }
                let x = self.scalar(from, env, d);
                format!("({x} as {})", p.name())
            }
            4 => {
                let c = self.scalar(Bool, env, d);
                let (t, e) = (self.scalar(p, env, d), self.scalar(p, env, d));
                format!("(if {c} {{ {t} }} else {{ {e} }})")
            }
            5 => self.method(p, env, d),
            6 if p.is_int() || p == Bool => self.matching(p, env, d),
            7 => self.rotating_loop(p, env, d),
            8 => {
                // A tuple bound and taken apart.
                let q = self.rng.pick(ELEMS);
                let (a, b) = (self.scalar(p, env, d), self.scalar(q, env, d));
                let (x, y) = (self.fresh("t"), self.fresh("t"));
                let mut env2 = env.to_vec();
                env2.push(SVar {
                    name: x.clone(),
                    ty: p,
                });
                env2.push(SVar {
                    name: y.clone(),
                    ty: q,
                });
                let body = self.scalar(p, &env2, d);
                format!("{{ let ({x}, {y}) = ({a}, {b}); {body} }}")
            }
            9 if p == Bool => {
                let q = self.rng.pick(NUMS);
                let (a, b) = (self.scalar(q, env, d), self.scalar(q, env, d));
                let op = self.rng.pick(&["<", "<=", "==", "!=", ">", ">="]);
                format!("({a} {op} {b})")
            }
            10 if p.is_float() => {
                let x = self.scalar(p, env, d);
                format!("(-{x})")
            }
            _ => {
                if !vars.is_empty() {
                    vars[self.rng.below(vars.len())].name.clone()
                } else {
                    literal(self.rng, p)
                }
            }
        }
    }

    fn binary(&mut self, p: P, env: &[SVar], d: usize) -> String {
        let (a, b) = (self.scalar(p, env, d), self.scalar(p, env, d));
        let op = match p {
            Bool => self.rng.pick(&["&&", "||", "^", "&", "|", "=="]),
            F32 | F64 => self.rng.pick(&["+", "-", "*", "/", "%"]),
            _ => {
                let op = self
                    .rng
                    .pick(&["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]);
                if op == "<<" || op == ">>" {
                    // The amount may be of another type and out of range.
                    let q = self.rng.pick(INTS);
                    let s = self.scalar(q, env, d);
                    return format!("({a} {op} {s})");
                }
                op
            }
        };
        format!("({a} {op} {b})")
    }

    fn method(&mut self, p: P, env: &[SVar], d: usize) -> String {
        let x = self.scalar(p, env, d);
        match p {
            Bool => {
                let q = self.rng.pick(&[F32, F64]);
                let y = self.scalar(q, env, d);
                let m = self
                    .rng
                    .pick(&["is_nan", "is_finite", "is_sign_negative", "is_infinite"]);
                if m == "is_sign_negative" {
                    // The sign of a computed NaN is not specified (docs/language.md).
                    let y = known_nan_sign(&y, q);
                    return format!("{y}.{m}()");
                }
                format!("{y}.{m}()")
            }
            F32 | F64 => match self.rng.below(6) {
                0 => {
                    let y = self.scalar(p, env, d);
                    let m = self.rng.pick(&["min", "max", "copysign"]);
                    if m == "copysign" {
                        return format!("{x}.{m}({})", known_nan_sign(&y, p));
                    }
                    format!("{x}.{m}({y})")
                }
                1 => {
                    let (y, z) = (self.scalar(p, env, d), self.scalar(p, env, d));
                    format!("{x}.mul_add({y}, {z})")
                }
                2 => {
                    let (lo, hi) = (self.scalar(p, env, d), self.scalar(p, env, d));
                    format!("{x}.clamp({lo}, {hi})")
                }
                _ => {
                    let m = self.rng.pick(&[
                        "sqrt", "floor", "ceil", "abs", "trunc", "round", "signum", "recip",
                    ]);
                    format!("{x}.{m}()")
                }
            },
            _ => match self.rng.below(6) {
                0 => {
                    let y = self.scalar(p, env, d);
                    let m = self.rng.pick(&[
                        "min",
                        "max",
                        "wrapping_add",
                        "wrapping_sub",
                        "wrapping_mul",
                        "saturating_add",
                        "saturating_sub",
                        "div_euclid",
                        "rem_euclid",
                    ]);
                    format!("{x}.{m}({y})")
                }
                1 => {
                    let n = self.scalar(U32, env, d);
                    let m = self.rng.pick(&["rotate_left", "rotate_right", "pow"]);
                    format!("{x}.{m}({n})")
                }
                2 if p == U32 => {
                    let q = self.rng.pick(INTS);
                    let y = self.scalar(q, env, d);
                    let m = self.rng.pick(&["count_ones", "leading_zeros", "trailing_zeros"]);
                    format!("{y}.{m}()")
                }
                3 if p.is_signed() => {
                    let m = self.rng.pick(&["abs", "signum", "wrapping_neg"]);
                    format!("{x}.{m}()")
                }
                _ => {
                    let m = self.rng.pick(&["swap_bytes", "reverse_bits", "wrapping_neg"]);
                    format!("{x}.{m}()")
                }
            },
        }
    }

    /// A `match` on an integer scrutinee.
    fn matching(&mut self, p: P, env: &[SVar], d: usize) -> String {
        let q = self.rng.pick(&[I32, U8, I64, U32]);
        let x = self.scalar(q, env, d);
        let n = self.fresh("m");
        let mut env2 = env.to_vec();
        env2.push(SVar {
            name: n.clone(),
            ty: q,
        });
        let mut arms = String::new();
        for k in 0..1 + self.rng.below(3) {
            let pat = match self.rng.below(4) {
                0 => format!("{k}"),
                1 => format!("{} | {}", k + 3, k + 9),
                2 => format!("{}..={}", 10 * k + 1, 10 * k + 6),
                _ if q.is_signed() => format!("{}::MIN..=-1", q.name()),
                _ => format!("{}", 200 + k),
            };
            let guard = if self.rng.chance(0.3) {
                let g = self.scalar(Bool, &env2, d.min(1));
                format!(" if {g}")
            } else {
                String::new()
            };
            let v = self.scalar(p, &env2, d);
            let _ = write!(arms, "{n} @ ({pat}){guard} => {v}, ");
        }
        let v = self.scalar(p, env, d);
        let _ = write!(arms, "_ => {v}");
        format!("(match {x} {{ {arms} }})")
    }

    /// A loop whose state swaps or rotates (the PTX back edge's parallel copy).
    fn rotating_loop(&mut self, p: P, env: &[SVar], d: usize) -> String {
        let k = 2 + self.rng.below(3);
        let names: Vec<String> = (0..k).map(|_| self.fresh("s")).collect();
        let mut s = String::from("{ ");
        for n in &names {
            let v = self.scalar(p, env, d);
            let _ = write!(s, "let mut {n}: {} = {v}; ", p.name());
        }
        let mut env2 = env.to_vec();
        let counter = self.fresh("i");
        // The counter is u32 in `for`, compared in `while`.
        let trips = self.rng.below(5);
        let in_while = self.rng.chance(0.4);
        if in_while {
            let _ = write!(s, "let mut {counter}: u32 = 0; while {counter} < {trips} {{ ");
        } else {
            let _ = write!(s, "for {counter} in 0..{trips}u32 {{ ");
        }
        env2.push(SVar {
            name: counter.clone(),
            ty: U32,
        });
        for n in &names {
            env2.push(SVar {
                name: n.clone(),
                ty: p,
            });
        }
        // Rotate (a, b, c) <- (b, c, a) through a temporary, sometimes
        // updating one component with an expression of the old state.
        let t = self.fresh("tmp");
        let _ = write!(s, "let {t} = {}; ", names[0]);
        for w in names.windows(2) {
            let _ = write!(s, "{} = {}; ", w[0], w[1]);
        }
        let _ = write!(s, "{} = {t}; ", names[k - 1]);
        if self.rng.chance(0.6) {
            let e = self.scalar(p, &env2, d.min(2));
            let _ = write!(s, "{} = {e}; ", names[self.rng.below(k)]);
        }
        // Inside a generate, sometimes a read in the loop of an array of its
        // rank, at the element's index with some components the counter:
        // trips the same along a row, state that varies (row lanes).
        if let Some((ix, arrays)) = self.loop_reads.clone() {
            let of_p: Vec<&AVar> = arrays.iter().filter(|a| a.ty.elem == E::P(p)).collect();
            if !of_p.is_empty() && self.rng.chance(0.5) {
                let a = of_p[self.rng.below(of_p.len())].name.clone();
                let at: Vec<String> = ix
                    .iter()
                    .map(|i| {
                        if self.rng.chance(0.4) {
                            format!("({counter} as usize)")
                        } else {
                            i.clone()
                        }
                    })
                    .collect();
                let _ = write!(s, "{} = {a}[[{}]]; ", names[self.rng.below(k)], at.join(", "));
            }
        }
        if in_while {
            let _ = write!(s, "{counter} += 1; ");
        }
        s.push_str("} ");
        let mut env3 = env.to_vec();
        for n in &names {
            env3.push(SVar {
                name: n.clone(),
                ty: p,
            });
        }
        let r = self.scalar(p, &env3, d.min(1));
        let _ = write!(s, "{r} }}");
        s
    }

    /// A closure over an element of type `e`: its parameter pattern and the
    /// scalars it binds.
    fn elem_param(&mut self, e: E) -> (String, Vec<SVar>) {
        match e {
            E::P(p) => {
                let x = self.fresh("x");
                (x.clone(), vec![SVar { name: x, ty: p }])
            }
            E::Pair(a, b) => {
                let (x, y) = (self.fresh("x"), self.fresh("y"));
                (
                    format!("({x}, {y})"),
                    vec![SVar { name: x, ty: a }, SVar { name: y, ty: b }],
                )
            }
        }
    }

    fn elem_value(&mut self, e: E, env: &[SVar], d: usize) -> String {
        match e {
            E::P(p) => self.scalar(p, env, d),
            E::Pair(a, b) => {
                let (x, y) = (self.scalar(a, env, d), self.scalar(b, env, d));
                format!("({x}, {y})")
            }
        }
    }

    // ------------------------------------------------------------- arrays

    fn vars_of(&self, t: ArrTy) -> Vec<String> {
        self.arrays
            .iter()
            .filter(|a| a.ty == t)
            .map(|a| a.name.clone())
            .collect()
    }

    fn vars_of_rank(&self, r: usize) -> Vec<AVar> {
        self.arrays.iter().filter(|a| a.ty.rank == r).cloned().collect()
    }

    /// Some array of rank `r` (any element type): a variable when there is one.
    fn any_of_rank(&mut self, r: usize, depth: usize) -> (String, ArrTy) {
        let vs = self.vars_of_rank(r);
        if !vs.is_empty() && (depth == 0 || self.rng.chance(0.6)) {
            let v = &vs[self.rng.below(vs.len())];
            return (v.name.clone(), v.ty);
        }
        let t = ArrTy {
            elem: E::P(self.rng.pick(ELEMS)),
            rank: r,
        };
        (self.array(t, depth.saturating_sub(1)), t)
    }

    /// An array expression of type `t`.
    pub fn array(&mut self, t: ArrTy, depth: usize) -> String {
        let vars = self.vars_of(t);
        if depth == 0 {
            if !vars.is_empty() {
                return vars[self.rng.below(vars.len())].clone();
            }
            return self.generate(t, 0);
        }
        for _ in 0..8 {
            if let Some(e) = self.try_array(t, depth) {
                return e;
            }
        }
        self.generate(t, depth - 1)
    }

    fn try_array(&mut self, t: ArrTy, depth: usize) -> Option<String> {
        let d = depth - 1;
        let r = t.rank;
        let prim = match t.elem {
            E::P(p) => Some(p),
            E::Pair(..) => None,
        };
        Some(match self.rng.below(24) {
            0 | 1 => {
                let vars = self.vars_of(t);
                if vars.is_empty() {
                    return None;
                }
                vars[self.rng.below(vars.len())].clone()
            }
            2 | 3 => {
                let (src, st) = self.any_of_rank(r, d);
                let (pat, env) = self.elem_param(st.elem);
                let env = [self.host.clone(), env].concat();
                let body = self.elem_value(t.elem, &env, 3);
                format!("{src}.map(|{pat}| {body})")
            }
            4 => {
                let (a, at) = self.any_of_rank(r, d);
                let (b, bt) = self.any_of_rank(r, d);
                let (pa, ea) = self.elem_param(at.elem);
                let (pb, eb) = self.elem_param(bt.elem);
                let env = [self.host.clone(), ea, eb].concat();
                let body = self.elem_value(t.elem, &env, 3);
                format!("{a}.zip_with(&{b}, |{pa}, {pb}| {body})")
            }
            5 => self.generate(t, d),
            6 | 7 if r < 3 => {
                // A reduction of the innermost dimension.
                let p = prim?;
                if p == Bool {
                    let (src, st) = self.any_of_rank(r + 1, d);
                    let (pat, env) = self.elem_param(st.elem);
                    let env = [self.host.clone(), env].concat();
                    let pred = self.scalar(Bool, &env, 2);
                    let m = self.rng.pick(&["all", "any"]);
                    return Some(format!("{src}.{m}(|{pat}| {pred})"));
                }
                let src = self.array(
                    ArrTy {
                        elem: t.elem,
                        rank: r + 1,
                    },
                    d,
                );
                self.reduce(p, &src)
            }
            8 | 9 if r >= 1 => {
                let p = prim?;
                if p == Bool {
                    return None;
                }
                let src = self.array(t, d);
                self.scan(p, r, &src)
            }
            10 if r >= 1 => {
                let src = self.array(t, d);
                let n = self.size_expr();
                match self.rng.below(5) {
                    0 => format!("{src}.reverse()"),
                    1 => format!("{src}.take({n})"),
                    2 => format!("{src}.drop({n})"),
                    3 => format!("{src}.tail()"),
                    _ => format!("{src}.init()"),
                }
            }
            11 if r == 2 => {
                let src = self.array(t, d);
                format!("{src}.transpose()")
            }
            12 if r >= 1 => {
                // replicate from one rank less, or slice from one rank more.
                if self.rng.chance(0.5) {
                    let src = self.array(
                        ArrTy {
                            elem: t.elem,
                            rank: r - 1,
                        },
                        d,
                    );
                    let n = self.size_expr();
                    let pos = self.rng.below(r);
                    let spec: Vec<String> = (0..r)
                        .map(|i| if i == pos { n.clone() } else { "All".into() })
                        .collect();
                    format!("{src}.replicate([{}])", spec.join(", "))
                } else if r < 3 {
                    let src = self.array(
                        ArrTy {
                            elem: t.elem,
                            rank: r + 1,
                        },
                        d,
                    );
                    let k = self.size_expr();
                    let pos = self.rng.below(r + 1);
                    let spec: Vec<String> = (0..=r)
                        .map(|i| if i == pos { k.clone() } else { "All".into() })
                        .collect();
                    format!("{src}.slice([{}])", spec.join(", "))
                } else {
                    return None;
                }
            }
            13 if (1..=3).contains(&r) => self.stencil(t, d)?,
            14 => self.permute(t, d)?,
            15 if r == 1 => {
                let p = prim?;
                let src = self.array(t, d);
                match self.rng.below(4) {
                    0 if p != Bool => format!("{src}.sort()"),
                    1 => {
                        let (pat, env) = self.elem_param(t.elem);
                        let env = [self.host.clone(), env].concat();
                        let pred = self.scalar(Bool, &env, 2);
                        format!("{src}.filter(|{pat}| {pred})")
                    }
                    2 => {
                        let (pat, env) = self.elem_param(t.elem);
                        let env = [self.host.clone(), env].concat();
                        let k = self.rng.pick(&[I32, U32, U8]);
                        let key = self.scalar(k, &env, 2);
                        format!("{src}.sort_by_key(|{pat}| {key})")
                    }
                    _ => {
                        let other = self.array(t, d);
                        format!("{src}.concat(&{other})")
                    }
                }
            }
            16 if r == 1 => {
                // expand: counts of 0..3 (or negative: an error).
                let (src, st) = self.any_of_rank(1, d);
                let (pat, env) = self.elem_param(st.elem);
                let env = [self.host.clone(), env].concat();
                let c = self.rng.pick(&[I32, U32, Usize]);
                let cnt = self.scalar(c, &env, 1);
                // Bounded: a count of billions would ask for more memory than
                // there is (a signed count may still be negative: an error).
                let count = format!("({cnt}) % ({}{})", 1 + self.rng.below(4), c.name());
                let k = self.fresh("k");
                let (pat2, env2) = self.elem_param(st.elem);
                let mut env2 = [self.host.clone(), env2].concat();
                env2.push(SVar {
                    name: k.clone(),
                    ty: c,
                });
                let v = self.elem_value(t.elem, &env2, 2);
                format!("{src}.expand(|{pat}| {count}, |{pat2}, {k}| {v})")
            }
            17 if r == 1 => {
                // Segmented fold over lengths taken from a vector.
                let p = prim?;
                if p == Bool {
                    return None;
                }
                let src = self.array(t, d);
                let lens = self.array(
                    ArrTy {
                        elem: E::P(U32),
                        rank: 1,
                    },
                    d.min(1),
                );
                let lens = format!("{lens}.map(|l| l % 4)");
                let z = literal(self.rng, p);
                let f = self.assoc_op(p);
                self.reordered |= p.is_float();
                format!("{src}.fold_seg(&{lens}, {z}, {f})")
            }
            18 => {
                // An `if` between arrays.
                let c = self.host_bool();
                let (a, b) = (self.array(t, d), self.array(t, d));
                format!("(if {c} {{ {a} }} else {{ {b} }})")
            }
            19 if r == 1 => {
                let p = prim?;
                if !p.is_int() {
                    return None;
                }
                let idx = self.array(
                    ArrTy {
                        elem: E::P(p),
                        rank: 1,
                    },
                    d,
                );
                let src = self.array(t, d);
                format!("{src}.gather(&{idx})")
            }
            20 if r == 1 && prim.is_some() => {
                let (src, st) = self.any_of_rank(r, d);
                let (pa, ea) = self.elem_param(st.elem);
                let env = [self.host.clone(), ea].concat();
                let x = self.elem_value(t.elem, &env, 2);
                format!("{src}.zip(&{src}).map(|({pa}, _)| {x})")
            }
            // Sequences: an array program per slice, stacked again.
            21 if r >= 1 => {
                let (src, st) = self.any_of_rank(r, d);
                let marks: Vec<&str> = (0..r).map(|i| if i + 1 == r { "Split" } else { "All" }).collect();
                let seq = if r >= 2 && self.rng.chance(0.3) {
                    format!("{src}.split([{}])", marks.join(", "))
                } else {
                    format!("{src}.rows()")
                };
                let (x, body) = self.element_program(
                    st.elem,
                    r - 1,
                    ArrTy {
                        elem: t.elem,
                        rank: r - 1,
                    },
                    d,
                );
                format!("{seq}.map(|{x}| {body}).tabulate()")
            }
            // Sequences: an array program per slice or element, folded.
            22 | 23 if r == 0 => {
                let p = prim?;
                if p == Bool {
                    return None;
                }
                let sr = 1 + self.rng.below(3);
                let (src, st) = self.any_of_rank(sr, d);
                let (seq, er) = if self.rng.chance(0.3) {
                    (format!("{src}.to_seq()"), 0)
                } else {
                    (format!("{src}.rows()"), sr - 1)
                };
                let (x, body) = self.element_program(
                    st.elem,
                    er,
                    ArrTy {
                        elem: E::P(p),
                        rank: 0,
                    },
                    d,
                );
                if p.is_float() {
                    self.reordered = true;
                }
                let fold = match self.rng.below(5) {
                    0 => "sum()".to_string(),
                    1 => "minimum()".to_string(),
                    2 => "maximum()".to_string(),
                    3 if p.is_int() => "product()".to_string(),
                    _ => {
                        let z = literal(self.rng, p);
                        let f = self.assoc_op(p);
                        format!("fold({z}, {f})")
                    }
                };
                format!("{seq}.map(|{x}| {body}).{fold}")
            }
            _ => return None,
        })
    }

    /// A sequence's element program: an array of type `out` computed from
    /// the element `x` (of `elem`s, rank `rank`) and the arrays in scope.
    fn element_program(&mut self, elem: E, rank: usize, out: ArrTy, depth: usize) -> (String, String) {
        let x = self.fresh("x");
        self.arrays.push(AVar {
            name: x.clone(),
            ty: ArrTy { elem, rank },
        });
        let body = self.array(out, depth);
        self.arrays.pop();
        (x, body)
    }

    /// A size for `take`, `drop`, `replicate`, `slice`: small, or a length.
    fn size_expr(&mut self) -> String {
        let sizes: Vec<String> = self
            .host
            .iter()
            .filter(|v| v.ty == Usize)
            .map(|v| v.name.clone())
            .collect();
        if !sizes.is_empty() && self.rng.chance(0.5) {
            let n = sizes[self.rng.below(sizes.len())].clone();
            return if self.rng.chance(0.5) {
                format!("({n} / 2)")
            } else {
                n
            };
        }
        format!("{}", self.rng.below(4))
    }

    /// A condition computed on the host (it may read arrays).
    fn host_bool(&mut self) -> String {
        let sizes: Vec<String> = self
            .host
            .iter()
            .filter(|v| v.ty == Usize)
            .map(|v| v.name.clone())
            .collect();
        if !sizes.is_empty() && self.rng.chance(0.6) {
            let n = sizes[self.rng.below(sizes.len())].clone();
            return format!("{n} > {}", self.rng.below(4));
        }
        let host = self.host.clone();
        self.scalar(Bool, &host, 2)
    }

    /// An associative (and, for floats, order-sensitive) combination; the
    /// last, "the later one unless it is zero", is not commutative.
    fn assoc_op(&mut self, p: P) -> String {
        // No float product: over inputs with `MAX`, infinities and
        // subnormals, a product taken in another order overflows or loses
        // its precision in other places (seed 77's rp1904, a `scanr` of
        // `a * b` on the GPU path: -1.02 against -inf, 0.0 against NaN), so
        // no tolerance can compare it. The right projection (exact, and
        // sensitive to the order) keeps the list, and so the draws, as they
        // were.
        let ops: &[&str] = if p.is_float() {
            &[
                "a + b",
                "a.min(b)",
                "a.max(b)",
                "b",
                "if b != 0.0 { b } else { a }",
            ]
        } else {
            &[
                "a + b",
                "a * b",
                "a.min(b)",
                "a.max(b)",
                "a & b",
                "a | b",
                "a ^ b",
                "a.wrapping_sub(0) + b",
                "if b != 0 { b } else { a }",
            ]
        };
        format!("|a, b| {}", self.rng.pick(ops))
    }

    fn reduce(&mut self, p: P, src: &str) -> String {
        if p.is_float() {
            self.reordered = true;
        }
        match self.rng.below(6) {
            0 => format!("{src}.sum()"),
            1 => format!("{src}.minimum()"),
            2 => format!("{src}.maximum()"),
            3 => {
                let f = self.assoc_op(p);
                format!("{src}.fold1({f})")
            }
            4 if p.is_int() => format!("{src}.product()"),
            _ => {
                let z = literal(self.rng, p);
                let f = self.assoc_op(p);
                format!("{src}.fold({z}, {f})")
            }
        }
    }

    fn scan(&mut self, p: P, rank: usize, src: &str) -> String {
        if p.is_float() {
            self.reordered = true;
        }
        let f = self.assoc_op(p);
        let z = literal(self.rng, p);
        if rank == 1 && self.rng.chance(0.15) {
            // Both results of a scan with its total, used apart.
            let (s, t) = (self.fresh("s"), self.fresh("t"));
            let dir = self.rng.pick(&["scanl_total", "scanr_total"]);
            let x = self.fresh("x");
            return format!("{{ let ({s}, {t}) = {src}.{dir}({z}, {f}); {s}.map(|{x}| {x}.max({t}[[]])) }}");
        }
        match self.rng.below(6) {
            0 => format!("{src}.scanl({z}, {f})"),
            1 => format!("{src}.scanr({z}, {f})"),
            2 => format!("{src}.scanl1({f})"),
            3 => format!("{src}.scanr1({f})"),
            4 => format!("{src}.prescanl({z}, {f})"),
            _ => format!("{src}.postscanr({z}, {f})"),
        }
    }

    /// `generate` over the shape of an array of rank `r` (or a literal
    /// shape), reading arrays at the index and sometimes one step outside it.
    fn generate(&mut self, t: ArrTy, _depth: usize) -> String {
        let r = t.rank;
        let like = self.vars_of_rank(r);
        if r > 0 && !like.is_empty() && self.rng.chance(0.3) {
            if let Some(e) = self.generate_one_off(t, &like) {
                return e;
            }
        }
        let shape = if !like.is_empty() && self.rng.chance(0.7) {
            format!("{}.shape()", like[self.rng.below(like.len())].name)
        } else {
            let dims: Vec<String> = (0..r)
                .map(|_| self.rng.pick(&["0", "1", "2", "3", "5"]).to_string())
                .collect();
            format!("[{}]", dims.join(", "))
        };
        let ix: Vec<String> = (0..r).map(|_| self.fresh("i")).collect();
        let mut env = self.host.clone();
        for i in &ix {
            env.push(SVar {
                name: i.clone(),
                ty: Usize,
            });
        }
        // Reads of same-rank arrays: at the index, or off by one in one
        // dimension (the reads the bounds-check elision must not drop).
        if !like.is_empty() && self.rng.chance(0.7) {
            let a = like[self.rng.below(like.len())].clone();
            if let E::P(p) = a.ty.elem {
                let mut at = ix.clone();
                if r > 0 && self.rng.chance(0.3) {
                    let k = self.rng.below(r);
                    at[k] = format!("{} + 1", at[k]);
                }
                let v = self.fresh("r");
                let read = format!("{}[[{}]]", a.name, at.join(", "));
                let body_env = {
                    let mut e = env.clone();
                    e.push(SVar {
                        name: v.clone(),
                        ty: p,
                    });
                    e
                };
                self.loop_reads = (r > 0).then(|| (ix.clone(), like.clone()));
                let body = self.elem_value(t.elem, &body_env, 3);
                self.loop_reads = None;
                let body = self.using(&v, body, t.elem, &body_env);
                return format!(
                    "generate({shape}, |[{}]| {{ let {v} = {read}; {body} }})",
                    ix.join(", ")
                );
            }
        }
        self.loop_reads = (r > 0).then(|| (ix.clone(), like));
        let body = self.elem_value(t.elem, &env, 3);
        self.loop_reads = None;
        format!("generate({shape}, |[{}]| {body})", ix.join(", "))
    }

    /// `generate` over the shape of an array with one extent changed,
    /// reading the array at the iteration index: the read leaves the array
    /// in exactly that dimension when the extent grew (the bounds-check
    /// elision must see that the shapes differ).
    fn generate_one_off(&mut self, t: ArrTy, like: &[AVar]) -> Option<String> {
        let r = t.rank;
        let a = like[self.rng.below(like.len())].clone();
        let E::P(p) = a.ty.elem else { return None };
        let dims: Vec<String> = (0..r).map(|_| self.fresh("e")).collect();
        let k = self.rng.below(r);
        let mut shape = dims.clone();
        shape[k] = format!("{} {}", dims[k], self.rng.pick(&["+ 1", "+ 2", "/ 2", "+ 0"]));
        let ix: Vec<String> = (0..r).map(|_| self.fresh("i")).collect();
        let v = self.fresh("r");
        let mut env = self.host.clone();
        env.extend(ix.iter().map(|i| SVar {
            name: i.clone(),
            ty: Usize,
        }));
        env.push(SVar {
            name: v.clone(),
            ty: p,
        });
        let body = self.elem_value(t.elem, &env, 2);
        let body = self.using(&v, body, t.elem, &env);
        Some(format!(
            "{{ let [{}] = {}.shape(); generate([{}], |[{}]| {{ let {v} = {}[[{}]]; {body} }}) }}",
            dims.join(", "),
            a.name,
            shape.join(", "),
            ix.join(", "),
            a.name,
            ix.join(", ")
        ))
    }

    /// `body`, made to use scalar `v` (an unused `let` is dropped, and with
    /// it the read that binds it): `if v == v { body } else { other }`.
    fn using(&mut self, v: &str, body: String, e: E, env: &[SVar]) -> String {
        let other = self.elem_value(e, env, 1);
        format!("(if {v} == {v} {{ {body} }} else {{ {other} }})")
    }

    fn stencil(&mut self, t: ArrTy, d: usize) -> Option<String> {
        let r = t.rank;
        let (src, st) = self.any_of_rank(r, d);
        let E::P(p) = st.elem else { return None };
        let sizes: Vec<usize> = (0..r).map(|_| self.rng.pick(&[1usize, 3, 3, 5])).collect();
        let mut names = Vec::new();
        fn pattern(g: &mut Gen, sizes: &[usize], names: &mut Vec<String>) -> String {
            let inner: Vec<String> = (0..sizes[0])
                .map(|_| {
                    if sizes.len() > 1 {
                        pattern(g, &sizes[1..], names)
                    } else if g.rng.chance(0.3) {
                        "_".to_string()
                    } else {
                        let n = g.fresh("n");
                        names.push(n.clone());
                        n
                    }
                })
                .collect();
            format!("[{}]", inner.join(", "))
        }
        let pat = pattern(self, &sizes, &mut names);
        let mut env = self.host.clone();
        env.extend(names.iter().map(|n| SVar {
            name: n.clone(),
            ty: p,
        }));
        let body = self.elem_value(t.elem, &env, 3);
        let boundary = match self.rng.below(4) {
            0 => "Boundary::Clamp".to_string(),
            1 => "Boundary::Mirror".to_string(),
            2 => "Boundary::Wrap".to_string(),
            _ => format!("Boundary::Constant({})", literal(self.rng, p)),
        };
        Some(format!("{src}.stencil({boundary}, |{pat}| {body})"))
    }

    /// `permute` into defaults of type `t` from a source of any rank, with an
    /// index function that drops some elements and may leave the target.
    fn permute(&mut self, t: ArrTy, d: usize) -> Option<String> {
        let E::P(p) = t.elem else { return None };
        if p == Bool || t.rank == 0 {
            return None;
        }
        let defaults = self.array(t, d);
        let sr = 1 + self.rng.below(2);
        let src = self.array(
            ArrTy {
                elem: t.elem,
                rank: sr,
            },
            d,
        );
        let ix: Vec<String> = (0..sr).map(|_| self.fresh("i")).collect();
        let dims: Vec<String> = (0..t.rank).map(|_| self.fresh("d")).collect();
        let target: Vec<String> = (0..t.rank)
            .map(|k| {
                let i = &ix[self.rng.below(sr)];
                let n = &dims[k];
                match self.rng.below(3) {
                    0 => format!("{i} % {n}.max(1)"),
                    1 => format!("({i} * 7 + {k}) % {n}.max(1)"),
                    _ => format!("{i} / 2"),
                }
            })
            .collect();
        let dims = format!("[{}]", dims.join(", "));
        // A triangle of a matrix's pairs (`j > i`: the CPU walks each row
        // from `i + 1`) or a pattern of the first index.
        let keep = match 2 + self.rng.below(3) {
            4 if sr == 2 => format!("{} > {}", ix[1], ix[0]),
            m => format!("{} % {m} != 1", ix[0]),
        };
        let combine = if p.is_float() {
            self.reordered = true;
            self.rng
                .pick(&["|a, b| a + b", "|a, b| a.min(b)", "|a, b| a.max(b)"])
        } else {
            self.rng.pick(&[
                "|a, b| a + b",
                "|a, b| a.min(b)",
                "|a, b| a.max(b)",
                "|a, b| a ^ b",
                "|a, b| a | b",
            ])
        };
        let name = self.fresh("dflt");
        Some(format!(
            "{{ let {name} = {defaults}; let {dims} = {name}.shape(); {src}.permute(&{name}, |[{}]| if {keep} {{ Some([{}]) }} else {{ None }}, {combine}) }}",
            ix.join(", "),
            target.join(", ")
        ))
    }
}

/// Draws program `name`: inputs, statements, result.
pub fn program(rng: &mut Rng, name: &str) -> Program {
    let mut g = Gen {
        rng,
        arrays: Vec::new(),
        host: Vec::new(),
        fresh: 0,
        reordered: false,
        loop_reads: None,
    };
    // Inputs: arrays of one shape per rank (so most zips line up).
    let mut shapes: Vec<Vec<usize>> = Vec::new();
    for r in 0..=3 {
        let dims = (0..r)
            .map(|_| g.rng.pick(&[0usize, 1, 1, 2, 3, 4, 5, 7, 9, 16]))
            .collect();
        shapes.push(dims);
    }
    let mut inputs = Vec::new();
    let mut params = Vec::new();
    for k in 0..1 + g.rng.below(3) {
        let rank = g.rng.pick(&[0usize, 1, 1, 1, 2, 2, 3]);
        let p = g.rng.pick(ELEMS);
        let ty = ArrTy { elem: E::P(p), rank };
        let mut shape = shapes[rank].clone();
        if g.rng.chance(0.15) && rank > 0 {
            shape[0] = g.rng.below(6);
        }
        let n: usize = shape.iter().product();
        let elems = (0..n).map(|i| input_elem(g.rng, p, i)).collect();
        let name = format!("a{k}");
        params.push(format!("{name}: &{}", ty.rust()));
        g.arrays.push(AVar {
            name: name.clone(),
            ty,
        });
        inputs.push(Input {
            name,
            ty,
            shape,
            elems,
        });
    }
    let mut body = String::new();
    // Sizes on the host.
    for a in g.arrays.clone() {
        if a.ty.rank >= 1 && g.rng.chance(0.5) {
            let n = g.fresh("len");
            let _ = writeln!(body, "    let {n} = {}.len();", a.name);
            g.host.push(SVar { name: n, ty: Usize });
        }
    }
    // Now and then more arrays, so that siblings and intermediates that
    // are also results (what clustering works on) come up.
    let most = if g.rng.chance(0.3) { 5 } else { 3 };
    let lets = 1 + g.rng.below(most);
    for _ in 0..lets {
        let t = ArrTy {
            elem: if g.rng.chance(0.08) {
                E::Pair(g.rng.pick(ELEMS), g.rng.pick(ELEMS))
            } else {
                E::P(g.rng.pick(ELEMS))
            },
            rank: g.rng.pick(&[0usize, 1, 1, 2, 2, 3]),
        };
        let v = g.fresh("v");
        match g.rng.below(6) {
            0 => {
                // An array loop: `for` or `while` over array state.
                let init = g.array(t, 2);
                let (pat, env) = g.elem_param(t.elem);
                let k = g.fresh("k");
                let mut env = [g.host.clone(), env].concat();
                env.push(SVar {
                    name: k.clone(),
                    ty: U32,
                });
                let step = g.elem_value(t.elem, &env, 2);
                let trips = g.rng.below(4);
                if g.rng.chance(0.5) {
                    let _ = writeln!(
                        body,
                        "    let mut {v} = {init};\n    for {k} in 0..{trips}u32 {{ {v} = {v}.map(|{pat}| {step}); }}"
                    );
                } else {
                    let _ = writeln!(
                        body,
                        "    let mut {v} = {init};\n    let mut {k}: u32 = 0;\n    while {k} < {trips} {{ {v} = {v}.map(|{pat}| {step}); {k} += 1; }}"
                    );
                }
            }
            _ => {
                let e = g.array(t, 3);
                let _ = writeln!(body, "    let {v} = {e};");
            }
        }
        g.arrays.push(AVar { name: v, ty: t });
    }
    // The result: one or two of the arrays computed last.
    let n = g.arrays.len();
    let mut results = vec![g.arrays[n - 1].clone()];
    // Now and then a reduction of the last array beside it, so that a fold
    // of an array that is also a result comes up (a fold in its producer's
    // pass, `plan::horizontal::pass_folds`).
    let last = g.arrays[n - 1].clone();
    if let (E::P(p), true) = (
        last.ty.elem,
        last.ty.rank >= 1 && n > inputs.len() && g.rng.chance(0.2),
    ) {
        let f = g.reduce(p, &last.name);
        let v = g.fresh("v");
        let _ = writeln!(body, "    let {v} = {f};");
        results.push(AVar {
            name: v,
            ty: ArrTy {
                elem: last.ty.elem,
                rank: last.ty.rank - 1,
            },
        });
    }
    for _ in 0..2 {
        if g.rng.chance(0.3) {
            results.push(g.arrays[g.rng.below(n)].clone());
        }
    }
    let (ret, val) = if results.len() == 1 {
        (results[0].ty.rust(), results[0].name.clone())
    } else {
        let tys: Vec<String> = results.iter().map(|r| r.ty.rust()).collect();
        let vals: Vec<String> = results.iter().map(|r| r.name.clone()).collect();
        (format!("({})", tys.join(", ")), format!("({})", vals.join(", ")))
    };
    let source = format!(
        "fn {name}({}) -> {ret} {{\n{body}    {val}\n}}\n",
        params.join(", ")
    );
    Program {
        name: name.to_string(),
        source,
        inputs,
        reordered_floats: g.reordered,
    }
}
