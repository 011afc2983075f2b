//! Kernel plan → Rust code calling `accel_runtime::cpu`'s skeletons.
//!
//! The code is one block evaluating to `accel::Result<T>`. Every buffer is a
//! local of its struct-of-arrays columns (`__bN`), its shape (`__bN_shape`) and
//! one slice per primitive leaf (`__bN_cK`); every IR variable is `__vN`. Names
//! start with `__` and carry numbers, so they never collide with the user's.
//! Buffers are dropped after their last use, so no array lives longer than in
//! the plan.

use accel_core::ir::{
    Arena, BinOp, Boundary, BufId, Expr, Fun, Loc, PlanRead, Prim, Scalar, ScanDir, ScanKind, Ty, UnOp,
    VarId, H,
};
use accel_core::plan::{
    AtomicCombine, Demand, ElemFn, ExpandSink, KernelOp, Origin, ParamBinding, PassFold, Plan, Slot, Step,
};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

mod lanes;
mod row_lanes;
mod rows;
mod walk;

use crate::host::{buf, buf_shape, buffer_of, leaf, leaf_paths, location, rust_ty, var, Scalars, Target};
use accel_core::plan::bounds::{
    counter_reads, facts, is_iteration_index, let_values, loop_bounds, on_host, prove, resolve_lets,
    touches_memory, Bound, BoxFacts, Context, Fact, Iteration, Proof,
};

/// The body of `name::on(backend, ..)` after the backend check: a block that
/// evaluates to `Result<T>`. `rt` is the path of the runtime crate.
pub fn program_body(plan: &Plan, rt: &TokenStream) -> TokenStream {
    crate::host::program(&Gen::new(plan, rt))
}

struct Gen<'a> {
    plan: &'a Plan,
    a: &'a Arena,
    rt: &'a TokenStream,
    /// Emitting the interior version of a stencil kernel: neighbours are read
    /// without the boundary rule.
    fast_stencil: Cell<bool>,
    /// Numbers for the names of the lanes' locals ([`lanes`]).
    fresh: Cell<usize>,
    /// While emitting an update in place that reads the array it writes
    /// ([`Gen::in_place`]): that buffer, whose leaf is then its storage
    /// (`InPlace`), not a slice.
    in_place_leaf: Cell<Option<u32>>,
    /// While emitting a kernel's element function: its index parameter, the
    /// shape of the iteration space, and the body's `let` values. Reads at
    /// indices that are provably inside their array then skip the check.
    iteration: RefCell<Option<Iteration>>,
    /// While emitting a kernel in two versions (see [`Gen::versioned`]): the
    /// host conditions under which some checked reads are in bounds for every
    /// element, and whether this is the version that assumes them.
    entry_checks: RefCell<Option<EntryChecks>>,
    /// The values of the scalar `let`s around the expression being emitted.
    lets_in_scope: RefCell<HashMap<VarId, H>>,
    /// Facts `v < x` that hold where the expression being emitted runs: the
    /// step of a `while` whose condition requires them (`x` does not change
    /// in the loop).
    below: RefCell<Vec<(VarId, H)>>,
    /// The loops around the expression being emitted in their fast version,
    /// whose counter reads were tested before them (`bounds::counter_reads`),
    /// with those reads.
    fast_loops: RefCell<Vec<(H, HashSet<H>)>>,
    /// How many loops around the expression being emitted are emitted twice
    /// for their counter reads.
    loop_versions: Cell<usize>,
    /// Buffers read at the iteration index that the version of a kernel
    /// being emitted reads at the linear offset `__i` ([`Gen::linear_version`]).
    linear_reads: RefCell<HashSet<u32>>,
    /// What the `if`s around the expression being emitted say
    /// (`bounds::facts`: the conjuncts of a then-branch's condition, the
    /// negations of an else-branch's); [`Gen::proof`] reads `i >= 1` and
    /// `i + 1 < n` from them.
    guards: RefCell<Vec<Fact>>,
    /// Scalars the host computes (parameters, `let`s and loop state of the
    /// plan's steps): an element function reads them but never binds them.
    host_vars: HashSet<VarId>,
    /// Emitting the inside of a guard split ([`Gen::guard_split`]): the `if`s
    /// decided there, and what the box says of the index.
    split: RefCell<Option<Split>>,
    /// Emitting the scalar code of one lane ([`lanes`]): `&&` and `||` whose
    /// right side cannot fail evaluate both sides, which keeps the lanes free
    /// of branches.
    eager_logic: Cell<bool>,
    /// Emitting the combination of a fold over rows: `&&` and `||` between
    /// comparisons of values evaluate both sides ([`cheap_logic`]). A row
    /// combines few elements, so a test of data there (an argmin over 5
    /// centres) is about as often true as false, and a branch on it
    /// mispredicts; over a whole array the running result seldom changes and
    /// the branches are predicted, so a fold to one value keeps them.
    eager_compare: Cell<bool>,
    /// While emitting a kernel: the scalar expressions it computes from host
    /// values alone (see [`Gen::hoist`]), each bound once before the kernel
    /// as `(name, value, type)`.
    hoisted: RefCell<Option<Vec<Hoisted>>>,
    /// While emitting the element function of an expand's item: the divisors
    /// that stay the same over a run of one input's elements (see
    /// [`Gen::run_divisor`]).
    run_divisors: RefCell<Option<RunDivisors>>,
    /// Emitting a let-bound variable as its value (see [`Gen::run_divisor`]).
    inline_lets: Cell<bool>,
    /// While emitting the element function of a generate over rows: the
    /// parts computed once per row (see [`rows`]).
    row_values: RefCell<Option<RowValues>>,
    /// Values a group of row lanes computed once, by name, read in each
    /// lane's code ([`row_lanes`]).
    lane_values: RefCell<HashMap<H, TokenStream>>,
    /// Memo of [`Gen::on_host`].
    host_memo: RefCell<HashMap<H, bool>>,
}

impl<'a> Gen<'a> {
    fn new(plan: &'a Plan, rt: &'a TokenStream) -> Gen<'a> {
        Gen {
            plan,
            a: &plan.arena,
            rt,
            fast_stencil: Cell::new(false),
            fresh: Cell::new(0),
            in_place_leaf: Cell::new(None),
            iteration: RefCell::new(None),
            entry_checks: RefCell::new(None),
            lets_in_scope: RefCell::new(HashMap::new()),
            below: RefCell::new(Vec::new()),
            fast_loops: RefCell::new(Vec::new()),
            loop_versions: Cell::new(0),
            linear_reads: RefCell::new(HashSet::new()),
            guards: RefCell::new(Vec::new()),
            split: RefCell::new(None),
            host_vars: host_vars(plan),
            eager_logic: Cell::new(false),
            eager_compare: Cell::new(false),
            hoisted: RefCell::new(None),
            run_divisors: RefCell::new(None),
            inline_lets: Cell::new(false),
            row_values: RefCell::new(None),
            lane_values: RefCell::new(HashMap::new()),
            host_memo: RefCell::new(HashMap::new()),
        }
    }
}

/// `call` with `__ctx` rebound to a reference: the skeletons' `move` closures
/// capture the slices, shapes and scalars they read by value (loop-invariant
/// loads from the closure, not through a reference to the caller's variable),
/// and the error context by reference.
fn ctx_by_ref(call: TokenStream) -> TokenStream {
    quote!({ let __ctx = &__ctx; #call })
}

/// The combination of a permute that the CPU does as one atomic operation
/// (or, into private tables, as plain updates from the operation's
/// identity): the plan's for integers, and `+` for floats (a
/// compare-and-swap loop: there is no float atomic add; from `-0.0`, an
/// exact identity, so the tables need no "empty" mark).
fn cpu_atomic(a: &Arena, combine: &Fun, elem: &Ty) -> Option<AtomicCombine> {
    match elem {
        // No atomic operations on 16-bit floats: locks or private tables.
        Ty::Prim(p) if p.is_half() => None,
        Ty::Prim(p) if p.is_float() => {
            AtomicCombine::operator(a, combine).filter(|&op| op == AtomicCombine::Add)
        }
        _ => AtomicCombine::of(a, combine, elem),
    }
}

/// Whether values of type `ty` are plain scalars (`Copy` in the generated
/// code): no arrays or sequences in them.
fn copyable(ty: &Ty) -> bool {
    match ty {
        Ty::Prim(_) | Ty::Index(_) => true,
        Ty::Tuple(ts) => ts.iter().all(copyable),
        Ty::Option(t) => copyable(t),
        Ty::Array(..) | Ty::Seq(_) => false,
    }
}

/// A value computed once before a kernel: `let name: ty = value;`.
struct Hoisted {
    /// The expression, and whether this is its reciprocal as a divisor
    /// ([`FastDiv::divisor`](accel_runtime::ops::FastDiv)) rather than its value.
    key: (H, bool),
    name: Ident,
    value: TokenStream,
    ty: TokenStream,
}

/// The values computed once per row of a generate over rows (`__row.k`).
struct RowValues {
    /// The expressions to compute so ([`rows::row_values`]).
    wanted: HashSet<H>,
    /// Those met while emitting the element function, in order: the
    /// expression, its value (computed at the row's first element) and type.
    values: Vec<(H, TokenStream, TokenStream)>,
    /// Emitting one of them: its parts are computed with it.
    emitting: bool,
}

/// The divisors computed once per run of an expand's elements.
struct RunDivisors {
    /// The item function's parameters: the input, and the element's number.
    input: VarId,
    element: VarId,
    /// The divisors' values (emitted for the run) and names.
    divisors: Vec<(String, Ident, TokenStream)>,
    /// The rows the runs split into, if the item divides its element's
    /// number (see [`Gen::row_division`]).
    rows: Option<ItemRows>,
}

/// The rows of an expand item's runs ([`accel_runtime::cpu::Rows`]): the
/// item divides its element's number `k` (as `dividend`: `k` or an integer
/// cast of it) by divisors that stay the same over a run, each the first
/// one, `width`, or a multiple of it. A row ends where `dividend` reaches a
/// multiple of `width`: over it every `dividend / d` stays the same and
/// every `dividend % d` counts up by one, so they are computed once per row
/// and the loop over the row's elements is a plain loop. The runtime checks
/// of [`Gen::rows_closure`] keep a row that would break this to one element.
struct ItemRows {
    /// `dividend`'s value (in terms of `k`, its `let`s inlined), as tokens
    /// and as text (to compare), and its type.
    dividend: TokenStream,
    dividend_key: String,
    ty: TokenStream,
    /// The divisors, `width` first: their values as text (to compare), as
    /// tokens, and as fast divisors where [`Gen::fast_divisor_of`] holds.
    divisors: Vec<(String, TokenStream, Option<Ident>)>,
}

/// Whether the element function of a fold of rows reads some array with the
/// row's last index innermost (`b[[k, j]]` in a matrix product whose rows are
/// `[i, j]` and whose fold runs over `k`): such reads are contiguous across
/// neighbouring rows and a whole row apart along one, so the fold is better
/// run with its loops interchanged, a tile of columns at a time
/// ([`fold_columns_then`](accel_runtime::cpu::fold_columns_then)).
fn reads_across_rows(a: &Arena, elem: &ElemFn) -> bool {
    let ElemFn::Index(f) = elem else {
        return false;
    };
    let p = f.params[0];
    let Ty::Index(rank) = a.var(p).ty else {
        return false;
    };
    if rank < 2 {
        return false;
    }
    let lets = let_values(a, f.body);
    let resolve = |h: H| {
        resolve_lets(a, h, |v| match lets.get(&v).map(Vec::as_slice) {
            Some([x]) if v != p => Some(*x),
            _ => None,
        })
    };
    let row_axis = rank - 2;
    a.reaches(f.body, |_, e| {
        let index = match e {
            Expr::Plan(PlanRead::Checked { index, .. }) | Expr::Plan(PlanRead::ReadIndex { index, .. }) => {
                *index
            }
            _ => return false,
        };
        let Expr::Scalar(Scalar::MakeIndex(xs)) = a.expr(resolve(index)) else {
            return false;
        };
        let Some(&last) = xs.last() else {
            return false;
        };
        matches!(a.expr(resolve(last)), Expr::Scalar(Scalar::Proj(b, d))
            if *d == row_axis && matches!(a.expr(resolve(*b)), Expr::Scalar(Scalar::Var(v)) if *v == p))
    })
}

/// Whether a permute's combination keeps the new value (`|new, _old| new`:
/// a scatter, where which of several sources wins is unspecified).
fn keeps_new(a: &Arena, combine: &Fun) -> bool {
    matches!((a.expr(combine.body), combine.params.first()), (Expr::Scalar(Scalar::Var(v)), Some(new)) if v == new)
}

/// The scalars of `plan` that live on the host: scalar parameters, `let`
/// steps and scalar loop state, in every block.
fn host_vars(plan: &Plan) -> HashSet<VarId> {
    fn walk(steps: &[Step], out: &mut HashSet<VarId>) {
        let slots = |ss: &[Slot], out: &mut HashSet<VarId>| {
            out.extend(ss.iter().filter_map(|s| match s {
                Slot::Var(v) => Some(*v),
                Slot::Buf(_) => None,
            }))
        };
        for st in steps {
            match st {
                Step::Let { var, .. } => {
                    out.insert(*var);
                }
                Step::If { then, els, outs, .. } => {
                    walk(&then.steps, out);
                    walk(&els.steps, out);
                    slots(outs, out);
                }
                Step::While {
                    state,
                    cond,
                    body,
                    outs,
                    ..
                } => {
                    slots(state, out);
                    slots(outs, out);
                    walk(&cond.steps, out);
                    walk(&body.steps, out);
                }
                Step::Kernel(_) | Step::CheckReshape { .. } => {}
            }
        }
    }
    let mut out: HashSet<VarId> = plan
        .params
        .iter()
        .filter_map(|p| match p.binding {
            ParamBinding::Scalar(v) => Some(v),
            ParamBinding::Array(_) | ParamBinding::Stream => None,
        })
        .collect();
    walk(&plan.steps, &mut out);
    out
}

/// See [`Gen::entry_checks`].
struct EntryChecks {
    conds: Vec<TokenStream>,
    assume: bool,
}

/// A box of indices: per component, host expressions it is at least
/// (`lo`) and below (`hi`), and a constant it is at least (`lo_min`, for
/// the proofs of reads at `i - 1`).
#[derive(Clone)]
struct IndexBox {
    lo: Vec<Vec<TokenStream>>,
    hi: Vec<Vec<TokenStream>>,
    lo_min: Vec<i64>,
    /// Some component is pinned to one value (an equality).
    thin: bool,
    /// The condition also holds outside the box (a `!=`, or one side of an
    /// `||`): the box is only where it surely holds.
    partial: bool,
}

impl IndexBox {
    fn new(rank: usize) -> IndexBox {
        IndexBox {
            lo: vec![Vec::new(); rank],
            hi: vec![Vec::new(); rank],
            lo_min: vec![0; rank],
            thin: false,
            partial: false,
        }
    }

    /// Per component, the host expressions of the box's first index and
    /// of its end (within `shape`, a local holding the iteration shape).
    fn bounds(&self, shape: &Ident) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let lo = self.lo.iter().map(|ls| {
            ls.iter()
                .fold(quote!(0usize), |acc, l| quote!(::core::cmp::max(#acc, #l)))
        });
        let hi = self.hi.iter().enumerate().map(|(d, hs)| {
            let d = Literal::usize_unsuffixed(d);
            hs.iter()
                .fold(quote!(#shape[#d]), |acc, h| quote!(::core::cmp::min(#acc, #h)))
        });
        (lo.collect(), hi.collect())
    }

    fn raise(&mut self, d: usize, min: Option<i64>) {
        if let Some(m) = min {
            self.lo_min[d] = self.lo_min[d].max(m);
        }
    }

    /// The intersection with `other`.
    fn merge(&mut self, other: IndexBox) {
        for (d, (lo, hi)) in other.lo.into_iter().zip(other.hi).enumerate() {
            self.lo[d].extend(lo);
            self.hi[d].extend(hi);
            self.lo_min[d] = self.lo_min[d].max(other.lo_min[d]);
        }
        self.thin |= other.thin;
        self.partial |= other.partial;
    }
}

/// How a guard split decides an `if` inside its box: the branch, and for
/// the then-branch, the conjuncts still tested (in order).
#[derive(Clone)]
struct Decision {
    then: bool,
    residual: Vec<H>,
}

/// A guard split being emitted: its decided `if`s, and per component of
/// the index a constant it is at least and the host expression it is below.
struct Split {
    decided: HashMap<H, Decision>,
    lo_min: Vec<i64>,
    hi: Vec<TokenStream>,
}

/// `y op x` for `x op y`.
fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        op => op,
    }
}

/// The comparison that holds where `op` fails.
fn negate(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Ge,
        BinOp::Le => BinOp::Gt,
        BinOp::Gt => BinOp::Le,
        BinOp::Ge => BinOp::Lt,
        BinOp::Eq => BinOp::Ne,
        _ => BinOp::Eq,
    }
}

/// The nodes (operations and their operands) an `if`'s branch may have and
/// still be computed when it is not taken ([`Gen::speculable`]). A node is
/// about one simple instruction, and a core issues four a cycle: 48 of them
/// cost less than the 15-20 cycles of a branch mispredicted on data (a
/// three-way choice, such as quick_sort.fut's new position of a key less
/// than, equal to or greater than its pivot, needs about 28 in its outer
/// branch).
const SPECULATE: i32 = 48;

/// The scalars a value of type `t` holds (an index's components, a
/// tuple's fields, an `Option`'s value and its tag).
fn scalars_in(t: &Ty) -> usize {
    match t {
        Ty::Prim(_) => 1,
        Ty::Index(r) => *r,
        Ty::Tuple(ts) => ts.iter().map(scalars_in).sum(),
        Ty::Option(t) => 1 + scalars_in(t),
        Ty::Array(..) | Ty::Seq(_) => usize::MAX,
    }
}

/// Whether `h` is a value already computed: a variable, a literal, or a
/// field of one.
fn plain_value(a: &Arena, h: H) -> bool {
    match a.expr(h) {
        Expr::Scalar(Scalar::Var(_) | Scalar::Lit(_)) => true,
        Expr::Scalar(Scalar::Proj(x, _)) => plain_value(a, *x),
        _ => false,
    }
}

/// Whether `h` is a few comparisons of values already computed
/// ([`plain_value`]) joined by `!`, `&&` and `||`: it cannot fail, so its
/// `&&` and `||` may be evaluated eagerly (`&`, `|`), which costs less than
/// the branches they would take where data decides them unpredictably
/// ([`Gen::eager_compare`]).
fn cheap_logic(a: &Arena, h: H) -> bool {
    match a.expr(h) {
        Expr::Scalar(Scalar::Binary(op, x, y)) if op.is_comparison() => {
            plain_value(a, *x) && plain_value(a, *y)
        }
        Expr::Scalar(Scalar::Binary(BinOp::And | BinOp::Or, x, y)) => {
            cheap_logic(a, *x) && cheap_logic(a, *y)
        }
        Expr::Scalar(Scalar::Unary(UnOp::Not, x)) => cheap_logic(a, *x),
        _ => false,
    }
}

/// The `&&`-conjuncts of `c`, left to right.
fn conjuncts_in_order(a: &Arena, c: H, out: &mut Vec<H>) {
    match a.expr(c) {
        Expr::Scalar(Scalar::Binary(BinOp::And, p, q)) => {
            conjuncts_in_order(a, *p, out);
            conjuncts_in_order(a, *q, out);
        }
        _ => out.push(c),
    }
}

impl Gen<'_> {
    fn cols_ty(&self, elem: &Ty) -> TokenStream {
        let rt = self.rt;
        let t = rust_ty(elem);
        quote!(<#t as #rt::Elem>::Columns)
    }

    fn bind_leaves(&self, b: u32) -> TokenStream {
        let buffer = &self.plan.buffers[BufId(b)];
        let bi = buf(b);
        let mut out = TokenStream::new();
        for (k, (path, prim)) in leaf_paths(&buffer.elem)
            .into_iter()
            .zip(buffer.elem.leaves())
            .enumerate()
        {
            let l = leaf(b, k);
            let t = rust_ty(&Ty::Prim(prim));
            out.extend(quote!(let #l: &[#t] = &#bi #path [..];));
        }
        out
    }

    /// A kernel's code: its outputs' shapes checked and reserved, the
    /// kernel's loop, its outputs' leaves bound.
    fn kernel_code(&self, kernel: &accel_core::plan::Kernel, moved: &HashSet<u32>) -> TokenStream {
        let rt = self.rt;
        let mut out = TokenStream::new();
        let op = kernel.fused.last().copied().unwrap_or("kernel");
        for o in &kernel.outputs {
            let buffer = &self.plan.buffers[*o];
            let s = self.expr(buffer.shape);
            let bs = buf_shape(o.0);
            let r = Literal::usize_unsuffixed(buffer.rank);
            let t = rust_ty(&buffer.elem);
            out.extend(quote! {
                let #bs: [usize; #r] = #s;
                #rt::host::extent(#op, &#bs)?;
                #rt::cpu::reserve::<#t>(#op, &#bs)?;
            });
        }
        let b0 = kernel.outputs[0].0;
        // A horizontal kernel computes the tuple of its outputs' elements
        // into `bi`, whose columns are then its outputs (`Columns` of a
        // tuple are the tuple of its fields' columns).
        let (bi, bs) = if kernel.is_horizontal() {
            (format_ident!("__h{}", b0), buf_shape(b0))
        } else {
            (buf(b0), buf_shape(b0))
        };
        let elem_ty = kernel.stored(self.plan);
        let buffer_rank = self.plan.buffers[BufId(b0)].rank;
        let cols = self.cols_ty(&elem_ty);
        let t = rust_ty(&elem_ty);
        match &kernel.op {
            KernelOp::Generate { folds, .. } if !folds.is_empty() => {
                out.extend(self.generate_with_folds(kernel))
            }
            KernelOp::Generate { elem, .. } => {
                let call = self.generate_call(elem, b0, &bs, buffer_rank, &cols);
                let in_place = self
                    .in_place_candidate(elem, b0)
                    .filter(|_| !kernel.is_horizontal())
                    .filter(|(x, ..)| moved.contains(x))
                    .map(|(x, iff, then)| self.in_place(elem, b0, &bs, buffer_rank, &cols, x, iff, then))
                    .or_else(|| {
                        let x = self.plan.prefix_source(kernel)?.0;
                        moved.contains(&x).then(|| self.prefix(&call, &bs, &cols, x))
                    });
                out.extend(match in_place {
                    Some(update) => quote!(let #bi: #cols = #update;),
                    None => quote!(let #bi: #cols = #call;),
                });
            }
            KernelOp::Fold {
                shape,
                elem,
                z,
                f,
                all,
                post,
            } => {
                let s = self.expr(*shape);
                let in_shape = format_ident!("__in{}", b0);
                // The accumulator's type; the stored type differs when a
                // map after the fold is fused into it (`post`).
                let acc_ty = self.a.var(f.params[0]).ty.clone();
                let (at, acc_cols) = (rust_ty(&acc_ty), self.cols_ty(&acc_ty));
                // A fold to a scalar (a vector's innermost fold too) has one
                // row: reduce it as a whole.
                let to_scalar = self.plan.folds_to_one_value(*all, BufId(b0));
                self.eager_compare.set(!to_scalar);
                let g = self.fun2(f, &at);
                self.eager_compare.set(false);
                let post = self.post_closure(post.as_ref(), &at, &t);
                // The index element function of a fold to run with its loops
                // interchanged.
                let by_columns = match elem {
                    ElemFn::Index(e) if !to_scalar && reads_across_rows(self.a, elem) => Some(e),
                    _ => None,
                };
                let order = if accel_core::plan::commutative(self.a, f) {
                    quote!(#rt::cpu::Order::Commutative)
                } else {
                    quote!(#rt::cpu::Order::Indexed)
                };
                // Only the rows its reader reads, when it leaves some unread.
                let want = match (to_scalar || by_columns.is_some(), z) {
                    (false, Some(_)) => self.plan.fold_demand(kernel).map(|d| self.want_closure(&d, &bs)),
                    _ => None,
                };
                let call = self.versioned(|| {
                    let emit = || {
                        if let Some(e) = by_columns {
                            self.fold_columns_call(
                                elem, e, &in_shape, *shape, z, &g, &post, &acc_cols, &cols, kernel.at,
                            )
                        } else {
                            self.fold_call(
                                elem,
                                &in_shape,
                                to_scalar,
                                *shape,
                                z,
                                &g,
                                &post,
                                &order,
                                &acc_cols,
                                &cols,
                                kernel.at,
                                matches!(acc_ty, Ty::Tuple(_)),
                                want.as_ref(),
                            )
                        }
                    };
                    if to_scalar && !self.lanes_pay(elem) {
                        self.linear_version(elem, &in_shape, emit)
                    } else {
                        emit()
                    }
                });
                let rows_of = self.rows_prologue(&in_shape);
                out.extend(quote! {
                    let #in_shape = #s;
                    #rt::host::extent(#op, &#in_shape)?;
                    #rows_of
                    let #bi: #cols = #call;
                });
            }
            KernelOp::Scan { folds, .. } if !folds.is_empty() => out.extend(self.scan_with_folds(kernel)),
            KernelOp::Scan {
                shape,
                elem,
                dir,
                kind,
                z,
                f,
                post,
                ..
            } => {
                let s = self.expr(*shape);
                let in_shape = format_ident!("__in{}", b0);
                let acc_ty = self.a.var(f.params[0]).ty.clone();
                let (at, acc_cols) = (rust_ty(&acc_ty), self.cols_ty(&acc_ty));
                let g = self.fun2(f, &at);
                let d = match dir {
                    ScanDir::Left => quote!(#rt::cpu::ScanDir::Left),
                    ScanDir::Right => quote!(#rt::cpu::ScanDir::Right),
                };
                let z = z.map(|z| self.expr(z));
                // Elements by row and position; reads at the element's index
                // (in the element function, and in a generate fused after the
                // scan) unchecked where the host compared the extents. A
                // generate after a scan with an initial value runs over the
                // output's shape, its rows one longer than the input's.
                let post_space = match kind {
                    ScanKind::WithInit => self.plan.buffers[BufId(b0)].shape,
                    _ => *shape,
                };
                let call = self.versioned(|| {
                    let e = self.in_iteration(elem, *shape, || self.row_elem_closure(elem, Capture::Move));
                    let post = match post.as_ref().filter(|p| p.params.len() == 2) {
                        Some(p) => {
                            let at_index = ElemFn::Index(Fun {
                                params: vec![p.params[1]],
                                body: p.body,
                            });
                            self.in_iteration(&at_index, post_space, || {
                                self.scan_post_closure(Some(p), &at, &t, &in_shape, Capture::Move)
                            })
                        }
                        None => self.scan_post_closure(post.as_ref(), &at, &t, &in_shape, Capture::Move),
                    };
                    let call = match kind {
                        ScanKind::Inclusive => quote! {
                            #rt::cpu::scan_inclusive_then::<#acc_cols, #cols>(__rows, __len, #d, #e, #g, #post)
                        },
                        ScanKind::WithInit => quote! {
                            #rt::cpu::scan_with_init_then::<#acc_cols, #cols>(__rows, __len, #d, #e, #z, #g, #post)
                        },
                        ScanKind::Exclusive => quote! {
                            #rt::cpu::scan_exclusive::<#cols>(__rows, __len, #d, #e, #z, #g)
                        },
                    };
                    // `move` closures, as the permute's (see `ctx_by_ref`):
                    // perf showed the loop reloading a captured length
                    // through a reference after every store of an output.
                    ctx_by_ref(call)
                });
                let bind = match kind {
                    ScanKind::Exclusive => {
                        let b1 = buf(kernel.outputs[1].0);
                        quote!(let (#bi, #b1): (#cols, #cols) = #call;)
                    }
                    _ => quote!(let #bi: #cols = #call;),
                };
                let rows_of = self.rows_prologue(&in_shape);
                out.extend(quote! {
                    let #in_shape = #s;
                    #rt::host::extent(#op, &#in_shape)?;
                    #rows_of
                    #bind
                });
            }
            KernelOp::Permute {
                defaults,
                move_defaults,
                shape,
                elem,
                index,
                combine,
            } => {
                let s = self.expr(*shape);
                let in_shape = format_ident!("__in{}", b0);
                let g = self.fun2(combine, &t);
                let d = buf(defaults.0);
                let init = if *move_defaults && moved.contains(&defaults.0) {
                    quote!(#d)
                } else {
                    self.clone_buffer(defaults.0)
                };
                let r = Literal::usize_unsuffixed(self.index_rank(index));
                let p = var(index.params[0]);
                let at = location(kernel.at);
                let atomic = cpu_atomic(self.a, combine, &elem_ty);
                // The index and value functions run over the source's index
                // space: their reads at its own index are proved as a
                // generate's are (in two versions when the host must compare
                // extents first).
                let index_fn = ElemFn::Index(index.clone());
                let rank = self.index_rank(index);
                let moves_rows = atomic.is_some()
                    && Iteration::of(self.a, &index_fn, *shape)
                        .is_some_and(|it| it.moves_rows(self.a, index.body, rank));
                let out_last = Literal::usize_unsuffixed(self.plan.buffers[BufId(b0)].rank.saturating_sub(1));
                let rows_of = self.rows_prologue(&in_shape);
                let call = self.versioned(|| {
                    // A value function of the index finds it as the index function does.
                    // `move` closures, as `stencil_split`'s: they hold the
                    // values they read (shapes, divisors, slices) themselves,
                    // so the combining loop keeps them in registers instead of
                    // loading them through references for every element.
                    let e = self.in_iteration(elem, *shape, || match elem {
                        ElemFn::Index(f) => {
                            self.index_closure(f, quote!(__i: usize), quote!(__index_of.at(__i)), Capture::Move)
                        }
                        ElemFn::Linear(_) => self.elem_closure(elem, &in_shape, Capture::Move),
                    });
                    let body = self.in_iteration(&index_fn, *shape, || self.expr(index.body));
                    // The target of the source at offset `offset` (an
                    // expression of the closure's argument `arg`).
                    let target_at = |arg: TokenStream, offset: TokenStream| {
                        quote! {
                            #[inline(always)]
                            move |#arg: usize| {
                                let #p: [usize; #r] = __index_of.at(#offset);
                                match #body {
                                    ::core::option::Option::Some(__t) => __ctx.index("permute", #at, __t, #bs),
                                    ::core::option::Option::None => ::core::option::Option::None,
                                }
                            }
                        }
                    };
                    let target = target_at(quote!(__i), quote!(__i));
                    // Integer sums, minima and bit operations: lock-free
                    // atomics; a scatter of a primitive: atomic stores.
                    match &atomic {
                        None if matches!(elem_ty, Ty::Prim(_)) && keeps_new(self.a, combine) => quote! {
                            #rt::cpu::scatter_store::<#t>(&mut #bi, #rt::shape::size(&#in_shape), #target, #e);
                        },
                        Some(a) => {
                            let a = format_ident!("{}", format!("{a:?}"));
                            let each = quote! {
                                #rt::cpu::permute_atomic::<#t>(
                                    &mut #bi, #rt::shape::size(&#in_shape), #target, #e, #rt::cpu::AtomicOp::#a,
                                );
                            };
                            if !moves_rows {
                                let rows = self.in_iteration(&index_fn, *shape, || {
                                    self.row_permute_call(index, &t, &e, &a, &bi, &bs, &at)
                                });
                                return rows.map_or(each, |rows| quote!(#rows_of #rows));
                            }
                            // Whole rows, when the target's rows are long
                            // enough for them (else each element, checked).
                            let row_target = target_at(quote!(__r), quote!(__r * __len));
                            quote! {
                                let (__rows, __len) = #rt::cpu::rows_of(&#in_shape);
                                if __len <= (#bs)[#out_last] {
                                    #rt::cpu::permute_rows_atomic::<#t>(
                                        &mut #bi, __rows, __len, #row_target, #e, #rt::cpu::AtomicOp::#a,
                                    );
                                } else {
                                    #each
                                }
                            }
                        }
                        None => quote! {
                            #rt::cpu::permute::<#cols>(&mut #bi, #rt::shape::size(&#in_shape), #target, #e, #g);
                        },
                    }
                });
                let ctx = ctx_by_ref(call);
                out.extend(quote! {
                    let #in_shape = #s;
                    #rt::host::extent(#op, &#in_shape)?;
                    let __index_of = #rt::cpu::IndexOf::new(&#in_shape);
                    let mut #bi: #cols = #init;
                    #ctx
                });
            }
            KernelOp::Sort {
                shape,
                elem,
                key,
                key_bits,
            } => {
                let s = self.expr(*shape);
                let in_shape = format_ident!("__in{}", b0);
                let e = self.elem_closure(elem, &in_shape, Capture::Borrow);
                let kt = if *key_bits > 32 { quote!(u64) } else { quote!(u32) };
                let (x, kb) = (var(key.params[0]), self.expr(key.body));
                // Keys computed from the element alone are computed
                // again in each pass; keys that read arrays
                // (`sort_indices`) are computed once and stored.
                let reads = self.a.reaches(key.body, |_, e| {
                    matches!(
                        e,
                        Expr::Scalar(Scalar::Read { .. })
                            | Expr::Plan(PlanRead::ReadLinear { .. })
                            | Expr::Plan(PlanRead::ReadIndex { .. })
                            | Expr::Plan(PlanRead::Checked { .. })
                    )
                });
                let sort = if reads {
                    quote!(sort_by_stored_key)
                } else {
                    quote!(sort_by_key)
                };
                out.extend(quote! {
                    let #in_shape = #s;
                    #rt::host::extent(#op, &#in_shape)?;
                    let #bi: #cols = #rt::cpu::#sort::<#cols, #kt>(
                        #rt::shape::size(&#in_shape), #e, |#x: #t| -> #kt { #kb },
                    );
                });
            }
            KernelOp::Expand { .. } => out.extend(self.expand_kernel(kernel, moved)),
        }
        if kernel.is_horizontal() {
            let outs = kernel.outputs.iter().map(|b| buf(b.0));
            out.extend(quote!(let (#(#outs,)*) = #bi;));
        }
        for o in &kernel.outputs {
            out.extend(self.bind_leaves(o.0));
        }
        out
    }

    /// A fused expand (`KernelOp::Expand`): the counting pass, then the walk
    /// that sends every element to the permute or the fold.
    fn expand_kernel(&self, kernel: &accel_core::plan::Kernel, moved: &HashSet<u32>) -> TokenStream {
        let rt = self.rt;
        let KernelOp::Expand {
            shape,
            elem,
            count,
            item,
            map,
            sink,
        } = &kernel.op
        else {
            return TokenStream::new();
        };
        let op = kernel.fused.last().copied().unwrap_or("kernel");
        let b0 = kernel.outputs[0].0;
        let (bi, bs) = (buf(b0), buf_shape(b0));
        let elem_ty = self.plan.buffers[BufId(b0)].elem.clone();
        let cols = self.cols_ty(&elem_ty);
        let t = rust_ty(&elem_ty);
        let s = self.expr(*shape);
        let in_shape = format_ident!("__in{}", b0);
        let src = self.elem_closure(elem, &in_shape, Capture::Borrow);
        // In a block: an attribute may not stand before a `let`'s value.
        let src = quote!({ #src });
        let x_ty = rust_ty(self.a.ty(elem.fun().body));
        let (cx, cbody) = (var(count.params[0]), self.expr(count.body));
        let count_c = quote!(|__x: &#x_ty| -> usize { let #cx: #x_ty = *__x; #cbody });
        // `let e = item(x, k);`: the element of the expansion.
        // The item's body; its divisors that depend on the input alone are
        // computed once per run of the input's elements (`__prepare`).
        // Its divisions of the element's number by such divisors, once
        // per row of the run (`__rows`).
        self.run_divisors.replace(Some(RunDivisors {
            input: item.params[0],
            element: item.params[1],
            divisors: Vec::new(),
            rows: None,
        }));
        let ibody = self.expr(item.body);
        let (divisors, rows) = self
            .run_divisors
            .take()
            .map(|r| (r.divisors, r.rows))
            .unwrap_or_default();
        let (names, values): (Vec<&Ident>, Vec<&TokenStream>) =
            divisors.iter().map(|(_, n, v)| (n, v)).unzip();
        let (ix, ik) = (var(item.params[0]), var(item.params[1]));
        let (rows, rows_ok, row_bind) = self.rows_closure(rows.as_ref(), (&ix, &x_ty), &ik, &names);
        let e_ty = rust_ty(self.a.ty(item.body));
        let ev = var(map.params[0]);
        let mbody = self.expr(map.body);
        let m_ty = rust_ty(self.a.ty(map.body));
        let index_body = match sink {
            ExpandSink::Permute { index, .. } => Some(self.expr(index.body)),
            ExpandSink::Fold { .. } => None,
        };
        // The host's values that the element reads, copied into the run's
        // prepared values: locals of the walk's loop, so they stay in
        // registers. Read through the closure's captures, each would be
        // loaded again after every store of the loop (the compiler cannot
        // tell the stores from them).
        let mut bodies = vec![item.body, map.body];
        if let ExpandSink::Permute { index, .. } = sink {
            bodies.push(index.body);
        }
        let hosts = self.host_values_of(&bodies);
        let prepare = quote!(|__x: &#x_ty| { let #ix: #x_ty = *__x; (#(#values,)* #rows_ok, (#(#hosts,)*)) });
        let element = quote! {
            let #ix: #x_ty = *__x;
            let (#(#names,)* _, (#(#hosts,)*)) = *__p;
            #row_bind
            let #ik: usize = __k;
            let #ev: #e_ty = #ibody;
        };
        let mut out = quote! {
            let #in_shape = #s;
            #rt::host::extent(#op, &#in_shape)?;
            let __src = #src;
            let __count = #count_c;
            let __exp = #rt::cpu::Expansion::new(#rt::shape::size(&#in_shape), &__src, &__count);
            // A negative count fails here, before the walk trusts the counts.
            __ctx.check()?;
        };
        match sink {
            ExpandSink::Permute {
                defaults,
                move_defaults,
                index,
                combine,
            } => {
                let d = buf(defaults.0);
                let init = if *move_defaults && moved.contains(&defaults.0) {
                    quote!(#d)
                } else {
                    self.clone_buffer(defaults.0)
                };
                let (ie, ij) = (var(index.params[0]), var(index.params[1]));
                let ibody = index_body.unwrap_or_default();
                let at = location(kernel.at);
                // Inlined into the walk's loop (its size would otherwise keep
                // it out: a call per element, and the run's values reloaded).
                let target_value = quote! {
                    #[inline(always)]
                    |__x: &#x_ty, __p: &_, __row: &_, __i: usize, __k: usize, __j: usize| -> ::core::option::Option<(usize, #t)> {
                        #element
                        let #ie: #e_ty = #ev;
                        let #ij: usize = __j;
                        match #ibody {
                            ::core::option::Option::Some(__t) => __ctx
                                .index("permute", #at, __t, #bs)
                                .map(|__t| (__t, { let __v: #m_ty = #mbody; __v })),
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    }
                };
                let g = self.fun2(combine, &t);
                let call = match cpu_atomic(self.a, combine, &elem_ty) {
                    Some(a) => {
                        let a = format_ident!("{}", format!("{a:?}"));
                        quote!(__exp.permute_atomic(&mut #bi, &__src, &__count, #prepare, #rows, #target_value, #rt::cpu::AtomicOp::#a);)
                    }
                    None => {
                        quote!(__exp.permute::<_, _, _, #cols>(&mut #bi, &__src, &__count, #prepare, #rows, #target_value, #g);)
                    }
                };
                out.extend(quote! {
                    let mut #bi: #cols = #init;
                    #call
                });
            }
            ExpandSink::Fold { z, f, post } => {
                let acc_ty = self.a.var(f.params[0]).ty.clone();
                let at = rust_ty(&acc_ty);
                let site = location(kernel.at);
                let g = self.fun2(f, &at);
                let post = self.post_closure(post.as_ref(), &at, &t);
                let value = quote! {
                    #[inline(always)]
                    |__x: &#x_ty, __p: &_, __row: &_, __i: usize, __k: usize| -> #at {
                        #element
                        #mbody
                    }
                };
                let call = match z {
                    Some(z) => {
                        let z = self.expr(*z);
                        quote!(#rt::Columns::from_elems(&[(#post)(__exp.fold(&__src, &__count, #prepare, #rows, #value, #z, #g))]))
                    }
                    None => quote! {
                        match __exp.fold1(&__src, &__count, #prepare, #rows, #value, #g) {
                            ::core::option::Option::Some(__x) => #rt::Columns::from_elems(&[(#post)(__x)]),
                            ::core::option::Option::None => return ::core::result::Result::Err(#rt::cpu::empty_reduction("fold1_all").or_at(#site)),
                        }
                    },
                };
                out.extend(quote!(let #bi: #cols = #call;));
            }
        }
        out
    }

    /// The call of a fold kernel's skeleton: over the whole input as one
    /// range (`to_scalar`) or row by row.
    #[allow(clippy::too_many_arguments)]
    fn fold_call(
        &self,
        elem: &ElemFn,
        in_shape: &Ident,
        to_scalar: bool,
        shape: H,
        z: &Option<H>,
        g: &TokenStream,
        post: &TokenStream,
        order: &TokenStream,
        acc_cols: &TokenStream,
        cols: &TokenStream,
        at: Option<Loc>,
        tuple_acc: bool,
        want: Option<&TokenStream>,
    ) -> TokenStream {
        let rt = self.rt;
        let at = location(at);
        // The whole input as one range, or row by row.
        let (e, er) = if to_scalar {
            let e = self.in_iteration(elem, shape, || self.elem_closure(elem, in_shape, Capture::Borrow));
            (e, TokenStream::new())
        } else {
            let er = self.in_iteration(elem, shape, || self.row_elem_closure(elem, Capture::Borrow));
            (TokenStream::new(), er)
        };
        // Elements that loop in lockstep lanes: computed by blocks,
        // combined in the same order. A fold of tuples (siblings merged, a
        // user's tuple fold) keeps its interleaved accumulators field by
        // field.
        let (fold_all, fold1_all, e) = if to_scalar && self.lanes_pay(elem) {
            let l = self.in_iteration(elem, shape, || self.lanes_closure(elem, in_shape));
            let n = lanes::LANES;
            (
                quote!(fold_all_lanes::<_, #n>),
                quote!(fold1_all_lanes::<_, #n>),
                quote!(#e, #l),
            )
        } else if tuple_acc {
            (quote!(fold_all_fields), quote!(fold1_all_fields), e)
        } else {
            (quote!(fold_all), quote!(fold1_all), e)
        };
        match (to_scalar, z) {
            (true, Some(z)) => {
                let z = self.expr(*z);
                quote!(#rt::Columns::from_elems(&[(#post)(#rt::cpu::#fold_all(#order, #rt::shape::size(&#in_shape), #e, #z, #g))]))
            }
            (true, None) => quote! {
                match #rt::cpu::#fold1_all(#order, #rt::shape::size(&#in_shape), #e, #g) {
                    ::core::option::Option::Some(__x) => #rt::Columns::from_elems(&[(#post)(__x)]),
                    ::core::option::Option::None => return ::core::result::Result::Err(#rt::cpu::empty_reduction("fold1_all").or_at(#at)),
                }
            },
            (false, Some(z)) => {
                let z = self.expr(*z);
                match want {
                    Some(want) => quote! {
                        #rt::cpu::fold_rows_wanted_then::<#acc_cols, #cols>(#order, __rows, __len, #want, #er, #z, #g, #post)
                    },
                    None => {
                        quote!(#rt::cpu::fold_rows_then::<#acc_cols, #cols>(#order, __rows, __len, #er, #z, #g, #post))
                    }
                }
            }
            (false, None) => quote! {
                match #rt::cpu::fold1_rows_then::<#acc_cols, #cols>(#order, __rows, __len, #er, #g, #post) {
                    ::core::option::Option::Some(__x) => __x,
                    ::core::option::Option::None => return ::core::result::Result::Err(#rt::cpu::empty_reduction("fold1").or_at(#at)),
                }
            },
        }
    }

    /// `|__r| -> bool`: whether row `__r` of a fold (of output shape
    /// `out_shape`) is one its reader reads ([`Demand`]): the reader's guard,
    /// at that row's index.
    fn want_closure(&self, d: &Demand, out_shape: &impl ToTokens) -> TokenStream {
        let rt = self.rt;
        let Ty::Index(r) = self.a.var(d.param).ty else {
            unreachable!("a fold's reader takes an index")
        };
        let p = var(d.param);
        let r = Literal::usize_unsuffixed(r);
        let lets: Vec<TokenStream> = d
            .lets
            .iter()
            .map(|(v, value)| {
                let (ty, value) = (rust_ty(&self.a.var(*v).ty), self.expr(*value));
                let v = var(*v);
                quote!(#[allow(unused_variables)] let #v: #ty = #value;)
            })
            .collect();
        let cond = self.expr(d.cond);
        quote! {{
            let __want_at = #rt::cpu::IndexOf::new(&#out_shape);
            move |__r: usize| -> bool {
                #[allow(unused_variables)]
                let #p: [usize; #r] = __want_at.at(__r);
                #(#lets)*
                #cond
            }
        }}
    }

    /// A scan with folds in its traversal (`PassFold`): the call of
    /// `scan_inclusive_folds` or `scan_with_init_folds`, whose accumulator
    /// holds an `Option` per fold (`None` until an element comes, and where
    /// a fold of the input space skips a `scanl`'s last output), then each
    /// fold's result from its rows' parts, stored to its output.
    fn scan_with_folds(&self, kernel: &accel_core::plan::Kernel) -> TokenStream {
        let rt = self.rt;
        let KernelOp::Scan {
            shape,
            elem,
            dir,
            kind,
            z,
            f,
            post,
            folds,
            stored,
        } = &kernel.op
        else {
            unreachable!("a scan kernel")
        };
        let op = kernel.fused.last().copied().unwrap_or("scan");
        let s = self.expr(*shape);
        let in_shape = format_ident!("__scan_in{}", self.fresh.get());
        self.fresh.set(self.fresh.get() + 1);
        let acc_ty = self.a.var(f.params[0]).ty.clone();
        let (at, acc_cols) = (rust_ty(&acc_ty), self.cols_ty(&acc_ty));
        // What the scan stores (and the folds of its outputs take).
        let value_ty = self.a.ty(post.as_ref().unwrap_or(f).body).clone();
        let (t, cols) = (rust_ty(&value_ty), self.cols_ty(&value_ty));
        let g = self.fun2(f, &at);
        let d = match dir {
            ScanDir::Left => quote!(#rt::cpu::ScanDir::Left),
            ScanDir::Right => quote!(#rt::cpu::ScanDir::Right),
        };
        // The outputs' shape (each row one longer with an initial value).
        let post_space = match (kind, stored) {
            (ScanKind::WithInit, true) => Some(self.plan.buffers[kernel.outputs[0]].shape),
            (ScanKind::WithInit, false) => folds.iter().find(|x| x.of_array.is_some()).map(|x| x.shape),
            _ => Some(*shape),
        };
        let part_tys = self.pass_fold_parts(folds);
        let store = *stored;
        let call = self.versioned(|| {
            // `move`, as the plain scan's closures.
            let e = self.in_iteration(elem, *shape, || self.row_elem_closure(elem, Capture::Move));
            let post = match (post.as_ref().filter(|p| p.params.len() == 2), post_space) {
                (Some(p), Some(space)) => {
                    let at_index = ElemFn::Index(Fun {
                        params: vec![p.params[1]],
                        body: p.body,
                    });
                    self.in_iteration(&at_index, space, || self.scan_post_closure(Some(p), &at, &t, &in_shape, Capture::Move))
                }
                _ => self.scan_post_closure(post.as_ref(), &at, &t, &in_shape, Capture::Move),
            };
            // A fold over the input space skips the last output of each row
            // of a scan with an initial value: no input element has it.
            let skips = |x: &PassFold| x.of_array.is_none() && *kind == ScanKind::WithInit;
            let folds = self.pass_folds_arg(folds, &t, &in_shape, skips);
            let call = match kind {
                ScanKind::WithInit => {
                    let z = z.map(|z| self.expr(z));
                    quote!(#rt::cpu::scan_with_init_folds::<#acc_cols, #cols, _>(__rows, __len, #d, #e, #z, #g, #post, #store, #folds))
                }
                _ => quote!(#rt::cpu::scan_inclusive_folds::<#acc_cols, #cols, _>(__rows, __len, #d, #e, #g, #post, #store, #folds)),
            };
            ctx_by_ref(call)
        });
        let rows_of = self.rows_prologue(&in_shape);
        let mut out = quote! {
            let #in_shape = #s;
            #rt::host::extent(#op, &#in_shape)?;
            #rows_of
            let (__array, __parts): (#cols, ::std::vec::Vec<(#(#part_tys,)*)>) = #call;
        };
        let own = usize::from(*stored);
        if *stored {
            let b = buf(kernel.outputs[0].0);
            out.extend(quote!(let #b: #cols = __array;));
        }
        out.extend(self.pass_fold_outputs(folds, &kernel.outputs[own..]));
        out
    }

    /// A generate with folds of its array in its pass (`PassFold`): the call
    /// of `generate_folds`, then each fold's result from its rows' parts.
    fn generate_with_folds(&self, kernel: &accel_core::plan::Kernel) -> TokenStream {
        let rt = self.rt;
        let KernelOp::Generate { shape, elem, folds } = &kernel.op else {
            unreachable!("a generate kernel")
        };
        let op = kernel.fused.first().copied().unwrap_or("generate");
        let s = self.expr(*shape);
        let in_shape = format_ident!("__gen_in{}", self.fresh.get());
        self.fresh.set(self.fresh.get() + 1);
        let value_ty = self.a.ty(elem.fun().body).clone();
        let (t, cols) = (rust_ty(&value_ty), self.cols_ty(&value_ty));
        let part_tys = self.pass_fold_parts(folds);
        let call = self.versioned(|| {
            let e = self.in_iteration(elem, *shape, || self.row_elem_closure(elem, Capture::Borrow));
            let folds = self.pass_folds_arg(folds, &t, &in_shape, |_| false);
            quote!(#rt::cpu::generate_folds::<#cols, _>(__rows, __len, #e, #folds))
        });
        let b = buf(kernel.outputs[0].0);
        let rows_of = self.rows_prologue(&in_shape);
        let mut out = quote! {
            let #in_shape = #s;
            #rt::host::extent(#op, &#in_shape)?;
            #rows_of
            let (#b, __parts): (#cols, ::std::vec::Vec<(#(#part_tys,)*)>) = #call;
        };
        out.extend(self.pass_fold_outputs(folds, &kernel.outputs[1..]));
        out
    }

    /// The accumulator types of the folds in a kernel's pass: one `Option`
    /// per fold (`None` where it has no element yet).
    fn pass_fold_parts(&self, folds: &[PassFold]) -> Vec<TokenStream> {
        folds
            .iter()
            .map(|x| {
                let t = rust_ty(&self.a.var(x.f.params[0]).ty);
                quote!(::core::option::Option<#t>)
            })
            .collect()
    }

    /// The runtime's `Folds` for the folds in a kernel's pass, whose
    /// elements `__w` are of type `t`; a fold for which `skips` holds skips
    /// the position `__len` of each row.
    fn pass_folds_arg(
        &self,
        folds: &[PassFold],
        t: &TokenStream,
        in_shape: &Ident,
        skips: impl Fn(&PassFold) -> bool,
    ) -> TokenStream {
        let rt = self.rt;
        let part_tys = self.pass_fold_parts(folds);
        let nones = folds.iter().map(|_| quote!(::core::option::Option::None));
        let combines = folds.iter().enumerate().map(|(k, x)| {
            let k = Literal::usize_unsuffixed(k);
            let gk = self.fun2(&x.f, &rust_ty(&self.a.var(x.f.params[0]).ty));
            quote!(#rt::cpu::combine_some(__a.#k, __b.#k, #gk))
        });
        let elems = folds.iter().map(|x| {
            let acc = rust_ty(&self.a.var(x.f.params[0]).ty);
            let at_index = ElemFn::Index(Fun {
                params: vec![x.elem.params[1]],
                body: x.elem.body,
            });
            let cl = self.in_iteration(&at_index, x.shape, || {
                self.scan_post_closure(Some(&x.elem), t, &acc, in_shape, Capture::Borrow)
            });
            if skips(x) {
                quote!(if __j < __len { ::core::option::Option::Some((#cl)(__r, __j, __w)) } else { ::core::option::Option::None })
            } else {
                quote!(::core::option::Option::Some((#cl)(__r, __j, __w)))
            }
        });
        quote!(#rt::cpu::Folds {
            empty: (#(#nones,)*),
            elem: |__r: usize, __j: usize, __w: #t| -> (#(#part_tys,)*) { (#(#elems,)*) },
            combine: |__a: (#(#part_tys,)*), __b: (#(#part_tys,)*)| -> (#(#part_tys,)*) { (#(#combines,)*) },
        })
    }

    /// Each fold's result, stored to its output, from `__parts` (one tuple
    /// of the folds' accumulators per row): a fold of everything combines the
    /// rows' in order.
    fn pass_fold_outputs(&self, folds: &[PassFold], outputs: &[BufId]) -> TokenStream {
        let rt = self.rt;
        let mut out = TokenStream::new();
        for (k, (x, o)) in folds.iter().zip(outputs).enumerate() {
            let k = Literal::usize_unsuffixed(k);
            let b = buf(o.0);
            let acc = rust_ty(&self.a.var(x.f.params[0]).ty);
            let gk = self.fun2(&x.f, &acc);
            let out_ty = &self.plan.buffers[*o].elem;
            let (ot, ocols) = (rust_ty(out_ty), self.cols_ty(out_ty));
            let post = self.post_closure(x.post.as_ref(), &acc, &ot);
            let here = location(x.alone.at);
            let (what, finish) = match x.z {
                Some(z) => {
                    let z = self.expr(z);
                    (
                        "",
                        quote!(|__v: ::core::option::Option<#acc>| -> ::core::option::Option<#acc> {
                            ::core::option::Option::Some(match __v { ::core::option::Option::Some(__x) => (#gk)(#z, __x), ::core::option::Option::None => #z })
                        }),
                    )
                }
                None => (
                    if x.all { "fold1_all" } else { "fold1" },
                    quote!(|__v: ::core::option::Option<#acc>| -> ::core::option::Option<#acc> { __v }),
                ),
            };
            let empty =
                quote!(return ::core::result::Result::Err(#rt::cpu::empty_reduction(#what).or_at(#here)));
            out.extend(if x.all {
                quote! {
                    let #b: #ocols = {
                        let __v = __parts.iter().fold(::core::option::Option::None, |__a, __p| #rt::cpu::combine_some(__a, __p.#k, #gk));
                        match (#finish)(__v) {
                            ::core::option::Option::Some(__x) => #rt::Columns::from_elems(&[(#post)(__x)]),
                            ::core::option::Option::None => #empty,
                        }
                    };
                }
            } else {
                quote! {
                    let #b: #ocols = {
                        let mut __out: ::std::vec::Vec<#ot> = ::std::vec::Vec::with_capacity(__parts.len());
                        for __p in &__parts {
                            match (#finish)(__p.#k) {
                                ::core::option::Option::Some(__x) => __out.push((#post)(__x)),
                                ::core::option::Option::None => #empty,
                            }
                        }
                        #rt::Columns::from_elems(&__out)
                    };
                }
            });
        }
        out
    }

    /// A fold of rows whose reads are contiguous across neighbouring rows
    /// (see [`reads_across_rows`]), with the loops interchanged: the call of
    /// [`fold_columns_then`](accel_runtime::cpu::fold_columns_then), whose
    /// element closure takes the whole index (`f` is `elem`'s function, of an
    /// index): the skeleton finds each row's outer axes once, not per element.
    #[allow(clippy::too_many_arguments)]
    fn fold_columns_call(
        &self,
        elem: &ElemFn,
        f: &Fun,
        in_shape: &Ident,
        shape: H,
        z: &Option<H>,
        g: &TokenStream,
        post: &TokenStream,
        acc_cols: &TokenStream,
        cols: &TokenStream,
        at: Option<Loc>,
    ) -> TokenStream {
        let rt = self.rt;
        let at = location(at);
        let f = self.in_iteration(elem, shape, || {
            let p = var(f.params[0]);
            let body = self.expr(f.body);
            let r = Literal::usize_unsuffixed(self.index_rank(f));
            quote!(|#p: [usize; #r]| #body)
        });
        match z {
            Some(z) => {
                let z = self.expr(*z);
                quote!(#rt::cpu::fold_columns_then::<#acc_cols, #cols, _>(&#in_shape, #f, #z, #g, #post))
            }
            None => quote! {
                match #rt::cpu::fold1_columns_then::<#acc_cols, #cols, _>(&#in_shape, #f, #g, #post) {
                    ::core::option::Option::Some(__x) => __x,
                    ::core::option::Option::None => return ::core::result::Result::Err(#rt::cpu::empty_reduction("fold1").or_at(#at)),
                }
            },
        }
    }

    /// `|__i: usize| -> T` computing the element at row-major offset `__i` of an
    /// iteration space of shape `shape`.
    fn elem_closure(&self, e: &ElemFn, shape: &Ident, capture: Capture) -> TokenStream {
        let rt = self.rt;
        match e {
            ElemFn::Linear(f) => {
                let p = var(f.params[0]);
                let body = self.expr(f.body);
                quote!(#[inline(always)] #capture |#p: usize| #body)
            }
            ElemFn::Index(f) => {
                let index = quote!(#rt::cpu::index_at(&#shape, __i));
                self.index_closure(f, quote!(__i: usize), index, capture)
            }
        }
    }

    /// `|args| { let p: [usize; R] = index; body }`: the closure of an element
    /// function of an index `p` of rank `R`, found by `index` from `args`.
    fn index_closure(&self, f: &Fun, args: TokenStream, index: TokenStream, capture: Capture) -> TokenStream {
        let p = var(f.params[0]);
        let body = self.expr(f.body);
        let r = Literal::usize_unsuffixed(self.index_rank(f));
        quote!(#[inline(always)] #capture |#args| { let #p: [usize; #r] = #index; #body })
    }

    /// The rank of the index that element function `f` takes (0 for a scalar).
    fn index_rank(&self, f: &Fun) -> usize {
        match self.a.var(f.params[0]).ty {
            Ty::Index(r) => r,
            _ => 0,
        }
    }

    /// For a generate over an index space of rank 2 or more: the call of
    /// [`generate_rows`](accel_runtime::cpu::generate_rows), whose closure
    /// `|__r, __j|` finds its index from the row and the column (`__i`, the
    /// linear offset, stays available to reads at the element's own offset),
    /// or of `generate_rows_with` when some of the element function is the
    /// same along a row ([`rows`]): computed once per row, read as `__row.k`.
    fn row_generate_call(&self, e: &ElemFn, cols: &TokenStream) -> Option<TokenStream> {
        let ElemFn::Index(f) = e else {
            return None;
        };
        let Ty::Index(r) = self.a.var(f.params[0]).ty else {
            return None;
        };
        if r < 2 {
            return None;
        }
        let rt = self.rt;
        let p = var(f.params[0]);
        let (body, vals, tys) = self.body_with_row_values(f, r, None);
        let r = Literal::usize_unsuffixed(r);
        if vals.is_empty() {
            return Some(
                quote!(#rt::cpu::generate_rows::<#cols>(__rows, __len, #[inline(always)] |__r: usize, __j: usize| {
                    #[allow(unused_variables)]
                    let __i: usize = __r * __len + __j;
                    let #p: [usize; #r] = __rows_at.row(__r, __j);
                    #body
                })),
            );
        }
        Some(quote!(#rt::cpu::generate_rows_with::<#cols, _>(
            __rows,
            __len,
            // The row's values, as its first element computes them.
            |__r: usize| -> (#(#tys,)*) {
                #[allow(unused_variables)]
                let __i: usize = __r * __len;
                #[allow(unused_variables)]
                let #p: [usize; #r] = __rows_at.row(__r, 0);
                (#(#vals,)*)
            },
            #[inline(always)]
            |__row: &(#(#tys,)*), __r: usize, __j: usize| {
                #[allow(unused_variables)]
                let __i: usize = __r * __len + __j;
                let #p: [usize; #r] = __rows_at.row(__r, __j);
                #body
            },
        )))
    }

    /// For a permute whose index function runs over a source space of rank 2
    /// or more, combined by an atomic operation: the call of
    /// [`permute_atomic_by_rows`](accel_runtime::cpu::permute_atomic_by_rows),
    /// whose target closure `|__row, __r, __j|` finds its index from the row
    /// and the position, reads what is the same along the row from `__row`
    /// (computed once per row, [`rows`]), and runs only over the positions
    /// that the index function's guard lets through ([`rows::span`]).
    #[allow(clippy::too_many_arguments)]
    fn row_permute_call(
        &self,
        index: &Fun,
        t: &TokenStream,
        value: &TokenStream,
        op: &Ident,
        out: &Ident,
        out_shape: &impl ToTokens,
        at: &impl ToTokens,
    ) -> Option<TokenStream> {
        let Ty::Index(rank) = self.a.var(index.params[0]).ty else {
            return None;
        };
        if rank < 2 {
            return None;
        }
        let rt = self.rt;
        let p = var(index.params[0]);
        let host = |v| self.host_vars.contains(&v);
        let span = rows::span(self.a, index.body, index.params[0], rank, &host);
        let (body, vals, tys) = self.body_with_row_values(index, rank, span.as_ref().map(|s| s.guard));
        let r = Literal::usize_unsuffixed(rank);
        let span = match span {
            None => quote!(|_: usize| (0usize, usize::MAX)),
            Some(span) => {
                let bound = |(b, add): &(rows::Bound, usize)| {
                    let b = match b {
                        rows::Bound::Component(k) => {
                            let k = Literal::usize_unsuffixed(*k);
                            quote!(__ix[#k])
                        }
                        rows::Bound::Value(h) => self.expr(*h),
                    };
                    let add = Literal::usize_unsuffixed(*add);
                    quote!(usize::saturating_add(#b, #add))
                };
                let (lo, hi): (Vec<_>, Vec<_>) = (
                    span.lo.iter().map(bound).collect(),
                    span.hi.iter().map(bound).collect(),
                );
                quote!(|__r: usize| -> (usize, usize) {
                    #[allow(unused_variables)]
                    let __ix: [usize; #r] = __rows_at.row(__r, 0);
                    (0usize #(.max(#lo))*, usize::MAX #(.min(#hi))*)
                })
            }
        };
        Some(quote! {
            #rt::cpu::permute_atomic_by_rows::<#t, _>(
                &mut #out,
                __rows,
                __len,
                #span,
                // The row's values, as its first element in the span computes them.
                |__r: usize, __j: usize| -> (#(#tys,)*) {
                    #[allow(unused_variables)]
                    let __i: usize = __r * __len + __j;
                    #[allow(unused_variables)]
                    let #p: [usize; #r] = __rows_at.row(__r, __j);
                    (#(#vals,)*)
                },
                #[inline(always)]
                |__row: &(#(#tys,)*), __r: usize, __j: usize| {
                    #[allow(unused_variables)]
                    let __i: usize = __r * __len + __j;
                    let #p: [usize; #r] = __rows_at.row(__r, __j);
                    match #body {
                        ::core::option::Option::Some(__t) => __ctx.index("permute", #at, __t, #out_shape),
                        ::core::option::Option::None => ::core::option::Option::None,
                    }
                },
                #value,
                #rt::cpu::AtomicOp::#op,
            );
        })
    }

    /// The body of element function `f` over an index of rank `rank` (2 or
    /// more), reading what is the same along a row ([`rows::row_values`],
    /// with the span's `guarded` if) from `__row`; those values' expressions
    /// (computed at the row's first element) and types.
    fn body_with_row_values(
        &self,
        f: &Fun,
        rank: usize,
        guarded: Option<H>,
    ) -> (TokenStream, Vec<TokenStream>, Vec<TokenStream>) {
        let elided = |h: H| match self.a.expr(h) {
            // Proofs from the element's own index only: what holds where the
            // body is emitted (guards, `let`s) can only add to them.
            Expr::Plan(PlanRead::Checked { index, shape, .. }) => {
                matches!(self.proof(h, *index, *shape), Some(Proof::Iteration))
            }
            _ => false,
        };
        let wanted: HashSet<H> = rows::row_values(
            self.a,
            f.body,
            f.params[0],
            rank,
            &|v| self.host_vars.contains(&v),
            &elided,
            guarded,
        )
        .into_iter()
        .collect();
        self.row_values.replace((!wanted.is_empty()).then(|| RowValues {
            wanted,
            values: Vec::new(),
            emitting: false,
        }));
        let body = self.expr(f.body);
        let values = self.row_values.take().map(|rv| rv.values).unwrap_or_default();
        let (vals, tys) = values.into_iter().map(|(_, v, t)| (v, t)).unzip();
        (body, vals, tys)
    }

    /// The name (`__row.k`) of `h`'s value computed once per row, when `h`
    /// is one of the row values of the element function being emitted.
    fn row_value(&self, h: H) -> Option<TokenStream> {
        let k = {
            let rv = self.row_values.borrow();
            let rv = rv.as_ref().filter(|rv| !rv.emitting && rv.wanted.contains(&h))?;
            rv.values.iter().position(|(x, ..)| *x == h)
        };
        let k = match k {
            Some(k) => k,
            None => {
                // Emitted with the `let`s around it inlined: the row's
                // closure has none of them.
                self.row_values.borrow_mut().as_mut()?.emitting = true;
                let inline = self.inline_lets.replace(true);
                let value = self.expr(h);
                self.inline_lets.set(inline);
                let ty = rust_ty(self.a.ty(h));
                let mut rv = self.row_values.borrow_mut();
                let rv = rv.as_mut()?;
                rv.emitting = false;
                rv.values.push((h, value, ty));
                rv.values.len() - 1
            }
        };
        let k = Literal::usize_unsuffixed(k);
        Some(quote!(__row.#k))
    }

    /// The rows of an iteration space of shape `shape` reduced, scanned or
    /// generated along its innermost dimension: their count and length
    /// (`__rows`, `__len`), and `__rows_at`, which gives each element's index
    /// (what the row closures call).
    fn rows_prologue(&self, shape: &impl ToTokens) -> TokenStream {
        let rt = self.rt;
        quote! {
            let (__rows, __len) = #rt::cpu::rows_of(&#shape);
            #[allow(unused_variables)]
            let __rows_at = #rt::cpu::IndexOf::new(&#shape);
        }
    }

    /// `|__r: usize, __j: usize| -> T` computing element `__j` of row `__r` of
    /// an iteration space reduced along its innermost dimension, in the scope
    /// of [`Gen::rows_prologue`] (`__len` is the row length, `__rows_at`
    /// gives the index).
    fn row_elem_closure(&self, e: &ElemFn, capture: Capture) -> TokenStream {
        match e {
            ElemFn::Linear(f) => {
                let p = var(f.params[0]);
                let body = self.expr(f.body);
                quote!(#[inline(always)] #capture |__r: usize, __j: usize| { let #p: usize = __r * __len + __j; #body })
            }
            ElemFn::Index(f) => {
                let index = quote!(__rows_at.row(__r, __j));
                self.index_closure(f, quote!(__r: usize, __j: usize), index, capture)
            }
        }
    }

    /// A generate kernel whose element function reads stencil neighbours, all
    /// around the iteration index: the call of `stencil_generate` with the
    /// interior box (where every neighbour is inside its array) and the two
    /// element closures. `None` when the kernel reads no neighbours, or reads
    /// some around another index (then the boundary rule applies everywhere).
    fn stencil_split(&self, e: &ElemFn, shape: &Ident, rank: usize) -> Option<TokenStream> {
        let f = e.fun();
        let p = f.params[0];
        let reads = stencil_reads(self.a, f.body);
        if reads.is_empty() || rank == 0 {
            return None;
        }
        let lets = let_values(self.a, f.body);
        // Per buffer: the smallest and largest offset in each dimension.
        let mut reach: Vec<(u32, Vec<i32>, Vec<i32>)> = Vec::new();
        for h in reads {
            let Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                offset,
                ..
            }) = self.a.expr(h)
            else {
                continue;
            };
            if offset.len() != rank || !is_iteration_index(self.a, *center, p, &lets) {
                return None;
            }
            let b = buffer_of(self.a, *array);
            match reach.iter_mut().find(|r| r.0 == b) {
                Some((_, lo, hi)) => {
                    for d in 0..rank {
                        lo[d] = lo[d].min(offset[d]);
                        hi[d] = hi[d].max(offset[d]);
                    }
                }
                None => reach.push((b, offset.clone(), offset.clone())),
            }
        }
        let lo: Vec<TokenStream> = (0..rank)
            .map(|d| {
                let l = reach.iter().map(|r| (-r.1[d]).max(0) as usize).max().unwrap_or(0);
                quote!(#l)
            })
            .collect();
        let hi = (0..rank).map(|d| {
            let dl = Literal::usize_unsuffixed(d);
            let mut h = quote!(#shape[#dl]);
            for (b, _, up) in &reach {
                let bs = buf_shape(*b);
                let u = up[d].max(0) as usize;
                h = quote!(::core::cmp::min(#h, #bs[#dl].saturating_sub(#u)));
            }
            h
        });
        let hi: Vec<TokenStream> = hi.collect();
        self.fast_stencil.set(true);
        let fast = self.expr(f.body);
        self.fast_stencil.set(false);
        let border = self.expr(f.body);
        Some(self.box_generate(e, shape, &lo, &hi, fast, border))
    }

    /// The call of `stencil_generate` over `shape` for element function
    /// `e`, emitted as `fast` on the box `lo..hi` and as `whole` elsewhere.
    fn box_generate(
        &self,
        e: &ElemFn,
        shape: &Ident,
        lo: &[TokenStream],
        hi: &[TokenStream],
        fast: TokenStream,
        whole: TokenStream,
    ) -> TokenStream {
        let rt = self.rt;
        let p = e.fun().params[0];
        let r = Literal::usize_unsuffixed(lo.len());
        let param_ty = rust_ty(&self.a.var(p).ty);
        let pv = var(p);
        let bind = match e {
            ElemFn::Linear(_) => quote!(let #pv: #param_ty = __i;),
            ElemFn::Index(_) => quote!(let #pv: #param_ty = __ix;),
        };
        // `move` closures: they are `Copy`, and their loads loop-invariant.
        ctx_by_ref(quote! {
            #rt::cpu::stencil_generate::<_, #r>(
                &#shape,
                [#(#lo),*],
                [#(#hi),*],
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; #r]| { #bind #fast },
                #[allow(unused_variables)]
                #[inline(always)]
                move |__i: usize, __ix: [usize; #r]| { #bind #whole },
            )
        })
    }

    /// The call that computes generate kernel `elem` into a new buffer `b`
    /// of shape `bs` (a local) and rank `rank`.
    fn generate_call(
        &self,
        elem: &ElemFn,
        b: u32,
        bs: &Ident,
        rank: usize,
        cols: &TokenStream,
    ) -> TokenStream {
        let rt = self.rt;
        if let Some(split) = self.stencil_split(elem, bs, rank) {
            return split;
        }
        let buffer_shape = self.plan.buffers[BufId(b)].shape;
        let generate = if elem.loops(self.a) {
            quote!(generate_uneven)
        } else {
            quote!(generate)
        };
        let walked = self.walked_search(elem, rank);
        self.versioned(|| {
            self.in_iteration(elem, buffer_shape, || {
                if let Some(s) = &walked {
                    return self.walk_call(elem, s, bs, cols);
                }
                if self.lanes_pay(elem) {
                    let f = self.elem_closure(elem, bs, Capture::Borrow);
                    let g = self.lanes_closure(elem, bs);
                    let n = lanes::LANES;
                    return quote!(#rt::cpu::generate_lanes::<#cols, #n>(#rt::shape::size(&#bs), #f, #g));
                }
                if rank > 0 && self.row_lanes_pay(elem) {
                    let f = self.elem_closure(elem, bs, Capture::Borrow);
                    let g = self.row_lanes_closure(elem, bs);
                    let (n, last) = (row_lanes::ROW_LANES, Literal::usize_unsuffixed(rank - 1));
                    return quote!(#rt::cpu::generate_row_lanes::<#cols, #n>(#rt::shape::size(&#bs), #bs[#last], #f, #g));
                }
                self.linear_version(elem, bs, || {
                    if let Some(split) = self.guard_split(elem, bs, rank) {
                        return split;
                    }
                    if !elem.loops(self.a) {
                        if let Some(call) = self.row_generate_call(elem, cols) {
                            let rows_of = self.rows_prologue(&bs);
                            return quote!({
                                #rows_of
                                #call
                            });
                        }
                    }
                    let f = self.elem_closure(elem, bs, Capture::Borrow);
                    quote!(#rt::cpu::#generate::<#cols>(#rt::shape::size(&#bs), #f))
                })
            })
        })
    }

    /// A generate kernel that changes buffer `x` only inside a box, if this
    /// is one: its element function is `if c { t } else { x[ix] }` (or the
    /// branches the other way round) at its own index `ix`, under `let`s
    /// that read no memory, where `c` holds exactly on a box of indices
    /// that the host computes. Returns `x`, the `if`, and whether the
    /// changing branch is the then-branch. When `x` dies at this kernel,
    /// the kernel updates it in place ([`Gen::in_place`]).
    fn in_place_candidate(&self, elem: &ElemFn, out: u32) -> Option<(u32, H, bool)> {
        let out_buf = &self.plan.buffers[BufId(out)];
        let f = match elem {
            ElemFn::Index(f) if out_buf.rank > 0 => f,
            // A vector's generate takes its index as a `usize`.
            ElemFn::Linear(f) if out_buf.rank == 1 => f,
            _ => return None,
        };
        let shape = out_buf.shape;
        self.in_iteration(elem, shape, || {
            let mut h = f.body;
            let (iff, c, t, e) = loop {
                match self.a.expr(h) {
                    Expr::Scalar(Scalar::Let { value, body, .. }) if !touches_memory(self.a, *value) => {
                        h = *body
                    }
                    Expr::Scalar(Scalar::If(c, t, e)) => break (h, *c, *t, *e),
                    _ => return None,
                }
            };
            let (x, then) = match (self.identity_read(e), self.identity_read(t)) {
                (Some(x), _) => (x, true),
                (None, Some(x)) => (x, false),
                _ => return None,
            };
            let xb = self.plan.buffers.get(BufId(x))?;
            if xb.elem != out_buf.elem || xb.rank != out_buf.rank || matches!(xb.origin, Origin::Param(_)) {
                return None;
            }
            let mut bx = IndexBox::new(out_buf.rank);
            let ident = format_ident!("__unused");
            // Outside the box the `if` must take the unchanging branch.
            (self.box_where(c, then, &ident, &mut bx, None) && !bx.partial).then_some((x, iff, then))
        })
    }

    /// Generate kernel `call` (of [`Plan::prefix_source`] `x`) as
    /// the first rows of the dead buffer `x`, cut to length in its own
    /// storage, when its shape `bs` leads `x`'s; otherwise `call` (which
    /// reports the read out of bounds), and `x` is recycled.
    fn prefix(&self, call: &TokenStream, bs: &Ident, cols: &TokenStream, x: u32) -> TokenStream {
        let rt = self.rt;
        let (xi, xs) = (buf(x), buf_shape(x));
        quote!({
            if #rt::shape::leading_block(&#bs, &#xs) {
                let mut __x = #xi;
                #rt::Columns::truncate(&mut __x, #rt::shape::size(&#bs));
                __x
            } else {
                let __r: #cols = #call;
                #rt::Columns::recycle(#xi);
                __r
            }
        })
    }

    /// Whether `h` reads buffer `x` only at the iteration index itself
    /// ([`Gen::identity_read`]), if at all.
    fn reads_only_at_identity(&self, h: H, x: u32) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![h];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) || self.identity_read(n) == Some(x) {
                continue;
            }
            let e = self.a.expr(n);
            if matches!(e, Expr::Plan(PlanRead::Buffer(b)) if b.0 == x) {
                return false;
            }
            stack.extend(e.children());
        }
        true
    }

    /// The buffer that `h` reads at the iteration index itself
    /// ([`Iteration::identity_read`]).
    fn identity_read(&self, h: H) -> Option<u32> {
        let it = self.iteration.borrow();
        it.as_ref()?.identity_read(self.a, h).map(|b| b.0)
    }

    /// Generate kernel `elem` (a candidate of [`Gen::in_place_candidate`])
    /// as an update of the dead buffer `x`: when the shapes agree, the box
    /// where the `if` takes the changing branch is computed into a buffer of
    /// its own, then written into `x`'s storage, which becomes the result;
    /// otherwise a new buffer, as usual, and `x` is recycled.
    #[allow(clippy::too_many_arguments)]
    fn in_place(
        &self,
        elem: &ElemFn,
        b: u32,
        bs: &Ident,
        rank: usize,
        cols: &TokenStream,
        x: u32,
        iff: H,
        then: bool,
    ) -> TokenStream {
        let rt = self.rt;
        let f = elem.fun();
        let (xi, xs) = (buf(x), buf_shape(x));
        let shape = self.plan.buffers[BufId(b)].shape;
        let call = self.generate_call(elem, b, bs, rank, cols);
        let mut bx = IndexBox::new(rank);
        let (c, changing) = match self.a.expr(iff) {
            Expr::Scalar(Scalar::If(c, t, e)) => (*c, if then { *t } else { *e }),
            _ => unreachable!("an in-place candidate is an `if`"),
        };
        // The changing branch does not read `x`, or reads it only at its own
        // index (a field update `x[[i, j]] - 0.5 * (..)`, `x` of one leaf):
        // its values go straight into `x`'s storage, whatever the box's
        // size, as no element reads a slot that another writes.
        let reads_x = self.a.reaches(
            changing,
            |_, e| matches!(e, Expr::Plan(PlanRead::Buffer(b)) if b.0 == x),
        );
        let x_elem = &self.plan.buffers[BufId(x)].elem;
        let reading = reads_x
            && matches!(x_elem, Ty::Prim(_))
            && self.in_iteration(elem, shape, || self.reads_only_at_identity(changing, x));
        let direct = !reads_x || reading;
        self.in_iteration(elem, shape, || self.box_where(c, then, bs, &mut bx, None));
        let (lo, hi) = bx.bounds(bs);
        let r = Literal::usize_unsuffixed(rank);
        let pv = var(f.params[0]);
        let param = match elem {
            ElemFn::Index(_) => quote!(let #pv: [usize; #r] = __ix;),
            ElemFn::Linear(_) => quote!(let #pv: usize = __i;),
        };
        let uneven = elem.loops(self.a);
        let values = self.versioned(|| {
            self.in_iteration(elem, shape, || {
                let decided = HashMap::from([(
                    iff,
                    Decision {
                        then,
                        residual: Vec::new(),
                    },
                )]);
                // Row lanes for a loop the same along the box's rows (not
                // when reading `x` in place: the lanes read slices).
                let lanes = self.in_box(decided.clone(), &bx, &hi, || {
                    (self.row_lanes_pay(elem) && !reading)
                        .then(|| self.row_lanes_box_closure(elem, rank))
                });
                if reading {
                    self.in_place_leaf.set(Some(x));
                }
                let body = self.expr_in_box(f.body, decided, &bx, &hi);
                self.in_place_leaf.set(None);
                if reading {
                    // `x`'s leaf, shadowed: its storage as it is updated.
                    let (l, t) = (leaf(x, 0), rust_ty(x_elem));
                    return ctx_by_ref(quote! {
                        #rt::cpu::update_box_reading::<#t, #r>(
                            &mut __x,
                            &#bs,
                            __lo,
                            __hi,
                            #uneven,
                            #[allow(unused_variables)]
                            #[inline(always)]
                            move |#l: #rt::cpu::InPlace<'_, #t>, __i: usize, __ix: [usize; #r]| { #param #body },
                        )
                    });
                }
                let (skeleton, into) = if direct {
                    (quote!(update_box), quote!(&mut __x,))
                } else {
                    (quote!(generate_box), quote!())
                };
                let one = quote! {
                    #[allow(unused_variables)]
                    #[inline(always)]
                    move |__i: usize, __ix: [usize; #r]| { #param #body }
                };
                // A `move` closure, as in `stencil_split`.
                match lanes {
                    Some(g) => {
                        let n = row_lanes::ROW_LANES;
                        let skeleton = if direct {
                            quote!(update_box_lanes)
                        } else {
                            quote!(generate_box_lanes)
                        };
                        ctx_by_ref(quote!(#rt::cpu::#skeleton::<#cols, #r, #n>(#into &#bs, __lo, __hi, #uneven, #one, #g)))
                    }
                    None => ctx_by_ref(quote!(#rt::cpu::#skeleton::<#cols, #r>(#into &#bs, __lo, __hi, #uneven, #one))),
                }
            })
        });
        if direct {
            return quote!({
                let (__lo, __hi): ([usize; #r], [usize; #r]) = ([#(#lo),*], [#(#hi),*]);
                if #xs == #bs {
                    let mut __x = #xi;
                    #values;
                    __x
                } else {
                    let __r: #cols = #call;
                    #rt::Columns::recycle(#xi);
                    __r
                }
            });
        }
        quote!({
            let (__lo, __hi): ([usize; #r], [usize; #r]) = ([#(#lo),*], [#(#hi),*]);
            if #xs == #bs && #rt::cpu::box_pays(&#bs, __lo, __hi) {
                let __vals: #cols = #values;
                let mut __x = #xi;
                #rt::cpu::write_box(&mut __x, &#bs, __lo, __hi, __vals);
                __x
            } else {
                let __r: #cols = #call;
                #rt::Columns::recycle(#xi);
                __r
            }
        })
    }

    /// A generate whose element function decides `if`s by where the index
    /// lies (`if i >= 1 && i + 1 < n && j >= 1 && j + 1 < m { .. }`,
    /// `if i == 0 { .. } else { .. }`, the `else if` chains of Rodinia's
    /// border cases): the box of indices where each such `if` goes one way is
    /// computed once, on the host, and the elements inside it run a version
    /// with those branches taken, without the tests and with the reads the box
    /// keeps inside their arrays unchecked, so the inner loop vectorises; the
    /// elements outside run the whole function. `None` when no `if` is
    /// decided by the index, or the element function loops (its cost varies:
    /// `generate_uneven` balances it better).
    fn guard_split(&self, e: &ElemFn, shape: &Ident, rank: usize) -> Option<TokenStream> {
        let f = e.fun();
        if rank == 0 || matches!(e, ElemFn::Linear(_)) && rank != 1 || e.loops(self.a) {
            return None;
        }
        let mut bx = IndexBox::new(rank);
        let mut decided = HashMap::new();
        self.decide_ifs(f.body, shape, &mut bx, &mut decided);
        if decided.is_empty() {
            return None;
        }
        let (lo, hi) = bx.bounds(shape);
        let fast = self.expr_in_box(f.body, decided, &bx, &hi);
        let whole = self.expr(f.body);
        Some(self.box_generate(e, shape, &lo, &hi, fast, whole))
    }

    /// Element function body `h` as it runs inside box `bx` (whose ends are
    /// `hi`): the `if`s of `decided` take their branch, and reads the box
    /// keeps inside their arrays go unchecked.
    fn expr_in_box(
        &self,
        h: H,
        decided: HashMap<H, Decision>,
        bx: &IndexBox,
        hi: &[TokenStream],
    ) -> TokenStream {
        self.in_box(decided, bx, hi, || self.expr(h))
    }

    /// `emit()` as inside box `bx` (whose ends are `hi`), the `if`s of
    /// `decided` taking their branch.
    fn in_box<T>(
        &self,
        decided: HashMap<H, Decision>,
        bx: &IndexBox,
        hi: &[TokenStream],
        emit: impl FnOnce() -> T,
    ) -> T {
        self.split.replace(Some(Split {
            decided,
            lo_min: bx.lo_min.clone(),
            hi: hi.to_vec(),
        }));
        let out = emit();
        self.split.replace(None);
        out
    }

    /// How the guard split being emitted decides the `if` `h`, if it does.
    fn decision(&self, h: H) -> Option<Decision> {
        self.split.borrow().as_ref()?.decided.get(&h).cloned()
    }

    /// Walks the part of an element function that runs for every element
    /// (`let`s, operands, and the branch an `if` is decided to), deciding
    /// each `if` whose condition the index settles on a box: its then-branch
    /// when the condition holds on a box of inequalities (any conjuncts that
    /// bound nothing are still tested, in order), else its else-branch when
    /// the condition fails on a box, else its then-branch on a thin box (an
    /// equality). `bx` becomes the intersection of the boxes.
    fn decide_ifs(&self, h: H, shape: &Ident, bx: &mut IndexBox, decided: &mut HashMap<H, Decision>) {
        match self.a.expr(h) {
            Expr::Scalar(Scalar::If(c, t, e)) => {
                let rank = bx.lo.len();
                let mut then_box = IndexBox::new(rank);
                let mut residual = Vec::new();
                let holds = self.box_where(*c, true, shape, &mut then_box, Some(&mut residual));
                let mut else_box = IndexBox::new(rank);
                let (branch, chosen) = if holds && !then_box.thin {
                    (true, then_box)
                } else if self.box_where(*c, false, shape, &mut else_box, None) {
                    residual.clear();
                    (false, else_box)
                } else if holds {
                    (true, then_box)
                } else {
                    return;
                };
                bx.merge(chosen);
                decided.insert(
                    h,
                    Decision {
                        then: branch,
                        residual,
                    },
                );
                self.decide_ifs(if branch { *t } else { *e }, shape, bx, decided);
            }
            // The right side of `&&` and `||` may not run; a loop may run its
            // body any number of times: left alone.
            Expr::Scalar(Scalar::Binary(BinOp::And | BinOp::Or, p, _)) => {
                self.decide_ifs(*p, shape, bx, decided)
            }
            Expr::Scalar(Scalar::While { .. }) => {}
            e => {
                for c in e.children() {
                    self.decide_ifs(c, shape, bx, decided);
                }
            }
        }
    }

    /// Adds to `bx` a box of indices on which condition `c` evaluates to
    /// `truth`, and says whether it found one. With `residual`, `c` is a
    /// conjunction that must hold: conjuncts that bound nothing go there
    /// (they are tested inside the box); without it, every part of the box
    /// must come from `c`.
    fn box_where(
        &self,
        c: H,
        truth: bool,
        shape: &Ident,
        bx: &mut IndexBox,
        residual: Option<&mut Vec<H>>,
    ) -> bool {
        let a = self.a;
        match (a.expr(c), truth) {
            (Expr::Scalar(Scalar::Binary(BinOp::And, ..)), true) => {
                let mut conjuncts = Vec::new();
                conjuncts_in_order(a, c, &mut conjuncts);
                let mut found = false;
                match residual {
                    Some(residual) => {
                        for x in conjuncts {
                            if self.box_where(x, true, shape, bx, None) {
                                found = true;
                            } else {
                                residual.push(x);
                            }
                        }
                        found
                    }
                    None => {
                        let mut all = bx.clone();
                        let ok = conjuncts
                            .into_iter()
                            .all(|x| self.box_where(x, true, shape, &mut all, None));
                        if ok {
                            *bx = all;
                        }
                        ok
                    }
                }
            }
            // Both sides must fail: `!(p || q)` is `!p && !q`.
            (Expr::Scalar(Scalar::Binary(BinOp::Or, p, q)), false) => {
                let mut both = bx.clone();
                let ok = self.box_where(*p, false, shape, &mut both, None)
                    && self.box_where(*q, false, shape, &mut both, None);
                if ok {
                    *bx = both;
                }
                ok
            }
            // One side settles it.
            (Expr::Scalar(Scalar::Binary(BinOp::And, p, q)), false)
            | (Expr::Scalar(Scalar::Binary(BinOp::Or, p, q)), true) => {
                let found =
                    self.box_where(*p, truth, shape, bx, None) || self.box_where(*q, truth, shape, bx, None);
                bx.partial |= found;
                found
            }
            (Expr::Scalar(Scalar::Unary(UnOp::Not, p)), _) if a.ty(*p).prim() == Some(Prim::Bool) => {
                self.box_where(*p, !truth, shape, bx, None)
            }
            _ => self.index_bound(c, truth, shape, bx),
        }
    }

    /// The comparison `c` evaluating to `truth` as a bound on a component
    /// `d` of the iteration index, added to `bx`. The index side is the
    /// component plus a constant (`i + 1 < n`), the other side a host value;
    /// index arithmetic wraps, so a component minus a constant bounds nothing.
    fn index_bound(&self, c: H, truth: bool, shape: &Ident, bx: &mut IndexBox) -> bool {
        let Expr::Scalar(Scalar::Binary(op, p, q)) = self.a.expr(c) else {
            return false;
        };
        if !op.is_comparison() || self.a.ty(*p).prim() != Some(Prim::Usize) {
            return false;
        }
        // `x op e` with `x` the index side.
        let (op, x, e) = match (self.neighbour(*p), self.neighbour(*q)) {
            (Some(_), None) => (*op, *p, *q),
            (None, Some(_)) => (flip(*op), *q, *p),
            _ => return false,
        };
        let Some((d, k_val)) = self.neighbour(x) else {
            return false;
        };
        if k_val < 0 || d >= bx.lo.len() || !self.on_host(e) {
            return false;
        }
        let op = if truth { op } else { negate(op) };
        let small = self.small_usize(e);
        let (ek, k) = (self.expr(e), Literal::usize_suffixed(k_val as usize));
        let dl = Literal::usize_unsuffixed(d);
        // `d + k op e` solved for `d` (saturating: `d` is below an extent, so
        // `d + k` never wraps).
        match op {
            BinOp::Ge => {
                bx.lo[d].push(quote!((#ek).saturating_sub(#k)));
                bx.raise(d, small.map(|v| v - k_val));
            }
            BinOp::Gt => {
                bx.lo[d].push(quote!((#ek).saturating_add(1).saturating_sub(#k)));
                bx.raise(d, small.map(|v| v + 1 - k_val));
            }
            BinOp::Lt => bx.hi[d].push(quote!((#ek).saturating_sub(#k))),
            BinOp::Le => bx.hi[d].push(quote!((#ek).saturating_add(1).saturating_sub(#k))),
            BinOp::Eq => {
                // `d == e - k`: one slice (none when `e < k`).
                bx.lo[d].push(quote!((#ek).saturating_sub(#k)));
                bx.hi[d].push(if k_val == 0 {
                    quote!((#ek).saturating_add(1))
                } else {
                    quote!({ let __e: usize = #ek; if __e >= #k { __e - #k + 1 } else { 0 } })
                });
                bx.raise(d, small.map(|v| v - k_val));
                bx.thin = true;
            }
            _ => {
                // `d != e - k`: the larger side of the slice (all of the
                // extent when `e < k`).
                let (side, below) = if k_val == 0 {
                    (quote!((#ek) < #shape[#dl] / 2), quote!(false))
                } else {
                    (
                        quote!({ let __e: usize = #ek; __e >= #k && __e - #k < #shape[#dl] / 2 }),
                        quote!((#ek) < #k),
                    )
                };
                bx.lo[d].push(quote!(if #side { (#ek) - #k + 1 } else { 0 }));
                bx.hi[d].push(quote!(if #side || #below { #shape[#dl] } else { (#ek) - #k }));
                bx.partial = true;
                // `d != 0`: the side above it, when there is one.
                if small == Some(k_val) {
                    bx.raise(d, Some(1));
                }
            }
        }
        true
    }

    /// The maps fused after a fold or scan, from the accumulator type `at` to
    /// the stored type `t` (the identity when there are none).
    fn post_closure(&self, post: Option<&Fun>, at: &TokenStream, t: &TokenStream) -> TokenStream {
        match post {
            Some(p) => {
                let (x, body) = (var(p.params[0]), self.expr(p.body));
                quote!({ #[inline(always)] |#x: #at| -> #t { #body } })
            }
            None => quote!(|__x: #at| -> #t { __x }),
        }
    }

    /// [`Self::post_closure`] for a scan: `|r, j, x|`, for the output at
    /// position `j` of row `r` of the scan's shape `shape` (a variable). A
    /// post with a second parameter (a generate reading the scan at its own
    /// element, fused into it) gets that output's index there.
    fn scan_post_closure(
        &self,
        post: Option<&Fun>,
        at: &TokenStream,
        t: &TokenStream,
        shape: &Ident,
        capture: Capture,
    ) -> TokenStream {
        let Some(p) = post.filter(|p| p.params.len() == 2) else {
            let one = self.post_closure(post, at, t);
            return quote!({ #[inline(always)] #capture |_: usize, _: usize, __x: #at| -> #t { (#one)(__x) } });
        };
        let rt = self.rt;
        let (x, ix, body) = (var(p.params[0]), var(p.params[1]), self.expr(p.body));
        let rank = match &self.a.var(p.params[1]).ty {
            Ty::Index(r) => *r,
            _ => 1,
        };
        // The outer dimensions from the row number: only ranks above 2 divide.
        let index = match rank {
            0 | 1 => quote!([__j]),
            2 => quote!([__r, __j]),
            _ => {
                let outer = Literal::usize_unsuffixed(rank - 1);
                let dims = (0..rank - 1).map(Literal::usize_unsuffixed);
                let parts = (0..rank - 1).map(Literal::usize_unsuffixed);
                quote!({
                    let __o: [usize; #outer] = #rt::shape::from_linear(&[#(#shape[#dims]),*], __r);
                    [#(__o[#parts],)* __j]
                })
            }
        };
        quote!({ #[inline(always)] #capture |__r: usize, __j: usize, #x: #at| -> #t { let #ix = #index; #body } })
    }

    /// A two-parameter combination function over `t`. Closures handed to
    /// the runtime's skeletons are inlined always: a scan's post (a generate
    /// fused after it, such as a quicksort step's new positions) was
    /// otherwise called per element, its captures reloaded at each call.
    fn fun2(&self, f: &Fun, t: &TokenStream) -> TokenStream {
        let (a, b) = (var(f.params[0]), var(f.params[1]));
        let body = self.expr(f.body);
        quote!({ #[inline(always)] |#a: #t, #b: #t| -> #t { #body } })
    }

    /// `emit()` with [`Gen::iteration`] set for element function `e` over an
    /// iteration space of shape `shape`.
    fn in_iteration<T>(&self, e: &ElemFn, shape: H, emit: impl FnOnce() -> T) -> T {
        let it = Iteration::of(self.a, e, shape);
        let before = self.iteration.replace(it);
        let out = emit();
        self.iteration.replace(before);
        out
    }

    /// The kernel call `emit()` in two versions when its element function
    /// reads another array at the iteration index (`mass[[j]]` in an
    /// all-pairs loop): one with those reads unchecked, run when the host
    /// finds the iteration space inside every such array (a few comparisons
    /// per kernel), and one with every read checked. A check inside the inner
    /// loop costs little itself but keeps the loop from being vectorised.
    fn versioned(&self, emit: impl Fn() -> TokenStream) -> TokenStream {
        let before = self.entry_checks.replace(Some(EntryChecks {
            conds: Vec::new(),
            assume: false,
        }));
        let checked = emit();
        let conds = self
            .entry_checks
            .borrow_mut()
            .as_mut()
            .map(|c| std::mem::take(&mut c.conds));
        let out = match conds {
            Some(mut conds) if !conds.is_empty() => {
                let mut seen = HashSet::new();
                conds.retain(|c| seen.insert(c.to_string()));
                *self.entry_checks.borrow_mut() = Some(EntryChecks {
                    conds: Vec::new(),
                    assume: true,
                });
                let fast = emit();
                quote!(if #(#conds)&&* { #fast } else { #checked })
            }
            _ => checked,
        };
        self.entry_checks.replace(before);
        out
    }

    /// Why the checked read `read` (at `index` in `shape`) is in bounds where
    /// it is being emitted (`plan::bounds::prove`, in the context this
    /// generator tracks: guards, loop facts, `let`s, loops in their fast
    /// version, the guard split's box).
    fn proof(&self, read: H, index: H, shape: H) -> Option<Proof> {
        let (guards, below, lets, loops) = (
            self.guards.borrow(),
            self.below.borrow(),
            self.lets_in_scope.borrow(),
            self.fast_loops.borrow(),
        );
        let in_box = self.split.borrow().as_ref().map(|s| BoxFacts {
            lo_min: s.lo_min.clone(),
            has_hi: !s.hi.is_empty(),
        });
        let cx = Context {
            guards: &guards,
            below: &below,
            lets: &lets,
            loops: &loops,
            in_box: in_box.as_ref(),
        };
        let it = self.iteration.borrow();
        prove(self.a, it.as_ref(), cx, read, index, shape, &|v| {
            self.host_vars.contains(&v)
        })
    }

    /// Whether `h` may be computed where it would not have been, in the
    /// branch of an `if` not taken: it cannot fail here (every checked read
    /// in it proved in bounds without the `if`'s condition; no assertion,
    /// trace or loop) and has at most `budget` nodes (no division).
    fn speculable(&self, h: H, budget: &mut i32) -> bool {
        *budget -= 1;
        if *budget < 0 {
            return false;
        }
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Var(_) | Scalar::Lit(_) | Scalar::None(_))
            | Expr::Plan(PlanRead::Buffer(_)) => true,
            Expr::Scalar(
                Scalar::Proj(x, _)
                | Scalar::Unary(_, x)
                | Scalar::Cast(x, _)
                | Scalar::Some(x)
                | Scalar::Shape(x),
            ) => self.speculable(*x, budget),
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
                !matches!(op, BinOp::Div | BinOp::Rem)
                    && self.speculable(*x, budget)
                    && self.speculable(*y, budget)
            }
            Expr::Scalar(Scalar::Tuple(xs) | Scalar::MakeIndex(xs)) => {
                xs.iter().all(|x| self.speculable(*x, budget))
            }
            Expr::Scalar(Scalar::Let { value, body, .. }) => {
                self.speculable(*value, budget) && self.speculable(*body, budget)
            }
            Expr::Scalar(Scalar::If(c, t, e)) => [c, t, e].iter().all(|x| self.speculable(**x, budget)),
            Expr::Plan(PlanRead::ReadLinear { array, index } | PlanRead::ReadIndex { array, index }) => {
                self.speculable(*array, budget) && self.speculable(*index, budget)
            }
            Expr::Plan(PlanRead::Checked {
                index, shape, body, ..
            }) => {
                let proved = match self.proof(h, *index, *shape) {
                    Some(Proof::Iteration | Proof::Counter | Proof::BeforeLoop(_)) => true,
                    // Only where the version emitted assumes the entry tests.
                    Some(Proof::Entry { .. }) => {
                        self.entry_checks.borrow().as_ref().is_some_and(|e| e.assume)
                    }
                    None => false,
                };
                proved && self.speculable(*index, budget) && self.speculable(*body, budget)
            }
            _ => false,
        }
    }

    /// For a read proved by tests at kernel entry (`bounds[k] <= shape[k]`)
    /// inside a kernel being [`Gen::versioned`]: `true` when the version
    /// being emitted may read unchecked; in the checked version, records the
    /// tests.
    fn tested_at_entry(&self, bounds: &[Bound], shape: H) -> bool {
        match self.entry_checks.borrow().as_ref() {
            None => return false,
            Some(e) if e.assume => return true,
            Some(_) => {}
        }
        let it_shape = self.iteration.borrow().as_ref().map(|it| it.shape);
        let Some(it_shape) = it_shape.map(|s| self.expr(s)) else {
            return false;
        };
        let hi = self
            .split
            .borrow()
            .as_ref()
            .map(|s| s.hi.clone())
            .unwrap_or_default();
        let sh = self.expr(shape);
        let mut conds = Vec::new();
        for (k, b) in bounds.iter().enumerate() {
            // `bound <= shape[k]`, or `<` for a component that is the value.
            let (bound, below) = match *b {
                Bound::Extent(d) => {
                    let d = Literal::usize_unsuffixed(d);
                    (quote!((#it_shape)[#d]), false)
                }
                Bound::Value(e) => (self.expr(e), false),
                Bound::At(e) => (self.expr(e), true),
                Bound::BoxEnd(d, c) => {
                    let Some(hi) = hi.get(d) else {
                        return false;
                    };
                    let c = Literal::usize_suffixed(c as usize);
                    (quote!((#hi).saturating_add(#c)), false)
                }
            };
            let k = Literal::usize_unsuffixed(k);
            conds.push(if below {
                quote!((#bound) < (#sh)[#k])
            } else {
                quote!((#bound) <= (#sh)[#k])
            });
        }
        if let Some(e) = self.entry_checks.borrow_mut().as_mut() {
            e.conds.extend(conds);
        }
        false
    }

    /// `x` as component `d` of the iteration index plus a constant
    /// ([`Iteration::neighbour`]).
    fn neighbour(&self, x: H) -> Option<(usize, i64)> {
        self.iteration.borrow().as_ref()?.neighbour(self.a, x)
    }

    /// A `usize` literal below 2^20 (through `let`s).
    fn small_usize(&self, h: H) -> Option<i64> {
        self.iteration.borrow().as_ref()?.small_usize(self.a, h)
    }

    /// Whether `h` reads only scalars the host computes (so the host can
    /// evaluate it before the kernel) and no array.
    fn on_host(&self, h: H) -> bool {
        if let Some(&b) = self.host_memo.borrow().get(&h) {
            return b;
        }
        let b = on_host(self.a, h, &|v| self.host_vars.contains(&v));
        self.host_memo.borrow_mut().insert(h, b);
        b
    }

    /// While a kernel is emitted: the name of `h`'s value computed once before
    /// the kernel, when `h` is arithmetic on host values alone (`1.0 / (c *
    /// c)` of a parameter `c`, say). Such an expression is total (it reads no
    /// memory, so it cannot fail), so computing it once, even where the
    /// kernel would not, changes no result; computed per element it costs
    /// a division or a square root each time, as the compiler cannot hoist
    /// it past the kernel's stores.
    fn hoist(&self, h: H) -> Option<Ident> {
        if !matches!(
            self.a.expr(h),
            Expr::Scalar(Scalar::Binary(..))
                | Expr::Scalar(Scalar::Unary(..))
                | Expr::Scalar(Scalar::Math(..))
                | Expr::Scalar(Scalar::Cast(..))
                | Expr::Scalar(Scalar::If { .. })
        ) || self.hoisted.borrow().is_none()
            || !self.on_host(h)
            || self.constant(h)
        {
            return None;
        }
        Some(self.hoisted_value(h, false))
    }

    /// The name of `h`'s value (or, with `divisor`, of its reciprocal as a
    /// divisor), bound before the kernel being emitted.
    fn hoisted_value(&self, h: H, divisor: bool) -> Ident {
        let found = self
            .hoisted
            .borrow()
            .iter()
            .flatten()
            .find(|e| e.key == (h, divisor))
            .map(|e| e.name.clone());
        if let Some(name) = found {
            return name;
        }
        // Emitted with hoisting off: its parts are computed with it.
        let outer = self.hoisted.take();
        let mut value = self.expr(h);
        let mut ty = rust_ty(self.a.ty(h));
        if divisor {
            let rt = self.rt;
            value = quote!(#rt::ops::FastDiv::divisor(#value));
            ty = quote!(<#ty as #rt::ops::FastDiv>::Divisor);
        }
        let mut hoisted = outer.unwrap_or_default();
        let name = format_ident!("__h{}", hoisted.len());
        hoisted.push(Hoisted {
            key: (h, divisor),
            name: name.clone(),
            value,
            ty,
        });
        self.hoisted.replace(Some(hoisted));
        name
    }

    /// For an integer division or remainder by `d`: the name of `d` as a
    /// [`FastDiv`](accel_runtime::ops::FastDiv) divisor computed once, when
    /// `d` stays the same over the kernel being emitted (computed before it)
    /// or over a run of an expand's elements (computed per run). A constant
    /// divisor is left to the Rust compiler, which does the same.
    fn fast_divisor(&self, d: H) -> Ident {
        if self.hoisted.borrow().is_some() && self.on_host(d) {
            self.hoisted_value(d, true)
        } else {
            self.run_divisor(d)
        }
    }

    /// Whether `h` is built of literals alone: the Rust compiler folds it
    /// (and divides by it with a multiplication), better than a value
    /// computed before the kernel, which the kernel would load.
    fn constant(&self, h: H) -> bool {
        !self.a.reaches(h, |_, e| {
            matches!(
                e,
                Expr::Scalar(Scalar::Var(_))
                    | Expr::Scalar(Scalar::Shape(_))
                    | Expr::Scalar(Scalar::Let { .. })
            )
        })
    }

    /// Whether [`Gen::fast_divisor`] applies to divisor `d`.
    fn fast_divisor_of(&self, d: H) -> bool {
        let Ty::Prim(p) = self.a.ty(d) else { return false };
        if !p.is_int() || self.constant(d) {
            return false;
        }
        (self.hoisted.borrow().is_some() && self.on_host(d)) || self.run_invariant(d)
    }

    /// Whether `d` is the same over a run of the expand item being emitted.
    fn run_invariant(&self, d: H) -> bool {
        let run = self.run_divisors.borrow();
        run.as_ref()
            .is_some_and(|run| self.of_input(d, run.input, run.element))
    }

    /// A divisor that the expand item being emitted computes from its input
    /// alone (not from the element's number): computed once per run, from
    /// the input and host values, the item's `let`s replaced by their values.
    fn run_divisor(&self, d: H) -> Ident {
        self.inline_lets.set(true);
        let outer = self.run_divisors.take();
        let value = self.expr(d);
        self.run_divisors.replace(outer);
        self.inline_lets.set(false);
        let rt = self.rt;
        let value = quote!(#rt::ops::FastDiv::divisor(#value));
        let key = value.to_string();
        let mut run = self.run_divisors.borrow_mut();
        let run = run.as_mut().expect("emitting an expand item");
        if let Some((_, name, _)) = run.divisors.iter().find(|e| e.0 == key) {
            return name.clone();
        }
        let name = format_ident!("__d{}", run.divisors.len());
        run.divisors.push((key, name.clone(), value));
        name
    }

    /// The names of the host's values that code emitted from `bodies` reads:
    /// the plan's scalars they reach, and every value hoisted before the
    /// kernel so far.
    fn host_values_of(&self, bodies: &[H]) -> Vec<Ident> {
        let mut vars: Vec<VarId> = Vec::new();
        for &b in bodies {
            self.a.reaches(b, |_, e| {
                if let Expr::Scalar(Scalar::Var(v)) = e {
                    if self.host_vars.contains(v) && !vars.contains(v) && copyable(&self.a.var(*v).ty) {
                        vars.push(*v);
                    }
                }
                false
            });
        }
        let mut names: Vec<Ident> = vars.into_iter().map(var).collect();
        if let Some(hoisted) = self.hoisted.borrow().as_ref() {
            names.extend(hoisted.iter().map(|h| h.name.clone()));
        }
        names
    }

    /// `h`'s value with the `let`s around it inlined and no run divisors:
    /// what code outside the element function (a run's or a row's) computes.
    fn inlined(&self, h: H) -> TokenStream {
        let inline = self.inline_lets.replace(true);
        let outer = self.run_divisors.take();
        let value = self.expr(h);
        self.run_divisors.replace(outer);
        self.inline_lets.set(inline);
        value
    }

    /// Whether `h` is the element's number `element` of the expand item
    /// being emitted, or an integer cast of it, through `let`s.
    fn element_number(&self, h: H, element: VarId) -> bool {
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) if *v == element => true,
            Expr::Scalar(Scalar::Var(v)) => {
                let value = self.lets_in_scope.borrow().get(v).copied();
                value.is_some_and(|x| self.element_number(x, element))
            }
            Expr::Scalar(Scalar::Cast(x, p)) => p.is_int() && self.element_number(*x, element),
            _ => false,
        }
    }

    /// Whether divisor `d` is `width` (its value as text) or a product with
    /// it as a factor, through `let`s.
    fn multiple_of(&self, d: H, width: &str) -> bool {
        if self.inlined(d).to_string() == width {
            return true;
        }
        match self.a.expr(d) {
            Expr::Scalar(Scalar::Var(v)) => {
                let value = self.lets_in_scope.borrow().get(v).copied();
                value.is_some_and(|x| self.multiple_of(x, width))
            }
            Expr::Scalar(Scalar::Binary(BinOp::Mul, x, y)) => {
                self.inlined(*x).to_string() == width || self.inlined(*y).to_string() == width
            }
            _ => false,
        }
    }

    /// For `dividend / d` or `dividend % d` in an expand item, where
    /// `dividend` is the element's number and `d` stays the same over the
    /// run: its value from the row (`__rq{n}`, or `__rr{n}` plus the
    /// element's place in the row), adding `d` to the item's [`ItemRows`].
    /// The first such divisor sets the rows' width; one that is not a
    /// multiple of it, or a division of another cast of the number, is
    /// left to the element.
    fn row_division(&self, h: H) -> Option<TokenStream> {
        let Expr::Scalar(Scalar::Binary(op @ (BinOp::Div | BinOp::Rem), x, y)) = self.a.expr(h) else {
            return None;
        };
        if self.inline_lets.get() {
            return None;
        }
        let element = self.run_divisors.borrow().as_ref()?.element;
        let Ty::Prim(p) = self.a.ty(*y) else { return None };
        if !p.is_int() || !self.run_invariant(*y) || !self.element_number(*x, element) {
            return None;
        }
        let (dividend, divisor) = (self.inlined(*x), self.inlined(*y));
        let (dividend_key, key) = (dividend.to_string(), divisor.to_string());
        let first = {
            let run = self.run_divisors.borrow();
            let rows = run.as_ref()?.rows.as_ref();
            rows.map(|r| (r.dividend_key.clone(), r.divisors[0].0.clone()))
        };
        if let Some((dk, width)) = &first {
            if *dk != dividend_key || !self.multiple_of(*y, width) {
                return None;
            }
        }
        let fast = self.fast_divisor_of(*y).then(|| self.fast_divisor(*y));
        let ty = rust_ty(self.a.ty(*x));
        let mut run = self.run_divisors.borrow_mut();
        let rows = run.as_mut()?.rows.get_or_insert_with(|| ItemRows {
            dividend,
            dividend_key,
            ty: ty.clone(),
            divisors: Vec::new(),
        });
        let n = match rows.divisors.iter().position(|d| d.0 == key) {
            Some(n) => n,
            None => {
                rows.divisors.push((key, divisor, fast));
                rows.divisors.len() - 1
            }
        };
        Some(match op {
            BinOp::Div => {
                let q = format_ident!("__rq{}", n);
                quote!(#q)
            }
            _ => {
                let r = format_ident!("__rr{}", n);
                quote!(#r.wrapping_add(__i as #ty))
            }
        })
    }

    /// The [`Rows`](accel_runtime::cpu::Rows) of an expand item (see
    /// [`ItemRows`]; none: whole runs), the run's check that its divisors
    /// allow rows (the last of the prepared values), and the binding of a
    /// row's values in the element function.
    fn rows_closure(
        &self,
        rows: Option<&ItemRows>,
        input: (&Ident, &TokenStream),
        element: &Ident,
        names: &[&Ident],
    ) -> (TokenStream, TokenStream, TokenStream) {
        let rt = self.rt;
        let Some(rows) = rows else {
            return (quote!(#rt::cpu::whole_runs), quote!(true), TokenStream::new());
        };
        let (ix, x_ty) = input;
        let ItemRows {
            dividend,
            ty,
            divisors,
            ..
        } = rows;
        let width = &divisors[0].1;
        // The divisors are positive multiples of the width.
        let positive = divisors
            .iter()
            .map(|(_, d, _)| quote!((#d) > 0 && (#d) % __w == 0));
        let ok = quote!({ #[allow(unused_comparisons)] let __ok = { let __w: #ty = #width; __w > 0 #(&& #positive)* }; __ok });
        let (qs, rs): (Vec<Ident>, Vec<Ident>) = (0..divisors.len())
            .map(|n| (format_ident!("__rq{}", n), format_ident!("__rr{}", n)))
            .unzip();
        let parts = divisors.iter().map(|(_, d, fast)| match fast {
            Some(f) => quote!((#rt::ops::FastDiv::fast_div(__e, #f), #rt::ops::FastDiv::fast_rem(__e, #f))),
            None => quote!({ let __d: #ty = #d; (#rt::ops::ScalarOps::acc_div(__e, __d), #rt::ops::ScalarOps::acc_rem(__e, __d)) }),
        });
        let closure = quote! {
            #[inline(always)]
            |__x: &#x_ty, __p: &_, __k: usize, __end: usize| {
                let #ix: #x_ty = *__x;
                let (#(#names,)* __rows_ok, _) = *__p;
                let __e: #ty = { let #element: usize = __k; #dividend };
                let __last: #ty = { let #element: usize = __end - 1; #dividend };
                #(let (#qs, #rs) = #parts;)*
                // The row's dividends count up by one from a non-negative
                // one (a cast that wraps inside the run breaks this): else a
                // row of one element.
                #[allow(unused_comparisons)]
                let __len = if __rows_ok && __e >= 0 && (__last as i128) - (__e as i128) == (__end - 1 - __k) as i128 {
                    let __w: #ty = #width;
                    (__w - __rr0) as usize
                } else {
                    1
                };
                (__len, (#(#qs, #rs,)*))
            }
        };
        let bind = quote!(let (#(#qs, #rs,)*) = *__row;);
        (closure, ok, bind)
    }

    /// Whether `h` reads no memory and depends on the expand item's `input`,
    /// host values, and `let`s in scope of such values only: the same for
    /// every element of one input.
    fn of_input(&self, h: H, input: VarId, element: VarId) -> bool {
        let a = self.a;
        !touches_memory(a, h)
            && !a.reaches(h, |_, e| match e {
                Expr::Scalar(Scalar::Var(v)) if *v == element => true,
                Expr::Scalar(Scalar::Var(v)) if *v == input || self.host_vars.contains(v) => false,
                Expr::Scalar(Scalar::Var(v)) => match self.lets_in_scope.borrow().get(v) {
                    Some(&x) => !self.of_input(x, input, element),
                    None => true,
                },
                Expr::Scalar(Scalar::Let { .. }) => true,
                _ => false,
            })
    }

    /// `emit()` of the call of a kernel over a multi-dimensional index space
    /// (shape `shape`) whose element function reads arrays at its index
    /// (`zip_with` of two matrices), in two versions: one reading those arrays
    /// at the element's row-major offset `__i`, run when the host finds their
    /// shapes equal to the index space's (then the offsets agree), and one
    /// converting the index to each array's offset. The conversion costs a
    /// division per dimension and keeps the loop from being vectorised.
    fn linear_version(&self, e: &ElemFn, shape: &Ident, emit: impl Fn() -> TokenStream) -> TokenStream {
        let a = self.a;
        let ElemFn::Index(f) = e else {
            return emit();
        };
        let p = f.params[0];
        if !matches!(a.var(p).ty, Ty::Index(r) if r >= 2) {
            return emit();
        }
        let lets = let_values(a, f.body);
        let mut bufs: Vec<u32> = Vec::new();
        a.reaches(f.body, |_, e| {
            if let Expr::Plan(PlanRead::ReadIndex { array, index }) = e {
                let b = buffer_of(a, *array);
                if is_iteration_index(a, *index, p, &lets) && !bufs.contains(&b) {
                    bufs.push(b);
                }
            }
            false
        });
        if bufs.is_empty() {
            return emit();
        }
        bufs.sort_unstable();
        let general = emit();
        let before = self.linear_reads.replace(bufs.iter().copied().collect());
        let fast = emit();
        self.linear_reads.replace(before);
        let same = bufs.iter().map(|b| {
            let bs = buf_shape(*b);
            quote!(#bs == #shape)
        });
        quote!(if #(#same)&&* { #fast } else { #general })
    }

    /// Whether `index` is the iteration index of the element function being
    /// emitted (through `let`s that rename it).
    fn at_iteration_index(&self, index: H) -> bool {
        self.iteration
            .borrow()
            .as_ref()
            .is_some_and(|it| it.is_index(self.a, index))
    }
}

impl Target for Gen<'_> {
    fn input(&self, name: &Ident, b: u32) -> TokenStream {
        let (bi, bs, leaves) = (buf(b), buf_shape(b), self.bind_leaves(b));
        quote! {
            let #bs = #name.shape();
            let #bi = #name.try_columns()?;
            #leaves
        }
    }

    fn after_step(&self) -> TokenStream {
        quote!(__ctx.check()?;)
    }

    fn fallible(&self, result: TokenStream) -> TokenStream {
        quote!(#result?;)
    }

    /// A kernel consumes a dying buffer it writes into: a permute's or an
    /// expand's defaults, or the buffer a generate changes in a box only.
    fn kernel(&self, k: &accel_core::plan::Kernel, may_move: &HashSet<u32>) -> (TokenStream, HashSet<u32>) {
        let moved: HashSet<u32> = match k.op {
            KernelOp::Permute {
                defaults,
                move_defaults: true,
                ..
            } if may_move.contains(&defaults.0) => [defaults.0].into_iter().collect(),
            KernelOp::Expand {
                sink:
                    ExpandSink::Permute {
                        defaults,
                        move_defaults: true,
                        ..
                    },
                ..
            } if may_move.contains(&defaults.0) => [defaults.0].into_iter().collect(),
            KernelOp::Generate {
                ref elem, ref folds, ..
            } if !k.is_horizontal() && folds.is_empty() => self
                .in_place_candidate(elem, k.outputs[0].0)
                .map(|(x, ..)| x)
                .or_else(|| self.plan.prefix_source(k).map(|x| x.0))
                .filter(|x| may_move.contains(x))
                .into_iter()
                .collect(),
            _ => HashSet::new(),
        };
        // Host values the kernel computes are bound once before it.
        let outer = self.hoisted.replace(Some(Vec::new()));
        let body = self.kernel_code(k, &moved);
        let hoisted = self.hoisted.replace(outer).unwrap_or_default();
        let lets = hoisted
            .iter()
            .map(|Hoisted { name, value, ty, .. }| quote!(let #name: #ty = #value;));
        // Timed as the kernel `explain()` numbers so (`ACCEL_PROFILE=1`).
        let Some(n) = self.plan.kernels().position(|x| std::ptr::eq(x, k)) else {
            return (quote!(#(#lets)* #body), moved);
        };
        let code = quote! {
            let __began = __timer.begin();
            #(#lets)*
            #body
            __timer.end(__began, #n);
        };
        (code, moved)
    }

    fn bind(&self, b: u32) -> TokenStream {
        self.bind_leaves(b)
    }

    /// Its storage goes to the pool of dead arrays, for a later kernel's output.
    fn recycle(&self, b: u32) -> TokenStream {
        let (rt, bi) = (self.rt, buf(b));
        quote!(#rt::Columns::recycle(#bi);)
    }

    /// Parameters are held by reference, intermediate buffers by value.
    fn clone_buffer(&self, b: u32) -> TokenStream {
        let (rt, bi) = (self.rt, buf(b));
        match self.plan.buffers[BufId(b)].origin {
            Origin::Param(_) => quote!(#rt::Columns::copy(#bi)),
            _ => quote!(#rt::Columns::copy(&#bi)),
        }
    }

    fn array_from_columns(&self, t: &TokenStream, r: &Literal) -> TokenStream {
        let rt = self.rt;
        quote!(#rt::Array::<#t, #r>::from_columns)
    }

    fn frame(&self, steps: TokenStream, result: TokenStream) -> TokenStream {
        let rt = self.rt;
        let (name, labels) = (&self.plan.name, kernel_labels(self.plan));
        quote! {{
            let __ctx = #rt::host::Ctx::new();
            let __timer = #rt::cpu::timing::CallTimer::start(#name, &[#(#labels),*]);
            #steps
            let __result = #result;
            __ctx.check()?;
            ::core::result::Result::Ok(__result)
        }}
    }
}

impl Scalars for Gen<'_> {
    fn plan(&self) -> &Plan {
        self.plan
    }

    fn rt(&self) -> &TokenStream {
        self.rt
    }

    fn reads_in_place(&self, b: u32) -> bool {
        self.in_place_leaf.get() == Some(b)
    }

    /// Inside a kernel: values the host computes are hoisted before it,
    /// divisions by a value fixed over the kernel multiply, reads go
    /// unchecked where a proof says they are in bounds, loops whose counter
    /// reads can be tested before them run in two versions.
    fn expr(&self, h: H) -> TokenStream {
        if let Some(value) = self.lane_values.borrow().get(&h) {
            return value.clone();
        }
        if let Some(name) = self.hoist(h) {
            return quote!(#name);
        }
        if let Some(value) = self.row_value(h) {
            return value;
        }
        if let Some(value) = self.row_division(h) {
            return value;
        }
        let rt = self.rt;
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) if self.inline_lets.get() => {
                let value = self.lets_in_scope.borrow().get(v).copied();
                match value {
                    // In parentheses: a block indexed (`{ .. }[1]`) at the
                    // end of a block would be a statement and an array.
                    Some(x) => {
                        let value = self.expr(x);
                        quote!((#value))
                    }
                    None => self.node(h),
                }
            }
            Expr::Scalar(Scalar::Let { var: v, value, body }) => {
                let t = rust_ty(&self.a.var(*v).ty);
                let value_e = self.expr(*value);
                let before = self.lets_in_scope.borrow_mut().insert(*v, *value);
                let body = self.expr(*body);
                match before {
                    Some(x) => self.lets_in_scope.borrow_mut().insert(*v, x),
                    None => self.lets_in_scope.borrow_mut().remove(v),
                };
                let v = var(*v);
                quote!({ let #v: #t = #value_e; #body })
            }
            Expr::Scalar(Scalar::Binary(op @ (BinOp::Div | BinOp::Rem), x, y))
                if self.fast_divisor_of(*y) =>
            {
                let d = self.fast_divisor(*y);
                let a = self.expr(*x);
                let fast = quote!(#rt::ops::FastDiv);
                match op {
                    BinOp::Div => quote!(#fast::fast_div(#a, #d)),
                    _ => quote!(#fast::fast_rem(#a, #d)),
                }
            }
            Expr::Scalar(Scalar::Binary(op @ (BinOp::And | BinOp::Or), x, y))
                if (self.eager_logic.get() && !touches_memory(self.a, *y))
                    || (self.eager_compare.get() && cheap_logic(self.a, *y)) =>
            {
                let (a, b) = (self.expr(*x), self.expr(*y));
                match op {
                    BinOp::And => quote!((#a & #b)),
                    _ => quote!((#a | #b)),
                }
            }
            Expr::Scalar(Scalar::If(c, t, e)) if self.decision(h).is_some() => {
                // The inside of a guard split: the box decides this `if`.
                let Some(Decision { then, residual }) = self.decision(h) else {
                    unreachable!()
                };
                if !then {
                    return self.expr(*e);
                }
                let depth = self.guards.borrow().len();
                facts(self.a, *c, true, &mut self.guards.borrow_mut());
                let t = self.expr(*t);
                self.guards.borrow_mut().truncate(depth);
                if residual.is_empty() {
                    return t;
                }
                let rc: Vec<TokenStream> = residual.iter().map(|r| self.expr(*r)).collect();
                let e = self.expr(*e);
                quote!(if #(#rc)&&* { #t } else { #e })
            }
            Expr::Scalar(Scalar::If(c, t, e))
                if scalars_in(self.a.ty(h)) <= 2
                    && self.speculable(*t, &mut SPECULATE.clone())
                    && self.speculable(*e, &mut SPECULATE.clone()) =>
            {
                // Both branches computed, then one chosen: a select, with no
                // branch for data to mispredict (a radix sort's destination,
                // from its digit), and straight code that vectorises. Only
                // for a value of one or two scalars: the work both branches
                // do for a wider one would cost more than a branch that is
                // often predicted.
                let (t, e, c) = (self.expr(*t), self.expr(*e), self.expr(*c));
                quote!({ let __then = #t; let __else = #e; if #c { __then } else { __else } })
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                // Each branch runs where the condition's facts hold (`bounds::facts`).
                let in_branch = |branch: H, truth: bool| {
                    let depth = self.guards.borrow().len();
                    facts(self.a, *c, truth, &mut self.guards.borrow_mut());
                    let code = self.expr(branch);
                    self.guards.borrow_mut().truncate(depth);
                    code
                };
                let (t, e) = (in_branch(*t, true), in_branch(*e, false));
                let c = self.expr(*c);
                quote!(if #c { #t } else { #e })
            }
            Expr::Scalar(Scalar::While { vars, cond, step, .. }) => {
                let facts = loop_bounds(self.a, vars, *cond);
                let emit = || self.node(h);
                let (reads, tests) = counter_reads(self.a, &facts, step);
                // Each versioned loop doubles the loops inside it: two levels at most.
                let versions = self.loop_versions.get();
                if reads.is_empty() || versions >= 2 {
                    return emit();
                }
                self.loop_versions.set(versions + 1);
                let checked = emit();
                self.fast_loops.borrow_mut().push((h, reads));
                let fast = emit();
                self.fast_loops.borrow_mut().pop();
                self.loop_versions.set(versions);
                let tests = tests.iter().map(|(x, shape)| {
                    let (x, shape) = (self.expr(*x), self.expr(*shape));
                    quote!((#x) <= (#shape)[0])
                });
                quote!({ if #(#tests)&&* { #fast } else { #checked } })
            }
            Expr::Plan(PlanRead::ReadIndex { array, index })
                if self.linear_reads.borrow().contains(&buffer_of(self.a, *array))
                    && self.at_iteration_index(*index) =>
            {
                self.read(buffer_of(self.a, *array), quote!(__i))
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var: v,
                body,
            }) => {
                // The proof that lets the read go unchecked, if any.
                let proof = match self.proof(h, *index, *shape) {
                    Some(Proof::Iteration) => "inside the iteration space",
                    Some(Proof::Counter) => "loop counter below the extent",
                    Some(Proof::BeforeLoop(_)) => "loop bound tested before the loop",
                    Some(Proof::Entry { bounds, shape }) if self.tested_at_entry(&bounds, shape) => {
                        "extents compared at kernel entry"
                    }
                    _ => return self.node(h),
                };
                let (ix, sh) = (self.expr(*index), self.expr(*shape));
                // A `let` of the index, as a row's values see it (`rows`).
                let before = self.lets_in_scope.borrow_mut().insert(*v, *index);
                let body = self.expr(*body);
                match before {
                    Some(x) => self.lets_in_scope.borrow_mut().insert(*v, x),
                    None => self.lets_in_scope.borrow_mut().remove(v),
                };
                let v = var(*v);
                quote!({
                    let #v = #ix;
                    if #rt::cpu::VERIFY_ELISIONS { #rt::cpu::verify_elision(#proof, #op, &#v, &#sh); }
                    #body
                })
            }
            Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                offset,
                boundary,
            }) => {
                let b = buffer_of(self.a, *array);
                let bs = buf_shape(b);
                let c = self.expr(*center);
                let r = Literal::usize_unsuffixed(offset.len());
                let offs = offset.iter().map(|o| {
                    let o = Literal::isize_suffixed(*o as isize);
                    quote!(#o)
                });
                let offs = quote!([#(#offs),*]);
                if self.fast_stencil.get() {
                    // The interior: every neighbour is inside (see `stencil_split`).
                    let read = self.read(b, quote!(#rt::cpu::stencil::offset_in(&#bs, &__c, #offs)));
                    return quote!({
                        let __c: [usize; #r] = #c;
                        if #rt::cpu::VERIFY_ELISIONS {
                            let __n: [usize; #r] = ::core::array::from_fn(|__d| (__c[__d] as isize + #offs[__d]) as usize);
                            #rt::cpu::verify_elision("stencil interior", "stencil", &__n, &#bs);
                        }
                        #read
                    });
                }
                let kind = match boundary {
                    Boundary::Clamp => quote!(Clamp),
                    Boundary::Mirror => quote!(Mirror),
                    Boundary::Wrap => quote!(Wrap),
                    Boundary::Constant(_) => quote!(Constant),
                };
                let outside = match boundary {
                    Boundary::Constant(k) => self.expr(*k),
                    // Unreachable: the other rules always find an element.
                    _ => quote!(::core::default::Default::default()),
                };
                let read = self.read(b, quote!(__l));
                quote!({
                    let __c: [usize; #r] = #c;
                    match #rt::cpu::stencil::resolve(&#bs, &__c, #offs, #rt::cpu::Bound::#kind) {
                        ::core::option::Option::Some(__l) => #read,
                        ::core::option::Option::None => #outside,
                    }
                })
            }
            // Every other node in its plain form (`Scalars::node` matches them all).
            _ => self.node(h),
        }
    }

    /// The step runs where the loop condition's bounds hold.
    fn loop_step(&self, h: H, step: &[H]) -> TokenStream {
        let facts = match self.a.expr(h) {
            Expr::Scalar(Scalar::While { vars, cond, .. }) => loop_bounds(self.a, vars, *cond),
            _ => Vec::new(),
        };
        let depth = self.below.borrow().len();
        self.below.borrow_mut().extend(facts);
        let code = self.tuple(step);
        self.below.borrow_mut().truncate(depth);
        code
    }
}

/// The `ReadStencil`s in `h`.
fn stencil_reads(a: &Arena, h: H) -> Vec<H> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if matches!(a.expr(x), Expr::Plan(PlanRead::ReadStencil { .. })) {
            out.push(x);
        }
        stack.extend(a.expr(x).children());
    }
    out
}

/// The plan's kernels as `explain()` shows them, in its order.
fn kernel_labels(plan: &Plan) -> Vec<String> {
    plan.kernels()
        .enumerate()
        .map(|(n, k)| plan.kernel_label(n, k))
        .collect()
}

/// How a generated closure holds what it reads.
#[derive(Clone, Copy)]
enum Capture {
    /// By reference (a closure that is called where it is built).
    Borrow,
    /// By value (`move`).
    Move,
}

impl ToTokens for Capture {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        if let Capture::Move = self {
            tokens.extend(quote!(move));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(source: &str, name: &str) -> String {
        let (_, plan) = accel_core::compile_source(source, name).unwrap_or_else(|e| panic!("{}", e.message));
        program_body(&plan, &quote!(rt)).to_string()
    }

    #[test]
    fn stencil_kernels_split_interior_and_border() {
        // Around the kernel's own index (rank 1 through the linear form, rank 2
        // through lets, and zip_with of two stencils): the interior/border split.
        for (src, name) in [
            ("fn f(xs: &Vector<f32>) -> Vector<f32> { xs.stencil(Boundary::Clamp, |[a, b, c]| a + b - c).map(|x| x * 2.0) }", "f"),
            ("fn g(m: &Matrix<f32>) -> Matrix<f32> { m.stencil(Boundary::Wrap, |[[a, _, _], [_, e, _], [_, _, i]]| a + e + i) }", "g"),
            (
                "fn h(a: &Matrix<i32>, b: &Matrix<i32>) -> Matrix<i32> { \
                 a.stencil(Boundary::Mirror, |[[x, _, _], [_, _, _], [_, _, _]]| x) \
                 .zip_with(&a.stencil2(Boundary::Clamp, b, Boundary::Constant(3), |[[_], [y], [_]], [[_, z, _]]| y - z), |p, q| p * q) }",
                "h",
            ),
        ] {
            let c = code(src, name);
            assert!(c.contains("stencil_generate"), "{name}: {c}");
            assert!(c.contains("offset_in"), "{name}: {c}");
        }
        // Neighbours of another index (a backpermute consumer) and a fold
        // consumer: the boundary rule everywhere.
        for (src, name) in [
            ("fn r(xs: &Vector<f32>) -> Vector<f32> { let n = xs.len(); xs.stencil(Boundary::Clamp, |[a, b, c]| a + b - c).backpermute([n], |[i]| [n - 1 - i]) }", "r"),
            ("fn s(m: &Matrix<f32>) -> Vector<f32> { m.stencil(Boundary::Mirror, |[[a, _, _], [_, e, _], [_, _, i]]| a + e + i).sum() }", "s"),
        ] {
            let c = code(src, name);
            assert!(!c.contains("stencil_generate"), "{name}: {c}");
            assert!(!c.contains("offset_in"), "{name}: {c}");
            assert!(c.contains("resolve"), "{name}: {c}");
        }
    }

    #[test]
    fn a_stored_expansion_walks_its_source_search() {
        // Stored, and read elsewhere (through a map, and as a whole): each
        // thread searches once and walks.
        for (src, name) in [
            ("fn f(xs: &Vector<u32>) -> Vector<u64> { xs.expand(|x| x % 5, |x, k| x as u64 + k as u64) }", "f"),
            (
                "fn g(xs: &Vector<u32>) -> Vector<u32> { let ys = xs.expand(|x| x % 5, |x, k| x + k).map(|y| y * 2); \
                 let m = ys.len(); generate([m], |[t]| ys[[t]] + ys[[m - 1 - t]]) }",
                "g",
            ),
        ] {
            let c = code(src, name);
            assert!(c.contains("generate_walk"), "{name}: {c}");
        }
        // A search written by hand over an array that may decrease, or keyed
        // by something else than the element's position: searched.
        let by_hand =
            "fn h(offs: &Vector<usize>) -> Vector<usize> { let n = offs.len(); generate([n], |[j]| { \
                       let mut lo = 0usize; let mut hi = n; while hi - lo > 1 { let mid = (lo + hi) / 2; \
                       if offs[[mid]] <= j { lo = mid } else { hi = mid } } lo }) }";
        assert!(!code(by_hand, "h").contains("generate_walk"));
        let reversed =
            "fn r(xs: &Vector<u32>) -> Vector<u32> { let ys = xs.expand(|x| x % 5, |x, k| x + k); \
                        let m = ys.len(); generate([m], |[t]| ys[[m - 1 - t]]) }";
        assert!(code(reversed, "r").matches("generate_walk").count() == 1);
    }

    #[test]
    fn arithmetic_loops_run_in_lanes() {
        // Loops of arithmetic, under lets, branches and other loops: lanes.
        for (src, name) in [
            (
                "fn f(xs: &Vector<f32>) -> Vector<u32> { xs.map(|x| { let mut k = 0u32; let mut z = x; \
                 while k < 10 && z < 4.0 { z = z * z; k += 1; } k }) }",
                "f",
            ),
            (
                "fn g(w: usize) -> Matrix<i32> { generate([w, w], |[i, j]| if i < j { let mut n = 0i32; \
                 while n < j as i32 { let mut m = 0i32; while m < n { m += 1; } n += m + 1; } n } else { 0 }) }",
                "g",
            ),
        ] {
            let c = code(src, name);
            assert!(c.contains("generate_lanes"), "{name}: {c}");
        }
        // A fold of such elements: by blocks of lanes.
        let c = code(
            "fn s(n: usize) -> Scalar<u32> { generate([n], |[i]| { let mut k = 0u32; let mut z = i as u32; \
             while z > 1 { z = z / 2; k += 1; } k }).sum() }",
            "s",
        );
        assert!(c.contains("fold_all_lanes"), "s: {c}");
        // No loop; a loop that reads memory; a loop inside an operation the
        // lanes do not take apart: one element at a time.
        for (src, name) in [
            ("fn a(xs: &Vector<f32>) -> Vector<f32> { xs.map(|x| x * 2.0) }", "a"),
            (
                "fn b(xs: &Vector<u32>) -> Vector<u32> { let n = xs.len(); xs.map(|x| { let mut i = 0usize; \
                 let mut s = 0u32; while i < n && i < x as usize { s += xs[[i]]; i += 1; } s }) }",
                "b",
            ),
            (
                "fn c(xs: &Vector<u32>) -> Vector<u32> { xs.map(|x| { let mut k = 0u32; while k < x { k += 3; } k } + 1) }",
                "c",
            ),
            (
                "fn d(xs: &Vector<f32>) -> Vector<f32> { xs.map(|x| { let mut y = x; while y > 1.0 { y = y.ln(); } y }) }",
                "d",
            ),
        ] {
            let c = code(src, name);
            assert!(!c.contains("generate_lanes"), "{name}: {c}");
        }
    }

    #[test]
    fn comparisons_of_values_are_combined_without_branches() {
        // An argmin over rows tests data: its `&&` and `||` of
        // comparisons are eager, where a branch per test would mispredict.
        let c = code("fn t(a: &Matrix<f32>) -> Vector<usize> { a.argmin() }", "t");
        assert!(
            c.contains(" | ") && c.contains(" & ") && !c.contains("||"),
            "t: {c}"
        );
        // Over a whole vector the running minimum seldom changes: branches.
        let c = code("fn w(a: &Vector<f32>) -> Scalar<usize> { a.argmin() }", "w");
        assert!(c.contains("||"), "w: {c}");
        // A right operand that reads memory keeps its short circuit.
        let c = code(
            "fn u(a: &Vector<i32>) -> Vector<bool> { let n = a.len(); generate([n], |[i]| i > 0 && a[[i - 1]] > 0) }",
            "u",
        );
        assert!(c.contains("&&"), "u: {c}");
    }

    #[test]
    fn cheap_branches_that_cannot_fail_are_selected() {
        // A radix sort's destination: both sides read in bounds whatever
        // the digit, so both are computed and one chosen.
        let c = code(
            "fn t(bits: &Vector<u32>, zb: &Vector<u32>, nz: usize) -> Vector<usize> { let n = bits.len(); \
             generate([n], |[i]| if bits[[i]] == 0 { zb[[i]] as usize } else { nz + i - zb[[i]] as usize }) }",
            "t",
        );
        assert!(c.contains("__then") && c.contains("__else"), "t: {c}");
        // A read in bounds only where the condition holds stays in its branch.
        let c = code(
            "fn u(a: &Vector<f32>) -> Vector<f32> { let n = a.len(); generate([n], |[i]| if i > 0 { a[[i - 1]] } else { 0.0 }) }",
            "u",
        );
        assert!(!c.contains("__then"), "u: {c}");
        // A value of more than two scalars keeps its branch.
        let c = code(
            "fn v(a: &Vector<i32>) -> Vector<(i32, i32, i32)> { a.map(|x| if x > 0 { (x, x + 1, x + 2) } else { (x, x, x) }) }",
            "v",
        );
        assert!(!c.contains("__then"), "v: {c}");
        // A three-way choice on data (quick_sort.fut's new position of a
        // key less than, equal to or greater than its pivot): both levels
        // are selected, the outer one's else-branch being the inner `if`.
        let c = code(
            "fn w(c: &Vector<u8>, a: &Vector<usize>, e: &Vector<usize>, s: usize, x: usize, y: usize) -> Vector<usize> { \
             let n = c.len(); generate([n], |[t]| if c[[t]] == 0 { s + a[[t]] - 1 } else if c[[t]] == 1 { s + x + e[[t]] - 1 } \
             else { s + x + y + (t - s + 1 - a[[t]] - e[[t]]) - 1 }) }",
            "w",
        );
        assert_eq!(c.matches("__then").count(), 4, "w: {c}");
    }

    #[test]
    fn loops_the_same_along_a_row_run_in_row_lanes() {
        // trmm: the loop's trips depend on the row alone; `a[[k, i]]` is
        // read once per group, `b[[k, j]]` proved in bounds by the loop
        // condition and the iteration space together.
        let c = code(
            "fn t(a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> { let [m, n] = b.shape(); \
             generate([m, n], |[i, j]| { let mut s = b[[i, j]]; for k in i + 1..m { s += a[[k, i]] * b[[k, j]]; } s }) }",
            "t",
        );
        assert!(c.contains("generate_row_lanes"), "t: {c}");
        assert!(c.contains("loop counter below the extent"), "t: {c}");
        // A loop inside an operation: its operands first.
        let c = code(
            "fn v(a: &Matrix<f32>) -> Matrix<f32> { let [m, n] = a.shape(); \
             generate([m, n], |[i, j]| a[[i, j]] * 2.0 + { let mut s = 0.0f32; for k in 0..m { s += a[[k, j]]; } s }) }",
            "v",
        );
        assert!(c.contains("generate_row_lanes"), "v: {c}");
        // An in-place update of a row (an LU step): the box in row lanes.
        let c = code(
            "fn w(a0: &Matrix<f32>) -> Matrix<f32> { let [n, _] = a0.shape(); let mut a = a0.map(|x| x); \
             for i in 0..n { a = generate([n, n], |[r, c]| if r == i && c >= i { let mut s = a[[i, c]]; \
             for k in 0..i { s -= a[[i, k]] * a[[k, c]]; } s } else { a[[r, c]] }); } a }",
            "w",
        );
        assert!(c.contains("generate_box_lanes"), "w: {c}");
        // The same, the new row reading another array: straight into place.
        let c = code(
            "fn x(a: &Matrix<f32>) -> Matrix<f32> { let [n, m] = a.shape(); let mut b = a.map(|x| x); \
             for i in 0..n { b = generate([n, m], |[r, c]| if r == i { let mut s = 0.0f32; \
             for k in 0..n { s += a[[k, c]]; } s } else { b[[r, c]] }); } b }",
            "x",
        );
        assert!(c.contains("update_box_lanes"), "x: {c}");
        // A loop whose trips vary along the row: one element at a time.
        let c = code(
            "fn u(a: &Matrix<f32>) -> Matrix<f32> { let [m, n] = a.shape(); \
             generate([m, n], |[i, j]| { let mut s = 0.0f32; for k in 0..j { s += a[[i, k]]; } s }) }",
            "u",
        );
        assert!(!c.contains("generate_row_lanes"), "u: {c}");
    }

    #[test]
    fn reads_at_a_matrix_index_are_linear_when_shapes_agree() {
        let c = code(
            "fn z(a: &Matrix<f32>, b: &Matrix<f32>) -> Matrix<f32> { a.zip_with(b, |x, y| x * y + 1.0) }",
            "z",
        );
        // Both arrays' shapes compared with the result's, and a version
        // reading both at the linear offset.
        assert!(
            c.contains("__b0_shape == __b2_shape && __b1_shape == __b2_shape"),
            "{c}"
        );
        assert_eq!(c.matches("let __o : usize = __i ;").count(), 2, "{c}");
        // The same for a fold of such elements to a scalar.
        let c = code(
            "fn d(a: &Matrix<f32>, b: &Matrix<f32>) -> Scalar<f32> { a.zip_with(b, |x, y| x * y).fold_all(0.0, |p, q| p + q) }",
            "d",
        );
        assert!(c.contains("__b0_shape == __in"), "{c}");
        assert_eq!(c.matches("let __o : usize = __i ;").count(), 2, "{c}");
        // Rank 1 needs no second version.
        let c = code(
            "fn v(a: &Vector<f32>, b: &Vector<f32>) -> Vector<f32> { a.zip_with(b, |x, y| x * y) }",
            "v",
        );
        assert!(!c.contains("__b0_shape == "), "{c}");
    }

    /// The bounds checks left in the code of a one-kernel program.
    fn checks(source: &str, name: &str) -> (usize, String) {
        let c = code(source, name);
        (c.matches("__ctx . index").count(), c)
    }

    #[test]
    fn reads_provably_inside_their_array_are_unchecked() {
        // The iteration index into the array of the same extent (all
        // generated programs; also the fold's element function).
        let (n, c) = checks(
            "fn f(xs: &Vector<f32>) -> Vector<f32> { generate(xs.shape(), |[i]| xs[[i]] * 2.0) }",
            "f",
        );
        assert_eq!(n, 0, "{c}");
        let (n, c) = checks(
            "fn t(m: &Matrix<f32>) -> Vector<f32> { generate(m.shape(), |[i, j]| m[[i, j]] + 1.0).sum() }",
            "t",
        );
        assert_eq!(n, 0, "{c}");
        // A loop counter below the array's length, through a `let`.
        let (n, c) = checks(
            "fn k(xs: &Vector<f32>, cs: &Vector<f32>) -> Vector<f32> { let k = cs.len(); xs.map(|x| { \
             let mut c = 0usize; let mut s = x; while c < k { s = s + cs[[c]]; c += 1; } s }) }",
            "k",
        );
        assert_eq!(n, 0, "{c}");
        // Bounded by something else, or read after the loop: checked.
        let (n, c) = checks(
            "fn m(xs: &Vector<f32>, cs: &Vector<f32>, b: usize) -> Vector<f32> { xs.map(|x| { \
             let mut c = 0usize; let mut s = x; while c < b { s = s + cs[[c]]; c += 1; } s + cs[[c]] }) }",
            "m",
        );
        assert_eq!(n, 2, "{c}");
        // A counter below a host value in a matrix read (an LU step's `for k
        // in 0..i`): tested once at kernel entry (`p <= shape`), checked
        // only in the version that runs when the test fails (its two reads,
        // in its scalar and its row-lanes closure).
        let (n, c) = checks(
            "fn u(a: &Matrix<f32>, p: usize) -> Matrix<f32> { generate(a.shape(), |[r, c]| { \
             let mut s = 0.0f32; for k in 0..p { s += a[[r, k]] * a[[k, c]]; } s }) }",
            "u",
        );
        assert_eq!(n, 4, "{c}");
        assert!(c.contains("extents compared at kernel entry"), "{c}");
        // Bounded by a value read from an array: checked in every version.
        let (n, c) = checks(
            "fn v(a: &Matrix<f32>, ps: &Vector<usize>) -> Matrix<f32> { generate(a.shape(), |[r, c]| { \
             let mut s = 0.0f32; for k in 0..ps[[r]] { s += a[[r, k]] * a[[k, c]]; } s }) }",
            "v",
        );
        // The kernel is tested at entry for `ps[[r]]` alone: both versions
        // check the two reads of `a`, in the scalar and the lanes closure
        // (and the other version `ps[[r]]` too).
        assert!(
            c.contains("Columns = if ((__b0_shape) [0]) <= (__b1_shape) [0] {"),
            "{c}"
        );
        assert_eq!(n, 2 * 2 + 3 * 2, "{c}");
    }

    #[test]
    fn the_else_branch_of_edge_tests_proves_its_neighbours() {
        // `i != 0` and `i + 1 != n` (`n` the extent) keep `i - 1` and `i + 1`
        // inside; `i != 1` proves nothing, so `a[[i - 1]]` stays checked in
        // the version that runs when the host's tests hold.
        let edge = "fn e(a: &Vector<i32>) -> Vector<i32> { let n = a.len(); generate([n], |[i]| \
                    if i == 0 || i + 1 == n { a[[i]] } else { a[[i - 1]] + a[[i + 1]] }) }";
        let (proved, c) = checks(edge, "e");
        let (unproved, _) = checks(&edge.replace("i == 0", "i == 1"), "e");
        assert!(proved < unproved, "{proved} {unproved}: {c}");
        assert!(c.contains("VERIFY_ELISIONS"), "{c}");
    }

    #[test]
    fn reads_of_another_array_at_the_iteration_index_are_checked_on_entry() {
        // `ws[[j]]` in an all-pairs fold: one version unchecked, run when the
        // host finds the rows no longer than `ws`; the other checked.
        let (n, c) = checks(
            "fn p(xs: &Vector<f32>, ws: &Vector<f32>) -> Vector<f32> { let n = xs.len(); \
             generate([n, n], |[i, j]| xs[[i]] * ws[[j]]).fold(0.0, |a, b| a + b) }",
            "p",
        );
        assert_eq!(n, 1, "{c}");
        assert!(c.contains("__b1_shape) [0]"), "{c}");
        // An index computed from the iteration index is not the iteration
        // index: checked in the one version there is.
        let (n, c) = checks(
            "fn q(xs: &Vector<f32>, ws: &Vector<f32>) -> Vector<f32> { generate(xs.shape(), |[i]| xs[[i]] * ws[[i + 1]]) }",
            "q",
        );
        assert_eq!(n, 1, "{c}");
        assert!(!c.contains("<= ("), "{c}");
    }
}
