//! IR validation, run after every pass: variables in scope, operand types
//! consistent, array operations only at the array level, and for the kernel
//! plan, kernels reading only buffers that exist and are already written.

use crate::front::Program;
use crate::ir::{Arena, ArrayOp, Expr, Fun, PlanRead, Prim, Scalar, Ty, VarId, H};
use crate::plan::{Block, KernelOp, Origin, Output, Plan, Slot, Step, Val};
use std::collections::HashSet;

/// What the validator found wrong: an internal compiler error, never the
/// user's. `rule` names the invariant the IR breaks, `step` the plan step where
/// (none in the program IR or the result), `message` says what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub rule: Rule,
    pub step: Option<usize>,
    pub message: String,
}

/// The invariants the validator checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A variable read outside the scope that binds it.
    Scope,
    /// A value of another type than its place needs (operands, bindings,
    /// loop state, what a kernel computes against what it stores).
    Type,
    /// An expression at the wrong level: an array inside scalar code, an
    /// array operation left in the kernel plan, a kernel-plan read in the
    /// program IR.
    Level,
    /// A buffer that does not exist, is read before a kernel writes it, or
    /// is bound where another step owns it.
    Buffer,
    /// Values and the slots they fill differ in number or kind.
    Slots,
    /// An operation whose parts disagree (a stencil's arrays, boundaries and
    /// patterns; a sort's key; a scan's post).
    Shape,
}

impl Invalid {
    fn new(rule: Rule, step: Option<usize>, message: impl Into<String>) -> Invalid {
        Invalid {
            rule,
            step,
            message: message.into(),
        }
    }

    /// At plan step `k`.
    fn at(k: usize, rule: Rule, message: impl Into<String>) -> Invalid {
        Invalid::new(rule, Some(k), message)
    }
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            Some(k) => write!(f, "step {k}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

pub fn program(p: &Program) -> Result<(), Invalid> {
    let mut v = Validator::new(&p.arena, Vec::new(), None);
    v.scope.extend(p.params.iter().map(|x| x.var));
    v.expr(p.body, false)?;
    if p.arena.ty(p.body) != &p.result {
        return Err(Invalid::new(
            Rule::Type,
            None,
            format!(
                "body has type {} but the result is {}",
                p.arena.ty(p.body),
                p.result
            ),
        ));
    }
    Ok(())
}

pub fn plan(plan: &Plan) -> Result<(), Invalid> {
    let mut scope: Vec<VarId> = plan
        .params
        .iter()
        .filter_map(|p| match p.binding {
            crate::plan::ParamBinding::Scalar(v) => Some(v),
            _ => None,
        })
        .collect();
    let mut written: HashSet<u32> = HashSet::new();
    for (i, b) in plan.buffers.iter() {
        if matches!(b.origin, Origin::Param(_)) {
            written.insert(i.0);
        }
    }
    steps(plan, &plan.steps, &mut written, &mut scope)?;
    fn check_output(o: &Output, plan: &Plan, written: &HashSet<u32>, scope: &[VarId]) -> Result<(), Invalid> {
        match o {
            Output::Array(b) if written.contains(&b.0) => Ok(()),
            Output::Array(b) => Err(Invalid::new(
                Rule::Buffer,
                None,
                format!("result b{} is never written", b.0),
            )),
            Output::Scalar(h) => {
                let mut v = Validator::new(&plan.arena, scope.to_vec(), Some((plan, written)));
                v.expr(*h, true)
            }
            Output::Tuple(xs) => xs.iter().try_for_each(|x| check_output(x, plan, written, scope)),
        }
    }
    check_output(&plan.result, plan, &written, &scope)
}

/// Checks a list of steps, extending `written` and `scope` with what it binds.
fn steps(
    plan: &Plan,
    list: &[Step],
    written: &mut HashSet<u32>,
    scope: &mut Vec<VarId>,
) -> Result<(), Invalid> {
    for (k, step) in list.iter().enumerate() {
        let check = |h: H, written: &HashSet<u32>, scope: &[VarId]| {
            let mut v = Validator::new(&plan.arena, scope.to_vec(), Some((plan, written)));
            v.expr(h, true)
        };
        match step {
            Step::CheckReshape { from, to, .. } => {
                check(*from, written, scope)?;
                check(*to, written, scope)?;
            }
            Step::Let { var, value } => {
                check(*value, written, scope)?;
                if &plan.arena.var(*var).ty != plan.arena.ty(*value) {
                    return Err(Invalid::at(k, Rule::Type, "let binds a value of another type"));
                }
                scope.push(*var);
            }
            Step::Kernel(kernel) => {
                if let Some(d) = kernel.op.defaults() {
                    if !written.contains(&d.0) {
                        return Err(Invalid::at(
                            k,
                            Rule::Buffer,
                            format!("permute's defaults b{} are not written yet", d.0),
                        ));
                    }
                }
                let mut v = Validator::new(&plan.arena, scope.clone(), Some((plan, written)));
                for h in kernel.op.host_exprs() {
                    v.expr(h, true)?;
                }
                for f in kernel.op.funs() {
                    v.fun(f, true)?;
                }
                for o in &kernel.outputs {
                    match plan.buffers.get(*o) {
                        Some(b) if b.origin == Origin::Kernel(k) => {}
                        _ => {
                            return Err(Invalid::at(
                                k,
                                Rule::Buffer,
                                format!("output b{} is not this kernel's buffer", o.0),
                            ))
                        }
                    }
                }
                // What a generate or fold computes per element is what it
                // stores (a tuple with a field per output when it has several).
                let computed = match &kernel.op {
                    KernelOp::Generate { elem, .. } => Some(plan.arena.ty(elem.fun().body)),
                    KernelOp::Fold { post: Some(p), .. } => Some(plan.arena.ty(p.body)),
                    KernelOp::Fold { f, post: None, .. } => Some(plan.arena.ty(f.body)),
                    KernelOp::Scan { stored: false, .. } => None,
                    KernelOp::Scan { post: Some(p), .. } => Some(plan.arena.ty(p.body)),
                    KernelOp::Scan { f, post: None, .. } => Some(plan.arena.ty(f.body)),
                    _ => None,
                };
                // The folds in a kernel's pass store their results after its
                // own outputs: a generate's one, a scan's one (none when it
                // is not stored; an exclusive scan's two take no folds).
                let own = match &kernel.op {
                    KernelOp::Scan { stored: false, .. } => Some(0),
                    KernelOp::Scan {
                        kind: crate::ir::ScanKind::Exclusive,
                        ..
                    } => Some(2),
                    KernelOp::Scan { .. } => Some(1),
                    KernelOp::Generate { folds, .. } if !folds.is_empty() => Some(1),
                    _ => None,
                };
                if let Some(own) = own {
                    let folds = kernel.op.pass_folds();
                    // A fold's results: one output, or several (folds merged
                    // into one of a tuple, on the GPU path), each a field.
                    let counts: Vec<usize> = folds.iter().map(|g| g.alone.outputs.len()).collect();
                    let mut results = kernel.outputs[own.min(kernel.outputs.len())..].iter();
                    let fits = kernel.outputs.len() == own + counts.iter().sum::<usize>()
                        && (folds.is_empty() || own == 1 || own == 0)
                        && (own > 0 || !folds.is_empty())
                        && folds.iter().zip(&counts).all(|(g, &n)| {
                            let t = plan.arena.ty(g.post.as_ref().unwrap_or(&g.f).body);
                            let elems: Vec<Ty> = results
                                .by_ref()
                                .take(n)
                                .map(|o| plan.buffers[*o].elem.clone())
                                .collect();
                            match n {
                                1 => *t == elems[0],
                                _ => *t == Ty::Tuple(elems),
                            }
                        });
                    if !fits {
                        return Err(Invalid::at(
                            k,
                            Rule::Type,
                            "the folds in a kernel's pass do not match its outputs".to_string(),
                        ));
                    }
                }
                // A scan's post takes the element's index only where the
                // scan has one output, of the scan's rank.
                if let KernelOp::Scan {
                    shape,
                    kind,
                    post: Some(p),
                    ..
                } = &kernel.op
                {
                    let index_ok = match p.params[..] {
                        [_] => true,
                        [_, ix] => {
                            *kind != crate::ir::ScanKind::Exclusive
                                && plan.arena.var(ix).ty == *plan.arena.ty(*shape)
                        }
                        _ => false,
                    };
                    if !index_ok {
                        return Err(Invalid::at(
                            k,
                            Rule::Shape,
                            "a scan's post takes the element's index where it cannot".to_string(),
                        ));
                    }
                }
                if computed.is_some_and(|t| *t != kernel.stored(plan)) {
                    return Err(Invalid::at(
                        k,
                        Rule::Type,
                        "the kernel computes another type than it stores".to_string(),
                    ));
                }
                written.extend(kernel.outputs.iter().map(|b| b.0));
            }
            Step::If {
                cond,
                then,
                els,
                outs,
            } => {
                check(*cond, written, scope)?;
                if plan.arena.ty(*cond) != &Ty::Prim(crate::ir::Prim::Bool) {
                    return Err(Invalid::at(k, Rule::Type, "the condition of an if is not a bool"));
                }
                for b in [then, els] {
                    // Nothing a branch computes is visible after it.
                    let (mut w, mut sc) = (written.clone(), scope.clone());
                    block(plan, b, &mut w, &mut sc, outs, k)?;
                }
                bind_slots(plan, outs, Origin::Control(k), written, scope, k)?;
            }
            Step::While {
                state,
                init,
                cond,
                body,
                outs,
                pulls,
            } => {
                vals(plan, init, state, written, scope, k)?;
                let (mut w, mut sc) = (written.clone(), scope.clone());
                bind_slots(plan, state, Origin::State, &mut w, &mut sc, k)?;
                for p in pulls {
                    let stream = plan.params.get(p.param).map(|x| (&x.ty, x.binding));
                    let item = plan
                        .buffers
                        .get(p.item)
                        .map(|b| Ty::array(b.elem.clone(), b.rank));
                    let lifted = |e: &Ty| match (e, p.chunk) {
                        (Ty::Array(t, r), Some(_)) => Ty::array((**t).clone(), r + 1),
                        _ => e.clone(),
                    };
                    match (stream, item) {
                        (Some((Ty::Seq(e), crate::plan::ParamBinding::Stream)), Some(t))
                            if lifted(e) == t => {}
                        _ => {
                            return Err(Invalid::at(
                                k,
                                Rule::Type,
                                "a loop pulls from no stream of its type",
                            ))
                        }
                    }
                    let item = [Slot::Buf(p.item)];
                    bind_slots(plan, &item, Origin::State, &mut w, &mut sc, k)?;
                }
                steps(plan, &cond.steps, &mut w, &mut sc)?;
                match cond.result.as_slice() {
                    [Val::Scalar(c)] if plan.arena.ty(*c) == &Ty::Prim(crate::ir::Prim::Bool) => {
                        check(*c, &w, &sc)?
                    }
                    _ => return Err(Invalid::at(k, Rule::Type, "a loop condition is one bool")),
                }
                block(plan, body, &mut w, &mut sc, state, k)?;
                bind_slots(plan, outs, Origin::Control(k), written, scope, k)?;
                if outs.len() != state.len() {
                    return Err(Invalid::at(k, Rule::Slots, "loop results and state differ"));
                }
            }
        }
    }
    Ok(())
}

/// A sub-plan whose results go to `slots`.
fn block(
    plan: &Plan,
    b: &Block,
    written: &mut HashSet<u32>,
    scope: &mut Vec<VarId>,
    slots: &[Slot],
    k: usize,
) -> Result<(), Invalid> {
    steps(plan, &b.steps, written, scope)?;
    vals(plan, &b.result, slots, written, scope, k)
}

/// Values that are available and of the types of `slots`.
fn vals(
    plan: &Plan,
    xs: &[Val],
    slots: &[Slot],
    written: &HashSet<u32>,
    scope: &[VarId],
    k: usize,
) -> Result<(), Invalid> {
    if xs.len() != slots.len() {
        return Err(Invalid::at(
            k,
            Rule::Slots,
            format!("{} values for {} slots", xs.len(), slots.len()),
        ));
    }
    for (x, s) in xs.iter().zip(slots) {
        match (x, s) {
            (Val::Buf(b), Slot::Buf(t)) => {
                if !written.contains(&b.0) {
                    return Err(Invalid::at(
                        k,
                        Rule::Buffer,
                        format!("b{} is passed on before it is written", b.0),
                    ));
                }
                let (bb, tb) = (plan.buffer(*b), plan.buffer(*t));
                if bb.elem != tb.elem || bb.rank != tb.rank {
                    return Err(Invalid::at(
                        k,
                        Rule::Type,
                        format!("b{} passed as b{} of another type", b.0, t.0),
                    ));
                }
            }
            (Val::Scalar(h), Slot::Var(v)) => {
                let mut val = Validator::new(&plan.arena, scope.to_vec(), Some((plan, written)));
                val.expr(*h, true)?;
                if plan.arena.ty(*h) != &plan.arena.var(*v).ty {
                    return Err(Invalid::at(k, Rule::Type, "a scalar passed at another type"));
                }
            }
            _ => return Err(Invalid::at(k, Rule::Slots, "a value and its slot differ in kind")),
        }
    }
    Ok(())
}

fn bind_slots(
    plan: &Plan,
    slots: &[Slot],
    origin: Origin,
    written: &mut HashSet<u32>,
    scope: &mut Vec<VarId>,
    k: usize,
) -> Result<(), Invalid> {
    for s in slots {
        match s {
            Slot::Buf(b) => {
                if plan.buffers.get(*b).map(|x| x.origin) != Some(origin) {
                    return Err(Invalid::at(
                        k,
                        Rule::Buffer,
                        format!("b{} is not bound here", b.0),
                    ));
                }
                written.insert(b.0);
            }
            Slot::Var(v) => scope.push(*v),
        }
    }
    Ok(())
}

struct Validator<'a> {
    a: &'a Arena,
    scope: Vec<VarId>,
    /// When checking a plan: the plan and the buffers written so far.
    plan: Option<(&'a Plan, &'a HashSet<u32>)>,
    /// Nodes already found valid in a scope: the graph is a DAG, and walking
    /// it as a tree would take exponential time.
    valid: HashSet<(H, Vec<VarId>)>,
    /// Scope length at the entry of each enclosing closure.
    closure_bases: Vec<usize>,
}

impl<'a> Validator<'a> {
    fn new(a: &'a Arena, scope: Vec<VarId>, plan: Option<(&'a Plan, &'a HashSet<u32>)>) -> Self {
        Validator {
            a,
            scope,
            plan,
            valid: HashSet::new(),
            closure_bases: Vec::new(),
        }
    }

    fn fun(&mut self, f: &Fun, in_plan: bool) -> Result<(), Invalid> {
        let mark = self.scope.len();
        self.closure_bases.push(mark);
        self.scope.extend(&f.params);
        let r = self.scalar_only(f.body, in_plan);
        self.scope.truncate(mark);
        self.closure_bases.pop();
        r
    }

    fn scalar_only(&mut self, h: H, in_plan: bool) -> Result<(), Invalid> {
        if self.a.ty(h).has_array()
            && !matches!(
                self.a.expr(h),
                Expr::Scalar(Scalar::Var(_)) | Expr::Plan(PlanRead::Buffer(_))
            )
        {
            return Err(Invalid::new(
                Rule::Level,
                None,
                format!("array-valued expression inside scalar code: {}", self.a.show(h)),
            ));
        }
        self.expr(h, in_plan)
    }

    fn expr(&mut self, h: H, in_plan: bool) -> Result<(), Invalid> {
        // An array inside a closure is checked once, in the first scope that
        // reaches it: closures cannot build arrays, so its scope is the array
        // level's (plus loop state when an array loop sits inside scalar code),
        // and rechecking a shared array under every closure that reads it
        // would take exponential time.
        let key = if self.a.ty(h).is_array() && !self.closure_bases.is_empty() {
            (h, Vec::new())
        } else {
            (h, self.scope.clone())
        };
        if self.valid.contains(&key) {
            return Ok(());
        }
        self.expr_once(h, in_plan)?;
        self.valid.insert(key);
        Ok(())
    }

    fn expr_once(&mut self, h: H, in_plan: bool) -> Result<(), Invalid> {
        let e = self.a.expr(h);
        let ty = self.a.ty(h);
        let bad = |rule: Rule, msg: &str| Err(Invalid::new(rule, None, format!("{msg}: {}", self.a.show(h))));
        // The levels: array operations (and unchecked reads) before fusion
        // only, the plan's reads after it only.
        match (e, in_plan) {
            (Expr::Array(_) | Expr::Scalar(Scalar::Read { .. }), true) => {
                return bad(Rule::Level, "array operation left in the kernel plan");
            }
            (Expr::Plan(_), false) => return bad(Rule::Level, "kernel-plan expression in the program IR"),
            _ => {}
        }
        match e {
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f,
                arrays,
                extents,
            }) => {
                if boundaries.len() != arrays.len() || extents.len() != arrays.len() || arrays.is_empty() {
                    return bad(
                        Rule::Shape,
                        "stencil with mismatched arrays, boundaries and extents",
                    );
                }
                let mut params = f.params.iter();
                for ((a, ext), b) in arrays.iter().zip(extents).zip(boundaries) {
                    let Some((elem, rank)) = self.a.ty(*a).elem_and_rank() else {
                        return bad(Rule::Shape, "stencil of a non-array");
                    };
                    if ext.len() != rank || ext.iter().any(|n| n % 2 == 0) {
                        return bad(Rule::Shape, "stencil pattern of the wrong rank or an even size");
                    }
                    if b.constant().is_some_and(|c| self.a.ty(c) != elem) {
                        return bad(Rule::Type, "stencil boundary constant of the wrong type");
                    }
                    for _ in 0..ext.iter().product::<usize>() {
                        match params.next() {
                            Some(p) if &self.a.var(*p).ty == elem => {}
                            _ => {
                                return bad(
                                    Rule::Shape,
                                    "stencil function parameters do not match the patterns",
                                )
                            }
                        }
                    }
                }
                if params.next().is_some() {
                    return bad(Rule::Shape, "stencil function has too many parameters");
                }
            }
            Expr::Array(ArrayOp::Sort { key, a }) => {
                let elem = match self.a.ty(*a).elem_and_rank() {
                    Some((e, 1)) => e,
                    _ => return bad(Rule::Shape, "sort of a non-vector"),
                };
                if key.params.len() != 1 || &self.a.var(key.params[0]).ty != elem {
                    return bad(Rule::Shape, "sort key's parameter is not the element");
                }
                if !matches!(self.a.ty(key.body), Ty::Prim(Prim::U32 | Prim::U64)) {
                    return bad(Rule::Shape, "sort key is not a u32 or u64");
                }
                if ty != self.a.ty(*a) {
                    return bad(Rule::Type, "sort's result is not its input's type");
                }
            }
            Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                offset,
                boundary,
            }) => {
                let rank = self.a.ty(*array).elem_and_rank().map(|x| x.1);
                if rank != Some(offset.len()) || self.a.ty(*center) != &Ty::Index(offset.len()) {
                    return bad(Rule::Shape, "stencil read of the wrong rank");
                }
                if boundary.constant().is_some_and(|c| self.a.ty(c) != ty) {
                    return bad(Rule::Type, "stencil boundary constant of the wrong type");
                }
            }
            _ => {}
        }
        match e {
            Expr::Scalar(Scalar::Var(v)) => {
                if !self.scope.contains(v) {
                    return bad(Rule::Scope, "variable out of scope");
                }
                if &self.a.var(*v).ty != ty {
                    return bad(Rule::Type, "variable used at the wrong type");
                }
                Ok(())
            }
            Expr::Plan(PlanRead::Buffer(b)) => match self.plan {
                Some((p, written)) => {
                    let Some(buf) = p.buffers.get(*b) else {
                        return bad(Rule::Buffer, "unknown buffer");
                    };
                    if !written.contains(&b.0) {
                        return bad(Rule::Buffer, "buffer read before it is written");
                    }
                    if &Ty::array(buf.elem.clone(), buf.rank) != ty {
                        return bad(Rule::Type, "buffer used at the wrong type");
                    }
                    Ok(())
                }
                None => bad(Rule::Level, "buffer outside a plan"),
            },
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                self.expr(*value, in_plan)?;
                if &self.a.var(*var).ty != self.a.ty(*value) {
                    return bad(Rule::Type, "let binds a value of another type");
                }
                self.scope.push(*var);
                let r = self.expr(*body, in_plan);
                self.scope.pop();
                r?;
                if self.a.ty(*body) != ty {
                    return bad(Rule::Type, "let has the type of its body");
                }
                Ok(())
            }
            Expr::Plan(PlanRead::Checked {
                index,
                shape,
                var,
                body,
                ..
            }) => {
                self.expr(*index, in_plan)?;
                self.expr(*shape, in_plan)?;
                if self.a.ty(*index) != self.a.ty(*shape) {
                    return bad(Rule::Type, "checked index and shape differ in rank");
                }
                self.scope.push(*var);
                let r = self.expr(*body, in_plan);
                self.scope.pop();
                r
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }) => {
                for x in init {
                    self.expr(*x, in_plan)?;
                }
                for p in pulls {
                    self.expr(p.source, in_plan)?;
                    let want = match (self.a.ty(p.source).seq_elem(), p.chunk.len()) {
                        (Some(Ty::Array(e, r)), 2) => Some(Ty::array((**e).clone(), r + 1)),
                        (e, 0) => e.cloned(),
                        _ => None,
                    };
                    if want.as_ref() != Some(&self.a.var(p.item).ty) {
                        return bad(Rule::Type, "a loop's item is not its stream's element or chunk");
                    }
                    for x in &p.chunk {
                        self.expr(*x, in_plan)?;
                    }
                }
                let mark = self.scope.len();
                self.scope.extend(vars);
                self.scope.extend(pulls.iter().map(|p| p.item));
                let r = self
                    .expr(*cond, in_plan)
                    .and_then(|_| step.iter().try_for_each(|x| self.expr(*x, in_plan)));
                self.scope.truncate(mark);
                r?;
                for (v, x) in vars.iter().zip(init.iter().chain(step.iter())) {
                    if &self.a.var(*v).ty != self.a.ty(*x) {
                        return bad(Rule::Type, "loop state changes type");
                    }
                }
                Ok(())
            }
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
                self.expr(*x, in_plan)?;
                self.expr(*y, in_plan)?;
                let shift = matches!(op, crate::ir::BinOp::Shl | crate::ir::BinOp::Shr);
                if !shift && self.a.ty(*x) != self.a.ty(*y) {
                    return bad(Rule::Type, "binary operands of different types");
                }
                Ok(())
            }
            Expr::Scalar(Scalar::Assert { cond, body, .. }) => {
                self.expr(*cond, in_plan)?;
                self.expr(*body, in_plan)?;
                if self.a.ty(*cond) != &Ty::Prim(crate::ir::Prim::Bool) || self.a.ty(*body) != ty {
                    return bad(Rule::Type, "ill-typed assert");
                }
                Ok(())
            }
            Expr::Scalar(Scalar::If(c, t, f)) => {
                self.expr(*c, in_plan)?;
                self.expr(*t, in_plan)?;
                self.expr(*f, in_plan)?;
                if self.a.ty(*t) != self.a.ty(*f) || self.a.ty(*c) != &Ty::Prim(crate::ir::Prim::Bool) {
                    return bad(Rule::Type, "ill-typed if");
                }
                Ok(())
            }
            Expr::Seq(op) => {
                if in_plan {
                    return bad(Rule::Level, "sequence left in the kernel plan");
                }
                // The closures of `map` and `zip_with` are array programs of
                // one element; a fold's is scalar code, but for a fold of
                // arrays (an array program of two).
                let funs: Vec<&Fun> = e.funs();
                let fun_bodies: Vec<H> = funs.iter().map(|f| f.body).collect();
                for f in funs {
                    if matches!(op, crate::ir::SeqOp::Fold { z, .. } if !self.a.ty(*z).is_array()) {
                        self.fun(f, in_plan)?;
                        continue;
                    }
                    let mark = self.scope.len();
                    self.scope.extend(&f.params);
                    let r = self.expr(f.body, in_plan);
                    self.scope.truncate(mark);
                    r?;
                }
                for c in e.children() {
                    if !fun_bodies.contains(&c) {
                        self.expr(c, in_plan)?;
                    }
                }
                let seq = |x: &H| matches!(self.a.ty(*x), Ty::Seq(_));
                let ok = match op {
                    crate::ir::SeqOp::Slices { a } => self.a.ty(*a).is_array() && seq(&h),
                    crate::ir::SeqOp::Map { s, .. } => seq(s) && seq(&h),
                    crate::ir::SeqOp::Zip { a, b, .. } => seq(a) && seq(b) && seq(&h),
                    crate::ir::SeqOp::Collect { s, tabulate } => match (self.a.ty(*s).seq_elem(), ty) {
                        (Some(Ty::Array(e, r)), Ty::Array(f, q)) => {
                            e == f && *q == if *tabulate { r + 1 } else { 1 }
                        }
                        _ => false,
                    },
                    // Of Scalars from a scalar, or of arrays from an array.
                    crate::ir::SeqOp::Fold {
                        z, s, flatten: false, ..
                    } => {
                        let z = self.a.ty(*z);
                        seq(s)
                            && self.a.ty(*s).seq_elem() == Some(ty)
                            && (Some(z) == ty.elem_and_rank().map(|(e, _)| e) || z == ty)
                    }
                    // Of vectors, into any array.
                    crate::ir::SeqOp::Fold {
                        z, s, flatten: true, ..
                    } => {
                        seq(s)
                            && matches!(self.a.ty(*s).seq_elem(), Some(Ty::Array(_, 1)))
                            && self.a.ty(*z) == ty
                            && ty.is_array()
                    }
                };
                if !ok {
                    return bad(Rule::Type, "ill-typed sequence operation");
                }
                Ok(())
            }
            _ => {
                let funs: Vec<&Fun> = e.funs();
                let fun_bodies: Vec<H> = funs.iter().map(|f| f.body).collect();
                for f in funs {
                    self.fun(f, in_plan)?;
                }
                for c in e.children() {
                    if !fun_bodies.contains(&c) {
                        self.expr(c, in_plan)?;
                    }
                }
                Ok(())
            }
        }
    }
}
