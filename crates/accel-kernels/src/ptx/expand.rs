//! The PTX entries of a fused expand (`KernelOp::Expand`).
//!
//! Three passes turn the counts into offsets, evaluating `count` once per
//! input: `xcount` (each thread a contiguous range of inputs: the counts, and
//! the range's sum and maximum), `xscan` (one block: the exclusive scan of the
//! ranges' sums; the total and the maximum count for the host), `xoffs` (each
//! range again: the counts replaced by their exclusive scan, in place).
//!
//! A permute sink then has one entry per work distribution, the host picks
//! one at run time from the total, the maximum and the input count
//! (`accel_runtime::gpu::launch::expand_strategy`):
//! * `xthread`: one input per thread, which loops over the input's outputs;
//! * `xwarp`: one input per warp, the lanes striding over its outputs;
//! * `xblock`: one input per block, the threads striding over its outputs;
//! * `xprefix`: one output per thread, which finds its input by a binary
//!   search over the offsets (upper bound, so inputs of count 0 are never
//!   found): perfectly balanced whatever the counts;
//! * `xchunk`: `CHUNK` inputs per block (the thesis's n per block): the
//!   block's offsets in shared memory, the threads striding over the block's
//!   outputs, each finding its input by an unrolled binary search there.
//!
//! Every output `j` (its position in the expanded array) goes to
//! `combine(map(e), out[t])` with `permute`'s atomic, compare-and-swap or lock
//! tiers (`skeletons::combine_at`); `None` targets are skipped, targets out of
//! range set the error word.
//!
//! A fold sink keeps the sequential combination order: `xfold` gives each
//! thread a contiguous range of outputs (balanced by output, as `xprefix`:
//! one binary search per thread, then a walk), reduces the block in order,
//! and writes one partial per block; `xfold_final` is the fold skeleton's
//! second pass.

use super::blocks::{
    apply2, block_reduce, chunk, combine_at, elem_at, extra, global_id, gptr, ids, l_prefix, ld64, scan_pass,
    shared_decl, st64, wide, Dest, Out, MAX_WARPS,
};
use super::fold::fold_final;
use super::lower::{Arg, Class, Lower, Unsupported};
use accel_core::ir::ErrorKind;
use accel_core::ir::{Fun, Loc, Ty};
use accel_core::plan::{ExpandSink, Kernel, KernelOp, Plan};
use accel_types::launch::{ExpandFoldEntry, ExpandPermuteEntry};

/// Inputs per block of `xchunk` (and its block size): a power of two, for
/// the unrolled search.
pub const CHUNK: usize = accel_types::launch::BLOCK_THREADS;

/// One entry of a fused expand kernel, of either sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Permute(ExpandPermuteEntry),
    Fold(ExpandFoldEntry),
}

impl Entry {
    pub fn suffix(self) -> &'static str {
        match self {
            Entry::Permute(e) => e.suffix(),
            Entry::Fold(e) => e.suffix(),
        }
    }
}

/// The entries of expand kernel `op`, in the module's order.
pub fn entries(op: &KernelOp) -> Vec<Entry> {
    match op {
        KernelOp::Expand {
            sink: ExpandSink::Fold { .. },
            ..
        } => ExpandFoldEntry::ALL.iter().map(|e| Entry::Fold(*e)).collect(),
        KernelOp::Expand {
            sink: ExpandSink::Permute { .. },
            ..
        } => ExpandPermuteEntry::ALL
            .iter()
            .map(|e| Entry::Permute(*e))
            .collect(),
        // Not an expand kernel: none of these entries.
        _ => Vec::new(),
    }
}

/// The body of entry `pass` of expand kernel `k`; returns its shared declarations.
pub fn pass(l: &mut Lower, plan: &Plan, k: &Kernel, out_ty: &Ty, pass: Entry) -> Result<String, Unsupported> {
    use ExpandFoldEntry as F;
    use ExpandPermuteEntry as P;
    let KernelOp::Expand {
        elem,
        count,
        item,
        map,
        sink,
        ..
    } = &k.op
    else {
        return Err(Unsupported::Internal("an expand pass of another kernel".into()));
    };
    let out_b = k.outputs[0].0;
    let x = Expansion {
        elem,
        count,
        item,
        map,
    };
    let other_sink = || Unsupported::Internal(format!("expand entry `{}` of the other sink", pass.suffix()));
    let permute_sink = || match sink {
        ExpandSink::Permute { index, combine, .. } => Ok(PermuteSink {
            index,
            combine,
            out: out_b,
            ty: out_ty,
            rank: plan.buffer(k.outputs[0]).rank,
            at: k.at,
        }),
        ExpandSink::Fold { .. } => Err(other_sink()),
    };
    match pass {
        Entry::Permute(P::Count) | Entry::Fold(F::Count) => x.count_pass(l),
        Entry::Permute(P::Scan) | Entry::Fold(F::Scan) => Ok(scan_pass(l)),
        Entry::Permute(P::Offsets) | Entry::Fold(F::Offsets) => Ok(offs_pass(l)),
        Entry::Fold(step @ (F::Part | F::Final)) => {
            let ExpandSink::Fold { z, f, post } = sink else {
                return Err(other_sink());
            };
            let acc = &plan.arena.var(f.params[0]).ty;
            if step == F::Part {
                return x.fold_pass(l, f, acc);
            }
            let out = Out {
                dest: Dest::buffer(out_b, out_ty),
                post: post.as_ref(),
                longer_rows: false,
            };
            fold_final(l, z.is_some(), f, &out, acc)
        }
        Entry::Permute(P::Prefix) => x.prefix_pass(l, &permute_sink()?),
        Entry::Permute(P::Chunk) => x.chunk_pass(l, &permute_sink()?),
        Entry::Permute(P::Thread) => x.loop_pass(l, &permute_sink()?, Spread::Thread),
        Entry::Permute(P::Warp) => x.loop_pass(l, &permute_sink()?, Spread::Warp),
        Entry::Permute(P::Block) => x.loop_pass(l, &permute_sink()?, Spread::Block),
    }
}

/// `offs[s + 1]`, or `total` for the last input: where input `s`'s outputs end.
fn end_of(l: &mut Lower, offs: &str, s: &str, n: &str, total: &str) -> String {
    let (s1, e, a) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("add.u64 {s1}, {s}, 1;"));
    l.ins(format!("mov.b64 {e}, {total};"));
    let p = l.reg(Class::P);
    l.ins(format!("setp.lt.u64 {p}, {s1}, {n};"));
    l.ins(format!("mad.lo.u64 {a}, {s1}, 8, {offs};"));
    l.ins(format!("@{p} ld.global.u64 {e}, [{a}];"));
    e
}

/// The input that output `j` belongs to: the last `s` with `offs[s] <= j`
/// (an upper-bound search, so inputs of count 0 are skipped). Needs `j < total`.
fn search(l: &mut Lower, offs: &str, n: &str, j: &str) -> String {
    let (lo, hi, mid) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mov.b64 {lo}, 0;"));
    l.ins(format!("mov.b64 {hi}, {n};"));
    let (top, done) = (l.label("bs"), l.label("bse"));
    l.put_label(&top);
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop}, {lo}, {hi};"));
    l.ins(format!("@{stop} bra {done};"));
    l.ins(format!("add.u64 {mid}, {lo}, {hi};"));
    l.ins(format!("shr.u64 {mid}, {mid}, 1;"));
    let v = ld64(l, offs, &mid);
    let le = l.reg(Class::P);
    l.ins(format!("setp.le.u64 {le}, {v}, {j};"));
    l.ins(format!("@{le} add.u64 {lo}, {mid}, 1;"));
    l.ins(format!("@!{le} mov.b64 {hi}, {mid};"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    let s = l.reg(Class::Rd);
    l.ins(format!("sub.u64 {s}, {lo}, 1;"));
    s
}

/// How the loop entries spread inputs and their outputs over threads.
#[derive(Clone, Copy)]
enum Spread {
    Thread,
    Warp,
    Block,
}

struct PermuteSink<'a> {
    index: &'a Fun,
    combine: &'a Fun,
    out: u32,
    ty: &'a Ty,
    rank: usize,
    /// The permute's source position.
    at: Option<Loc>,
}

struct Expansion<'a> {
    elem: &'a accel_core::plan::ElemFn,
    count: &'a Fun,
    item: &'a Fun,
    map: &'a Fun,
}

impl Expansion<'_> {
    fn x_ty(&self, l: &Lower) -> Ty {
        l.a.ty(self.elem.fun().body).clone()
    }

    /// Input `s`, in registers of their own (stable across the loops).
    fn input(&self, l: &mut Lower, s: &str) -> Result<Vec<String>, Unsupported> {
        let t = self.x_ty(l);
        let v = elem_at(l, self.elem, s)?;
        let x = l.fresh(&t);
        l.assign(&x, &v, &t);
        Ok(x)
    }

    /// `item(x, k)`: element `k` of `x`'s expansion (before the maps).
    fn item(&self, l: &mut Lower, x: &[String], k: &str) -> Result<Vec<String>, Unsupported> {
        apply2(l, self.item, x, &[k.to_string()])
    }

    fn map(&self, l: &mut Lower, e: &[String]) -> Result<Vec<String>, Unsupported> {
        let p = self.map.params[0];
        let old = l.bind(p, e.to_vec());
        let v = l.expr(self.map.body);
        l.unbind(p, old);
        v
    }

    /// Each thread a contiguous range of `iper` inputs: `offs[s] = count(x_s)`,
    /// and the range's sum and maximum at `psum[g]`, `pmax[g]`.
    fn count_pass(&self, l: &mut Lower) -> Result<String, Unsupported> {
        let (n, per) = (extra(l, "n"), extra(l, "iper"));
        let (offs, psum, pmax) = (gptr(l, "offs"), gptr(l, "psum"), gptr(l, "pmax"));
        let id = ids(l);
        let g = global_id(l, &id);
        let zero = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {zero}, 0;"));
        let (s, end) = chunk(l, &zero, &g, &per, &n);
        let (sum, mx) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("mov.b64 {sum}, 0;"));
        l.ins(format!("mov.b64 {mx}, 0;"));
        let (top, done) = (l.label("xc"), l.label("xce"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {s}, {end};"));
        l.ins(format!("@{stop} bra {done};"));
        let x = elem_at(l, self.elem, &s)?;
        let p = self.count.params[0];
        let old = l.bind(p, x);
        let c = l.expr(self.count.body);
        l.unbind(p, old);
        let c = c?[0].clone();
        st64(l, &offs, &s, &c);
        l.ins(format!("add.u64 {sum}, {sum}, {c};"));
        l.ins(format!("max.u64 {mx}, {mx}, {c};"));
        l.ins(format!("add.u64 {s}, {s}, 1;"));
        l.ins(format!("bra {top};"));
        l.put_label(&done);
        st64(l, &psum, &g, &sum);
        st64(l, &pmax, &g, &mx);
        l.ins("ret;");
        Ok(String::new())
    }

    /// `combine(map(e), out[t])` for element `e = item(x, k)` at position `j`
    /// of the expansion, when `index(e, j)` is `Some(t)`; jumps to `next`
    /// when it is `None` or out of range (which fails).
    #[allow(clippy::too_many_arguments)]
    fn permute_one(
        &self,
        l: &mut Lower,
        sink: &PermuteSink,
        x: &[String],
        k: &str,
        j: &str,
        lockg: &str,
        next: &str,
    ) -> Result<(), Unsupported> {
        let e = self.item(l, x, k)?;
        let target = apply2(l, sink.index, &e, &[j.to_string()])?;
        l.ins(format!("@!{} bra {next};", target[0]));
        let tix = target[1..].to_vec();
        let odims: Vec<String> = (0..sink.rank)
            .map(|d| l.param(Arg::Dim(sink.out, d))[0].clone())
            .collect();
        let ok = l.in_bounds(&tix, &odims);
        let inb = l.label("xin");
        l.ins(format!("@{ok} bra {inb};"));
        l.fail(
            ErrorKind::IndexOutOfBounds,
            "permute",
            "index out of bounds",
            sink.at,
        );
        l.ins(format!("bra {next};"));
        l.put_label(&inb);
        let tl = l.linearize_in(&tix, &odims);
        let v = self.map(l, &e)?;
        combine_at(l, sink.combine, sink.out, sink.ty, &tl, &v, lockg)
    }

    /// One input per thread, warp or block (`spread`), whose threads stride
    /// over the input's outputs.
    fn loop_pass(&self, l: &mut Lower, sink: &PermuteSink, spread: Spread) -> Result<String, Unsupported> {
        let (n, total) = (extra(l, "n"), extra(l, "total"));
        let offs = gptr(l, "offs");
        let lockg = gptr(l, "lock");
        let id = ids(l);
        let (s, step, k0, kstep) = (
            l.reg(Class::Rd),
            l.reg(Class::Rd),
            l.reg(Class::Rd),
            l.reg(Class::Rd),
        );
        match spread {
            Spread::Thread => {
                let g = global_id(l, &id);
                l.ins(format!("mov.b64 {s}, {g};"));
                l.ins(format!("mul.wide.u32 {step}, {}, {};", id.nctaid, id.ntid));
                l.ins(format!("mov.b64 {k0}, 0;"));
                l.ins(format!("mov.b64 {kstep}, 1;"));
            }
            Spread::Warp => {
                let (lane, warp, wpb) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::R));
                l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
                l.ins(format!("shr.u32 {warp}, {}, 5;", id.tid));
                l.ins(format!("shr.u32 {wpb}, {}, 5;", id.ntid));
                l.ins(format!("mul.wide.u32 {s}, {}, {wpb};", id.ctaid));
                let w = wide(l, &warp);
                l.ins(format!("add.u64 {s}, {s}, {w};"));
                l.ins(format!("mul.wide.u32 {step}, {}, {wpb};", id.nctaid));
                l.ins(format!("cvt.u64.u32 {k0}, {lane};"));
                l.ins(format!("mov.b64 {kstep}, 32;"));
            }
            Spread::Block => {
                l.ins(format!("cvt.u64.u32 {s}, {};", id.ctaid));
                l.ins(format!("cvt.u64.u32 {step}, {};", id.nctaid));
                l.ins(format!("cvt.u64.u32 {k0}, {};", id.tid));
                l.ins(format!("cvt.u64.u32 {kstep}, {};", id.ntid));
            }
        }
        let (top, end) = (l.label("xl"), l.label("xle"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {s}, {n};"));
        l.ins(format!("@{stop} bra {end};"));
        let base = ld64(l, &offs, &s);
        let e = end_of(l, &offs, &s, &n, &total);
        let c = l.reg(Class::Rd);
        l.ins(format!("sub.u64 {c}, {e}, {base};"));
        let (inner, inner_end, next) = (l.label("xk"), l.label("xke"), l.label("xkn"));
        // Inputs of count 0 (or none for this lane) are not evaluated.
        let none = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {none}, {k0}, {c};"));
        l.ins(format!("@{none} bra {inner_end};"));
        let x = self.input(l, &s)?;
        let k = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {k}, {k0};"));
        l.put_label(&inner);
        let kstop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {kstop}, {k}, {c};"));
        l.ins(format!("@{kstop} bra {inner_end};"));
        let j = l.reg(Class::Rd);
        l.ins(format!("add.u64 {j}, {base}, {k};"));
        self.permute_one(l, sink, &x, &k, &j, &lockg, &next)?;
        l.put_label(&next);
        l.ins(format!("add.u64 {k}, {k}, {kstep};"));
        l.ins(format!("bra {inner};"));
        l.put_label(&inner_end);
        l.ins(format!("add.u64 {s}, {s}, {step};"));
        l.ins(format!("bra {top};"));
        l.put_label(&end);
        l.ins("ret;");
        Ok(String::new())
    }

    /// One output per thread (a grid-stride loop over the expansion), its
    /// input found by a binary search over the offsets.
    fn prefix_pass(&self, l: &mut Lower, sink: &PermuteSink) -> Result<String, Unsupported> {
        let (n, total) = (extra(l, "n"), extra(l, "total"));
        let offs = gptr(l, "offs");
        let lockg = gptr(l, "lock");
        let id = ids(l);
        let j = global_id(l, &id);
        let stride = l.reg(Class::Rd);
        l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
        let (top, end, next) = (l.label("xp"), l.label("xpe"), l.label("xpn"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {j}, {total};"));
        l.ins(format!("@{stop} bra {end};"));
        let s = search(l, &offs, &n, &j);
        let base = ld64(l, &offs, &s);
        let k = l.reg(Class::Rd);
        l.ins(format!("sub.u64 {k}, {j}, {base};"));
        let x = self.input(l, &s)?;
        self.permute_one(l, sink, &x, &k, &j, &lockg, &next)?;
        l.put_label(&next);
        l.ins(format!("add.u64 {j}, {j}, {stride};"));
        l.ins(format!("bra {top};"));
        l.put_label(&end);
        l.ins("ret;");
        Ok(String::new())
    }

    /// `CHUNK` inputs per block, blocks striding over the chunks (a
    /// block-uniform loop, so the barriers are reached by every thread): the
    /// chunk's offsets in shared memory (past the inputs: `total`), then the
    /// chunk's outputs, strided over the block's threads (launched with
    /// `CHUNK` threads), each finding its input by an unrolled search.
    fn chunk_pass(&self, l: &mut Lower, sink: &PermuteSink) -> Result<String, Unsupported> {
        let (n, total) = (extra(l, "n"), extra(l, "total"));
        let offs = gptr(l, "offs");
        let lockg = gptr(l, "lock");
        let id = ids(l);
        let sh = format!("{}_xo", l_prefix(l));
        let shb = l.reg(Class::Rd);
        l.ins(format!("mov.u64 {shb}, {sh};"));
        let tid = wide(l, &id.tid);
        let (nch, b, step) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("add.u64 {nch}, {n}, {};", CHUNK - 1));
        l.ins(format!("shr.u64 {nch}, {nch}, {};", CHUNK.trailing_zeros()));
        l.ins(format!("cvt.u64.u32 {b}, {};", id.ctaid));
        l.ins(format!("cvt.u64.u32 {step}, {};", id.nctaid));
        let (top, end) = (l.label("xn"), l.label("xne"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {b}, {nch};"));
        l.ins(format!("@{stop} bra {end};"));
        // Slot `t` of the chunk: offset of input `b * CHUNK + t`, or `total`;
        // thread 0 also fills slot `CHUNK` (where the chunk's outputs end).
        let s0 = l.reg(Class::Rd);
        l.ins(format!("shl.b64 {s0}, {b}, {};", CHUNK.trailing_zeros()));
        let fill = |l: &mut Lower, slot: &str| {
            let (i, v, a) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
            l.ins(format!("add.u64 {i}, {s0}, {slot};"));
            l.ins(format!("mov.b64 {v}, {total};"));
            let p = l.reg(Class::P);
            l.ins(format!("setp.lt.u64 {p}, {i}, {n};"));
            l.ins(format!("mad.lo.u64 {a}, {i}, 8, {offs};"));
            l.ins(format!("@{p} ld.global.u64 {v}, [{a}];"));
            let sa = l.reg(Class::Rd);
            l.ins(format!("mad.lo.u64 {sa}, {slot}, 8, {shb};"));
            l.ins(format!("st.shared.u64 [{sa}], {v};"));
        };
        fill(l, &tid);
        let not0 = l.label("xn0");
        let p0 = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {p0}, {}, 0;", id.tid));
        l.ins(format!("@{p0} bra {not0};"));
        let last = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {last}, {CHUNK};"));
        fill(l, &last);
        l.put_label(&not0);
        l.ins("bar.sync 0;");
        let (lo, hi) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("ld.shared.u64 {lo}, [{sh}];"));
        l.ins(format!("ld.shared.u64 {hi}, [{sh}+{}];", CHUNK * 8));
        let j = l.reg(Class::Rd);
        l.ins(format!("add.u64 {j}, {lo}, {tid};"));
        let ntid = wide(l, &id.ntid);
        let (jt, je, next) = (l.label("xnj"), l.label("xnje"), l.label("xnn"));
        l.put_label(&jt);
        let jstop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {jstop}, {j}, {hi};"));
        l.ins(format!("@{jstop} bra {je};"));
        // The last slot `pos` with `sh[pos] <= j` (`sh[0] <= j` holds).
        let pos = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {pos}, 0;"));
        let mut half = CHUNK / 2;
        while half > 0 {
            let (a, v) = (l.reg(Class::Rd), l.reg(Class::Rd));
            l.ins(format!("mad.lo.u64 {a}, {pos}, 8, {shb};"));
            l.ins(format!("ld.shared.u64 {v}, [{a}+{}];", half * 8));
            let le = l.reg(Class::P);
            l.ins(format!("setp.le.u64 {le}, {v}, {j};"));
            l.ins(format!("@{le} add.u64 {pos}, {pos}, {half};"));
            half /= 2;
        }
        let (a, base) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("mad.lo.u64 {a}, {pos}, 8, {shb};"));
        l.ins(format!("ld.shared.u64 {base}, [{a}];"));
        let (s, k) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("add.u64 {s}, {s0}, {pos};"));
        l.ins(format!("sub.u64 {k}, {j}, {base};"));
        let x = self.input(l, &s)?;
        self.permute_one(l, sink, &x, &k, &j, &lockg, &next)?;
        l.put_label(&next);
        l.ins(format!("add.u64 {j}, {j}, {ntid};"));
        l.ins(format!("bra {jt};"));
        l.put_label(&je);
        // Everyone is done with the slots before the next chunk fills them.
        l.ins("bar.sync 0;");
        l.ins(format!("add.u64 {b}, {b}, {step};"));
        l.ins(format!("bra {top};"));
        l.put_label(&end);
        l.ins("ret;");
        Ok(format!("\t.shared .align 8 .b8 {sh}[{}];\n", (CHUNK + 1) * 8))
    }

    /// Pass 1 of a fold: each thread the contiguous range of `per` outputs
    /// from `g * per`, in order (one search, then a walk over the inputs),
    /// then the block in order; one partial per block.
    fn fold_pass(&self, l: &mut Lower, f: &Fun, t: &Ty) -> Result<String, Unsupported> {
        let (n, total, per) = (extra(l, "n"), extra(l, "total"), extra(l, "per"));
        let offs = gptr(l, "offs");
        let id = ids(l);
        let g = global_id(l, &id);
        let zero = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {zero}, 0;"));
        let (j, j1) = chunk(l, &zero, &g, &per, &total);
        let acc = l.zero(t);
        let have = l.reg(Class::R);
        l.ins(format!("mov.b32 {have}, 0;"));
        let done = l.label("xfd");
        let empty = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {empty}, {j}, {j1};"));
        l.ins(format!("@{empty} bra {done};"));
        let s = search(l, &offs, &n, &j);
        let base = ld64(l, &offs, &s);
        let e0 = end_of(l, &offs, &s, &n, &total);
        let e = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {e}, {e0};"));
        let x = self.input(l, &s)?;
        let (top, adv, here) = (l.label("xf"), l.label("xfa"), l.label("xfh"));
        l.put_label(&top);
        let stop = l.reg(Class::P);
        l.ins(format!("setp.ge.u64 {stop}, {j}, {j1};"));
        l.ins(format!("@{stop} bra {done};"));
        // Past the current input: on to the next one with outputs.
        let stale = l.reg(Class::R);
        l.ins(format!("mov.b32 {stale}, 0;"));
        l.put_label(&adv);
        let inside = l.reg(Class::P);
        l.ins(format!("setp.lt.u64 {inside}, {j}, {e};"));
        let moved = l.label("xfm");
        l.ins(format!("@{inside} bra {moved};"));
        l.ins(format!("add.u64 {s}, {s}, 1;"));
        l.ins(format!("mov.b64 {base}, {e};"));
        let e2 = end_of(l, &offs, &s, &n, &total);
        l.ins(format!("mov.b64 {e}, {e2};"));
        l.ins(format!("mov.b32 {stale}, 1;"));
        l.ins(format!("bra {adv};"));
        l.put_label(&moved);
        let fresh = l.reg(Class::P);
        l.ins(format!("setp.eq.u32 {fresh}, {stale}, 0;"));
        l.ins(format!("@{fresh} bra {here};"));
        let xt = self.x_ty(l);
        let x2 = elem_at(l, self.elem, &s)?;
        l.assign(&x, &x2, &xt);
        l.put_label(&here);
        let k = l.reg(Class::Rd);
        l.ins(format!("sub.u64 {k}, {j}, {base};"));
        let it = self.item(l, &x, &k)?;
        let v = self.map(l, &it)?;
        let (first, next) = (l.label("xf1"), l.label("xfn"));
        let p0 = l.reg(Class::P);
        l.ins(format!("setp.eq.u32 {p0}, {have}, 0;"));
        l.ins(format!("@{p0} bra {first};"));
        let w = apply2(l, f, &acc, &v)?;
        l.assign(&acc, &w, t);
        l.ins(format!("bra {next};"));
        l.put_label(&first);
        l.assign(&acc, &v, t);
        l.ins(format!("mov.b32 {have}, 1;"));
        l.put_label(&next);
        l.ins(format!("add.u64 {j}, {j}, 1;"));
        l.ins(format!("bra {top};"));
        l.put_label(&done);
        let sh = l_prefix(l);
        block_reduce(l, &id, &acc, &have, f, t, &sh)?;
        let skip = l.label("xfw");
        let p = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {p}, {}, 0;", id.tid));
        l.ins(format!("@{p} bra {skip};"));
        let c = wide(l, &id.ctaid);
        for (kk, (r, pr)) in acc.iter().zip(super::lower::leaves(t)).enumerate() {
            let b = l.param(Arg::Part(kk))[0].clone();
            l.store(&b, &c, pr, r, false);
        }
        l.put_label(&skip);
        l.ins("ret;");
        Ok(shared_decl(&sh, t, MAX_WARPS * 4))
    }
}

/// Each thread's range of inputs again: the counts at `offs` replaced by
/// their exclusive scan, from the range's carry `psum[g]`.
fn offs_pass(l: &mut Lower) -> String {
    let (n, per) = (extra(l, "n"), extra(l, "iper"));
    let (offs, psum) = (gptr(l, "offs"), gptr(l, "psum"));
    let id = ids(l);
    let g = global_id(l, &id);
    let zero = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {zero}, 0;"));
    let (s, end) = chunk(l, &zero, &g, &per, &n);
    let run = ld64(l, &psum, &g);
    let (top, done) = (l.label("xo"), l.label("xoe"));
    l.put_label(&top);
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop}, {s}, {end};"));
    l.ins(format!("@{stop} bra {done};"));
    let c = ld64(l, &offs, &s);
    st64(l, &offs, &s, &run);
    l.ins(format!("add.u64 {run}, {run}, {c};"));
    l.ins(format!("add.u64 {s}, {s}, 1;"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    l.ins("ret;");
    String::new()
}
