//! The reference interpreter: executes the front end's IR directly, one
//! operation at a time, with no sharing recovery and no fusion. It is the
//! semantic oracle every backend is tested against, so it is written for
//! obviousness, not speed.

mod scalar;

pub use scalar::default_of;

use crate::front::Program;
use crate::ir::{
    stencil_offsets, Arena, ArrayOp, BinOp, Boundary, BufId, Expr, Fun, PlanRead, Pull, Scalar, ScanDir,
    ScanKind, SeqOp, Ty, VarId, H,
};
use accel_types::dynamic::{Dyn, DynArray, Value};
use accel_types::{shape, Error, ErrorKind};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

type R<T> = Result<T, Error>;

/// The buffers a kernel plan's host expressions read (see [`eval_host`]).
pub trait HostBuffers {
    fn shape(&mut self, b: BufId) -> R<Vec<usize>>;
    /// The buffer's elements (an executor whose buffers live elsewhere fetches them).
    fn array(&mut self, b: BufId) -> R<Rc<DynArray>>;
}

/// Evaluates host expression `h` of a kernel plan whose arena is `a`, with
/// the variables `vars` (scalar parameters, `let`s, loop states) and the
/// buffers of `host`. Plan reads have their plan meaning: `Checked` fails
/// with its operation's error, the reads proved in bounds must be.
pub fn eval_host(a: &Arena, h: H, vars: &[(VarId, Value)], host: &mut dyn HostBuffers) -> R<Value> {
    let mut it = Interp {
        a,
        env: vars.iter().map(|(v, x)| (*v, V::S(x.clone()))).collect(),
        params: HashSet::new(),
        arrays: HashMap::new(),
        free: HashMap::new(),
        host: Some(host),
    };
    it.scalar(h)
}

fn plan_only() -> Error {
    Error::new(
        "interpreter",
        "kernel-plan expressions cannot be interpreted here",
    )
}

/// A value during interpretation.
#[derive(Clone, Debug)]
enum V {
    S(Value),
    A(Rc<DynArray>),
    T(Vec<V>),
    /// A sequence, its elements in order.
    Q(Rc<Vec<Rc<DynArray>>>),
}

/// Runs `p` on `args` (one per parameter, in order).
pub fn run(p: &Program, args: &[Dyn]) -> R<Dyn> {
    let op = p.name.as_str();
    if args.len() != p.params.len() {
        return Err(Error::new(
            op,
            format!("expected {} arguments, got {}", p.params.len(), args.len()),
        ));
    }
    let mut it = Interp {
        a: &p.arena,
        env: Vec::new(),
        params: p.params.iter().map(|x| x.var).collect(),
        arrays: HashMap::new(),
        free: HashMap::new(),
        host: None,
    };
    for (param, arg) in p.params.iter().zip(args) {
        let v = match (arg, &param.ty) {
            (Dyn::Array(a), Ty::Array(_, r)) if a.shape.len() == *r => V::A(Rc::new(a.clone())),
            (Dyn::Scalar(s), t) if t.is_elem() => V::S(s.clone()),
            (Dyn::Seq(xs), Ty::Seq(e))
                if xs
                    .iter()
                    .all(|x| matches!(&**e, Ty::Array(_, r) if x.shape.len() == *r)) =>
            {
                V::Q(Rc::new(xs.iter().cloned().map(Rc::new).collect()))
            }
            _ => {
                return Err(Error::new(
                    op,
                    format!("argument `{}` does not have type `{}`", param.name, param.ty),
                ))
            }
        };
        it.env.push((param.var, v));
    }
    let v = it.eval(p.body).map_err(|e| e.in_program(op))?;
    Ok(to_dyn(v))
}

fn to_dyn(v: V) -> Dyn {
    match v {
        V::S(s) => Dyn::Scalar(s),
        V::A(a) => Dyn::Array(Rc::try_unwrap(a).unwrap_or_else(|a| (*a).clone())),
        V::T(vs) => Dyn::Tuple(vs.into_iter().map(to_dyn).collect()),
        V::Q(xs) => Dyn::Seq(xs.iter().map(|x| (**x).clone()).collect()),
    }
}

/// A tuple of scalars is a scalar; a tuple holding an array is not.
fn tuple_value(vs: Vec<V>) -> V {
    if vs.iter().all(|v| matches!(v, V::S(_))) {
        V::S(Value::Tuple(
            vs.into_iter()
                .map(|v| if let V::S(x) = v { x } else { Value::Tuple(vec![]) })
                .collect(),
        ))
    } else {
        V::T(vs)
    }
}

struct Interp<'a> {
    a: &'a Arena,
    /// Bound variables, innermost last.
    env: Vec<(VarId, V)>,
    /// The program's parameters: bound once, for the whole run.
    params: HashSet<VarId>,
    /// Array operations already computed that depend on nothing but the
    /// parameters: a closure that reads one by index (`ys[[i]]`) would
    /// otherwise compute the whole array again at every read.
    arrays: HashMap<H, Rc<DynArray>>,
    /// Free variables of the nodes seen.
    free: HashMap<H, BTreeSet<VarId>>,
    /// The buffers, when evaluating a kernel plan's host expression.
    host: Option<&'a mut dyn HostBuffers>,
}

impl Interp<'_> {
    fn lookup(&self, v: VarId) -> V {
        self.env
            .iter()
            .rev()
            .find(|(w, _)| *w == v)
            .map(|(_, x)| x.clone())
            .unwrap_or(V::S(Value::Tuple(vec![])))
    }

    fn scalar(&mut self, h: H) -> R<Value> {
        match self.eval(h)? {
            V::S(s) => Ok(s),
            _ => Err(Error::new("interpreter", "expected a scalar")),
        }
    }

    fn array(&mut self, h: H) -> R<Rc<DynArray>> {
        match self.eval(h)? {
            V::A(a) => Ok(a),
            _ => Err(Error::new("interpreter", "expected an array")),
        }
    }

    fn seq(&mut self, h: H) -> R<Rc<Vec<Rc<DynArray>>>> {
        match self.eval(h)? {
            V::Q(xs) => Ok(xs),
            _ => Err(Error::new("interpreter", "expected a sequence")),
        }
    }

    /// Array closure `f` applied to arrays `args`.
    fn apply_arrays(&mut self, f: &Fun, args: Vec<Rc<DynArray>>) -> R<Rc<DynArray>> {
        let mark = self.env.len();
        for (p, a) in f.params.iter().zip(args) {
            self.env.push((*p, V::A(a)));
        }
        let r = self.array(f.body);
        self.env.truncate(mark);
        r
    }

    fn eval_seq(&mut self, op: &SeqOp) -> R<V> {
        let seq = |xs: Vec<Rc<DynArray>>| Ok(V::Q(Rc::new(xs)));
        match op {
            SeqOp::Slices { a } => {
                let a = self.array(*a)?;
                let (n, inner) = match a.shape.split_first() {
                    Some((n, inner)) => (*n, inner.to_vec()),
                    None => return Err(Error::new("interpreter", "slices of a scalar")),
                };
                let size: usize = inner.iter().product();
                seq((0..n)
                    .map(|k| {
                        Rc::new(DynArray {
                            shape: inner.clone(),
                            elems: a.elems[k * size..(k + 1) * size].to_vec(),
                        })
                    })
                    .collect())
            }
            SeqOp::Map { f, s } => {
                let xs = self.seq(*s)?;
                seq(xs
                    .iter()
                    .map(|x| self.apply_arrays(f, vec![x.clone()]))
                    .collect::<R<_>>()?)
            }
            SeqOp::Zip { f, a, b } => {
                let (xs, ys) = (self.seq(*a)?, self.seq(*b)?);
                seq(xs
                    .iter()
                    .zip(ys.iter())
                    .map(|(x, y)| self.apply_arrays(f, vec![x.clone(), y.clone()]))
                    .collect::<R<_>>()?)
            }
            SeqOp::Collect { s, tabulate } => {
                let xs = self.seq(*s)?;
                let elems: Vec<Value> = xs.iter().flat_map(|x| x.elems.iter().cloned()).collect();
                let shape = if *tabulate {
                    let inner = match (xs.first(), self.a.ty(*s).seq_elem()) {
                        (Some(x), _) => x.shape.clone(),
                        (None, Some(Ty::Array(_, r))) => vec![0; *r],
                        _ => vec![],
                    };
                    if let Some(x) = xs.iter().find(|x| x.shape != inner) {
                        return Err(Error::with_kind(
                            accel_types::ErrorKind::ShapeMismatch,
                            "tabulate",
                            format!("elements of shapes {inner:?} and {:?}", x.shape),
                        ));
                    }
                    let mut sh = vec![xs.len()];
                    sh.extend(inner);
                    sh
                } else {
                    vec![elems.len()]
                };
                Ok(V::A(Rc::new(DynArray { shape, elems })))
            }
            // One group per element: the compiled program's groups are
            // chunks, and a `fold_flatten` must not depend on them.
            SeqOp::Fold {
                f,
                z,
                s,
                flatten: true,
            } => {
                let mut acc = self.array(*z)?;
                for x in self.seq(*s)?.iter() {
                    let lens = DynArray {
                        shape: vec![1],
                        elems: vec![Value::Usize(x.elems.len())],
                    };
                    acc = self.apply_arrays(f, vec![acc, Rc::new(lens), x.clone()])?;
                }
                Ok(V::A(acc))
            }
            SeqOp::Fold { f, z, s, .. } if self.a.ty(*z).is_array() => {
                let mut acc = self.array(*z)?;
                for x in self.seq(*s)?.iter() {
                    acc = self.apply_arrays(f, vec![acc, x.clone()])?;
                }
                Ok(V::A(acc))
            }
            SeqOp::Fold { f, z, s, .. } => {
                let mut acc = self.scalar(*z)?;
                for x in self.seq(*s)?.iter() {
                    let v = x
                        .elems
                        .first()
                        .cloned()
                        .ok_or_else(|| Error::new("interpreter", "an empty Scalar"))?;
                    acc = self.apply(f, vec![acc, v])?;
                }
                Ok(V::A(Rc::new(DynArray {
                    shape: vec![],
                    elems: vec![acc],
                })))
            }
        }
    }

    fn usize(&mut self, h: H) -> R<usize> {
        match self.scalar(h)? {
            Value::Usize(n) => Ok(n),
            _ => Err(Error::new("interpreter", "expected a usize")),
        }
    }

    fn index(&mut self, h: H) -> R<Vec<usize>> {
        match self.scalar(h)? {
            Value::Index(ix) => Ok(ix),
            _ => Err(Error::new("interpreter", "expected an index")),
        }
    }

    /// `f` applied to `args`.
    fn apply(&mut self, f: &Fun, args: Vec<Value>) -> R<Value> {
        let mark = self.env.len();
        for (p, a) in f.params.iter().zip(args) {
            self.env.push((*p, V::S(a)));
        }
        let r = self.scalar(f.body);
        self.env.truncate(mark);
        r
    }

    /// A loop's next state. The front end makes the steps the fields of one
    /// body (`step[i]` is `body.i`): that body runs once per iteration, as
    /// the source's loop body does (a `trace!` in it prints once).
    fn loop_step(&mut self, step: &[H]) -> R<Vec<V>> {
        let body = step.first().and_then(|x| match self.a.expr(*x) {
            Expr::Scalar(Scalar::Proj(b, 0)) => Some(*b),
            _ => None,
        });
        let shared = body.filter(|b| {
            step.iter().enumerate().all(
                |(i, x)| matches!(self.a.expr(*x), Expr::Scalar(Scalar::Proj(c, j)) if c == b && *j == i),
            )
        });
        let Some(b) = shared else {
            return step.iter().map(|x| self.eval(*x)).collect();
        };
        match self.eval(b)? {
            V::S(Value::Tuple(vs)) if vs.len() == step.len() => Ok(vs.into_iter().map(V::S).collect()),
            V::T(vs) if vs.len() == step.len() => Ok(vs),
            _ => step.iter().map(|x| self.eval(*x)).collect(),
        }
    }

    fn eval(&mut self, h: H) -> R<V> {
        if !self.a.expr(h).is_array_op() {
            return self.eval_node(h);
        }
        if let Some(a) = self.arrays.get(&h) {
            return Ok(V::A(a.clone()));
        }
        let v = self.eval_node(h)?;
        let closed = crate::alpha::free_vars(self.a, h, &mut self.free)
            .iter()
            .all(|x| self.params.contains(x));
        if let (true, V::A(a)) = (closed, &v) {
            self.arrays.insert(h, a.clone());
        }
        Ok(v)
    }

    fn eval_node(&mut self, h: H) -> R<V> {
        let s = |v: Value| Ok(V::S(v));
        match self.a.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => Ok(self.lookup(*v)),
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let x = self.eval(*value)?;
                self.env.push((*var, x));
                let r = self.eval(*body);
                self.env.pop();
                r
            }
            Expr::Scalar(Scalar::Lit(l)) => s(scalar::lit(*l)),
            Expr::Scalar(Scalar::Tuple(xs)) => {
                let vs = xs.iter().map(|x| self.eval(*x)).collect::<R<Vec<_>>>()?;
                Ok(tuple_value(vs))
            }
            Expr::Scalar(Scalar::Proj(x, n)) => match self.eval(*x)? {
                V::S(Value::Tuple(vs)) => s(vs[*n].clone()),
                V::S(Value::Index(ix)) => s(Value::Usize(ix[*n])),
                V::T(vs) => Ok(vs[*n].clone()),
                _ => Err(Error::new("interpreter", "bad projection")),
            },
            Expr::Scalar(Scalar::MakeIndex(xs)) => {
                let mut ix = Vec::new();
                for x in xs {
                    match self.scalar(*x)? {
                        Value::Usize(i) => ix.push(i),
                        _ => return Err(Error::new("interpreter", "index components are usize")),
                    }
                }
                s(Value::Index(ix))
            }
            Expr::Scalar(Scalar::Unary(op, x)) => {
                let v = self.scalar(*x)?;
                s(scalar::unary(*op, &v))
            }
            Expr::Scalar(Scalar::Binary(op @ (BinOp::And | BinOp::Or), x, y)) => {
                let a = self.scalar(*x)?;
                let short = matches!(
                    (op, &a),
                    (BinOp::And, Value::Bool(false)) | (BinOp::Or, Value::Bool(true))
                );
                if short {
                    return s(a);
                }
                self.eval(*y)
            }
            Expr::Scalar(Scalar::Binary(op, x, y)) => {
                let a = self.scalar(*x)?;
                let b = self.scalar(*y)?;
                s(scalar::binary(*op, &a, &b))
            }
            Expr::Scalar(Scalar::Cast(x, p)) => {
                let v = self.scalar(*x)?;
                s(scalar::cast(&v, *p))
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                if self.scalar(*c)? == Value::Bool(true) {
                    self.eval(*t)
                } else {
                    self.eval(*e)
                }
            }
            Expr::Scalar(Scalar::Assert {
                cond,
                kind,
                op,
                msg,
                body,
            }) => {
                if self.scalar(*cond)? != Value::Bool(true) {
                    return Err(Error::with_kind(*kind, *op, *msg));
                }
                self.eval(*body)
            }
            Expr::Scalar(Scalar::Trace { fmt, args, body }) => {
                let vs = args.iter().map(|x| self.scalar(*x)).collect::<R<Vec<_>>>()?;
                eprintln!("{}", accel_types::dynamic::format_trace(fmt, &vs));
                self.eval(*body)
            }
            Expr::Scalar(Scalar::Math(f, xs)) => {
                let vs = xs.iter().map(|x| self.scalar(*x)).collect::<R<Vec<_>>>()?;
                s(scalar::math(*f, &vs))
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }) => {
                let streams = pulls.iter().map(|p| self.seq(p.source)).collect::<R<Vec<_>>>()?;
                let mut state = init.iter().map(|x| self.eval(*x)).collect::<R<Vec<_>>>()?;
                // Where each stream is.
                let mut at = vec![0; pulls.len()];
                loop {
                    let mut items = Vec::new();
                    for ((p, s), at) in pulls.iter().zip(&streams).zip(&mut at) {
                        let Some(first) = s.get(*at) else {
                            return Ok(tuple_value(state));
                        };
                        let n = match p.chunk.as_slice() {
                            [len, elems] => {
                                let (len, elems) = (self.usize(*len)?, self.usize(*elems)?);
                                let size = first.elems.len().max(1);
                                let c = if len > 0 { len } else { (elems / size).max(1) };
                                s[*at..]
                                    .iter()
                                    .take(c)
                                    .take_while(|x| x.shape == first.shape)
                                    .count()
                            }
                            _ => 1,
                        };
                        let item = if p.chunk.is_empty() {
                            first.clone()
                        } else {
                            let mut shape = vec![n];
                            shape.extend(&first.shape);
                            let elems = s[*at..*at + n]
                                .iter()
                                .flat_map(|x| x.elems.iter().cloned())
                                .collect();
                            Rc::new(DynArray { shape, elems })
                        };
                        *at += n;
                        items.push((p.item, V::A(item)));
                    }
                    // Chunks of several streams are cut to the shortest; the
                    // rest stays in its stream.
                    let chunked = |p: &&Pull| !p.chunk.is_empty();
                    if pulls.iter().filter(chunked).count() > 1 {
                        let rows = |x: &V| match x {
                            V::A(a) => a.shape[0],
                            _ => 0,
                        };
                        let n = pulls
                            .iter()
                            .zip(&items)
                            .filter(|(p, _)| chunked(p))
                            .map(|(_, (_, x))| rows(x))
                            .min()
                            .unwrap_or(0);
                        for ((p, (_, x)), at) in pulls.iter().zip(&mut items).zip(&mut at) {
                            let V::A(a) = x else { continue };
                            if chunked(&p) && a.shape[0] > n {
                                *at -= a.shape[0] - n;
                                let mut shape = a.shape.clone();
                                let w: usize = shape[1..].iter().product();
                                shape[0] = n;
                                let elems = a.elems[..n * w].to_vec();
                                *x = V::A(Rc::new(DynArray { shape, elems }));
                            }
                        }
                    }
                    let mark = self.env.len();
                    for (v, x) in vars.iter().zip(&state) {
                        self.env.push((*v, x.clone()));
                    }
                    self.env.extend(items);
                    let go = self.scalar(*cond);
                    let go = match go {
                        Ok(g) => g == Value::Bool(true),
                        Err(e) => {
                            self.env.truncate(mark);
                            return Err(e);
                        }
                    };
                    if go {
                        let next = self.loop_step(step);
                        self.env.truncate(mark);
                        state = next?;
                    } else {
                        self.env.truncate(mark);
                        return Ok(tuple_value(state));
                    }
                }
            }
            Expr::Seq(op) => self.eval_seq(op),
            Expr::Scalar(Scalar::Some(x)) => {
                let v = self.scalar(*x)?;
                s(Value::Option(Some(Box::new(v))))
            }
            Expr::Scalar(Scalar::None(_)) => s(Value::Option(None)),
            Expr::Scalar(Scalar::Read { array, index }) => {
                let a = self.array(*array)?;
                let ix = self.index(*index)?;
                match shape::to_linear_checked(&a.shape, &ix) {
                    Some(l) => s(a.elems[l].clone()),
                    None => Err(Error::index_out_of_bounds("index", &ix, &a.shape)),
                }
            }
            // A buffer's shape is known without its data.
            Expr::Scalar(Scalar::Shape(x))
                if matches!(self.a.expr(*x), Expr::Plan(PlanRead::Buffer(_))) && self.host.is_some() =>
            {
                let (Expr::Plan(PlanRead::Buffer(b)), Some(host)) =
                    (self.a.expr(*x), self.host.as_deref_mut())
                else {
                    return Err(plan_only());
                };
                s(Value::Index(host.shape(*b)?))
            }
            Expr::Scalar(Scalar::Shape(x)) => {
                let a = self.array(*x)?;
                s(Value::Index(a.shape.clone()))
            }
            Expr::Array(ArrayOp::Generate { shape: sh, f }) => {
                let sh = self.index(*sh)?;
                let n = checked_size("generate", &sh)?;
                let mut elems = elems_for("generate", n)?;
                for l in 0..n {
                    elems.push(self.apply(f, vec![Value::Index(shape::from_linear_dyn(&sh, l))])?);
                }
                Ok(arr(sh, elems))
            }
            Expr::Array(ArrayOp::Map { f, a }) => {
                let a = self.array(*a)?;
                let elems = a
                    .elems
                    .iter()
                    .map(|x| self.apply(f, vec![x.clone()]))
                    .collect::<R<Vec<_>>>()?;
                Ok(arr(a.shape.clone(), elems))
            }
            Expr::Array(ArrayOp::ZipWith { f, a, b }) => {
                let (a, b) = (self.array(*a)?, self.array(*b)?);
                let sh: Vec<usize> = a.shape.iter().zip(&b.shape).map(|(x, y)| *x.min(y)).collect();
                let mut elems = Vec::new();
                for l in 0..shape::size(&sh) {
                    let ix = shape::from_linear_dyn(&sh, l);
                    let x = a.elems[shape::to_linear(&a.shape, &ix)].clone();
                    let y = b.elems[shape::to_linear(&b.shape, &ix)].clone();
                    elems.push(self.apply(f, vec![x, y])?);
                }
                Ok(arr(sh, elems))
            }
            Expr::Array(ArrayOp::Backpermute { shape: sh, f, a }) => {
                let sh = self.index(*sh)?;
                let a = self.array(*a)?;
                let n = checked_size("backpermute", &sh)?;
                let mut elems = elems_for("backpermute", n)?;
                for l in 0..n {
                    let Value::Index(src) =
                        self.apply(f, vec![Value::Index(shape::from_linear_dyn(&sh, l))])?
                    else {
                        return Err(Error::new(
                            "interpreter",
                            "backpermute's function returns an index",
                        ));
                    };
                    match shape::to_linear_checked(&a.shape, &src) {
                        Some(i) => elems.push(a.elems[i].clone()),
                        None => return Err(Error::index_out_of_bounds("backpermute", &src, &a.shape)),
                    }
                }
                Ok(arr(sh, elems))
            }
            Expr::Array(ArrayOp::Reshape { shape: sh, a }) => {
                let sh = self.index(*sh)?;
                let a = self.array(*a)?;
                if shape::checked_size(&sh) != Some(a.elems.len()) {
                    return Err(reshape_error(&a.shape, &sh));
                }
                Ok(arr(sh, a.elems.clone()))
            }
            Expr::Array(ArrayOp::Fold { f, z, a, all }) => {
                let z = z.map(|z| self.scalar(z)).transpose()?;
                let a = self.array(*a)?;
                let (out_shape, len) = if *all || a.shape.is_empty() {
                    (vec![], a.elems.len())
                } else {
                    (a.shape[..a.shape.len() - 1].to_vec(), a.shape[a.shape.len() - 1])
                };
                let rows = shape::size(&out_shape);
                let mut elems = Vec::with_capacity(rows);
                for r in 0..rows {
                    let row = &a.elems[r * len..(r + 1) * len];
                    let mut acc = match &z {
                        Some(z) => z.clone(),
                        None if row.is_empty() => {
                            return Err(Error::with_kind(
                                ErrorKind::EmptyReduction,
                                "fold1",
                                "reduction of an empty row has no value",
                            ))
                        }
                        None => row[0].clone(),
                    };
                    for x in &row[if z.is_some() { 0 } else { 1 }..] {
                        acc = self.apply(f, vec![acc, x.clone()])?;
                    }
                    elems.push(acc);
                }
                Ok(arr(out_shape, elems))
            }
            Expr::Array(ArrayOp::Scan { dir, kind, f, z, a }) => {
                let z = z.map(|z| self.scalar(z)).transpose()?;
                let a = self.array(*a)?;
                self.scan(*dir, *kind, f, z, &a)
            }
            Expr::Array(ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            }) => {
                let mut out = (*self.array(*defaults)?).clone();
                let a = self.array(*a)?;
                for l in 0..a.elems.len() {
                    let ix = shape::from_linear_dyn(&a.shape, l);
                    match self.apply(index, vec![Value::Index(ix)])? {
                        Value::Option(Some(t)) => {
                            let Value::Index(t) = *t else {
                                return Err(Error::new("interpreter", "permute's function returns an index"));
                            };
                            let Some(tl) = shape::to_linear_checked(&out.shape, &t) else {
                                return Err(Error::index_out_of_bounds("permute", &t, &out.shape));
                            };
                            let old = out.elems[tl].clone();
                            out.elems[tl] = self.apply(combine, vec![a.elems[l].clone(), old])?;
                        }
                        _ => continue,
                    }
                }
                Ok(V::A(Rc::new(out)))
            }
            Expr::Array(ArrayOp::Sort { key, a }) => {
                let a = self.array(*a)?;
                let mut keyed = Vec::with_capacity(a.elems.len());
                for x in &a.elems {
                    let k = match self.apply(key, vec![x.clone()])? {
                        Value::U32(k) => k as u64,
                        Value::U64(k) => k,
                        _ => return Err(Error::new("interpreter", "sort's key is not an unsigned integer")),
                    };
                    keyed.push((k, x.clone()));
                }
                // `sort_by_key` is stable.
                keyed.sort_by_key(|(k, _)| *k);
                Ok(arr(a.shape.clone(), keyed.into_iter().map(|(_, x)| x).collect()))
            }
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f,
                arrays,
                extents,
            }) => {
                let arrays = arrays.iter().map(|x| self.array(*x)).collect::<R<Vec<_>>>()?;
                let rank = arrays[0].shape.len();
                let sh: Vec<usize> = (0..rank)
                    .map(|d| arrays.iter().map(|a| a.shape[d]).min().unwrap_or(0))
                    .collect();
                let offsets: Vec<Vec<Vec<i32>>> = extents.iter().map(|e| stencil_offsets(e)).collect();
                let mut elems = Vec::with_capacity(shape::size(&sh));
                for l in 0..shape::size(&sh) {
                    let ix = shape::from_linear_dyn(&sh, l);
                    let mut args = Vec::new();
                    for (k, a) in arrays.iter().enumerate() {
                        for off in &offsets[k] {
                            // A constant boundary's value is computed where it is read.
                            let v = match (neighbour(a, &ix, off, &boundaries[k]), boundaries[k]) {
                                (Some(v), _) => v,
                                (None, Boundary::Constant(c)) => self.scalar(c)?,
                                (None, _) => return Err(Error::new("interpreter", "stencil read outside")),
                            };
                            args.push(v);
                        }
                    }
                    elems.push(self.apply(f, args)?);
                }
                Ok(arr(sh, elems))
            }
            Expr::Plan(PlanRead::Buffer(b)) => match self.host.as_deref_mut() {
                Some(host) => Ok(V::A(host.array(*b)?)),
                None => Err(plan_only()),
            },
            Expr::Plan(PlanRead::ReadLinear { array, index }) => {
                let a = self.array(*array)?;
                match self.scalar(*index)? {
                    Value::Usize(l) if l < a.elems.len() => s(a.elems[l].clone()),
                    _ => Err(Error::new("interpreter", "a read proved in bounds is not")),
                }
            }
            Expr::Plan(PlanRead::ReadIndex { array, index }) => {
                let a = self.array(*array)?;
                let ix = self.index(*index)?;
                match shape::to_linear_checked(&a.shape, &ix) {
                    Some(l) => s(a.elems[l].clone()),
                    None => Err(Error::new("interpreter", "a read proved in bounds is not")),
                }
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape: sh,
                var,
                body,
            }) => {
                let ix = self.index(*index)?;
                let sh = self.index(*sh)?;
                if ix.len() != sh.len() || ix.iter().zip(&sh).any(|(i, n)| i >= n) {
                    return Err(Error::index_out_of_bounds(*op, &ix, &sh));
                }
                self.env.push((*var, V::S(Value::Index(ix))));
                let r = self.eval(*body);
                self.env.pop();
                r
            }
            Expr::Plan(PlanRead::ReadStencil { .. }) => Err(plan_only()),
        }
    }

    fn scan(&mut self, dir: ScanDir, kind: ScanKind, f: &Fun, z: Option<Value>, a: &DynArray) -> R<V> {
        let r = a.shape.len();
        let len = a.shape[r - 1];
        let rows = shape::size(&a.shape[..r - 1]);
        let mut out = Vec::new();
        let mut totals = Vec::new();
        for row in 0..rows {
            let xs = &a.elems[row * len..(row + 1) * len];
            // Work left to right on the row as seen from the scan's direction.
            let ordered: Vec<Value> = match dir {
                ScanDir::Left => xs.to_vec(),
                ScanDir::Right => xs.iter().rev().cloned().collect(),
            };
            let mut res: Vec<Value> = Vec::new();
            let mut acc = z.clone();
            if kind != ScanKind::Inclusive {
                if let Some(z) = &z {
                    res.push(z.clone());
                }
            }
            for x in ordered {
                let next = match acc {
                    None => x,
                    Some(acc) => match dir {
                        ScanDir::Left => self.apply(f, vec![acc, x])?,
                        ScanDir::Right => self.apply(f, vec![x, acc])?,
                    },
                };
                res.push(next.clone());
                acc = Some(next);
            }
            if kind == ScanKind::Exclusive {
                totals.push(
                    res.pop()
                        .unwrap_or_else(|| z.clone().unwrap_or(Value::Tuple(vec![]))),
                );
            }
            if dir == ScanDir::Right {
                res.reverse();
            }
            out.extend(res);
        }
        let mut out_shape = a.shape.clone();
        if kind == ScanKind::WithInit {
            out_shape[r - 1] += 1;
        }
        let main = arr(out_shape, out);
        if kind == ScanKind::Exclusive {
            Ok(V::T(vec![main, arr(a.shape[..r - 1].to_vec(), totals)]))
        } else {
            Ok(main)
        }
    }
}

/// The element of `a` at `ix + off`, by the boundary rule where that lies
/// outside `a`. Each coordinate outside `0..n` is brought back by Accelerate's
/// rule (clamp: the nearest edge; mirror: `-i` below, `n - (i - n + 2)` above;
/// wrap: `n + i` below, `i - n` above), applied again until it lies inside (for
/// mirror on an extent of 1, the only coordinate, 0). A constant boundary gives
/// the constant (`None` here) when any coordinate is outside.
fn neighbour(a: &DynArray, ix: &[usize], off: &[i32], b: &Boundary) -> Option<Value> {
    let mut at = Vec::with_capacity(ix.len());
    for ((&i, &o), &n) in ix.iter().zip(off).zip(&a.shape) {
        let n = n as i64;
        let mut i = i as i64 + o as i64;
        while i < 0 || i >= n {
            i = match b {
                Boundary::Constant(_) => return None,
                Boundary::Clamp => i.clamp(0, n - 1),
                Boundary::Mirror if n == 1 => 0,
                Boundary::Mirror if i < 0 => -i,
                Boundary::Mirror => n - (i - n + 2),
                Boundary::Wrap if i < 0 => n + i,
                Boundary::Wrap => i - n,
            };
        }
        at.push(i as usize);
    }
    Some(a.elems[shape::to_linear(&a.shape, &at)].clone())
}

fn arr(shape: Vec<usize>, elems: Vec<Value>) -> V {
    V::A(Rc::new(DynArray { shape, elems }))
}

/// Room for the `n` elements of an array, or the error of an allocation
/// that fails (not an abort).
fn elems_for(op: &str, n: usize) -> R<Vec<Value>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        Error::with_kind(
            ErrorKind::OutOfMemory,
            op,
            format!("cannot allocate an array of {n} elements"),
        )
    })?;
    Ok(v)
}

fn checked_size(op: &str, sh: &[usize]) -> R<usize> {
    shape::checked_size(sh)
        .ok_or_else(|| Error::with_kind(ErrorKind::ShapeMismatch, op, format!("shape {sh:?} is too large")))
}

pub(crate) fn reshape_error(from: &[usize], to: &[usize]) -> Error {
    Error::with_kind(
        ErrorKind::ShapeMismatch,
        "reshape",
        format!("cannot reshape an array of shape {from:?} into shape {to:?}: sizes differ"),
    )
}
