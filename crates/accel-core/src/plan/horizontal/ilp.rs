//! Optimal clustering: an integer linear program over the kernels of one
//! step list (the thesis's formulation, seed 004 §2.2, with the objective
//! of notes/004.md §5.2) chooses which kernels share a traversal.
//!
//! - **Nodes** are the steps; **π**, an integer per step, orders the
//!   clusters (a step after one it must follow has a π at least as large;
//!   strictly larger unless they are fused).
//! - **Fusion variables**, one per pair that could share a kernel:
//!   siblings (same iteration space, an input in common, neither using the
//!   other) and edges (a generate and a kernel reading its array at that
//!   kernel's own element). Fused means equal π: clusters are the connected
//!   components of fused pairs, so kernels that share nothing are never
//!   put together.
//! - **A class** per kernel (0 generate, 1 fold of rows, 2 fold of all),
//!   equal across fused pairs: one kernel cannot both map and fold.
//! - **Manifest**, per generate that could go unstored (every user an
//!   edge, not a result): unstored only when fused with every user; it is
//!   then computed inside their kernel, and so is any producer fused with
//!   it. A stored generate fused with a reader is diagonal fusion: one
//!   kernel writes the array and hands its elements to the reader.
//! - **Objective:** bytes moved. An array is read once per cluster reading
//!   it at its own element, none counted for the cluster that computes it
//!   (a read elsewhere, a gather or a stencil, is a read of its own
//!   whatever the clustering); a generate's array is written unless it is
//!   computed inside; each kernel saved takes off a small term. An extent
//!   unknown at build time counts as [`EXTENT`].
//!
//! The solver (microlp) is deterministic and limited in nodes, not time; it
//! starts from the greedy clustering, and when the limit is reached the
//! greedy plan stands. Its answer is checked ([`Graph::consistent`]) and,
//! once applied, costed against the greedy plan's ([`cost`]).

use super::inline::{inlinable, reads_at_own_element};
use super::{candidate, updates_in_place, Facts, Name};
use crate::ir::{BufId, Expr, PlanRead, Scalar, Ty, H};
use crate::plan::{KernelOp, Plan, Step};
use microlp::{
    ComparisonOp, OptimizationDirection, Problem, SolveOptions, SolveOutcome, TerminationReason, Variable,
};
use std::collections::{HashMap, HashSet};

/// The extent the cost model assumes for a dimension unknown at build time.
pub const EXTENT: f64 = 100.0;

/// Branch-and-bound nodes the solver may use on one step list.
pub const NODE_LIMIT: u64 = 2000;

/// What each kernel may be clustered with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Generate = 0,
    FoldRows = 1,
    FoldAll = 2,
}

/// Two steps `i < j` that may share a kernel.
#[derive(Debug)]
struct Pair {
    i: usize,
    j: usize,
    /// `j` must stay after `i` unless they are fused.
    ordered: bool,
    /// `j` reads the array `i` generates.
    edge: bool,
}

/// A generate whose array may be computed in its readers instead.
struct Droppable {
    step: usize,
    /// Bytes of its array (the cost model's).
    size: f64,
    /// The pairs linking it to each step that uses its array.
    edges: Vec<usize>,
}

/// The readers of one array.
struct Reads {
    size: f64,
    /// Kernels reading it at their own element, and its producer, in step
    /// order: one read per cluster among them, less one.
    shared: Vec<usize>,
}

/// The clustering problem of one step list.
pub(super) struct Graph {
    n: usize,
    class: Vec<Option<Class>>,
    /// `(i, j)`, `i < j`: `j` must run after `i`.
    ordered: Vec<(usize, usize)>,
    pairs: Vec<Pair>,
    droppable: Vec<Droppable>,
    reads: Vec<Reads>,
}

/// A clustering: the π of each step, and which pairs are fused.
pub(super) struct Choice {
    pub pi: Vec<usize>,
    pub fused: Vec<(usize, usize)>,
}

/// How the solver ended on one step list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Proven optimal.
    Optimal,
    /// The node limit was reached: the greedy plan stands.
    NodeLimit,
    /// The solver failed (an error of its own, or an answer that does not
    /// hold): the greedy plan stands.
    Failed,
    /// The clustering found costs more than the greedy one once applied
    /// (the model missed something): the greedy plan stands.
    Worse,
}

/// One solve: its status and its size.
#[derive(Clone, Debug)]
pub struct Solve {
    pub status: Status,
    pub variables: usize,
    /// Branch-and-bound nodes (0: the relaxation was integral).
    pub nodes: u64,
    /// Building the solver's program and solving it (not the graph).
    pub seconds: f64,
}

impl Graph {
    /// The problem of `steps`, whose buffers `escapes` are used after them.
    pub(super) fn of(plan: &Plan, steps: &[Step], escapes: &HashSet<BufId>) -> Graph {
        let a = &plan.arena;
        let facts: Vec<Facts> = steps.iter().map(|s| Facts::of(a, &plan.buffers, s)).collect();
        let n = steps.len();
        let kernel = |i: usize| match &steps[i] {
            Step::Kernel(k) if candidate(a, k) => Some(k),
            _ => None,
        };
        let class: Vec<Option<Class>> = (0..n)
            .map(|i| {
                kernel(i).map(|k| match &k.op {
                    KernelOp::Fold { all: true, .. } => Class::FoldAll,
                    KernelOp::Fold { .. } => Class::FoldRows,
                    _ => Class::Generate,
                })
            })
            .collect();
        // The space a kernel iterates over; the shape of a generate's array
        // is the generate's space.
        let shape_of = |i: usize| {
            kernel(i).map(|k| match &k.op {
                KernelOp::Generate { shape, .. } | KernelOp::Fold { shape, .. } => *shape,
                _ => unreachable!("candidates are generates and folds"),
            })
        };
        let generated: HashMap<BufId, H> = (0..n)
            .filter_map(|i| match (kernel(i), shape_of(i)) {
                (Some(k), Some(s)) if matches!(k.op, KernelOp::Generate { .. }) => {
                    Some(k.outputs.iter().map(move |b| (*b, s)))
                }
                _ => None,
            })
            .flatten()
            .collect();
        let space = |i: usize| {
            let mut h = shape_of(i)?;
            while let Expr::Scalar(Scalar::Shape(x)) = a.expr(h) {
                match a.expr(*x) {
                    Expr::Plan(PlanRead::Buffer(b)) if generated.contains_key(b) => h = generated[b],
                    _ => break,
                }
            }
            Some(h)
        };
        let mut ordered = Vec::new();
        for j in 0..n {
            for i in 0..j {
                if must_precede(&facts[i], &facts[j]) {
                    ordered.push((i, j));
                }
            }
        }
        let ordered_set: HashSet<(usize, usize)> = ordered.iter().copied().collect();
        let size = |b: BufId| size(plan, b);
        // Edges: a generate and a kernel reading its array at its own
        // element (one kernel then computes both: the array is stored for
        // its other readers, or not at all when it has none). A generate
        // whose every user is such a kernel may go unstored.
        let mut pairs = Vec::new();
        let mut droppable = Vec::new();
        for g in 0..n {
            let Some(kg) = kernel(g) else { continue };
            let KernelOp::Generate { elem, .. } = &kg.op else {
                continue;
            };
            let [b] = kg.outputs[..] else { continue };
            if updates_in_place(a, elem) {
                continue;
            }
            let users: Vec<usize> = (g + 1..n)
                .filter(|&j| facts[j].uses.contains(&Name::Buf(b.0)))
                .collect();
            let mut edges = Vec::new();
            for &j in &users {
                let linked = kernel(j).is_some_and(|kj| {
                    space(j) == space(g)
                        && !(facts[g].fails && facts[j].fails)
                        && facts[j].uses.intersection(&facts[g].defines).count() == 1
                        && inlinable(plan, kg, kj)
                });
                if linked {
                    pairs.push(Pair {
                        i: g,
                        j,
                        ordered: true,
                        edge: true,
                    });
                    edges.push(pairs.len() - 1);
                }
            }
            if !users.is_empty() && edges.len() == users.len() && !escapes.contains(&b) {
                droppable.push(Droppable {
                    step: g,
                    size: size(b),
                    edges,
                });
            }
        }
        // Siblings: the same space, an input in common, neither using what
        // the other defines, not both able to fail.
        for j in 0..n {
            for i in 0..j {
                let (Some(ci), Some(cj)) = (class[i], class[j]) else {
                    continue;
                };
                let compatible = ci == cj || ci == Class::Generate || cj == Class::Generate;
                if !compatible
                    || space(i) != space(j)
                    || facts[i].reads.is_disjoint(&facts[j].reads)
                    || facts[i].fails && facts[j].fails
                    || !facts[j].uses_none_of(&facts[i].defines)
                    || !facts[i].uses_none_of(&facts[j].defines)
                {
                    continue;
                }
                pairs.push(Pair {
                    i,
                    j,
                    ordered: ordered_set.contains(&(i, j)),
                    edge: false,
                });
            }
        }
        // Who reads each array.
        let mut readers: HashMap<BufId, Vec<usize>> = HashMap::new();
        for (j, f) in facts.iter().enumerate() {
            for b in &f.reads {
                readers.entry(*b).or_default().push(j);
            }
        }
        let mut bufs: Vec<BufId> = readers.keys().copied().collect();
        bufs.sort();
        // An array's producer counts as one of its readers: a reader in its
        // cluster reads nothing from memory (the count is one too many,
        // a constant).
        let producer: HashMap<BufId, usize> = (0..n)
            .filter_map(|g| match kernel(g) {
                Some(k) if matches!(k.op, KernelOp::Generate { .. }) && k.outputs.len() == 1 => {
                    Some((k.outputs[0], g))
                }
                _ => None,
            })
            .collect();
        let reads: Vec<Reads> = bufs
            .into_iter()
            .map(|b| {
                let mut shared: Vec<usize> = readers[&b]
                    .iter()
                    .copied()
                    .filter(|&j| kernel(j).is_some_and(|k| reads_at_own_element(a, k, b)))
                    .chain(producer.get(&b).copied())
                    .collect();
                shared.sort();
                Reads {
                    size: size(b),
                    shared,
                }
            })
            .collect();
        Graph {
            n,
            class,
            ordered,
            pairs,
            droppable,
            reads,
        }
    }

    /// Whether there is anything to choose.
    pub(super) fn has_choices(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// The fusion variables' pairs.
    pub(super) fn pair(&self, p: usize) -> (usize, usize) {
        (self.pairs[p].i, self.pairs[p].j)
    }

    /// The clustering in which the steps of each `members` list are one
    /// cluster, in the lists' order.
    pub(super) fn choice_from(&self, members: &[Vec<usize>]) -> Choice {
        let mut pi = vec![0; self.n];
        for (k, m) in members.iter().enumerate() {
            for &i in m {
                pi[i] = k;
            }
        }
        let fused = (0..self.pairs.len())
            .map(|p| self.pair(p))
            .filter(|&(i, j)| members.iter().any(|m| m.contains(&i) && m.contains(&j)))
            .collect();
        Choice { pi, fused }
    }

    /// Whether `c` is a clustering the plan can take: every cluster of one
    /// class (its stored generates all generates), and every step after
    /// those it must follow, strictly unless they are in one cluster. (The
    /// solver's answer is checked, not trusted.)
    fn consistent(&self, c: &Choice) -> bool {
        let inside = self.inside(c);
        let mut class: Vec<Option<Class>> = (0..self.n)
            .map(|i| self.class[i].filter(|k| *k != Class::Generate || !inside[i]))
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &(i, j) in &c.fused {
                match (class[i], class[j]) {
                    (Some(x), Some(y)) if x != y => return false,
                    (Some(x), None) => (class[j], changed) = (Some(x), true),
                    (None, Some(y)) => (class[i], changed) = (Some(y), true),
                    _ => {}
                }
                if c.pi[i] != c.pi[j] {
                    return false;
                }
            }
        }
        let fused: HashSet<(usize, usize)> = c.fused.iter().copied().collect();
        let inside_reads_stored = self
            .pairs
            .iter()
            .any(|q| q.edge && fused.contains(&(q.i, q.j)) && inside[q.j] && !inside[q.i]);
        !inside_reads_stored
            && self
                .ordered
                .iter()
                .all(|&(i, j)| c.pi[j] > c.pi[i] || fused.contains(&(i, j)) && c.pi[j] == c.pi[i])
    }

    /// Per step: whether it is a generate computed inside its cluster's
    /// kernel (unstored) in `choice`.
    pub(super) fn inside(&self, choice: &Choice) -> Vec<bool> {
        let fused: HashSet<(usize, usize)> = choice.fused.iter().copied().collect();
        let mut inside = vec![false; self.n];
        for d in &self.droppable {
            inside[d.step] = d.edges.iter().all(|&e| fused.contains(&self.pair(e)));
        }
        inside
    }

    /// Solves the program, starting from `warm` (the greedy clustering).
    pub(super) fn solve(&self, warm: &Choice) -> (Option<Choice>, Solve) {
        let started = std::time::Instant::now();
        let m = Model::new(self);
        let mut options = SolveOptions::default();
        options.node_limit = Some(NODE_LIMIT);
        options.warm_start = Some(m.hint(self, warm));
        let outcome = m.problem.solve_with(options);
        let mut solve = Solve {
            status: Status::Failed,
            variables: m.variables,
            nodes: 0,
            seconds: 0.0,
        };
        let choice = match outcome {
            Ok(SolveOutcome::Solution(s)) => {
                solve.nodes = s.stats().nodes_solved;
                if s.termination_reason() == TerminationReason::ProvenOptimal {
                    let pi = m.pi.iter().map(|v| s.var_value(*v).round() as usize).collect();
                    let fused = (0..self.pairs.len())
                        .filter(|&p| s.var_value(m.fused[p]) > 0.5)
                        .map(|p| self.pair(p))
                        .collect();
                    let c = Choice { pi, fused };
                    if self.consistent(&c) {
                        solve.status = Status::Optimal;
                        Some(c)
                    } else {
                        None
                    }
                } else {
                    solve.status = Status::NodeLimit;
                    None
                }
            }
            Ok(SolveOutcome::Interrupted(i)) => {
                solve.nodes = i.stats().nodes_solved;
                solve.status = Status::NodeLimit;
                None
            }
            Err(_) => None,
        };
        solve.seconds = started.elapsed().as_secs_f64();
        (choice, solve)
    }
}

/// Whether step `y` (after `x`) must stay after it: it uses what `x`
/// defines or the reverse, one takes over a buffer the other uses, or both
/// can fail (which error a program reports must not change).
fn must_precede(x: &Facts, y: &Facts) -> bool {
    let takes = |p: &Facts, q: &Facts| p.moves.iter().any(|b| q.uses.contains(&Name::Buf(b.0)));
    !y.uses_none_of(&x.defines)
        || !x.uses_none_of(&y.defines)
        || takes(x, y)
        || takes(y, x)
        || (x.fails || x.empty) && (y.fails || y.empty)
}

/// The bytes of buffer `b` in the cost model: each extent [`EXTENT`].
pub fn size(plan: &Plan, b: BufId) -> f64 {
    let buf = &plan.buffers[b];
    bytes(&buf.elem) * EXTENT.powi(buf.rank as i32)
}

/// The cost the program minimises, of the kernels of `steps` (nested ones
/// included): bytes read and written, and [`KERNEL`] per kernel.
pub fn cost(plan: &Plan, steps: &[Step]) -> f64 {
    let a = plan.accesses_of(steps);
    let bytes = |m: &std::collections::BTreeMap<BufId, usize>| {
        m.iter().map(|(b, n)| *n as f64 * size(plan, *b)).sum::<f64>()
    };
    bytes(&a.reads) + bytes(&a.writes) + KERNEL * a.kernels as f64
}

/// Bytes of an element.
fn bytes(t: &Ty) -> f64 {
    match t {
        Ty::Prim(p) => f64::from(p.width()) / 8.0,
        Ty::Tuple(ts) => ts.iter().map(bytes).sum(),
        _ => 8.0,
    }
}

/// The program in microlp's terms.
struct Model {
    problem: Problem,
    variables: usize,
    pi: Vec<Variable>,
    fused: Vec<Variable>,
    class: Vec<Option<Variable>>,
    manifest: Vec<Variable>,
    /// Per array, per shared reader after the first: clustered with an
    /// earlier one (its read saved).
    shares: Vec<Vec<(usize, Variable)>>,
    /// Per step: fused with an earlier one (a kernel saved).
    saved: Vec<Option<Variable>>,
}

/// The objective's weight of one kernel.
pub const KERNEL: f64 = 1.0;

impl Model {
    fn new(g: &Graph) -> Model {
        use ComparisonOp::{Ge, Le};
        let mut p = Problem::new(OptimizationDirection::Minimize);
        let n = g.n as f64;
        let top = g.n.saturating_sub(1) as i32;
        let pi: Vec<Variable> = (0..g.n).map(|_| p.add_integer_var(0.0, (0, top))).collect();
        let fused: Vec<Variable> = g.pairs.iter().map(|_| p.add_binary_var(0.0)).collect();
        // A generate may join a fold's cluster only computed inside it.
        let class: Vec<Option<Variable>> = g
            .class
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.map(|c| match c {
                    Class::Generate if g.droppable.iter().any(|d| d.step == i) => {
                        p.add_integer_var(0.0, (0, 2))
                    }
                    c => p.add_integer_var(0.0, (c as i32, c as i32)),
                })
            })
            .collect();
        // Order: strict, unless the pair is fused.
        let pair_of: HashMap<(usize, usize), usize> =
            g.pairs.iter().enumerate().map(|(k, q)| ((q.i, q.j), k)).collect();
        for &(i, j) in &g.ordered {
            match pair_of.get(&(i, j)) {
                Some(&k) => p.add_constraint([(pi[j], 1.0), (pi[i], -1.0), (fused[k], 1.0)], Ge, 1.0),
                None => p.add_constraint([(pi[j], 1.0), (pi[i], -1.0)], Ge, 1.0),
            }
        }
        for (k, q) in g.pairs.iter().enumerate() {
            debug_assert!(!q.ordered || g.ordered.contains(&(q.i, q.j)));
            // Fused: the same π and the same class.
            p.add_constraint([(pi[q.j], 1.0), (pi[q.i], -1.0), (fused[k], n)], Le, n);
            p.add_constraint([(pi[q.i], 1.0), (pi[q.j], -1.0), (fused[k], n)], Le, n);
            let (ci, cj) = (class[q.i].unwrap(), class[q.j].unwrap());
            p.add_constraint([(ci, 1.0), (cj, -1.0), (fused[k], 2.0)], Le, 2.0);
            p.add_constraint([(cj, 1.0), (ci, -1.0), (fused[k], 2.0)], Le, 2.0);
        }
        // A generate is computed inside only when fused with every user;
        // stored, it belongs to a cluster of generates, and costs its write
        // (its reads are counted below).
        let mut manifest = Vec::new();
        for d in &g.droppable {
            let m = p.add_binary_var(d.size);
            for &e in &d.edges {
                p.add_constraint([(m, 1.0), (fused[e], 1.0)], Ge, 1.0);
            }
            p.add_constraint([(class[d.step].unwrap(), 1.0), (m, 2.0)], Le, 2.0);
            manifest.push(m);
        }
        // A generate computed inside its cluster's kernel reads nothing the
        // kernel stores: a fused producer of it is computed inside too.
        let manifest_of = |step: usize| {
            g.droppable
                .iter()
                .position(|d| d.step == step)
                .map(|k| manifest[k])
        };
        for (k, q) in g.pairs.iter().enumerate() {
            let (Some(md), true) = (manifest_of(q.j), q.edge) else {
                continue;
            };
            match manifest_of(q.i) {
                Some(ms) => p.add_constraint([(fused[k], 1.0), (md, -1.0), (ms, 1.0)], Le, 1.0),
                None => p.add_constraint([(fused[k], 1.0), (md, -1.0)], Le, 0.0),
            }
        }
        // Reads: one per cluster among the shared readers.
        let mut shares = Vec::new();
        for r in &g.reads {
            let mut row = Vec::new();
            for (t, &j) in r.shared.iter().enumerate().skip(1) {
                let links: Vec<(Variable, f64)> = r.shared[..t]
                    .iter()
                    .filter_map(|&i| pair_of.get(&(i, j)).map(|&k| (fused[k], -1.0)))
                    .collect();
                if links.is_empty() {
                    continue;
                }
                let s = p.add_binary_var(-r.size);
                p.add_constraint(std::iter::once((s, 1.0)).chain(links), Le, 0.0);
                row.push((j, s));
            }
            shares.push(row);
        }
        // Kernels: one saved per step fused with an earlier one.
        let saved = (0..g.n)
            .map(|j| {
                let links: Vec<(Variable, f64)> = g
                    .pairs
                    .iter()
                    .enumerate()
                    .filter(|(_, q)| q.j == j)
                    .map(|(k, _)| (fused[k], -1.0))
                    .collect();
                (!links.is_empty()).then(|| {
                    let s = p.add_binary_var(-KERNEL);
                    p.add_constraint(std::iter::once((s, 1.0)).chain(links), Le, 0.0);
                    s
                })
            })
            .collect();
        let variables = pi.len()
            + fused.len()
            + class.iter().flatten().count()
            + manifest.len()
            + shares.iter().map(Vec::len).sum::<usize>()
            + g.n;
        Model {
            problem: p,
            variables,
            pi,
            fused,
            class,
            manifest,
            shares,
            saved,
        }
    }

    /// The values of every variable for clustering `c`.
    fn hint(&self, g: &Graph, c: &Choice) -> Vec<(Variable, f64)> {
        let fused: HashSet<(usize, usize)> = c.fused.iter().copied().collect();
        let mut out = Vec::new();
        for (v, &x) in self.pi.iter().zip(&c.pi) {
            out.push((*v, x as f64));
        }
        for (k, v) in self.fused.iter().enumerate() {
            out.push((*v, f64::from(u8::from(fused.contains(&g.pair(k))))));
        }
        // A cluster's class: a fold's, if it has one.
        let mut class: Vec<f64> = g
            .class
            .iter()
            .map(|c| c.map_or(0.0, |c| c as u8 as f64))
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &(i, j) in &c.fused {
                let m = class[i].max(class[j]);
                if class[i] != m || class[j] != m {
                    (class[i], class[j]) = (m, m);
                    changed = true;
                }
            }
        }
        for (k, v) in self.class.iter().enumerate() {
            if let Some(v) = v {
                out.push((*v, class[k]));
            }
        }
        for (d, v) in g.droppable.iter().zip(&self.manifest) {
            let inside = d.edges.iter().all(|&e| fused.contains(&g.pair(e)));
            out.push((*v, if inside { 0.0 } else { 1.0 }));
        }
        for (r, row) in g.reads.iter().zip(&self.shares) {
            for &(j, s) in row {
                let t = r.shared.iter().position(|&x| x == j).unwrap();
                let any = r.shared[..t].iter().any(|&i| fused.contains(&(i, j)));
                out.push((s, f64::from(u8::from(any))));
            }
        }
        for (j, v) in self.saved.iter().enumerate() {
            if let Some(v) = v {
                let any = c.fused.iter().any(|&(_, b)| b == j);
                out.push((*v, f64::from(u8::from(any))));
            }
        }
        out
    }
}
