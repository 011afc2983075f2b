//! The fold skeletons: a fold to a scalar (pass 1: each thread reduces a
//! contiguous range, or every so many elements for a commutative `f`; the
//! block reduces in order and writes one partial; pass 2 reduces the
//! partials with `z`), and a fold of each innermost row (a warp per short
//! row, a block per long one; the host picks). Either folds a kernel's
//! element function, or a generate's elements, stored as they are made, with
//! the fold in the generate's pass ([`Elems`]).

use super::blocks::{
    apply2, block_reduce, chunk, elem_at, extra, global_id, ids, iter_dims, l_prefix, reduce_range,
    reduce_strided, row_loop, shared_decl, warp_reduce, wide, Dest, Ids, Load, Out, Reduced, MAX_WARPS,
};
use super::lower::{leaves, Arg, Class, Lower, Unsupported};
use super::vector;
use accel_core::ir::{Fun, Ty};
use accel_core::plan::{ElemFn, PassFold};

/// What a fold skeleton folds.
#[derive(Clone, Copy)]
pub(super) enum Elems<'a> {
    /// A fold kernel's element function.
    Of(&'a ElemFn),
    /// The elements of a generate `gen`, each stored to `dest` as it is
    /// made and then folded as `fold` takes it (a fold in the generate's
    /// pass: the generate's array is written once and never read back).
    Pass {
        gen: &'a ElemFn,
        dest: &'a Dest,
        fold: &'a PassFold,
    },
}

impl<'a> Elems<'a> {
    /// The element to fold at row-major offset `j`.
    fn at(self, l: &mut Lower, j: &str) -> Result<Vec<String>, Unsupported> {
        match self {
            Elems::Of(e) => elem_at(l, e, j),
            Elems::Pass { gen, dest, fold } => {
                let v = elem_at(l, gen, j)?;
                dest.store(l, j, &v);
                // `|value, ix|`: the fold's element from the generate's.
                let (value, ix) = (fold.elem.params[0], fold.elem.params[1]);
                let rank = match &l.a.var(ix).ty {
                    Ty::Index(r) => *r,
                    _ => 1,
                };
                let dims = iter_dims(l, rank);
                let at = l.delinearize(j, &dims);
                let old_v = l.bind(value, v);
                let old_ix = l.bind(ix, at);
                let r = l.expr(fold.elem.body);
                l.unbind(ix, old_ix);
                l.unbind(value, old_v);
                r
            }
        }
    }

    /// Quads of four elements with 16-byte loads, where they apply (not to
    /// a generate's pass, whose stores go element by element).
    fn quad(self, l: &mut Lower) -> Option<(vector::Quad, &'a ElemFn)> {
        match self {
            Elems::Of(e) => vector::quad(l, e, &[]).map(|q| (q, e)),
            Elems::Pass { .. } => None,
        }
    }
}

pub(super) fn fold_part(l: &mut Lower, e: Elems, f: &Fun, t: &Ty) -> Result<String, Unsupported> {
    let n = extra(l, "n");
    let per = extra(l, "per");
    let id = ids(l);
    let g = global_id(l, &id);
    let mut load = |l: &mut Lower, j: &str| e.at(l, j);
    let (acc, have) = if accel_core::plan::commutative(l.a, f) {
        // Any order will do: the threads that have elements (`ceil(n / per)`,
        // as in the contiguous split, so the same blocks have results) take
        // every so many, and neighbouring threads read neighbouring elements.
        let threads = l.reg(Class::Rd);
        l.ins(format!("add.u64 {threads}, {n}, {per};"));
        l.ins(format!("sub.u64 {threads}, {threads}, 1;"));
        l.ins(format!("div.u64 {threads}, {threads}, {per};"));
        let mut by_one = |l: &mut Lower| reduce_strided(l, &g, &threads, &threads, &n, f, t, &mut load);
        match e.quad(l) {
            Some((q, e)) => vector::reduce_quads(l, &q, e, &g, &threads, &n, f, t, &mut by_one)?,
            None => by_one(l)?,
        }
    } else {
        let zero = l.reg(Class::Rd);
        l.ins(format!("mov.b64 {zero}, 0;"));
        let (s, en) = chunk(l, &zero, &g, &per, &n);
        reduce_range(l, &s, &en, f, t, &mut load)?
    };
    let sh = l_prefix(l);
    block_reduce(l, &id, &acc, &have, f, t, &sh)?;
    let done = l.label("pdone");
    let p = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {p}, {}, 0;", id.tid));
    l.ins(format!("@{p} bra {done};"));
    let c = wide(l, &id.ctaid);
    for (k, (r, pr)) in acc.iter().zip(leaves(t)).enumerate() {
        let base = l.param(Arg::Part(k))[0].clone();
        l.store(&base, &c, pr, r, false);
    }
    l.put_label(&done);
    l.ins("ret;");
    Ok(shared_decl(&sh, t, MAX_WARPS * 4))
}

fn combine_z(
    l: &mut Lower,
    z: bool,
    f: &Fun,
    acc: &[String],
    have: &str,
    t: &Ty,
) -> Result<Vec<String>, Unsupported> {
    if !z {
        return Ok(acc.to_vec());
    }
    let zv: Vec<String> = leaves(t)
        .into_iter()
        .enumerate()
        .flat_map(|(k, p)| l.param(Arg::Z(k, p)))
        .collect();
    let out = l.fresh(t);
    l.assign(&out, &zv, t);
    let skip = l.label("noz");
    let p = l.reg(Class::P);
    l.ins(format!("setp.eq.u32 {p}, {have}, 0;"));
    l.ins(format!("@{p} bra {skip};"));
    let v = apply2(l, f, &zv, acc)?;
    l.assign(&out, &v, t);
    l.put_label(&skip);
    Ok(out)
}

pub(super) fn fold_final(l: &mut Lower, z: bool, f: &Fun, out: &Out, t: &Ty) -> Result<String, Unsupported> {
    let nparts = extra(l, "nparts");
    let per = extra(l, "per");
    let id = ids(l);
    let tid = wide(l, &id.tid);
    let zero = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {zero}, 0;"));
    let (s, en) = chunk(l, &zero, &tid, &per, &nparts);
    let ps = leaves(t);
    let mut load = |l: &mut Lower, j: &str| -> Result<Vec<String>, Unsupported> {
        let mut v = Vec::new();
        for (k, p) in ps.iter().enumerate() {
            let base = l.param(Arg::Part(k))[0].clone();
            v.push(l.load(&base, j, *p, false));
        }
        Ok(v)
    };
    let (acc, have) = reduce_range(l, &s, &en, f, t, &mut load)?;
    let sh = l_prefix(l);
    block_reduce(l, &id, &acc, &have, f, t, &sh)?;
    let done = l.label("fdone");
    let p = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {p}, {}, 0;", id.tid));
    l.ins(format!("@{p} bra {done};"));
    let v = combine_z(l, z, f, &acc, &have, t)?;
    out.store(l, &zero, &v)?;
    l.put_label(&done);
    l.ins("ret;");
    Ok(shared_decl(&sh, t, MAX_WARPS * 4))
}

/// Thread `k` of `threads` folding the row `first..limit`: a contiguous
/// range of `per` elements, so that the partial results combine in index
/// order, or for a commutative `f` every `threads`-th element from `first +
/// k`, so that neighbouring threads read neighbouring elements.
#[allow(clippy::too_many_arguments)]
fn row_part(
    l: &mut Lower,
    first: &str,
    limit: &str,
    k: &str,
    threads: &str,
    per: &str,
    f: &Fun,
    t: &Ty,
    load: &mut Load,
) -> Result<Reduced, Unsupported> {
    if accel_core::plan::commutative(l.a, f) {
        let start = l.reg(Class::Rd);
        l.ins(format!("add.u64 {start}, {first}, {k};"));
        reduce_strided(l, &start, threads, limit, limit, f, t, load)
    } else {
        let (s, en) = chunk(l, first, k, per, limit);
        reduce_range(l, &s, &en, f, t, load)
    }
}

pub(super) fn fold_rows(
    l: &mut Lower,
    e: Elems,
    z: bool,
    f: &Fun,
    out: &Out,
    t: &Ty,
) -> Result<String, Unsupported> {
    let len = extra(l, "len");
    let id = ids(l);
    let sh = l_prefix(l);
    let tid = wide(l, &id.tid);
    // Elements per thread, from the host (`host::fold_row_split`).
    let per = extra(l, "per");
    let tidc = id.tid.clone();
    let ntid = wide(l, &id.ntid);
    let mut body = |l: &mut Lower, row: &str| -> Result<(), Unsupported> {
        let (first, limit) = (l.reg(Class::Rd), l.reg(Class::Rd));
        l.ins(format!("mul.lo.u64 {first}, {row}, {len};"));
        l.ins(format!("add.u64 {limit}, {first}, {len};"));
        let mut load = |l: &mut Lower, j: &str| e.at(l, j);
        let (acc, have) = row_part(l, &first, &limit, &tid, &ntid, &per, f, t, &mut load)?;
        let idr = Ids {
            tid: tidc.clone(),
            ntid: id.ntid.clone(),
            ctaid: id.ctaid.clone(),
            nctaid: id.nctaid.clone(),
        };
        block_reduce(l, &idr, &acc, &have, f, t, &sh)?;
        let done = l.label("rwdone");
        let p = l.reg(Class::P);
        l.ins(format!("setp.ne.u32 {p}, {tidc}, 0;"));
        l.ins(format!("@{p} bra {done};"));
        let v = combine_z(l, z, f, &acc, &have, t)?;
        out.store(l, row, &v)?;
        l.put_label(&done);
        Ok(())
    };
    row_loop(l, &id, &mut body)?;
    Ok(shared_decl(&sh, t, MAX_WARPS * 4))
}

/// Short rows: a warp per row, each lane a contiguous range of `per`
/// elements (strided for a commutative `f`: `row_part`), combined in order
/// by the warp's shuffles; no shared memory and
/// no block barrier, so the warps of a block take rows independently.
pub(super) fn fold_rows_warp(
    l: &mut Lower,
    e: Elems,
    z: bool,
    f: &Fun,
    out: &Out,
    t: &Ty,
) -> Result<String, Unsupported> {
    let (len, per, rows) = (extra(l, "len"), extra(l, "per"), extra(l, "rows"));
    let id = ids(l);
    let (lane, warp, wpb) = (l.reg(Class::R), l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("and.b32 {lane}, {}, 31;", id.tid));
    l.ins(format!("shr.u32 {warp}, {}, 5;", id.tid));
    l.ins(format!("shr.u32 {wpb}, {}, 5;", id.ntid));
    let (row, step) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mul.wide.u32 {row}, {}, {wpb};", id.ctaid));
    let w = wide(l, &warp);
    l.ins(format!("add.u64 {row}, {row}, {w};"));
    l.ins(format!("mul.wide.u32 {step}, {}, {wpb};", id.nctaid));
    let lane64 = wide(l, &lane);
    let warp_size = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {warp_size}, 32;"));
    let (top, end) = (l.label("wrow"), l.label("wrowend"));
    l.put_label(&top);
    let p = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {p}, {row}, {rows};"));
    l.ins(format!("@{p} bra {end};"));
    let (first, limit) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mul.lo.u64 {first}, {row}, {len};"));
    l.ins(format!("add.u64 {limit}, {first}, {len};"));
    let mut load = |l: &mut Lower, j: &str| e.at(l, j);
    let (acc, have) = row_part(l, &first, &limit, &lane64, &warp_size, &per, f, t, &mut load)?;
    warp_reduce(l, &acc, &have, &lane, f, t)?;
    let done = l.label("wrdone");
    let nz = l.reg(Class::P);
    l.ins(format!("setp.ne.u32 {nz}, {lane}, 0;"));
    l.ins(format!("@{nz} bra {done};"));
    let v = combine_z(l, z, f, &acc, &have, t)?;
    out.store(l, &row, &v)?;
    l.put_label(&done);
    l.ins(format!("add.u64 {row}, {row}, {step};"));
    l.ins(format!("bra {top};"));
    l.put_label(&end);
    l.ins("ret;");
    Ok(String::new())
}
