//! The plan as a Graphviz graph (`name::explain_dot()`): kernels are boxes
//! labelled with the operations fused into them, materialised arrays are
//! ellipses labelled with their type and shape, and edges show which kernel
//! reads and writes which array. Control flow appears as clusters.

use super::{Block, Kernel, Plan, Step};
use crate::ir::BufId;
use crate::ir::{Arena, Expr, PlanRead, Ty, H};
use std::collections::HashSet;
use std::fmt::Write;

impl Plan {
    /// The plan in Graphviz `dot` syntax.
    pub fn explain_dot(&self) -> String {
        let mut g = Dot {
            plan: self,
            out: String::new(),
            kernels: 0,
            clusters: 0,
        };
        let _ = writeln!(g.out, "digraph \"{}\" {{", escape(&self.name));
        let _ = writeln!(g.out, "  rankdir=TB;\n  node [fontname=\"monospace\"];");
        for (BufId(i), b) in self.buffers.iter() {
            if b.origin == super::Origin::Dropped {
                continue;
            }
            let what = match b.origin {
                super::Origin::Param(p) => format!("{}: ", self.params[p].name),
                _ => String::new(),
            };
            let label = format!(
                "b{i}\\n{what}{}\\n{}",
                escape(&Ty::array(b.elem.clone(), b.rank).to_string()),
                escape(&self.arena.show(b.shape))
            );
            let style = if matches!(b.origin, super::Origin::Param(_)) {
                ", style=dashed"
            } else {
                ""
            };
            let _ = writeln!(g.out, "  b{i} [shape=ellipse, label=\"{label}\"{style}];");
        }
        g.steps(&self.steps, 1);
        g.out.push_str("}\n");
        g.out
    }
}

struct Dot<'p> {
    plan: &'p Plan,
    out: String,
    kernels: usize,
    clusters: usize,
}

impl Dot<'_> {
    fn steps(&mut self, steps: &[Step], depth: usize) {
        let pad = "  ".repeat(depth);
        for s in steps {
            match s {
                Step::Kernel(k) => self.kernel(k, &pad),
                Step::If { then, els, .. } => {
                    self.cluster("if: then", then, depth);
                    self.cluster("if: else", els, depth);
                }
                Step::While { cond, body, .. } => {
                    self.cluster("while: condition", cond, depth);
                    self.cluster("while: body", body, depth);
                }
                Step::CheckReshape { .. } | Step::Let { .. } => {}
            }
        }
    }

    fn cluster(&mut self, label: &str, block: &Block, depth: usize) {
        let pad = "  ".repeat(depth);
        let _ = writeln!(
            self.out,
            "{pad}subgraph cluster_{} {{ label=\"{label}\";",
            self.clusters
        );
        self.clusters += 1;
        self.steps(&block.steps, depth + 1);
        let _ = writeln!(self.out, "{pad}}}");
    }

    fn kernel(&mut self, k: &Kernel, pad: &str) {
        let n = self.kernels;
        self.kernels += 1;
        let label = format!(
            "kernel {n}: {}\\n{}",
            k.op.skeleton(),
            k.describe().replace(" -> ", " → ")
        );
        let _ = writeln!(
            self.out,
            "{pad}k{n} [shape=box, style=filled, fillcolor=lightblue, label=\"{label}\"];"
        );
        let mut reads = HashSet::new();
        let a = &self.plan.arena;
        for f in k.op.funs() {
            buffers_read(a, f.body, &mut reads);
        }
        for h in k.op.host_exprs() {
            buffers_read(a, h, &mut reads);
        }
        if let Some(d) = k.op.defaults() {
            reads.insert(d.0);
        }
        let mut reads: Vec<u32> = reads.into_iter().collect();
        reads.sort();
        for b in reads {
            let _ = writeln!(self.out, "{pad}b{b} -> k{n};");
        }
        for b in &k.outputs {
            let _ = writeln!(self.out, "{pad}k{n} -> b{};", b.0);
        }
    }
}

/// Buffers whose data or shape `h` reads.
fn buffers_read(a: &Arena, h: H, out: &mut HashSet<u32>) {
    let mut seen = HashSet::new();
    let mut stack = vec![h];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        match a.expr(x) {
            Expr::Plan(PlanRead::Buffer(b)) => {
                out.insert(b.0);
            }
            e => stack.extend(e.children()),
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
