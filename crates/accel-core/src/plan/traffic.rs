//! Memory traffic of a plan, in elements, as polynomials of the extents of
//! its parameters: what fusion saves, stated as the thesis states it
//! (`normalise2` unfused reads `5n + 3` elements; fused, fewer).
//!
//! Each kernel reads every buffer its functions read once (a scalar read in
//! every element counts as one element: it stays in cache), and writes its
//! outputs; a permute also reads its defaults, which it copies or updates in
//! place. Branches and loop bodies are counted once each: their trip counts
//! are not known before the program runs.

use super::{ExpandSink, Kernel, KernelOp, Origin, Plan, Step};
use crate::ir::{BinOp, BufId, Expr, Lit, PlanRead, Scalar, H};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Elements read and written, and kernels launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traffic {
    pub reads: Poly,
    pub writes: Poly,
    pub kernels: usize,
}

/// A polynomial with integer coefficients over named extents (`xs` for a
/// vector parameter's length, `m.0` and `m.1` for a matrix's) and opaque
/// sizes (`|b3|`, a size the plan computes some other way).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Poly(BTreeMap<Vec<String>, i64>);

impl Poly {
    pub fn constant(c: i64) -> Poly {
        let mut p = Poly::default();
        p.add_term(Vec::new(), c);
        p
    }

    fn atom(name: String) -> Poly {
        let mut p = Poly::default();
        p.add_term(vec![name], 1);
        p
    }

    fn add_term(&mut self, mut mono: Vec<String>, c: i64) {
        mono.sort();
        let e = self.0.entry(mono).or_insert(0);
        *e += c;
        if *e == 0 {
            self.0.retain(|_, c| *c != 0);
        }
    }

    pub fn add(&self, o: &Poly) -> Poly {
        let mut p = self.clone();
        for (m, c) in &o.0 {
            p.add_term(m.clone(), *c);
        }
        p
    }

    fn scale(&self, k: i64) -> Poly {
        let mut p = Poly::default();
        for (m, c) in &self.0 {
            p.add_term(m.clone(), c * k);
        }
        p
    }

    fn mul(&self, o: &Poly) -> Poly {
        let mut p = Poly::default();
        for (m, c) in &self.0 {
            for (n, d) in &o.0 {
                p.add_term([m.clone(), n.clone()].concat(), c * d);
            }
        }
        p
    }

    /// The coefficient of the product of `names` (sorted or not).
    pub fn coefficient(&self, names: &[&str]) -> i64 {
        let mut m: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        m.sort();
        self.0.get(&m).copied().unwrap_or(0)
    }
}

impl fmt::Display for Poly {
    /// Highest degree first: `3xs + 3`, `m.0*m.1 + m.0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return write!(f, "0");
        }
        let mut terms: Vec<(&Vec<String>, &i64)> = self.0.iter().collect();
        terms.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        for (i, (m, &c)) in terms.into_iter().enumerate() {
            let (sign, c) = if c < 0 { ("-", -c) } else { ("+", c) };
            if i > 0 {
                write!(f, " {sign} ")?;
            } else if sign == "-" {
                write!(f, "-")?;
            }
            let vars = m.join("*");
            match (c, vars.is_empty()) {
                (c, true) => write!(f, "{c}")?,
                (1, false) => write!(f, "{vars}")?,
                (c, false) => write!(f, "{c}{vars}")?,
            }
        }
        Ok(())
    }
}

/// How many kernels read and write each buffer: the traffic before the
/// buffers' sizes are put in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accesses {
    pub reads: BTreeMap<BufId, usize>,
    pub writes: BTreeMap<BufId, usize>,
    pub kernels: usize,
}

impl Plan {
    /// The plan's memory traffic ([`traffic`](self)).
    pub fn traffic(&self) -> Traffic {
        let a = self.accesses();
        let total = |m: &BTreeMap<BufId, usize>| {
            m.iter().fold(Poly::default(), |p, (b, n)| {
                p.add(&self.size(*b).scale(*n as i64))
            })
        };
        Traffic {
            reads: total(&a.reads),
            writes: total(&a.writes),
            kernels: a.kernels,
        }
    }

    /// Which buffers the kernels read and write, each branch and loop body
    /// counted once.
    pub fn accesses(&self) -> Accesses {
        self.accesses_of(&self.steps)
    }

    /// [`Plan::accesses`] of the kernels of `steps`.
    pub(super) fn accesses_of(&self, steps: &[Step]) -> Accesses {
        let mut a = Accesses::default();
        self.add_accesses(steps, &mut a);
        a
    }

    fn add_accesses(&self, steps: &[Step], a: &mut Accesses) {
        for s in steps {
            match s {
                Step::Kernel(k) => {
                    a.kernels += 1;
                    for b in self.kernel_reads(k) {
                        *a.reads.entry(b).or_insert(0) += 1;
                    }
                    for b in &k.outputs {
                        *a.writes.entry(*b).or_insert(0) += 1;
                    }
                }
                _ => {
                    for b in s.blocks() {
                        self.add_accesses(&b.steps, a);
                    }
                }
            }
        }
    }

    /// The buffers a kernel reads elements of (each once).
    fn kernel_reads(&self, k: &Kernel) -> BTreeSet<BufId> {
        let mut out: BTreeSet<BufId> =
            k.op.funs()
                .iter()
                .flat_map(|f| super::horizontal::data_reads(&self.arena, f.body))
                .collect();
        match &k.op {
            KernelOp::Permute { defaults, .. }
            | KernelOp::Expand {
                sink: ExpandSink::Permute { defaults, .. },
                ..
            } => {
                out.insert(*defaults);
            }
            _ => {}
        }
        out
    }

    /// The number of elements of buffer `b`.
    fn size(&self, b: BufId) -> Poly {
        let buf = self.buffer(b);
        match self.buffer_extents(b) {
            Some(xs) => xs.iter().fold(Poly::constant(1), |p, x| p.mul(x)),
            None if buf.rank == 0 => Poly::constant(1),
            None => {
                let s = self.arena.show(buf.shape);
                Poly::atom(match buf.origin {
                    // Equal shapes give equal atoms where they are short.
                    Origin::Kernel(_) if s.len() <= 40 => format!("|{s}|"),
                    _ => format!("|b{}|", b.0),
                })
            }
        }
    }

    /// The extents of buffer `b`, if they are polynomials of the
    /// parameters' extents: a parameter's are its named extents (`xs` for a
    /// vector, `m.0`, `m.1` otherwise).
    fn buffer_extents(&self, b: BufId) -> Option<Vec<Poly>> {
        let buf = self.buffer(b);
        match buf.origin {
            Origin::Param(i) if buf.rank == 1 => Some(vec![Poly::atom(self.params[i].name.clone())]),
            Origin::Param(i) => Some(
                (0..buf.rank)
                    .map(|d| Poly::atom(format!("{}.{d}", self.params[i].name)))
                    .collect(),
            ),
            Origin::Kernel(_) => self.extents(buf.shape),
            Origin::Control(_) | Origin::State | Origin::Inlined | Origin::Dropped => None,
        }
    }

    /// The components of shape `h` as polynomials, if they are.
    fn extents(&self, h: H) -> Option<Vec<Poly>> {
        match self.arena.expr(h) {
            Expr::Scalar(Scalar::MakeIndex(xs)) => xs.iter().map(|x| self.scalar(*x)).collect(),
            Expr::Scalar(Scalar::Shape(a)) => match self.arena.expr(*a) {
                Expr::Plan(PlanRead::Buffer(b)) => self.buffer_extents(*b),
                _ => None,
            },
            _ => None,
        }
    }

    /// A `usize` expression as a polynomial, if it is one.
    fn scalar(&self, h: H) -> Option<Poly> {
        match self.arena.expr(h) {
            Expr::Scalar(Scalar::Lit(Lit { bits, .. })) => Some(Poly::constant(*bits as i64)),
            Expr::Scalar(Scalar::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b)) => {
                let (a, b) = (self.scalar(*a)?, self.scalar(*b)?);
                Some(match op {
                    BinOp::Add => a.add(&b),
                    BinOp::Sub => a.add(&b.scale(-1)),
                    _ => a.mul(&b),
                })
            }
            Expr::Scalar(Scalar::Proj(s, d)) => self.extents(*s)?.into_iter().nth(*d),
            _ => None,
        }
    }
}
