//! Arrays block-distributed over their outermost dimension, and the
//! operations whose communication that layout decides.
//!
//! Rank `r` holds rows `starts[r]..starts[r + 1]` (with the rest of each
//! row) as an ordinary [`Array`], on whatever backend computed it, so any
//! accel program runs on a block as it is. What crosses ranks:
//! - maps, zips and generates over blocks: nothing ([`DistArray::map_part`],
//!   [`DistArray::zip_part`]);
//! - a fold to one value: one value per rank, combined in rank order
//!   ([`DistArray::fold_parts`]);
//! - a scan of a vector: one total per rank ([`DistArray::scan_parts`]);
//!   scans of higher ranks run along rows, within blocks;
//! - a stencil: the neighbouring rows it reads ([`DistArray::rows_around`]);
//! - a permute: (target, value) pairs to the target's owner
//!   ([`DistArray::permute_from`]); a backpermute: the indices it reads to
//!   their owners and the values back ([`DistArray::backpermute`]).

use super::wire::{put_elems, put_u64, take_elems, take_usize, WireColumns};
use super::{dist_error, Comm, CommExt, SharedComm};
use crate::array::Array;
use crate::elem::{Columns, Elem};
use crate::error::{Error, ErrorKind, Result};
use crate::shape;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::Arc;

/// The first row of each of `p` blocks of `n` rows, and `n`: as equal as can
/// be, the longer blocks first.
pub fn blocks(n: usize, p: usize) -> Vec<usize> {
    let p = p.max(1);
    (0..=p)
        .map(|r| (n as u128 * r as u128).div_ceil(p as u128) as usize)
        .collect()
}

/// An array of rank `R >= 1` whose rows are spread over the ranks of a
/// communicator, each rank holding one contiguous block of them.
#[derive(Clone, Debug)]
pub struct DistArray<T: Elem, const R: usize> {
    comm: Arc<dyn Comm>,
    shape: [usize; R],
    /// `starts[r]..starts[r + 1]`: the rows of rank `r`.
    starts: Arc<[usize]>,
    part: Array<T, R>,
}

/// The number of elements in a row (all but the outermost extent).
fn row_len(shape: &[usize]) -> usize {
    shape::size(&shape[1..])
}

/// The rank whose block holds row `row` (below `starts`' last entry).
fn owner(starts: &[usize], row: usize) -> usize {
    starts.partition_point(|&s| s <= row) - 1
}

pub(super) fn put_shape(shape: &[usize], out: &mut Vec<u8>) {
    shape.iter().for_each(|&e| put_u64(out, e as u64));
}

pub(super) fn take_shape<const R: usize>(bytes: &mut &[u8]) -> Result<[usize; R]> {
    let mut s = [0; R];
    for e in &mut s {
        *e = take_usize(bytes)?;
    }
    Ok(s)
}

/// Columns made of the parts in `pieces`, in order.
fn concat<C: Columns>(pieces: Vec<C>) -> C {
    match <[C; 1]>::try_from(pieces) {
        Ok([one]) => one,
        Err(pieces) => {
            let mut out = C::with_capacity(pieces.iter().map(|c| c.len()).sum());
            for c in &pieces {
                out.extend_from(c, 0..c.len());
            }
            out
        }
    }
}

/// Writes elements `range` of `src` over `dst`'s from element `at` on
/// (within `dst`).
pub(super) fn overwrite<C: Columns>(dst: &mut C, at: usize, src: &C, range: Range<usize>) {
    assert!(at + range.len() <= dst.len(), "rows written within the block");
    let out = dst.out_ptr();
    for (k, i) in range.enumerate() {
        if let Some(v) = src.get(i) {
            // SAFETY: `at + k` is below `dst`'s length (asserted above), and
            // this thread alone writes `dst` (borrowed mutably).
            unsafe { C::write(out, at + k, v) }
        }
    }
}

fn rank_zero<const R: usize>(op: &str) -> Result<()> {
    if R == 0 {
        return Err(Error::new(
            op,
            "a scalar cannot be distributed: distributed arrays have rank 1 or more",
        ));
    }
    Ok(())
}

impl<T: Elem, const R: usize> DistArray<T, R>
where
    T::Columns: WireColumns,
{
    /// The array `whole` of rank `root`, spread over all ranks in equal
    /// blocks. Every rank calls it; the others' `whole` is not read.
    pub fn scatter_from(comm: &impl SharedComm, root: usize, whole: Option<&Array<T, R>>) -> Result<Self> {
        rank_zero::<R>("scatter_from")?;
        let comm = comm.to_dyn();
        let p = comm.size();
        if root >= p {
            return Err(Error::new(
                "scatter_from",
                format!("root {root} is not a rank of {p}"),
            ));
        }
        let send = if comm.rank() != root {
            Ok(vec![Vec::new(); p])
        } else {
            whole
                .ok_or_else(|| {
                    Error::new(
                        "scatter_from",
                        format!("rank {root}, the root, has no array to scatter"),
                    )
                })
                .and_then(|a| {
                    let (shape, cols) = (a.shape(), a.try_columns()?);
                    let (starts, rl) = (blocks(shape[0], p), row_len(&shape));
                    Ok((0..p)
                        .map(|j| {
                            let mut m = Vec::new();
                            put_shape(&shape, &mut m);
                            put_elems(cols, starts[j] * rl..starts[j + 1] * rl, &mut m);
                            m
                        })
                        .collect())
                })
        };
        let got = comm.exchange(send)?;
        let mut m = &got[root][..];
        let shape = take_shape::<R>(&mut m)?;
        let starts = blocks(shape[0], p);
        let me = comm.rank();
        let mut part_shape = shape;
        part_shape[0] = starts[me + 1] - starts[me];
        let part = Array::from_columns(part_shape, take_elems(&mut m)?)?;
        Ok(DistArray {
            comm: comm.clone(),
            shape,
            starts: starts.into(),
            part,
        })
    }

    /// The distributed array whose block on each rank is that rank's `part`,
    /// in rank order. Parts may have any number of rows; the rest of their
    /// shapes must agree (`ShapeMismatch` on every rank otherwise).
    pub fn local(comm: &impl SharedComm, part: Array<T, R>) -> Result<Self> {
        Self::from_parts(&comm.to_dyn(), Ok(part))
    }

    /// [`DistArray::local`] of a part that may have failed to compute.
    pub(super) fn from_parts(comm: &Arc<dyn Comm>, part: Result<Array<T, R>>) -> Result<Self> {
        rank_zero::<R>("DistArray::local")?;
        let mine = part.as_ref().map(|a| {
            let mut m = Vec::new();
            put_shape(&a.shape(), &mut m);
            m
        });
        let shapes = comm
            .gather_all(mine.map_err(Clone::clone))?
            .iter()
            .map(|m| take_shape::<R>(&mut &m[..]))
            .collect::<Result<Vec<_>>>()?;
        let part = part?;
        if let Some((r, s)) = shapes.iter().enumerate().find(|(_, s)| s[1..] != shapes[0][1..]) {
            return Err(Error::with_kind(
                ErrorKind::ShapeMismatch,
                "DistArray::local",
                format!(
                    "rank {r}'s part has shape {s:?}, rank 0's {:?}: all but their rows must agree",
                    shapes[0]
                ),
            ));
        }
        let mut starts = vec![0];
        for s in &shapes {
            starts.push(starts.last().copied().unwrap_or(0) + s[0]);
        }
        let mut shape = shapes[0];
        shape[0] = starts[shapes.len()];
        Ok(DistArray {
            comm: comm.clone(),
            shape,
            starts: starts.into(),
            part,
        })
    }

    /// The whole array on rank `root` (`None` on the others).
    pub fn gather_to(&self, root: usize) -> Result<Option<Array<T, R>>> {
        let p = self.comm.size();
        if root >= p {
            return Err(Error::new(
                "gather_to",
                format!("root {root} is not a rank of {p}"),
            ));
        }
        let send = self.part.try_columns().map(|cols| {
            let mut msgs = vec![Vec::new(); p];
            put_elems(cols, 0..self.part.len(), &mut msgs[root]);
            msgs
        });
        let got = self.comm.exchange(send)?;
        if self.comm.rank() != root {
            return Ok(None);
        }
        self.assemble(got).map(Some)
    }

    /// The whole array, on every rank.
    pub fn to_array(&self) -> Result<Array<T, R>> {
        let mine = self.part.try_columns().map(|cols| {
            let mut m = Vec::new();
            put_elems(cols, 0..self.part.len(), &mut m);
            m
        });
        let got = self.comm.gather_all(mine)?;
        self.assemble(got)
    }

    fn assemble(&self, blocks: Vec<Vec<u8>>) -> Result<Array<T, R>> {
        let pieces = blocks
            .iter()
            .map(|m| take_elems::<T::Columns>(&mut &m[..]))
            .collect::<Result<Vec<_>>>()?;
        Array::from_columns(self.shape, concat(pieces))
    }

    /// `f` (any accel program, on any local backend) on this rank's block;
    /// its results, in rank order, are the blocks of the result. Nothing
    /// crosses ranks but the result's shape.
    pub fn map_part<U: Elem, const Q: usize>(
        &self,
        f: impl FnOnce(&Array<T, R>) -> Result<Array<U, Q>>,
    ) -> Result<DistArray<U, Q>>
    where
        U::Columns: WireColumns,
    {
        DistArray::from_parts(&self.comm, f(&self.part))
    }

    /// `f` on this rank's blocks of `self` and `other`. `other` is first laid
    /// out as `self` is, where it is not (rows beyond `self`'s are not sent:
    /// a zip stops at the shorter array).
    pub fn zip_part<U: Elem, V: Elem, const Q: usize>(
        &self,
        other: &DistArray<U, R>,
        f: impl FnOnce(&Array<T, R>, &Array<U, R>) -> Result<Array<V, Q>>,
    ) -> Result<DistArray<V, Q>>
    where
        U::Columns: WireColumns,
        V::Columns: WireColumns,
    {
        let n = other.shape[0];
        let starts: Vec<usize> = self.starts.iter().map(|&s| s.min(n)).collect();
        let moved;
        let other = if starts[..] == other.starts[..] {
            other
        } else {
            moved = other.laid_out(&starts)?;
            &moved
        };
        DistArray::from_parts(&self.comm, f(&self.part, &other.part))
    }

    /// The same rows laid out in the blocks `starts` (one more than the
    /// ranks, non-decreasing from 0, the last at most the number of rows):
    /// rank `r` gets rows `starts[r]..starts[r + 1]`; rows from the last
    /// start on are dropped.
    pub fn laid_out(&self, starts: &[usize]) -> Result<Self> {
        let p = self.comm.size();
        let ok = starts.len() == p + 1
            && starts[0] == 0
            && starts.windows(2).all(|w| w[0] <= w[1])
            && starts[p] <= self.shape[0];
        if !ok {
            return Err(dist_error(
                "laid_out",
                format!(
                    "{starts:?} are no blocks of {} rows over {p} ranks",
                    self.shape[0]
                ),
            ));
        }
        let mine = self.rows();
        let rl = row_len(&self.shape);
        let send = self.part.try_columns().map(|cols| {
            (0..p)
                .map(|j| {
                    let (lo, hi) = (starts[j].max(mine.start), starts[j + 1].min(mine.end));
                    let mut m = Vec::new();
                    if lo < hi {
                        put_elems(cols, (lo - mine.start) * rl..(hi - mine.start) * rl, &mut m);
                    }
                    m
                })
                .collect()
        });
        let got = self.comm.exchange(send)?;
        let pieces = got
            .iter()
            .filter(|m| !m.is_empty())
            .map(|m| take_elems::<T::Columns>(&mut &m[..]))
            .collect::<Result<Vec<_>>>()?;
        let me = self.comm.rank();
        let (mut shape, mut part_shape) = (self.shape, self.shape);
        shape[0] = starts[p];
        part_shape[0] = starts[me + 1] - starts[me];
        let part = Array::from_columns(part_shape, concat(pieces))?;
        Ok(DistArray {
            comm: self.comm.clone(),
            shape,
            starts: starts.into(),
            part,
        })
    }

    /// This rank's block with up to `before` rows above it and `after` rows
    /// below it (fewer at the array's edges), from whichever ranks hold
    /// them: what a stencil reaching that far needs. Also returns the
    /// number of rows above the block. A rank with an empty block gets none.
    pub fn rows_around(&self, before: usize, after: usize) -> Result<(Array<T, R>, usize)> {
        let (above, below) = self.halos(before, after)?;
        if above.is_empty() && below.is_empty() {
            // Nothing around the block: the block itself, not a copy.
            return Ok((self.part.clone(), 0));
        }
        let own = self.part.try_columns()?;
        let rl = row_len(&self.shape);
        let mut cols = T::Columns::with_capacity(above.len() + own.len() + below.len());
        for c in [&above, own, &below] {
            cols.extend_from(c, 0..c.len());
        }
        let mut shape = self.shape;
        shape[0] = cols.len() / rl;
        Ok((Array::from_columns(shape, cols)?, above.len() / rl))
    }

    /// The rows above this rank's block (up to `before` of them, from lower
    /// ranks) and below it (up to `after`), as columns; none for an empty
    /// block or rows of no elements.
    pub(super) fn halos(&self, before: usize, after: usize) -> Result<(T::Columns, T::Columns)> {
        let (p, me, n) = (self.comm.size(), self.comm.rank(), self.shape[0]);
        let rl = row_len(&self.shape);
        let window = |j: usize| {
            let (s, e) = (self.starts[j], self.starts[j + 1]);
            if s == e || rl == 0 {
                s..s
            } else {
                s.saturating_sub(before)..e.saturating_add(after).min(n)
            }
        };
        let mine = self.rows();
        let send = self.part.try_columns().map(|cols| {
            (0..p)
                .map(|j| {
                    let w = window(j);
                    let (lo, hi) = (w.start.max(mine.start), w.end.min(mine.end));
                    let mut m = Vec::new();
                    if j != me && lo < hi {
                        put_elems(cols, (lo - mine.start) * rl..(hi - mine.start) * rl, &mut m);
                    }
                    m
                })
                .collect()
        });
        let got = self.comm.exchange(send)?;
        let mut halves = [T::Columns::with_capacity(0), T::Columns::with_capacity(0)];
        for (j, m) in got.iter().enumerate() {
            if j != me && !m.is_empty() {
                let rows = take_elems::<T::Columns>(&mut &m[..])?;
                let side = &mut halves[(j > me) as usize];
                side.extend_from(&rows, 0..rows.len());
            }
        }
        let [above, below] = halves;
        Ok((above, below))
    }

    /// A stencil reaching `reach` rows up and down: `f` (an accel program
    /// with a stencil) runs on this rank's block, and again on the few rows
    /// at each edge of the block with the rows beyond it from the
    /// neighbouring ranks (a halo), whose results replace the edge rows.
    /// The result is the whole array's for boundaries that look only at the
    /// array's own edge (`Clamp`, `Mirror`, `Constant`), not `Wrap`. (A
    /// block of fewer than `2 reach` rows runs `f` once, on the block with
    /// its halos.)
    pub fn stencil_parts<U: Elem>(
        &self,
        reach: usize,
        f: impl Fn(&Array<T, R>) -> Result<Array<U, R>>,
    ) -> Result<DistArray<U, R>>
    where
        U::Columns: WireColumns,
    {
        let rows = self.rows().len();
        let rl = row_len(&self.shape);
        // `f` of `input`, checked to keep its shape.
        let stencil = |input: &Array<T, R>| {
            let out = f(input)?;
            if out.shape() != input.shape() {
                return Err(Error::with_kind(
                    ErrorKind::ShapeMismatch,
                    "stencil_parts",
                    format!(
                        "the stencil of shape {:?} has shape {:?}",
                        input.shape(),
                        out.shape()
                    ),
                ));
            }
            Ok(out)
        };
        // The rows `r` of each of `parts`, in order, as one array.
        let joined = |parts: &[(&T::Columns, Range<usize>)]| {
            let mut cols = T::Columns::with_capacity(parts.iter().map(|(_, r)| r.len() * rl).sum());
            for (c, r) in parts {
                cols.extend_from(c, r.start * rl..r.end * rl);
            }
            let mut shape = self.shape;
            shape[0] = cols.len() / rl;
            Array::from_columns(shape, cols)
        };
        let part = self.halos(reach, reach).and_then(|(above, below)| {
            let (na, nb) = (above.len() / rl.max(1), below.len() / rl.max(1));
            if rows < 2 * reach && rl > 0 {
                let own = self.part.try_columns()?;
                let out = stencil(&joined(&[(&above, 0..na), (own, 0..rows), (&below, 0..nb)])?)?;
                let mut cols = U::Columns::with_capacity(rows * rl);
                cols.extend_from(out.try_columns()?, na * rl..(na + rows) * rl);
                let mut shape = self.part.shape();
                shape[0] = rows;
                return Array::from_columns(shape, cols);
            }
            // The block's own stencil is right but within `reach` of an edge
            // that has a halo.
            let out = stencil(&self.part)?;
            if na == 0 && nb == 0 {
                return Ok(out);
            }
            let (shape, own) = (out.shape(), self.part.try_columns()?);
            let mut cols = out.into_columns();
            if na > 0 {
                let top = stencil(&joined(&[(&above, 0..na), (own, 0..2 * reach)])?)?;
                overwrite(&mut cols, 0, top.try_columns()?, na * rl..(na + reach) * rl);
            }
            if nb > 0 {
                let bottom = stencil(&joined(&[(own, rows - 2 * reach..rows), (&below, 0..nb)])?)?;
                overwrite(
                    &mut cols,
                    (rows - reach) * rl,
                    bottom.try_columns()?,
                    reach * rl..2 * reach * rl,
                );
            }
            Array::from_columns(shape, cols)
        });
        let part = self
            .comm
            .agree(part.as_ref().map(drop).map_err(Clone::clone))
            .and(part)?;
        Ok(DistArray {
            comm: self.comm.clone(),
            shape: self.shape,
            starts: self.starts.clone(),
            part,
        })
    }

    /// The fold of the whole array to one value: `partial` (an accel
    /// program) folds this rank's block, when it has elements, and the
    /// partial results are combined in rank order by `f` (associative, not
    /// assumed commutative). `None` when the array is empty. The same value
    /// on every rank.
    pub fn fold_parts<S: Elem>(
        &self,
        partial: impl FnOnce(&Array<T, R>) -> Result<S>,
        f: impl Fn(S, S) -> S,
    ) -> Result<Option<S>>
    where
        S::Columns: WireColumns,
    {
        let mine = if self.part.is_empty() {
            Ok(None)
        } else {
            partial(&self.part).map(Some)
        };
        self.comm.combine_in_order(mine, f)
    }

    /// The inclusive scan of the whole array by `f` (associative): for a
    /// vector, `local_scan` (an accel program) scans this rank's block, and
    /// `f` adds the combined totals of the blocks before it; for higher
    /// ranks, where scans run along rows, `local_scan` is all there is.
    pub fn scan_parts(
        &self,
        local_scan: impl FnOnce(&Array<T, R>) -> Result<Array<T, R>>,
        f: impl Fn(T, T) -> T + Sync,
    ) -> Result<Self> {
        if R > 1 {
            return self.map_part(local_scan);
        }
        let scanned = if self.part.is_empty() {
            Ok(self.part.clone())
        } else {
            local_scan(&self.part)
        };
        let scanned = scanned.and_then(|s| {
            if s.shape() != self.part.shape() {
                return Err(Error::with_kind(
                    ErrorKind::ShapeMismatch,
                    "scan_parts",
                    format!(
                        "the scan of a block of shape {:?} has shape {:?}",
                        self.part.shape(),
                        s.shape()
                    ),
                ));
            }
            Ok(s)
        });
        let total = scanned
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|s| Ok(s.try_columns()?.get(s.len().wrapping_sub(1)).map(T::from_repr)));
        let offset = self.comm.exclusive_scan(total, &f)?;
        let scanned = scanned?;
        let part = match offset {
            None => scanned,
            Some(o) => {
                let elems: Vec<T> = T::columns_to_vec(scanned.try_columns()?)
                    .into_par_iter()
                    .map(|x| f(o, x))
                    .collect();
                Array::from_columns(scanned.shape(), T::columns_from_vec(elems))?
            }
        };
        Ok(DistArray { part, ..self.clone() })
    }

    /// Accelerate's `permute`: `self` holds the defaults, and each element
    /// `x` of `source` at index `ix` gives `target(ix, x)`: nothing, or a
    /// target index and the value combined there as `combine(new, old)`.
    /// Each (target, value) pair travels to the target's owner, which
    /// applies them in rank order, then in the source's order: the same
    /// result for every number of ranks when `combine` is associative and
    /// commutative (within rounding for floats). A target outside the
    /// defaults' shape is an error on every rank.
    pub fn permute_from<U: Elem, const Q: usize>(
        &self,
        source: &DistArray<U, Q>,
        target: impl Fn([usize; Q], U) -> Option<([usize; R], T)> + Sync,
        combine: impl Fn(T, T) -> T,
    ) -> Result<Self> {
        let p = self.comm.size();
        let rl = row_len(&self.shape);
        // Each source element's owner, offset there and value, in parallel.
        let pairs = source.part.try_columns().and_then(|cols| {
            let base = source.rows().start * row_len(&source.shape);
            (0..source.part.len())
                .into_par_iter()
                .filter_map(|k| {
                    let x = U::from_repr(cols.get(k)?);
                    let (t, v) = target(shape::from_linear(&source.shape, base + k), x)?;
                    Some(match shape::to_linear_checked(&self.shape, &t) {
                        Some(l) => {
                            let j = owner(&self.starts, t[0]);
                            Ok((j as u32, (l - self.starts[j] * rl) as u64, v))
                        }
                        None => Err(Error::index_out_of_bounds("permute", &t, &self.shape)),
                    })
                })
                .collect::<Result<Vec<_>>>()
        });
        let send = pairs.map(|pairs| {
            let mut offsets = vec![Vec::<u64>::new(); p];
            let mut values = vec![Vec::<T>::new(); p];
            for (j, o, v) in pairs {
                offsets[j as usize].push(o);
                values[j as usize].push(v);
            }
            offsets
                .into_iter()
                .zip(values)
                .map(|(o, v)| {
                    let mut m = Vec::new();
                    put_elems(&o, 0..o.len(), &mut m);
                    put_elems(&T::columns_from_vec(v), 0..o.len(), &mut m);
                    m
                })
                .collect()
        });
        let got = self.comm.exchange(send)?;
        let mut out = T::columns_to_vec(self.part.try_columns()?);
        for m in &got {
            let mut b = &m[..];
            let offsets: Vec<u64> = take_elems(&mut b)?;
            let values: T::Columns = take_elems(&mut b)?;
            for (k, &o) in offsets.iter().enumerate() {
                let slot = out.get_mut(o as usize).ok_or_else(|| {
                    dist_error("permute", "a target outside this rank's block (a bug in accel)")
                })?;
                if let Some(v) = values.get(k).map(T::from_repr) {
                    *slot = combine(v, *slot);
                }
            }
        }
        let part = Array::from_columns(self.part.shape(), T::columns_from_vec(out))?;
        Ok(DistArray { part, ..self.clone() })
    }

    /// Accelerate's `backpermute`: the array of shape `shape` whose element
    /// at `ix` is `self`'s at `index(ix)`, laid out in equal blocks. Each
    /// rank sends the indices its block reads to their owners, and the
    /// values come back. An index outside `self` is an error on every rank.
    pub fn backpermute<const Q: usize>(
        &self,
        shape: [usize; Q],
        index: impl Fn([usize; Q]) -> [usize; R] + Sync,
    ) -> Result<DistArray<T, Q>> {
        rank_zero::<Q>("backpermute")?;
        let (p, me) = (self.comm.size(), self.comm.rank());
        let starts = blocks(shape[0], p);
        let out_rows = starts[me]..starts[me + 1];
        let rl_out = row_len(&shape);
        let rl = row_len(&self.shape);
        // Which rank each output element reads from, and where, in parallel.
        let reads = (out_rows.start * rl_out..out_rows.end * rl_out)
            .into_par_iter()
            .map(|l| {
                let src = index(shape::from_linear(&shape, l));
                match shape::to_linear_checked(&self.shape, &src) {
                    Some(sl) => {
                        let j = owner(&self.starts, src[0]);
                        Ok((j as u32, (sl - self.starts[j] * rl) as u64))
                    }
                    None => Err(Error::index_out_of_bounds("backpermute", &src, &self.shape)),
                }
            })
            .collect::<Result<Vec<_>>>();
        let requests = reads.as_ref().map_err(Clone::clone).map(|reads| {
            let mut req = vec![Vec::<u64>::new(); p];
            for &(j, o) in reads {
                req[j as usize].push(o);
            }
            req.into_iter()
                .map(|r| {
                    let mut m = Vec::new();
                    put_elems(&r, 0..r.len(), &mut m);
                    m
                })
                .collect()
        });
        let asked = self.comm.exchange(requests)?;
        let replies = self.part.try_columns().and_then(|cols| {
            asked
                .iter()
                .map(|m| {
                    let offsets: Vec<u64> = take_elems(&mut &m[..])?;
                    let values = offsets
                        .iter()
                        .map(|&o| {
                            cols.get(o as usize).map(T::from_repr).ok_or_else(|| {
                                dist_error(
                                    "backpermute",
                                    "a request outside this rank's block (a bug in accel)",
                                )
                            })
                        })
                        .collect::<Result<Vec<T>>>()?;
                    let mut m = Vec::new();
                    put_elems(&T::columns_from_vec(values), 0..offsets.len(), &mut m);
                    Ok(m)
                })
                .collect()
        });
        let answers = self
            .comm
            .exchange(replies)?
            .iter()
            .map(|m| take_elems::<T::Columns>(&mut &m[..]))
            .collect::<Result<Vec<_>>>()?;
        let mut next = vec![0usize; p];
        // `reads` is `Ok` here: an error went to every rank in `exchange`.
        let elems = reads?
            .iter()
            .map(|&(j, _)| {
                let j = j as usize;
                next[j] += 1;
                answers[j]
                    .get(next[j] - 1)
                    .map(T::from_repr)
                    .ok_or_else(|| dist_error("backpermute", "fewer answers than requests (a bug in accel)"))
            })
            .collect::<Result<Vec<T>>>()?;
        let mut part_shape = shape;
        part_shape[0] = out_rows.len();
        let part = Array::from_columns(part_shape, T::columns_from_vec(elems))?;
        Ok(DistArray {
            comm: self.comm.clone(),
            shape,
            starts: starts.into(),
            part,
        })
    }
}

impl<T: Elem, const R: usize> DistArray<T, R> {
    /// The shape of the whole array.
    pub fn shape(&self) -> [usize; R] {
        self.shape
    }

    /// This rank's block.
    pub fn part(&self) -> &Array<T, R> {
        &self.part
    }

    /// The rows of the whole array that this rank holds.
    pub fn rows(&self) -> Range<usize> {
        let me = self.comm.rank();
        self.starts[me]..self.starts[me + 1]
    }

    /// The first row of every rank's block, and the number of rows.
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }

    pub fn comm(&self) -> &Arc<dyn Comm> {
        &self.comm
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::LocalComm;

    /// Composition of affine maps `x -> a x + b` (wrapping): associative,
    /// not commutative, so any reordering shows.
    fn compose(f: (u64, u64), g: (u64, u64)) -> (u64, u64) {
        (f.0.wrapping_mul(g.0), f.1.wrapping_mul(g.0).wrapping_add(g.1))
    }

    fn affine(n: usize, cols: usize) -> Array<(u64, u64), 2> {
        Array::from_fn([n, cols], |[i, j]| {
            ((i * 7 + j) as u64 | 1, (i * 13 + j * 5) as u64)
        })
    }

    /// Runs `f` on every rank of worlds of 1 to 5 ranks, for arrays of each
    /// number of rows below 12 (fewer rows than ranks, empty blocks).
    fn each_world(f: impl Fn(&Arc<dyn Comm>, usize) + Sync) {
        for p in 1..=5 {
            for n in [0, 1, 2, 3, 4, 7, 11] {
                LocalComm::run(p, |c| f(&(c as Arc<dyn Comm>), n));
            }
        }
    }

    #[test]
    fn scatter_gather_and_layouts_round_trip() {
        each_world(|c, n| {
            let whole = affine(n, 3);
            let d = DistArray::scatter_from(c, 0, (c.rank() == 0).then_some(&whole)).unwrap();
            assert_eq!(d.shape(), [n, 3]);
            assert_eq!(d.part().shape()[0], d.rows().len());
            assert_eq!(d.to_array().unwrap(), whole);
            let back = d.gather_to(c.size() - 1).unwrap();
            assert_eq!(back.is_some(), c.rank() == c.size() - 1);
            if let Some(b) = back {
                assert_eq!(b, whole);
            }
            // Every block to the last rank, then the first half of the rows back
            // over all ranks: rows move between any two layouts.
            let mut last = vec![0; c.size()];
            last.push(n);
            let moved = d.laid_out(&last).unwrap();
            assert_eq!(moved.to_array().unwrap(), whole);
            let half = blocks(n / 2, c.size());
            let h = moved.laid_out(&half).unwrap();
            assert_eq!(h.shape(), [n / 2, 3]);
            assert_eq!(h.to_array().unwrap().to_vec(), whole.to_vec()[..n / 2 * 3]);
        });
    }

    #[test]
    fn local_parts_make_one_array() {
        for p in 1..=4 {
            LocalComm::run(p, |c| {
                let c = c as Arc<dyn Comm>;
                let r = c.rank();
                let part = Array::from_fn([r, 2], |[i, j]| (r * 100 + i * 2 + j) as i32);
                let d = DistArray::local(&c, part).unwrap();
                assert_eq!(d.shape(), [p * (p - 1) / 2, 2]);
                assert_eq!(d.rows(), r * (r.max(1) - 1) / 2..r * (r + 1) / 2);
                // Rows of different lengths do not make one array.
                let bad = Array::from_fn([1, 2 + (r == p - 1 && p > 1) as usize], |_| 0i32);
                let e = DistArray::local(&c, bad);
                assert_eq!(e.is_err(), p > 1);
            });
        }
    }

    #[test]
    fn folds_and_scans_keep_the_order_of_the_elements() {
        each_world(|c, n| {
            let whole = Array::from_fn([n], |[i]| ((i * 7) as u64 | 1, (i * 13 + 1) as u64));
            let d = DistArray::scatter_from(c, 0, Some(&whole)).unwrap();
            let seq = whole.to_vec();
            let fold = d
                .fold_parts(|b| Ok(b.to_vec().into_iter().reduce(compose).unwrap()), compose)
                .unwrap();
            assert_eq!(fold, seq.iter().copied().reduce(compose));
            let scanned = d
                .scan_parts(
                    |b| {
                        let mut acc = None;
                        let v = b
                            .to_vec()
                            .into_iter()
                            .map(|x| *acc.insert(acc.map_or(x, |a| compose(a, x))))
                            .collect();
                        Array::from_vec(b.shape(), v)
                    },
                    compose,
                )
                .unwrap();
            let want: Vec<_> = seq
                .iter()
                .scan(None, |acc: &mut Option<(u64, u64)>, &x| {
                    Some(*acc.insert(acc.map_or(x, |a| compose(a, x))))
                })
                .collect();
            assert_eq!(scanned.to_array().unwrap().to_vec(), want);
        });
    }

    #[test]
    fn permutes_send_values_to_their_targets_owner() {
        each_world(|c, n| {
            let src = Array::from_fn([n, 2], |[i, j]| (i * 2 + j) as u32);
            let s = DistArray::scatter_from(c, 0, Some(&src)).unwrap();
            let bins = Array::from_fn([3, 2], |[i, j]| (i * 1000 + j) as u32);
            let d = DistArray::scatter_from(c, 0, Some(&bins)).unwrap();
            // Every odd element to bin (x mod 3, x mod 2), added; even ones dropped.
            let target =
                |[i, j]: [usize; 2], x: u32| (x % 2 == 1).then_some(([x as usize % 3, (i + j) % 2], x));
            let got = d.permute_from(&s, target, |a, b| a + b).unwrap();
            let mut want = bins.to_vec();
            for i in 0..n {
                for j in 0..2 {
                    if let Some(([a, b], x)) = target([i, j], (i * 2 + j) as u32) {
                        want[a * 2 + b] += x;
                    }
                }
            }
            assert_eq!(got.to_array().unwrap().to_vec(), want);
            // A target outside the defaults fails on every rank.
            let e = d.permute_from(&s, |[i, _], x| Some(([i, 5], x)), |a, b| a + b);
            assert_eq!(e.is_err(), n > 0);
        });
    }

    #[test]
    fn backpermutes_fetch_from_any_rank() {
        each_world(|c, n| {
            let whole = affine(n, 3);
            let d = DistArray::scatter_from(c, 0, Some(&whole)).unwrap();
            let t = d.backpermute([3, n], |[j, i]| [n - 1 - i, j]).unwrap();
            let want = Array::from_fn([3, n], |[j, i]| whole.get([n - 1 - i, j]).unwrap());
            assert_eq!(t.to_array().unwrap(), want);
            let e = d.backpermute([1, 1], |_| [n, 0]).unwrap_err();
            assert_eq!(e.kind() == ErrorKind::IndexOutOfBounds, c.rank() == 0, "{e}");
        });
    }

    #[test]
    fn halos_hold_the_rows_around_a_block() {
        each_world(|c, n| {
            let whole = affine(n, 2);
            let d = DistArray::scatter_from(c, 0, Some(&whole)).unwrap();
            for (before, after) in [(0, 0), (1, 1), (2, 0), (0, 3)] {
                let (a, above) = d.rows_around(before, after).unwrap();
                let rows = d.rows();
                let lo = if rows.is_empty() {
                    rows.start
                } else {
                    rows.start.saturating_sub(before)
                };
                let hi = if rows.is_empty() {
                    rows.end
                } else {
                    (rows.end + after).min(n)
                };
                assert_eq!(above, rows.start - lo);
                assert_eq!(a.to_vec(), whole.to_vec()[lo * 2..hi * 2]);
            }
            // Rows summed with the rows two above and one below, clamped at the edges.
            let sums = |a: &Array<(u64, u64), 2>| {
                let n = a.shape()[0];
                Ok(Array::from_fn(a.shape(), |[i, j]| {
                    let at = |i: usize| a.get([i.min(n - 1), j]).unwrap().1;
                    (0, at(i.saturating_sub(2)) + at(i) + at(i + 1))
                }))
            };
            let s = d.stencil_parts(2, sums).unwrap();
            assert_eq!(s.to_array().unwrap(), sums(&whole).unwrap());
        });
    }

    #[test]
    fn zips_lay_out_the_other_array_first() {
        each_world(|c, n| {
            let a = DistArray::scatter_from(c, 0, Some(&Array::from_fn([n], |[i]| i as i64))).unwrap();
            // `b` has more rows, laid out unevenly: all on rank 0.
            let m = n + 2;
            let b_whole = Array::from_fn([m], |[i]| 10 * i as i64);
            let b = DistArray::local(
                c,
                if c.rank() == 0 {
                    b_whole.clone()
                } else {
                    Array::from_fn([0], |_| 0)
                },
            )
            .unwrap();
            let z = a
                .zip_part(&b, |x, y| {
                    let v: Vec<i64> = x.to_vec().iter().zip(y.to_vec()).map(|(p, q)| p + q).collect();
                    Array::from_vec([v.len()], v)
                })
                .unwrap();
            assert_eq!(
                z.to_array().unwrap().to_vec(),
                (0..n as i64).map(|i| 11 * i).collect::<Vec<_>>()
            );
        });
    }
}
