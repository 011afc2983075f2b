//! The kernel plan: what runs, in order, and which arrays are materialised.
//!
//! Every kernel is one skeleton (generate, fold, scan, permute) with its fused
//! element function. Element functions and shapes are expressions in the plan's
//! arena, reading materialised arrays (`Buffer`s) only; shapes are evaluated on
//! the host before the kernel runs.

mod fuse;

pub use fuse::build;

use crate::ir::{Arena, BufId, Fun, ScanDir, ScanKind, Ty, H};
use std::fmt::{self, Write};

#[derive(Clone, Debug)]
pub struct Plan {
    pub name: String,
    pub arena: Arena,
    pub params: Vec<PlanParam>,
    pub buffers: Vec<Buffer>,
    pub steps: Vec<Step>,
    pub result: Output,
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
    Kernel(usize),
}

#[derive(Clone, Debug)]
pub enum Step {
    Kernel(Kernel),
    /// `reshape`: the sizes of the two shapes must agree, or the program fails.
    CheckReshape {
        from: H,
        to: H,
    },
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
}

#[derive(Clone, Debug)]
pub enum KernelOp {
    /// Every element of `shape` computed by `elem`.
    Generate { shape: H, elem: ElemFn },
    /// Reduce the innermost dimension (or everything) of an input of shape `shape`.
    Fold {
        shape: H,
        elem: ElemFn,
        z: Option<H>,
        f: Fun,
        all: bool,
    },
    Scan {
        shape: H,
        elem: ElemFn,
        dir: ScanDir,
        kind: ScanKind,
        z: Option<H>,
        f: Fun,
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
    pub fn kernels(&self) -> impl Iterator<Item = &Kernel> {
        self.steps.iter().filter_map(|s| match s {
            Step::Kernel(k) => Some(k),
            _ => None,
        })
    }

    /// Buffers written by kernels (parameters excluded).
    pub fn materialised(&self) -> impl Iterator<Item = (BufId, &Buffer)> {
        self.buffers
            .iter()
            .enumerate()
            .filter(|(_, b)| matches!(b.origin, Origin::Kernel(_)))
            .map(|(i, b)| (BufId(i as u32), b))
    }

    pub fn buffer(&self, b: BufId) -> &Buffer {
        &self.buffers[b.0 as usize]
    }

    fn buf_label(&self, b: BufId) -> String {
        match self.buffer(b).origin {
            Origin::Param(i) => format!("b{} ({})", b.0, self.params[i].name),
            Origin::Kernel(_) => format!("b{}", b.0),
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
        for (i, k) in kernels.iter().enumerate() {
            let outs: Vec<String> = k.outputs.iter().map(|b| self.buf_label(*b)).collect();
            let _ = writeln!(
                s,
                "  kernel {i}: {} -> {}   fuses: {}",
                k.op.skeleton(),
                outs.join(", "),
                k.fused.join(" -> ")
            );
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
        s
    }
}

impl ElemFn {
    pub fn fun(&self) -> &Fun {
        match self {
            ElemFn::Linear(f) | ElemFn::Index(f) => f,
        }
    }
}

impl KernelOp {
    /// Host expressions evaluated before the kernel runs: the iteration
    /// shape and the initial value.
    pub fn host_exprs(&self) -> Vec<H> {
        match self {
            KernelOp::Generate { shape, .. } | KernelOp::Permute { shape, .. } => vec![*shape],
            KernelOp::Fold { shape, z, .. } | KernelOp::Scan { shape, z, .. } => {
                std::iter::once(*shape).chain(*z).collect()
            }
        }
    }

    /// The closures run per element: the element function first.
    pub fn funs(&self) -> Vec<&Fun> {
        match self {
            KernelOp::Generate { elem, .. } => vec![elem.fun()],
            KernelOp::Fold { elem, f, .. } | KernelOp::Scan { elem, f, .. } => vec![elem.fun(), f],
            KernelOp::Permute {
                elem, index, combine, ..
            } => vec![elem.fun(), index, combine],
        }
    }

    /// The buffer a permute starts from.
    pub fn defaults(&self) -> Option<BufId> {
        match self {
            KernelOp::Permute { defaults, .. } => Some(*defaults),
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
        }
    }
}

impl fmt::Display for Plan {
    /// The full plan, with every element function: for golden tests.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.arena;
        let fun = |x: &Fun| {
            let ps: Vec<String> = x
                .params
                .iter()
                .map(|p| format!("{}_{}", a.var(*p).name, p.0))
                .collect();
            format!("|{}| {}", ps.join(", "), a.show(x.body))
        };
        let elem = |e: &ElemFn| match e {
            ElemFn::Linear(x) => format!("linear {}", fun(x)),
            ElemFn::Index(x) => format!("index {}", fun(x)),
        };
        writeln!(f, "plan {}", self.name)?;
        for p in &self.params {
            writeln!(f, "  param {}: {} = {:?}", p.name, p.ty, p.binding)?;
        }
        for step in &self.steps {
            match step {
                Step::CheckReshape { from, to } => {
                    writeln!(f, "  check reshape {} -> {}", a.show(*from), a.show(*to))?
                }
                Step::Kernel(k) => {
                    let outs: Vec<String> = k.outputs.iter().map(|b| format!("b{}", b.0)).collect();
                    write!(f, "  {} = {}", outs.join(", "), k.op.skeleton())?;
                    match &k.op {
                        KernelOp::Generate { shape, elem: e } => {
                            writeln!(f, " {} {}", a.show(*shape), elem(e))?
                        }
                        KernelOp::Fold {
                            shape,
                            elem: e,
                            z,
                            f: g,
                            ..
                        } => writeln!(
                            f,
                            " {} {} z={} f={}",
                            a.show(*shape),
                            elem(e),
                            z.map(|z| a.show(z)).unwrap_or("-".into()),
                            fun(g)
                        )?,
                        KernelOp::Scan {
                            shape,
                            elem: e,
                            dir,
                            kind,
                            z,
                            f: g,
                        } => writeln!(
                            f,
                            "[{dir:?}, {kind:?}] {} {} z={} f={}",
                            a.show(*shape),
                            elem(e),
                            z.map(|z| a.show(z)).unwrap_or("-".into()),
                            fun(g)
                        )?,
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
                    }
                }
            }
        }
        writeln!(f, "  result {:?}", self.result)
    }
}
