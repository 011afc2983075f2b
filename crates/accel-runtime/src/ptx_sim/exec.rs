//! Running one launch: blocks, threads, warps, barriers, memory and the checks.
//!
//! Model (independent thread scheduling, as on Volta and later): every thread
//! is its own interpreter state (pc, registers, call stack). The scheduler
//! picks a random resident block and a random runnable thread in it (from the
//! seed) and runs it for a random number of instructions (1..=QUANTUM) or until
//! it blocks. Threads meet only at
//! * `bar.sync`: a thread waits until every non-exited thread of the block (or
//!   the given count) has arrived; exiting threads release barriers, as the ISA says;
//! * `shfl.sync` / `vote.sync`: a thread waits until every non-exited thread
//!   of its membermask waits at the same instruction with the same mask;
//!   then the group executes once;
//! * `activemask`: waits until no thread of the warp is runnable (all wait or
//!   have exited); the result is the set of threads waiting at that same
//!   `activemask` instruction. This is the most converged execution allowed;
//!   the ISA guarantees no more, so code relying on `activemask` must use the
//!   mask it gets (e.g. as a later `shfl.sync` membermask), as is required anyway.
//!
//! Up to `RESIDENT_BLOCKS` blocks are resident at once and are started in
//! order of their linear block index (as hardware does), so inter-block
//! protocols such as "last block" counters and flags from earlier blocks work.

use super::counters::{BlockCounters, LaunchCounters, Mem};
use super::float::*;
use super::inst::*;
use super::mem::{GlobalMem, SHARED_WINDOW};
use super::rng::Rng;
use crate::gpu::LaunchConfig;
use crate::profile::{KernelProfile, Pipe};

const QUANTUM: u64 = 64;
const RESIDENT_BLOCKS: usize = 8;
/// A launch that runs this many instructions is reported as an endless loop.
pub const INSTRUCTION_LIMIT: u64 = 300_000_000;

const NONE: u32 = u32::MAX;
const MULTI: u32 = u32::MAX - 1;

#[derive(Clone, Copy)]
struct Shadow {
    epoch: u32,
    writer: u32,
    reader: u32,
    atomic: u32,
    init: bool,
}

const SHADOW0: Shadow = Shadow {
    epoch: 0,
    writer: NONE,
    reader: NONE,
    atomic: NONE,
    init: false,
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    Run,
    Bar,
    Coll,
    Exit,
}

#[derive(Clone, Copy)]
struct Frame {
    ret_pc: u32,
    rbase: u32,
    pbase: u32,
    func: u32,
    call: u32,
}

struct Th {
    tid: [u32; 3],
    pc: u32,
    rbase: u32,
    pbase: u32,
    func: u32,
    st: St,
    bar_id: u32,
    stack: Vec<Frame>,
    // Operands of a pending warp collective.
    cval: u64,
    cb: u32,
    cc: u32,
    cmask: u32,
}

#[derive(Clone, Copy, Default)]
struct BarState {
    arrived: u32,
    /// 0: all non-exited threads.
    count: u32,
}

struct Block {
    ctaid: [u32; 3],
    threads: Vec<Th>,
    regs: Vec<u64>,
    init: Vec<bool>,
    params: Vec<u8>,
    shared: Vec<u8>,
    shadow: Vec<Shadow>,
    epoch: u32,
    runnable: Vec<u32>,
    live: u32,
    bars: [BarState; 16],
    /// Threads of each warp waiting at a warp collective: warp_sync has work only then.
    coll_waiting: Vec<u32>,
    /// Its warp instructions, when the launch is profiled.
    counters: BlockCounters,
}

/// What stopped a thread.
enum Stop {
    Budget,
    Blocked,
    Exited,
}

/// A fault found while executing; the caller adds where and who.
struct Fault(String);

type FResult<T> = Result<T, Fault>;

struct Ctx<'a> {
    m: &'a Module,
    kname: &'a str,
    grid: [u32; 3],
    block: [u32; 3],
    nthreads: u32,
    kparams: &'a [u8],
    mem: &'a mut GlobalMem,
    fregs: usize,
    fparams: usize,
    shared_size: u32,
    insts: u64,
    counters: Option<LaunchCounters>,
}

fn frame_size(m: &Module, f: u32, regs: bool, depth: u32) -> Result<u32, String> {
    if depth > 64 {
        return Err("call graph too deep (recursion is not supported)".into());
    }
    let func = &m.funcs[f as usize];
    if func.entry == u32::MAX {
        return Err(format!("function `{}` is declared but never defined", func.name));
    }
    let own = if regs { func.nregs } else { func.param_bytes };
    let mut sub = 0;
    for &c in &func.callees {
        sub = sub.max(frame_size(m, c, regs, depth + 1)?);
    }
    Ok(own + sub)
}

/// A block's shared memory: the static variables, then the dynamic area at its alignment.
pub fn shared_bytes(k: &Function, dynamic: u32) -> u32 {
    if dynamic == 0 {
        return k.shared_bytes;
    }
    let a = k.dyn_shared_align.max(1);
    k.shared_bytes
        .div_ceil(a)
        .saturating_mul(a)
        .saturating_add(dynamic)
}

fn sx(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

fn tid3(l: u32, b: [u32; 3]) -> [u32; 3] {
    [l % b[0], (l / b[0]) % b[1], l / (b[0] * b[1])]
}

/// Runs kernel `kidx` of `m` to completion. Returns the instruction count.
pub fn run_launch(
    m: &Module,
    kidx: usize,
    cfg: &LaunchConfig,
    kparams: &[u8],
    mem: &mut GlobalMem,
    rng: &mut Rng,
    profile: bool,
) -> Result<(u64, Option<KernelProfile>), String> {
    let k = &m.funcs[kidx];
    let fregs = frame_size(m, kidx as u32, true, 0)? as usize;
    let fparams = frame_size(m, kidx as u32, false, 0)? as usize;
    let shared_size = shared_bytes(k, cfg.dynamic_shared_bytes);
    let nthreads = cfg.block[0] * cfg.block[1] * cfg.block[2];
    let mut cx = Ctx {
        m,
        kname: &k.name,
        grid: cfg.grid,
        block: cfg.block,
        nthreads,
        kparams,
        mem,
        fregs,
        fparams,
        shared_size,
        insts: 0,
        counters: profile.then(|| LaunchCounters::new(&k.name, cfg.grid, cfg.block)),
    };
    let nblocks = cfg.grid[0] as u64 * cfg.grid[1] as u64 * cfg.grid[2] as u64;
    let mut next: u64 = 0;
    let mut resident: Vec<Block> = Vec::new();
    let mut pool: Vec<Block> = Vec::new();
    loop {
        while resident.len() < RESIDENT_BLOCKS && next < nblocks {
            let c = [
                (next % cfg.grid[0] as u64) as u32,
                ((next / cfg.grid[0] as u64) % cfg.grid[1] as u64) as u32,
                (next / (cfg.grid[0] as u64 * cfg.grid[1] as u64)) as u32,
            ];
            let b = new_block(&cx, k.entry, kidx as u32, c, pool.pop());
            resident.push(b);
            next += 1;
        }
        if resident.is_empty() {
            return Ok((cx.insts, cx.counters.map(LaunchCounters::finish)));
        }
        // A random resident block with a runnable thread: start at a random
        // one and take the next that has one.
        let start = rng.below(resident.len() as u64) as usize;
        let Some(bi) = (0..resident.len())
            .map(|k| (start + k) % resident.len())
            .find(|&i| !resident[i].runnable.is_empty())
        else {
            return Err(deadlock(&cx, &resident[0]));
        };
        let b = &mut resident[bi];
        let ri = rng.below(b.runnable.len() as u64) as usize;
        let t = b.runnable[ri] as usize;
        let budget = 1 + rng.below(QUANTUM);
        let stop = run_thread(&mut cx, b, t, budget).map_err(|f| locate(&cx, b, t, &f.0))?;
        match stop {
            Stop::Budget => {}
            Stop::Blocked => {
                b.runnable.swap_remove(ri);
                after_block(&mut cx, b, t)?;
            }
            Stop::Exited => {
                b.runnable.swap_remove(ri);
                b.live -= 1;
                for id in 0..16 {
                    check_barrier(b, id);
                }
                warp_sync(&mut cx, b, t / 32)?;
                if b.live == 0 {
                    if let Some(c) = &mut cx.counters {
                        c.retire(&mut b.counters);
                    }
                    pool.push(resident.swap_remove(bi));
                }
            }
        }
        if cx.insts > INSTRUCTION_LIMIT {
            return Err(format!("kernel `{}`: more than {INSTRUCTION_LIMIT} instructions executed: an endless loop, or a thread waiting for a block that is not resident", cx.kname));
        }
    }
}

fn new_block(cx: &Ctx, entry: u32, kidx: u32, ctaid: [u32; 3], reuse: Option<Block>) -> Block {
    let n = cx.nthreads as usize;
    let mut b = reuse.unwrap_or_else(|| Block {
        ctaid,
        threads: Vec::new(),
        regs: Vec::new(),
        init: Vec::new(),
        params: Vec::new(),
        shared: Vec::new(),
        shadow: Vec::new(),
        epoch: 0,
        runnable: Vec::new(),
        live: 0,
        bars: [BarState::default(); 16],
        coll_waiting: Vec::new(),
        counters: BlockCounters::new(false),
    });
    if b.counters.on() != cx.counters.is_some() {
        b.counters = BlockCounters::new(cx.counters.is_some());
    }
    b.ctaid = ctaid;
    b.threads.clear();
    b.threads.extend((0..n).map(|l| Th {
        tid: tid3(l as u32, cx.block),
        pc: entry,
        rbase: 0,
        pbase: 0,
        func: kidx,
        st: St::Run,
        bar_id: 0,
        stack: Vec::new(),
        cval: 0,
        cb: 0,
        cc: 0,
        cmask: 0,
    }));
    b.regs.clear();
    b.regs.resize(n * cx.fregs, 0);
    b.init.clear();
    b.init.resize(n * cx.fregs, false);
    b.params.clear();
    b.params.resize(n * cx.fparams, 0);
    b.shared.clear();
    b.shared.resize(cx.shared_size as usize, 0);
    b.shadow.clear();
    b.shadow.resize(cx.shared_size as usize, SHADOW0);
    b.epoch = 1;
    b.runnable.clear();
    b.runnable.extend(0..n as u32);
    b.live = n as u32;
    b.bars = [BarState::default(); 16];
    b.coll_waiting.clear();
    b.coll_waiting.resize(n.div_ceil(32), 0);
    b
}

fn who(cx: &Ctx, b: &Block, t: usize) -> String {
    let c = b.ctaid;
    let d = tid3(t as u32, cx.block);
    format!(
        "thread (ctaid=({},{},{}), tid=({},{},{}))",
        c[0], c[1], c[2], d[0], d[1], d[2]
    )
}

fn at(cx: &Ctx, pc: u32) -> String {
    match cx.m.code.get(pc as usize) {
        Some(i) => format!("line {} `{}`", i.line, cx.m.line_text(i.line)),
        None => "end of code".into(),
    }
}

fn locate(cx: &Ctx, b: &Block, t: usize, msg: &str) -> String {
    format!(
        "kernel `{}`: {} at {}: {}",
        cx.kname,
        who(cx, b, t),
        at(cx, b.threads[t].pc),
        msg
    )
}

fn deadlock(cx: &Ctx, b: &Block) -> String {
    let mut groups: Vec<(u32, St, Vec<usize>)> = Vec::new();
    for (t, th) in b.threads.iter().enumerate() {
        if th.st == St::Exit {
            continue;
        }
        match groups.iter_mut().find(|g| g.0 == th.pc && g.1 == th.st) {
            Some(g) => g.2.push(t),
            None => groups.push((th.pc, th.st, vec![t])),
        }
    }
    let mut s = format!(
        "kernel `{}`: deadlock in block ({},{},{}): no thread can go on;",
        cx.kname, b.ctaid[0], b.ctaid[1], b.ctaid[2]
    );
    for (pc, _, ts) in groups.iter().take(6) {
        s += &format!(
            " {} thread(s) wait at {} (first: {});",
            ts.len(),
            at(cx, *pc),
            who(cx, b, ts[0])
        );
    }
    let exited = b.threads.iter().filter(|t| t.st == St::Exit).count();
    s += &format!(" {exited} thread(s) have exited");
    s
}

fn check_barrier(b: &mut Block, id: usize) {
    let bar = b.bars[id];
    if bar.arrived == 0 {
        return;
    }
    let need = if bar.count == 0 { b.live } else { bar.count };
    if bar.arrived < need {
        return;
    }
    for (t, th) in b.threads.iter_mut().enumerate() {
        if th.st == St::Bar && th.bar_id == id as u32 {
            th.st = St::Run;
            th.pc += 1;
            b.runnable.push(t as u32);
        }
    }
    b.bars[id] = BarState::default();
    // A new interval for the shared-memory race check.
    b.epoch += 1;
}

fn after_block(cx: &mut Ctx, b: &mut Block, t: usize) -> Result<(), String> {
    match b.threads[t].st {
        St::Bar => {
            let id = b.threads[t].bar_id as usize;
            check_barrier(b, id);
        }
        St::Coll => b.coll_waiting[t / 32] += 1,
        _ => {}
    }
    warp_sync(cx, b, t / 32)
}

/// The kind of warp collective a thread waits at, for matching group members.
fn coll_op(cx: &Ctx, th: &Th) -> Op {
    cx.m.code[th.pc as usize].op
}

/// Completes the warp collectives of warp `w` whose members have all arrived.
fn warp_sync(cx: &mut Ctx, b: &mut Block, w: usize) -> Result<(), String> {
    if b.coll_waiting[w] == 0 {
        return Ok(());
    }
    let lo = w * 32;
    let hi = ((w + 1) * 32).min(b.threads.len());
    let mut done = 0u32;
    for l in lo..hi {
        if done & (1 << (l - lo)) != 0 || b.threads[l].st != St::Coll {
            continue;
        }
        let op = coll_op(cx, &b.threads[l]);
        if op == Op::Activemask {
            continue;
        }
        let mask = b.threads[l].cmask;
        let mut ready = true;
        let mut members = 0u32;
        for j in 0..32usize {
            if mask & (1 << j) == 0 || lo + j >= hi {
                continue;
            }
            let th = &b.threads[lo + j];
            match th.st {
                St::Exit => {}
                // Waiting at the same collective with the same mask: a member.
                // Anything else (another collective, a barrier) may still
                // arrive later; if it never does, that is a deadlock.
                St::Coll if coll_op(cx, th) == op && th.cmask == mask => members |= 1 << j,
                _ => ready = false,
            }
        }
        if !ready {
            continue;
        }
        execute_collective(cx, b, lo, op, members)?;
        done |= members;
    }
    // activemask: only once no thread of the warp can run.
    if b.threads[lo..hi].iter().any(|th| th.st == St::Run) {
        return Ok(());
    }
    for l in lo..hi {
        let th = &b.threads[l];
        if th.st != St::Coll || coll_op(cx, th) != Op::Activemask {
            continue;
        }
        let pc = th.pc;
        let mut members = 0u32;
        for j in lo..hi {
            let tj = &b.threads[j];
            if tj.st == St::Coll && tj.pc == pc {
                members |= 1 << (j - lo);
            }
        }
        let dst = cx.m.code[pc as usize].dst;
        for j in 0..32 {
            if members & (1 << j) != 0 {
                write_reg(cx, b, lo + j, dst, members as u64);
                release(b, lo + j);
            }
        }
    }
    Ok(())
}

fn write_reg(cx: &Ctx, b: &mut Block, t: usize, r: u32, v: u64) {
    if r == NO_REG {
        return;
    }
    let i = t * cx.fregs + b.threads[t].rbase as usize + r as usize;
    b.regs[i] = v;
    b.init[i] = true;
}

fn release(b: &mut Block, t: usize) {
    b.coll_waiting[t / 32] -= 1;
    let th = &mut b.threads[t];
    th.st = St::Run;
    th.pc += 1;
    b.runnable.push(t as u32);
}

fn execute_collective(cx: &mut Ctx, b: &mut Block, lo: usize, op: Op, members: u32) -> Result<(), String> {
    let mut out = [0u64; 32];
    let mut outp = [0u64; 32];
    match op {
        Op::Shfl(mode) => {
            for l in 0..32u32 {
                if members & (1 << l) == 0 {
                    continue;
                }
                let th = &b.threads[lo + l as usize];
                let bval = th.cb & 31;
                let cval = th.cc & 31;
                let segmask = (th.cc >> 8) & 31;
                let max_lane = ((l & segmask) | (cval & !segmask)) as i32;
                let min_lane = (l & segmask) as i32;
                let li = l as i32;
                let (j, pval) = match mode {
                    ShflMode::Up => {
                        let j = li - bval as i32;
                        (j, j >= max_lane)
                    }
                    ShflMode::Down => {
                        let j = li + bval as i32;
                        (j, j <= max_lane)
                    }
                    ShflMode::Bfly => {
                        let j = li ^ bval as i32;
                        (j, j <= max_lane)
                    }
                    ShflMode::Idx => {
                        let j = min_lane | (bval & !segmask) as i32;
                        (j, j <= max_lane)
                    }
                };
                let j = if pval { j } else { li };
                if !(0..32).contains(&j) || members & (1 << j) == 0 {
                    let state = if lo + (j as usize) >= b.threads.len() || !(0..32).contains(&j) {
                        "does not exist"
                    } else if b.threads[lo + j as usize].st == St::Exit {
                        "has exited"
                    } else {
                        "is not in the membermask"
                    };
                    return Err(locate(
                        cx,
                        b,
                        lo + l as usize,
                        &format!("shfl.sync reads lane {j}, which {state}: the value is undefined"),
                    ));
                }
                out[l as usize] = b.threads[lo + j as usize].cval & 0xffff_ffff;
                outp[l as usize] = pval as u64;
            }
        }
        Op::Vote(mode) => {
            let mut ballot = 0u32;
            for l in 0..32 {
                if members & (1 << l) != 0 && b.threads[lo + l].cval != 0 {
                    ballot |= 1 << l;
                }
            }
            let v = match mode {
                VoteMode::All => (ballot == members) as u64,
                VoteMode::Any => (ballot != 0) as u64,
                VoteMode::Uni => (ballot == members || ballot == 0) as u64,
                VoteMode::Ballot => ballot as u64,
            };
            out = [v; 32];
        }
        _ => {}
    }
    for l in 0..32 {
        if members & (1 << l) == 0 {
            continue;
        }
        let inst = &cx.m.code[b.threads[lo + l].pc as usize];
        let (d, d2) = (inst.dst, inst.dst2);
        write_reg(cx, b, lo + l, d, out[l]);
        write_reg(cx, b, lo + l, d2, outp[l]);
        release(b, lo + l);
    }
    Ok(())
}

struct SCtx {
    tid: [u32; 3],
    ntid: [u32; 3],
    ctaid: [u32; 3],
    nctaid: [u32; 3],
    lane: u32,
    warp: u32,
}

impl SCtx {
    fn get(&self, s: Sreg) -> u64 {
        let lt = (1u64 << self.lane) - 1;
        let le = (1u64 << (self.lane + 1)) - 1;
        (match s {
            Sreg::Tid(d) => self.tid[d as usize] as u64,
            Sreg::Ntid(d) => self.ntid[d as usize] as u64,
            Sreg::Ctaid(d) => self.ctaid[d as usize] as u64,
            Sreg::Nctaid(d) => self.nctaid[d as usize] as u64,
            Sreg::Laneid => self.lane as u64,
            Sreg::Warpid => self.warp as u64,
            Sreg::LanemaskLt => lt,
            Sreg::LanemaskLe => le,
            Sreg::LanemaskEq => 1 << self.lane,
            Sreg::LanemaskGe => !lt,
            Sreg::LanemaskGt => !le,
        }) & 0xffff_ffff
    }
}

fn reg_name(cx: &Ctx, func: u32, r: u32) -> String {
    cx.m.funcs[func as usize]
        .reg_names
        .get(r as usize)
        .cloned()
        .unwrap_or_else(|| format!("#{r}"))
}

#[inline(always)]
fn bits_f32(v: u64, ftz: bool) -> f32 {
    let x = f32::from_bits(v as u32);
    if ftz {
        ftz32(x)
    } else {
        x
    }
}

#[inline(always)]
fn out_f32(x: f32, ftz: bool) -> u64 {
    (if ftz { ftz32(x) } else { x }).to_bits() as u64
}

fn cmp_int(cmp: Cmp, a: u64, b: u64, ty: Ty) -> bool {
    let bits = ty.bits();
    let (ua, ub) = (a & ty.mask(), b & ty.mask());
    let (sa, sb) = (sx(ua, bits), sx(ub, bits));
    let signed = ty.is_signed();
    match cmp {
        Cmp::Eq => ua == ub,
        Cmp::Ne => ua != ub,
        Cmp::Lt => {
            if signed {
                sa < sb
            } else {
                ua < ub
            }
        }
        Cmp::Le => {
            if signed {
                sa <= sb
            } else {
                ua <= ub
            }
        }
        Cmp::Gt => {
            if signed {
                sa > sb
            } else {
                ua > ub
            }
        }
        Cmp::Ge => {
            if signed {
                sa >= sb
            } else {
                ua >= ub
            }
        }
        Cmp::Lo => ua < ub,
        Cmp::Ls => ua <= ub,
        Cmp::Hi => ua > ub,
        Cmp::Hs => ua >= ub,
        _ => false,
    }
}

fn cmp_float(cmp: Cmp, a: f64, b: f64) -> bool {
    let nan = a.is_nan() || b.is_nan();
    match cmp {
        Cmp::Eq => a == b,
        Cmp::Ne => !nan && a != b,
        Cmp::Lt => a < b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ge => a >= b,
        Cmp::Equ => nan || a == b,
        Cmp::Neu => a != b,
        Cmp::Ltu => nan || a < b,
        Cmp::Leu => nan || a <= b,
        Cmp::Gtu => nan || a > b,
        Cmp::Geu => nan || a >= b,
        Cmp::Num => !nan,
        Cmp::Nan => nan,
        _ => false,
    }
}

fn atom_apply(op: AtomOp, ty: Ty, old: u64, b: u64, c: u64) -> u64 {
    let bits = ty.bits();
    let m = ty.mask();
    let r = match (op, ty) {
        (AtomOp::Add, Ty::F32) => {
            // atom.add.f32 rounds to nearest and flushes subnormals.
            let x = ftz32(ftz32(f32::from_bits(old as u32)) + ftz32(f32::from_bits(b as u32)));
            x.to_bits() as u64
        }
        (AtomOp::Add, Ty::F64) => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
        (AtomOp::Add, _) => old.wrapping_add(b),
        (AtomOp::Min, _) => {
            if ty.is_signed() {
                if sx(old, bits) <= sx(b, bits) {
                    old
                } else {
                    b
                }
            } else {
                old.min(b & m)
            }
        }
        (AtomOp::Max, _) => {
            if ty.is_signed() {
                if sx(old, bits) >= sx(b, bits) {
                    old
                } else {
                    b
                }
            } else {
                old.max(b & m)
            }
        }
        (AtomOp::Inc, _) => {
            if (old & m) >= (b & m) {
                0
            } else {
                old + 1
            }
        }
        (AtomOp::Dec, _) => {
            if old & m == 0 || (old & m) > (b & m) {
                b
            } else {
                old - 1
            }
        }
        (AtomOp::And, _) => old & b,
        (AtomOp::Or, _) => old | b,
        (AtomOp::Xor, _) => old ^ b,
        (AtomOp::Exch, _) => b,
        (AtomOp::Cas, _) => {
            if old & m == b & m {
                c
            } else {
                old
            }
        }
    };
    r & m
}

/// Little-endian value of 1, 2, 4 or 8 bytes (no memcpy call on the hot path).
#[inline(always)]
fn read_le(s: &[u8]) -> u64 {
    match s.len() {
        1 => s[0] as u64,
        2 => u16::from_le_bytes([s[0], s[1]]) as u64,
        4 => u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as u64,
        _ => {
            let mut b = [0u8; 8];
            b[..s.len().min(8)].copy_from_slice(&s[..s.len().min(8)]);
            u64::from_le_bytes(b)
        }
    }
}

#[inline(always)]
fn write_le(s: &mut [u8], v: u64) {
    match s.len() {
        1 => s[0] = v as u8,
        2 => s.copy_from_slice(&(v as u16).to_le_bytes()),
        4 => s.copy_from_slice(&(v as u32).to_le_bytes()),
        n => s.copy_from_slice(&v.to_le_bytes()[..n.min(8)]),
    }
}

/// Where a memory access lands after resolving generic addresses.
#[derive(Clone, Copy)]
enum Loc {
    Global(u64),
    Shared(u32),
    KParam(u32),
    LParam(u32),
}

#[derive(Clone, Copy, PartialEq)]
enum Access {
    Read,
    Write,
    Atomic,
}

fn shadow_check(sh: &mut Shadow, epoch: u32, t: u32, acc: Access) -> Result<(), (u32, &'static str)> {
    if acc != Access::Write && !sh.init {
        return Err((NONE, "uninit"));
    }
    if sh.epoch != epoch {
        *sh = Shadow {
            epoch,
            writer: NONE,
            reader: NONE,
            atomic: NONE,
            init: sh.init,
        };
    }
    let other = |x: u32| x != NONE && x != t;
    match acc {
        Access::Read => {
            if other(sh.writer) {
                return Err((sh.writer, "written"));
            }
            if other(sh.atomic) {
                return Err((sh.atomic, "atomically updated"));
            }
            sh.reader = if sh.reader == NONE || sh.reader == t {
                t
            } else {
                MULTI
            };
        }
        Access::Write => {
            if other(sh.writer) {
                return Err((sh.writer, "written"));
            }
            if other(sh.reader) {
                return Err((sh.reader, "read"));
            }
            if other(sh.atomic) {
                return Err((sh.atomic, "atomically updated"));
            }
            sh.writer = t;
            sh.init = true;
        }
        Access::Atomic => {
            if other(sh.writer) {
                return Err((sh.writer, "written"));
            }
            if other(sh.reader) {
                return Err((sh.reader, "read"));
            }
            sh.atomic = if sh.atomic == NONE || sh.atomic == t {
                t
            } else {
                MULTI
            };
        }
    }
    Ok(())
}

struct MemCx<'a> {
    shared: &'a mut [u8],
    shadow: &'a mut [Shadow],
    epoch: u32,
    params: &'a mut [u8],
    block: [u32; 3],
}

impl Ctx<'_> {
    fn shared_range(&self, mc: &mut MemCx, off: u32, size: u32, t: u32, acc: Access) -> FResult<usize> {
        let end = off as u64 + size as u64;
        if end > mc.shared.len() as u64 {
            return Err(Fault(format!("shared memory access of {size} bytes at shared address {off:#x} is outside the block's {} bytes of shared memory", mc.shared.len())));
        }
        if !off.is_multiple_of(size) {
            return Err(Fault(format!(
                "misaligned shared memory access of {size} bytes at shared address {off:#x}"
            )));
        }
        for i in off..off + size {
            if let Err((other, what)) = shadow_check(&mut mc.shadow[i as usize], mc.epoch, t, acc) {
                if what == "uninit" {
                    return Err(Fault(format!(
                        "reads shared memory byte {i:#x}, which no thread has written in this launch"
                    )));
                }
                let o = if other == MULTI {
                    "other threads".to_string()
                } else {
                    let d = tid3(other, mc.block);
                    format!("thread tid=({},{},{})", d[0], d[1], d[2])
                };
                let mine = match acc {
                    Access::Read => "reads",
                    Access::Write => "writes",
                    Access::Atomic => "atomically updates",
                };
                return Err(Fault(format!("data race on shared memory byte {i:#x}: this thread {mine} it and {o} {what} it with no bar.sync in between")));
            }
        }
        Ok(off as usize)
    }

    fn resolve(&self, space: Space, a: u64, inst: &Inst) -> Loc {
        match inst.addr.base {
            AddrBase::KernelParam => return Loc::KParam(inst.addr.off as u32),
            AddrBase::LocalParam => return Loc::LParam(inst.addr.off as u32),
            _ => {}
        }
        match space {
            Space::Global => Loc::Global(a),
            Space::Shared => Loc::Shared(if a > u32::MAX as u64 { u32::MAX } else { a as u32 }),
            Space::Param => Loc::KParam(a as u32),
            Space::Generic => {
                if (SHARED_WINDOW..SHARED_WINDOW + (1 << 32)).contains(&a) {
                    Loc::Shared((a - SHARED_WINDOW) as u32)
                } else {
                    Loc::Global(a)
                }
            }
        }
    }

    fn load(&mut self, mc: &mut MemCx, loc: Loc, size: u32, t: u32, pbase: usize) -> FResult<u64> {
        let size = size as usize;
        Ok(match loc {
            Loc::Global(a) => read_le(self.mem.slice(a, size).map_err(Fault)?),
            Loc::Shared(o) => {
                let i = self.shared_range(mc, o, size as u32, t, Access::Read)?;
                read_le(&mc.shared[i..i + size])
            }
            Loc::KParam(o) => {
                let o = o as usize;
                match self.kparams.get(o..o + size) {
                    Some(p) => read_le(p),
                    None => {
                        return Err(Fault(format!(
                            "kernel parameter read at {o} beyond the {} parameter bytes",
                            self.kparams.len()
                        )))
                    }
                }
            }
            Loc::LParam(o) => {
                let o = pbase + o as usize;
                let p = mc
                    .params
                    .get(o..o + size)
                    .ok_or_else(|| Fault("parameter access outside the function's parameters".into()))?;
                read_le(p)
            }
        })
    }

    fn store(&mut self, mc: &mut MemCx, loc: Loc, size: u32, t: u32, pbase: usize, v: u64) -> FResult<()> {
        let size = size as usize;
        match loc {
            Loc::Global(a) => write_le(self.mem.slice_mut(a, size).map_err(Fault)?, v),
            Loc::Shared(o) => {
                let i = self.shared_range(mc, o, size as u32, t, Access::Write)?;
                write_le(&mut mc.shared[i..i + size], v);
            }
            Loc::KParam(_) => return Err(Fault("store to a kernel parameter".into())),
            Loc::LParam(o) => {
                let o = pbase + o as usize;
                let p = mc
                    .params
                    .get_mut(o..o + size)
                    .ok_or_else(|| Fault("parameter access outside the function's parameters".into()))?;
                write_le(p, v);
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &mut self,
        mc: &mut MemCx,
        loc: Loc,
        op: AtomOp,
        ty: Ty,
        t: u32,
        b: u64,
        c: u64,
    ) -> FResult<u64> {
        let size = ty.bytes() as usize;
        let slot: &mut [u8] = match loc {
            Loc::Global(a) => self.mem.slice_mut(a, size).map_err(Fault)?,
            Loc::Shared(o) => {
                let i = self.shared_range(mc, o, size as u32, t, Access::Atomic)?;
                &mut mc.shared[i..i + size]
            }
            _ => return Err(Fault("atomic on a parameter".into())),
        };
        let old = read_le(slot);
        write_le(slot, atom_apply(op, ty, old, b, c));
        Ok(old)
    }
}

/// The pipe that issues `inst`, for the profile (memory instructions are
/// placed by the address they resolve to).
fn pipe(inst: &Inst) -> Pipe {
    match inst.op {
        Op::Ld(Space::Param) | Op::St(Space::Param) => Pipe::Alu,
        Op::Ld(Space::Shared) | Op::St(Space::Shared) => Pipe::Shared,
        Op::Ld(_) | Op::St(_) => Pipe::Global,
        Op::Atom { .. } | Op::Red { .. } => Pipe::Atomic,
        Op::Rcp | Op::Sqrt | Op::Rsqrt | Op::Sin | Op::Cos | Op::Ex2 | Op::Lg2 => Pipe::Sfu,
        Op::Div if matches!(inst.ty, Ty::F32 | Ty::F64) => Pipe::Sfu,
        Op::Bra { .. }
        | Op::Call { .. }
        | Op::Ret
        | Op::Exit
        | Op::Bar
        | Op::Fence
        | Op::Shfl(_)
        | Op::Vote(_)
        | Op::Activemask => Pipe::Control,
        _ if inst.ty == Ty::F64 => Pipe::Fp64,
        _ => Pipe::Alu,
    }
}

/// Counts an access of `bytes` at `loc` for the profile, as `global` or
/// `shared` by where it went (parameters are not memory traffic).
fn count_access(
    c: &mut BlockCounters,
    group: (u32, u32, u32),
    loc: Loc,
    global: Mem,
    shared: Mem,
    bytes: u32,
) {
    match loc {
        Loc::Global(g) => c.access(group, global, g, bytes),
        Loc::Shared(o) => c.access(group, shared, o as u64, bytes),
        Loc::KParam(_) | Loc::LParam(_) => {}
    }
}

/// Runs thread `t` of block `b` for at most `budget` instructions.
fn run_thread(cx: &mut Ctx, b: &mut Block, t: usize, budget: u64) -> FResult<Stop> {
    let fregs = cx.fregs;
    let fparams = cx.fparams;
    let m = cx.m;
    let code = &m.code[..];
    let lin = t as u32;
    let sc = SCtx {
        tid: b.threads[t].tid,
        ntid: cx.block,
        ctaid: b.ctaid,
        nctaid: cx.grid,
        lane: lin & 31,
        warp: lin >> 5,
    };
    let Block {
        threads,
        regs,
        init,
        params,
        shared,
        shadow,
        epoch,
        bars,
        counters,
        ..
    } = b;
    let th = &mut threads[t];
    let regs = &mut regs[t * fregs..(t + 1) * fregs];
    let init = &mut init[t * fregs..(t + 1) * fregs];
    let mut mc = MemCx {
        shared: &mut shared[..],
        shadow: &mut shadow[..],
        epoch: *epoch,
        params: &mut params[t * fparams..(t + 1) * fparams],
        block: cx.block,
    };
    let mut pc = th.pc as usize;
    let mut rb = th.rbase as usize;
    let mut executed = 0u64;
    // The register reads of one instruction, with the never-written check.
    macro_rules! rd {
        ($o:expr) => {
            match $o {
                Operand::Reg(r) => {
                    let i = rb + r as usize;
                    if !init[i] {
                        th.pc = pc as u32;
                        return Err(Fault(format!(
                            "reads register {} before any write to it",
                            reg_name(cx, th.func, r)
                        )));
                    }
                    regs[i]
                }
                Operand::NotReg(r) => {
                    let i = rb + r as usize;
                    if !init[i] {
                        th.pc = pc as u32;
                        return Err(Fault(format!(
                            "reads register {} before any write to it",
                            reg_name(cx, th.func, r)
                        )));
                    }
                    (regs[i] == 0) as u64
                }
                Operand::Imm(v) => v,
                Operand::Sreg(s) => sc.get(s),
                Operand::None => 0,
            }
        };
    }
    macro_rules! wr {
        ($r:expr, $v:expr) => {{
            let r = $r;
            if r != NO_REG {
                let i = rb + r as usize;
                regs[i] = $v;
                init[i] = true;
            }
        }};
    }
    macro_rules! fail {
        ($($arg:tt)*) => {{
            th.pc = pc as u32;
            return Err(Fault(format!($($arg)*)));
        }};
    }
    macro_rules! tryf {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(f) => {
                    th.pc = pc as u32;
                    return Err(f);
                }
            }
        };
    }
    let stop = loop {
        if executed >= budget {
            break Stop::Budget;
        }
        let inst = &code[pc];
        executed += 1;
        // The warp instruction this is part of, when profiling.
        let group = if counters.on() {
            let poll = inst.volatile && matches!(inst.op, Op::Ld(_));
            counters.issue(lin, pc as u32, pipe(inst), matches!(inst.op, Op::Bar), poll)
        } else {
            (0, 0, 0)
        };
        if inst.guard != NO_REG {
            let i = rb + inst.guard as usize;
            if !init[i] {
                fail!(
                    "reads predicate {} before any write to it",
                    reg_name(cx, th.func, inst.guard)
                );
            }
            if (regs[i] != 0) == inst.guard_neg {
                pc += 1;
                continue;
            }
        }
        let ty = inst.ty;
        let mask = ty.mask();
        let bits = ty.bits();
        let f32t = ty == Ty::F32;
        let ftz = inst.ftz;
        match inst.op {
            Op::Mov => {
                let v = rd!(inst.src[0]);
                wr!(inst.dst, v & mask);
            }
            Op::MovPack => {
                let n = inst.nvec as u32;
                let w = bits / n;
                let mut v = 0u64;
                for k in 0..n {
                    let p = rd!(Operand::Reg(inst.vec[k as usize]));
                    v |= (p & ((1u64 << w) - 1)) << (w * k);
                }
                wr!(inst.dst, v & mask);
            }
            Op::MovUnpack => {
                let n = inst.nvec as u32;
                let w = bits / n;
                let v = rd!(inst.src[0]);
                for k in 0..n {
                    wr!(inst.vec[k as usize], (v >> (w * k)) & ((1u64 << w) - 1));
                }
            }
            Op::Ld(space) | Op::St(space) => {
                let a = match inst.addr.base {
                    AddrBase::Reg(r) => rd!(Operand::Reg(r)).wrapping_add(inst.addr.off as u64),
                    _ => inst.addr.off as u64,
                };
                let n = inst.nvec.max(1) as u32;
                let size = ty.bytes();
                let loc = cx.resolve(space, a, inst);
                if let Loc::Global(g) = loc {
                    if g % (size * n) as u64 != 0 {
                        fail!("misaligned access of {} bytes at global address {g:#x}", size * n);
                    }
                }
                if let Loc::Shared(s) = loc {
                    if s % (size * n) != 0 {
                        fail!("misaligned access of {} bytes at shared address {s:#x}", size * n);
                    }
                }
                let pb = th.pbase as usize;
                let is_ld = matches!(inst.op, Op::Ld(_));
                if counters.on() {
                    count_access(
                        counters,
                        group,
                        loc,
                        Mem::Global { store: !is_ld },
                        Mem::Shared,
                        size * n,
                    );
                }
                for k in 0..n {
                    let lk = match loc {
                        Loc::Global(g) => Loc::Global(g + (k * size) as u64),
                        Loc::Shared(s) => Loc::Shared(s + k * size),
                        Loc::KParam(o) => Loc::KParam(o + k * size),
                        Loc::LParam(o) => Loc::LParam(o + k * size),
                    };
                    if is_ld {
                        let mut v = tryf!(cx.load(&mut mc, lk, size, lin, pb));
                        if inst.sext_to != 0 {
                            v = (sx(v, bits) as u64)
                                & if inst.sext_to >= 64 {
                                    u64::MAX
                                } else {
                                    (1u64 << inst.sext_to) - 1
                                };
                        }
                        let d = if inst.nvec > 0 {
                            inst.vec[k as usize]
                        } else {
                            inst.dst
                        };
                        wr!(d, v);
                    } else {
                        let v = if inst.nvec > 0 {
                            rd!(Operand::Reg(inst.vec[k as usize]))
                        } else {
                            rd!(inst.src[0])
                        };
                        tryf!(cx.store(&mut mc, lk, size, lin, pb, v & mask));
                    }
                }
            }
            Op::Cvta { to, space } => {
                let a = rd!(inst.src[0]);
                let v = match (to, space) {
                    (_, Space::Global) => a,
                    (true, _) => a.wrapping_sub(SHARED_WINDOW),
                    (false, _) => a.wrapping_add(SHARED_WINDOW),
                };
                wr!(inst.dst, v & mask);
            }
            Op::Cvt { src, rnd, sat } => {
                let a = rd!(inst.src[0]);
                wr!(inst.dst, cvt(a, ty, src, rnd, sat, ftz));
            }
            Op::Add(rnd) | Op::Sub(rnd) => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let sub = matches!(inst.op, Op::Sub(_));
                let v = if f32t {
                    let (x, y) = (bits_f32(a, ftz), bits_f32(b0, ftz));
                    out_f32(add32(x, if sub { -y } else { y }, rnd), ftz)
                } else if ty == Ty::F64 {
                    let (x, y) = (f64::from_bits(a), f64::from_bits(b0));
                    add64(x, if sub { -y } else { y }, rnd).to_bits()
                } else if sub {
                    a.wrapping_sub(b0) & mask
                } else {
                    a.wrapping_add(b0) & mask
                };
                wr!(inst.dst, v);
            }
            Op::Mul(mode, rnd) | Op::Mad(mode, rnd) => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let mad = matches!(inst.op, Op::Mad(..));
                let c = if mad { rd!(inst.src[2]) } else { 0 };
                let v = if f32t {
                    let (x, y) = (bits_f32(a, ftz), bits_f32(b0, ftz));
                    if mad {
                        out_f32(fma32(x, y, bits_f32(c, ftz), rnd), ftz)
                    } else {
                        out_f32(mul32(x, y, rnd), ftz)
                    }
                } else if ty == Ty::F64 {
                    let (x, y) = (f64::from_bits(a), f64::from_bits(b0));
                    if mad {
                        x.mul_add(y, f64::from_bits(c)).to_bits()
                    } else {
                        mul64(x, y, rnd).to_bits()
                    }
                } else {
                    let signed = ty.is_signed();
                    match mode {
                        MulMode::Lo => a.wrapping_mul(b0).wrapping_add(c) & mask,
                        MulMode::Hi => {
                            let p: u64 = if signed {
                                ((sx(a, bits) as i128 * sx(b0, bits) as i128) >> bits) as u64
                            } else {
                                (((a & mask) as u128 * (b0 & mask) as u128) >> bits) as u64
                            };
                            p.wrapping_add(c) & mask
                        }
                        _ => {
                            let wmask = if bits >= 32 {
                                u64::MAX
                            } else {
                                (1u64 << (2 * bits)) - 1
                            };
                            let p = if signed {
                                (sx(a, bits).wrapping_mul(sx(b0, bits))) as u64
                            } else {
                                (a & mask).wrapping_mul(b0 & mask)
                            };
                            p.wrapping_add(c) & wmask
                        }
                    }
                };
                wr!(inst.dst, v);
            }
            Op::Div | Op::Rem => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let rem = inst.op == Op::Rem;
                let v = if f32t {
                    out_f32(bits_f32(a, ftz) / bits_f32(b0, ftz), ftz)
                } else if ty == Ty::F64 {
                    (f64::from_bits(a) / f64::from_bits(b0)).to_bits()
                } else if b0 & mask == 0 {
                    // Undefined in the ISA: what NVIDIA GPUs give.
                    if rem {
                        a & mask
                    } else {
                        mask
                    }
                } else if ty.is_signed() {
                    let (x, y) = (sx(a, bits), sx(b0, bits));
                    (if rem { x.wrapping_rem(y) } else { x.wrapping_div(y) }) as u64 & mask
                } else {
                    let (x, y) = (a & mask, b0 & mask);
                    if rem {
                        x % y
                    } else {
                        x / y
                    }
                };
                wr!(inst.dst, v);
            }
            Op::Abs | Op::Neg => {
                let a = rd!(inst.src[0]);
                let neg = inst.op == Op::Neg;
                let v = if f32t {
                    let x = bits_f32(a, ftz).to_bits() as u64;
                    if neg {
                        x ^ 0x8000_0000
                    } else {
                        x & 0x7fff_ffff
                    }
                } else if ty == Ty::F64 {
                    if neg {
                        a ^ (1 << 63)
                    } else {
                        a & !(1 << 63)
                    }
                } else if neg {
                    a.wrapping_neg() & mask
                } else {
                    (sx(a, bits).wrapping_abs() as u64) & mask
                };
                wr!(inst.dst, v);
            }
            Op::Min | Op::Max => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let max = inst.op == Op::Max;
                let v = if f32t {
                    let (x, y) = (bits_f32(a, ftz), bits_f32(b0, ftz));
                    out_f32(if max { fmax32(x, y) } else { fmin32(x, y) }, ftz)
                } else if ty == Ty::F64 {
                    let (x, y) = (f64::from_bits(a), f64::from_bits(b0));
                    (if max { fmax64(x, y) } else { fmin64(x, y) }).to_bits()
                } else if ty.is_signed() {
                    let (x, y) = (sx(a, bits), sx(b0, bits));
                    (if max { x.max(y) } else { x.min(y) }) as u64 & mask
                } else {
                    let (x, y) = (a & mask, b0 & mask);
                    if max {
                        x.max(y)
                    } else {
                        x.min(y)
                    }
                };
                wr!(inst.dst, v);
            }
            Op::And | Op::Or | Op::Xor => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let v = match inst.op {
                    Op::And => a & b0,
                    Op::Or => a | b0,
                    _ => a ^ b0,
                };
                wr!(inst.dst, v & mask);
            }
            Op::Not => {
                let a = rd!(inst.src[0]);
                wr!(inst.dst, !a & mask);
            }
            Op::Cnot => {
                let a = rd!(inst.src[0]);
                wr!(inst.dst, (a & mask == 0) as u64);
            }
            Op::Shl | Op::Shr => {
                let a = rd!(inst.src[0]) & mask;
                let s = rd!(inst.src[1]) & 0xffff_ffff;
                let v = if inst.op == Op::Shl {
                    if s >= bits as u64 {
                        0
                    } else {
                        (a << s) & mask
                    }
                } else if ty.is_signed() {
                    (sx(a, bits) >> s.min(bits as u64 - 1)) as u64 & mask
                } else if s >= bits as u64 {
                    0
                } else {
                    a >> s
                };
                wr!(inst.dst, v);
            }
            Op::Popc => {
                let a = rd!(inst.src[0]);
                wr!(inst.dst, (a & mask).count_ones() as u64);
            }
            Op::Clz => {
                let a = rd!(inst.src[0]) & mask;
                wr!(inst.dst, (a.leading_zeros() - (64 - bits)) as u64);
            }
            Op::Brev => {
                let a = rd!(inst.src[0]) & mask;
                wr!(inst.dst, a.reverse_bits() >> (64 - bits));
            }
            Op::Bfind { shiftamt } => {
                let a = rd!(inst.src[0]) & mask;
                // Signed: the most significant bit that differs from the sign.
                let x = if ty.is_signed() && sx(a, bits) < 0 {
                    !a & mask
                } else {
                    a
                };
                let v = if x == 0 {
                    0xffff_ffff
                } else {
                    let pos = 63 - x.leading_zeros() as u64;
                    if shiftamt {
                        bits as u64 - 1 - pos
                    } else {
                        pos
                    }
                };
                wr!(inst.dst, v);
            }
            Op::Bfe => {
                let a = rd!(inst.src[0]) & mask;
                let pos = (rd!(inst.src[1]) & 0xff) as u32;
                let len = (rd!(inst.src[2]) & 0xff) as u32;
                let msb = bits - 1;
                let sbit = if !ty.is_signed() || len == 0 {
                    0
                } else {
                    (a >> (pos + len - 1).min(msb)) & 1
                };
                let mut d = 0u64;
                for i in 0..bits {
                    let bit = if i < len && pos + i <= msb {
                        (a >> (pos + i)) & 1
                    } else {
                        sbit
                    };
                    d |= bit << i;
                }
                wr!(inst.dst, d);
            }
            Op::Bfi => {
                let a = rd!(inst.src[0]);
                let mut f = rd!(inst.src[1]) & mask;
                let pos = (rd!(inst.src[2]) & 0xff) as u32;
                let len = (rd!(inst.src[3]) & 0xff) as u32;
                let mut i = 0;
                while i < len && pos + i < bits {
                    f = (f & !(1u64 << (pos + i))) | (((a >> i) & 1) << (pos + i));
                    i += 1;
                }
                wr!(inst.dst, f);
            }
            Op::Selp => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let c = rd!(inst.src[2]);
                wr!(inst.dst, if c != 0 { a } else { b0 } & mask);
            }
            Op::Setp { cmp, bop } => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let r = if f32t {
                    cmp_float(cmp, bits_f32(a, ftz) as f64, bits_f32(b0, ftz) as f64)
                } else if ty == Ty::F64 {
                    cmp_float(cmp, f64::from_bits(a), f64::from_bits(b0))
                } else {
                    cmp_int(cmp, a, b0, ty)
                };
                let (p, q) = match bop {
                    None => (r, !r),
                    Some(op) => {
                        let c = rd!(inst.src[2]) != 0;
                        let f = |x: bool| match op {
                            BoolOp::And => x && c,
                            BoolOp::Or => x || c,
                            BoolOp::Xor => x ^ c,
                        };
                        (f(r), f(!r))
                    }
                };
                wr!(inst.dst, p as u64);
                wr!(inst.dst2, q as u64);
            }
            Op::Rcp | Op::Sqrt | Op::Rsqrt | Op::Sin | Op::Cos | Op::Ex2 | Op::Lg2 => {
                let a = rd!(inst.src[0]);
                let x = if f32t {
                    bits_f32(a, ftz) as f64
                } else {
                    f64::from_bits(a)
                };
                let y = match inst.op {
                    Op::Rcp => {
                        if f32t {
                            (1.0f32 / x as f32) as f64
                        } else {
                            1.0 / x
                        }
                    }
                    Op::Sqrt => {
                        if f32t {
                            (x as f32).sqrt() as f64
                        } else {
                            x.sqrt()
                        }
                    }
                    Op::Rsqrt => 1.0 / x.sqrt(),
                    Op::Sin => x.sin(),
                    Op::Cos => x.cos(),
                    Op::Ex2 => x.exp2(),
                    _ => x.log2(),
                };
                let v = if f32t { out_f32(y as f32, ftz) } else { y.to_bits() };
                wr!(inst.dst, v);
            }
            Op::Copysign => {
                let a = rd!(inst.src[0]);
                let b0 = rd!(inst.src[1]);
                let sign = if f32t { 0x8000_0000u64 } else { 1 << 63 };
                wr!(inst.dst, ((b0 & !sign) | (a & sign)) & mask);
            }
            Op::Testp(k) => {
                let a = rd!(inst.src[0]);
                let x = if f32t {
                    f32::from_bits(a as u32) as f64
                } else {
                    f64::from_bits(a)
                };
                let sub = if f32t {
                    f32::from_bits(a as u32).is_subnormal()
                } else {
                    x.is_subnormal()
                };
                let r = match k {
                    TestKind::Finite => x.is_finite(),
                    TestKind::Infinite => x.is_infinite(),
                    TestKind::Number => !x.is_nan(),
                    TestKind::NotANumber => x.is_nan(),
                    // Zero counts as normal here, as the ISA says.
                    TestKind::Normal => x.is_finite() && !sub,
                    TestKind::Subnormal => sub,
                };
                wr!(inst.dst, r as u64);
            }
            Op::Bra { target } => {
                pc = target as usize;
                continue;
            }
            Op::Call { call } => {
                let info = &m.calls[call as usize];
                let caller = &m.funcs[th.func as usize];
                let callee = &m.funcs[info.func as usize];
                let new_rb = rb + caller.nregs as usize;
                let new_pb = th.pbase as usize + caller.param_bytes as usize;
                for &(from, to, n) in &info.args {
                    let (f, t2) = (th.pbase as usize + from as usize, new_pb + to as usize);
                    mc.params.copy_within(f..f + n as usize, t2);
                }
                init[new_rb..new_rb + callee.nregs as usize].fill(false);
                th.stack.push(Frame {
                    ret_pc: pc as u32 + 1,
                    rbase: rb as u32,
                    pbase: th.pbase,
                    func: th.func,
                    call,
                });
                rb = new_rb;
                th.rbase = rb as u32;
                th.pbase = new_pb as u32;
                th.func = info.func;
                pc = callee.entry as usize;
                continue;
            }
            Op::Ret | Op::Exit => {
                let frame = if inst.op == Op::Ret { th.stack.pop() } else { None };
                match frame {
                    None => {
                        th.st = St::Exit;
                        break Stop::Exited;
                    }
                    Some(f) => {
                        let info = &m.calls[f.call as usize];
                        for &(from, to, n) in &info.rets {
                            let (s, d) = (th.pbase as usize + from as usize, f.pbase as usize + to as usize);
                            mc.params.copy_within(s..s + n as usize, d);
                        }
                        rb = f.rbase as usize;
                        th.rbase = f.rbase;
                        th.pbase = f.pbase;
                        th.func = f.func;
                        pc = f.ret_pc as usize;
                        continue;
                    }
                }
            }
            Op::Bar => {
                let id = rd!(inst.src[0]);
                let count = rd!(inst.src[1]) as u32;
                if id >= 16 {
                    fail!("barrier id {id} is not in 0..15");
                }
                if !count.is_multiple_of(32) || count > cx.nthreads.div_ceil(32) * 32 {
                    fail!("barrier thread count {count} is not a multiple of 32 up to the block size");
                }
                let bs = &mut bars[id as usize];
                if bs.arrived > 0 && bs.count != count {
                    fail!(
                        "threads wait at barrier {id} with different thread counts ({} and {count})",
                        bs.count
                    );
                }
                bs.arrived += 1;
                bs.count = count;
                th.st = St::Bar;
                th.bar_id = id as u32;
                break Stop::Blocked;
            }
            Op::Fence => {}
            Op::Shfl(_) | Op::Vote(_) => {
                let a = rd!(inst.src[0]);
                let (bv, cv, mv) = if let Op::Shfl(_) = inst.op {
                    (
                        rd!(inst.src[1]) as u32,
                        rd!(inst.src[2]) as u32,
                        rd!(inst.src[3]) as u32,
                    )
                } else {
                    (0, 0, rd!(inst.src[1]) as u32)
                };
                if mv & (1 << sc.lane) == 0 {
                    fail!(
                        "membermask {mv:#010x} does not include the executing thread (lane {})",
                        sc.lane
                    );
                }
                th.cval = a;
                th.cb = bv;
                th.cc = cv;
                th.cmask = mv;
                th.st = St::Coll;
                break Stop::Blocked;
            }
            Op::Activemask => {
                th.st = St::Coll;
                break Stop::Blocked;
            }
            Op::Atom { op, space } | Op::Red { op, space } => {
                let a = match inst.addr.base {
                    AddrBase::Reg(r) => rd!(Operand::Reg(r)).wrapping_add(inst.addr.off as u64),
                    _ => inst.addr.off as u64,
                };
                let bv = rd!(inst.src[0]);
                let cv = rd!(inst.src[1]);
                let size = ty.bytes();
                let loc = cx.resolve(space, a, inst);
                match loc {
                    Loc::Global(g) if g % size as u64 != 0 => {
                        fail!("misaligned atomic of {size} bytes at global address {g:#x}")
                    }
                    Loc::Shared(s) if s % size != 0 => {
                        fail!("misaligned atomic of {size} bytes at shared address {s:#x}")
                    }
                    _ => {}
                }
                if counters.on() {
                    count_access(counters, group, loc, Mem::GlobalAtomic, Mem::SharedAtomic, size);
                }
                let old = tryf!(cx.atomic(&mut mc, loc, op, ty, lin, bv, cv));
                if let Op::Atom { .. } = inst.op {
                    wr!(inst.dst, old);
                }
            }
        }
        pc += 1;
    };
    th.pc = pc as u32;
    cx.insts += executed;
    Ok(stop)
}
