//! How a program runs over ranks when its arrays are block-distributed by
//! rows (`name::dist`, see `docs/distributed.md`).
//!
//! Each rank holds a block of rows of every array parameter. A program
//! whose result's row `i` depends only on row `i` of those arrays (maps,
//! zips, generates that read their own row, folds and scans along rows)
//! runs as it is on each rank's blocks, with no communication; with
//! stencils, on its blocks with as many of the neighbours' rows as they
//! reach ([`Split::Rows`]). A fold of everything of such an array combines
//! one partial result per rank, in rank order ([`Split::FoldRows`]); a
//! `scanl1` of such a vector adds to each block the totals of the blocks
//! before it ([`Split::ScanRows`]). An array
//! parameter that the program reads at other rows (a vector read at a
//! column index, say) is gathered whole on every rank first, and is then
//! the same everywhere. Any other program gathers every array and runs
//! whole on every rank ([`Split::Whole`]): always correct, at the cost of
//! moving every array to every rank.
//!
//! The analysis runs on the front end's program: each expression gets a
//! [`Cat`], what a block can know of it. Programs over sequences are split
//! by their own rules ([`seq`]): each rank streams its own part.

use crate::front::seq::extreme_bits;
use crate::front::Program;
use crate::ir::{
    ArrayOp, BinOp, Boundary, Expr, Fun, Lit, MathFn, Prim, Scalar, ScanDir, ScanKind, Ty, VarId, H,
};
use std::collections::HashMap;

mod seq;

/// How `name::dist` runs a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Split {
    /// Each rank runs the program on its blocks; the result's rows stay
    /// where they are computed. `whole[k]`: array parameter `k` is gathered
    /// whole on every rank first (it is read at rows of other ranks).
    /// `halo > 0`: the program has stencils reaching `halo` rows across
    /// (in all, one after another); each rank runs it on its blocks with
    /// `halo` rows of the neighbours' on each side, and keeps its own rows
    /// of the result.
    Rows { whole: Vec<bool>, halo: usize },
    /// Each rank runs the program (a fold of everything) on its blocks,
    /// and the ranks' values are combined in rank order by `op`; ranks
    /// with no rows give none.
    FoldRows { whole: Vec<bool>, op: FoldOp },
    /// The result is an inclusive left scan (`scanl1`) of a vector over
    /// rows by `op`: each rank scans its block, and adds the combination of
    /// the totals of the ranks before it (one value per rank crosses).
    ScanRows { whole: Vec<bool>, op: FoldOp },
    /// Every rank gathers every array and runs the whole program; `why`
    /// says what needs it.
    Whole { why: String },
    /// A program over sequences, each rank streaming its own part of each
    /// (the sequence is the ranks' parts in rank order), whose result is a
    /// fold by `op` from its identity: each rank runs the program on its
    /// parts, and the ranks' values are combined in rank order. `streams`:
    /// the stream parameters it reads (zipped when more than one: each
    /// rank's parts of them must then be of one length).
    SeqFold { op: FoldOp, streams: Vec<usize> },
    /// As `SeqFold`, for a `collect` (or a `tabulate`): each rank's values
    /// (elements) are its rows of the result.
    SeqCollect { streams: Vec<usize>, tabulate: bool },
    /// A program over sequences that runs on the whole of each on every
    /// rank: each rank's elements go to every rank as the program pulls
    /// them.
    SeqWhole { why: String },
}

/// An associative operation that [`Split::FoldRows`] and
/// [`Split::ScanRows`] combine ranks' values with: the fold's or scan's
/// own, recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldOp {
    Add,
    Mul,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl FoldOp {
    pub fn symbol(self) -> &'static str {
        match self {
            FoldOp::Add => "+",
            FoldOp::Mul => "*",
            FoldOp::Min => "min",
            FoldOp::Max => "max",
            FoldOp::And => "&",
            FoldOp::Or => "|",
            FoldOp::Xor => "^",
        }
    }
}

impl Split {
    /// The decision in words, for `explain_dist()`; `names` are the
    /// program's parameters.
    pub fn explain(&self, names: &[String]) -> String {
        let gathered = |whole: &[bool]| {
            let g: Vec<String> = whole
                .iter()
                .zip(names)
                .filter(|(w, _)| **w)
                .map(|(_, n)| format!("`{n}`"))
                .collect();
            if g.is_empty() {
                String::new()
            } else {
                format!(
                    " {} gathered whole on every rank first (read at rows of other ranks).",
                    g.join(", ")
                )
            }
        };
        let fallback = " If the distributed arrays differ in their number of rows, every rank gathers every array and runs the whole program.";
        let streamed = |streams: &[usize]| {
            let n: Vec<String> = streams.iter().map(|&k| format!("`{}`", names[k])).collect();
            format!(" ({})", n.join(", "))
        };
        let seq_notes = |streams: &[usize]| {
            let zipped = if streams.len() > 1 {
                " The zipped streams' parts must be of one length on every rank but the last with elements (else an error)."
            } else {
                ""
            };
            zipped.to_string()
        };
        match self {
            Split::Rows { whole, halo: 0 } => format!(
                "by rows: each rank runs the program on its blocks of rows, with no communication; the result's rows stay on the rank that computed them.{}{fallback}",
                gathered(whole)
            ),
            Split::Rows { whole, halo } => format!(
                "by rows with a halo: each rank runs the program on its blocks of rows with {halo} {} of its neighbours' on each side (its stencils reach that far), and keeps its own rows of the result.{}{fallback}",
                if *halo == 1 { "row" } else { "rows" },
                gathered(whole)
            ),
            Split::FoldRows { whole, op } => format!(
                "fold by rows: each rank folds its blocks of rows; the ranks' values are combined in rank order with `{}` (one value per rank crosses).{}{fallback}",
                op.symbol(),
                gathered(whole)
            ),
            Split::ScanRows { whole, op } => format!(
                "scan by rows: each rank scans its block; the ranks' totals are combined in rank order with `{}` and each rank's offset (the ranks' before it) is combined into its elements (one value per rank crosses).{}{fallback}",
                op.symbol(),
                gathered(whole)
            ),
            Split::Whole { why } => format!(
                "whole: every rank gathers every array and runs the whole program ({why})."
            ),
            Split::SeqFold { op, streams } => format!(
                "fold by parts: each rank runs the program on its own part of the sequence{}; the ranks' values are combined in rank order with `{}` (one value per rank crosses).{}",
                streamed(streams),
                op.symbol(),
                seq_notes(streams)
            ),
            Split::SeqCollect { streams, tabulate } => format!(
                "{} by parts: each rank {} its own part of the sequence{}; its {} are its rows of the result.{}",
                if *tabulate { "tabulate" } else { "collect" },
                if *tabulate { "stacks" } else { "collects" },
                streamed(streams),
                if *tabulate { "elements" } else { "values" },
                seq_notes(streams)
            ),
            Split::SeqWhole { why } => format!(
                "whole: every rank runs the whole program on the ranks' parts of each sequence in rank order, each rank's elements sent to every rank as the program pulls them ({why})."
            ),
        }
    }
}

/// Whether `program` can have a `dist` entry: something to distribute (an
/// array parameter of rank 1 or more, or a sequence parameter) and an
/// array result (not a tuple or a sequence).
pub fn has_entry(program: &Program) -> bool {
    matches!(program.result, Ty::Array(..))
        && program
            .params
            .iter()
            .any(|p| matches!(p.ty, Ty::Array(_, 1..) | Ty::Seq(_)))
}

/// Whether `program` streams a sequence parameter: its `dist` takes each
/// rank's part of each sequence, and a communicator.
pub fn streams(program: &Program) -> bool {
    program.params.iter().any(|p| matches!(p.ty, Ty::Seq(_)))
}

/// A program that runs whole, cut in two at a top-level `let` of a scalar
/// that is a fold by rows (`let total = xs.sum();`): the fold runs first,
/// by rows, and the rest, with the fold's value as a parameter (the same on
/// every rank), runs as it can ([`phases`]).
#[derive(Clone, Debug)]
pub struct Phases {
    /// The `let`'s variable.
    pub name: String,
    /// Its type (a rank-0 array).
    pub ty: Ty,
    /// The program up to the `let`, its value the result.
    pub first: Program,
    /// The program with the `let`'s variable a parameter (the last).
    pub rest: Program,
}

/// Where a program that would run whole can run in phases instead: the
/// first top-level `let` of a scalar whose value is a fold by rows, after
/// which the rest runs otherwise than whole (by rows, a fold, a scan, or in
/// phases again). `None` for a program that does not run whole, or where
/// no such `let` is.
pub fn phases(program: &Program) -> Option<Phases> {
    if streams(program) || !has_entry(program) || !matches!(split(program), Split::Whole { .. }) {
        return None;
    }
    let arena = &program.arena;
    // The top-level `let`s: (variable, value, node).
    let mut chain = Vec::new();
    let mut h = program.body;
    while let Expr::Scalar(Scalar::Let { var, value, body }) = arena.expr(h) {
        chain.push((*var, *value, h));
        h = *body;
    }
    // `tail` under the `let`s before `k`, in a copy of the program.
    let under = |p: &mut Program, k: usize, tail: H| {
        let mut b = tail;
        for &(var, value, node) in chain[..k].iter().rev() {
            let (ty, span) = (p.arena.ty(b).clone(), p.arena.span(node));
            b = p
                .arena
                .add(Expr::Scalar(Scalar::Let { var, value, body: b }), ty, span);
        }
        b
    };
    for (k, &(var, value, node)) in chain.iter().enumerate() {
        let ty = arena.ty(value).clone();
        if !matches!(ty, Ty::Array(_, 0)) {
            continue;
        }
        let mut first = program.clone();
        first.body = under(&mut first, k, value);
        first.result = ty.clone();
        if !matches!(split(&first), Split::FoldRows { .. }) {
            continue;
        }
        let Expr::Scalar(Scalar::Let { body, .. }) = arena.expr(node) else {
            continue;
        };
        let mut rest = program.clone();
        rest.body = under(&mut rest, k, *body);
        let name = arena.var(var).name.clone();
        rest.params.push(crate::front::Param {
            name: name.clone(),
            var,
            ty: ty.clone(),
            span: arena.span(node),
        });
        if matches!(split(&rest), Split::Whole { .. }) && phases(&rest).is_none() {
            continue;
        }
        return Some(Phases {
            name,
            ty,
            first,
            rest,
        });
    }
    None
}

impl Phases {
    /// The decision in words, for `explain_dist()`.
    pub fn explain(&self) -> String {
        let names = |p: &Program| p.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        let rest = match phases(&self.rest) {
            Some(more) => more.explain(),
            None => split(&self.rest).explain(&names(&self.rest)),
        };
        format!(
            "in phases: first `{}`, {} Then the rest, with `{}` the same on every rank: {}",
            self.name,
            split(&self.first).explain(&names(&self.first)),
            self.name,
            rest
        )
    }
}

/// How `dist` runs `program` (one that [`has_entry`]).
pub fn split(program: &Program) -> Split {
    if streams(program) {
        return seq::split(program);
    }
    let mut whole = vec![false; program.params.len()];
    let mut gathered = Vec::new();
    loop {
        let mut a = Analysis {
            program,
            whole: &whole,
            env: HashMap::new(),
            read_halo: 0,
        };
        match a.root(program.body) {
            Ok(Root::Fold(op)) => return Split::FoldRows { whole, op },
            Ok(Root::Scan(op)) => return Split::ScanRows { whole, op },
            Ok(Root::Rows(halo)) => return Split::Rows { whole, halo },
            // Gather the parameter and try again: it is then the same on
            // every rank, read anywhere.
            Err(Why::Param(k, why)) if !whole[k] => {
                whole[k] = true;
                gathered.push(format!("`{}` {why}", program.params[k].name));
            }
            Err(Why::Param(k, why)) => {
                return Split::Whole {
                    why: format!("`{}` {why}", program.params[k].name),
                }
            }
            // With every parameter that needs it gathered, nothing is left
            // over rows: say why they were gathered.
            Err(Why::Other(why)) if why == UNIFORM && !gathered.is_empty() => {
                return Split::Whole {
                    why: gathered.join("; "),
                }
            }
            Err(Why::Other(why)) => return Split::Whole { why },
        }
    }
}

/// What a rank holding a block of rows knows of a value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Cat {
    /// The same on every rank as in the whole program: literals, scalar
    /// parameters, gathered arrays and what is computed from them alone.
    Uniform,
    /// Inside an element function: computed from the elements at hand
    /// (the element's own row, an inner index, uniform data).
    Local,
    /// The distributed arrays' number of rows (a block's is its own).
    Extent,
    /// The row of the element a generate over rows computes (a block
    /// counts its rows from 0).
    Row,
    /// An array of rank `.0` whose row `i` depends only on row `i` of the
    /// distributed arrays, where computed on a block with `.1` rows of the
    /// neighbours' on each side (its stencils reach that far).
    Rows(usize, usize),
    /// A tuple, an index or a shape, by component.
    Tuple(Vec<Cat>),
}

impl Cat {
    /// A scalar value that is the same computed on a block as in the whole
    /// program (no row number or extent in it).
    fn is_value(&self) -> bool {
        match self {
            Cat::Uniform | Cat::Local => true,
            Cat::Tuple(cs) => cs.iter().all(Cat::is_value),
            _ => false,
        }
    }

    fn is_uniform(&self) -> bool {
        match self {
            Cat::Uniform => true,
            Cat::Tuple(cs) => cs.iter().all(Cat::is_uniform),
            _ => false,
        }
    }

    /// A shape whose outermost extent is the distributed arrays' and the
    /// rest uniform: the shape of an array over rows.
    fn is_row_shape(&self) -> Option<usize> {
        match self {
            Cat::Tuple(cs) if cs.first() == Some(&Cat::Extent) && cs[1..].iter().all(Cat::is_uniform) => {
                Some(cs.len())
            }
            _ => None,
        }
    }

    /// The number of rows, or a shape of it and uniform extents.
    fn is_shape(&self) -> bool {
        match self {
            Cat::Extent => true,
            Cat::Tuple(cs) => cs.iter().all(|c| matches!(c, Cat::Extent | Cat::Uniform)),
            _ => false,
        }
    }

    /// An index whose outermost component is the element's own row.
    fn is_own_row(&self) -> bool {
        match self {
            Cat::Tuple(cs) => cs.first() == Some(&Cat::Row) && cs[1..].iter().all(Cat::is_value),
            _ => false,
        }
    }
}

/// Why a program does not run by rows.
enum Why {
    /// Array parameter `k` is read at rows of other ranks (how, in words):
    /// gathering it whole may let the rest run by rows.
    Param(usize, String),
    Other(String),
}

/// [`Why::Other`] of a result computed from uniform values alone.
const UNIFORM: &str = "the result does not depend on the distributed rows";

fn other<T>(why: &str) -> Result<T, Why> {
    Err(Why::Other(why.to_string()))
}

/// What the program's result is, run by rows.
enum Root {
    /// An array over rows, whose stencils reach this far.
    Rows(usize),
    /// A fold of everything of one.
    Fold(FoldOp),
    /// An inclusive left scan of a vector over rows.
    Scan(FoldOp),
}

struct Analysis<'a> {
    program: &'a Program,
    whole: &'a [bool],
    env: HashMap<VarId, Cat>,
    /// The largest halo of the arrays over rows that the element function
    /// being analysed reads.
    read_halo: usize,
}

impl Analysis<'_> {
    fn root(&mut self, h: H) -> Result<Root, Why> {
        let arena = &self.program.arena;
        match arena.expr(h) {
            Expr::Scalar(Scalar::Let { var, value, body }) => {
                let c = self.cat(*value)?;
                self.env.insert(*var, c);
                self.root(*body)
            }
            Expr::Array(ArrayOp::Fold { f, z, a, all }) => {
                let (rank, halo) = match self.cat(*a)? {
                    Cat::Rows(r, halo) => (r, halo),
                    c => return self.rows_result(c),
                };
                if rank >= 2 && !*all {
                    // Along rows: an array over rows.
                    let c = self.cat(h)?;
                    return self.rows_result(c);
                }
                if halo > 0 {
                    // Its halo rows would count twice.
                    return other("a fold of everything of an array computed by a stencil");
                }
                let op = fold_op(self.program, f).ok_or_else(|| {
                    Why::Other("a fold over rows whose operation is not a recognised associative one".into())
                })?;
                if let Some(z) = z {
                    if !is_identity(op, self.lit(*z)) {
                        return other("a fold over rows whose initial value is not its operation's identity");
                    }
                }
                Ok(Root::Fold(op))
            }
            Expr::Array(ArrayOp::Scan {
                dir: ScanDir::Left,
                kind: ScanKind::Inclusive,
                f,
                z: None,
                a,
            }) if self.cat(*a)? == Cat::Rows(1, 0) => match fold_op(self.program, f) {
                Some(op) => Ok(Root::Scan(op)),
                None => other("a scan of a vector whose operation is not a recognised associative one"),
            },
            _ => {
                let c = self.cat(h)?;
                self.rows_result(c)
            }
        }
    }

    fn rows_result(&self, c: Cat) -> Result<Root, Why> {
        match c {
            Cat::Rows(_, halo) => Ok(Root::Rows(halo)),
            Cat::Uniform => other(UNIFORM),
            _ => other("the result is not an array over rows"),
        }
    }

    fn lit(&self, h: H) -> Option<Lit> {
        lit(self.program, h)
    }

    /// A closure's body with its parameters bound to `params`.
    fn fun(&mut self, f: &Fun, params: &[Cat]) -> Result<Cat, Why> {
        for (v, c) in f.params.iter().zip(params) {
            self.env.insert(*v, c.clone());
        }
        self.cat(f.body)
    }

    /// A closure that must compute a value (an element, a combination);
    /// the largest halo of the arrays over rows it reads.
    fn value_fun(&mut self, f: &Fun, params: &[Cat]) -> Result<usize, Why> {
        let outer = std::mem::replace(&mut self.read_halo, 0);
        let c = self.fun(f, params)?;
        let halo = std::mem::replace(&mut self.read_halo, outer);
        if c.is_value() {
            Ok(halo)
        } else {
            other("an element function uses the row number or the number of rows")
        }
    }

    fn cat(&mut self, h: H) -> Result<Cat, Why> {
        let arena = &self.program.arena;
        match arena.expr(h).clone() {
            Expr::Scalar(s) => self.scalar(s),
            Expr::Array(op) => self.array(op),
            Expr::Seq(_) => other("a sequence"),
            Expr::Plan(_) => other("a plan node"),
        }
    }

    fn scalar(&mut self, s: Scalar) -> Result<Cat, Why> {
        Ok(match s {
            Scalar::Var(v) => match self.env.get(&v) {
                Some(c) => c.clone(),
                None => self.param(v)?,
            },
            Scalar::Lit(_) | Scalar::None(_) => Cat::Uniform,
            Scalar::Let { var, value, body } => {
                let c = self.cat(value)?;
                self.env.insert(var, c);
                self.cat(body)?
            }
            Scalar::Tuple(hs) | Scalar::MakeIndex(hs) => Cat::Tuple(self.cats(&hs)?),
            Scalar::Proj(t, n) => match self.cat(t)? {
                Cat::Tuple(mut cs) if n < cs.len() => cs.swap_remove(n),
                c @ (Cat::Uniform | Cat::Local) => c,
                _ => return other("a projection of an array over rows"),
            },
            Scalar::Binary(op, a, b) => {
                let (ca, cb) = (self.cat(a)?, self.cat(b)?);
                if op.is_comparison() && ca == cb && ca.is_shape() {
                    // Shapes compared with shapes of the same form: all
                    // distributed arrays have the same number of rows, so
                    // equal on blocks exactly when in the whole program.
                    Cat::Uniform
                } else {
                    join(&[ca, cb])?
                }
            }
            Scalar::Unary(_, a) | Scalar::Cast(a, _) | Scalar::Some(a) => join(&[self.cat(a)?])?,
            Scalar::If(c, a, b) => {
                let cc = self.cat(c)?;
                if !cc.is_value() {
                    return other("a condition on the row number or the number of rows");
                }
                let (ca, cb) = (self.cat(a)?, self.cat(b)?);
                match (&ca, &cb) {
                    (Cat::Rows(x, hx), Cat::Rows(y, hy)) if x == y => Cat::Rows(*x, *hx.max(hy)),
                    _ => join(&[cc, ca, cb])?,
                }
            }
            Scalar::Math(f, args) => {
                let cs = self.cats(&args)?;
                match (f, cs.as_slice()) {
                    (MathFn::Min | MathFn::Max, [Cat::Extent, Cat::Extent]) => Cat::Extent,
                    _ => join(&cs)?,
                }
            }
            Scalar::While {
                vars,
                init,
                cond,
                step,
                pulls,
            } => {
                if !pulls.is_empty() {
                    return other("a loop over a sequence");
                }
                let mut cs = self.cats(&init)?;
                // Twice: a state that starts uniform may become local.
                for _ in 0..2 {
                    for (v, c) in vars.iter().zip(&cs) {
                        self.env.insert(*v, c.clone());
                    }
                    if !self.cat(cond)?.is_value() {
                        return other("a loop condition on the row number or the number of rows");
                    }
                    let next = self.cats(&step)?;
                    if next == cs {
                        return Ok(Cat::Tuple(cs));
                    }
                    cs = cs
                        .iter()
                        .zip(&next)
                        .map(|(a, b)| join(&[a.clone(), b.clone()]))
                        .collect::<Result<_, _>>()?;
                }
                return other("a loop whose state changes kind");
            }
            Scalar::Assert { cond, body, .. } => {
                let _ = self.cat(cond)?;
                self.cat(body)?
            }
            Scalar::Trace { args, body, .. } => {
                join(&self.cats(&args)?)?;
                self.cat(body)?
            }
            Scalar::Read { array, index } => {
                let (ca, ci) = (self.cat(array)?, self.cat(index)?);
                match ca {
                    Cat::Uniform if ci.is_value() => Cat::Local,
                    Cat::Rows(_, halo) if ci.is_own_row() => {
                        self.read_halo = self.read_halo.max(halo);
                        Cat::Local
                    }
                    Cat::Rows(..) => return Err(self.blame(array, "is read at rows of other ranks")),
                    _ => return other("an array read at the row number"),
                }
            }
            Scalar::Shape(a) => match self.cat(a)? {
                Cat::Rows(r, _) => {
                    let mut cs = vec![Cat::Uniform; r];
                    cs[0] = Cat::Extent;
                    Cat::Tuple(cs)
                }
                Cat::Uniform => Cat::Uniform,
                _ => return other("a shape"),
            },
        })
        .map(|c| {
            // An index or shape of uniform parts is uniform.
            if c.is_uniform() {
                Cat::Uniform
            } else {
                c
            }
        })
    }

    fn cats(&mut self, hs: &[H]) -> Result<Vec<Cat>, Why> {
        hs.iter().map(|h| self.cat(*h)).collect()
    }

    /// An array parameter's kind: over rows, unless gathered.
    fn param(&self, v: VarId) -> Result<Cat, Why> {
        let Some((k, p)) = self.program.params.iter().enumerate().find(|(_, p)| p.var == v) else {
            return other("a variable out of scope");
        };
        Ok(match &p.ty {
            Ty::Array(_, r) if *r >= 1 && !self.whole[k] => Cat::Rows(*r, 0),
            Ty::Seq(_) => return other("a sequence parameter"),
            _ => Cat::Uniform,
        })
    }

    /// Why `array`, read at rows other than the element's own, stops the
    /// program running by rows: a parameter can be gathered.
    fn blame(&self, array: H, why: &str) -> Why {
        if let Expr::Scalar(Scalar::Var(v)) = self.program.arena.expr(array) {
            if let Some(k) = self.program.params.iter().position(|p| p.var == *v) {
                return Why::Param(k, why.to_string());
            }
        }
        Why::Other(format!("an array computed over rows {why}"))
    }

    fn array(&mut self, op: ArrayOp) -> Result<Cat, Why> {
        match op {
            ArrayOp::Generate { shape, f } => {
                let cs = self.cat(shape)?;
                if let Some(r) = cs.is_row_shape() {
                    let mut ix = vec![Cat::Local; r];
                    ix[0] = Cat::Row;
                    let halo = self.value_fun(&f, &[Cat::Tuple(ix)])?;
                    return Ok(Cat::Rows(r, halo));
                }
                if !cs.is_uniform() {
                    return other(
                        "a generate whose shape depends on the number of rows, not as its outermost extent",
                    );
                }
                self.value_fun(&f, &[Cat::Local])?;
                Ok(Cat::Uniform)
            }
            ArrayOp::Map { f, a } => {
                let ca = self.cat(a)?;
                self.value_fun(&f, &[Cat::Local])?;
                over(ca)
            }
            ArrayOp::ZipWith { f, a, b } => {
                let (ca, cb) = (self.cat(a)?, self.cat(b)?);
                self.value_fun(&f, &[Cat::Local, Cat::Local])?;
                match (ca, cb) {
                    (Cat::Rows(x, hx), Cat::Rows(y, hy)) if x == y => Ok(Cat::Rows(x, hx.max(hy))),
                    (Cat::Uniform, Cat::Uniform) => Ok(Cat::Uniform),
                    (Cat::Rows(..), Cat::Uniform) => {
                        Err(self.blame(a, "is zipped with an array every rank holds whole"))
                    }
                    (Cat::Uniform, Cat::Rows(..)) => {
                        Err(self.blame(b, "is zipped with an array every rank holds whole"))
                    }
                    _ => other("a zip of arrays of different kinds"),
                }
            }
            ArrayOp::Fold { f, z, a, all } => {
                let ca = self.cat(a)?;
                self.combination(&f, z, "a fold's initial value")?;
                match ca {
                    Cat::Rows(r, halo) if r >= 2 && !all => Ok(Cat::Rows(r - 1, halo)),
                    Cat::Rows(..) => Err(self.blame(a, "is folded across rows, and its value used")),
                    c => over(c),
                }
            }
            ArrayOp::Scan { f, z, a, kind, .. } => {
                let ca = self.cat(a)?;
                self.combination(&f, z, "a scan's initial value")?;
                match ca {
                    Cat::Rows(r, h) if r >= 2 => Ok(match kind {
                        ScanKind::Exclusive => Cat::Tuple(vec![Cat::Rows(r, h), Cat::Rows(r - 1, h)]),
                        _ => Cat::Rows(r, h),
                    }),
                    Cat::Rows(..) => Err(self.blame(a, "is scanned across rows")),
                    c => over(c),
                }
            }
            ArrayOp::Backpermute { shape, f, a } => {
                let (cs, ca) = (self.cat(shape)?, self.cat(a)?);
                if let Cat::Rows(..) = ca {
                    return Err(self.blame(a, "is backpermuted"));
                }
                self.value_fun(&f, &[Cat::Local])?;
                if cs.is_uniform() && ca == Cat::Uniform {
                    Ok(Cat::Uniform)
                } else {
                    other("a backpermute over rows")
                }
            }
            ArrayOp::Reshape { shape, a } => self.whole_op(&[shape, a], &[], "reshapes"),
            ArrayOp::Permute {
                combine,
                defaults,
                index,
                a,
            } => self.whole_op(&[defaults, a], &[combine, index], "is permuted"),
            ArrayOp::Sort { key, a } => self.whole_op(&[a], &[key], "is sorted"),
            ArrayOp::Stencil {
                boundaries,
                f,
                arrays,
                extents,
            } => self.stencil(&boundaries, &f, &arrays, &extents),
        }
    }

    /// A fold's or scan's combination `f` and initial value `z`, which must
    /// be the same on every rank (`why` otherwise).
    fn combination(&mut self, f: &Fun, z: Option<H>, why: &str) -> Result<(), Why> {
        self.value_fun(f, &[Cat::Local, Cat::Local])?;
        match z {
            Some(z) if !self.cat(z)?.is_uniform() => other(why),
            _ => Ok(()),
        }
    }

    /// A stencil of arrays over rows is over rows, computed right on a block
    /// with halos as far as it reaches (added to what its arrays need):
    /// each rank's rows of it read rows of the neighbours' only. Boundaries
    /// that look at the array's own edges only: not `Wrap`, whose
    /// neighbours of the first row are the last.
    fn stencil(
        &mut self,
        boundaries: &[Boundary],
        f: &Fun,
        arrays: &[H],
        extents: &[Vec<usize>],
    ) -> Result<Cat, Why> {
        let cats = self.cats(arrays)?;
        if cats.iter().all(|c| *c == Cat::Uniform) {
            return self.whole_op(arrays, std::slice::from_ref(f), "");
        }
        let mut out = None;
        for ((a, c), (b, e)) in arrays.iter().zip(&cats).zip(boundaries.iter().zip(extents)) {
            let Cat::Rows(rank, halo) = c else {
                return other("a stencil of an array over rows and one every rank holds whole");
            };
            if *b == Boundary::Wrap {
                return Err(self.blame(*a, "is read by a stencil that wraps around"));
            }
            let reach = halo + e.first().map_or(0, |e| e / 2);
            out = Some(match out {
                Some(Cat::Rows(r, h)) if r == *rank => Cat::Rows(r, reach.max(h)),
                None => Cat::Rows(*rank, reach),
                _ => return other("a stencil of arrays of different ranks"),
            });
        }
        let n = f.params.len();
        self.value_fun(f, &vec![Cat::Local; n])?;
        out.ok_or_else(|| Why::Other("a stencil of no array".into()))
    }

    /// An operation that is uniform when its arguments are, and needs every
    /// row otherwise.
    fn whole_op(&mut self, args: &[H], funs: &[Fun], why: &str) -> Result<Cat, Why> {
        for a in args {
            match self.cat(*a)? {
                Cat::Uniform => {}
                Cat::Rows(..) => return Err(self.blame(*a, why)),
                _ => return other(why),
            }
        }
        for f in funs {
            let n = f.params.len();
            let _ = self.fun(f, &vec![Cat::Local; n])?;
        }
        Ok(Cat::Uniform)
    }
}

/// An array operation's result kind from its argument's: over rows stays
/// over rows (same rank), uniform stays uniform.
fn over(c: Cat) -> Result<Cat, Why> {
    match c {
        Cat::Rows(..) | Cat::Uniform => Ok(c),
        _ => other("an array operation on a scalar"),
    }
}

/// The kind of a value computed from values of kinds `cs`.
fn join(cs: &[Cat]) -> Result<Cat, Why> {
    let mut local = false;
    for c in cs {
        match c {
            Cat::Uniform => {}
            Cat::Local => local = true,
            Cat::Tuple(_) if c.is_value() => local |= !c.is_uniform(),
            Cat::Rows(..) => return other("an array over rows used as a value"),
            _ => return other("the row number or the number of rows used as a value"),
        }
    }
    Ok(if local { Cat::Local } else { Cat::Uniform })
}

/// `f(x, y)` as a recognised associative operation of `x` and `y`.
fn fold_op(program: &Program, f: &Fun) -> Option<FoldOp> {
    let arena = &program.arena;
    let [x, y] = f.params[..] else { return None };
    let is_var = |h: H, v: VarId| matches!(arena.expr(h), Expr::Scalar(Scalar::Var(w)) if *w == v);
    let operands = |p: H, q: H| (is_var(p, x) && is_var(q, y)) || (is_var(p, y) && is_var(q, x));
    let bool_or_int = |h: H| matches!(arena.ty(h), Ty::Prim(p) if *p == Prim::Bool || p.is_int());
    match arena.expr(f.body) {
        Expr::Scalar(Scalar::Binary(op, p, q)) if operands(*p, *q) => match op {
            BinOp::Add => Some(FoldOp::Add),
            BinOp::Mul => Some(FoldOp::Mul),
            BinOp::BitAnd | BinOp::And if bool_or_int(*p) => Some(FoldOp::And),
            BinOp::BitOr | BinOp::Or if bool_or_int(*p) => Some(FoldOp::Or),
            BinOp::BitXor if bool_or_int(*p) => Some(FoldOp::Xor),
            _ => None,
        },
        Expr::Scalar(Scalar::Math(MathFn::Min, args)) if args.len() == 2 && operands(args[0], args[1]) => {
            Some(FoldOp::Min)
        }
        Expr::Scalar(Scalar::Math(MathFn::Max, args)) if args.len() == 2 && operands(args[0], args[1]) => {
            Some(FoldOp::Max)
        }
        _ => None,
    }
}

fn exact(p: Prim) -> bool {
    p.is_int() || p == Prim::Bool
}

fn lit(program: &Program, h: H) -> Option<Lit> {
    match program.arena.expr(h) {
        Expr::Scalar(Scalar::Lit(l)) => Some(*l),
        _ => None,
    }
}

/// Whether `z` is an identity of `op` (so that folding it into every
/// rank's value changes nothing): `0` for `+`, `|`, `^`, `1` for `*`,
/// `true` for `&&`, the infinities for a float `min` and `max`.
fn is_identity(op: FoldOp, z: Option<Lit>) -> bool {
    let Some(z) = z else { return false };
    let float = |bits: u64| match z.prim {
        Prim::F32 => Some(f32::from_bits(bits as u32) as f64),
        Prim::F64 => Some(f64::from_bits(bits)),
        _ => None,
    };
    let v = float(z.bits);
    match op {
        FoldOp::Add | FoldOp::Or | FoldOp::Xor => match v {
            Some(f) => f == 0.0,
            None => z.prim != Prim::F16 && z.prim != Prim::BF16 && z.bits == 0,
        },
        FoldOp::Mul => match v {
            Some(f) => f == 1.0,
            None => z.prim.is_int() && z.bits == 1,
        },
        FoldOp::And => z.prim == Prim::Bool && z.bits == 1,
        // The largest value of an integer type (or `true`) for `min`, the
        // smallest for `max`: what a sequence's `minimum` starts from.
        FoldOp::Min => v == Some(f64::INFINITY) || (exact(z.prim) && z.bits == extreme_bits(z.prim, true)),
        FoldOp::Max => {
            v == Some(f64::NEG_INFINITY) || (exact(z.prim) && z.bits == extreme_bits(z.prim, false))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAMS: &str = r#"
        fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> { xs.zip_with(ys, |x, y| x * y).sum() }
        fn smallest(xs: &Vector<i32>) -> Scalar<i32> { xs.minimum() }
        fn product(xs: &Vector<f64>) -> Scalar<f64> { xs.fold(1.0, |a, b| a * b) }
        fn offset_sum(xs: &Vector<f64>) -> Scalar<f64> { xs.fold(1.0, |a, b| a + b) }
        fn saxpy(a: f32, xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> { xs.zip_with(ys, |x, y| a * x + y) }
        fn doubled(xs: &Vector<f32>) -> Vector<f32> { let n = xs.len(); generate([n], |[i]| xs[[i]] * 2.0) }
        fn positions(xs: &Vector<f32>) -> Vector<f32> { generate([xs.len()], |[i]| xs[[i]] + i as f32) }
        fn mean_centred(xs: &Vector<f32>) -> Vector<f32> { let n = xs.len() as f32; xs.map(|x| x / n) }
        fn matvec(m: &Matrix<f32>, v: &Vector<f32>) -> Vector<f32> { generate(m.shape(), |[i, j]| m[[i, j]] * v[[j]]).sum() }
        fn row_scan(m: &Matrix<i64>) -> Matrix<i64> { m.scanl1(|a, b| a + b) }
        fn prefix(xs: &Vector<i64>) -> Vector<i64> { xs.scanl1(|a, b| a + b) }
        fn prefix_max(xs: &Vector<f32>) -> Vector<f32> { xs.map(|x| x * 2.0).scanl1(|a, b| a.max(b)) }
        fn suffix(xs: &Vector<i64>) -> Vector<i64> { xs.scanr1(|a, b| a + b) }
        fn shifted(xs: &Vector<f32>) -> Vector<f32> { generate([xs.len()], |[i]| xs[[if i > 0 { i - 1 } else { 0 }]]) }
        fn scaled_by_first(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> { xs.map(|x| x * ys[[0]]) }
        fn blur(xs: &Vector<f32>) -> Vector<f32> { xs.stencil(Boundary::Clamp, |[l, c, r]| l + c + r) }
        fn total_rows(m: &Matrix<f32>) -> Scalar<f32> { m.sum().sum() }
        fn blur_twice(u: &Matrix<f32>, v: &Matrix<f32>) -> Matrix<f32> {
            let b = u.stencil(Boundary::Mirror, |[[_, n, _], [w, c, e], [_, s, _]]| n + s + w + e + c);
            let d = b.zip_with(v, |x, y| x * y);
            d.stencil(Boundary::Clamp, |[[_, n, _], [w, c, e], [_, s, _]]| n + s + w + e - c)
        }
        fn blur_wrapped(xs: &Vector<f32>) -> Vector<f32> { xs.stencil(Boundary::Wrap, |[l, c, r]| l + c + r) }
        fn blur_total(xs: &Vector<f32>) -> Scalar<f32> { xs.stencil(Boundary::Clamp, |[l, c, r]| l + c + r).sum() }
        fn blur_row_sums(u: &Matrix<f32>) -> Vector<f32> { u.stencil(Boundary::Clamp, |[[_, n, _], [w, c, e], [_, s, _]]| n + s + w + e - c).sum() }
        fn loop_map(xs: &Vector<f32>, k: usize) -> Vector<f32> {
            let mut ys = xs.map(|x| x);
            let mut i = 0usize;
            while i < k { ys = ys.map(|y| y * 0.5 + 1.0); i += 1; }
            ys
        }
    "#;

    const SEQ_PROGRAMS: &str = r#"
        fn dotp_blocks(xs: Seq<Vector<f32>>, ys: Seq<Vector<f32>>) -> Scalar<f32> { xs.zip_with(ys, |x, y| x.zip_with(y, |a, b| a * b).sum()).sum() }
        fn seq_min(xs: Seq<Scalar<i32>>) -> Scalar<i32> { xs.minimum() }
        fn seq_max(xs: Seq<Scalar<u8>>) -> Scalar<u8> { xs.maximum() }
        fn weighted(xs: Seq<Vector<f64>>, w: &Vector<f64>) -> Scalar<f64> { let s = xs.map(|x| x.zip_with(w, |a, b| a * b).sum()); s.fold(0.0, |a, b| a + b) }
        fn squares(xs: Seq<Scalar<i64>>) -> Vector<i64> { xs.map(|x| x.map(|v| v * v)).collect() }
        fn offset(xs: Seq<Scalar<i64>>) -> Scalar<i64> { xs.fold(5, |a, b| a + b) }
        fn stacked(xs: Seq<Vector<f32>>) -> Matrix<f32> { xs.tabulate() }
        fn vector_sum(xs: Seq<Vector<f32>>) -> Vector<f32> { xs.fold(fill([3], 0.0), |acc, x| acc.zip_with(x, |a, b| a + b)) }
        fn with_rows(xs: Seq<Vector<f32>>, m: &Matrix<f32>) -> Scalar<f32> { xs.zip_with(m.rows(), |x, r| x.zip_with(r, |a, b| a * b).sum()).sum() }
        fn doubled_sum(xs: Seq<Scalar<f32>>) -> Scalar<f32> { let s = xs.sum(); fill([], s.value() * 2.0) }
    "#;

    const PHASED: &str = r#"
        fn centred(xs: &Vector<f64>) -> Vector<f64> { let total = xs.sum(); xs.map(|x| x - total.value() * 0.01) }
        fn mean_centred(xs: &Vector<f64>) -> Vector<f64> { let total = xs.sum(); xs.map(|x| x - total.value() / xs.len() as f64) }
        fn softmax(xs: &Vector<f32>) -> Vector<f32> { let m = xs.maximum(); let e = xs.map(|x| (x - m.value()).exp()); let s = e.sum(); e.map(|x| x / s.value()) }
        fn spread(xs: &Vector<f64>) -> Scalar<f64> { let lo = xs.minimum(); xs.map(|x| x - lo.value()).sum() }
        fn shifted_sum(xs: &Vector<i64>) -> Vector<i64> { let t = xs.sum(); generate([xs.len()], |[i]| xs[[i]] + t.value() * i as i64) }
        fn plain(xs: &Vector<i64>) -> Vector<i64> { xs.map(|x| x + 1) }
    "#;

    #[test]
    fn folds_used_as_values_run_in_phases() {
        let phases_of = |name: &str| {
            let (program, _) = crate::compile_source(PHASED, name).unwrap();
            phases(&program)
        };
        let p = phases_of("centred").unwrap();
        assert_eq!(p.name, "total");
        assert_eq!(
            split(&p.rest),
            Split::Rows {
                whole: vec![false, false],
                halo: 0
            }
        );
        // Two folds, one after the other: phases twice.
        let p = phases_of("softmax").unwrap();
        assert_eq!(p.name, "m");
        let q = phases(&p.rest).unwrap();
        assert_eq!(q.name, "s");
        assert!(p.explain().contains("first `m`") && p.explain().contains("first `s`"));
        let p = phases_of("spread").unwrap();
        assert!(matches!(split(&p.rest), Split::FoldRows { op: FoldOp::Add, .. }));
        // The rest still needs the row number or the number of rows (a
        // block's is its own): whole. A program by rows has no phases.
        assert!(phases_of("shifted_sum").is_none());
        assert!(phases_of("mean_centred").is_none());
        assert!(phases_of("plain").is_none());
    }

    fn seq_split_of(name: &str) -> Split {
        let (program, _) = crate::compile_source(SEQ_PROGRAMS, name).unwrap();
        assert!(has_entry(&program) && streams(&program), "{name}");
        split(&program)
    }

    #[test]
    fn sequence_folds_and_collects_run_by_parts() {
        assert_eq!(
            seq_split_of("dotp_blocks"),
            Split::SeqFold {
                op: FoldOp::Add,
                streams: vec![0, 1]
            }
        );
        // `minimum` and `maximum` start from the type's largest and smallest
        // values: their identities.
        let one = |op| Split::SeqFold { op, streams: vec![0] };
        assert_eq!(seq_split_of("seq_min"), one(FoldOp::Min));
        assert_eq!(seq_split_of("seq_max"), one(FoldOp::Max));
        assert_eq!(seq_split_of("weighted"), one(FoldOp::Add));
        assert_eq!(
            seq_split_of("squares"),
            Split::SeqCollect {
                streams: vec![0],
                tabulate: false
            }
        );
        assert_eq!(
            seq_split_of("stacked"),
            Split::SeqCollect {
                streams: vec![0],
                tabulate: true
            }
        );
        // An initial value that is not the identity would count once per
        // rank; a fold of arrays, slices of an array (the same on every
        // rank) and arithmetic after the fold run whole.
        for name in ["offset", "vector_sum", "with_rows", "doubled_sum"] {
            let s = seq_split_of(name);
            assert!(matches!(s, Split::SeqWhole { .. }), "{name}: {s:?}");
        }
    }

    fn split_of(name: &str) -> Split {
        let (program, _) = crate::compile_source(PROGRAMS, name).unwrap();
        split(&program)
    }

    fn is_whole(s: &Split) -> bool {
        matches!(s, Split::Whole { .. })
    }

    #[test]
    fn programs_over_their_own_rows_run_by_rows() {
        let rows = |w: &[bool]| Split::Rows {
            whole: w.to_vec(),
            halo: 0,
        };
        assert_eq!(split_of("saxpy"), rows(&[false, false, false]));
        assert_eq!(split_of("doubled"), rows(&[false]));
        assert_eq!(split_of("row_scan"), rows(&[false]));
        assert_eq!(split_of("loop_map"), rows(&[false, false]));
        // `v` is read at column indices: gathered; the matrix stays in rows.
        assert_eq!(split_of("matvec"), rows(&[false, true]));
        assert_eq!(split_of("scaled_by_first"), rows(&[false, true]));
        // Stencils: halos as far as they reach, one after another.
        let halo = |h| Split::Rows {
            whole: vec![false],
            halo: h,
        };
        assert_eq!(split_of("blur"), halo(1));
        assert_eq!(split_of("blur_row_sums"), halo(1));
        assert_eq!(
            split_of("blur_twice"),
            Split::Rows {
                whole: vec![false, false],
                halo: 2
            }
        );
    }

    #[test]
    fn folds_of_everything_combine_the_ranks_values() {
        let fold = |op| Split::FoldRows {
            whole: vec![false, false],
            op,
        };
        assert_eq!(split_of("dotp"), fold(FoldOp::Add));
        assert_eq!(
            split_of("smallest"),
            Split::FoldRows {
                whole: vec![false],
                op: FoldOp::Min
            }
        );
        assert_eq!(
            split_of("product"),
            Split::FoldRows {
                whole: vec![false],
                op: FoldOp::Mul
            }
        );
        assert_eq!(
            split_of("total_rows"),
            Split::FoldRows {
                whole: vec![false],
                op: FoldOp::Add
            }
        );
        let scan = |op| Split::ScanRows {
            whole: vec![false],
            op,
        };
        assert_eq!(split_of("prefix"), scan(FoldOp::Add));
        assert_eq!(split_of("prefix_max"), scan(FoldOp::Max));
    }

    #[test]
    fn programs_that_need_other_rows_run_whole() {
        // The row number or the number of rows as a value, a right scan across
        // rows, a fold whose initial value would count once per rank, a
        // wrapping stencil, a fold of a stencil's result (its halo rows
        // would count twice).
        for name in [
            "positions",
            "mean_centred",
            "suffix",
            "shifted",
            "offset_sum",
            "blur_wrapped",
            "blur_total",
        ] {
            let s = split_of(name);
            assert!(is_whole(&s), "{name}: {s:?}");
        }
    }
}
