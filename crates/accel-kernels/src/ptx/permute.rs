//! The permute skeleton: the host copies the defaults into the output; each
//! source element then combines into its target (`blocks::combine_at`).
//! Where the combination is a native atomic per field and the output is
//! small, a second entry combines into a table per block in shared memory
//! first and merges each table into the output once (a histogram's bins:
//! one global atomic per block and bin instead of one per element, and no
//! queue of atomics on a hot bin).

use super::blocks::{
    atomic_fields, combine_at, elem_at, extra, global_id, ids, iter_dims, l_prefix, strided, Ids, Red,
};
use super::lower::{class, leaves, Arg, Class, Lower, Unsupported};
use accel_core::ir::ErrorKind;
use accel_core::ir::{Fun, Loc, Ty};
use accel_core::plan::ElemFn;
use accel_types::launch::private_bins;
use std::fmt::Write;

/// The permute's source, target and combination.
pub(super) struct Scatter<'a> {
    pub(super) e: &'a ElemFn,
    pub(super) index: &'a Fun,
    pub(super) combine: &'a Fun,
    pub(super) out: u32,
    pub(super) t: &'a Ty,
    pub(super) out_rank: usize,
    pub(super) at: Option<Loc>,
}

/// The bytes of one element of a private table: its leaves' widths.
pub fn elem_bytes(t: &Ty) -> usize {
    leaves(t).into_iter().map(|p| p.width() as usize / 8).sum()
}

/// Whether [`private`] applies: every leaf combines by a native atomic.
pub(super) fn has_private(l: &Lower, s: &Scatter) -> bool {
    atomic_fields(l, s.combine, s.t).is_some()
}

/// What a permute does with a source element's value and its target's
/// row-major offset.
type Combine<'c> = dyn FnMut(&mut Lower, &[String], &str) -> Result<(), Unsupported> + 'c;

/// The grid-stride loop over the source elements: for each one whose index
/// function gives a target inside the output, `combine(l, value, target)`
/// with the target's row-major offset.
fn each_source(l: &mut Lower, s: &Scatter, id: &Ids, combine: &mut Combine) -> Result<(), Unsupported> {
    let n = extra(l, "n");
    let i = global_id(l, id);
    let stride = l.reg(Class::Rd);
    l.ins(format!("mul.wide.u32 {stride}, {}, {};", id.nctaid, id.ntid));
    let src_rank = match &l.a.var(s.index.params[0]).ty {
        Ty::Index(r) => *r,
        _ => 0,
    };
    strided(l, &i, &stride, &n, &mut |l, i| {
        let next = l.label("pmn");
        let dims = iter_dims(l, src_rank);
        let ix = l.delinearize(i, &dims);
        let old = l.bind(s.index.params[0], ix);
        let target = l.expr(s.index.body)?;
        l.unbind(s.index.params[0], old);
        l.ins(format!("@!{} bra {next};", target[0]));
        let tix = target[1..].to_vec();
        let odims: Vec<String> = (0..s.out_rank)
            .map(|d| l.param(Arg::Dim(s.out, d))[0].clone())
            .collect();
        let ok = l.in_bounds(&tix, &odims);
        let inb = l.label("pin");
        l.ins(format!("@{ok} bra {inb};"));
        l.fail(
            ErrorKind::IndexOutOfBounds,
            "permute",
            "index out of bounds",
            s.at,
        );
        l.ins(format!("bra {next};"));
        l.put_label(&inb);
        let tl = l.linearize_in(&tix, &odims);
        let v = elem_at(l, s.e, i)?;
        combine(l, &v, &tl)?;
        l.put_label(&next);
        Ok(())
    })
}

/// Each source element combined into its target in global memory.
pub(super) fn permute(l: &mut Lower, s: &Scatter) -> Result<(), Unsupported> {
    let lock = extra(l, "lock");
    let lockg = l.reg(Class::Rd);
    l.ins(format!("cvta.to.global.u64 {lockg}, {lock};"));
    let id = ids(l);
    each_source(l, s, &id, &mut |l, v, tl| {
        combine_at(l, s.combine, s.out, s.t, tl, v, &lockg)
    })?;
    l.ins("ret;");
    Ok(())
}

/// Each block combines into a table of `nout` targets in shared memory (the
/// host launches this entry only for outputs of at most `private_bins`
/// elements), which starts at the combination's identity; after a barrier
/// each thread merges some of the table's targets into the output, skipping
/// those still at the identity (no element of the block went there). Returns
/// the table's declarations.
pub(super) fn private(l: &mut Lower, s: &Scatter) -> Result<String, Unsupported> {
    let reds = atomic_fields(l, s.combine, s.t)
        .ok_or_else(|| Unsupported::Internal("a private permute of a combination without atomics".into()))?;
    let bins = private_bins(elem_bytes(s.t));
    let nout = extra(l, "nout");
    let id = ids(l);
    let sh = l_prefix(l);
    let mut decl = String::new();
    for (k, r) in reds.iter().enumerate() {
        let w = r.p.width() / 8;
        let _ = writeln!(decl, "\t.shared .align {w} .b8 {sh}_t{k}[{}];", bins * w as usize);
    }
    // The bins of this thread: tid, tid + ntid, .. below nout.
    let each_bin = |l: &mut Lower, body: &mut dyn FnMut(&mut Lower, &str) -> Result<(), Unsupported>| {
        let b = l.reg(Class::Rd);
        l.ins(format!("cvt.u64.u32 {b}, {};", id.tid));
        let step = l.reg(Class::Rd);
        l.ins(format!("cvt.u64.u32 {step}, {};", id.ntid));
        strided(l, &b, &step, &nout, body)
    };
    let slot = |l: &mut Lower, k: usize, r: &Red, b: &str| {
        let (base, a) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("mov.u64 {base}, {sh}_t{k};"));
        l.ins(format!("mad.lo.u64 {a}, {b}, {}, {base};", r.p.width() / 8));
        a
    };
    let bits = |r: &Red| if r.p.width() == 64 { "b64" } else { "b32" };
    let identity = |r: &Red| match r.p.width() {
        64 => format!("0x{:016X}", r.identity_bits()),
        _ => format!("0x{:08X}", r.identity_bits()),
    };
    // The table at the identity.
    each_bin(l, &mut |l, b| {
        for (k, r) in reds.iter().enumerate() {
            let a = slot(l, k, r, b);
            l.ins(format!("st.shared.{} [{a}], {};", bits(r), identity(r)));
        }
        Ok(())
    })?;
    l.ins("bar.sync 0;");
    // The block's sources, into the table.
    each_source(l, s, &id, &mut |l, v, tl| {
        for (k, r) in reds.iter().enumerate() {
            let a = slot(l, k, r, tl);
            l.ins(format!("red.shared.{} [{a}], {};", r.name(), v[k]));
        }
        Ok(())
    })?;
    l.ins("bar.sync 0;");
    // The table into the output, targets still at the identity (by their
    // bits: a float sum of `+0.0` is merged) skipped.
    each_bin(l, &mut |l, b| {
        for (k, r) in reds.iter().enumerate() {
            let a = slot(l, k, r, b);
            let wide = if r.p.width() == 64 { Class::Rd } else { Class::R };
            let (x, same, skip) = (l.reg(wide), l.reg(Class::P), l.label("pid"));
            l.ins(format!("ld.shared.{} {x}, [{a}];", bits(r)));
            l.ins(format!("setp.eq.{} {same}, {x}, {};", bits(r), identity(r)));
            l.ins(format!("@{same} bra {skip};"));
            let v = l.reg(class(r.p));
            l.ins(format!("mov.{} {v}, {x};", bits(r)));
            let base = l.param(Arg::Col(s.out, k))[0].clone();
            let g = l.reg(Class::Rd);
            l.ins(format!("mad.lo.u64 {g}, {b}, {}, {base};", r.p.width() / 8));
            l.ins(format!("red.global.{} [{g}], {v};", r.name()));
            l.put_label(&skip);
        }
        Ok(())
    })?;
    l.ins("ret;");
    Ok(decl)
}
