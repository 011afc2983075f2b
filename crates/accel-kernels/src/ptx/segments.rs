//! Segments folded by a warp: the loops of `fold_seg` and `fold_seg_offsets`
//! in a generate, each segment shared by the 32 lanes of a warp.
//!
//! The library builds a segmented fold as a generate with one sequential
//! loop per segment (`front::library::fold_seg`). One thread per segment
//! leaves a GPU idle when segments are long (a dense matrix's rows: few
//! threads, each reading its own row, uncoalesced) and waits on the longest
//! one when their lengths are skewed (a power-law matrix: one row of 153,000
//! values took 18.4 ms on an H200). When the combination is a sum, a
//! minimum, a maximum or a bit operation (associative and commutative), a
//! warp takes each segment instead: its lanes read 32 consecutive elements
//! per round (coalesced), several rounds before they wait on the loads,
//! each lane folding its own elements; the lanes' results are then reduced
//! across the warp. Float sums may differ from the sequential ones by
//! rounding, as `fold`'s do. Any other combination (`|a, x| a * 3 + x`)
//! keeps one thread per segment, and so do loops a user wrote in a
//! generate: they promised nothing about their grouping.

use super::blocks::{apply2, warp_reduce};
use super::lower::{Class, Lower, Unsupported};
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

/// The segment loops of element function `e` that a warp can share.
pub(super) fn loops(a: &Arena, e: &ElemFn) -> Vec<H> {
    let mut found = Vec::new();
    a.reaches(e.fun().body, |_, x| {
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
    found
}

/// Whether a generate with element function `e` runs a warp per element.
pub fn by_warps(a: &Arena, e: &ElemFn) -> bool {
    !loops(a, e).is_empty()
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

/// The bits of `op`'s identity on `p` (combining it changes nothing), for
/// the types a warp shares segments of; `None` for the others.
fn identity(op: AtomicCombine, p: Prim) -> Option<u64> {
    let w = p.width();
    let ones = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let float = matches!(p, Prim::F32 | Prim::F64);
    let inf = |neg: bool| match (p, neg) {
        (Prim::F32, false) => 0x7F80_0000,
        (Prim::F32, true) => 0xFF80_0000,
        (_, false) => 0x7FF0_0000_0000_0000,
        (_, true) => 0xFFF0_0000_0000_0000,
    };
    if matches!(p, Prim::F16 | Prim::BF16)
        || (float && !matches!(op, AtomicCombine::Add | AtomicCombine::Min | AtomicCombine::Max))
    {
        return None;
    }
    if p == Prim::Bool && matches!(op, AtomicCombine::Add | AtomicCombine::Min | AtomicCombine::Max) {
        return None;
    }
    Some(match op {
        // `x + -0.0` is `x` for every float `x`, `-0.0` included.
        AtomicCombine::Add if float => 1 << (w - 1),
        AtomicCombine::Add | AtomicCombine::Or | AtomicCombine::Xor => 0,
        AtomicCombine::And => ones,
        AtomicCombine::Min if float => inf(false),
        AtomicCombine::Min if p.is_signed() => ones >> 1,
        AtomicCombine::Min => ones,
        AtomicCombine::Max if float => inf(true),
        AtomicCombine::Max if p.is_signed() => 1 << (w - 1),
        AtomicCombine::Max => 0,
    })
}

/// Loop `h` (a [`RangeFold`]) shared by the warp, whose lane is `lane` (a
/// `.u32`): its value `(k, acc)`, `acc` right in lane 0 only.
///
/// Each lane folds the elements `start + lane + 32 j` into its own
/// accumulator, from the identity; the lanes' accumulators are then
/// reduced across the warp, and lane 0 combines `z` with the total. The
/// combinations are commutative as well as associative (`AtomicCombine`),
/// so this is the sequential result, up to the rounding of float sums.
pub(super) fn warp_loop(l: &mut Lower, h: H, lane: &str) -> Result<Vec<String>, Unsupported> {
    let rf = range_fold(l.a, h)
        .ok_or_else(|| Unsupported::Internal("a warp loop that is not a range fold".into()))?;
    let t = l.a.var(rf.f.params[0]).ty.clone();
    let p = t
        .prim()
        .ok_or_else(|| Unsupported::Internal("a warp loop over tuples".into()))?;
    let op = AtomicCombine::operator(l.a, &rf.f)
        .ok_or_else(|| Unsupported::Internal("a warp loop's combination".into()))?;
    let bits = identity(op, p).ok_or_else(|| Unsupported::Internal("a warp loop's identity".into()))?;
    let usize_ty = Ty::Prim(Prim::Usize);
    let start = l.expr(rf.start)?;
    let z = l.expr(rf.z)?;
    let end = l.expr(rf.end)?[0].clone();
    let unit = l.literal(Lit { prim: p, bits });
    let acc = l.fresh(&t);
    l.assign(&acc, &[unit.clone()], &t);
    // `base`: the warp's next round starts there (the same in every lane).
    let base = l.fresh(&usize_ty);
    l.assign(&base, &start, &usize_ty);
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
        let x = l.fresh(&t);
        l.assign(&x, &v, &t);
        xs.push(x);
    }
    for x in &xs {
        let v = apply2(l, &rf.f, &acc, x)?;
        l.assign(&acc, &v, &t);
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
    let x = l.fresh(&t);
    l.assign(&x, &[unit.clone()], &t);
    l.ins(format!("@!{have} bra {skip};"));
    let v = element(l, &k)?;
    l.assign(&x, &v, &t);
    l.put_label(&skip);
    let v = apply2(l, &rf.f, &acc, &x)?;
    l.assign(&acc, &v, &t);
    l.ins(format!("add.u64 {base}, {base}, 32;"));
    l.ins(format!("bra {top};"));
    l.put_label(&done);
    let all = l.reg(Class::R);
    l.ins(format!("mov.b32 {all}, 1;"));
    warp_reduce(l, &acc, &all, lane, &rf.f, &t)?;
    let v = apply2(l, &rf.f, &z, &acc)?;
    // The counter ends at `end`, or at `start` past it.
    let kend = l.reg(Class::Rd);
    l.ins(format!("max.u64 {kend}, {}, {end};", start[0]));
    let mut out = vec![kend];
    out.extend(v);
    Ok(out)
}
