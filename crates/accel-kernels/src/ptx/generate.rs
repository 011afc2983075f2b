//! The generate skeleton: a grid-stride loop over the output, one thread per
//! element, or per quad of four with 16-byte loads and stores (`super::vector`),
//! or with whole warps together when their threads share long segments
//! (`super::segments`).

use super::blocks::{elem_at, extra, global_id, ids, Dest};
use super::lower::{leaves, Class, Lower, Unsupported, WarpLoops};
use super::{segments, vector};
use accel_core::plan::ElemFn;

pub(super) fn generate(l: &mut Lower, e: &ElemFn, out: &Dest) -> Result<(), Unsupported> {
    let loops = segments::loops(l.a, e);
    if !loops.is_empty() {
        return by_warps(l, e, out, loops);
    }
    let t = &out.ty;
    let n = extra(l, "n");
    let id = ids(l);
    let g = global_id(l, &id);
    let stride = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
    // Quads with 16-byte accesses where they apply, then element by element.
    let i = l.reg(Class::Rd);
    match vector::quad(l, e, &leaves(t)) {
        Some(q) => vector::generate_quads(l, &q, e, out, &g, &stride, &n, &i)?,
        None => l.ins(format!("mov.b64 {i}, {g};")),
    }
    let (top, end) = (l.label("gen"), l.label("gend"));
    l.put_label(&top);
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {i}, {n};"));
    l.ins(format!("@{done} bra {end};"));
    let v = elem_at(l, e, &i)?;
    out.store(l, &i, &v);
    l.ins(format!("add.u64 {i}, {i}, {stride};"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    Ok(())
}

/// A grid-stride loop in which whole warps stay together, for the shared
/// segment loops `loops`. The host's `spread` says how many threads take
/// each element: 1, each computing its own and the warp sharing their long
/// segments, or 32, the warp's lanes all on one element, lane 0 storing it.
/// The warp goes round the loop while its first element is in the output,
/// its threads past the end computing the last element again (their stores
/// skipped), so that every lane reaches each shared loop's shuffles.
fn by_warps(l: &mut Lower, e: &ElemFn, out: &Dest, loops: Vec<accel_core::ir::H>) -> Result<(), Unsupported> {
    let n = extra(l, "n");
    let spread = extra(l, "spread");
    let id = ids(l);
    let g = global_id(l, &id);
    let stride = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
    let lane = l.reg(Class::R);
    l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
    let (lane64, first) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("cvt.u64.u32 {lane64}, {lane};"));
    // Spread: the warp's element is its number, and lane 0 stores it.
    let (whole, offset, lead) = (l.reg(Class::P), l.reg(Class::Rd), l.reg(Class::P));
    l.ins(format!("setp.eq.u64 {whole}, {spread}, 32;"));
    l.ins(format!("sub.u64 {first}, {g}, {lane64};"));
    l.ins(format!("mov.b64 {offset}, {lane64};"));
    l.ins(format!("@{whole} shr.u64 {first}, {g}, 5;"));
    l.ins(format!("@{whole} shr.u64 {stride}, {stride}, 5;"));
    l.ins(format!("@{whole} mov.b64 {offset}, 0;"));
    l.ins(format!("setp.eq.u32 {lead}, {lane}, 0;"));
    l.ins(format!("@!{whole} setp.eq.u32 {lead}, 0, 0;"));
    let (last, i, inside) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::P));
    l.ins(format!("sub.u64 {last}, {n}, 1;"));
    let (top, end) = (l.label("wgen"), l.label("wgend"));
    l.put_label(&top);
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {first}, {n};"));
    l.ins(format!("@{done} bra {end};"));
    l.ins(format!("add.u64 {i}, {first}, {offset};"));
    l.ins(format!("setp.lt.u64 {inside}, {i}, {n};"));
    l.ins(format!("and.pred {inside}, {inside}, {lead};"));
    l.ins(format!("min.u64 {i}, {i}, {last};"));
    l.warp_loops = Some(WarpLoops {
        loops,
        lane: lane.clone(),
        whole: whole.clone(),
    });
    let v = elem_at(l, e, &i);
    l.warp_loops = None;
    let v = v?;
    let skip = l.label("wgskip");
    l.ins(format!("@!{inside} bra {skip};"));
    out.store(l, &i, &v);
    l.put_label(&skip);
    l.ins(format!("add.u64 {first}, {first}, {stride};"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    Ok(())
}
