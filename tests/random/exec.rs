//! A program's GPU path run in-process, without rustc (for the random-program
//! tests; the code generator itself does not depend on the runtime): the kernel plan's
//! steps walked here, host expressions evaluated by the reference
//! interpreter (`accel_core::interp::eval_host`), and the PTX kernels
//! launched through `accel_runtime::gpu::launch` from the same [`Layout`]s the
//! generated host code embeds, so kernels run exactly as in a compiled
//! program. The random-program tests run thousands of programs on the PTX
//! simulator this way; only the host code's Rust form is not exercised.
//!
//! Arguments and results are dynamic values (`Dyn`).

use accel_core::interp::{eval_host, HostBuffers};
use accel_core::ir::{BufId, Ty, VarId, H};
use accel_core::plan::{Block, Kernel as PlanKernel, Output, ParamBinding, Plan, Slot, Step, Val};
use accel_kernels::gpu::{layout, Layout};
use accel_kernels::ptx::PtxProgram;
use accel_runtime::dynamic::{Dyn, DynArray, Value};
use accel_runtime::gpu::buffers::{DevElem, GBuf};
use accel_runtime::gpu::error_word::{ErrSite, ErrWord};
use accel_runtime::gpu::launch::{self, Entry, Kernel};
use accel_runtime::gpu::{Device, DeviceBuffer, KernelArg};
use accel_runtime::{shape, Error, ErrorKind, Prim, Result};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// A compiled program ready to run: its plan, PTX and kernel layouts.
pub struct GpuProgram<'p> {
    plan: &'p Plan,
    /// The module's text, kept for the life of the process: a device caches
    /// the modules it loaded by the text's address.
    ptx: &'static str,
    sites: Vec<ErrSite>,
    /// Each kernel's layout, by the kernel's address in the plan: kernels are
    /// numbered in `Plan::kernels()` order, not in the order they run.
    layouts: HashMap<*const PlanKernel, Layout>,
    unsupported: Option<String>,
}

impl<'p> GpuProgram<'p> {
    /// Leaks the module's text and its error messages (a few kilobytes):
    /// build one per program, not per run.
    pub fn new(plan: &'p Plan, prog: &PtxProgram) -> Self {
        let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
        let layouts = if prog.unsupported.is_some() {
            HashMap::new()
        } else {
            plan.kernels()
                .zip(&prog.kernels)
                .map(|(k, kp)| (k as *const PlanKernel, layout(plan, kp, k)))
                .collect()
        };
        GpuProgram {
            plan,
            ptx: leak(&prog.text),
            sites: prog
                .sites
                .iter()
                .map(|s| {
                    // No file here: the position within the source compiled.
                    let at = s.at.map(|l| leak(&format!("{}:{}", l.line, l.column)));
                    (s.kind, leak(&s.op), leak(&s.msg), at)
                })
                .collect(),
            layouts,
            unsupported: prog.unsupported.clone(),
        }
    }

    /// Unloads this program's module from `dev` (`Device::unload`), when it
    /// will not run there again.
    pub fn unload(&self, dev: &Arc<dyn Device>) -> Result<()> {
        dev.unload(self.ptx)
    }

    /// Runs the program on `dev` with `args` (one per parameter, in order).
    pub fn run(&self, dev: &Arc<dyn Device>, args: &[Dyn]) -> Result<Dyn> {
        let name = self.plan.name.as_str();
        if let Some(why) = &self.unsupported {
            return Err(accel_runtime::gpu::error_word::unsupported(name, why));
        }
        if args.len() != self.plan.params.len() {
            return Err(Error::new(
                name,
                format!(
                    "expected {} arguments, got {}",
                    self.plan.params.len(),
                    args.len()
                ),
            ));
        }
        let mut r = Run {
            p: self,
            dev,
            err: ErrWord::new(dev, name.to_string())?,
            vars: Vec::new(),
            bufs: HashMap::new(),
        };
        r.program(args).map_err(|e| e.in_program(name))
    }
}

/// A buffer on the device, with its shape and (once read on the host) its elements.
#[derive(Clone)]
struct Buf {
    cols: GBuf,
    shape: Vec<usize>,
    host: Option<Rc<DynArray>>,
}

struct Run<'r, 'p> {
    p: &'r GpuProgram<'p>,
    dev: &'r Arc<dyn Device>,
    err: ErrWord,
    /// Host variables, innermost binding last.
    vars: Vec<(VarId, Value)>,
    bufs: HashMap<u32, Buf>,
}

/// A value between steps: a buffer or a host scalar.
#[derive(Clone)]
enum Bound {
    Buf(Buf),
    Scalar(Value),
}

impl Run<'_, '_> {
    fn plan(&self) -> &Plan {
        self.p.plan
    }

    fn program(&mut self, args: &[Dyn]) -> Result<Dyn> {
        let plan = self.p.plan;
        for (param, arg) in plan.params.iter().zip(args) {
            match (param.binding, arg) {
                (ParamBinding::Scalar(v), Dyn::Scalar(x)) => self.vars.push((v, x.clone())),
                (ParamBinding::Array(b), Dyn::Array(a)) if a.shape.len() == plan.buffer(b).rank => {
                    let cols = upload(self.dev, &plan.buffer(b).elem, a)?;
                    self.bufs.insert(
                        b.0,
                        Buf {
                            cols,
                            shape: a.shape.clone(),
                            host: Some(Rc::new(a.clone())),
                        },
                    );
                }
                _ => {
                    return Err(Error::new(
                        "arguments",
                        format!("argument `{}` does not have the parameter's type", param.name),
                    ))
                }
            }
        }
        self.steps(&plan.steps)?;
        let out = self.output(&plan.result);
        // Kernels report their errors through the error word: they come first.
        self.err.check(&self.p.sites)?;
        out
    }

    /// Host expression `h`. A failure is reported after the errors of the
    /// kernels launched before (program order).
    fn eval(&mut self, h: H) -> Result<Value> {
        let vars = std::mem::take(&mut self.vars);
        let plan = self.p.plan;
        let r = eval_host(&plan.arena, h, &vars, self);
        self.vars = vars;
        r.or_else(|e| {
            self.err.check(&self.p.sites)?;
            Err(e)
        })
    }

    fn index(&mut self, h: H) -> Result<Vec<usize>> {
        match self.eval(h)? {
            Value::Index(ix) => Ok(ix),
            v => Err(internal(format!("a shape evaluated to {v}"))),
        }
    }

    fn steps(&mut self, steps: &[Step]) -> Result<()> {
        for s in steps {
            self.step(s)?;
        }
        Ok(())
    }

    fn block(&mut self, b: &Block) -> Result<Vec<Bound>> {
        let mark = self.vars.len();
        self.steps(&b.steps)?;
        let out = b.result.iter().map(|v| self.val(v)).collect();
        self.vars.truncate(mark);
        out
    }

    fn val(&mut self, v: &Val) -> Result<Bound> {
        match v {
            Val::Buf(b) => Ok(Bound::Buf(self.buf(*b)?.clone())),
            Val::Scalar(h) => Ok(Bound::Scalar(self.eval(*h)?)),
        }
    }

    fn buf(&self, b: BufId) -> Result<&Buf> {
        self.bufs
            .get(&b.0)
            .ok_or_else(|| internal(format!("buffer {} read before it is written", b.0)))
    }

    fn bind(&mut self, slots: &[Slot], vals: Vec<Bound>) -> Result<()> {
        if slots.len() != vals.len() {
            return Err(internal("a block's results do not match its slots".into()));
        }
        for (s, v) in slots.iter().zip(vals) {
            match (s, v) {
                (Slot::Buf(b), Bound::Buf(x)) => {
                    self.bufs.insert(b.0, x);
                }
                (Slot::Var(var), Bound::Scalar(x)) => self.vars.push((*var, x)),
                _ => return Err(internal("a block's result has the wrong kind".into())),
            }
        }
        Ok(())
    }

    fn step(&mut self, step: &Step) -> Result<()> {
        match step {
            Step::CheckReshape { from, to, .. } => {
                let (f, t) = (self.index(*from)?, self.index(*to)?);
                self.err
                    .after_kernels(&self.p.sites, accel_runtime::host::check_reshape(&f, &t))
            }
            Step::Let { var, value } => {
                let x = self.eval(*value)?;
                self.vars.push((*var, x));
                Ok(())
            }
            Step::If {
                cond,
                then,
                els,
                outs,
            } => {
                let taken = match self.eval(*cond)? {
                    Value::Bool(c) => c,
                    v => return Err(internal(format!("a condition evaluated to {v}"))),
                };
                let vals = self.block(if taken { then } else { els })?;
                self.bind(outs, vals)
            }
            Step::While {
                state,
                init,
                cond,
                body,
                outs,
                pulls,
            } => {
                if !pulls.is_empty() {
                    return Err(internal("streamed sequences are not run by this executor".into()));
                }
                let mut cur = init.iter().map(|v| self.val(v)).collect::<Result<Vec<_>>>()?;
                loop {
                    let mark = self.vars.len();
                    self.bind(state, cur.clone())?;
                    self.steps(&cond.steps)?;
                    let go = match cond.result.first() {
                        Some(Val::Scalar(c)) => matches!(self.eval(*c)?, Value::Bool(true)),
                        _ => false,
                    };
                    if !go {
                        self.vars.truncate(mark);
                        break;
                    }
                    cur = self.block(body)?;
                    self.vars.truncate(mark);
                }
                self.bind(outs, cur)
            }
            Step::Kernel(k) => {
                let Some(l) = self.p.layouts.get(&(k as *const PlanKernel)) else {
                    return Err(internal(format!("no layout for kernel {}", k.describe())));
                };
                let mut out_shapes = Vec::new();
                for o in &k.outputs {
                    let s = self.index(self.plan().buffer(*o).shape)?;
                    self.err.after_kernels(&self.p.sites, extent(l.op, &s))?;
                    out_shapes.push(s);
                }
                let iter = self.index(l.iter)?;
                self.err.after_kernels(&self.p.sites, extent(l.op, &iter))?;
                let z = match l.z {
                    Some(z) => leaves(&self.eval(z)?)
                        .iter()
                        .map(|v| arg(v))
                        .collect::<Result<_>>()?,
                    None => Vec::new(),
                };
                let scalars = l
                    .scalars
                    .iter()
                    .map(|&(v, leaf)| self.scalar_arg(v, leaf))
                    .collect::<Result<Vec<_>>>()?;
                let inputs = l
                    .inputs
                    .iter()
                    .map(|&b| self.buf(BufId(b)).cloned())
                    .collect::<Result<Vec<_>>>()?;
                let bufs: Vec<(&GBuf, &[usize])> = inputs.iter().map(|b| (&b.cols, &b.shape[..])).collect();
                let outs: Vec<&[usize]> = out_shapes.iter().map(|s| &s[..]).collect();
                let entries: Vec<Entry> = l
                    .entries
                    .iter()
                    .map(|(name, params)| Entry { name, params })
                    .collect();
                let leaf_bytes: Vec<&[usize]> = l.out_leaf_bytes.iter().map(|b| &b[..]).collect();
                let acc = accel_kernels::ptx::lower::leaf_bytes(&l.part);
                // No file here: the position within the source compiled.
                let at = l.at.map(|at| at.to_string());
                let empty_at = l.empty_at.map(|at| at.to_string());
                let desc = Kernel {
                    op: l.op,
                    skeleton: l.skeleton,
                    entries: &entries,
                    out_leaf_bytes: &leaf_bytes,
                    acc_leaf_bytes: &acc,
                    at: at.as_deref(),
                    empty_at: empty_at.as_deref(),
                };
                let io = launch::Io {
                    bufs: &bufs,
                    scalars: &scalars,
                    z: &z,
                    iter: &iter,
                    outs: &outs,
                };
                let cols = launch::kernel(self.dev, self.p.ptx, &self.err, &self.p.sites, &desc, &io)?;
                for ((b, cols), shape) in k.outputs.iter().zip(cols).zip(out_shapes) {
                    self.bufs.insert(
                        b.0,
                        Buf {
                            cols,
                            shape,
                            host: None,
                        },
                    );
                }
                Ok(())
            }
        }
    }

    /// Leaf `leaf` of host variable `v`, as a kernel argument.
    fn scalar_arg(&self, v: VarId, leaf: usize) -> Result<KernelArg> {
        let x = self
            .vars
            .iter()
            .rev()
            .find(|(w, _)| *w == v)
            .map(|(_, x)| x)
            .ok_or_else(|| internal(format!("variable {} is not bound", v.0)))?;
        match x {
            Value::Index(ix) => ix
                .get(leaf)
                .map(|&i| KernelArg::U64(i as u64))
                .ok_or_else(|| internal("index leaf out of range".into())),
            x => leaves(x)
                .get(leaf)
                .map(|v| arg(v))
                .unwrap_or_else(|| Err(internal("leaf out of range".into()))),
        }
    }

    fn output(&mut self, o: &Output) -> Result<Dyn> {
        match o {
            Output::Array(b) => Ok(Dyn::Array((*self.array(*b)?).clone())),
            Output::Scalar(h) => Ok(Dyn::Scalar(self.eval(*h)?)),
            Output::Tuple(xs) => Ok(Dyn::Tuple(
                xs.iter().map(|x| self.output(x)).collect::<Result<_>>()?,
            )),
        }
    }
}

impl HostBuffers for Run<'_, '_> {
    fn shape(&mut self, b: BufId) -> Result<Vec<usize>> {
        Ok(self.buf(b)?.shape.clone())
    }

    fn array(&mut self, b: BufId) -> Result<Rc<DynArray>> {
        let buf = self.buf(b)?.clone();
        if let Some(a) = &buf.host {
            return Ok(a.clone());
        }
        // The download waits for the kernels anyway: report theirs first.
        self.err.check(&self.p.sites)?;
        let elem = &self.plan().buffer(b).elem;
        let a = Rc::new(download(self.dev, elem, &buf.cols, &buf.shape)?);
        if let Some(x) = self.bufs.get_mut(&b.0) {
            x.host = Some(a.clone());
        }
        Ok(a)
    }
}

fn internal(msg: String) -> Error {
    Error::with_kind(ErrorKind::DeviceFailure, "in-process executor", msg)
}

fn extent(op: &str, s: &[usize]) -> Result<usize> {
    shape::checked_size(s)
        .ok_or_else(|| Error::with_kind(ErrorKind::ShapeMismatch, op, format!("shape {s:?} is too large")))
}

/// The primitive leaves of `v`, depth first.
fn leaves(v: &Value) -> Vec<&Value> {
    match v {
        Value::Tuple(xs) => xs.iter().flat_map(leaves).collect(),
        x => vec![x],
    }
}

/// Applies `$f` to the primitive in `$v` with its Rust type, through
/// `DevElem` (the runtime's one definition of the device layout); `$none`
/// for a value that is not a primitive.
macro_rules! on_prim {
    ($v:expr, |$x:ident| $f:expr, $none:expr) => {
        match *$v {
            Value::Bool($x) => $f,
            Value::I8($x) => $f,
            Value::I16($x) => $f,
            Value::I32($x) => $f,
            Value::I64($x) => $f,
            Value::U8($x) => $f,
            Value::U16($x) => $f,
            Value::U32($x) => $f,
            Value::U64($x) => $f,
            Value::Usize($x) => $f,
            Value::F32($x) => $f,
            Value::F64($x) => $f,
            Value::F16($x) => $f,
            Value::BF16($x) => $f,
            _ => $none,
        }
    };
}

/// `v` as a kernel argument (`DevElem::arg`: narrow integers and `bool`
/// widened to 32 bits).
fn arg(v: &Value) -> Result<KernelArg> {
    on_prim!(
        v,
        |x| Ok(DevElem::arg(x)),
        Err(internal(format!("{v} is not a primitive kernel argument")))
    )
}

/// The bytes of primitive `v` as the device stores them (`DevElem::to_device`).
fn put(v: &Value, out: &mut Vec<u8>) -> Result<()> {
    on_prim!(
        v,
        |x| {
            out.extend_from_slice(&DevElem::to_device(std::slice::from_ref(&x)));
            Ok(())
        },
        Err(internal(format!("{v} is not a primitive element")))
    )
}

/// The value of type `p` in `b` (its device form).
fn get(p: Prim, b: &[u8]) -> Value {
    let w = |n: usize| -> [u8; 8] {
        let mut a = [0u8; 8];
        a[..n].copy_from_slice(&b[..n]);
        a
    };
    let u = |n: usize| u64::from_le_bytes(w(n));
    match p {
        Prim::Bool => Value::Bool(b[0] != 0),
        Prim::I8 => Value::I8(u(1) as u8 as i8),
        Prim::I16 => Value::I16(u(2) as u16 as i16),
        Prim::I32 => Value::I32(u(4) as u32 as i32),
        Prim::I64 => Value::I64(u(8) as i64),
        Prim::U8 => Value::U8(u(1) as u8),
        Prim::U16 => Value::U16(u(2) as u16),
        Prim::U32 => Value::U32(u(4) as u32),
        Prim::U64 => Value::U64(u(8)),
        Prim::Usize => Value::Usize(u(8) as usize),
        Prim::F32 => Value::F32(f32::from_bits(u(4) as u32)),
        Prim::F64 => Value::F64(f64::from_bits(u(8))),
        Prim::F16 => Value::F16(accel_runtime::f16::from_bits(u(2) as u16)),
        Prim::BF16 => Value::BF16(accel_runtime::bf16::from_bits(u(2) as u16)),
    }
}

fn device_bytes(p: Prim) -> usize {
    (p.width() / 8) as usize
}

/// The columns of `a` (elements of type `elem`) on `dev`.
fn upload(dev: &Arc<dyn Device>, elem: &Ty, a: &DynArray) -> Result<GBuf> {
    let prims = elem.leaves();
    let mut cols = vec![Vec::new(); prims.len()];
    for x in &a.elems {
        let ls = leaves(x);
        if ls.len() != prims.len() {
            return Err(Error::new(
                "arguments",
                format!("element {x} does not have type {elem}"),
            ));
        }
        for (col, l) in cols.iter_mut().zip(ls) {
            put(l, col)?;
        }
    }
    let bufs = cols
        .iter()
        .map(|bytes| {
            let d = DeviceBuffer::alloc(dev, bytes.len())?;
            if !bytes.is_empty() {
                dev.upload(d.ptr(), bytes)?;
            }
            Ok(d)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(GBuf::from_columns(bufs))
}

/// The elements of type `elem` in `cols`, of shape `shape`.
fn download(dev: &Arc<dyn Device>, elem: &Ty, cols: &GBuf, shape: &[usize]) -> Result<DynArray> {
    let n = shape::size(shape);
    let prims = elem.leaves();
    let mut leaf_vals: Vec<std::vec::IntoIter<Value>> = Vec::new();
    for (k, p) in prims.iter().enumerate() {
        let w = device_bytes(*p);
        let mut bytes = vec![0u8; w * n];
        if !bytes.is_empty() {
            dev.download(cols.col(k)?.ptr(), &mut bytes)?;
        }
        let vals: Vec<Value> = bytes.chunks_exact(w.max(1)).map(|b| get(*p, b)).collect();
        leaf_vals.push(vals.into_iter());
    }
    let mut elems = Vec::with_capacity(n);
    for _ in 0..n {
        elems.push(assemble(elem, &mut leaf_vals.iter_mut())?);
    }
    Ok(DynArray {
        shape: shape.to_vec(),
        elems,
    })
}

/// One element of type `t` from the next values of its leaf columns.
fn assemble<'a>(t: &Ty, cols: &mut impl Iterator<Item = &'a mut std::vec::IntoIter<Value>>) -> Result<Value> {
    match t {
        Ty::Tuple(ts) => Ok(Value::Tuple(
            ts.iter().map(|t| assemble(t, cols)).collect::<Result<_>>()?,
        )),
        _ => cols
            .next()
            .and_then(|c| c.next())
            .ok_or_else(|| internal("a column is shorter than its array".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `fn f` of `source` in-process on the simulator and on the interpreter.
    fn both(source: &str, args: &[Dyn]) -> (Result<Dyn>, Result<Dyn>) {
        let (program, plan) =
            accel_core::compile_source(source, "f").unwrap_or_else(|e| panic!("{}", e.message));
        let ptx = accel_kernels::ptx::program(&plan);
        let dev = accel_runtime::Backend::ptx_sim().expect("simulator");
        let got = GpuProgram::new(&accel_kernels::ptx::gpu_plan(&plan), &ptx)
            .run(dev.device().expect("a device"), args);
        (accel_core::interp::run(&program, args), got)
    }

    fn vector(xs: &[f64]) -> Dyn {
        Dyn::Array(DynArray {
            shape: vec![xs.len()],
            elems: xs.iter().map(|&x| Value::F64(x)).collect(),
        })
    }

    /// Kernels are numbered in the plan's order, not in the order they run:
    /// a kernel after an `if` keeps its own entries whichever branch ran.
    #[test]
    fn kernels_after_a_branch_launch_their_own_entries() {
        let src = "fn f(a: &Vector<f64>) -> Scalar<i8> {
            let b = if a.len() > 1 { generate([], |[]| 1u64) } else { generate([], |[]| 2u64) };
            generate([], |[]| 5u64).zip_with(&b, |x, y| (x + 3 * y) as i8) }";
        for xs in [&[][..], &[1.0], &[1.0, 2.0]] {
            let (want, got) = both(src, &[vector(xs)]);
            assert_eq!(want, got, "{xs:?}");
        }
    }

    /// Both results of scans with totals, used apart: by a map, by index, in a
    /// shape, and returned.
    #[test]
    fn scan_totals_match_the_interpreter() {
        let m = |rows: usize, cols: usize| {
            Dyn::Array(DynArray {
                shape: vec![rows, cols],
                elems: (0..rows * cols)
                    .map(|i| Value::F64((i % 7) as f64 - 2.0))
                    .collect(),
            })
        };
        for src in [
            "fn f(a: &Matrix<f64>) -> Matrix<f64> { let (s, t) = a.scanl_total(1.0, |x, y| x + y); s.map(|x| x * 2.0) }",
            "fn f(a: &Matrix<f64>) -> Vector<f64> { let (s, t) = a.scanr_total(0.0, |x, y| x + y); t.map(|x| x + 1.0) }",
            "fn f(a: &Matrix<f64>) -> (Matrix<f64>, Vector<f64>) { a.scanl_total(0.0, |x, y| x.max(y)) }",
            "fn f(a: &Matrix<f64>) -> Matrix<f64> { let (s, t) = a.scanl_total(0.0, |x, y| x + y);
                generate(s.shape(), |[i, j]| s[[i, j]] - t[[i]]) }",
            "fn f(a: &Matrix<f64>) -> Vector<f64> { let (s, t) = a.scanl_total(0.0, |x, y| x + y);
                generate([t.len() + s.len()], |[i]| i as f64) }",
        ] {
            for (r, c) in [(0, 3), (1, 1), (3, 5), (2, 0)] {
                let (want, got) = both(src, &[m(r, c)]);
                assert_eq!(want, got, "{src} on {r}x{c}");
            }
        }
    }

    /// Folds, scans, sorts and a loop of kernels, with an error from a kernel.
    #[test]
    fn skeletons_and_errors_match_the_interpreter() {
        let src = "fn f(a: &Vector<f64>) -> (Scalar<f64>, Vector<f64>, Vector<f64>, Scalar<f64>) {
            let mut v = a.map(|x| x * 0.5);
            let mut k = 0usize;
            while k < 3 { v = v.zip_with(a, |x, y| x + y); k += 1; }
            (a.sum(), a.scanl(0.0, |x, y| x + y), v.sort(), generate([], |[]| a[[2]])) }";
        for xs in [&[][..], &[3.0], &[3.0, -1.0, 2.5, 8.0, 0.0]] {
            let (want, got) = both(src, &[vector(xs)]);
            match (&want, &got) {
                (Err(w), Err(g)) => assert_eq!(w.kind(), g.kind(), "{xs:?}"),
                _ => assert_eq!(want, got, "{xs:?}"),
            }
        }
    }
}
