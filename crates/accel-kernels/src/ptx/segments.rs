//! Long segments shared by a warp: the loops of `fold_seg` and
//! `fold_seg_offsets` in a generate.
//!
//! The library builds a segmented fold as a generate with one sequential
//! loop per segment (`front::library::fold_seg`). One thread per segment
//! leaves a GPU idle when segments are long (a dense matrix's rows: few
//! threads, each reading its own row, uncoalesced) and waits on the longest
//! one when their lengths are skewed (a power-law matrix: one row of 153,528
//! values took 18.4 ms on an H200). When the combination is a sum, a
//! minimum, a maximum or a bit operation (associative and commutative), the
//! generate keeps its warps together ([`shared_loop`]): each thread folds
//! its own segment when it is short, and the warp then folds the long ones
//! of its threads together, one at a time: its lanes read 32 consecutive
//! elements per round (coalesced), four rounds before they wait on the
//! loads, each lane into its own accumulator, and the accumulators are
//! reduced across the warp. A short segment's result is the sequential one;
//! a long one's float sum may differ from it by rounding, as `fold`'s does.
//! Any other combination (`|a, x| a * 3 + x`) keeps one thread per
//! segment, and so do loops a user wrote in a generate: they promised
//! nothing about their grouping.

use super::blocks::{apply2, identity, shfl_from, shfl_xor};
use super::lower::{Class, Lower, Unsupported, WarpLoops};
use accel_core::ir::{Arena, BinOp, Expr, Fun, Lit, Prim, Scalar, Ty, VarId, H};
use accel_core::plan::{AtomicCombine, ElemFn};

/// Rounds of 32 elements a warp loads before it combines them.
const UNROLL: usize = 4;

/// The assertions the library wraps its segment loops in (their `op`).
const SEGMENT_FOLDS: [&str; 2] = ["fold_seg", "fold_seg_offsets"];

/// A loop `while(k = start, acc = z; k < end; k + 1, let a = acc; let b = x; f(a, b))`
/// whose `f` is one of `AtomicCombine`'s operations on a type with an
/// [`identity`] for it, and whose `end` and `x` do not read `acc`.
#[derive(Clone, Debug)]
pub(super) struct RangeFold {
    k: VarId,
    start: H,
    z: H,
    end: H,
    /// The element at `k`.
    x: H,
    /// `|a, b| f(a, b)`.
    f: Fun,
}

/// The segment loops of element function `e` that a warp can share: every
/// thread computing the element reaches them (none is under an `if`).
pub(super) fn loops(a: &Arena, e: &ElemFn) -> Vec<H> {
    let body = e.fun().body;
    let mut found = Vec::new();
    a.reaches(body, |_, x| {
        if let Expr::Scalar(Scalar::Assert { op, body, .. }) = x {
            if SEGMENT_FOLDS.contains(op) {
                if let Expr::Scalar(Scalar::Proj(w, 1)) = a.expr(*body) {
                    if range_fold(a, *w).is_some() {
                        found.push(*w);
                    }
                }
            }
        }
        false
    });
    found.sort();
    found.dedup();
    found.retain(|w| always_reaches(a, body, *w));
    found
}

/// Whether evaluating `h` always evaluates `target`: it is on a path of
/// `let`s, assertions, tuples and arithmetic, under no branch.
fn always_reaches(a: &Arena, h: H, target: H) -> bool {
    let on = |x: &H| always_reaches(a, *x, target);
    h == target
        || match a.expr(h) {
            Expr::Scalar(Scalar::Let { value, body, .. }) => on(value) || on(body),
            Expr::Scalar(Scalar::Assert { cond, body, .. }) => on(cond) || on(body),
            Expr::Scalar(Scalar::Proj(x, _) | Scalar::Unary(_, x) | Scalar::Cast(x, _)) => on(x),
            Expr::Scalar(Scalar::Tuple(xs) | Scalar::MakeIndex(xs) | Scalar::Math(_, xs)) => {
                xs.iter().any(on)
            }
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
                on(x) || (!matches!(op, BinOp::And | BinOp::Or) && on(y))
            }
            _ => false,
        }
}

/// Loop `h` as a [`RangeFold`], if it is one.
pub(super) fn range_fold(a: &Arena, h: H) -> Option<RangeFold> {
    let Expr::Scalar(Scalar::While {
        vars,
        init,
        cond,
        step,
        pulls,
    }) = a.expr(h)
    else {
        return None;
    };
    let ([k, acc], [start, z], [next_k, next_acc]) = (&vars[..], &init[..], &step[..]) else {
        return None;
    };
    if !pulls.is_empty() || a.var(*k).ty != Ty::Prim(Prim::Usize) {
        return None;
    }
    let is_var = |h: H, v: VarId| matches!(a.expr(h), Expr::Scalar(Scalar::Var(w)) if *w == v);
    let mentions = |h: H, vs: &[VarId]| {
        a.reaches(
            h,
            |_, e| matches!(e, Expr::Scalar(Scalar::Var(w)) if vs.contains(w)),
        )
    };
    // k < end, end invariant.
    let Expr::Scalar(Scalar::Binary(BinOp::Lt, kk, end)) = a.expr(*cond) else {
        return None;
    };
    if !is_var(*kk, *k) || mentions(*end, &[*k, *acc]) {
        return None;
    }
    // k + 1.
    let Expr::Scalar(Scalar::Binary(BinOp::Add, kk, one)) = a.expr(*next_k) else {
        return None;
    };
    let one_usize = matches!(
        a.expr(*one),
        Expr::Scalar(Scalar::Lit(Lit {
            prim: Prim::Usize,
            bits: 1
        }))
    );
    if !is_var(*kk, *k) || !one_usize {
        return None;
    }
    // let a = acc; let b = x; f(a, b).
    let Expr::Scalar(Scalar::Let {
        var: pa,
        value: va,
        body,
    }) = a.expr(*next_acc)
    else {
        return None;
    };
    let Expr::Scalar(Scalar::Let {
        var: pb,
        value: x,
        body: fb,
    }) = a.expr(*body)
    else {
        return None;
    };
    if !is_var(*va, *acc) || mentions(*x, &[*acc, *pa]) || mentions(*fb, &[*k, *acc]) {
        return None;
    }
    let f = Fun {
        params: vec![*pa, *pb],
        body: *fb,
    };
    let p = a.var(*acc).ty.prim()?;
    identity(AtomicCombine::operator(a, &f)?, p)?;
    Some(RangeFold {
        k: *k,
        start: *start,
        z: *z,
        end: *end,
        x: *x,
        f,
    })
}

/// Lanes whose segment is longer than this share it with their warp.
const LONG: u64 = 64;

/// Whether a generate with element function `e` has loops its warps share.
pub fn shares(a: &Arena, e: &ElemFn) -> bool {
    !loops(a, e).is_empty()
}

/// Loop `h` (a [`RangeFold`]) in a lane of a warp whose lanes all reach it
/// together (`w`): its value `(k, acc)`.
///
/// A lane whose segment has at most [`LONG`] elements runs the loop alone,
/// sequentially (its result is the sequential one, bit for bit). The warp
/// then takes the longer segments one at a time: the owner's loop inputs
/// (its segment's bounds and whatever its element reads) are broadcast, each
/// lane folds the elements `start + lane + 32 j` into its own accumulator,
/// from the identity, the accumulators are reduced across the warp, and the
/// owner combines its `z` with the total. The combination is commutative as
/// well as associative (`AtomicCombine`), so that is the sequential result,
/// up to the rounding of a float sum.
pub(super) fn shared_loop(l: &mut Lower, h: H, w: &WarpLoops) -> Result<Vec<String>, Unsupported> {
    let lane = w.lane.as_str();
    let rf = range_fold(l.a, h)
        .ok_or_else(|| Unsupported::Internal("a shared loop that is not a range fold".into()))?;
    let t = l.a.var(rf.f.params[0]).ty.clone();
    let p = t
        .prim()
        .ok_or_else(|| Unsupported::Internal("a shared loop over tuples".into()))?;
    let op = AtomicCombine::operator(l.a, &rf.f)
        .ok_or_else(|| Unsupported::Internal("a shared loop's combination".into()))?;
    let bits = identity(op, p).ok_or_else(|| Unsupported::Internal("a shared loop's identity".into()))?;
    let ty = l.a.ty(h).clone();
    let start = l.expr(rf.start)?[0].clone();
    let end = l.expr(rf.end)?[0].clone();
    let long = l.reg(Class::P);
    let (nonempty, len) = (l.reg(Class::P), l.reg(Class::Rd));
    l.ins(format!("setp.lt.u64 {nonempty}, {start}, {end};"));
    l.ins(format!("sub.u64 {len}, {end}, {start};"));
    l.ins(format!("setp.gt.u64 {long}, {len}, {LONG};"));
    // A whole warp on one element shares its segment whatever its length.
    l.ins(format!("or.pred {long}, {long}, {};", w.whole));
    l.ins(format!("and.pred {long}, {long}, {nonempty};"));
    // A short segment: the loop as usual, in this lane alone. (Lanes of a
    // whole warp other than lane 0 compute nothing: their value is zero.)
    let out = l.zero(&ty);
    let short_done = l.label("wsegshort");
    l.ins(format!("@{long} bra {short_done};"));
    let loops = l.warp_loops.take();
    let v = l.versioned_loop(h);
    l.warp_loops = loops;
    l.assign(&out, &v?, &ty);
    l.put_label(&short_done);
    // The long ones, the warp together, one at a time.
    let z = l.expr(rf.z)?;
    // (A whole warp's segment is lane 0's, once.)
    let (mask, lane0) = (l.reg(Class::R), l.reg(Class::R));
    l.ins(format!("vote.sync.ballot.b32 {mask}, {long}, -1;"));
    l.ins(format!("and.b32 {lane0}, {mask}, 1;"));
    l.ins(format!("@{} mov.b32 {mask}, {lane0};", w.whole));
    let (top, done) = (l.label("wsegowner"), l.label("wsegowners"));
    l.put_label(&top);
    let none = l.reg(Class::P);
    l.ins(format!("setp.eq.u32 {none}, {mask}, 0;"));
    l.ins(format!("@{none} bra {done};"));
    let owner = l.reg(Class::R);
    l.ins(format!("bfind.u32 {owner}, {mask};"));
    // The owner's values of what the loop reads, in every lane.
    let usize_p = Prim::Usize;
    let (o_start, o_end) = (
        shfl_from(l, &start, usize_p, &owner),
        shfl_from(l, &end, usize_p, &owner),
    );
    let mut saved = Vec::new();
    for v in free_vars(l.a, rf.x, rf.k) {
        let regs = l
            .var_regs(v)
            .ok_or_else(|| Unsupported::Internal("a shared loop reads an unbound variable".into()))?;
        let prims = super::lower::leaves(&l.a.var(v).ty.clone());
        let theirs: Vec<String> = regs
            .iter()
            .zip(prims)
            .map(|(r, q)| shfl_from(l, r, q, &owner))
            .collect();
        saved.push((v, l.bind(v, theirs)));
    }
    let total = fold_together(l, &rf, &t, Lit { prim: p, bits }, &o_start, &o_end, lane);
    for (v, old) in saved.into_iter().rev() {
        l.unbind(v, old);
    }
    let total = total?;
    let (mine, skip) = (l.reg(Class::P), l.label("wsegnotmine"));
    l.ins(format!("setp.eq.u32 {mine}, {lane}, {owner};"));
    l.ins(format!("@!{mine} bra {skip};"));
    let v = apply2(l, &rf.f, &z, &total)?;
    let mut res = vec![end.clone()];
    res.extend(v);
    l.assign(&out, &res, &ty);
    l.put_label(&skip);
    let bit = l.reg(Class::R);
    l.ins(format!("shl.b32 {bit}, 1, {owner};"));
    l.ins(format!("not.b32 {bit}, {bit};"));
    l.ins(format!("and.b32 {mask}, {mask}, {bit};"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    Ok(out)
}

/// The variables `x` reads from around it (not `k`, nor its own `let`s).
fn free_vars(a: &Arena, x: H, k: VarId) -> Vec<VarId> {
    let (mut used, mut bound) = (Vec::new(), vec![k]);
    a.reaches(x, |_, e| {
        match e {
            Expr::Scalar(Scalar::Var(v)) => used.push(*v),
            Expr::Scalar(Scalar::Let { var, .. }) => bound.push(*var),
            Expr::Scalar(Scalar::While { vars, .. }) => bound.extend(vars),
            Expr::Plan(accel_core::ir::PlanRead::Checked { var, .. }) => bound.push(*var),
            _ => {}
        }
        false
    });
    used.sort();
    used.dedup();
    used.retain(|v| !bound.contains(v));
    used
}

/// The fold of the elements `start..end` (the same in every lane) by the
/// whole warp, from `unit` (the identity): each lane's elements `start +
/// lane + 32 j` into its own accumulator, then across the warp by butterfly
/// (the order does not matter), so that every lane has the total.
fn fold_together(
    l: &mut Lower,
    rf: &RangeFold,
    t: &Ty,
    unit: Lit,
    start: &str,
    end: &str,
    lane: &str,
) -> Result<Vec<String>, Unsupported> {
    let usize_ty = Ty::Prim(Prim::Usize);
    let unit = l.literal(unit);
    let acc = l.fresh(t);
    l.assign(&acc, std::slice::from_ref(&unit), t);
    let base = l.fresh(&usize_ty);
    l.assign(&base, &[start.to_string()], &usize_ty);
    let base = base[0].clone();
    let lane64 = l.reg(Class::Rd);
    l.ins(format!("cvt.u64.u32 {lane64}, {lane};"));
    let element = |l: &mut Lower, k: &str| -> Result<Vec<String>, Unsupported> {
        let old = l.bind(rf.k, vec![k.to_string()]);
        let v = l.expr(rf.x);
        l.unbind(rf.k, old);
        v
    };
    // Whole rounds, `UNROLL` at a time: every lane has an element in each,
    // so their loads are issued together.
    let (bulk, tail) = (l.label("wsegbulk"), l.label("wsegtail"));
    l.put_label(&bulk);
    let (past, rem) = (l.reg(Class::P), l.reg(Class::Rd));
    l.ins(format!("setp.ge.u64 {past}, {base}, {end};"));
    l.ins(format!("@{past} bra {tail};"));
    l.ins(format!("sub.u64 {rem}, {end}, {base};"));
    l.ins(format!("setp.lt.u64 {past}, {rem}, {};", 32 * UNROLL));
    l.ins(format!("@{past} bra {tail};"));
    let mut xs = Vec::new();
    for j in 0..UNROLL {
        let k = l.reg(Class::Rd);
        l.ins(format!("add.u64 {k}, {base}, {lane64};"));
        if j > 0 {
            l.ins(format!("add.u64 {k}, {k}, {};", 32 * j));
        }
        let v = element(l, &k)?;
        let x = l.fresh(t);
        l.assign(&x, &v, t);
        xs.push(x);
    }
    for x in &xs {
        let v = apply2(l, &rf.f, &acc, x)?;
        l.assign(&acc, &v, t);
    }
    l.ins(format!("add.u64 {base}, {base}, {};", 32 * UNROLL));
    l.ins(format!("bra {bulk};"));
    // The rest, a round at a time, the lanes past `end` idle.
    l.put_label(&tail);
    let (top, done) = (l.label("wseg"), l.label("wsegend"));
    l.put_label(&top);
    l.ins(format!("setp.ge.u64 {past}, {base}, {end};"));
    l.ins(format!("@{past} bra {done};"));
    let (k, have, skip) = (l.reg(Class::Rd), l.reg(Class::P), l.label("wsegx"));
    l.ins(format!("add.u64 {k}, {base}, {lane64};"));
    l.ins(format!("setp.lt.u64 {have}, {k}, {end};"));
    let x = l.fresh(t);
    l.assign(&x, std::slice::from_ref(&unit), t);
    l.ins(format!("@!{have} bra {skip};"));
    let v = element(l, &k)?;
    l.assign(&x, &v, t);
    l.put_label(&skip);
    let v = apply2(l, &rf.f, &acc, &x)?;
    l.assign(&acc, &v, t);
    l.ins(format!("add.u64 {base}, {base}, 32;"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    let p = t
        .prim()
        .ok_or_else(|| Unsupported::Internal("a shared loop over tuples".into()))?;
    for mask in [16, 8, 4, 2, 1] {
        let other = vec![shfl_xor(l, &acc[0], p, mask)];
        let v = apply2(l, &rf.f, &acc, &other)?;
        l.assign(&acc, &v, t);
    }
    Ok(acc)
}
