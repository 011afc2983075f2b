//! IR → PTX text: one PTX instruction per IR op, every float op with an
//! explicit `.rn` so that ptxas may not contract `mul`+`add` into `fma`.

use super::ir::{FCmp, Func, ICmp, Op, Rnd, Ty, V};
use std::fmt::Write;

fn reg(f: &Func, v: V) -> String {
    let p = match f.insts[v.0 as usize].ty {
        Ty::F32 => "%f",
        Ty::F64 => "%fd",
        Ty::B32 => "%r",
        Ty::B64 => "%rd",
        Ty::Pred => "%p",
        Ty::Void => "%none",
    };
    format!("{p}{}", v.0)
}

fn fty(t: Ty) -> &'static str {
    match t {
        Ty::F32 => "f32",
        Ty::F64 => "f64",
        Ty::B32 => "b32",
        Ty::B64 => "b64",
        Ty::Pred => "pred",
        Ty::Void => "void",
    }
}

fn sty(t: Ty) -> &'static str {
    if t == Ty::B32 {
        "s32"
    } else {
        "s64"
    }
}

fn uty(t: Ty) -> &'static str {
    if t == Ty::B32 {
        "u32"
    } else {
        "u64"
    }
}

fn rnd(r: Rnd) -> &'static str {
    match r {
        Rnd::Nearest => "rni",
        Rnd::Down => "rmi",
        Rnd::Up => "rpi",
        Rnd::Zero => "rzi",
    }
}

fn fcmp(c: FCmp) -> &'static str {
    match c {
        FCmp::Eq => "eq",
        FCmp::Ne => "ne",
        FCmp::Lt => "lt",
        FCmp::Le => "le",
        FCmp::Gt => "gt",
        FCmp::Ge => "ge",
        FCmp::Neu => "neu",
        FCmp::Ltu => "ltu",
        FCmp::Geu => "geu",
        FCmp::Nan => "nan",
        FCmp::Num => "num",
    }
}

/// The instructions (by position) that define a value inside a region a
/// `SkipIf` may jump over.
pub(super) fn defined_in_skips(f: &Func) -> Vec<usize> {
    let mut open: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    for (i, inst) in f.insts.iter().enumerate() {
        match inst.op {
            Op::SkipIf(_, n) => open.push(n),
            Op::Label(n) => open.retain(|&m| m != n),
            _ if !open.is_empty() && inst.ty != Ty::Void => out.push(i),
            _ => {}
        }
    }
    out
}

/// The complete `.func` definition.
pub fn ptx(f: &Func) -> String {
    let mut s = String::new();
    let n = f.insts.len();
    let _ = writeln!(s, ".func (.param {} {}_ret) {}(", f.ret.1, f.name, f.name);
    for (i, (_, t)) in f.params.iter().enumerate() {
        let sep = if i + 1 < f.params.len() { "," } else { "" };
        let _ = writeln!(s, "    .param {t} {}_p{i}{sep}", f.name);
    }
    s.push_str(")\n{\n");
    for (t, p) in [
        (Ty::F32, "%f"),
        (Ty::F64, "%fd"),
        (Ty::B32, "%r"),
        (Ty::B64, "%rd"),
        (Ty::Pred, "%p"),
    ] {
        if f.insts.iter().any(|i| i.ty == t) {
            let _ = writeln!(s, "    .reg .{} {p}<{n}>;", fty(t));
        }
    }
    // Values defined inside a skipped region are read after it only through a
    // `selp` that then picks another value; give them a defined value up front
    // so that no register is ever read before it is written (the PTX simulator
    // checks this).
    for i in defined_in_skips(f) {
        let d = reg(f, V(i as u32));
        let init = match f.insts[i].ty {
            Ty::F32 => format!("mov.f32 {d}, 0f00000000;"),
            Ty::F64 => format!("mov.f64 {d}, 0d0000000000000000;"),
            Ty::B32 => format!("mov.b32 {d}, 0;"),
            Ty::B64 => format!("mov.b64 {d}, 0;"),
            Ty::Pred => format!("setp.ne.u32 {d}, 0, 0;"),
            Ty::Void => continue,
        };
        let _ = writeln!(s, "    {init}");
    }
    for (i, inst) in f.insts.iter().enumerate() {
        let d = reg(f, V(i as u32));
        let r = |v: V| reg(f, v);
        let t = inst.ty;
        let line = match inst.op {
            Op::Param(k) => format!("ld.param{} {d}, [{}_p{k}];", f.params[k].1, f.name),
            Op::Const(b) => match t {
                Ty::F32 => format!("mov.f32 {d}, 0f{:08X};", b as u32),
                Ty::F64 => format!("mov.f64 {d}, 0d{b:016X};"),
                Ty::B32 => format!("mov.b32 {d}, 0x{:08X};", b as u32),
                Ty::B64 => format!("mov.b64 {d}, 0x{b:016X};"),
                Ty::Pred | Ty::Void => panic!("math ir: predicate constant"),
            },
            Op::FAdd(a, b) => format!("add.rn.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::FSub(a, b) => format!("sub.rn.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::FMul(a, b) => format!("mul.rn.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::Fma(a, b, c) => format!("fma.rn.{} {d}, {}, {}, {};", fty(t), r(a), r(b), r(c)),
            Op::FDiv(a, b) => format!("div.rn.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::FSqrt(a) => format!("sqrt.rn.{} {d}, {};", fty(t), r(a)),
            Op::FRound(m, a) => format!("cvt.{}.{}.{} {d}, {};", rnd(m), fty(t), fty(t), r(a)),
            Op::FCvt(a) => {
                if t == Ty::F64 {
                    format!("cvt.f64.f32 {d}, {};", r(a))
                } else {
                    format!("cvt.rn.f32.f64 {d}, {};", r(a))
                }
            }
            Op::F2S(m, a) => {
                let at = f.insts[a.0 as usize].ty;
                format!("cvt.{}.s32.{} {d}, {};", rnd(m), fty(at), r(a))
            }
            Op::S2F(a) => format!("cvt.rn.{}.s32 {d}, {};", fty(t), r(a)),
            Op::Bits(a) => {
                let w = if matches!(t, Ty::F32 | Ty::B32) {
                    "b32"
                } else {
                    "b64"
                };
                format!("mov.{w} {d}, {};", r(a))
            }
            Op::IAdd(a, b) => format!("add.{} {d}, {}, {};", sty(t), r(a), r(b)),
            Op::ISub(a, b) => format!("sub.{} {d}, {}, {};", sty(t), r(a), r(b)),
            Op::And(a, b) => format!("and.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::Or(a, b) => format!("or.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::Xor(a, b) => format!("xor.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::Shl(a, b) => format!("shl.{} {d}, {}, {};", fty(t), r(a), r(b)),
            Op::Shr(a, b) => format!("shr.{} {d}, {}, {};", uty(t), r(a), r(b)),
            Op::Sar(a, b) => format!("shr.{} {d}, {}, {};", sty(t), r(a), r(b)),
            Op::Zext(a) => format!("cvt.u64.u32 {d}, {};", r(a)),
            Op::Trunc(a) => format!("cvt.u32.u64 {d}, {};", r(a)),
            Op::FSetp(c, a, b) => {
                let at = f.insts[a.0 as usize].ty;
                format!("setp.{}.{} {d}, {}, {};", fcmp(c), fty(at), r(a), r(b))
            }
            Op::ISetp(c, a, b) => {
                let at = f.insts[a.0 as usize].ty;
                let (name, ty) = match c {
                    ICmp::Eq => ("eq", sty(at)),
                    ICmp::Ne => ("ne", sty(at)),
                    ICmp::Lt => ("lt", sty(at)),
                    ICmp::Le => ("le", sty(at)),
                    ICmp::Gt => ("gt", sty(at)),
                    ICmp::Ge => ("ge", sty(at)),
                    ICmp::Lo => ("lo", uty(at)),
                    ICmp::Hs => ("hs", uty(at)),
                };
                format!("setp.{name}.{ty} {d}, {}, {};", r(a), r(b))
            }
            Op::PAnd(a, b) => format!("and.pred {d}, {}, {};", r(a), r(b)),
            Op::POr(a, b) => format!("or.pred {d}, {}, {};", r(a), r(b)),
            Op::PNot(a) => format!("not.pred {d}, {};", r(a)),
            Op::Select(p, a, b) => format!("selp.{} {d}, {}, {}, {};", fty(t), r(a), r(b), r(p)),
            Op::SkipIf(p, n) => format!("@{} bra {}_L{n};", r(p), f.name),
            Op::Label(n) => {
                let _ = writeln!(s, "{}_L{n}:", f.name);
                continue;
            }
        };
        let _ = writeln!(s, "    {line}");
    }
    let _ = writeln!(
        s,
        "    st.param{} [{}_ret], {};",
        f.ret.1,
        f.name,
        reg(f, f.result)
    );
    s.push_str("    ret;\n}\n");
    s
}
