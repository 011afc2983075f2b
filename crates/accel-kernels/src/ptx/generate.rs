//! The generate skeleton: a grid-stride loop over the output, one thread per
//! element, or per quad of four with 16-byte loads and stores (`super::vector`).

use super::blocks::{elem_at, extra, global_id, ids, Dest};
use super::lower::{leaves, Class, Lower, Unsupported};
use super::vector;
use accel_core::plan::ElemFn;

pub(super) fn generate(l: &mut Lower, e: &ElemFn, out: &Dest) -> Result<(), Unsupported> {
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
