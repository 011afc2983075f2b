//! The permute skeleton: the host copies the defaults into the output; each
//! source element then combines into its target (`blocks::combine_at`).

use super::blocks::{combine_at, elem_at, extra, global_id, ids, iter_dims};
use super::lower::{Arg, Class, Lower, Unsupported};
use accel_core::ir::ErrorKind;
use accel_core::ir::{Fun, Loc, Ty};
use accel_core::plan::ElemFn;

pub(super) fn permute(
    l: &mut Lower,
    e: &ElemFn,
    index: &Fun,
    combine: &Fun,
    out: u32,
    t: &Ty,
    out_rank: usize,
    at: Option<Loc>,
) -> Result<(), Unsupported> {
    let n = extra(l, "n");
    let lock = extra(l, "lock");
    let lockg = l.reg(Class::Rd);
    l.ins(format!("cvta.to.global.u64 {lockg}, {lock};"));
    let id = ids(l);
    let i = global_id(l, &id);
    let stride = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
    let src_rank = match &l.a.var(index.params[0]).ty {
        Ty::Index(r) => *r,
        _ => 0,
    };
    let (top, end, next) = (l.label("pm"), l.label("pme"), l.label("pmn"));
    l.put_label(&top);
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {i}, {n};"));
    l.ins(format!("@{done} bra {end};"));
    let dims = iter_dims(l, src_rank);
    let ix = l.delinearize(&i, &dims);
    let old = l.bind(index.params[0], ix);
    let target = l.expr(index.body)?;
    l.unbind(index.params[0], old);
    l.ins(format!("@!{} bra {next};", target[0]));
    let tix = target[1..].to_vec();
    let odims: Vec<String> = (0..out_rank)
        .map(|d| l.param(Arg::Dim(out, d))[0].clone())
        .collect();
    let ok = l.in_bounds(&tix, &odims);
    let inb = l.label("pin");
    l.ins(format!("@{ok} bra {inb};"));
    l.fail(ErrorKind::IndexOutOfBounds, "permute", "index out of bounds", at);
    l.ins(format!("bra {next};"));
    l.put_label(&inb);
    let tl = l.linearize_in(&tix, &odims);
    let v = elem_at(l, e, &i)?;
    combine_at(l, combine, out, t, &tl, &v, &lockg)?;
    l.put_label(&next);
    l.ins(format!("add.u64 {i}, {i}, {stride};"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    Ok(())
}
