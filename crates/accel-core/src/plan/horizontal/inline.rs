//! Vertical fusion after horizontal: a generate whose array one kernel
//! alone reads, at that kernel's own element, is computed in that kernel;
//! and a generate that alone reads a scan's array, at its own element, is
//! computed as the scan stores it.

use super::{offset, updates_in_place, Facts, Name};
use crate::ir::{Arena, BufId, Expr, Fun, PlanRead, Scalar, ScanKind, Ty, VarId, H};
use crate::plan::bounds::same_shape;
use crate::plan::{ElemFn, Kernel, KernelOp, Origin, Plan, Step};
use std::collections::{HashMap, HashSet};

/// A generate whose array one kernel alone reads, each element at that
/// kernel's own element, is computed in it instead of stored: vertical
/// fusion, which the fuser could not do while the array had several
/// consumers, before they were merged (`ys` in `(ys.sum(), ys.maximum())`
/// is then neither written nor read back). Returns the producer's and the
/// consumer's steps when it did one (the producer's step is gone).
pub(super) fn inline_single_consumer(
    plan: &mut Plan,
    steps: &mut Vec<Step>,
    escapes: &HashSet<BufId>,
) -> Option<(usize, usize)> {
    let facts = facts_of(plan, steps);
    for i in 0..steps.len() {
        let Step::Kernel(g) = &steps[i] else { continue };
        let KernelOp::Generate { shape, elem, folds } = &g.op else {
            continue;
        };
        if !folds.is_empty()
            || g.outputs.len() != 1
            || updates_in_place(&plan.arena, elem)
            || escapes.contains(&g.outputs[0])
        {
            continue;
        }
        let b = g.outputs[0];
        let Some(j) = only_user(&facts, i, b) else {
            continue;
        };
        let Step::Kernel(k) = &steps[j] else { continue };
        // Its elements are computed where the consumer's are: after the
        // steps in between, and between the consumer's own failures.
        if !facts[i + 1..j].iter().all(|s| facts[i].may_move_past(s)) || facts[i].fails && facts[j].fails {
            continue;
        }
        let (shape, elem, ops, k) = (*shape, elem.clone(), g.fused.clone(), k.clone());
        if let Some(new) = inline_into(plan, shape, &elem, &ops, b, k, facts[i].fails) {
            steps[j] = Step::Kernel(new);
            steps.remove(i);
            plan.buffers[b].origin = Origin::Inlined;
            return Some((i, j));
        }
    }
    None
}

/// A generate that alone reads a scan's array (not `scanl'`'s two), each
/// element at its own, is computed by the scan as it stores each element
/// (the scan's `post` then takes the element's index too): the scan's array
/// is neither written nor read back. The scan moves down to the generate's
/// place (its inputs are older). Returns the scan's and the generate's steps
/// when it did one (the scan's step is gone). `tridagPar`'s scans of tuples,
/// each followed by a generate of one float per element, then store the
/// floats alone.
pub(super) fn generate_after_scan(
    plan: &mut Plan,
    steps: &mut Vec<Step>,
    escapes: &HashSet<BufId>,
) -> Option<(usize, usize)> {
    let facts = facts_of(plan, steps);
    for i in 0..steps.len() {
        let Step::Kernel(s) = &steps[i] else { continue };
        let KernelOp::Scan { kind, folds, .. } = &s.op else {
            continue;
        };
        if *kind == ScanKind::Exclusive || !folds.is_empty() {
            continue;
        }
        let [b] = s.outputs[..] else { continue };
        if escapes.contains(&b) {
            continue;
        }
        let Some(j) = only_user(&facts, i, b) else {
            continue;
        };
        let Step::Kernel(g) = &steps[j] else { continue };
        let KernelOp::Generate { elem, .. } = &g.op else {
            continue;
        };
        if g.outputs.len() != 1 || updates_in_place(&plan.arena, elem) {
            continue;
        }
        // Both may fail: the generate is then a map after the scan, which
        // the fuser puts in the scan's kernel too (`post`); which of the
        // kernel's errors is reported first is not ordered.
        if !facts[i + 1..j].iter().all(|x| facts[i].may_move_past(x)) {
            continue;
        }
        let (shape, scan, g) = (plan.buffers[b].shape, s.clone(), g.clone());
        if let Some(new) = scan_then(plan, shape, scan, b, g) {
            steps[j] = Step::Kernel(new);
            steps.remove(i);
            plan.buffers[b].origin = Origin::Inlined;
            return Some((i, j));
        }
    }
    None
}

pub(super) fn facts_of(plan: &Plan, steps: &[Step]) -> Vec<Facts> {
    steps
        .iter()
        .map(|s| Facts::of(&plan.arena, &plan.buffers, s))
        .collect()
}

/// The one step after step `i` that uses buffer `b`, if only one does.
fn only_user(facts: &[Facts], i: usize, b: BufId) -> Option<usize> {
    let mut users = (i + 1..facts.len()).filter(|&j| facts[j].uses.contains(&Name::Buf(b.0)));
    let j = users.next()?;
    users.next().is_none().then_some(j)
}

/// Scan kernel `scan` (writing buffer `b` of shape `shape`) storing instead
/// what generate `g` computes from each of its elements; `None` when `g`
/// reads `b` other than at its own element.
fn scan_then(plan: &mut Plan, shape: H, mut scan: Kernel, b: BufId, g: Kernel) -> Option<Kernel> {
    let (g, t, _) = read_in_register(plan, shape, b, g)?;
    let KernelOp::Generate { elem, .. } = &g.op else {
        return None;
    };
    let a = &mut plan.arena;
    let Ty::Index(rank) = a.ty(shape).clone() else {
        return None;
    };
    let KernelOp::Scan { f, post, .. } = &mut scan.op else {
        return None;
    };
    // `|x, ix| { let t = post(x); g(ix) }`, `g` by offset or by index.
    let x = a.new_var("x", a.var(f.params[0]).ty.clone());
    let ix = a.new_var("ix", Ty::Index(rank));
    let (xv, ixv) = (a.var_ref(x), a.var_ref(ix));
    let value = match post.as_ref() {
        Some(p) => a.apply(p, &[xv]),
        None => xv,
    };
    let arg = match elem {
        ElemFn::Index(_) => ixv,
        ElemFn::Linear(_) => offset(a, shape, ixv, rank),
    };
    let body = a.apply(elem.fun(), &[arg]);
    let body = a.let_(t, value, body);
    *post = Some(Fun {
        params: vec![x, ix],
        body,
    });
    scan.fused = [&scan.fused[..], &g.fused[..]].concat();
    scan.outputs = g.outputs;
    Some(scan)
}

/// Kernel `k` (a generate, a fold or a permute over the shape `shape`)
/// computing the elements of buffer `b` itself, by `elem`, where it reads
/// them; `None` when it reads `b` other than at its own element. A permute
/// computes them in its index function (`ys.scatter(&idx, ..)` with `idx` a
/// generate: the indices are neither written nor read back) or, when the
/// producer cannot fail, in its value function (which runs only for
/// sources that have a target).
fn inline_into(
    plan: &mut Plan,
    shape: H,
    elem: &ElemFn,
    ops: &[&'static str],
    b: BufId,
    k: Kernel,
    fails: bool,
) -> Option<Kernel> {
    let (mut k, t, read, at) = read_in_fun(plan, shape, b, k, true)?;
    if at == Reader::Value && matches!(k.op, KernelOp::Permute { .. }) && fails {
        return None;
    }
    let a = &mut plan.arena;
    let (f, by_offset) = reader_fun(&mut k.op, at);
    let p = f.params[0];
    // The element's index or offset from `p`.
    let pv = a.var_ref(p);
    let arg = match (elem, by_offset) {
        (ElemFn::Linear(_), true) | (ElemFn::Index(_), false) => pv,
        (ElemFn::Linear(_), false) => {
            let Ty::Index(r) = a.ty(shape).clone() else {
                return None;
            };
            offset(a, shape, pv, r)
        }
        (ElemFn::Index(_), true) => {
            // By index from an offset: only a vector's is the offset itself.
            if a.ty(shape) != &Ty::Index(1) {
                return None;
            }
            a.index(vec![pv])
        }
    };
    // `t`, the element, computed once per element of `k`; when it is not
    // read at all (a shape-only use), computed only for its errors.
    if read || fails {
        let value = a.apply(elem.fun(), &[arg]);
        f.body = a.let_(t, value, f.body);
    }
    k.fused = [ops, &k.fused].concat();
    Some(k)
}

/// Which function of a kernel reads a buffer at the kernel's own element:
/// the element (value) function, or a permute's index function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reader {
    Value,
    Index,
}

/// The function `at` of kernel `op`, and whether it takes the element by
/// offset (a permute's index function takes it by index).
fn reader_fun(op: &mut KernelOp, at: Reader) -> (&mut Fun, bool) {
    match (op, at) {
        (KernelOp::Permute { index, .. }, Reader::Index) => (index, false),
        (
            KernelOp::Generate { elem, .. } | KernelOp::Fold { elem, .. } | KernelOp::Permute { elem, .. },
            Reader::Value,
        ) => {
            let by_offset = matches!(elem, ElemFn::Linear(_));
            match elem {
                ElemFn::Linear(f) | ElemFn::Index(f) => (f, by_offset),
            }
        }
        _ => unreachable!("read_in_fun takes generates, folds and permutes"),
    }
}

/// Kernel `k` (a generate or a fold over `shape`, the shape of buffer `b`)
/// with its reads of `b`, each at its own element, replaced by a new
/// variable, which the caller binds to the element (and its uses of `b`'s
/// shape by `shape`); `None` when it reads `b` elsewhere. Returns the
/// kernel, the variable and whether it is read at all. The shapes of `k`'s
/// outputs are rewritten in `plan` too.
pub(super) fn read_in_register(
    plan: &mut Plan,
    shape: H,
    b: BufId,
    k: Kernel,
) -> Option<(Kernel, VarId, bool)> {
    read_in_fun(plan, shape, b, k, false).map(|(k, t, read, _)| (k, t, read))
}

/// [`read_in_register`], for a permute too when `permutes`: over its
/// source's shape, in the one of its value and index functions that reads
/// `b` (never both: the element would be computed twice). Returns which.
fn read_in_fun(
    plan: &mut Plan,
    shape: H,
    b: BufId,
    mut k: Kernel,
    permutes: bool,
) -> Option<(Kernel, VarId, bool, Reader)> {
    let a = &mut plan.arena;
    let buf = &plan.buffers[b];
    let buffer = a.add(
        Expr::Plan(PlanRead::Buffer(b)),
        Ty::array(buf.elem.clone(), buf.rank),
        proc_macro2::Span::call_site(),
    );
    let b_shape = a.add(
        Expr::Scalar(Scalar::Shape(buffer)),
        Ty::Index(buf.rank),
        proc_macro2::Span::call_site(),
    );
    let reads_b =
        |a: &Arena, h: H| a.reaches(h, |_, e| matches!(e, Expr::Plan(PlanRead::Buffer(x)) if *x == b));
    // Shape-only uses of `b` become uses of the shape it was computed over.
    let mut memo = HashMap::new();
    let mut sub = |a: &mut Arena, h: H| replace(a, h, &mut |_, x| (x == b_shape).then_some(shape), &mut memo);
    let out_shapes: Vec<H> = k.outputs.iter().map(|o| sub(a, plan.buffers[*o].shape)).collect();
    let (space, at) = match &mut k.op {
        KernelOp::Generate { shape: s, .. } => {
            *s = sub(a, *s);
            (*s, Reader::Value)
        }
        KernelOp::Fold {
            shape: s, z, f, post, ..
        } => {
            *s = sub(a, *s);
            *z = z.map(|z| sub(a, z));
            for g in std::iter::once(f).chain(post.as_mut()) {
                g.body = sub(a, g.body);
            }
            (*s, Reader::Value)
        }
        // (Its defaults are the buffer it writes: stored.)
        KernelOp::Permute {
            shape: s,
            elem,
            index,
            combine,
            defaults,
            ..
        } if permutes && *defaults != b => {
            *s = sub(a, *s);
            combine.body = sub(a, combine.body);
            let at = match (reads_b(a, elem.fun().body), reads_b(a, index.body)) {
                (true, true) => return None,
                (true, false) => {
                    index.body = sub(a, index.body);
                    Reader::Value
                }
                (false, _) => {
                    let f = match elem {
                        ElemFn::Linear(f) | ElemFn::Index(f) => f,
                    };
                    f.body = sub(a, f.body);
                    Reader::Index
                }
            };
            (*s, at)
        }
        _ => return None,
    };
    if !same_shape(a, space, shape) {
        return None;
    }
    let (f, by_offset) = reader_fun(&mut k.op, at);
    let t = a.new_var("t", plan.buffers[b].elem.clone());
    let tv = a.var_ref(t);
    let old_body = f.body;
    let own = Own::of(a, f, by_offset);
    let body = replace(
        a,
        old_body,
        &mut |a, x| {
            if own.reads(a, x, b) {
                Some(tv)
            } else {
                (x == b_shape).then_some(shape)
            }
        },
        &mut HashMap::new(),
    );
    if reads_b(a, body) {
        return None;
    }
    f.body = body;
    // The other functions (`funs` lists a permute's index function second).
    let own_fun = match at {
        Reader::Value => 0,
        Reader::Index => 1,
    };
    let others =
        k.op.funs()
            .iter()
            .enumerate()
            .any(|(i, g)| i != own_fun && reads_b(a, g.body))
            || k.op.host_exprs().iter().any(|h| reads_b(a, *h));
    if others {
        return None;
    }
    for (o, s) in k.outputs.iter().zip(out_shapes) {
        plan.buffers[*o].shape = s;
    }
    Some((k, t, body != old_body, at))
}

/// How an element function names its own element: by its parameter, the
/// `let`s that rename it, and (by index) the index of its components
/// (`[ix.0, ix.1]`, through the `let`s that name them, as `|[r, i]|` does).
struct Own {
    vars: Vec<VarId>,
    lets: HashMap<VarId, H>,
    by_offset: bool,
}

impl Own {
    fn of(a: &Arena, f: &Fun, by_offset: bool) -> Own {
        let mut own = Own {
            vars: vec![f.params[0]],
            lets: HashMap::new(),
            by_offset,
        };
        a.reaches(f.body, |_, e| {
            if let Expr::Scalar(Scalar::Let { var, value, .. }) = e {
                if matches!(a.expr(*value), Expr::Scalar(Scalar::Var(v)) if own.vars.contains(v)) {
                    own.vars.push(*var);
                }
                own.lets.insert(*var, *value);
            }
            false
        });
        own
    }

    /// Whether `ix` is the element itself: its index (by offset, only a
    /// vector's, `[p]`).
    fn is_element(&self, a: &Arena, ix: H) -> bool {
        match a.expr(ix) {
            Expr::Scalar(Scalar::Var(v)) if !self.by_offset && self.vars.contains(v) => true,
            Expr::Scalar(Scalar::Var(v)) => self.lets.get(v).is_some_and(|&x| self.is_element(a, x)),
            Expr::Scalar(Scalar::MakeIndex(cs)) if self.by_offset => {
                cs.len() == 1 && self.is_offset(a, cs[0])
            }
            Expr::Scalar(Scalar::MakeIndex(cs)) => {
                cs.iter().enumerate().all(|(k, &c)| self.is_component(a, c, k))
            }
            _ => false,
        }
    }

    /// Whether `h` is the element's offset (by offset).
    fn is_offset(&self, a: &Arena, h: H) -> bool {
        match a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => {
                self.vars.contains(v) || self.lets.get(v).is_some_and(|&x| self.is_offset(a, x))
            }
            // The only component of the element's index `[p]`.
            Expr::Scalar(Scalar::Proj(x, 0)) => self.is_element(a, *x),
            _ => false,
        }
    }

    /// Whether `c` is component `k` of the element's index.
    fn is_component(&self, a: &Arena, c: H, k: usize) -> bool {
        match a.expr(c) {
            Expr::Scalar(Scalar::Proj(x, j)) => *j == k && self.is_element(a, *x),
            Expr::Scalar(Scalar::Var(v)) => self.lets.get(v).is_some_and(|&x| self.is_component(a, x, k)),
            _ => false,
        }
    }

    /// Whether node `x` reads buffer `b` at the element: unchecked, or a
    /// user's index read checked against `b`'s own shape (which the element
    /// lies in when the function's space is that shape).
    fn reads(&self, a: &Arena, x: H, b: BufId) -> bool {
        let is_b = |h: H| matches!(a.expr(h), Expr::Plan(PlanRead::Buffer(y)) if *y == b);
        match a.expr(x) {
            e @ (Expr::Plan(PlanRead::ReadLinear { array, index })
            | Expr::Plan(PlanRead::ReadIndex { array, index })) => {
                is_b(*array)
                    && matches!(e, Expr::Plan(PlanRead::ReadLinear { .. })) == self.by_offset
                    && matches!(a.expr(*index), Expr::Scalar(Scalar::Var(v)) if self.vars.contains(v))
            }
            Expr::Plan(PlanRead::Checked {
                index,
                shape,
                var,
                body,
                ..
            }) => {
                matches!(a.expr(*shape), Expr::Scalar(Scalar::Shape(s)) if is_b(*s))
                    && matches!(a.expr(*body), Expr::Plan(PlanRead::ReadIndex { array, index: i })
                        if is_b(*array) && matches!(a.expr(*i), Expr::Scalar(Scalar::Var(v)) if v == var))
                    && self.is_element(a, *index)
            }
            _ => false,
        }
    }
}

/// Whether kernel `k` (a generate or a fold) reads buffer `b`'s elements
/// only at its own element, and only in its element function.
pub(in crate::plan) fn reads_at_own_element(a: &Arena, k: &Kernel, b: BufId) -> bool {
    let (KernelOp::Generate { elem, .. } | KernelOp::Fold { elem, .. }) = &k.op else {
        return false;
    };
    let own = Own::of(a, elem.fun(), matches!(elem, ElemFn::Linear(_)));
    let is_b = |x: H| matches!(a.expr(x), Expr::Plan(PlanRead::Buffer(y)) if *y == b);
    // The reads inside checked reads at the element are at the element.
    let mut inside = HashSet::new();
    a.reaches(elem.fun().body, |x, e| {
        if let Expr::Plan(PlanRead::Checked { body, .. }) = e {
            if own.reads(a, x, b) {
                inside.insert(*body);
            }
        }
        false
    });
    let mut ok = true;
    a.reaches(elem.fun().body, |x, e| {
        match e {
            Expr::Plan(PlanRead::ReadLinear { array, .. })
            | Expr::Plan(PlanRead::ReadIndex { array, .. })
                if is_b(*array) =>
            {
                ok &= inside.contains(&x) || own.reads(a, x, b);
            }
            Expr::Scalar(Scalar::Read { array, .. }) | Expr::Plan(PlanRead::ReadStencil { array, .. })
                if is_b(*array) =>
            {
                ok = false
            }
            _ => {}
        }
        false
    });
    ok && k.op.funs().iter().skip(1).all(|f| {
        !a.reaches(
            f.body,
            |_, e| matches!(e, Expr::Plan(PlanRead::Buffer(y)) if *y == b),
        )
    })
}

/// Whether `producer`'s array could be computed inside `consumer`.
pub(super) fn inlinable(plan: &Plan, producer: &Kernel, consumer: &Kernel) -> bool {
    let KernelOp::Generate { shape, elem, folds } = &producer.op else {
        return false;
    };
    if !folds.is_empty() {
        return false;
    }
    let [b] = producer.outputs[..] else { return false };
    let mut scratch = plan.clone();
    inline_into(&mut scratch, *shape, elem, &[], b, consumer.clone(), false).is_some()
}

/// `h` with every node `x` for which `f` gives a replacement replaced
/// (children first not visited under a replaced node).
pub(super) fn replace(
    a: &mut Arena,
    h: H,
    f: &mut dyn FnMut(&Arena, H) -> Option<H>,
    memo: &mut HashMap<H, H>,
) -> H {
    if let Some(&r) = memo.get(&h) {
        return r;
    }
    let r = match f(a, h) {
        Some(r) => r,
        None => {
            let e = a.expr(h).clone();
            let new = e.map_children(|c| replace(a, c, f, memo));
            if new == e {
                h
            } else {
                let (ty, span) = (a.ty(h).clone(), a.span(h));
                a.add(new, ty, span)
            }
        }
    };
    memo.insert(h, r);
    r
}
