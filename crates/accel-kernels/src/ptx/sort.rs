//! The PTX entries of a radix sort (`KernelOp::Sort`): least significant
//! digit first, `DIGIT_BITS` bits per pass, stable.
//!
//! * `skeys`: each element's key, and its index (the payload the passes move).
//! * Per pass, over tiles of `TILE` elements (a block each, one element per
//!   thread): `scount` counts the tile's digits, into `counts[digit][tile]`;
//!   an exclusive scan turns the counts into each tile's first position per
//!   digit: `sscan` alone (one block: `expand`'s scan) for few counts, else
//!   `sreduce` (a sum per block of a range of counts), `sscan` of those sums
//!   and `sapply` (each block's range scanned from its sum's prefix); `sscatter` moves each key and
//!   index to its tile's position for its digit plus its rank among the
//!   tile's elements of that digit before it. Ranks come from warp ballots
//!   (one per digit value) and the per-warp counts in shared memory, so equal
//!   digits keep their order: the sort is stable.
//! * `sgather`: output `j` is the element at the `j`-th sorted index.
//!
//! The elements are computed twice (for their keys, and at the end), never
//! moved by the passes, so tuples of any width cost the passes nothing.

use super::blocks::{
    chunk, elem_at, extra, global_id, gptr, ids, l_prefix, ld64, scan_block_pass, scan_pass, shfl_down, st64,
    store_elem, strided, task_loop, wide,
};
use super::lower::{Class, Lower, Unsupported};
use accel_core::ir::{Prim, Ty};
use accel_core::plan::{Kernel, KernelOp};
use accel_types::launch::SortEntry;

/// Elements per tile, and the block size of `scount` and `sscatter`.
pub const TILE: usize = accel_types::launch::BLOCK_THREADS;
pub const DIGIT_BITS: u32 = 4;
const DIGITS: u32 = 1 << DIGIT_BITS;
const WARPS: u32 = TILE as u32 / 32;

/// The body of entry `pass` of sort kernel `k`; returns its shared declarations.
pub fn pass(l: &mut Lower, k: &Kernel, out_ty: &Ty, pass: SortEntry) -> Result<String, Unsupported> {
    let KernelOp::Sort {
        elem, key, key_bits, ..
    } = &k.op
    else {
        return Err(Unsupported::Internal("a sort pass of another kernel".into()));
    };
    let wide_key = *key_bits > 32;
    match pass {
        SortEntry::Keys => {
            let (n, keys, idx) = (extra(l, "n"), gptr(l, "keys"), gptr(l, "idx"));
            grid_stride(l, &n, |l, i| {
                let x = elem_at(l, elem, i)?;
                let old = l.bind(key.params[0], x);
                let kv = l.expr(key.body);
                l.unbind(key.params[0], old);
                l.store(&keys, i, key_prim(wide_key), &kv?[0], false);
                st64(l, &idx, i, i);
                Ok(())
            })
        }
        SortEntry::Count => Ok(count_pass(l, wide_key)),
        SortEntry::Scan => Ok(scan_pass(l)),
        SortEntry::Reduce => reduce_pass(l),
        SortEntry::Apply => Ok(scan_block_pass(l)),
        SortEntry::Scatter => Ok(scatter_pass(l, wide_key)),
        SortEntry::Gather => {
            let (n, idx) = (extra(l, "n"), gptr(l, "idx"));
            let out = k.outputs[0].0;
            grid_stride(l, &n, |l, j| {
                let s = ld64(l, &idx, j);
                let x = elem_at(l, elem, &s)?;
                store_elem(l, out, j, &x, out_ty);
                Ok(())
            })
        }
    }
}

/// `task_loop` (a grid-stride loop), as a whole entry without shared memory.
fn grid_stride(
    l: &mut Lower,
    n: &str,
    mut body: impl FnMut(&mut Lower, &str) -> Result<(), Unsupported>,
) -> Result<String, Unsupported> {
    task_loop(l, n, &mut body)?;
    Ok(String::new())
}

/// The key's type in the key buffers.
fn key_prim(wide_key: bool) -> Prim {
    if wide_key {
        Prim::U64
    } else {
        Prim::U32
    }
}

/// A tile's element as one thread sees it, after the block has ranked the
/// tile's digits: the per-warp counts `wc[warp][digit]` are in shared memory.
struct Tile {
    /// The element's position, and whether it exists (the last tile is short).
    i: String,
    valid: String,
    key: String,
    /// The digit (`DIGITS` past the end, for threads without an element).
    digit: String,
    warp: String,
    /// Elements of the same digit before this one in its warp.
    rank: String,
    /// The shared counts: the array's name, and its address.
    wc_name: String,
    wc: String,
    ctaid: String,
    nctaid: String,
    tid: String,
}

/// Loads the thread's key from `ksrc`, takes its digit at `shift`, and ranks
/// the tile's digits per warp (a ballot per digit value), the counts into
/// shared memory. Every thread of the block runs it (the ballots and the
/// barrier need them all).
fn rank_tile(l: &mut Lower, wide_key: bool) -> Tile {
    let (n, shift) = (extra(l, "n"), extra(l, "shift"));
    let ksrc = gptr(l, "ksrc");
    let id = ids(l);
    let i = global_id(l, &id);
    let valid = l.reg(Class::P);
    l.ins(format!("setp.lt.u64 {valid}, {i}, {n};"));
    let (kc, kw) = if wide_key { (Class::Rd, 8) } else { (Class::R, 4) };
    let key = l.reg(kc);
    let a = l.reg(Class::Rd);
    let bits = if wide_key { 64 } else { 32 };
    l.ins(format!("mov.b{bits} {key}, 0;"));
    l.ins(format!("mad.lo.u64 {a}, {i}, {kw}, {ksrc};"));
    l.ins(format!("@{valid} ld.global.b{bits} {key}, [{a}];"));
    let (sh32, digit) = (l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("cvt.u32.u64 {sh32}, {shift};"));
    if wide_key {
        let t = l.reg(Class::Rd);
        l.ins(format!("shr.b64 {t}, {key}, {sh32};"));
        l.ins(format!("cvt.u32.u64 {digit}, {t};"));
    } else {
        l.ins(format!("shr.b32 {digit}, {key}, {sh32};"));
    }
    l.ins(format!("and.b32 {digit}, {digit}, {};", DIGITS - 1));
    l.ins(format!("@!{valid} mov.u32 {digit}, {DIGITS};"));
    let (lane, warp, lt, rank) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
    l.ins(format!("shr.u32 {warp}, {}, 5;", id.tid));
    l.ins(format!("mov.u32 {lt}, %lanemask_lt;"));
    l.ins(format!("mov.u32 {rank}, 0;"));
    let wc = format!("{}_wc", l_prefix(l));
    let wcb = l.reg(Class::Rd);
    l.ins(format!("mov.u64 {wcb}, {wc};"));
    let lane0 = l.reg(Class::P);
    l.ins(format!("setp.eq.u32 {lane0}, {lane}, 0;"));
    // This warp's row of counts: `wc + 4 * DIGITS * warp`.
    let row = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {row}, {warp}, {};", 4 * DIGITS));
    l.ins(format!("add.u64 {row}, {row}, {wcb};"));
    let (is, m, t, c) = (l.reg(Class::P), l.reg(Class::R), l.reg(Class::R), l.reg(Class::R));
    for v in 0..DIGITS {
        l.ins(format!("setp.eq.u32 {is}, {digit}, {v};"));
        l.ins(format!("vote.sync.ballot.b32 {m}, {is}, -1;"));
        l.ins(format!("and.b32 {t}, {m}, {lt};"));
        l.ins(format!("@{is} popc.b32 {rank}, {t};"));
        l.ins(format!("popc.b32 {c}, {m};"));
        l.ins(format!("@{lane0} st.shared.u32 [{row}+{}], {c};", 4 * v));
    }
    l.ins("bar.sync 0;");
    Tile {
        i,
        valid,
        key,
        digit,
        warp,
        rank,
        wc_name: wc,
        wc: wcb,
        ctaid: id.ctaid,
        nctaid: id.nctaid,
        tid: id.tid,
    }
}

/// `counts[digit * tiles + tile]` for the digits of this thread's index
/// (threads below `DIGITS`): the tile's count, summed over its warps.
fn count_pass(l: &mut Lower, wide_key: bool) -> String {
    let counts = gptr(l, "counts");
    let t = rank_tile(l, wide_key);
    let done = l.label("scd");
    let skip = l.reg(Class::P);
    l.ins(format!("setp.ge.u32 {skip}, {}, {DIGITS};", t.tid));
    l.ins(format!("@{skip} bra {done};"));
    let (sum, v, a) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::Rd));
    l.ins(format!("mov.u32 {sum}, 0;"));
    let tid = wide(l, &t.tid);
    l.ins(format!("mad.lo.u64 {a}, {tid}, 4, {};", t.wc));
    for w in 0..WARPS {
        l.ins(format!("ld.shared.u32 {v}, [{a}+{}];", 4 * DIGITS * w));
        l.ins(format!("add.u32 {sum}, {sum}, {v};"));
    }
    let (slot, s64) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mul.wide.u32 {slot}, {}, {};", t.tid, t.nctaid));
    let c = wide(l, &t.ctaid);
    l.ins(format!("add.u64 {slot}, {slot}, {c};"));
    l.ins(format!("cvt.u64.u32 {s64}, {sum};"));
    st64(l, &counts, &slot, &s64);
    l.put_label(&done);
    l.ins("ret;");
    shared(&t)
}

/// Block `b`: `part[b]`, the sum of the `bper` counts at `psum` from `b *
/// bper`. Integers, so in any order: thread `t` takes counts `t`, `t +
/// ntid`, .. of the range (a warp's loads are coalesced), the warps' sums
/// are added by thread 0.
fn reduce_pass(l: &mut Lower) -> Result<String, Unsupported> {
    let (tn, bper) = (extra(l, "tn"), extra(l, "bper"));
    let (psum, part) = (gptr(l, "psum"), gptr(l, "part"));
    let id = ids(l);
    let (tid, b) = (wide(l, &id.tid), wide(l, &id.ctaid));
    let zero = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {zero}, 0;"));
    let (first, limit) = chunk(l, &zero, &b, &bper, &tn);
    let (sum, k, step) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mov.b64 {sum}, 0;"));
    l.ins(format!("add.u64 {k}, {first}, {tid};"));
    l.ins(format!("cvt.u64.u32 {step}, {};", id.ntid));
    strided(l, &k, &step, &limit, &mut |l, k| {
        let v = ld64(l, &psum, k);
        l.ins(format!("add.u64 {sum}, {sum}, {v};"));
        Ok(())
    })?;
    // The block's sum: each warp's by shuffles, the warps' by thread 0.
    for off in [16, 8, 4, 2, 1] {
        let o = shfl_down(l, &sum, Prim::U64, off);
        l.ins(format!("add.u64 {sum}, {sum}, {o};"));
    }
    let sh = format!("{}_sr", l_prefix(l));
    let lane = l.reg(Class::R);
    l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
    let not_first = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {not_first}, {lane}, 0;"));
    let (warp, a, base) = (l.reg(Class::R), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("shr.u32 {warp}, {}, 5;", id.tid));
    l.ins(format!("mov.u64 {base}, {sh};"));
    l.ins(format!("mul.wide.u32 {a}, {warp}, 8;"));
    l.ins(format!("add.u64 {a}, {a}, {base};"));
    let skip = l.label("srw");
    l.ins(format!("@{not_first} bra {skip};"));
    l.ins(format!("st.shared.u64 [{a}], {sum};"));
    l.put_label(&skip);
    l.ins("bar.sync 0;");
    let end = l.label("srd");
    let not_zero = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {not_zero}, {}, 0;", id.tid));
    l.ins(format!("@{not_zero} bra {end};"));
    let total = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {total}, 0;"));
    for w in 0..WARPS {
        let v = l.reg(Class::Rd);
        l.ins(format!("ld.shared.u64 {v}, [{base}+{}];", 8 * w));
        l.ins(format!("add.u64 {total}, {total}, {v};"));
    }
    st64(l, &part, &b, &total);
    l.put_label(&end);
    l.ins("ret;");
    Ok(format!("\t.shared .align 8 .b8 {sh}[{}];\n", 8 * WARPS))
}

/// Each element's key and index from `ksrc`, `isrc` to `kdst`, `idst` at
/// `counts[digit * tiles + tile]` (scanned) plus the elements of its digit
/// before it in the tile: those of the warps before, then its rank.
fn scatter_pass(l: &mut Lower, wide_key: bool) -> String {
    let counts = gptr(l, "counts");
    let (isrc, kdst, idst) = (gptr(l, "isrc"), gptr(l, "kdst"), gptr(l, "idst"));
    let t = rank_tile(l, wide_key);
    let done = l.label("ssd");
    l.ins(format!("@!{} bra {done};", t.valid));
    // Same-digit elements of the warps before this one.
    let (pre, v, w, a) = (
        l.reg(Class::R),
        l.reg(Class::R),
        l.reg(Class::R),
        l.reg(Class::Rd),
    );
    l.ins(format!("mov.u32 {pre}, {};", t.rank));
    l.ins(format!("mov.u32 {w}, 0;"));
    let d64 = wide(l, &t.digit);
    l.ins(format!("mad.lo.u64 {a}, {d64}, 4, {};", t.wc));
    let (top, end) = (l.label("ssw"), l.label("sswe"));
    l.put_label(&top);
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u32 {stop}, {w}, {};", t.warp));
    l.ins(format!("@{stop} bra {end};"));
    l.ins(format!("ld.shared.u32 {v}, [{a}];"));
    l.ins(format!("add.u32 {pre}, {pre}, {v};"));
    l.ins(format!("add.u64 {a}, {a}, {};", 4 * DIGITS));
    l.ins(format!("add.u32 {w}, {w}, 1;"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    let slot = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {slot}, {}, {};", t.digit, t.nctaid));
    let c = wide(l, &t.ctaid);
    l.ins(format!("add.u64 {slot}, {slot}, {c};"));
    let base = ld64(l, &counts, &slot);
    let pos = l.reg(Class::Rd);
    let p64 = wide(l, &pre);
    l.ins(format!("add.u64 {pos}, {base}, {p64};"));
    l.store(&kdst, &pos, key_prim(wide_key), &t.key, false);
    let ix = ld64(l, &isrc, &t.i);
    st64(l, &idst, &pos, &ix);
    l.put_label(&done);
    l.ins("ret;");
    shared(&t)
}

/// The declaration of the tile's per-warp counts.
fn shared(t: &Tile) -> String {
    format!("\t.shared .align 4 .b8 {}[{}];\n", t.wc_name, 4 * DIGITS * WARPS)
}
