//! The generate skeleton: a grid-stride loop over the output, one thread per
//! element, or per quad of four with 16-byte loads and stores (`super::vector`),
//! or a warp per element when the element folds segments (`super::segments`).

use super::blocks::{elem_at, extra, global_id, ids, Dest};
use super::lower::{leaves, Class, Lower, Unsupported};
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

/// A grid-stride loop of warps (the host launches 32 threads per element):
/// every lane computes the element, sharing the segment loops `loops`, and
/// lane 0 stores it. All the control flow of an element is the same in
/// every lane of its warp, so the lanes meet at each loop's shuffles.
fn by_warps(l: &mut Lower, e: &ElemFn, out: &Dest, loops: Vec<accel_core::ir::H>) -> Result<(), Unsupported> {
    let n = extra(l, "n");
    let id = ids(l);
    let g = global_id(l, &id);
    let (i, stride) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("shr.u64 {i}, {g}, 5;"));
    l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
    l.ins(format!("shr.u64 {stride}, {stride}, 5;"));
    let lane = l.reg(Class::R);
    l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
    let first = l.reg(Class::P);
    l.ins(format!("setp.eq.u32 {first}, {lane}, 0;"));
    let (top, end) = (l.label("wgen"), l.label("wgend"));
    l.put_label(&top);
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {i}, {n};"));
    l.ins(format!("@{done} bra {end};"));
    l.warp_loops = Some((loops, lane));
    let v = elem_at(l, e, &i);
    l.warp_loops = None;
    let v = v?;
    let skip = l.label("wgskip");
    l.ins(format!("@!{first} bra {skip};"));
    out.store(l, &i, &v);
    l.put_label(&skip);
    l.ins(format!("add.u64 {i}, {i}, {stride};"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    Ok(())
}
