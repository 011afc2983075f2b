//! The kernel plan: what runs, in order, and which arrays are materialised.
//!
//! Every kernel is one skeleton (generate, fold, scan, permute) with its fused
//! element function. Element functions and shapes are expressions in the plan's
//! arena, reading materialised arrays (`Buffer`s) only; shapes are evaluated on
//! the host before the kernel runs.

pub mod bounds;
mod demand;
mod dot;
mod fuse;
pub mod horizontal;
mod traffic;

pub use demand::{plain, Demand};
pub use fuse::{build, build_with, cluster, fuse};
pub use traffic::{Accesses, Poly, Traffic};

use crate::ir::{Arena, BufId, Expr, Fun, Loc, Scalar, ScanDir, ScanKind, Ty, VarId, H};
use std::fmt::{self, Write};

#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub arena: Arena,
    pub params: Vec<PlanParam>,
    pub buffers: Buffers,
    pub steps: Vec<Step>,
    pub result: Output,
    /// How its kernels were clustered.
    pub fusion: horizontal::Report,
}

#[derive(Clone, Debug)]
pub struct PlanParam {
    pub name: String,
    pub ty: Ty,
    /// Arrays are buffers; scalars are variables of the plan's arena.
    pub binding: ParamBinding,
}

#[derive(Clone, Copy, Debug)]
pub enum ParamBinding {
    Array(BufId),
    Scalar(crate::ir::VarId),
    /// A streamed sequence: the `While` step that consumes it pulls its
    /// elements one at a time ([`PlanPull`]).
    Stream,
}

/// A stream a `While` step pulls from: before each test of its condition,
/// the next element of parameter `param` becomes buffer `item`; the loop
/// ends when the stream has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanPull {
    pub param: usize,
    pub item: BufId,
    /// A chunk per iteration: its length asked for and its target number of
    /// array elements, host expressions (see [`crate::ir::Pull`]).
    pub chunk: Option<(H, H)>,
}

/// The plan's buffers, indexed by [`BufId`] (never by a bare number).
#[derive(Clone, Debug, Default)]
pub struct Buffers(Vec<Buffer>);

impl Buffers {
    /// Adds `b`; returns its id.
    pub fn push(&mut self, b: Buffer) -> BufId {
        self.0.push(b);
        BufId(self.0.len() as u32 - 1)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Marks the buffers from the `len`th on [`Origin::Dropped`] (a sub-plan
    /// planned again).
    pub fn drop_from(&mut self, len: usize) {
        self.0
            .iter_mut()
            .skip(len)
            .for_each(|b| b.origin = Origin::Dropped);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Buffer `b`; `None` when the plan has no such buffer.
    pub fn get(&self, b: BufId) -> Option<&Buffer> {
        self.0.get(b.0 as usize)
    }

    /// Every buffer with its id, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (BufId, &Buffer)> {
        self.0.iter().enumerate().map(|(i, b)| (BufId(i as u32), b))
    }
}

impl std::ops::Index<BufId> for Buffers {
    type Output = Buffer;
    fn index(&self, b: BufId) -> &Buffer {
        &self.0[b.0 as usize]
    }
}

impl std::ops::IndexMut<BufId> for Buffers {
    fn index_mut(&mut self, b: BufId) -> &mut Buffer {
        &mut self.0[b.0 as usize]
    }
}

/// A materialised array.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub elem: Ty,
    pub rank: usize,
    /// Who fills it.
    pub origin: Origin,
    /// Its shape, evaluated on the host when it is allocated (`Shape(Buffer)` of
    /// itself for parameters).
    pub shape: H,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Param(usize),
    /// Written by the kernel at this position of its step list.
    Kernel(usize),
    /// A result of the `if` or `while` at this position of its step list.
    Control(usize),
    /// A `while` loop's state, bound at the start of every iteration.
    State,
    /// Never stored: its producer was fused into its only consumer after
    /// sibling consumers were merged (`horizontal`).
    Inlined,
    /// Never used: made by a plan of a loop body that was planned again
    /// (with fewer facts about its state's shapes). Its id is not reused,
    /// as the arena's nodes naming it keep their types.
    Dropped,
}

#[derive(Clone, Debug)]
pub enum Step {
    Kernel(Kernel),
    /// `reshape`: the sizes of the two shapes must agree, or the program fails
    /// (an error at source position `at`).
    CheckReshape {
        from: H,
        to: H,
        at: Option<Loc>,
    },
    /// A host scalar computed once, where the program computes it.
    Let {
        var: VarId,
        value: H,
    },
    /// Runs one of two sub-plans; their results become `outs`. Nothing computed
    /// inside a branch is visible outside it.
    If {
        cond: H,
        then: Block,
        els: Block,
        outs: Vec<Slot>,
    },
    /// `state` starts as `init`; each iteration pulls the next element of
    /// each stream of `pulls` (and ends when one has none), runs `cond` (its
    /// result is one boolean), and if it holds, `body`, whose results are the
    /// next state. The final state becomes `outs`. The state is moved from
    /// one iteration to the next, never shared.
    While {
        state: Vec<Slot>,
        init: Vec<Val>,
        cond: Block,
        body: Block,
        outs: Vec<Slot>,
        pulls: Vec<PlanPull>,
    },
}

impl Step {
    /// The blocks inside the step: a branch's two, a loop's condition and
    /// body; none for other steps.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        let (x, y) = match self {
            Step::If { then, els, .. } => (Some(then), Some(els)),
            Step::While { cond, body, .. } => (Some(cond), Some(body)),
            Step::Kernel(_) | Step::CheckReshape { .. } | Step::Let { .. } => (None, None),
        };
        x.into_iter().chain(y)
    }

    /// [`Step::blocks`], to change.
    pub fn blocks_mut(&mut self) -> impl Iterator<Item = &mut Block> {
        let (x, y) = match self {
            Step::If { then, els, .. } => (Some(then), Some(els)),
            Step::While { cond, body, .. } => (Some(cond), Some(body)),
            Step::Kernel(_) | Step::CheckReshape { .. } | Step::Let { .. } => (None, None),
        };
        x.into_iter().chain(y)
    }
}

/// A sub-plan: steps and the values they leave.
#[derive(Clone, Debug, Default)]
pub struct Block {
    pub steps: Vec<Step>,
    pub result: Vec<Val>,
}

/// A value passed between sub-plans: a buffer or a host scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Buf(BufId),
    Scalar(H),
}

/// Where a sub-plan's value is bound: a buffer or a host variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Buf(BufId),
    Var(VarId),
}

/// The element function of a kernel's input: by row-major offset when the
/// producers allow it (no index arithmetic), otherwise by multi-dimensional index.
#[derive(Clone, Debug)]
pub enum ElemFn {
    Linear(Fun),
    Index(Fun),
}

#[derive(Clone, Debug)]
pub struct Kernel {
    pub op: KernelOp,
    /// Buffers written (two for `scanl_total`).
    pub outputs: Vec<BufId>,
    /// The operations fused into this kernel, producers first.
    pub fused: Vec<&'static str>,
    /// The source position of the consumer, which the kernel's own run-time
    /// errors name (an index out of bounds of a permute, an empty reduction);
    /// errors of its element functions name their own (`Arena::loc`).
    pub at: Option<Loc>,
}

impl Kernel {
    /// Whether this is a generate or a fold with several outputs, merged from
    /// siblings by horizontal fusion ([`horizontal`]): its element is then the
    /// tuple of its outputs' elements, each field stored to its own output.
    pub fn is_horizontal(&self) -> bool {
        self.outputs.len() > 1
            && match &self.op {
                KernelOp::Generate { folds, .. } => folds.is_empty(),
                KernelOp::Fold { .. } => true,
                _ => false,
            }
    }

    /// The type of the value this kernel stores per element of its outputs:
    /// its (first) output's element type, or for a horizontal kernel the
    /// tuple of its outputs' element types.
    pub fn stored(&self, plan: &Plan) -> Ty {
        if self.is_horizontal() {
            Ty::Tuple(
                self.outputs
                    .iter()
                    .map(|b| plan.buffer(*b).elem.clone())
                    .collect(),
            )
        } else {
            plan.buffer(self.outputs[0]).elem.clone()
        }
    }

    /// How many of [`Kernel::fused`] are the kernel's own operations: those
    /// before the first sibling or fold merged into it.
    pub fn own_fused(&self) -> usize {
        self.fused
            .iter()
            .position(|op| *op == horizontal::SIBLING)
            .unwrap_or(self.fused.len())
    }

    /// The fused operations for people: producers to consumer, with `&`
    /// between the siblings of a horizontal kernel.
    pub fn describe(&self) -> String {
        self.fused
            .split(|op| *op == horizontal::SIBLING)
            .map(|ops| ops.join(" -> "))
            .collect::<Vec<_>>()
            .join(" & ")
    }
}

#[derive(Clone, Debug)]
pub enum KernelOp {
    /// Every element of `shape` computed by `elem`.
    Generate {
        shape: H,
        elem: ElemFn,
        /// Folds of the generated array computed as it is generated (a
        /// fold and a map of different ranks in one kernel, seed 004), each
        /// storing the output that follows the generate's own in
        /// [`Kernel::outputs`]. Only on a generate with one output of its
        /// own.
        folds: Vec<PassFold>,
    },
    /// Reduce the innermost dimension (or everything) of an input of shape `shape`.
    Fold {
        shape: H,
        elem: ElemFn,
        z: Option<H>,
        f: Fun,
        all: bool,
        /// Applied to each result before it is stored: the producers that
        /// followed the fold (`a.fold(..).map(g)`), fused into it.
        post: Option<Fun>,
    },
    Scan {
        shape: H,
        elem: ElemFn,
        dir: ScanDir,
        kind: ScanKind,
        z: Option<H>,
        f: Fun,
        /// Applied to each output before it is stored (maps after the scan).
        /// Never set for `ScanKind::Exclusive`, which has two outputs.
        post: Option<Fun>,
        /// Folds computed in the same traversal (seed 004's cluster
        /// `{sum1, scan, sum2}`), each storing the output that follows the
        /// scan's own in [`Kernel::outputs`]. Never set for
        /// `ScanKind::Exclusive`.
        folds: Vec<PassFold>,
        /// Whether the scanned array is stored (the first output); not when
        /// only the folds read it.
        stored: bool,
    },
    /// Start from `defaults` (moved when this is its last use, copied otherwise)
    /// and combine each source element into its target.
    Permute {
        defaults: BufId,
        move_defaults: bool,
        shape: H,
        elem: ElemFn,
        index: Fun,
        combine: Fun,
    },
    /// The vector of shape `shape` (elements by `elem`) sorted stably by
    /// `key`, an unsigned integer of `key_bits` bits: a radix sort, one pass
    /// per digit.
    Sort {
        shape: H,
        elem: ElemFn,
        key: Fun,
        key_bits: u32,
    },
    /// `xs[.map(f)].expand(count, value)[.map(g)]` consumed by a permute or a
    /// fold over everything, without the expanded array or the offsets of the
    /// counts: each input element `x` (by row-major offset of the vector of
    /// shape `shape`) yields `count(x)` elements `e = item(x, k)`, `k` in
    /// `0..count(x)`, which go to the sink as `map(e)`.
    Expand {
        shape: H,
        elem: ElemFn,
        /// `|x| -> usize`: may fail (a negative count).
        count: Fun,
        /// `|x, k: usize|`: element `k` of `x`'s expansion.
        item: Fun,
        /// `|e|`: the maps between the expand and its consumer.
        map: Fun,
        sink: ExpandSink,
    },
}

/// A fold computed in another kernel's pass (the `folds` of
/// [`KernelOp::Scan`] and [`KernelOp::Generate`]): of the array that kernel
/// computes, or, beside a scan, of what the scan reads.
#[derive(Clone, Debug)]
pub struct PassFold {
    /// The space its elements come from: the array's shape (for a scan's
    /// outputs, each row one longer than the input's for a `scanl` or
    /// `scanr`) for a fold of the array, else the scan's input shape.
    pub shape: H,
    /// `|value, ix|`: the element at index `ix` of `shape`, `value` being the
    /// kernel's element there (a scan's output after its `post`).
    pub elem: Fun,
    /// The kernel's array, for a fold of it (which `alone` reads); `None`:
    /// a fold over a scan's input space, beside it, which skips the last
    /// output of each row of a scan with an initial value (no input element
    /// has it).
    pub of_array: Option<BufId>,
    pub z: Option<H>,
    pub f: Fun,
    /// Of everything, or of each row.
    pub all: bool,
    pub post: Option<Fun>,
    /// The fold kernel it was, its elements read from memory: what a back
    /// end that does not run folds inside another kernel runs after it
    /// ([`Plan::folds_apart`]).
    pub alone: Box<Kernel>,
}

/// Where the elements of a fused expand go.
#[derive(Clone, Debug)]
pub enum ExpandSink {
    /// Combined into a copy of `defaults` (moved when this is its last use)
    /// as `permute` does: `combine(new, old)`. `index(e, j)` is the target of
    /// element `e` at position `j` of the expanded array; `None` drops it.
    Permute {
        defaults: BufId,
        move_defaults: bool,
        index: Fun,
        combine: Fun,
    },
    /// Reduced in order with `f`, from `z` when there is one (`fold1_all`
    /// otherwise), the result passed through `post` before it is stored.
    Fold { z: Option<H>, f: Fun, post: Option<Fun> },
}

/// The program's result.
#[derive(Clone, Debug)]
pub enum Output {
    /// A buffer (copied when it is a parameter).
    Array(BufId),
    /// A scalar computed on the host.
    Scalar(H),
    Tuple(Vec<Output>),
}

impl Plan {
    /// Every kernel, those inside branches and loops included, in order.
    pub fn kernels(&self) -> impl Iterator<Item = &Kernel> {
        fn go<'p>(steps: &'p [Step], out: &mut Vec<&'p Kernel>) {
            for s in steps {
                if let Step::Kernel(k) = s {
                    out.push(k);
                }
                for b in s.blocks() {
                    go(&b.steps, out);
                }
            }
        }
        let mut v = Vec::new();
        go(&self.steps, &mut v);
        v.into_iter()
    }

    /// Buffers written by kernels (parameters excluded).
    pub fn materialised(&self) -> impl Iterator<Item = (BufId, &Buffer)> {
        self.buffers
            .iter()
            .filter(|(_, b)| matches!(b.origin, Origin::Kernel(_) | Origin::Control(_)))
    }

    /// Whether the plan branches or loops.
    fn has_control(&self) -> bool {
        self.steps
            .iter()
            .any(|s| matches!(s, Step::If { .. } | Step::While { .. }))
    }

    pub fn buffer(&self, b: BufId) -> &Buffer {
        &self.buffers[b]
    }

    /// Whether a fold (`all`: of every element) into `result` folds to
    /// one value, run as a whole (a vector's one row too), rather than row
    /// by row.
    pub fn folds_to_one_value(&self, all: bool, result: BufId) -> bool {
        all || self.buffers[result].rank == 0
    }

    /// The buffer whose first rows (all of its extents but the outermost)
    /// generate kernel `k` copies, if it does: its element function reads
    /// that buffer at its own index, under `let`s that read no memory, as
    /// `xs.take(n)` stored and a `collect`'s final prefix of its growing
    /// buffer do, and the buffer is of the kernel's element type and rank
    /// and not a parameter. When the kernel's shape leads the buffer's (the
    /// host checks), the result is the buffer cut to length: the CPU cuts a
    /// buffer that dies there in place, the GPU shares the columns.
    pub fn prefix_source(&self, k: &Kernel) -> Option<BufId> {
        let KernelOp::Generate { shape, elem, folds } = &k.op else {
            return None;
        };
        if k.is_horizontal() || !folds.is_empty() {
            return None;
        }
        let out = self.buffer(k.outputs[0]);
        let it = bounds::Iteration::of(&self.arena, elem, *shape)?;
        let mut h = elem.fun().body;
        while let Expr::Scalar(Scalar::Let { value, body, .. }) = self.arena.expr(h) {
            if bounds::touches_memory(&self.arena, *value) {
                return None;
            }
            h = *body;
        }
        let x = it.identity_read(&self.arena, h)?;
        let xb = self.buffers.get(x)?;
        let plain = xb.elem == out.elem && xb.rank == out.rank && out.rank > 0;
        (plain && !matches!(xb.origin, Origin::Param(_))).then_some(x)
    }

    fn buf_label(&self, b: BufId) -> String {
        match self.buffer(b).origin {
            Origin::Param(i) => format!("b{} ({})", b.0, self.params[i].name),
            _ => format!("b{}", b.0),
        }
    }

    /// The short human summary behind `name::explain()`.
    pub fn explain(&self) -> String {
        let mut s = String::new();
        let kernels: Vec<&Kernel> = self.kernels().collect();
        let _ = writeln!(
            s,
            "program `{}`: {} kernel{}",
            self.name,
            kernels.len(),
            if kernels.len() == 1 { "" } else { "s" }
        );
        let mut n = 0;
        self.explain_steps(&self.steps, 1, &mut n, &mut s);
        for (n, k) in kernels.iter().enumerate() {
            if let Some(d) = self.fold_demand(k) {
                let _ = writeln!(
                    s,
                    "kernel {n} folds only the rows its reader reads: where {}",
                    self.arena.show(d.cond)
                );
            }
        }
        let _ = writeln!(s, "materialised arrays:");
        for (b, buf) in self.materialised() {
            let _ = writeln!(
                s,
                "  b{}: {} of shape {}",
                b.0,
                Ty::array(buf.elem.clone(), buf.rank),
                self.arena.show(buf.shape)
            );
        }
        let _ = writeln!(s, "clustering: {}", self.fusion.describe());
        let t = self.traffic();
        let once = if self.has_control() {
            " (each branch and loop body counted once)"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "traffic (elements): reads {}, writes {}{once}",
            t.reads, t.writes
        );
        s
    }
}

impl Plan {
    /// Kernel `n` (its place in [`Plan::kernels`]) as `explain()` shows it:
    /// `kernel 3: fold -> b4   fuses: map -> fold`.
    pub fn kernel_label(&self, n: usize, k: &Kernel) -> String {
        let outs: Vec<String> = k.outputs.iter().map(|b| self.buf_label(*b)).collect();
        format!(
            "kernel {n}: {} -> {}   fuses: {}",
            k.op.skeleton(),
            outs.join(", "),
            k.describe()
        )
    }

    fn explain_steps(&self, steps: &[Step], depth: usize, n: &mut usize, s: &mut String) {
        let pad = "  ".repeat(depth);
        for step in steps {
            match step {
                Step::Kernel(k) => {
                    let _ = writeln!(s, "{pad}{}", self.kernel_label(*n, k));
                    *n += 1;
                }
                Step::If { then, els, outs, .. } => {
                    let _ = writeln!(s, "{pad}if -> {}", self.slots(outs));
                    self.explain_steps(&then.steps, depth + 1, n, s);
                    let _ = writeln!(s, "{pad}else");
                    self.explain_steps(&els.steps, depth + 1, n, s);
                }
                Step::While {
                    state,
                    cond,
                    body,
                    outs,
                    pulls,
                    ..
                } => {
                    let _ = writeln!(
                        s,
                        "{pad}while (state {}) -> {}",
                        self.slots(state),
                        self.slots(outs)
                    );
                    // A sequence's loop: one element of each stream per iteration.
                    for p in pulls {
                        let name = self.params.get(p.param).map_or("?", |x| x.name.as_str());
                        let what = match p.chunk {
                            Some(_) => "a chunk of elements per iteration",
                            None => "one element per iteration",
                        };
                        let _ = writeln!(s, "{pad}  pulls b{} from stream `{name}` ({what})", p.item.0);
                    }
                    if !cond.steps.is_empty() {
                        let _ = writeln!(s, "{pad}  condition:");
                        self.explain_steps(&cond.steps, depth + 2, n, s);
                    }
                    let _ = writeln!(s, "{pad}  body:");
                    self.explain_steps(&body.steps, depth + 2, n, s);
                }
                Step::CheckReshape { .. } | Step::Let { .. } => {}
            }
        }
    }

    fn slots(&self, slots: &[Slot]) -> String {
        let xs: Vec<String> = slots
            .iter()
            .map(|x| match x {
                Slot::Buf(b) => format!("b{}", b.0),
                Slot::Var(v) => format!("{}_{}", self.arena.var(*v).name, v.0),
            })
            .collect();
        format!("({})", xs.join(", "))
    }

    fn vals(&self, vals: &[Val]) -> String {
        let xs: Vec<String> = vals
            .iter()
            .map(|x| match x {
                Val::Buf(b) => format!("b{}", b.0),
                Val::Scalar(h) => self.arena.show(*h),
            })
            .collect();
        format!("({})", xs.join(", "))
    }
}

impl Plan {
    /// How many nodes matching `pred` the kernels' scalar functions evaluate,
    /// per element, summed over the kernels: the functions are counted as the
    /// trees that the code generators emit (a node reached along two paths is
    /// evaluated twice; a `let`'s value once). Structure tests use it to show
    /// that shared scalar work is not recomputed.
    pub fn evaluations(&self, pred: impl Fn(&crate::ir::Expr) -> bool) -> usize {
        fn count(
            a: &Arena,
            h: H,
            pred: &dyn Fn(&crate::ir::Expr) -> bool,
            memo: &mut std::collections::HashMap<H, usize>,
        ) -> usize {
            if let Some(&n) = memo.get(&h) {
                return n;
            }
            let e = a.expr(h);
            let n = usize::from(pred(e))
                + e.children()
                    .into_iter()
                    .map(|c| count(a, c, pred, memo))
                    .fold(0usize, usize::saturating_add);
            memo.insert(h, n);
            n
        }
        let mut memo = std::collections::HashMap::new();
        self.kernels()
            .flat_map(|k| k.op.funs())
            .map(|f| count(&self.arena, f.body, &pred, &mut memo))
            .fold(0usize, usize::saturating_add)
    }
}

/// Whether combination function `f` is commutative as well as associative
/// (which the language requires of every fold operator): `a + b`, `a * b`,
/// `a.min(b)`, `a.max(b)`, `&`, `|`, `^`, either way round, or a tuple of
/// such operators applied field by field; or the choice of one operand by
/// an order on all of its fields (`a.min(b)` of tuples: an argmin with ties
/// broken by the index). The back ends may then combine elements in any
/// order (interleaved accumulators on the CPU, strided coalesced loads on a
/// GPU).
pub fn commutative(arena: &Arena, f: &Fun) -> bool {
    use crate::ir::{Expr, Scalar};
    let [mut a, mut b] = f.params[..] else {
        return false;
    };
    // `let a2 = a; let b2 = b; ..`: the body reads the new names.
    let mut h = f.body;
    while let Expr::Scalar(Scalar::Let { var, value, body }) = arena.expr(h) {
        match arena.expr(*value) {
            Expr::Scalar(Scalar::Var(x)) if *x == a => a = *var,
            Expr::Scalar(Scalar::Var(x)) if *x == b => b = *var,
            _ => return false,
        }
        h = *body;
    }
    commutative_at(arena, h, a, b, &mut Vec::new())
}

/// Whether `h` is `if x ≺ y { x } else { y }` for fields `path` of `a`
/// and `b` (`{x, y}`, either way round), and `≺` a lexicographic order over
/// every scalar field below, strict but in the last: `x.0 < y.0 || (x.0 ==
/// y.0 && x.1 < y.1)`, as `min` and `max` of tuples are written. The result
/// is then the least (or greatest) operand whichever comes first, or one of
/// two equal ones. Comparing only some fields is not enough: which of two
/// elements equal in them wins would depend on their order.
fn selects_by_total_order(arena: &Arena, (c, t, e): (H, H, H), a: VarId, b: VarId, path: &[usize]) -> bool {
    let field_of = |h: H, v: VarId| is_field(arena, h, v, path);
    let (x, y) = if field_of(t, a) && field_of(e, b) {
        (a, b)
    } else if field_of(t, b) && field_of(e, a) {
        (b, a)
    } else {
        return false;
    };
    let mut ty = &arena.var(x).ty;
    for &k in path {
        match ty {
            crate::ir::Ty::Tuple(ts) if k < ts.len() => ty = &ts[k],
            _ => return false,
        }
    }
    let mut fields = Vec::new();
    field_paths(ty, &mut path.to_vec(), &mut fields);
    lexicographic(arena, c, x, y, &fields)
}

/// Whether `h` is field `path` of variable `v` (`v.0.1` for `[0, 1]`).
fn is_field(arena: &Arena, h: H, v: VarId, path: &[usize]) -> bool {
    use crate::ir::{Expr, Scalar};
    let mut h = h;
    for &k in path.iter().rev() {
        match arena.expr(h) {
            Expr::Scalar(Scalar::Proj(inner, n)) if *n == k => h = *inner,
            _ => return false,
        }
    }
    matches!(arena.expr(h), Expr::Scalar(Scalar::Var(w)) if *w == v)
}

/// The paths of the scalar fields of `ty`, in order.
fn field_paths(ty: &crate::ir::Ty, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    match ty {
        crate::ir::Ty::Tuple(ts) => {
            for (k, t) in ts.iter().enumerate() {
                path.push(k);
                field_paths(t, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

/// Whether `c` is `x ≺ y` over `fields` (see [`selects_by_total_order`]),
/// each field by `<` or `>` (either gives a total order).
/// A float field may order NaN after every number, as `argmin` and
/// `argmax` do: `x.f < y.f || (y.f != y.f && !(x.f != x.f))`, equal when
/// `x.f == y.f || (x.f != x.f && y.f != y.f)`.
fn lexicographic(arena: &Arena, c: H, x: VarId, y: VarId, fields: &[Vec<usize>]) -> bool {
    use crate::ir::{BinOp, Expr, Scalar, UnOp};
    let Some((first, rest)) = fields.split_first() else {
        return false;
    };
    let bin = |h: H| match arena.expr(h) {
        Expr::Scalar(Scalar::Binary(op, l, r)) => Some((*op, *l, *r)),
        _ => None,
    };
    let field = |h: H, v: VarId| is_field(arena, h, v, first);
    // `c` as `x.f op y.f`: the operator, either way round.
    let compare = |c: H| -> Option<BinOp> {
        let (op, l, r) = bin(c)?;
        if field(l, x) && field(r, y) {
            Some(op)
        } else if field(l, y) && field(r, x) {
            Some(match op {
                BinOp::Lt => BinOp::Gt,
                BinOp::Gt => BinOp::Lt,
                BinOp::Le => BinOp::Ge,
                BinOp::Ge => BinOp::Le,
                other => other,
            })
        } else {
            None
        }
    };
    // `v.f != v.f`
    let is_nan = |h: H, v: VarId| matches!(bin(h), Some((BinOp::Ne, l, r)) if field(l, v) && field(r, v));
    // An order: strict but in the last field.
    let order = |op: Option<BinOp>, strict: bool| match op {
        Some(BinOp::Lt | BinOp::Gt) => true,
        Some(BinOp::Le | BinOp::Ge) => !strict,
        _ => false,
    };
    if rest.is_empty() {
        return order(compare(c), false);
    }
    // `x.f ≺ y.f || (x.f == y.f && REST)`
    let Some((BinOp::Or, before, tie)) = bin(c) else {
        return false;
    };
    let strict = |h: H| {
        if order(compare(h), true) {
            return true;
        }
        // NaN last: `x.f ≺ y.f || (y.f != y.f && !(x.f != x.f))`
        let Some((BinOp::Or, cmp, nan)) = bin(h) else {
            return false;
        };
        let Some((BinOp::And, y_nan, x_num)) = bin(nan) else {
            return false;
        };
        let x_num = matches!(arena.expr(x_num), Expr::Scalar(Scalar::Unary(UnOp::Not, n)) if is_nan(*n, x));
        is_nan(y_nan, y) && x_num && order(compare(cmp), true)
    };
    let equal = |h: H| {
        compare(h) == Some(BinOp::Eq)
            || matches!(bin(h), Some((BinOp::Or, eq, nans)) if compare(eq) == Some(BinOp::Eq)
                && matches!(bin(nans), Some((BinOp::And, p, q))
                    if (is_nan(p, x) && is_nan(q, y)) || (is_nan(p, y) && is_nan(q, x))))
    };
    let Some((BinOp::And, eq, next)) = bin(tie) else {
        return false;
    };
    strict(before) && equal(eq) && lexicographic(arena, next, x, y, rest)
}

/// Whether `h` is the commutative combination of field `path` of the two
/// parameters `a` and `b`.
fn commutative_at(arena: &Arena, h: H, a: VarId, b: VarId, path: &mut Vec<usize>) -> bool {
    use crate::ir::{BinOp, Expr, MathFn, Scalar};
    let is_field = |x: H, p: VarId, path: &[usize]| is_field(arena, x, p, path);
    let pair = |x: H, y: H| {
        (is_field(x, a, path) && is_field(y, b, path)) || (is_field(x, b, path) && is_field(y, a, path))
    };
    match arena.expr(h) {
        Expr::Scalar(Scalar::Tuple(xs)) => xs.iter().enumerate().all(|(k, x)| {
            path.push(k);
            let ok = commutative_at(arena, *x, a, b, path);
            path.pop();
            ok
        }),
        Expr::Scalar(Scalar::Binary(
            BinOp::Add | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor,
            x,
            y,
        )) => pair(*x, *y),
        Expr::Scalar(Scalar::Math(MathFn::Min | MathFn::Max, xs)) if xs.len() == 2 => pair(xs[0], xs[1]),
        Expr::Scalar(Scalar::If(c, t, e)) => selects_by_total_order(arena, (*c, *t, *e), a, b, path),
        _ => false,
    }
}

/// A permute combination that hardware does atomically on an integer slot:
/// `combine(new, old)` is `new op old` (or `old op new`) for a commutative `op`,
/// so the order in which sources arrive does not matter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicCombine {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl AtomicCombine {
    /// The atomic form of `combine` on elements of type `elem`, if it has one:
    /// integers only (their `+` wraps, as atomic adds do).
    pub fn of(arena: &Arena, combine: &Fun, elem: &Ty) -> Option<AtomicCombine> {
        let Ty::Prim(p) = elem else { return None };
        if !p.is_int() {
            return None;
        }
        Self::operator(arena, combine)
    }

    /// The operation `combine(new, old)` is, whatever the element type:
    /// `new op old` or `old op new` for one of these operators.
    pub fn operator(arena: &Arena, combine: &Fun) -> Option<AtomicCombine> {
        use crate::ir::{BinOp, Expr, MathFn};
        let [a, b] = combine.params[..] else { return None };
        let var = |h: H| match arena.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => Some(*v),
            _ => None,
        };
        let operands = |x: H, y: H| {
            let (x, y) = (var(x)?, var(y)?);
            ((x, y) == (a, b) || (x, y) == (b, a)).then_some(())
        };
        match arena.expr(combine.body) {
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
                operands(*x, *y)?;
                match op {
                    BinOp::Add => Some(AtomicCombine::Add),
                    BinOp::BitAnd => Some(AtomicCombine::And),
                    BinOp::BitOr => Some(AtomicCombine::Or),
                    BinOp::BitXor => Some(AtomicCombine::Xor),
                    _ => None,
                }
            }
            Expr::Scalar(Scalar::Math(f @ (MathFn::Min | MathFn::Max), xs)) if xs.len() == 2 => {
                operands(xs[0], xs[1])?;
                Some(if *f == MathFn::Min {
                    AtomicCombine::Min
                } else {
                    AtomicCombine::Max
                })
            }
            _ => None,
        }
    }
}

impl ElemFn {
    pub fn fun(&self) -> &Fun {
        match self {
            ElemFn::Linear(f) | ElemFn::Index(f) => f,
        }
    }

    /// Whether computing one element runs a `while` loop: its cost then
    /// depends on the data (a segmented fold's row, a Mandelbrot pixel), so
    /// the back ends split the work finely and balance it dynamically.
    pub fn loops(&self, arena: &Arena) -> bool {
        arena.reaches(self.fun().body, |_, e| {
            matches!(e, Expr::Scalar(Scalar::While { .. }))
        })
    }
}

impl KernelOp {
    /// The folds computed in this kernel's pass (a scan's or a generate's).
    pub fn pass_folds(&self) -> &[PassFold] {
        match self {
            KernelOp::Generate { folds, .. } | KernelOp::Scan { folds, .. } => folds,
            _ => &[],
        }
    }

    /// Host expressions evaluated before the kernel runs: the iteration
    /// shape and the initial value.
    pub fn host_exprs(&self) -> Vec<H> {
        match self {
            KernelOp::Generate { shape, folds, .. } => std::iter::once(*shape)
                .chain(folds.iter().flat_map(|g| std::iter::once(g.shape).chain(g.z)))
                .collect(),
            KernelOp::Permute { shape, .. } | KernelOp::Sort { shape, .. } => {
                vec![*shape]
            }
            KernelOp::Fold { shape, z, .. } => std::iter::once(*shape).chain(*z).collect(),
            KernelOp::Scan { shape, z, folds, .. } => std::iter::once(*shape)
                .chain(*z)
                .chain(folds.iter().flat_map(|g| std::iter::once(g.shape).chain(g.z)))
                .collect(),
            KernelOp::Expand { shape, sink, .. } => match sink {
                ExpandSink::Fold { z, .. } => std::iter::once(*shape).chain(*z).collect(),
                ExpandSink::Permute { .. } => vec![*shape],
            },
        }
    }

    /// The closures run per element: the element function first.
    pub fn funs(&self) -> Vec<&Fun> {
        match self {
            KernelOp::Generate { elem, folds, .. } => std::iter::once(elem.fun())
                .chain(
                    folds
                        .iter()
                        .flat_map(|g| std::iter::once(&g.elem).chain([&g.f]).chain(&g.post)),
                )
                .collect(),
            KernelOp::Fold { elem, f, post, .. } => {
                std::iter::once(elem.fun()).chain([f]).chain(post).collect()
            }
            KernelOp::Scan {
                elem, f, post, folds, ..
            } => std::iter::once(elem.fun())
                .chain([f])
                .chain(post)
                .chain(
                    folds
                        .iter()
                        .flat_map(|g| std::iter::once(&g.elem).chain([&g.f]).chain(&g.post)),
                )
                .collect(),
            KernelOp::Permute {
                elem, index, combine, ..
            } => vec![elem.fun(), index, combine],
            KernelOp::Sort { elem, key, .. } => vec![elem.fun(), key],
            KernelOp::Expand {
                elem,
                count,
                item,
                map,
                sink,
                ..
            } => {
                let mut v = vec![elem.fun(), count, item, map];
                match sink {
                    ExpandSink::Permute { index, combine, .. } => v.extend([index, combine]),
                    ExpandSink::Fold { f, post, .. } => v.extend(std::iter::once(f).chain(post)),
                }
                v
            }
        }
    }

    /// The buffer a permute starts from.
    pub fn defaults(&self) -> Option<BufId> {
        match self {
            KernelOp::Permute { defaults, .. } => Some(*defaults),
            KernelOp::Expand {
                sink: ExpandSink::Permute { defaults, .. },
                ..
            } => Some(*defaults),
            _ => None,
        }
    }

    pub fn skeleton(&self) -> &'static str {
        match self {
            KernelOp::Generate { .. } => "generate",
            KernelOp::Fold { all: true, .. } => "fold_all",
            KernelOp::Fold { .. } => "fold",
            KernelOp::Scan { .. } => "scan",
            KernelOp::Permute { .. } => "permute",
            KernelOp::Sort { .. } => "sort",
            KernelOp::Expand {
                sink: ExpandSink::Permute { .. },
                ..
            } => "expand_permute",
            KernelOp::Expand {
                sink: ExpandSink::Fold { .. },
                ..
            } => "expand_fold_all",
        }
    }
}

impl Plan {
    fn show_fun(&self, x: &Fun) -> String {
        let a = &self.arena;
        let ps: Vec<String> = x
            .params
            .iter()
            .map(|p| format!("{}_{}", a.var(*p).name, p.0))
            .collect();
        format!("|{}| {}", ps.join(", "), a.show(x.body))
    }

    /// The folds in a kernel's pass, one line each.
    fn fmt_pass_folds(&self, f: &mut fmt::Formatter<'_>, folds: &[PassFold], pad: &str) -> fmt::Result {
        let a = &self.arena;
        for x in folds {
            writeln!(
                f,
                "{pad}    and {} {} {} over {} z={} f={}{}",
                if x.all { "fold_all" } else { "fold" },
                a.show(x.shape),
                self.show_fun(&x.elem),
                if x.of_array.is_some() {
                    "its array"
                } else {
                    "its input space"
                },
                x.z.map(|z| a.show(z)).unwrap_or("-".into()),
                self.show_fun(&x.f),
                x.post
                    .as_ref()
                    .map(|p| format!(" then={}", self.show_fun(p)))
                    .unwrap_or_default()
            )?;
        }
        Ok(())
    }

    fn fmt_steps(&self, f: &mut fmt::Formatter<'_>, steps: &[Step], depth: usize) -> fmt::Result {
        let a = &self.arena;
        let pad = "  ".repeat(depth);
        let fun = |x: &Fun| self.show_fun(x);
        let elem = |e: &ElemFn| match e {
            ElemFn::Linear(x) => format!("linear {}", fun(x)),
            ElemFn::Index(x) => format!("index {}", fun(x)),
        };
        for step in steps {
            match step {
                Step::CheckReshape { from, to, .. } => {
                    writeln!(f, "{pad}check reshape {} -> {}", a.show(*from), a.show(*to))?
                }
                Step::Let { var, value } => {
                    writeln!(f, "{pad}let {}_{} = {}", a.var(*var).name, var.0, a.show(*value))?
                }
                Step::If {
                    cond,
                    then,
                    els,
                    outs,
                } => {
                    writeln!(f, "{pad}{} = if {} {{", self.slots(outs), a.show(*cond))?;
                    self.fmt_steps(f, &then.steps, depth + 1)?;
                    writeln!(f, "{pad}  yield {}", self.vals(&then.result))?;
                    writeln!(f, "{pad}}} else {{")?;
                    self.fmt_steps(f, &els.steps, depth + 1)?;
                    writeln!(f, "{pad}  yield {}", self.vals(&els.result))?;
                    writeln!(f, "{pad}}}")?;
                }
                Step::While {
                    state,
                    init,
                    cond,
                    body,
                    outs,
                    pulls,
                } => {
                    writeln!(
                        f,
                        "{pad}{} = loop {} = {} {{",
                        self.slots(outs),
                        self.slots(state),
                        self.vals(init)
                    )?;
                    for p in pulls {
                        let name = self.params.get(p.param).map_or("?", |x| x.name.as_str());
                        match p.chunk {
                            Some((len, elems)) => writeln!(
                                f,
                                "{pad}  b{} = next chunk of stream {name} ({} elements, or about {} values; or stop)",
                                p.item.0,
                                self.arena.show(len),
                                self.arena.show(elems)
                            )?,
                            None => writeln!(f, "{pad}  b{} = next of stream {name} (or stop)", p.item.0)?,
                        }
                    }
                    self.fmt_steps(f, &cond.steps, depth + 1)?;
                    writeln!(f, "{pad}  while {}", self.vals(&cond.result))?;
                    self.fmt_steps(f, &body.steps, depth + 1)?;
                    writeln!(f, "{pad}  next {}", self.vals(&body.result))?;
                    writeln!(f, "{pad}}}")?;
                }
                Step::Kernel(k) => {
                    let outs: Vec<String> = k.outputs.iter().map(|b| format!("b{}", b.0)).collect();
                    write!(f, "{pad}{} = {}", outs.join(", "), k.op.skeleton())?;
                    match &k.op {
                        KernelOp::Generate {
                            shape,
                            elem: e,
                            folds,
                        } => {
                            writeln!(f, " {} {}", a.show(*shape), elem(e))?;
                            self.fmt_pass_folds(f, folds, &pad)?;
                        }
                        KernelOp::Fold {
                            shape,
                            elem: e,
                            z,
                            f: g,
                            post,
                            ..
                        } => writeln!(
                            f,
                            " {} {} z={} f={}{}",
                            a.show(*shape),
                            elem(e),
                            z.map(|z| a.show(z)).unwrap_or("-".into()),
                            fun(g),
                            post.as_ref()
                                .map(|p| format!(" then={}", fun(p)))
                                .unwrap_or_default()
                        )?,
                        KernelOp::Scan {
                            shape,
                            elem: e,
                            dir,
                            kind,
                            z,
                            f: g,
                            post,
                            folds,
                            stored,
                        } => {
                            writeln!(
                                f,
                                "[{dir:?}, {kind:?}] {} {} z={} f={}{}{}",
                                a.show(*shape),
                                elem(e),
                                z.map(|z| a.show(z)).unwrap_or("-".into()),
                                fun(g),
                                post.as_ref()
                                    .map(|p| format!(" then={}", fun(p)))
                                    .unwrap_or_default(),
                                if *stored { "" } else { " (not stored)" }
                            )?;
                            self.fmt_pass_folds(f, folds, &pad)?;
                        }
                        KernelOp::Permute {
                            defaults,
                            move_defaults,
                            shape,
                            elem: e,
                            index,
                            combine,
                        } => writeln!(
                            f,
                            " defaults=b{}{} {} {} index={} combine={}",
                            defaults.0,
                            if *move_defaults { " (moved)" } else { "" },
                            a.show(*shape),
                            elem(e),
                            fun(index),
                            fun(combine)
                        )?,
                        KernelOp::Sort {
                            shape,
                            elem: e,
                            key,
                            key_bits,
                        } => writeln!(
                            f,
                            " {} {} key={} ({key_bits} bits)",
                            a.show(*shape),
                            elem(e),
                            fun(key)
                        )?,
                        KernelOp::Expand {
                            shape,
                            elem: e,
                            count,
                            item,
                            map,
                            sink,
                        } => {
                            write!(
                                f,
                                " {} {} count={} item={} map={}",
                                a.show(*shape),
                                elem(e),
                                fun(count),
                                fun(item),
                                fun(map)
                            )?;
                            match sink {
                                ExpandSink::Permute {
                                    defaults,
                                    move_defaults,
                                    index,
                                    combine,
                                } => writeln!(
                                    f,
                                    " defaults=b{}{} index={} combine={}",
                                    defaults.0,
                                    if *move_defaults { " (moved)" } else { "" },
                                    fun(index),
                                    fun(combine)
                                )?,
                                ExpandSink::Fold { z, f: g, post } => writeln!(
                                    f,
                                    " z={} f={}{}",
                                    z.map(|z| a.show(z)).unwrap_or("-".into()),
                                    fun(g),
                                    post.as_ref()
                                        .map(|p| format!(" then={}", fun(p)))
                                        .unwrap_or_default()
                                )?,
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Plan {
    /// The full plan, with every element function: for golden tests.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "plan {}", self.name)?;
        for p in &self.params {
            writeln!(f, "  param {}: {} = {:?}", p.name, p.ty, p.binding)?;
        }
        self.fmt_steps(f, &self.steps, 1)?;
        writeln!(f, "  result {:?}", self.result)
    }
}
