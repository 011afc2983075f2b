//! How `name::dist` runs a program over sequences: each rank streams its
//! own part of every sequence parameter, and the sequence is the ranks'
//! parts one after the other, in rank order (as a distributed array's rows
//! are its ranks' blocks).
//!
//! A program whose result is a fold of its streams' elements with a
//! recognised operation from its identity (`sum`, `product`, `minimum`,
//! `maximum`, `fold(0, |a, b| a + b)`, ..) runs on each rank's parts as it
//! is, chunked and lifted as on one machine, and the ranks' values are
//! combined in rank order ([`Split::SeqFold`]); a `collect` or a
//! `tabulate` keeps each rank's values where they are computed, as its
//! rows of a distributed array ([`Split::SeqCollect`]). Anything else runs on the whole
//! sequence on every rank, each rank's elements sent to every rank as the
//! program pulls them ([`Split::SeqWhole`]): always correct, and memory
//! still holds about a chunk of each stream.

use super::{fold_op, is_identity, lit, Split};
use crate::front::Program;
use crate::ir::{Expr, Scalar, SeqOp, Ty, VarId, H};
use std::collections::HashMap;

/// How `dist` runs `program`, which has a sequence parameter.
pub(super) fn split(program: &Program) -> Split {
    match root(program) {
        Ok(s) => s,
        Err(why) => Split::SeqWhole { why },
    }
}

fn root(program: &Program) -> Result<Split, String> {
    let arena = &program.arena;
    let mut lets: HashMap<VarId, H> = HashMap::new();
    let mut h = program.body;
    while let Expr::Scalar(Scalar::Let { var, value, body }) = arena.expr(h) {
        lets.insert(*var, *value);
        h = *body;
    }
    let leaves = |s: H| {
        let mut streams = Vec::new();
        leaves(program, &lets, s, &mut streams)?;
        streams.sort_unstable();
        streams.dedup();
        Ok::<_, String>(streams)
    };
    match arena.expr(h) {
        Expr::Seq(SeqOp::Fold {
            f,
            z,
            s,
            flatten: false,
        }) if matches!(program.result, Ty::Array(_, 0)) && !arena.ty(*z).is_array() => {
            let op = fold_op(program, f)
                .ok_or("a fold of the sequence whose operation is not a recognised associative one")?;
            if !is_identity(op, lit(program, *z)) {
                return Err(
                    "a fold of the sequence whose initial value is not its operation's identity".into(),
                );
            }
            Ok(Split::SeqFold {
                op,
                streams: leaves(*s)?,
            })
        }
        Expr::Seq(SeqOp::Collect { s, tabulate }) => Ok(Split::SeqCollect {
            streams: leaves(*s)?,
            tabulate: *tabulate,
        }),
        Expr::Seq(SeqOp::Fold { .. }) => Err("a fold of arrays, one element at a time".into()),
        _ => Err("the result is not a fold or a `collect` of the sequence".into()),
    }
}

/// The stream parameters (by index) that sequence `s` is computed from,
/// element by element: maps and zips of streams only. A sequence of an
/// array's slices is the same on every rank, so a fold of it would count
/// every slice once per rank.
fn leaves(program: &Program, lets: &HashMap<VarId, H>, s: H, out: &mut Vec<usize>) -> Result<(), String> {
    match program.arena.expr(s) {
        Expr::Scalar(Scalar::Var(v)) => {
            if let Some(k) = program.params.iter().position(|p| p.var == *v) {
                out.push(k);
                return Ok(());
            }
            match lets.get(v) {
                Some(value) => leaves(program, lets, *value, out),
                None => Err("a sequence out of scope".into()),
            }
        }
        Expr::Seq(SeqOp::Map { s, .. }) => leaves(program, lets, *s, out),
        Expr::Seq(SeqOp::Zip { a, b, .. }) => {
            leaves(program, lets, *a, out)?;
            leaves(program, lets, *b, out)
        }
        Expr::Seq(SeqOp::Slices { .. }) => Err("a sequence of an array's slices".into()),
        _ => Err("a sequence computed otherwise than by maps and zips of streams".into()),
    }
}
