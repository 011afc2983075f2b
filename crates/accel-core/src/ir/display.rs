//! Textual form of IR expressions, for golden tests and `explain`.

use super::{Arena, ArrayOp, Expr, Fun, Lit, PlanRead, Prim, Scalar, SeqOp, Ty, UnOp, H};
use std::fmt::{self, Write};

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Prim(p) => write!(f, "{}", p.name()),
            Ty::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    write!(f, ",")?;
                }
                write!(f, ")")
            }
            Ty::Index(r) => write!(f, "[usize; {r}]"),
            Ty::Option(t) => write!(f, "Option<{t}>"),
            Ty::Array(e, 0) => write!(f, "Scalar<{e}>"),
            Ty::Array(e, 1) => write!(f, "Vector<{e}>"),
            Ty::Array(e, 2) => write!(f, "Matrix<{e}>"),
            Ty::Array(e, r) => write!(f, "Array<{e}, {r}>"),
            Ty::Seq(e) => write!(f, "Seq<{e}>"),
        }
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.bits;
        match self.prim {
            Prim::Bool => write!(f, "{}", b != 0),
            Prim::F32 => write!(f, "{:?}f32", f32::from_bits(b as u32)),
            Prim::F64 => write!(f, "{:?}f64", f64::from_bits(b)),
            p if p.is_signed() => write!(f, "{}{}", b as i64, p.name()),
            p => write!(f, "{}{}", b, p.name()),
        }
    }
}

impl Arena {
    /// The expression as text, one line, with variables named `name_id`.
    pub fn show(&self, h: H) -> String {
        let mut s = String::new();
        self.write(&mut s, h);
        s
    }

    fn var_name(&self, v: super::VarId) -> String {
        format!("{}_{}", self.var(v).name, v.0)
    }

    fn write_fun(&self, s: &mut String, f: &Fun) {
        s.push('|');
        for (i, p) in f.params.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&self.var_name(*p));
        }
        s.push_str("| ");
        self.write(s, f.body);
    }

    fn write_boundary(&self, s: &mut String, b: &super::Boundary) {
        s.push_str(b.name());
        if let Some(c) = b.constant() {
            s.push('(');
            self.write(s, c);
            s.push(')');
        }
    }

    fn write_list(&self, s: &mut String, xs: &[H]) {
        for (i, x) in xs.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            self.write(s, *x);
        }
    }

    fn write(&self, s: &mut String, h: H) {
        match self.expr(h) {
            Expr::Scalar(Scalar::Var(v)) => s.push_str(&self.var_name(*v)),
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let _ = write!(s, "let {} = ", self.var_name(*var));
                self.write(s, *value);
                s.push_str("; ");
                self.write(s, *body);
            }
            Expr::Scalar(Scalar::Lit(l)) => {
                let _ = write!(s, "{l}");
            }
            Expr::Scalar(Scalar::Tuple(xs)) => {
                s.push('(');
                self.write_list(s, xs);
                s.push(')');
            }
            Expr::Scalar(Scalar::Proj(x, n)) => {
                self.write(s, *x);
                let _ = write!(s, ".{n}");
            }
            Expr::Scalar(Scalar::MakeIndex(xs)) => {
                s.push('[');
                self.write_list(s, xs);
                s.push(']');
            }
            Expr::Scalar(Scalar::Unary(op, x)) => {
                s.push_str(match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                });
                self.write(s, *x);
            }
            Expr::Scalar(Scalar::Binary(op, a, b)) => {
                s.push('(');
                self.write(s, *a);
                let _ = write!(s, " {} ", op.symbol());
                self.write(s, *b);
                s.push(')');
            }
            Expr::Scalar(Scalar::Cast(x, p)) => {
                s.push('(');
                self.write(s, *x);
                let _ = write!(s, " as {})", p.name());
            }
            Expr::Scalar(Scalar::If(c, t, e)) => {
                s.push_str("if ");
                self.write(s, *c);
                s.push_str(" { ");
                self.write(s, *t);
                s.push_str(" } else { ");
                self.write(s, *e);
                s.push_str(" }");
            }
            Expr::Scalar(Scalar::Math(m, xs)) => {
                let _ = write!(s, "{}(", m.name());
                self.write_list(s, xs);
                s.push(')');
            }
            Expr::Scalar(Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            }) => {
                s.push_str("while(");
                for p in pulls {
                    let _ = write!(s, "{} <- ", self.var_name(p.item));
                    self.write(s, p.source);
                    s.push_str("; ");
                }
                for (i, (v, x)) in vars.iter().zip(init).enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "{} = ", self.var_name(*v));
                    self.write(s, *x);
                }
                s.push_str("; ");
                self.write(s, *cond);
                s.push_str("; ");
                self.write_list(s, step);
                s.push(')');
            }
            Expr::Scalar(Scalar::Some(x)) => {
                s.push_str("Some(");
                self.write(s, *x);
                s.push(')');
            }
            Expr::Scalar(Scalar::None(_)) => s.push_str("None"),
            Expr::Scalar(Scalar::Read { array, index }) => {
                self.write(s, *array);
                s.push('[');
                self.write(s, *index);
                s.push(']');
            }
            Expr::Scalar(Scalar::Shape(a)) => {
                s.push_str("shape(");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::Generate { shape, f }) => {
                s.push_str("generate(");
                self.write(s, *shape);
                s.push_str(", ");
                self.write_fun(s, f);
                s.push(')');
            }
            Expr::Seq(SeqOp::Slices { a }) => {
                s.push_str("slices(");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Seq(SeqOp::Map { f, s: x }) => {
                s.push_str("seq_map(");
                self.write_fun(s, f);
                s.push_str(", ");
                self.write(s, *x);
                s.push(')');
            }
            Expr::Seq(SeqOp::Zip { f, a, b }) => {
                s.push_str("seq_zip(");
                self.write_fun(s, f);
                s.push_str(", ");
                self.write(s, *a);
                s.push_str(", ");
                self.write(s, *b);
                s.push(')');
            }
            Expr::Seq(SeqOp::Collect { s: x, tabulate }) => {
                s.push_str(if *tabulate { "tabulate(" } else { "collect(" });
                self.write(s, *x);
                s.push(')');
            }
            Expr::Seq(SeqOp::Fold { f, z, s: x, flatten }) => {
                s.push_str(if *flatten {
                    "seq_fold_flatten("
                } else {
                    "seq_fold("
                });
                self.write_fun(s, f);
                s.push_str(", ");
                self.write(s, *z);
                s.push_str(", ");
                self.write(s, *x);
                s.push(')');
            }
            Expr::Array(ArrayOp::Map { f, a }) => {
                s.push_str("map(");
                self.write_fun(s, f);
                s.push_str(", ");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::ZipWith { f, a, b }) => {
                s.push_str("zip_with(");
                self.write_fun(s, f);
                s.push_str(", ");
                self.write_list(s, &[*a, *b]);
                s.push(')');
            }
            Expr::Array(ArrayOp::Backpermute { shape, f, a }) => {
                s.push_str("backpermute(");
                self.write(s, *shape);
                s.push_str(", ");
                self.write_fun(s, f);
                s.push_str(", ");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::Reshape { shape, a }) => {
                s.push_str("reshape(");
                self.write_list(s, &[*shape, *a]);
                s.push(')');
            }
            Expr::Array(ArrayOp::Fold { f, z, a, all }) => {
                s.push_str(match (z.is_some(), all) {
                    (true, false) => "fold(",
                    (false, false) => "fold1(",
                    (true, true) => "fold_all(",
                    (false, true) => "fold1_all(",
                });
                self.write_fun(s, f);
                if let Some(z) = z {
                    s.push_str(", ");
                    self.write(s, *z);
                }
                s.push_str(", ");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::Scan { dir, kind, f, z, a }) => {
                let _ = write!(s, "scan[{dir:?}, {kind:?}](");
                self.write_fun(s, f);
                if let Some(z) = z {
                    s.push_str(", ");
                    self.write(s, *z);
                }
                s.push_str(", ");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            }) => {
                s.push_str("permute(");
                self.write_fun(s, combine);
                s.push_str(", ");
                self.write(s, *defaults);
                s.push_str(", ");
                self.write_fun(s, index);
                s.push_str(", ");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::Sort { key, a }) => {
                s.push_str("sort(");
                self.write_fun(s, key);
                s.push_str(", ");
                self.write(s, *a);
                s.push(')');
            }
            Expr::Array(ArrayOp::Stencil {
                boundaries,
                f,
                arrays,
                extents,
            }) => {
                s.push_str("stencil(");
                for (k, (b, a)) in boundaries.iter().zip(arrays).enumerate() {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    let ext: Vec<String> = extents
                        .get(k)
                        .into_iter()
                        .flatten()
                        .map(|n| n.to_string())
                        .collect();
                    let _ = write!(s, "[{}] ", ext.join("x"));
                    self.write_boundary(s, b);
                    s.push(' ');
                    self.write(s, *a);
                }
                s.push_str(", ");
                self.write_fun(s, f);
                s.push(')');
            }
            Expr::Plan(PlanRead::ReadStencil {
                array,
                center,
                offset,
                boundary,
            }) => {
                self.write(s, *array);
                s.push_str("@stencil(");
                self.write(s, *center);
                let _ = write!(s, " + {offset:?}, ");
                self.write_boundary(s, boundary);
                s.push(')');
            }
            Expr::Plan(PlanRead::Buffer(b)) => {
                let _ = write!(s, "b{}", b.0);
            }
            Expr::Plan(PlanRead::ReadLinear { array, index }) => {
                self.write(s, *array);
                s.push_str("@[");
                self.write(s, *index);
                s.push(']');
            }
            Expr::Plan(PlanRead::ReadIndex { array, index }) => {
                self.write(s, *array);
                s.push('@');
                self.write(s, *index);
            }
            Expr::Scalar(Scalar::Trace { fmt, args, body }) => {
                let _ = write!(s, "trace[{fmt:?}](");
                for a in args {
                    self.write(s, *a);
                    s.push_str(", ");
                }
                self.write(s, *body);
                s.push(')');
            }
            Expr::Scalar(Scalar::Assert {
                cond, op, msg, body, ..
            }) => {
                let _ = write!(s, "assert[{op}: {msg}](");
                self.write(s, *cond);
                s.push_str("; ");
                self.write(s, *body);
                s.push(')');
            }
            Expr::Plan(PlanRead::Checked {
                op,
                index,
                shape,
                var,
                body,
            }) => {
                let _ = write!(s, "checked[{op}]({} = ", self.var_name(*var));
                self.write(s, *index);
                s.push_str(" in ");
                self.write(s, *shape);
                s.push_str("; ");
                self.write(s, *body);
                s.push(')');
            }
        }
    }
}
