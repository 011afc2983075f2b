//! What the `name::dist` entries that `accel!` generates call: a program
//! over block-distributed arrays, run SPMD as the compiler decided
//! (`accel_core::dist::Split`): on each rank's blocks of rows (with halos,
//! [`Halo`] and [`splice`], for stencils), as a fold or a scan whose ranks'
//! values are combined in rank order ([`fold`], [`scan`]), or whole on
//! every rank ([`own_rows`], [`agreed`]).

use super::array::{blocks, put_shape, take_shape};
use super::wire::{put_elems, put_u64, take_elems, take_u64, take_usize};
use super::{dist_error, Comm, CommExt, DistArray, WireColumns};
use crate::array::Array;
use crate::elem::{Columns, Elem};
use crate::error::{Error, ErrorKind, Result};
use crate::seq::{self, Stream};
use rayon::prelude::*;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

/// Whether distributed arrays with these numbers of rows can run by rows:
/// they have the same number, so their blocks line up once laid out alike
/// (a zip of blocks is then a block of the zip).
pub fn same_rows(rows: &[usize]) -> bool {
    rows.windows(2).all(|w| w[0] == w[1])
}

/// `a` laid out in the blocks `starts` (itself when it already is).
pub fn aligned<'a, T: Elem, const R: usize>(
    a: &'a DistArray<T, R>,
    starts: &[usize],
) -> Result<Cow<'a, DistArray<T, R>>>
where
    T::Columns: WireColumns,
{
    if a.starts() == starts {
        Ok(Cow::Borrowed(a))
    } else {
        a.laid_out(starts).map(Cow::Owned)
    }
}

/// The distributed array whose block on each rank is `part`: the program's
/// result on that rank's blocks. Only the parts' shapes cross ranks.
pub fn rows<T: Elem, const R: usize>(
    comm: &Arc<dyn Comm>,
    part: Result<Array<T, R>>,
) -> Result<DistArray<T, R>>
where
    T::Columns: WireColumns,
{
    DistArray::from_parts(comm, part)
}

/// A fold's value: each rank's (`None` for a rank with no rows; the fold
/// of its blocks otherwise) combined in rank order by `f`, the same on
/// every rank. `None` when no rank has rows.
pub fn fold<T: Elem>(
    comm: &Arc<dyn Comm>,
    partial: Result<Option<Array<T, 0>>>,
    f: impl Fn(T, T) -> T,
) -> Result<Option<Array<T, 0>>>
where
    T::Columns: WireColumns,
{
    let value = partial.and_then(|p| p.map(|s| scalar_value(&s)).transpose());
    Ok(comm.combine_in_order(value, f)?.map(Array::new))
}

/// An inclusive left scan by `f` of a vector over rows, from each rank's
/// scan of its block (`part`): the combination of the totals of the ranks
/// before it (one value per rank crosses) is combined into each element.
pub fn scan<U: Elem>(
    comm: &Arc<dyn Comm>,
    part: Result<Array<U, 1>>,
    f: impl Fn(U, U) -> U + Sync,
) -> Result<DistArray<U, 1>>
where
    U::Columns: WireColumns,
{
    let total = part
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|s| Ok(s.try_columns()?.get(s.len().wrapping_sub(1)).map(U::from_repr)));
    let offset = comm.exclusive_scan(total, &f)?;
    let part = part.and_then(|s| match offset {
        None => Ok(s),
        Some(o) => {
            let elems: Vec<U> = U::columns_to_vec(s.try_columns()?)
                .into_par_iter()
                .map(|x| f(o, x))
                .collect();
            Array::from_columns(s.shape(), U::columns_from_vec(elems))
        }
    });
    DistArray::from_parts(comm, part)
}

/// The whole program's array result, computed alike on every rank: each
/// keeps the rows of its block (`blocks`). Nothing crosses ranks but
/// shapes.
pub fn own_rows<T: Elem, const R: usize>(
    comm: &Arc<dyn Comm>,
    whole: Result<Array<T, R>>,
) -> Result<DistArray<T, R>>
where
    T::Columns: WireColumns,
{
    let part = whole.and_then(|w| {
        let starts = blocks(w.shape()[0], comm.size());
        let me = comm.rank();
        rows_of(&w, starts[me]..starts[me + 1])
    });
    DistArray::from_parts(comm, part)
}

/// Rows `range` of `a`.
pub fn rows_of<T: Elem, const R: usize>(a: &Array<T, R>, range: Range<usize>) -> Result<Array<T, R>> {
    let mut shape = a.shape();
    if range.end > shape[0] {
        return Err(dist_error(
            "dist",
            format!("rows {range:?} of a result of shape {shape:?}"),
        ));
    }
    let row = shape[1..].iter().product::<usize>();
    let mut cols = T::Columns::with_capacity(range.len() * row);
    cols.extend_from(a.try_columns()?, range.start * row..range.end * row);
    shape[0] = range.len();
    Array::from_columns(shape, cols)
}

/// The whole program's scalar result, computed on every rank: rank 0's, on
/// every rank (a GPU rank and a CPU rank may round a float apart).
pub fn agreed<T: Elem>(comm: &Arc<dyn Comm>, v: Result<Array<T, 0>>) -> Result<Array<T, 0>>
where
    T::Columns: WireColumns,
{
    let mine = v.and_then(|s| scalar_value(&s)).map(Some);
    let all = comm.all_values(mine)?;
    Ok(Array::new(all[0].unwrap_or_default()))
}

/// The value of a rank-0 array, brought to the host if it is on a device.
fn scalar_value<T: Elem>(s: &Array<T, 0>) -> Result<T> {
    Ok(s.try_columns()?.get(0).map(T::from_repr).unwrap_or_default())
}

/// A rank's block of a distributed array with the rows around it that a
/// program with stencils reaches (a halo, from the neighbours), for
/// windows of rows across the block's edges: `[above | own | below]`.
pub struct Halo<'a, T: Elem, const R: usize> {
    block: &'a Array<T, R>,
    above: T::Columns,
    below: T::Columns,
    row: usize,
}

impl<'a, T: Elem, const R: usize> Halo<'a, T, R>
where
    T::Columns: WireColumns,
{
    /// Up to `reach` rows on each side (fewer at the array's edges; none
    /// for an empty block or rows of no elements). Every rank calls it.
    pub fn new(a: &'a DistArray<T, R>, reach: usize) -> Result<Self> {
        let (above, below) = a.halos(reach, reach)?;
        let row = a.shape()[1..].iter().product::<usize>();
        Ok(Halo {
            block: a.part(),
            above,
            below,
            row,
        })
    }

    /// The number of rows above the block.
    pub fn above(&self) -> usize {
        self.above.len().checked_div(self.row).unwrap_or(0)
    }

    /// The number of rows below the block.
    pub fn below(&self) -> usize {
        self.below.len().checked_div(self.row).unwrap_or(0)
    }

    /// Rows `range` of `[above | own | below]`, as one array. Rows of no
    /// elements need no data: any range.
    pub fn window(&self, range: Range<usize>) -> Result<Array<T, R>> {
        let mut shape = self.block.shape();
        shape[0] = range.len();
        let mut cols = T::Columns::with_capacity(range.len() * self.row);
        if self.row > 0 {
            let own = self.block.try_columns()?;
            let mut first = 0;
            for part in [&self.above, own, &self.below] {
                let rows = part.len() / self.row;
                let (lo, hi) = (range.start.max(first), range.end.min(first + rows));
                if lo < hi {
                    cols.extend_from(part, (lo - first) * self.row..(hi - first) * self.row);
                }
                first += rows;
            }
            if range.end > first {
                return Err(dist_error(
                    "dist",
                    format!("rows {range:?} of a block with its halos of {first} rows"),
                ));
            }
        }
        Array::from_columns(shape, cols)
    }
}

/// `out` (the program's result on a block) with its `rows.len()` rows from
/// `at` replaced by rows `rows` of `fix` (its result on a window across
/// the block's edge, right where `out` is not).
pub fn splice<U: Elem, const Q: usize>(
    out: Array<U, Q>,
    at: usize,
    fix: &Array<U, Q>,
    rows: Range<usize>,
) -> Result<Array<U, Q>> {
    let shape = out.shape();
    let row = shape[1..].iter().product::<usize>();
    if at + rows.len() > shape[0] || rows.end > fix.shape()[0] || fix.shape()[1..] != shape[1..] {
        return Err(dist_error(
            "dist",
            format!(
                "rows {rows:?} of a result of shape {:?} into rows from {at} of one of shape {shape:?}",
                fix.shape()
            ),
        ));
    }
    let src = fix.try_columns()?;
    let mut cols = out.into_columns();
    super::array::overwrite(&mut cols, at * row, src, rows.start * row..rows.end * row);
    Array::from_columns(shape, cols)
}

/// A fold over sequences by parts: each rank's value (the program on its
/// parts, from the fold's identity) combined in rank order by `f`, the same
/// on every rank.
pub fn seq_fold<T: Elem>(
    comm: &Arc<dyn Comm>,
    v: Result<Array<T, 0>>,
    f: impl Fn(T, T) -> T,
) -> Result<Array<T, 0>>
where
    T::Columns: WireColumns,
{
    let value = v.and_then(|s| scalar_value(&s)).map(Some);
    Ok(Array::new(comm.combine_in_order(value, f)?.unwrap_or_default()))
}

/// The distributed array whose block on each rank is `part`, a `tabulate`
/// of that rank's part of a sequence: a rank with no elements has extents
/// 0 (it saw no element shape), so it takes the element shape of the first
/// rank with elements. Elements of other shapes on another rank are a
/// `ShapeMismatch` error, as in one `tabulate`.
pub fn stacked<T: Elem, const R: usize>(
    comm: &Arc<dyn Comm>,
    part: Result<Array<T, R>>,
) -> Result<DistArray<T, R>>
where
    T::Columns: WireColumns,
{
    let mine = part.as_ref().map_err(Clone::clone).map(|a| {
        let mut m = Vec::new();
        put_shape(&a.shape(), &mut m);
        m
    });
    let shapes = comm
        .gather_all(mine)?
        .iter()
        .map(|m| take_shape::<R>(&mut &m[..]))
        .collect::<Result<Vec<_>>>()?;
    let part = part.and_then(|a| match shapes.iter().find(|s| s[0] > 0) {
        Some(first) if a.shape()[0] == 0 => {
            let mut shape = *first;
            shape[0] = 0;
            Array::from_columns(shape, T::Columns::with_capacity(0))
        }
        _ => Ok(a),
    });
    DistArray::from_parts(comm, part)
}

/// `value` (the program on this rank's parts of zipped streams) when every
/// rank's parts of them were of one length, but for the last rank with
/// elements: then the zip of each rank's parts is that rank's share of the
/// zip of the whole sequences. `parts`: each stream's name and tally.
/// Every rank returns an error alike (a `ShapeMismatch` naming the first
/// uneven rank), or each its value.
pub fn zipped<X>(
    comm: &Arc<dyn Comm>,
    value: Result<X>,
    parts: &[(&str, Result<(usize, bool)>)],
) -> Result<X> {
    let (mine, value) = match value {
        Err(e) => (Err(e), None),
        Ok(v) => {
            let mine = parts.iter().try_fold(Vec::new(), |mut m, (_, p)| {
                let (given, more) = p.clone()?;
                put_u64(&mut m, given as u64);
                m.push(more as u8);
                Ok(m)
            });
            (mine, Some(v))
        }
    };
    // Each rank's (given, more) of each stream.
    let lengths = |mut m: &[u8]| -> Result<Vec<(u64, bool)>> {
        (0..parts.len())
            .map(|_| {
                let given = take_u64(&mut m)?;
                let (&more, rest) = m
                    .split_first()
                    .ok_or_else(|| dist_error("dist", "a tally cut short"))?;
                m = rest;
                Ok((given, more == 1))
            })
            .collect()
    };
    let all = comm
        .gather_all(mine)?
        .iter()
        .map(|m| lengths(m))
        .collect::<Result<Vec<_>>>()?;
    let even = |ls: &[(u64, bool)]| ls.iter().all(|l| *l == ls[0] && !l.1);
    let any = |ls: &[(u64, bool)]| ls.iter().any(|l| l.0 > 0 || l.1);
    let last = all.iter().rposition(|ls| any(ls)).unwrap_or(0);
    if let Some(r) = all[..last].iter().position(|ls| !even(ls)) {
        let each: Vec<String> = parts
            .iter()
            .zip(&all[r])
            .map(|((name, _), (n, more))| format!("`{name}` {n}{}", if *more { " or more" } else { "" }))
            .collect();
        return Err(Error::with_kind(
            ErrorKind::ShapeMismatch,
            "dist",
            format!(
                "rank {r}'s parts of zipped streams differ in length ({}): a zip over ranks pairs the ranks' parts in rank order, so each rank but the last with elements must give parts of one length",
                each.join(", ")
            ),
        ));
    }
    value.ok_or_else(|| dist_error("dist", "no value (a bug in accel)"))
}

/// The whole sequence whose parts the ranks stream (rank 0's elements, then
/// rank 1's, ..), on every rank: each rank sends its elements to every rank
/// in batches of chunks of about a million values, as the program pulls
/// them, so memory holds about a batch whatever the length. Every rank's
/// program must pull alike (it does: the same program on the same
/// sequence), and every rank, the sender too, takes the batch from the
/// message, so all make the same collectives.
pub fn whole_stream<'a, T: Elem, const R: usize, const R1: usize>(
    comm: &Arc<dyn Comm>,
    mut own: Stream<'a, T, R>,
) -> Stream<'a, T, R>
where
    T::Columns: WireColumns,
{
    /// Array values (or elements, for empty ones) per batch.
    const BATCH: usize = 1 << 20;
    let comm = Arc::clone(comm);
    let mut turn = 0;
    let mut batch: std::collections::VecDeque<Array<T, R1>> = Default::default();
    let next_batch = |own: &mut Stream<'a, T, R>| -> Result<Vec<u8>> {
        let mut m = Vec::new();
        let (mut values, mut rows) = (0, 0);
        while values < BATCH && rows < BATCH {
            match seq::next_chunk::<T, R, R1>(own, 0, BATCH - values)? {
                None => break,
                Some(c) => {
                    values += c.len();
                    rows += c.shape()[0];
                    encode(c, &mut m)?;
                }
            }
        }
        Ok(m)
    };
    let chunks = std::iter::from_fn(move || {
        while batch.is_empty() && turn < comm.size() {
            let mine = if comm.rank() == turn {
                next_batch(&mut own)
            } else {
                Ok(Vec::new())
            };
            let got = comm.gather_all(mine).and_then(|mut got| {
                let m = std::mem::take(&mut got[turn]);
                let mut m = &m[..];
                while !m.is_empty() {
                    batch.push_back(decode::<T, R1>(&mut m)?);
                }
                Ok(())
            });
            if let Err(e) = got {
                turn = comm.size();
                batch.clear();
                return Some(Err(e));
            }
            // An empty batch: this rank's part has ended.
            if batch.is_empty() {
                turn += 1;
            }
        }
        batch.pop_front().map(Ok)
    });
    Stream::fallible_chunks(chunks)
}

/// Appends a chunk's shape and values to `m`.
fn encode<T: Elem, const R1: usize>(a: Array<T, R1>, m: &mut Vec<u8>) -> Result<()>
where
    T::Columns: WireColumns,
{
    for d in a.shape() {
        put_u64(m, d as u64);
    }
    put_elems(a.try_columns()?, 0..a.len(), m);
    Ok(())
}

/// The chunk at the front of `m`.
fn decode<T: Elem, const R1: usize>(m: &mut &[u8]) -> Result<Array<T, R1>>
where
    T::Columns: WireColumns,
{
    let mut shape = [0; R1];
    for d in &mut shape {
        *d = take_usize(m)?;
    }
    Array::from_columns(shape, take_elems(m)?)
}
