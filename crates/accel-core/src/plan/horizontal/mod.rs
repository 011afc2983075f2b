//! Clustering: kernels that share a traversal after producers are fused
//! into consumers (the thesis's horizontal and diagonal fusion, seed 004
//! §1.3 and §1.5, and the vertical fusion they open).
//!
//! * **Horizontal:** two generates over one shape, or two folds over one
//!   input shape (both of rows or both of everything), that read a buffer in
//!   common become one kernel: the element function computes both elements
//!   as a tuple, a fold combines field by field, and each field is stored to
//!   its own output (a kernel with several outputs stores the tuple of their
//!   elements, [`Kernel::stored`]). `(xs.sum(), xs.maximum())` reads `xs`
//!   once; so do `mean` and `variance`, and the two maps of `normalise2`.
//! * **Vertical:** an array that every reader, all in one kernel, reads at
//!   that kernel's own element is computed there instead of stored
//!   ([`inline`]).
//! * **Diagonal:** a generate and a generate reading its array at its own
//!   element are one kernel, which stores the array (for its other readers,
//!   or as a result) and hands the reader its element ([`merge_diagonal`]).
//!
//! Which kernels go together is chosen per step list (a branch or a loop
//! body is its own; nothing moves across control flow) by an integer linear
//! program ([`ilp`], the default), or greedily: the first pair that can
//! merge, in program order, then the arrays left with one reader. Kernels
//! move only past steps that define nothing they use, use nothing they
//! define, and cannot fail when they can (which error a failing program
//! reports does not change). Kernels that share no input are never put
//! together: that would save a loop counter at best.

use super::bounds::Iteration;
use super::{Block, Buffers, ElemFn, ExpandSink, Kernel, KernelOp, Origin, Output, Plan, Slot, Step, Val};
use crate::ir::{Arena, BinOp, BufId, Expr, Fun, PlanRead, Scalar, Ty, VarId, H};
use std::collections::{HashMap, HashSet};

pub mod ilp;
mod inline;
pub(super) use inline::reads_at_own_element;
mod pass_folds;
use inline::{generate_after_scan, inline_single_consumer};
use pass_folds::fold_into_pass;

/// Marks, in [`Kernel::fused`], where the operations of one merged sibling
/// end and the next one's begin.
pub const SIBLING: &str = "&";

/// How the kernels of a plan are clustered (`#[acc(fusion = ..)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clustering {
    /// Each kernel on its own.
    Off,
    /// Pairs merged in program order, the first that can be (as XLA does).
    Greedy,
    /// The clustering an integer linear program finds best ([`ilp`]).
    #[default]
    Optimal,
}

/// What the clustering did: the solver's work on each step list it had a
/// choice in.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub clustering: Clustering,
    pub solves: Vec<ilp::Solve>,
    /// The whole pass: graphs, greedy clustering, solves, merging.
    pub seconds: f64,
}

impl Report {
    /// One line for `explain()`.
    pub fn describe(&self) -> String {
        match self.clustering {
            Clustering::Off => "none".into(),
            Clustering::Greedy => "greedy".into(),
            Clustering::Optimal if self.solves.is_empty() => "optimal (nothing to choose)".into(),
            Clustering::Optimal => {
                let count = |st: ilp::Status| self.solves.iter().filter(|s| s.status == st).count();
                let vars: usize = self.solves.iter().map(|s| s.variables).sum();
                let nodes: u64 = self.solves.iter().map(|s| s.nodes).sum();
                let n = self.solves.len();
                let lists = if n == 1 {
                    "1 step list".to_string()
                } else {
                    format!("{n} step lists")
                };
                let mut parts = vec![format!("{} proven optimal", count(ilp::Status::Optimal))];
                for (st, what) in [
                    (ilp::Status::NodeLimit, "at the node limit"),
                    (ilp::Status::Failed, "unsolved"),
                    (ilp::Status::Worse, "worse once applied"),
                ] {
                    if count(st) > 0 {
                        parts.push(format!("{} {what} (greedy kept)", count(st)));
                    }
                }
                let head = if count(ilp::Status::Optimal) == n {
                    "optimal"
                } else {
                    "optimal where proven"
                };
                format!(
                    "{head} (ILP over {lists}: {}; {vars} variables, {nodes} nodes)",
                    parts.join(", ")
                )
            }
        }
    }
}

/// Clusters the kernels of every step list of `plan`.
pub fn fuse(plan: &mut Plan, how: Clustering) -> Report {
    let started = std::time::Instant::now();
    let mut report = Report {
        clustering: how,
        solves: Vec::new(),
        seconds: 0.0,
    };
    if how == Clustering::Off {
        return report;
    }
    let mut steps = std::mem::take(&mut plan.steps);
    let mut escapes = HashSet::new();
    output_buffers(&plan.arena, &plan.result, &mut escapes);
    fuse_steps(plan, &mut steps, &escapes, &mut report);
    plan.steps = steps;
    report.seconds = started.elapsed().as_secs_f64();
    report
}

/// The buffers a result is or reads.
fn output_buffers(a: &Arena, o: &Output, out: &mut HashSet<BufId>) {
    match o {
        Output::Array(b) => {
            out.insert(*b);
        }
        Output::Tuple(xs) => xs.iter().for_each(|x| output_buffers(a, x, out)),
        Output::Scalar(h) => out.extend(buffers_in(a, *h)),
    }
}

/// The buffers `h` mentions.
fn buffers_in(a: &Arena, h: H) -> HashSet<BufId> {
    let mut out = HashSet::new();
    a.reaches(h, |_, e| {
        if let Expr::Plan(PlanRead::Buffer(b)) = e {
            out.insert(*b);
        }
        false
    });
    out
}

/// [`fuse_steps`] on a block, whose results (buffers, scalars reading
/// buffers) are used after it.
fn fuse_block(plan: &mut Plan, b: &mut Block, report: &mut Report) {
    let mut escapes = HashSet::new();
    for v in &b.result {
        match v {
            Val::Buf(b) => {
                escapes.insert(*b);
            }
            Val::Scalar(h) => escapes.extend(buffers_in(&plan.arena, *h)),
        }
    }
    fuse_steps(plan, &mut b.steps, &escapes, report);
}

/// Clusters the kernels of one step list (its blocks first); `escapes` are
/// the buffers the list passes on (its block's results).
fn fuse_steps(plan: &mut Plan, steps: &mut Vec<Step>, escapes: &HashSet<BufId>, report: &mut Report) {
    for b in steps.iter_mut().flat_map(Step::blocks_mut) {
        fuse_block(plan, b, report);
    }
    // A `generate` after a scan fused into it before clustering, so that
    // the solver's model sees that fusion (it has no such choice of its
    // own), and again after, where clustering made more.
    while generate_after_scan(plan, steps, escapes).is_some() {}
    // Folds join a kernel's pass before clustering (the solver has no such
    // choice either), or after it: the join may take a generate that would
    // otherwise share its inputs' reads with a sibling. Both are finished,
    // and the cheaper plan stays (the first on a tie).
    let (original, buffers) = (steps.clone(), plan.buffers.clone());
    let mut joined = false;
    while fold_into_pass(plan, steps, escapes).is_some() {
        joined = true;
    }
    let mut solves = cluster(plan, steps, escapes, report.clustering);
    while fold_into_pass(plan, steps, escapes).is_some() {}
    if joined {
        let (first_buffers, mut later) = (std::mem::replace(&mut plan.buffers, buffers), original);
        let later_solves = cluster(plan, &mut later, escapes, report.clustering);
        while fold_into_pass(plan, &mut later, escapes).is_some() {}
        if ilp::cost(plan, &later) < ilp::cost(plan, steps) {
            *steps = later;
            solves = later_solves;
        } else {
            plan.buffers = first_buffers;
        }
    }
    report.solves.extend(solves);
    renumber(plan, steps);
}

/// Clusters the kernels of `steps`, greedily or by the solver (whose
/// answer stays when it costs no more than the greedy one); returns the
/// solver's work.
fn cluster(
    plan: &mut Plan,
    steps: &mut Vec<Step>,
    escapes: &HashSet<BufId>,
    how: Clustering,
) -> Vec<ilp::Solve> {
    let graph = (how == Clustering::Optimal)
        .then(|| ilp::Graph::of(plan, steps, escapes))
        .filter(ilp::Graph::has_choices);
    let (original, buffers) = (steps.clone(), plan.buffers.clone());
    let members = greedy(plan, steps, escapes);
    while generate_after_scan(plan, steps, escapes).is_some() {}
    let Some(g) = graph else {
        return Vec::new();
    };
    let (choice, mut solve) = g.solve(&g.choice_from(&members));
    if let Some(c) = choice {
        // Kept only if it costs no more than the greedy plan: the model
        // is checked against the plan it gives, each finished as it
        // would be.
        let greedy_buffers = std::mem::replace(&mut plan.buffers, buffers);
        let mut chosen = apply(plan, original, &g, &c);
        while inline_single_consumer(plan, &mut chosen, escapes).is_some() {}
        while generate_after_scan(plan, &mut chosen, escapes).is_some() {}
        if ilp::cost(plan, &chosen) <= ilp::cost(plan, steps) {
            *steps = chosen;
        } else {
            solve.status = ilp::Status::Worse;
            plan.buffers = greedy_buffers;
        }
    }
    vec![solve]
}

/// Greedy clustering: the first pair that can merge, in program order,
/// until none can, then the arrays left with one reader computed in it.
/// Returns the steps of `steps` that each step now holds.
fn greedy(plan: &mut Plan, steps: &mut Vec<Step>, escapes: &HashSet<BufId>) -> Vec<Vec<usize>> {
    let mut members: Vec<Vec<usize>> = (0..steps.len()).map(|i| vec![i]).collect();
    while let Some((i, j, down)) = find_pair(&plan.arena, &plan.buffers, steps) {
        let b = take_kernel(steps.remove(j));
        let a = take_kernel(steps.remove(i));
        let k = merge(&mut plan.arena, a, b);
        let at = if down { j - 1 } else { i };
        steps.insert(at, Step::Kernel(k));
        let mb = members.remove(j);
        let mut ma = members.remove(i);
        ma.extend(mb);
        members.insert(at, ma);
    }
    while let Some((i, j)) = inline_single_consumer(plan, steps, escapes) {
        let mi = members.remove(i);
        members[j - 1].extend(mi);
    }
    members
}

/// The steps of `steps` in the order and clusters of `c`: the kernels of a
/// cluster merged into one at the place of its last stored member, after
/// the generates it computes inside (which [`inline_single_consumer`] then
/// moves into it).
fn apply(plan: &mut Plan, steps: Vec<Step>, g: &ilp::Graph, c: &ilp::Choice) -> Vec<Step> {
    let n = steps.len();
    let mut root: Vec<usize> = (0..n).collect();
    fn find(root: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while root[r] != r {
            r = root[r];
        }
        root[x] = r;
        r
    }
    for &(i, j) in &c.fused {
        let (ri, rj) = (find(&mut root, i), find(&mut root, j));
        root[ri.max(rj)] = ri.min(rj);
    }
    let rep: Vec<usize> = (0..n).map(|i| find(&mut root, i)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (c.pi[i], rep[i], i));
    let computed_inside = g.inside(c);
    let mut slots: Vec<Option<Step>> = steps.into_iter().map(Some).collect();
    let mut out = Vec::new();
    for cluster in order.chunk_by(|&x, &y| rep[x] == rep[y]) {
        let (inside, stored): (Vec<usize>, Vec<usize>) = cluster.iter().partition(|&&i| computed_inside[i]);
        out.extend(inside.iter().map(|&i| slots[i].take().unwrap()));
        let mut kernels = stored.iter().map(|&i| slots[i].take().unwrap());
        let mut merged = kernels.next().expect("a cluster stores an array");
        for y in kernels {
            match merge_diagonal(plan, take_kernel(merged), take_kernel(y)) {
                Ok(k) => merged = Step::Kernel(k),
                // (The model said it could: kept apart, still right.)
                Err(pair) => {
                    let (x, y) = *pair;
                    out.push(Step::Kernel(x));
                    merged = Step::Kernel(y);
                }
            }
        }
        out.push(merged);
    }
    out
}

/// `x` and `y` merged, `y` taking the elements of `x`'s outputs that it
/// reads from `x`'s element rather than from memory (diagonal fusion).
fn merge_diagonal(plan: &mut Plan, x: Kernel, y: Kernel) -> Result<Kernel, Box<(Kernel, Kernel)>> {
    let original = y.clone();
    let mut y = y;
    let mut links = Vec::new();
    for (k, o) in x.outputs.iter().enumerate() {
        let a = &plan.arena;
        let mentions = |h: H| a.reaches(h, |_, e| matches!(e, Expr::Plan(PlanRead::Buffer(b)) if b == o));
        let uses = y.op.funs().iter().any(|f| mentions(f.body))
            || y.op.host_exprs().into_iter().any(mentions)
            || y.outputs.iter().any(|b| mentions(plan.buffers[*b].shape));
        if !uses {
            continue;
        }
        let KernelOp::Generate { shape, .. } = x.op else {
            return Err(Box::new((x, original)));
        };
        match inline::read_in_register(plan, shape, *o, y.clone()) {
            Some((new, t, _)) => {
                y = new;
                links.push((t, k));
            }
            None => return Err(Box::new((x, original))),
        }
    }
    Ok(merge_linked(&mut plan.arena, x, y, &links))
}

fn take_kernel(s: Step) -> Kernel {
    match s {
        Step::Kernel(k) => k,
        _ => unreachable!("only kernels are merged"),
    }
}

/// Buffers and kernels keep their position in their step list as their origin.
fn renumber(plan: &mut Plan, steps: &[Step]) {
    for (k, s) in steps.iter().enumerate() {
        match s {
            Step::Kernel(kernel) => {
                for o in &kernel.outputs {
                    plan.buffers[*o].origin = Origin::Kernel(k);
                }
            }
            Step::If { outs, .. } | Step::While { outs, .. } => {
                for o in outs {
                    if let Slot::Buf(b) = o {
                        plan.buffers[*b].origin = Origin::Control(k);
                    }
                }
            }
            Step::CheckReshape { .. } | Step::Let { .. } => {}
        }
    }
}

/// The first pair of steps `i < j` to merge, and whether the merged kernel
/// goes to `j` (the earlier kernel moves down) rather than `i`.
fn find_pair(a: &Arena, buffers: &Buffers, steps: &[Step]) -> Option<(usize, usize, bool)> {
    let facts: Vec<Facts> = steps.iter().map(|s| Facts::of(a, buffers, s)).collect();
    for i in 0..steps.len() {
        let Step::Kernel(ka) = &steps[i] else { continue };
        if !candidate(a, ka) {
            continue;
        }
        for j in i + 1..steps.len() {
            let Step::Kernel(kb) = &steps[j] else { continue };
            if !candidate(a, kb) || !same_space(ka, kb) {
                continue;
            }
            let (fa, fb) = (&facts[i], &facts[j]);
            if fa.reads.is_disjoint(&fb.reads) || fa.fails && fb.fails {
                continue;
            }
            // Siblings, not producer and consumer.
            if !fb.uses_none_of(&fa.defines) {
                continue;
            }
            let between = &facts[i + 1..j];
            if between.iter().all(|s| fb.may_move_past(s)) {
                return Some((i, j, false));
            }
            if between
                .iter()
                .all(|s| fa.may_move_past(s) && s.uses_none_of(&fa.defines))
            {
                return Some((i, j, true));
            }
        }
    }
    None
}

/// A generate or a fold that does not update an array in place (the CPU
/// back end changes only the box of a dying array that such a generate
/// writes, [`updates_in_place`]), and a generate without folds in its pass
/// (whose outputs after its own are the folds').
fn candidate(a: &Arena, k: &Kernel) -> bool {
    match &k.op {
        KernelOp::Generate { elem, folds, .. } => folds.is_empty() && !updates_in_place(a, elem),
        KernelOp::Fold { .. } => true,
        _ => false,
    }
}

/// Whether a generate's element is `if c { t } else { x[..] }` (either way
/// round) under `let`s: the form the CPU back end may run in place.
fn updates_in_place(a: &Arena, elem: &ElemFn) -> bool {
    let mut h = elem.fun().body;
    while let Expr::Scalar(Scalar::Let { body, .. }) = a.expr(h) {
        h = *body;
    }
    let reads_buffer = |x: H| {
        matches!(a.expr(x),
            Expr::Scalar(Scalar::Read { array, .. }) | Expr::Plan(PlanRead::ReadIndex { array, .. }) | Expr::Plan(PlanRead::ReadLinear { array, .. })
                if matches!(a.expr(*array), Expr::Plan(PlanRead::Buffer(_))))
    };
    matches!(a.expr(h), Expr::Scalar(Scalar::If(_, t, e)) if reads_buffer(*t) || reads_buffer(*e))
}

/// Whether two kernels iterate over the same space in the same way.
fn same_space(x: &Kernel, y: &Kernel) -> bool {
    match (&x.op, &y.op) {
        (KernelOp::Generate { shape: s, .. }, KernelOp::Generate { shape: t, .. }) => s == t,
        (KernelOp::Fold { shape: s, all: a, .. }, KernelOp::Fold { shape: t, all: b, .. }) => {
            s == t && a == b
        }
        _ => false,
    }
}

/// What a step reads, defines and may do wrong, for moving kernels past it.
pub(super) struct Facts {
    /// Buffers and variables it uses (anywhere, shapes included).
    pub(super) uses: HashSet<Name>,
    /// Buffers and variables it binds.
    pub(super) defines: HashSet<Name>,
    /// Buffers its element functions read (a kernel's data inputs).
    reads: HashSet<BufId>,
    /// Buffers it may take over (a permute's defaults at their last use).
    moves: HashSet<BufId>,
    /// Whether it can fail other than by reducing nothing.
    fails: bool,
    /// Whether it fails on an empty reduction (`fold1`).
    empty: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Name {
    Buf(u32),
    Var(u32),
}

impl Facts {
    pub(super) fn of(a: &Arena, buffers: &Buffers, s: &Step) -> Facts {
        let mut f = Facts {
            uses: HashSet::new(),
            defines: HashSet::new(),
            reads: HashSet::new(),
            moves: HashSet::new(),
            fails: false,
            empty: false,
        };
        f.add_step(a, buffers, s);
        f
    }

    fn add_step(&mut self, a: &Arena, buffers: &Buffers, s: &Step) {
        match s {
            Step::CheckReshape { from, to, .. } => {
                self.expr(a, *from);
                self.expr(a, *to);
                self.fails = true;
            }
            Step::Let { var, value } => {
                self.expr(a, *value);
                self.defines.insert(Name::Var(var.0));
            }
            Step::Kernel(k) => {
                for h in k.op.host_exprs() {
                    self.expr(a, h);
                }
                // The element function's reads inside its own iteration space
                // cannot fail (the back ends drop their checks).
                let it = match &k.op {
                    KernelOp::Generate { shape, elem, .. }
                    | KernelOp::Fold { shape, elem, .. }
                    | KernelOp::Scan { shape, elem, .. }
                    | KernelOp::Permute { shape, elem, .. }
                    | KernelOp::Sort { shape, elem, .. } => {
                        Iteration::of(a, elem, *shape).map(|it| (elem.fun().body, it))
                    }
                    _ => None,
                };
                for f in k.op.funs() {
                    let proved = it.as_ref().filter(|(body, _)| *body == f.body).map(|(_, it)| it);
                    self.expr_in(a, f.body, proved);
                    self.reads.extend(data_reads(a, f.body));
                }
                if let Some(d) = k.op.defaults() {
                    self.uses.insert(Name::Buf(d.0));
                }
                match &k.op {
                    KernelOp::Fold { z: None, .. } => self.empty = true,
                    KernelOp::Permute {
                        defaults,
                        move_defaults,
                        ..
                    }
                    | KernelOp::Expand {
                        sink:
                            ExpandSink::Permute {
                                defaults,
                                move_defaults,
                                ..
                            },
                        ..
                    } => {
                        // An index may fall outside the result.
                        self.fails = true;
                        if *move_defaults {
                            self.moves.insert(*defaults);
                        }
                    }
                    KernelOp::Expand {
                        sink: ExpandSink::Fold { z, .. },
                        ..
                    } => {
                        // Counts may be negative.
                        self.fails = true;
                        self.empty |= z.is_none();
                    }
                    _ => {}
                }
                self.defines.extend(k.outputs.iter().map(|b| Name::Buf(b.0)));
                for o in &k.outputs {
                    self.expr(a, buffers[*o].shape);
                }
            }
            Step::If {
                cond,
                then,
                els,
                outs,
            } => {
                self.expr(a, *cond);
                self.block(a, buffers, then);
                self.block(a, buffers, els);
                self.slots(outs);
            }
            Step::While {
                state,
                init,
                cond,
                body,
                outs,
                pulls,
            } => {
                self.vals(a, init);
                self.slots(state);
                for p in pulls {
                    self.defines.insert(Name::Buf(p.item.0));
                }
                self.block(a, buffers, cond);
                self.block(a, buffers, body);
                self.slots(outs);
            }
        }
    }

    fn block(&mut self, a: &Arena, buffers: &Buffers, b: &Block) {
        for s in &b.steps {
            self.add_step(a, buffers, s);
        }
        self.vals(a, &b.result);
    }

    fn vals(&mut self, a: &Arena, vs: &[Val]) {
        for v in vs {
            match v {
                Val::Buf(b) => {
                    self.uses.insert(Name::Buf(b.0));
                }
                Val::Scalar(h) => self.expr(a, *h),
            }
        }
    }

    fn slots(&mut self, slots: &[Slot]) {
        for s in slots {
            self.defines.insert(match s {
                Slot::Buf(b) => Name::Buf(b.0),
                Slot::Var(v) => Name::Var(v.0),
            });
        }
    }

    /// Records the buffers and variables `h` uses, and whether it can fail.
    fn expr(&mut self, a: &Arena, h: H) {
        self.expr_in(a, h, None);
    }

    /// [`Facts::expr`] of an element function over iteration `it`.
    fn expr_in(&mut self, a: &Arena, h: H, it: Option<&Iteration>) {
        let mut seen = HashSet::new();
        let mut stack = vec![h];
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            let e = a.expr(x);
            match e {
                Expr::Plan(PlanRead::Buffer(b)) => {
                    self.uses.insert(Name::Buf(b.0));
                }
                Expr::Scalar(Scalar::Var(v)) => {
                    self.uses.insert(Name::Var(v.0));
                }
                Expr::Plan(PlanRead::Checked { index, shape, .. })
                    if it.is_some_and(|it| it.inside(a, *index, *shape)) => {}
                Expr::Scalar(Scalar::Read { .. })
                | Expr::Plan(PlanRead::Checked { .. })
                | Expr::Scalar(Scalar::Assert { .. }) => self.fails = true,
                _ => {}
            }
            stack.extend(e.children());
        }
    }

    fn uses_none_of(&self, names: &HashSet<Name>) -> bool {
        self.uses.is_disjoint(names)
    }

    /// Whether this kernel may run before or after step `s` instead of on
    /// its side: `s` defines nothing it uses, does not take over a buffer it
    /// reads, and they cannot both fail (which error a program reports
    /// must not change).
    fn may_move_past(&self, s: &Facts) -> bool {
        self.uses_none_of(&s.defines)
            && s.moves.iter().all(|b| !self.uses.contains(&Name::Buf(b.0)))
            && !((self.fails || self.empty) && (s.fails || s.empty))
    }
}

/// The buffers whose elements `h` reads.
pub(super) fn data_reads(a: &Arena, h: H) -> HashSet<BufId> {
    let mut out = HashSet::new();
    a.reaches(h, |_, e| {
        if let Expr::Scalar(Scalar::Read { array, .. })
        | Expr::Plan(PlanRead::ReadIndex { array, .. })
        | Expr::Plan(PlanRead::ReadLinear { array, .. })
        | Expr::Plan(PlanRead::ReadStencil { array, .. }) = e
        {
            if let Expr::Plan(PlanRead::Buffer(b)) = a.expr(*array) {
                out.insert(*b);
            }
        }
        false
    });
    out
}

/// One kernel computing what `x` and `y` do, `x`'s outputs first.
fn merge(a: &mut Arena, x: Kernel, y: Kernel) -> Kernel {
    merge_linked(a, x, y, &[])
}

/// [`merge`] where `y` (a generate) reads elements of `x`'s outputs at its
/// own element through free variables, `(t, k)` standing for field `k` of
/// `x`'s element (diagonal fusion: the array is stored by `x` and not read
/// back by `y`).
fn merge_linked(a: &mut Arena, x: Kernel, y: Kernel, links: &[(VarId, usize)]) -> Kernel {
    let (nx, ny) = (x.outputs.len(), y.outputs.len());
    // A fold without an initial value fails on an empty input: the error
    // names its position.
    let at = match (&x.op, &y.op) {
        (KernelOp::Fold { z: Some(_), .. }, KernelOp::Fold { z: None, .. }) => y.at,
        _ => x.at.or(y.at),
    };
    let mut fused = x.fused;
    fused.push(SIBLING);
    fused.extend(y.fused);
    let mut outputs = x.outputs;
    outputs.extend(y.outputs);
    let op = match (x.op, y.op) {
        (KernelOp::Generate { shape, elem: ex, .. }, KernelOp::Generate { elem: ey, .. }) => {
            KernelOp::Generate {
                shape,
                elem: pair_elems(a, shape, &ex, nx, &ey, ny, links),
                folds: Vec::new(),
            }
        }
        (
            KernelOp::Fold {
                shape,
                elem: ex,
                z: zx,
                f: fx,
                all,
                post: px,
            },
            KernelOp::Fold {
                elem: ey,
                z: zy,
                f: fy,
                post: py,
                ..
            },
        ) => {
            debug_assert!(links.is_empty(), "a fold's elements are not an array");
            let elem = pair_elems(a, shape, &ex, nx, &ey, ny, &[]);
            let (tx, ty) = (a.var(fx.params[0]).ty.clone(), a.var(fy.params[0]).ty.clone());
            let acc = Ty::Tuple([fields_of(&tx, nx), fields_of(&ty, ny)].concat());
            // Combined field by field.
            // Combined field by field; written out without `let`s where the
            // parts' combinations are tuples, so that a combination of
            // commutative parts is seen to be one (`plan::commutative`).
            let f = a.lam2(("a", acc.clone()), ("b", acc.clone()), |a, l, r| {
                let (lx, rx) = (pack(a, l, 0, &tx, nx), pack(a, r, 0, &tx, nx));
                let (ly, ry) = (pack(a, l, nx, &ty, ny), pack(a, r, nx, &ty, ny));
                let cx = substitute(a, &fx, &[lx, rx]);
                let cy = substitute(a, &fy, &[ly, ry]);
                match (fields_of_expr(a, cx, nx), fields_of_expr(a, cy, ny)) {
                    (Some(u), Some(v)) => a.tuple([u, v].concat()),
                    _ => concat(a, cx, nx, cy, ny, &[]),
                }
            });
            // Without an initial value for both, the merged fold has none;
            // a part that had one takes it in `post` (`z` is used exactly
            // once per result, so `z ⊕ fold1(xs)` is its fold).
            let both_z = zx.is_some() && zy.is_some();
            let z = match (zx, zy) {
                (Some(p), Some(q)) => Some(concat(a, p, nx, q, ny, &[])),
                _ => None,
            };
            let post = if px.is_none() && py.is_none() && (both_z || zx.is_none() && zy.is_none()) {
                None
            } else {
                let zx = zx.filter(|_| !both_z);
                let zy = zy.filter(|_| !both_z);
                Some(a.lam("r", acc, |a, r| {
                    let vx = pack(a, r, 0, &tx, nx);
                    let vy = pack(a, r, nx, &ty, ny);
                    let ox = finish(a, vx, zx, &fx, px.as_ref());
                    let oy = finish(a, vy, zy, &fy, py.as_ref());
                    concat(a, ox, nx, oy, ny, &[])
                }))
            };
            KernelOp::Fold {
                shape,
                elem,
                z,
                f,
                all,
                post,
            }
        }
        _ => unreachable!("only generates and folds are merged"),
    };
    Kernel {
        op,
        outputs,
        fused,
        at,
    }
}

/// `f`'s body with its parameters replaced by `args` (and a projection of a
/// parameter replaced by a tuple argument by that field).
fn substitute(a: &mut Arena, f: &Fun, args: &[H]) -> H {
    let pairs: Vec<(crate::ir::VarId, H)> = f.params.iter().copied().zip(args.iter().copied()).collect();
    let arg_of = |a: &Arena, x: H| match a.expr(x) {
        Expr::Scalar(Scalar::Var(v)) => pairs.iter().find(|(p, _)| p == v).map(|&(_, h)| h),
        _ => None,
    };
    inline::replace(
        a,
        f.body,
        &mut |a, x| match a.expr(x) {
            Expr::Scalar(Scalar::Proj(y, k)) => match arg_of(a, *y).map(|h| a.expr(h)) {
                Some(Expr::Scalar(Scalar::Tuple(xs))) => Some(xs[*k]),
                _ => None,
            },
            _ => arg_of(a, x),
        },
        &mut HashMap::new(),
    )
}

/// The `n` output fields of a part's value `h`, when they can be had
/// without computing `h` more than once: `h` itself, or its fields when it
/// is a tuple.
fn fields_of_expr(a: &Arena, h: H, n: usize) -> Option<Vec<H>> {
    match a.expr(h) {
        _ if n == 1 => Some(vec![h]),
        Expr::Scalar(Scalar::Tuple(xs)) if xs.len() == n => Some(xs.clone()),
        _ => None,
    }
}

/// `post(f(z, v))` with the parts that are there.
fn finish(a: &mut Arena, v: H, z: Option<H>, f: &Fun, post: Option<&Fun>) -> H {
    let v = match z {
        Some(z) => a.apply(f, &[z, v]),
        None => v,
    };
    match post {
        Some(p) => a.apply(p, &[v]),
        None => v,
    }
}

/// The fields one kernel contributes to a merged tuple: its element whole
/// when it has one output, its tuple's fields when it has several.
fn fields_of(t: &Ty, n: usize) -> Vec<Ty> {
    match t {
        Ty::Tuple(ts) if n > 1 => ts.clone(),
        _ => vec![t.clone()],
    }
}

/// Fields `from..from + n` of tuple `h` as the value of one part (of type `t`).
fn pack(a: &mut Arena, h: H, from: usize, t: &Ty, n: usize) -> H {
    if n == 1 {
        return a.proj(h, from);
    }
    let xs = (from..from + n).map(|k| a.proj(h, k)).collect();
    let v = a.tuple(xs);
    debug_assert_eq!(a.ty(v), t);
    v
}

/// The tuple of the fields of `x` (a part of `nx` outputs) and of `y`,
/// with each `(t, k)` of `links` bound to field `k` of `x` where `y` is
/// computed.
fn concat(a: &mut Arena, x: H, nx: usize, y: H, ny: usize, links: &[(VarId, usize)]) -> H {
    a.let_in("x", x, |a, x| {
        let fields = spread(a, x, nx);
        let body = a.let_in("y", y, |a, y| {
            let mut xs = fields.clone();
            xs.extend(spread(a, y, ny));
            a.tuple(xs)
        });
        links
            .iter()
            .rev()
            .fold(body, |body, &(t, k)| a.let_(t, fields[k], body))
    })
}

fn spread(a: &mut Arena, h: H, n: usize) -> Vec<H> {
    if n == 1 {
        vec![h]
    } else {
        (0..n).map(|k| a.proj(h, k)).collect()
    }
}

/// The element function computing both parts' elements, as one tuple; by
/// offset when both are, by index otherwise.
fn pair_elems(
    a: &mut Arena,
    shape: H,
    x: &ElemFn,
    nx: usize,
    y: &ElemFn,
    ny: usize,
    links: &[(VarId, usize)],
) -> ElemFn {
    match (x, y) {
        (ElemFn::Linear(f), ElemFn::Linear(g)) => {
            ElemFn::Linear(a.lam("i", Ty::Prim(crate::ir::Prim::Usize), |a, i| {
                let (u, v) = (a.apply(f, &[i]), a.apply(g, &[i]));
                concat(a, u, nx, v, ny, links)
            }))
        }
        _ => {
            let Ty::Index(r) = a.ty(shape).clone() else {
                unreachable!("an iteration space is a shape")
            };
            let (f, g) = (by_index(a, shape, r, x), by_index(a, shape, r, y));
            ElemFn::Index(a.lam("ix", Ty::Index(r), |a, ix| {
                let (u, v) = (a.apply(&f, &[ix]), a.apply(&g, &[ix]));
                concat(a, u, nx, v, ny, links)
            }))
        }
    }
}

/// An element function of an index of a space of shape `shape` (rank `r`).
fn by_index(a: &mut Arena, shape: H, r: usize, e: &ElemFn) -> Fun {
    match e {
        ElemFn::Index(f) => f.clone(),
        ElemFn::Linear(f) => a.lam("ix", Ty::Index(r), |a, ix| {
            let l = offset(a, shape, ix, r);
            a.apply(f, &[l])
        }),
    }
}

/// The row-major offset of index `ix` in a shape `shape` of rank `r`.
fn offset(a: &mut Arena, shape: H, ix: H, r: usize) -> H {
    let mut l = a.usize_lit(0);
    for d in 0..r {
        let i = a.comp(ix, d);
        l = if d == 0 {
            i
        } else {
            let n = a.comp(shape, d);
            let m = a.binary(BinOp::Mul, l, n);
            a.binary(BinOp::Add, m, i)
        };
    }
    l
}
