//! PTX text → decoded [`Module`]. Anything outside the supported subset is an
//! error naming the instruction and its line: a new instruction in the emitter
//! must fail loudly here, never be skipped.

use super::inst::*;
use super::lex::{lex, Tok, Token};
use std::collections::HashMap;

/// Marks a shared address that is relative to the dynamic shared area, whose
/// start is known only when the function's static shared size is.
const DYN_MARK: i64 = 1 << 40;

#[derive(Clone, Debug)]
enum Sym {
    Reg(u32),
    KParam(u32),
    LParam(u32),
    Shared(u32),
    DynShared,
}

#[derive(Clone, Debug)]
enum Lit {
    Int(u64),
    F32(u32),
    F64(u64),
    Dec(f64),
}

#[derive(Clone, Debug)]
enum ROp {
    Reg(u32),
    NotReg(u32),
    Lit(Lit),
    Sreg(Sreg),
    /// A shared variable used as a value (its address).
    SharedAddr(i64),
    Addr(Addr),
    Vec(Vec<u32>),
    /// A label or function name.
    Name(String),
    /// `_`
    Sink,
    /// `d|p`
    Pair(u32, u32),
    /// `(a, b)` in a call.
    List(Vec<String>),
}

struct FnCtx {
    func: u32,
    scopes: Vec<HashMap<String, Sym>>,
    reg_bits: Vec<u8>,
    reg_names: Vec<String>,
    param_bytes: u32,
    labels: HashMap<String, u32>,
    branch_fix: Vec<(usize, String, u32)>,
    dyn_fix: Vec<(usize, usize)>,
    shared_bytes: u32,
    dyn_align: u32,
    callees: Vec<u32>,
    /// Sizes of local params by offset (for call argument copying).
    lparam_size: HashMap<u32, u32>,
    formals: Vec<(u32, u32)>,
    rets: Vec<(u32, u32)>,
}

/// A function's formal and return parameters: (offset, size) in its frame.
type Signature = (Vec<(u32, u32)>, Vec<(u32, u32)>);

impl FnCtx {
    fn new(func: u32) -> FnCtx {
        FnCtx {
            func,
            scopes: vec![HashMap::new()],
            reg_bits: Vec::new(),
            reg_names: Vec::new(),
            param_bytes: 0,
            labels: HashMap::new(),
            branch_fix: Vec::new(),
            dyn_fix: Vec::new(),
            shared_bytes: 0,
            dyn_align: 1,
            callees: Vec::new(),
            lparam_size: HashMap::new(),
            formals: Vec::new(),
            rets: Vec::new(),
        }
    }
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    m: Module,
    fnames: HashMap<String, u32>,
    /// Formal and return param layout of each function: (offset, size).
    sigs: Vec<Signature>,
    /// Module-scope `.extern .shared` arrays (the dynamic shared memory), and their alignment.
    globals: HashMap<String, Sym>,
    global_dyn_align: u32,
}

type PResult<T> = Result<T, String>;

pub fn parse_module(src: &str) -> PResult<Module> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        m: Module {
            code: Vec::new(),
            funcs: Vec::new(),
            calls: Vec::new(),
            lines: src.lines().map(|l| l.to_string()).collect(),
        },
        fnames: HashMap::new(),
        sigs: Vec::new(),
        globals: HashMap::new(),
        global_dyn_align: 1,
    };
    p.module()?;
    for f in &p.m.funcs {
        if f.entry == u32::MAX && f.is_entry {
            return Err(format!("kernel `{}` has no body", f.name));
        }
    }
    Ok(p.m)
}

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)).saturating_mul(a.max(1))
}

/// Sizes of variables and register ranges beyond this are rejected (they
/// could not fit in a block anyway), so that size arithmetic cannot overflow.
const MAX_SIZE: u64 = 1 << 24;

impl Parser {
    fn line(&self) -> u32 {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map(|t| t.line)
            .unwrap_or(0)
    }

    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let line = self.line();
        Err(format!(
            "line {line} `{}`: {}",
            self.m.line_text(line.max(1)),
            msg.into()
        ))
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn next(&mut self) -> PResult<Tok> {
        match self.toks.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t.tok.clone())
            }
            None => self.err("unexpected end of input"),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.err(format!("expected `{c}`"))
        }
    }

    fn is_ident(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(x)) if x == s)
    }

    fn eat_ident(&mut self, s: &str) -> bool {
        if self.is_ident(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> PResult<String> {
        match self.next()? {
            Tok::Ident(s) => Ok(s),
            t => {
                self.pos -= 1;
                self.err(format!("expected a name, found {t:?}"))
            }
        }
    }

    fn int(&mut self) -> PResult<u64> {
        match self.next()? {
            Tok::Int(v) => Ok(v),
            t => {
                self.pos -= 1;
                self.err(format!("expected an integer, found {t:?}"))
            }
        }
    }

    fn skip_to_semicolon(&mut self) -> PResult<()> {
        while !self.eat_punct(';') {
            self.next()?;
        }
        Ok(())
    }

    fn module(&mut self) -> PResult<()> {
        while self.pos < self.toks.len() {
            let t = self.ident()?;
            match t.as_str() {
                ".version" | ".address_size" => {
                    self.next()?;
                }
                ".target" => {
                    self.ident()?;
                    while self.eat_punct(',') {
                        self.ident()?;
                    }
                }
                ".extern" if self.is_ident(".shared") => {
                    self.pos -= 1;
                    let mut cx = FnCtx::new(u32::MAX);
                    self.shared_decl(&mut cx)?;
                    if cx.shared_bytes > 0 {
                        return self.err("module-scope static `.shared` variables are not supported");
                    }
                    self.global_dyn_align = self.global_dyn_align.max(cx.dyn_align);
                    self.globals.extend(cx.scopes.pop().unwrap_or_default());
                }
                ".visible" | ".weak" | ".extern" => {}
                ".entry" => self.function(true)?,
                ".func" => self.function(false)?,
                _ => return self.err(format!("unsupported module-level directive `{t}`")),
            }
        }
        Ok(())
    }

    /// `.param [.ptr .global] [.align N] .type name [ '[' N ']' ]` → (type size, align, name)
    fn param_decl(&mut self) -> PResult<(u32, u32, String)> {
        if !self.eat_ident(".param") {
            return self.err("expected `.param`");
        }
        let mut align = 0;
        let ty = loop {
            let t = self.ident()?;
            match t.as_str() {
                ".ptr" | ".global" | ".shared" | ".const" | ".local" => {}
                ".align" => align = self.int()? as u32,
                _ => {
                    if let Some(x) = t.strip_prefix('.').and_then(Ty::from_name) {
                        break x;
                    }
                    return self.err(format!("unsupported parameter attribute `{t}`"));
                }
            }
        };
        // Attributes may also follow the type: `.param .u64 .ptr .align 1 p`.
        loop {
            if self.eat_ident(".ptr") || self.eat_ident(".global") {
                continue;
            }
            if self.eat_ident(".align") {
                align = self.int()? as u32;
                continue;
            }
            break;
        }
        let name = self.ident()?;
        let mut size = ty.bytes();
        if self.eat_punct('[') {
            let n = self.int()?;
            if n > MAX_SIZE {
                return self.err("parameter array too large");
            }
            size *= n as u32;
            self.expect_punct(']')?;
        }
        if align == 0 {
            align = ty.bytes();
        }
        Ok((size, align, name))
    }

    fn function(&mut self, is_entry: bool) -> PResult<()> {
        // Return parameters (functions only).
        let mut rets = Vec::new();
        if !is_entry && self.eat_punct('(') {
            while !self.eat_punct(')') {
                rets.push(self.param_decl()?);
                self.eat_punct(',');
            }
        }
        let name = self.ident()?;
        let mut params = Vec::new();
        if self.eat_punct('(') {
            while !self.eat_punct(')') {
                params.push(self.param_decl()?);
                self.eat_punct(',');
            }
        }
        let fidx = match self.fnames.get(&name) {
            Some(&i) => i,
            None => {
                let i = self.m.funcs.len() as u32;
                self.m.funcs.push(Function {
                    name: name.clone(),
                    is_entry,
                    entry: u32::MAX,
                    end: u32::MAX,
                    nregs: 0,
                    param_bytes: 0,
                    kparams: Vec::new(),
                    kparam_bytes: 0,
                    shared_bytes: 0,
                    dyn_shared_align: 1,
                    callees: Vec::new(),
                    reg_names: Vec::new(),
                    maxntid: None,
                    reqntid: None,
                });
                self.fnames.insert(name.clone(), i);
                self.sigs.push((Vec::new(), Vec::new()));
                i
            }
        };
        let mut cx = FnCtx::new(fidx);
        cx.scopes[0] = self.globals.clone();
        cx.dyn_align = self.global_dyn_align;
        let mut kparams = Vec::new();
        let mut kbytes = 0;
        if is_entry {
            for (size, align, pname) in params {
                let off = align_up(kbytes, align);
                kbytes = off + size;
                cx.scopes[0].insert(pname.clone(), Sym::KParam(off));
                kparams.push(KParam {
                    name: pname,
                    offset: off,
                    size,
                });
            }
        } else {
            for (size, align, pname) in params {
                let off = align_up(cx.param_bytes, align.max(1));
                cx.param_bytes = off + size;
                cx.scopes[0].insert(pname, Sym::LParam(off));
                cx.lparam_size.insert(off, size);
                cx.formals.push((off, size));
            }
            for (size, align, pname) in rets {
                let off = align_up(cx.param_bytes, align.max(1));
                cx.param_bytes = off + size;
                cx.scopes[0].insert(pname, Sym::LParam(off));
                cx.lparam_size.insert(off, size);
                cx.rets.push((off, size));
            }
            self.sigs[fidx as usize] = (cx.formals.clone(), cx.rets.clone());
        }
        // Performance directives, or `;` for a prototype.
        loop {
            if self.eat_punct(';') {
                return Ok(());
            }
            if self.is_punct('{') {
                break;
            }
            let t = self.ident()?;
            match t.as_str() {
                ".maxntid" | ".reqntid" | ".minnctapersm" | ".maxnreg" | ".maxnctapersm" => {
                    let mut dims = vec![self.int()? as u32];
                    while self.eat_punct(',') {
                        dims.push(self.int()? as u32);
                    }
                    let mut d3 = [1u32; 3];
                    for (k, v) in dims.iter().take(3).enumerate() {
                        d3[k] = *v;
                    }
                    match t.as_str() {
                        ".maxntid" => self.m.funcs[fidx as usize].maxntid = Some(d3),
                        ".reqntid" => self.m.funcs[fidx as usize].reqntid = Some(d3),
                        _ => {}
                    }
                }
                ".noreturn" => {}
                _ => return self.err(format!("unsupported function directive `{t}`")),
            }
        }
        if self.m.funcs[fidx as usize].entry != u32::MAX {
            return self.err(format!("function `{name}` defined twice"));
        }
        self.expect_punct('{')?;
        let entry = self.m.code.len() as u32;
        self.body(&mut cx)?;
        let end = self.m.code.len() as u32;
        // Patch branch targets and dynamic shared addresses.
        for (i, label, line) in std::mem::take(&mut cx.branch_fix) {
            match cx.labels.get(&label) {
                Some(&t) => self.m.code[i].op = Op::Bra { target: t },
                None => {
                    return Err(format!(
                        "line {line} `{}`: unknown label `{label}`",
                        self.m.line_text(line)
                    ))
                }
            }
        }
        let dyn_base = align_up(cx.shared_bytes, cx.dyn_align) as i64;
        for &(i, which) in &cx.dyn_fix {
            let inst = &mut self.m.code[i];
            if which == 4 {
                inst.addr.off = inst.addr.off - DYN_MARK + dyn_base;
            } else if let Operand::Imm(v) = inst.src[which] {
                inst.src[which] = Operand::Imm((v as i64 - DYN_MARK + dyn_base) as u64);
            }
        }
        let f = &mut self.m.funcs[fidx as usize];
        f.entry = entry;
        f.end = end;
        f.nregs = cx.reg_bits.len() as u32;
        f.param_bytes = cx.param_bytes;
        f.kparams = kparams;
        f.kparam_bytes = kbytes;
        f.shared_bytes = cx.shared_bytes;
        f.dyn_shared_align = cx.dyn_align;
        f.callees = cx.callees;
        f.reg_names = cx.reg_names;
        // A function body that can fall off its end returns (entry: exits).
        self.m.code.push(Inst {
            op: Op::Ret,
            ty: Ty::B32,
            ftz: false,
            guard: NO_REG,
            guard_neg: false,
            dst: NO_REG,
            dst2: NO_REG,
            src: [Operand::None; 4],
            addr: Addr {
                base: AddrBase::Abs,
                off: 0,
            },
            vec: [NO_REG; 4],
            nvec: 0,
            sext_to: 0,
            volatile: false,
            line: self.toks[self.pos - 1].line,
        });
        Ok(())
    }

    fn lookup(&self, cx: &FnCtx, name: &str) -> Option<Sym> {
        cx.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    fn body(&mut self, cx: &mut FnCtx) -> PResult<()> {
        loop {
            if self.eat_punct('}') {
                if cx.scopes.len() == 1 {
                    return Ok(());
                }
                cx.scopes.pop();
                continue;
            }
            if self.eat_punct('{') {
                cx.scopes.push(HashMap::new());
                continue;
            }
            // Label?
            if let (Some(Tok::Ident(name)), Some(Tok::Punct(':'))) = (
                self.peek().cloned(),
                self.toks.get(self.pos + 1).map(|t| t.tok.clone()),
            ) {
                if !name.starts_with('.') {
                    self.pos += 2;
                    cx.labels.insert(name, self.m.code.len() as u32);
                    continue;
                }
            }
            if self.is_ident(".reg") {
                self.pos += 1;
                self.reg_decl(cx)?;
                continue;
            }
            if self.is_ident(".shared")
                || (self.is_ident(".extern")
                    && matches!(self.toks.get(self.pos + 1).map(|t| &t.tok), Some(Tok::Ident(s)) if s == ".shared"))
            {
                self.shared_decl(cx)?;
                continue;
            }
            if self.is_ident(".param") {
                let (size, align, name) = self.param_decl()?;
                self.expect_punct(';')?;
                let off = align_up(cx.param_bytes, align.max(1));
                cx.param_bytes = off + size;
                cx.lparam_size.insert(off, size);
                cx.scopes.last_mut().map(|s| s.insert(name, Sym::LParam(off)));
                continue;
            }
            if self.is_ident(".pragma") {
                self.skip_to_semicolon()?;
                continue;
            }
            self.instruction(cx)?;
        }
    }

    fn reg_decl(&mut self, cx: &mut FnCtx) -> PResult<()> {
        let mut tyname = self.ident()?;
        if tyname.starts_with(".v") {
            return self.err("vector registers are not supported");
        }
        let ty = match tyname.strip_prefix('.').and_then(Ty::from_name) {
            Some(t) => t,
            None => {
                tyname.insert_str(0, "register type ");
                return self.err(format!("unsupported {tyname}"));
            }
        };
        loop {
            let name = self.ident()?;
            if self.eat_punct('<') {
                let n = self.int()?;
                if n > 1 << 16 {
                    return self.err("too many registers");
                }
                self.expect_punct('>')?;
                for k in 0..n {
                    let r = cx.reg_bits.len() as u32;
                    cx.reg_bits.push(ty.bits().max(1) as u8);
                    cx.reg_names.push(format!("{name}{k}"));
                    cx.scopes
                        .last_mut()
                        .map(|s| s.insert(format!("{name}{k}"), Sym::Reg(r)));
                }
            } else {
                let r = cx.reg_bits.len() as u32;
                cx.reg_bits.push(ty.bits().max(1) as u8);
                cx.reg_names.push(name.clone());
                cx.scopes.last_mut().map(|s| s.insert(name, Sym::Reg(r)));
            }
            if !self.eat_punct(',') {
                break;
            }
        }
        self.expect_punct(';')
    }

    fn shared_decl(&mut self, cx: &mut FnCtx) -> PResult<()> {
        let ext = self.eat_ident(".extern");
        self.eat_ident(".shared");
        let mut align = 0;
        let mut ty = None;
        while ty.is_none() {
            let t = self.ident()?;
            if t == ".align" {
                align = self.int()? as u32;
            } else if let Some(x) = t.strip_prefix('.').and_then(Ty::from_name) {
                ty = Some(x);
            } else {
                return self.err(format!("unsupported shared attribute `{t}`"));
            }
        }
        let ty = ty.unwrap_or(Ty::B8);
        if align == 0 {
            align = ty.bytes();
        }
        let name = self.ident()?;
        let mut count = 1u32;
        let mut open = false;
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                open = true;
            } else {
                let n = self.int()?;
                if n > MAX_SIZE || count as u64 * n > MAX_SIZE {
                    return self.err("shared array too large");
                }
                count *= n as u32;
                self.expect_punct(']')?;
            }
        }
        if self.is_punct('=') {
            return self.err("initialised shared variables are not supported");
        }
        self.expect_punct(';')?;
        if ext || open {
            if !ext {
                return self.err("a shared array without a size must be `.extern`");
            }
            cx.dyn_align = cx.dyn_align.max(align);
            cx.scopes.last_mut().map(|s| s.insert(name, Sym::DynShared));
        } else {
            let off = align_up(cx.shared_bytes, align);
            cx.shared_bytes = off.saturating_add(count * ty.bytes());
            cx.scopes.last_mut().map(|s| s.insert(name, Sym::Shared(off)));
        }
        Ok(())
    }

    fn special(name: &str) -> Option<Sreg> {
        let dim = |s: &str| match s {
            "x" => Some(0u8),
            "y" => Some(1),
            "z" => Some(2),
            _ => None,
        };
        if let Some((base, d)) = name.split_once('.') {
            let d = dim(d)?;
            return Some(match base {
                "%tid" => Sreg::Tid(d),
                "%ntid" => Sreg::Ntid(d),
                "%ctaid" => Sreg::Ctaid(d),
                "%nctaid" => Sreg::Nctaid(d),
                _ => return None,
            });
        }
        Some(match name {
            "%laneid" => Sreg::Laneid,
            "%warpid" => Sreg::Warpid,
            "%lanemask_lt" => Sreg::LanemaskLt,
            "%lanemask_le" => Sreg::LanemaskLe,
            "%lanemask_eq" => Sreg::LanemaskEq,
            "%lanemask_ge" => Sreg::LanemaskGe,
            "%lanemask_gt" => Sreg::LanemaskGt,
            _ => return None,
        })
    }

    fn reg(&self, cx: &FnCtx, name: &str) -> PResult<u32> {
        match self.lookup(cx, name) {
            Some(Sym::Reg(r)) => Ok(r),
            _ => self.err(format!("`{name}` is not a declared register")),
        }
    }

    fn literal(&mut self) -> PResult<Lit> {
        let neg = self.eat_punct('-');
        let l = match self.next()? {
            Tok::Int(v) => Lit::Int(if neg { v.wrapping_neg() } else { v }),
            Tok::F32(b) => Lit::F32(if neg { b ^ 0x8000_0000 } else { b }),
            Tok::F64(b) => Lit::F64(if neg { b ^ (1 << 63) } else { b }),
            Tok::Float(f) => Lit::Dec(if neg { -f } else { f }),
            t => {
                self.pos -= 1;
                return self.err(format!("expected an operand, found {t:?}"));
            }
        };
        Ok(l)
    }

    fn operand(&mut self, cx: &FnCtx) -> PResult<ROp> {
        if self.eat_punct('!') {
            let n = self.ident()?;
            return Ok(ROp::NotReg(self.reg(cx, &n)?));
        }
        if self.eat_punct('[') {
            let a = self.address(cx)?;
            self.expect_punct(']')?;
            return Ok(ROp::Addr(a));
        }
        if self.eat_punct('{') {
            let mut v = Vec::new();
            loop {
                let n = self.ident()?;
                v.push(if n == "_" { NO_REG } else { self.reg(cx, &n)? });
                if !self.eat_punct(',') {
                    break;
                }
            }
            self.expect_punct('}')?;
            return Ok(ROp::Vec(v));
        }
        if self.eat_punct('(') {
            let mut v = Vec::new();
            while !self.eat_punct(')') {
                v.push(self.ident()?);
                self.eat_punct(',');
            }
            return Ok(ROp::List(v));
        }
        match self.peek().cloned() {
            Some(Tok::Ident(n)) => {
                self.pos += 1;
                if n == "_" {
                    return Ok(ROp::Sink);
                }
                if let Some(s) = Self::special(&n) {
                    return Ok(ROp::Sreg(s));
                }
                let op = match self.lookup(cx, &n) {
                    Some(Sym::Reg(r)) => {
                        if self.eat_punct('|') {
                            let q = self.ident()?;
                            let q = if q == "_" { NO_REG } else { self.reg(cx, &q)? };
                            return Ok(ROp::Pair(r, q));
                        }
                        ROp::Reg(r)
                    }
                    Some(Sym::Shared(a)) => ROp::SharedAddr(a as i64),
                    Some(Sym::DynShared) => ROp::SharedAddr(DYN_MARK),
                    Some(Sym::KParam(_)) | Some(Sym::LParam(_)) => {
                        return self.err(format!("the address of parameter `{n}` cannot be taken"))
                    }
                    None => {
                        if n.starts_with('%') {
                            return self.err(format!("unknown register `{n}`"));
                        }
                        ROp::Name(n)
                    }
                };
                Ok(op)
            }
            _ => Ok(ROp::Lit(self.literal()?)),
        }
    }

    fn address(&mut self, cx: &FnCtx) -> PResult<Addr> {
        let (base, mut off) = match self.peek().cloned() {
            Some(Tok::Ident(n)) => {
                self.pos += 1;
                match self.lookup(cx, &n) {
                    Some(Sym::Reg(r)) => (AddrBase::Reg(r), 0i64),
                    Some(Sym::Shared(a)) => (AddrBase::Abs, a as i64),
                    Some(Sym::DynShared) => (AddrBase::Abs, DYN_MARK),
                    Some(Sym::KParam(o)) => (AddrBase::KernelParam, o as i64),
                    Some(Sym::LParam(o)) => (AddrBase::LocalParam, o as i64),
                    None => return self.err(format!("unknown name `{n}` in address")),
                }
            }
            _ => match self.literal()? {
                Lit::Int(v) => (AddrBase::Abs, v as i64),
                _ => return self.err("bad address"),
            },
        };
        // `[a+4]`, or `[a-4]` (the literal takes the minus sign).
        if self.eat_punct('+') || self.is_punct('-') {
            match self.literal()? {
                Lit::Int(v) => off = off.wrapping_add(v as i64),
                _ => return self.err("bad address offset"),
            }
        }
        Ok(Addr { base, off })
    }

    fn instruction(&mut self, cx: &mut FnCtx) -> PResult<()> {
        let line = self.line();
        let mut guard = NO_REG;
        let mut guard_neg = false;
        if self.eat_punct('@') {
            guard_neg = self.eat_punct('!');
            let g = self.ident()?;
            guard = self.reg(cx, &g)?;
        }
        let opcode = self.ident()?;
        let mut ops = Vec::new();
        if !self.is_punct(';') {
            loop {
                ops.push(self.operand(cx)?);
                if !self.eat_punct(',') {
                    break;
                }
            }
        }
        if !self.eat_punct(';') {
            return self.err(format!("expected `;` after `{opcode}`"));
        }
        let idx = self.m.code.len();
        let mut d = Decoder {
            p: self,
            cx,
            line,
            opcode: &opcode,
            mods: Vec::new(),
            used: Vec::new(),
            inst: Inst {
                op: Op::Fence,
                ty: Ty::B32,
                ftz: false,
                guard,
                guard_neg,
                dst: NO_REG,
                dst2: NO_REG,
                src: [Operand::None; 4],
                addr: Addr {
                    base: AddrBase::Abs,
                    off: 0,
                },
                vec: [NO_REG; 4],
                nvec: 0,
                sext_to: 0,
                volatile: false,
                line,
            },
            dynfix: Vec::new(),
        };
        let mut parts = opcode.split('.');
        let base = parts.next().unwrap_or("").to_string();
        d.mods = parts.map(|s| s.to_string()).collect();
        d.used = vec![false; d.mods.len()];
        d.decode(&base, ops)?;
        let Decoder { inst, dynfix, .. } = d;
        for w in dynfix {
            cx.dyn_fix.push((idx, w));
        }
        if let Op::Bra { .. } = inst.op {
            // target patched at the end of the function
        }
        self.m.code.push(inst);
        Ok(())
    }
}

struct Decoder<'a> {
    p: &'a mut Parser,
    cx: &'a mut FnCtx,
    line: u32,
    opcode: &'a str,
    mods: Vec<String>,
    used: Vec<bool>,
    inst: Inst,
    /// Operand slots (0..4 src, 4 addr) that hold dynamic-shared-relative values.
    dynfix: Vec<usize>,
}

impl Decoder<'_> {
    fn err<T>(&self, msg: impl Into<String>) -> PResult<T> {
        Err(format!(
            "line {} `{}`: {}",
            self.line,
            self.p.m.line_text(self.line),
            msg.into()
        ))
    }

    fn take(&mut self, m: &str) -> bool {
        for (i, x) in self.mods.iter().enumerate() {
            if !self.used[i] && x == m {
                self.used[i] = true;
                return true;
            }
        }
        false
    }

    fn take_any(&mut self, set: &[&str]) -> Option<String> {
        for (i, x) in self.mods.iter().enumerate() {
            if !self.used[i] && set.contains(&x.as_str()) {
                self.used[i] = true;
                return Some(x.clone());
            }
        }
        None
    }

    fn types(&mut self) -> Vec<Ty> {
        let mut v = Vec::new();
        for (i, x) in self.mods.iter().enumerate() {
            if !self.used[i] {
                if let Some(t) = Ty::from_name(x) {
                    self.used[i] = true;
                    v.push(t);
                }
            }
        }
        v
    }

    fn one_type(&mut self) -> PResult<Ty> {
        let t = self.types();
        if t.len() != 1 {
            return self.err(format!("`{}` needs exactly one type", self.opcode));
        }
        if t[0] == Ty::F16 {
            return self.err(format!(
                "the simulator has `.f16` in `cvt` only, not in `{}`",
                self.opcode
            ));
        }
        Ok(t[0])
    }

    fn finish(&self) -> PResult<()> {
        for (i, x) in self.mods.iter().enumerate() {
            if !self.used[i] {
                return self.err(format!("unsupported modifier `.{x}` in `{}`", self.opcode));
            }
        }
        Ok(())
    }

    fn rnd(&mut self) -> Rnd {
        match self
            .take_any(&["rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"])
            .as_deref()
        {
            Some("rn") => Rnd::Rn,
            Some("rz") => Rnd::Rz,
            Some("rm") => Rnd::Rm,
            Some("rp") => Rnd::Rp,
            Some("rni") => Rnd::Rni,
            Some("rzi") => Rnd::Rzi,
            Some("rmi") => Rnd::Rmi,
            Some("rpi") => Rnd::Rpi,
            _ => Rnd::None,
        }
    }

    fn space(&mut self) -> Space {
        match self.take_any(&["global", "shared", "param"]).as_deref() {
            Some("global") => Space::Global,
            Some("shared") => {
                self.take("cta");
                Space::Shared
            }
            Some("param") => Space::Param,
            _ => Space::Generic,
        }
    }

    /// Memory-ordering and cache modifiers that do not change a sequential
    /// result; whether one was `volatile`.
    fn ordering(&mut self) -> bool {
        let mut volatile = false;
        while let Some(m) = self.take_any(&[
            "relaxed", "acquire", "release", "acq_rel", "sc", "cta", "gpu", "sys", "volatile", "nc", "ca",
            "cg", "cs", "lu", "cv", "wb", "wt",
        ]) {
            volatile |= m == "volatile";
        }
        volatile
    }

    fn dst(&self, o: &ROp) -> PResult<u32> {
        match o {
            ROp::Reg(r) => Ok(*r),
            ROp::Sink => Ok(NO_REG),
            _ => self.err("the destination must be a register"),
        }
    }

    fn src(&mut self, slot: usize, o: &ROp, ty: Ty) -> PResult<()> {
        let v = match o {
            ROp::Reg(r) => Operand::Reg(*r),
            ROp::NotReg(r) => Operand::NotReg(*r),
            ROp::Sreg(s) => Operand::Sreg(*s),
            ROp::Lit(l) => Operand::Imm(self.imm(l, ty)?),
            ROp::SharedAddr(a) => {
                if *a >= DYN_MARK {
                    self.dynfix.push(slot);
                }
                Operand::Imm(*a as u64)
            }
            _ => return self.err("bad source operand"),
        };
        self.inst.src[slot] = v;
        Ok(())
    }

    fn imm(&self, l: &Lit, ty: Ty) -> PResult<u64> {
        Ok(match (ty, l) {
            (Ty::F32, Lit::Int(v)) => (*v as i64 as f32).to_bits() as u64,
            (Ty::F32, Lit::F32(b)) => *b as u64,
            (Ty::F32, Lit::F64(b)) => (f64::from_bits(*b) as f32).to_bits() as u64,
            (Ty::F32, Lit::Dec(f)) => (*f as f32).to_bits() as u64,
            (Ty::F64, Lit::Int(v)) => (*v as i64 as f64).to_bits(),
            (Ty::F64, Lit::F32(b)) => (f32::from_bits(*b) as f64).to_bits(),
            (Ty::F64, Lit::F64(b)) => *b,
            (Ty::F64, Lit::Dec(f)) => f.to_bits(),
            (t, Lit::Int(v)) => v & t.mask(),
            // A float's bit pattern in a bit-sized operand: `mov.b32 %r1, 0f3F800000`.
            (t, Lit::F32(b)) if t.bits() == 32 => *b as u64,
            (t, Lit::F64(b)) if t.bits() == 64 => *b,
            _ => return self.err("a floating-point literal in an integer operand"),
        })
    }

    fn addr(&mut self, o: &ROp) -> PResult<()> {
        match o {
            ROp::Addr(a) => {
                if a.base == AddrBase::Abs && a.off >= DYN_MARK / 2 {
                    self.dynfix.push(4);
                }
                self.inst.addr = *a;
                Ok(())
            }
            _ => self.err("expected an address `[...]`"),
        }
    }

    fn nops(&self, ops: &[ROp], n: usize) -> PResult<()> {
        if ops.len() != n {
            return self.err(format!(
                "`{}` takes {n} operands, found {}",
                self.opcode,
                ops.len()
            ));
        }
        Ok(())
    }

    fn decode(&mut self, base: &str, ops: Vec<ROp>) -> PResult<()> {
        let op = match base {
            "mov" => {
                let ty = self.one_type()?;
                self.nops(&ops, 2)?;
                self.inst.ty = ty;
                match (&ops[0], &ops[1]) {
                    (ROp::Vec(v), s) => {
                        self.pack_parts(v)?;
                        self.vec(v)?;
                        self.src(0, s, ty)?;
                        Op::MovUnpack
                    }
                    (d, ROp::Vec(v)) => {
                        if v.contains(&NO_REG) {
                            return self.err("`_` in a vector source");
                        }
                        self.pack_parts(v)?;
                        self.inst.dst = self.dst(d)?;
                        self.vec(v)?;
                        Op::MovPack
                    }
                    (d, s) => {
                        self.inst.dst = self.dst(d)?;
                        self.src(0, s, ty)?;
                        Op::Mov
                    }
                }
            }
            "ld" | "st" => {
                let before = self.ordering();
                let space = self.space();
                self.inst.volatile = before | self.ordering();
                let nv = match self.take_any(&["v2", "v4"]).as_deref() {
                    Some("v2") => 2,
                    Some("v4") => 4,
                    _ => 1,
                };
                let ty = self.one_type()?;
                self.inst.ty = ty;
                self.nops(&ops, 2)?;
                let (val, adr) = if base == "ld" {
                    (&ops[0], &ops[1])
                } else {
                    (&ops[1], &ops[0])
                };
                self.addr(adr)?;
                if space == Space::Param
                    && !matches!(self.inst.addr.base, AddrBase::KernelParam | AddrBase::LocalParam)
                {
                    return self.err("`.param` accesses must name a parameter");
                }
                if space != Space::Param
                    && matches!(self.inst.addr.base, AddrBase::KernelParam | AddrBase::LocalParam)
                {
                    return self.err("a parameter must be accessed with `.param`");
                }
                if base == "st" && self.inst.addr.base == AddrBase::KernelParam {
                    return self.err("kernel parameters are read-only");
                }
                if nv > 1 {
                    match val {
                        ROp::Vec(v) if base == "st" && v.contains(&NO_REG) => {
                            return self.err("`_` in a vector source")
                        }
                        ROp::Vec(v) if v.len() == nv => self.vec(v)?,
                        _ => return self.err(format!("expected a vector of {nv} registers")),
                    }
                } else if base == "ld" {
                    self.inst.dst = self.dst(val)?;
                } else {
                    self.src(0, val, ty)?;
                }
                if base == "ld" && ty.is_signed() && ty.bits() < 32 {
                    let r = if nv > 1 { self.inst.vec[0] } else { self.inst.dst };
                    self.inst.sext_to = self.cx.reg_bits.get(r as usize).copied().unwrap_or(32);
                }
                if base == "ld" {
                    Op::Ld(space)
                } else {
                    Op::St(space)
                }
            }
            "cvta" => {
                let to = self.take("to");
                let space = match self.take_any(&["global", "shared"]).as_deref() {
                    Some("global") => Space::Global,
                    Some("shared") => Space::Shared,
                    _ => return self.err("`cvta` needs `.global` or `.shared`"),
                };
                let ty = self.one_type()?;
                self.nops(&ops, 2)?;
                self.inst.ty = ty;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], ty)?;
                Op::Cvta { to, space }
            }
            "cvt" => {
                let rnd = self.rnd();
                self.inst.ftz = self.take("ftz");
                let sat = self.take("sat");
                let t = self.types();
                if t.len() != 2 {
                    return self.err("`cvt` needs a destination and a source type");
                }
                let (dt, st) = (t[0], t[1]);
                if (dt == Ty::F16 || st == Ty::F16)
                    && !matches!(
                        (dt, st, rnd),
                        (Ty::F32, Ty::F16, Rnd::None) | (Ty::F16, Ty::F32, Rnd::Rn)
                    )
                {
                    return self.err("the simulator has `cvt.f32.f16` and `cvt.rn.f16.f32` only");
                }
                let irnd = matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi);
                let frnd = matches!(rnd, Rnd::Rn | Rnd::Rz | Rnd::Rm | Rnd::Rp);
                if st.is_float() && dt.is_int() && !irnd {
                    return self.err("float-to-integer `cvt` needs `.rni`, `.rzi`, `.rmi` or `.rpi`");
                }
                if st.is_int() && dt.is_float() && !frnd {
                    return self.err("integer-to-float `cvt` needs `.rn`, `.rz`, `.rm` or `.rp`");
                }
                if st == Ty::F64 && dt == Ty::F32 && !frnd && !irnd {
                    return self.err("`cvt.f32.f64` needs a rounding modifier");
                }
                if st.is_int() && dt.is_int() && rnd != Rnd::None {
                    return self.err("integer-to-integer `cvt` takes no rounding modifier");
                }
                if dt == Ty::Pred || st == Ty::Pred {
                    return self.err("`cvt` does not convert predicates");
                }
                self.nops(&ops, 2)?;
                self.inst.ty = dt;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], st)?;
                Op::Cvt { src: st, rnd, sat }
            }
            "add" | "sub" | "mul" | "mad" | "fma" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor"
            | "copysign" | "shl" | "shr" => {
                let rnd = self.rnd();
                let mode = match self.take_any(&["lo", "hi", "wide"]).as_deref() {
                    Some("lo") => MulMode::Lo,
                    Some("hi") => MulMode::Hi,
                    Some("wide") => MulMode::Wide,
                    _ => MulMode::Float,
                };
                self.inst.ftz = self.take("ftz");
                let approx = self.take("approx");
                let full = self.take("full");
                let ty = self.one_type()?;
                self.inst.ty = ty;
                if ty.is_float() {
                    if mode != MulMode::Float {
                        return self.err(format!("`.{mode:?}` on a float type").to_lowercase());
                    }
                    if matches!(rnd, Rnd::Rni | Rnd::Rzi | Rnd::Rmi | Rnd::Rpi) {
                        return self.err("integer rounding on float arithmetic");
                    }
                    if (approx || full) && base != "div" {
                        return self.err("`.approx`/`.full` only on `div` here");
                    }
                    if base == "div" && !(approx || full || rnd == Rnd::Rn) {
                        return self.err("float `div` needs `.rn`, `.approx` or `.full`");
                    }
                    if base == "div" && rnd != Rnd::Rn && rnd != Rnd::None {
                        return self.err("directed rounding of `div` is not supported by ptx-sim");
                    }
                    if matches!(base, "fma" | "mad")
                        && ty == Ty::F64
                        && matches!(rnd, Rnd::Rz | Rnd::Rm | Rnd::Rp)
                    {
                        return self.err("directed rounding of f64 `fma` is not supported by ptx-sim");
                    }
                    if matches!(base, "rem" | "and" | "or" | "xor" | "shl" | "shr") {
                        return self.err(format!("`{base}` on a float type"));
                    }
                    if base == "fma" && rnd == Rnd::None {
                        return self.err("`fma` needs a rounding modifier");
                    }
                } else {
                    if rnd != Rnd::None || approx || full || self.inst.ftz {
                        return self.err("rounding/approximation modifiers on an integer type");
                    }
                    if matches!(base, "mul" | "mad") && mode == MulMode::Float {
                        return self.err(format!("integer `{base}` needs `.lo`, `.hi` or `.wide`"));
                    }
                    if mode == MulMode::Wide && ty.bits() == 64 {
                        return self.err("`.wide` needs a 16- or 32-bit type");
                    }
                    if base == "copysign" || base == "fma" {
                        return self.err(format!("`{base}` needs a float type"));
                    }
                }
                if !matches!(base, "mul" | "mad") && mode != MulMode::Float {
                    return self.err(format!("`.lo/.hi/.wide` on `{base}`"));
                }
                let n = if matches!(base, "mad" | "fma") { 4 } else { 3 };
                self.nops(&ops, n)?;
                self.inst.dst = self.dst(&ops[0])?;
                let bt = if matches!(base, "shl" | "shr") {
                    Ty::U32
                } else {
                    ty
                };
                self.src(0, &ops[1], ty)?;
                self.src(1, &ops[2], bt)?;
                if n == 4 {
                    let ct = if mode == MulMode::Wide { wide(ty) } else { ty };
                    self.src(2, &ops[3], ct)?;
                }
                match base {
                    "add" => Op::Add(rnd),
                    "sub" => Op::Sub(rnd),
                    "mul" => Op::Mul(mode, rnd),
                    "mad" | "fma" => Op::Mad(mode, if rnd == Rnd::None { Rnd::Rn } else { rnd }),
                    "div" => Op::Div,
                    "rem" => Op::Rem,
                    "min" => Op::Min,
                    "max" => Op::Max,
                    "and" => Op::And,
                    "or" => Op::Or,
                    "xor" => Op::Xor,
                    "copysign" => Op::Copysign,
                    "shl" => Op::Shl,
                    _ => Op::Shr,
                }
            }
            "abs" | "neg" | "not" | "cnot" | "popc" | "clz" | "brev" | "bfind" | "rcp" | "sqrt" | "rsqrt"
            | "sin" | "cos" | "ex2" | "lg2" => {
                let rnd = self.rnd();
                let approx = self.take("approx");
                self.inst.ftz = self.take("ftz");
                let shiftamt = self.take("shiftamt");
                let ty = self.one_type()?;
                self.inst.ty = ty;
                match base {
                    "rcp" | "sqrt" => {
                        if !ty.is_float() || !(approx || rnd == Rnd::Rn) {
                            return self.err(format!("`{base}` needs `.rn` or `.approx` and a float type"));
                        }
                    }
                    "rsqrt" | "sin" | "cos" | "ex2" | "lg2" => {
                        if !approx || rnd != Rnd::None {
                            return self.err(format!("`{base}` needs `.approx`"));
                        }
                        if base != "rsqrt" && ty != Ty::F32 {
                            return self.err(format!("`{base}.approx` is f32 only"));
                        }
                    }
                    _ => {
                        if approx || rnd != Rnd::None {
                            return self.err(format!("rounding modifier on `{base}`"));
                        }
                    }
                }
                if shiftamt && base != "bfind" {
                    return self.err("`.shiftamt` only on `bfind`");
                }
                if matches!(base, "not" | "cnot" | "popc" | "clz" | "brev" | "bfind") && ty.is_float() {
                    return self.err(format!("`{base}` on a float type"));
                }
                self.nops(&ops, 2)?;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], ty)?;
                match base {
                    "abs" => Op::Abs,
                    "neg" => Op::Neg,
                    "not" => Op::Not,
                    "cnot" => Op::Cnot,
                    "popc" => Op::Popc,
                    "clz" => Op::Clz,
                    "brev" => Op::Brev,
                    "bfind" => Op::Bfind { shiftamt },
                    "rcp" => Op::Rcp,
                    "sqrt" => Op::Sqrt,
                    "rsqrt" => Op::Rsqrt,
                    "sin" => Op::Sin,
                    "cos" => Op::Cos,
                    "ex2" => Op::Ex2,
                    _ => Op::Lg2,
                }
            }
            "bfe" | "bfi" => {
                let ty = self.one_type()?;
                self.inst.ty = ty;
                let n = if base == "bfe" { 4 } else { 5 };
                self.nops(&ops, n)?;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], ty)?;
                if base == "bfe" {
                    self.src(1, &ops[2], Ty::U32)?;
                    self.src(2, &ops[3], Ty::U32)?;
                    Op::Bfe
                } else {
                    self.src(1, &ops[2], ty)?;
                    self.src(2, &ops[3], Ty::U32)?;
                    self.src(3, &ops[4], Ty::U32)?;
                    Op::Bfi
                }
            }
            "selp" => {
                let ty = self.one_type()?;
                self.inst.ty = ty;
                self.nops(&ops, 4)?;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], ty)?;
                self.src(1, &ops[2], ty)?;
                self.src(2, &ops[3], Ty::Pred)?;
                Op::Selp
            }
            "setp" => {
                let cmps = [
                    ("eq", Cmp::Eq),
                    ("ne", Cmp::Ne),
                    ("lt", Cmp::Lt),
                    ("le", Cmp::Le),
                    ("gt", Cmp::Gt),
                    ("ge", Cmp::Ge),
                    ("lo", Cmp::Lo),
                    ("ls", Cmp::Ls),
                    ("hi", Cmp::Hi),
                    ("hs", Cmp::Hs),
                    ("equ", Cmp::Equ),
                    ("neu", Cmp::Neu),
                    ("ltu", Cmp::Ltu),
                    ("leu", Cmp::Leu),
                    ("gtu", Cmp::Gtu),
                    ("geu", Cmp::Geu),
                    ("num", Cmp::Num),
                    ("nan", Cmp::Nan),
                ];
                let names: Vec<&str> = cmps.iter().map(|c| c.0).collect();
                let cname = match self.take_any(&names) {
                    Some(c) => c,
                    None => return self.err("`setp` needs a comparison"),
                };
                let cmp = cmps.iter().find(|c| c.0 == cname).map(|c| c.1).unwrap_or(Cmp::Eq);
                let bop = match self.take_any(&["and", "or", "xor"]).as_deref() {
                    Some("and") => Some(BoolOp::And),
                    Some("or") => Some(BoolOp::Or),
                    Some("xor") => Some(BoolOp::Xor),
                    _ => None,
                };
                self.inst.ftz = self.take("ftz");
                let ty = self.one_type()?;
                self.inst.ty = ty;
                let float_only = matches!(
                    cmp,
                    Cmp::Equ | Cmp::Neu | Cmp::Ltu | Cmp::Leu | Cmp::Gtu | Cmp::Geu | Cmp::Num | Cmp::Nan
                );
                if float_only && !ty.is_float() {
                    return self.err("unordered comparison on an integer type");
                }
                if ty.is_float() && matches!(cmp, Cmp::Lo | Cmp::Ls | Cmp::Hi | Cmp::Hs) {
                    return self.err("unsigned comparison on a float type");
                }
                self.nops(&ops, if bop.is_some() { 4 } else { 3 })?;
                match &ops[0] {
                    ROp::Pair(p, q) => {
                        self.inst.dst = *p;
                        self.inst.dst2 = *q;
                    }
                    o => self.inst.dst = self.dst(o)?,
                }
                self.src(0, &ops[1], ty)?;
                self.src(1, &ops[2], ty)?;
                if bop.is_some() {
                    self.src(2, &ops[3], Ty::Pred)?;
                }
                Op::Setp { cmp, bop }
            }
            "testp" => {
                let k = match self
                    .take_any(&[
                        "finite",
                        "infinite",
                        "number",
                        "notanumber",
                        "normal",
                        "subnormal",
                    ])
                    .as_deref()
                {
                    Some("finite") => TestKind::Finite,
                    Some("infinite") => TestKind::Infinite,
                    Some("number") => TestKind::Number,
                    Some("notanumber") => TestKind::NotANumber,
                    Some("normal") => TestKind::Normal,
                    Some("subnormal") => TestKind::Subnormal,
                    _ => return self.err("`testp` needs a test"),
                };
                let ty = self.one_type()?;
                if !ty.is_float() {
                    return self.err("`testp` needs a float type");
                }
                self.inst.ty = ty;
                self.nops(&ops, 2)?;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], ty)?;
                Op::Testp(k)
            }
            "bra" => {
                self.take("uni");
                self.nops(&ops, 1)?;
                match &ops[0] {
                    ROp::Name(n) => self
                        .cx
                        .branch_fix
                        .push((self.p.m.code.len(), n.clone(), self.line)),
                    _ => return self.err("`bra` needs a label"),
                }
                Op::Bra { target: 0 }
            }
            "call" => {
                self.take("uni");
                let (rets, name, args) = match ops.as_slice() {
                    [ROp::Name(n)] => (vec![], n.clone(), vec![]),
                    [ROp::Name(n), ROp::List(a)] => (vec![], n.clone(), a.clone()),
                    [ROp::List(r), ROp::Name(n)] => (r.clone(), n.clone(), vec![]),
                    [ROp::List(r), ROp::Name(n), ROp::List(a)] => (r.clone(), n.clone(), a.clone()),
                    _ => return self.err("expected `call (ret), name, (args)`"),
                };
                let f = match self.p.fnames.get(&name) {
                    Some(&f) if !self.p.m.funcs[f as usize].is_entry => f,
                    _ => return self.err(format!("call of undeclared function `{name}`")),
                };
                if f == self.cx.func {
                    return self.err("recursion is not supported by ptx-sim");
                }
                let (formals, frets) = self.p.sigs[f as usize].clone();
                if formals.len() != args.len() || frets.len() != rets.len() {
                    return self.err(format!("`{name}` is called with the wrong number of parameters"));
                }
                let mut info = CallInfo {
                    func: f,
                    args: Vec::new(),
                    rets: Vec::new(),
                };
                for (a, &(foff, fsize)) in args.iter().zip(&formals) {
                    let off = self.lparam(a)?;
                    let size = self.cx.lparam_size.get(&off).copied().unwrap_or(0);
                    if size != fsize {
                        return self.err(format!("argument `{a}` has {size} bytes, the parameter {fsize}"));
                    }
                    info.args.push((off, foff, size));
                }
                for (r, &(foff, fsize)) in rets.iter().zip(&frets) {
                    let off = self.lparam(r)?;
                    let size = self.cx.lparam_size.get(&off).copied().unwrap_or(0);
                    if size != fsize {
                        return self.err(format!("return `{r}` has {size} bytes, the function's {fsize}"));
                    }
                    info.rets.push((foff, off, size));
                }
                if !self.cx.callees.contains(&f) {
                    self.cx.callees.push(f);
                }
                self.p.m.calls.push(info);
                Op::Call {
                    call: self.p.m.calls.len() as u32 - 1,
                }
            }
            "ret" | "exit" => {
                self.take("uni");
                self.nops(&ops, 0)?;
                if base == "exit" {
                    Op::Exit
                } else {
                    Op::Ret
                }
            }
            "bar" | "barrier" => {
                if !self.take("sync") {
                    return self.err(format!("only `{base}.sync` is supported"));
                }
                self.take("aligned");
                if ops.is_empty() || ops.len() > 2 {
                    return self.err("`bar.sync` takes a barrier id and an optional thread count");
                }
                self.src(0, &ops[0], Ty::U32)?;
                if ops.len() == 2 {
                    self.src(1, &ops[1], Ty::U32)?;
                }
                Op::Bar
            }
            "membar" => {
                if self.take_any(&["gl", "cta", "sys"]).is_none() {
                    return self.err("`membar` needs `.gl`, `.cta` or `.sys`");
                }
                Op::Fence
            }
            "fence" => {
                if self.take_any(&["acq_rel", "sc"]).is_none()
                    || self.take_any(&["cta", "gpu", "sys"]).is_none()
                {
                    return self.err("`fence` needs `.acq_rel`/`.sc` and a scope");
                }
                Op::Fence
            }
            "shfl" => {
                if !self.take("sync") {
                    return self.err("only `shfl.sync` is supported");
                }
                let mode = match self.take_any(&["up", "down", "bfly", "idx"]).as_deref() {
                    Some("up") => ShflMode::Up,
                    Some("down") => ShflMode::Down,
                    Some("bfly") => ShflMode::Bfly,
                    Some("idx") => ShflMode::Idx,
                    _ => return self.err("`shfl.sync` needs a mode"),
                };
                let ty = self.one_type()?;
                if ty != Ty::B32 {
                    return self.err("`shfl.sync` is `.b32` only");
                }
                self.inst.ty = ty;
                self.nops(&ops, 5)?;
                match &ops[0] {
                    ROp::Pair(d, p) => {
                        self.inst.dst = *d;
                        self.inst.dst2 = *p;
                    }
                    o => self.inst.dst = self.dst(o)?,
                }
                self.src(0, &ops[1], Ty::B32)?;
                self.src(1, &ops[2], Ty::U32)?;
                self.src(2, &ops[3], Ty::U32)?;
                self.src(3, &ops[4], Ty::U32)?;
                Op::Shfl(mode)
            }
            "vote" => {
                if !self.take("sync") {
                    return self.err("only `vote.sync` is supported");
                }
                let mode = match self.take_any(&["all", "any", "uni", "ballot"]).as_deref() {
                    Some("all") => VoteMode::All,
                    Some("any") => VoteMode::Any,
                    Some("uni") => VoteMode::Uni,
                    Some("ballot") => VoteMode::Ballot,
                    _ => return self.err("`vote.sync` needs a mode"),
                };
                let ty = self.one_type()?;
                if (mode == VoteMode::Ballot) != (ty == Ty::B32)
                    || (mode != VoteMode::Ballot && ty != Ty::Pred)
                {
                    return self.err("`vote.sync.ballot` is `.b32`, the others `.pred`");
                }
                self.inst.ty = ty;
                self.nops(&ops, 3)?;
                self.inst.dst = self.dst(&ops[0])?;
                self.src(0, &ops[1], Ty::Pred)?;
                self.src(1, &ops[2], Ty::U32)?;
                Op::Vote(mode)
            }
            "activemask" => {
                let ty = self.one_type()?;
                if ty != Ty::B32 {
                    return self.err("`activemask` is `.b32`");
                }
                self.nops(&ops, 1)?;
                self.inst.ty = ty;
                self.inst.dst = self.dst(&ops[0])?;
                Op::Activemask
            }
            "atom" | "red" => {
                let _ = self.ordering();
                let space = self.space();
                let _ = self.ordering();
                let aop = match self
                    .take_any(&[
                        "add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
                    ])
                    .as_deref()
                {
                    Some("add") => AtomOp::Add,
                    Some("min") => AtomOp::Min,
                    Some("max") => AtomOp::Max,
                    Some("inc") => AtomOp::Inc,
                    Some("dec") => AtomOp::Dec,
                    Some("and") => AtomOp::And,
                    Some("or") => AtomOp::Or,
                    Some("xor") => AtomOp::Xor,
                    Some("exch") => AtomOp::Exch,
                    Some("cas") => AtomOp::Cas,
                    _ => return self.err(format!("`{base}` needs an operation")),
                };
                let ty = self.one_type()?;
                self.inst.ty = ty;
                let ok = match aop {
                    AtomOp::Add => matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64 | Ty::F32 | Ty::F64),
                    AtomOp::Min | AtomOp::Max => matches!(ty, Ty::U32 | Ty::S32 | Ty::U64 | Ty::S64),
                    AtomOp::Inc | AtomOp::Dec => ty == Ty::U32,
                    AtomOp::Cas => matches!(ty, Ty::B16 | Ty::B32 | Ty::B64),
                    AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch => {
                        matches!(ty, Ty::B32 | Ty::B64)
                    }
                };
                if !ok {
                    return self.err(format!("`{base}.{aop:?}` is not defined on `.{ty:?}`").to_lowercase());
                }
                if space == Space::Param {
                    return self.err("atomics on `.param`");
                }
                let is_red = base == "red";
                let n = if is_red { 2 } else { 3 } + usize::from(aop == AtomOp::Cas);
                self.nops(&ops, n)?;
                let mut k = 0;
                if !is_red {
                    self.inst.dst = self.dst(&ops[0])?;
                    k = 1;
                }
                self.addr(&ops[k])?;
                self.src(0, &ops[k + 1], ty)?;
                if aop == AtomOp::Cas {
                    self.src(1, &ops[k + 2], ty)?;
                }
                if is_red {
                    Op::Red { op: aop, space }
                } else {
                    Op::Atom { op: aop, space }
                }
            }
            _ => return self.err(format!("unsupported instruction `{}`", self.opcode)),
        };
        self.finish()?;
        self.inst.op = op;
        Ok(())
    }

    fn pack_parts(&self, v: &[u32]) -> PResult<()> {
        if !(v.len() == 2 || v.len() == 4) || self.inst.ty.bits() / (v.len() as u32) < 8 {
            return self.err("`mov` packs 2 or 4 parts of at least 8 bits");
        }
        Ok(())
    }

    fn vec(&mut self, v: &[u32]) -> PResult<()> {
        if v.len() > 4 || v.is_empty() {
            return self.err("vectors have 1 to 4 elements");
        }
        for (i, &r) in v.iter().enumerate() {
            self.inst.vec[i] = r;
        }
        self.inst.nvec = v.len() as u8;
        Ok(())
    }

    fn lparam(&self, name: &str) -> PResult<u32> {
        match self.p.lookup(self.cx, name) {
            Some(Sym::LParam(o)) => Ok(o),
            _ => self.err(format!("`{name}` is not a `.param` declared in this function")),
        }
    }
}

fn wide(t: Ty) -> Ty {
    match t {
        Ty::U16 => Ty::U32,
        Ty::S16 => Ty::S32,
        Ty::U32 => Ty::U64,
        Ty::S32 => Ty::S64,
        t => t,
    }
}
