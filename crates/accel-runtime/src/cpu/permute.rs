//! Forward permutation with a combination function.
//!
//! Sources are spread over threads in contiguous chunks. How updates of one
//! target slot are kept from racing depends on the sizes:
//! * at most 4 targets per source for each thread (a histogram): each thread
//!   combines its contiguous part of the sources into a private table, and
//!   the tables are combined into the result in order afterwards, slot
//!   ranges in parallel (valid because `combine` is associative: a thread's
//!   private value is the combination of its sources in source order);
//! * otherwise the sources are sorted into buckets by target range, and
//!   each range is combined by one task, with plain updates in source order
//!   ([`bucket`]): a million sources into 4M targets on 2 cores took 3.2–5
//!   ms so, against 10–12 ms with an atomic add per source.
//!
//! The order between different sources is unspecified.

use super::bucket;
use super::par::{self, threads, Split};
use super::pool;
use super::{chunks, MIN_CHUNK};
use crate::elem::{Columns, OutPtr};
use std::ops::Range;

/// Runs `$body` with `$o` bound to `$op` as a constant in each arm, so that
/// the operation's `match` folds away inside the loop instead of costing an
/// indirect jump per element.
macro_rules! with_op {
    ($op:expr, |$o:ident| $body:expr) => {
        match $op {
            AtomicOp::Add => {
                let $o = AtomicOp::Add;
                $body
            }
            AtomicOp::Min => {
                let $o = AtomicOp::Min;
                $body
            }
            AtomicOp::Max => {
                let $o = AtomicOp::Max;
                $body
            }
            AtomicOp::And => {
                let $o = AtomicOp::And;
                $body
            }
            AtomicOp::Or => {
                let $o = AtomicOp::Or;
                $body
            }
            AtomicOp::Xor => {
                let $o = AtomicOp::Xor;
                $body
            }
        }
    };
}
pub(super) use with_op;

/// Whether `src_n` sources into `n_out` targets are worth a private table per
/// chunk: the tables (a few per thread) hold no more slots than there are
/// sources.
pub(super) fn privatise(src_n: usize, n_out: usize) -> bool {
    let tables = threads() * 4;
    n_out.saturating_mul(tables) <= src_n
}

/// Whether `src_n` sources into `n_out` targets are worth one private table
/// per thread, merged afterwards: the tables cost `n_out` slots per thread,
/// written once and read once in streams, against a pair written and read
/// back per source in the buckets (a histogram of a million pixels into a
/// million bins took 1.9–2.5 ms so on 2 cores, against 3.7–4.4 ms in
/// buckets).
fn private_per_thread(src_n: usize, n_out: usize) -> bool {
    n_out.saturating_mul(threads()) <= src_n.saturating_mul(4)
}

/// The source ranges that get a private table each, in order: a few per
/// thread when the tables are small against the sources (work stealing then
/// balances sources of uneven cost, such as the pairs `j > i` of a triangle),
/// else one per thread.
fn table_ranges(src_n: usize, n_out: usize) -> Split {
    let threads = threads();
    let parts = if n_out.saturating_mul(16 * threads) <= src_n {
        4 * threads
    } else {
        threads
    };
    Split::into_parts(src_n, parts)
}

/// Merges private tables into `out` in table order, slot ranges in
/// parallel (each slot's merge is independent of the others').
pub(super) fn merge_tables_par<C: Columns>(
    out: &mut C,
    tables: &[Vec<Option<C::Elem>>],
    combine: &(impl Fn(C::Elem, C::Elem) -> C::Elem + Sync),
) {
    let (n_out, ptr) = (out.len(), out.out_ptr());
    chunks(n_out).for_each(|r| {
        for table in tables {
            for t in r.clone() {
                if let Some(v) = table[t] {
                    // SAFETY: `t < out.len()`, so slot `t` is initialised and
                    // within the capacity; the ranges are disjoint, so this
                    // task alone touches slot `t`, and `out` is borrowed
                    // mutably for the whole call.
                    unsafe {
                        let old = C::read(ptr, t);
                        C::write(ptr, t, combine(v, old));
                    }
                }
            }
        }
    });
}

/// For each source `i` in `0..src_n` with `target(i) = Some(t)`:
/// `out[t] = combine(value(i), out[t])`. `out` holds the defaults; targets at or
/// beyond `out.len()` are ignored.
pub fn permute<C: Columns>(
    out: &mut C,
    src_n: usize,
    target: impl Fn(usize) -> Option<usize> + Sync,
    value: impl Fn(usize) -> C::Elem + Sync,
    combine: impl Fn(C::Elem, C::Elem) -> C::Elem + Sync,
) {
    let n_out = out.len();
    // Every target is computed even when `out` is empty: the target function
    // is where out-of-bounds targets are reported.
    if src_n == 0 {
        return;
    }
    let ptr = out.out_ptr();

    if src_n < MIN_CHUNK {
        for i in 0..src_n {
            if let Some(t) = target(i).filter(|&t| t < n_out) {
                let v = value(i);
                // SAFETY: `t < out.len()`, so slot `t` is initialised and within
                // the capacity; this thread holds `out` mutably and is the only
                // one touching it.
                unsafe {
                    let old = C::read(ptr, t);
                    C::write(ptr, t, combine(v, old));
                }
            }
        }
        return;
    }

    if private_per_thread(src_n, n_out) {
        // The first range's sources combine straight into `out` (they come
        // first, right after the defaults); each other range's into a
        // private table, merged after it in order.
        let ranges: Vec<Range<usize>> = table_ranges(src_n, n_out).ranges().collect();
        let (_, tables) = par::join(
            || combine_columns_into(out, ranges[0].clone(), &target, &value, &combine),
            || {
                par::map(ranges.len() - 1, |k| {
                    let mut local: Vec<Option<C::Elem>> = pool::filled(n_out, None);
                    combine_options_into(&mut local, ranges[k + 1].clone(), &target, &value, &combine);
                    local
                })
            },
        );
        merge_tables_par(out, &tables, &combine);
        tables.into_iter().for_each(pool::recycle);
        return;
    }

    bucket::combine_by_range(n_out, src_n, &target, &value, &|t, v| {
        // SAFETY: `t < out.len()`, so slot `t` is initialised and within the
        // capacity; `combine_by_range` never updates one slot from two
        // threads at once, and `out` is borrowed mutably for the whole call.
        unsafe {
            let old = C::read(ptr, t);
            C::write(ptr, t, combine(v, old));
        }
    });
}

/// Combines private tables of an atomic operation's plain values into
/// `out`, table by table in order, slot ranges in parallel.
pub(super) fn merge_plain_tables<T: AtomicPrim>(out: &mut [T], tables: &[Vec<T>], op: AtomicOp) {
    let size = out.len().div_ceil(threads() * 4).max(MIN_CHUNK);
    par::for_each_chunk_mut(out, size, |c, slots| {
        with_op!(op, |o| for local in tables {
            for (slot, v) in slots.iter_mut().zip(&local[c * size..]) {
                *slot = T::plain(*v, *slot, o);
            }
        })
    });
}

/// Combines the sources `r` into `out`, in source order. A function of its
/// own for the reason given at [`combine_into`].
#[inline(never)]
fn combine_columns_into<C: Columns>(
    out: &mut C,
    r: Range<usize>,
    target: &impl Fn(usize) -> Option<usize>,
    value: &impl Fn(usize) -> C::Elem,
    combine: &impl Fn(C::Elem, C::Elem) -> C::Elem,
) {
    let (n_out, ptr) = (out.len(), out.out_ptr());
    for i in r {
        if let Some(t) = target(i).filter(|&t| t < n_out) {
            let v = value(i);
            // SAFETY: `t < out.len()`, so slot `t` is initialised and within
            // the capacity; `out` is borrowed mutably, so this thread alone
            // touches it.
            unsafe {
                let old = C::read(ptr, t);
                C::write(ptr, t, combine(v, old));
            }
        }
    }
}

/// Combines the sources `r` into a chunk's private `table` (`None`: no source
/// yet), in source order. A function of its own for the reason given at
/// [`combine_into`].
#[inline(never)]
fn combine_options_into<E: Copy>(
    table: &mut [Option<E>],
    r: Range<usize>,
    target: &impl Fn(usize) -> Option<usize>,
    value: &impl Fn(usize) -> E,
    combine: &impl Fn(E, E) -> E,
) {
    for i in r {
        if let Some(slot) = target(i).and_then(|t| table.get_mut(t)) {
            let v = value(i);
            *slot = Some(match *slot {
                Some(old) => combine(v, old),
                None => v,
            });
        }
    }
}

/// A commutative combination that the GPU does with one atomic
/// read-modify-write (the CPU with a plain operation, in private tables or
/// buckets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// Element types whose permute combination is one of the [`AtomicOp`]s (one
/// atomic instruction on the GPU): the integers, and the floats for `Add`
/// (the code generator sends no other float operation here: `-0.0` is an
/// exact identity of `+`, while `min` and `max` by `±inf` would not keep a
/// NaN). On the CPU the operation is applied plainly, in private tables or
/// target ranges that one thread updates at a time.
pub trait AtomicPrim: Copy + Send + Sync {
    /// `v op old` (a wrapping add for integers).
    fn plain(v: Self, old: Self, op: AtomicOp) -> Self;
    /// The neutral element of `op` (`x op e = x` for every `x`).
    fn identity(op: AtomicOp) -> Self;
}

macro_rules! atomic_prim {
    ($($t:ty),* $(,)?) => {$(
        impl AtomicPrim for $t {
            #[inline]
            fn plain(v: Self, old: Self, op: AtomicOp) -> Self {
                match op {
                    AtomicOp::Add => v.wrapping_add(old),
                    AtomicOp::Min => v.min(old),
                    AtomicOp::Max => v.max(old),
                    AtomicOp::And => v & old,
                    AtomicOp::Or => v | old,
                    AtomicOp::Xor => v ^ old,
                }
            }
            fn identity(op: AtomicOp) -> Self {
                match op {
                    AtomicOp::Add | AtomicOp::Or | AtomicOp::Xor => 0,
                    AtomicOp::Min => <$t>::MAX,
                    AtomicOp::Max => <$t>::MIN,
                    AtomicOp::And => !0,
                }
            }
        }
    )*};
}

atomic_prim!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

macro_rules! atomic_float {
    ($($t:ty),* $(,)?) => {$(
        impl AtomicPrim for $t {
            #[inline]
            fn plain(v: Self, old: Self, op: AtomicOp) -> Self {
                match op {
                    AtomicOp::Add => v + old,
                    AtomicOp::Min => v.min(old),
                    AtomicOp::Max => v.max(old),
                    AtomicOp::And => <$t>::from_bits(v.to_bits() & old.to_bits()),
                    AtomicOp::Or => <$t>::from_bits(v.to_bits() | old.to_bits()),
                    AtomicOp::Xor => <$t>::from_bits(v.to_bits() ^ old.to_bits()),
                }
            }
            fn identity(op: AtomicOp) -> Self {
                match op {
                    // `-0.0 + x` is `x` for every `x`, `-0.0` and NaN included.
                    AtomicOp::Add => -0.0,
                    AtomicOp::Min => <$t>::INFINITY,
                    AtomicOp::Max => <$t>::NEG_INFINITY,
                    AtomicOp::And => <$t>::from_bits(!0),
                    AtomicOp::Or | AtomicOp::Xor => <$t>::from_bits(0),
                }
            }
        }
    )*};
}
atomic_float!(f32, f64);

/// [`permute`] for a combination that is one operation of [`AtomicOp`]
/// (`a + b`, `a.min(b)`, `a ^ b`, ...): private tables start from the
/// operation's identity instead of holding an `Option` per slot, and the
/// updates are plain operations, which the loops keep in registers.
pub fn permute_atomic<T: AtomicPrim>(
    out: &mut Vec<T>,
    src_n: usize,
    target: impl Fn(usize) -> Option<usize> + Sync,
    value: impl Fn(usize) -> T + Sync,
    op: AtomicOp,
) {
    let n_out = out.len();
    if src_n < MIN_CHUNK {
        // Small: one thread, plain updates.
        for i in 0..src_n {
            if let Some(t) = target(i).filter(|&t| t < n_out) {
                out[t] = T::plain(value(i), out[t], op);
            }
        }
        return;
    }
    if private_per_thread(src_n, n_out) {
        // A private table per thread, merged afterwards, slot ranges in
        // parallel; the first range combines straight into `out`.
        let ranges: Vec<Range<usize>> = table_ranges(src_n, n_out).ranges().collect();
        let (_, tables) = par::join(
            || combine_into(out, ranges[0].clone(), &target, &value, op),
            || {
                par::map(ranges.len() - 1, |k| {
                    let mut local = pool::filled(n_out, T::identity(op));
                    combine_into(&mut local, ranges[k + 1].clone(), &target, &value, op);
                    local
                })
            },
        );
        merge_plain_tables(out, &tables, op);
        tables.into_iter().for_each(pool::recycle);
        return;
    }
    let ptr = OutPtr(out.as_mut_ptr());
    with_op!(op, |o| bucket::combine_by_range(
        n_out,
        src_n,
        &target,
        &value,
        &|t, v| {
            // SAFETY: `t < out.len()`; `combine_by_range` never updates one slot
            // from two threads at once, and `out` is borrowed mutably for the
            // whole call.
            unsafe { *ptr.at(t) = T::plain(v, *ptr.at(t), o) }
        }
    ))
}

/// [`permute_atomic`] for a permute that moves whole rows: source row `r`
/// (elements `r * len .. (r + 1) * len`) goes to the row starting at slot
/// `target(r)`, element by element (`out[t + j] = op(value(r * len + j),
/// out[t + j])`), as k-means adds each point's features to its centre's
/// sums. The inner loop runs along a row in both arrays, so it vectorises,
/// and the target is found once per row. Rows whose target does not leave
/// room for `len` elements are skipped (the caller has checked that none
/// do).
pub fn permute_rows_atomic<T: AtomicPrim>(
    out: &mut Vec<T>,
    rows: usize,
    len: usize,
    target: impl Fn(usize) -> Option<usize> + Sync,
    value: impl Fn(usize) -> T + Sync,
    op: AtomicOp,
) {
    let (n_out, src_n) = (out.len(), rows.saturating_mul(len));
    if src_n == 0 {
        // No element: no index function runs.
        return;
    }
    let row_target = |r: usize| target(r).filter(|&t| t.checked_add(len).is_some_and(|e| e <= n_out));
    if src_n < MIN_CHUNK {
        return add_rows_into(out, 0..rows, len, &row_target, &value, op);
    }
    if !private_per_thread(src_n, n_out) {
        // Tables as large as the sources: element by element, in buckets.
        let element = |i: usize| row_target(i / len).map(|t| t + i % len);
        return permute_atomic(out, src_n, element, value, op);
    }
    // A private table per part of the rows, as `permute_atomic` does.
    let parts = table_ranges(src_n, n_out).count().min(rows).max(1);
    let ranges: Vec<Range<usize>> = Split::into_parts(rows, parts).ranges().collect();
    let (_, tables) = par::join(
        || add_rows_into(out, ranges[0].clone(), len, &row_target, &value, op),
        || {
            par::map(ranges.len() - 1, |k| {
                let mut local = pool::filled(n_out, T::identity(op));
                add_rows_into(&mut local, ranges[k + 1].clone(), len, &row_target, &value, op);
                local
            })
        },
    );
    merge_plain_tables(out, &tables, op);
    tables.into_iter().for_each(pool::recycle);
}

/// Combines source rows `rows` into `table`, row by row. A function of its
/// own for the reason given at [`combine_into`].
#[inline(never)]
fn add_rows_into<T: AtomicPrim>(
    table: &mut [T],
    rows: Range<usize>,
    len: usize,
    target: &impl Fn(usize) -> Option<usize>,
    value: &impl Fn(usize) -> T,
    op: AtomicOp,
) {
    with_op!(op, |o| for r in rows.clone() {
        let Some(t) = target(r) else { continue };
        let Some(row) = table.get_mut(t..t + len) else {
            continue;
        };
        for (j, slot) in row.iter_mut().enumerate() {
            *slot = T::plain(value(r * len + j), *slot, o);
        }
    })
}

/// [`permute_atomic`] over a source space of rows (`rows` rows of `len`
/// elements, rank 2 or more) walked row by row, so that the index function
/// finds its index without dividing each offset, computes what is the same
/// along a row once per row, and visits only the positions that can have a
/// target:
///
/// - `span(r)`: the positions `lo..hi` of row `r` outside which the index
///   function gives no target (its guard, such as the `j > i` of the pairs
///   of a triangle), clamped to `0..len`;
/// - `row(r, lo)`: the row's values, computed at its first position in the
///   span, for rows whose span is not empty;
/// - `target(&row, r, j)`: the target of the source at row `r`, position `j`.
///
/// The rows are split into parts of about equal numbers of positions in
/// their spans (a triangle's rows have uneven work).
#[allow(clippy::too_many_arguments)]
pub fn permute_atomic_by_rows<T: AtomicPrim, S>(
    out: &mut Vec<T>,
    rows: usize,
    len: usize,
    span: impl Fn(usize) -> (usize, usize) + Sync,
    row: impl Fn(usize, usize) -> S + Sync,
    target: impl Fn(&S, usize, usize) -> Option<usize> + Sync,
    value: impl Fn(usize) -> T + Sync,
    op: AtomicOp,
) {
    let (n_out, src_n) = (out.len(), rows.saturating_mul(len));
    if src_n == 0 {
        return;
    }
    let span = |r: usize| {
        let (lo, hi) = span(r);
        lo..hi.min(len)
    };
    let walk = |table: &mut [T], rs: Range<usize>| {
        combine_rows_into(table, rs, len, &span, &row, &target, &value, op)
    };
    if src_n < MIN_CHUNK {
        return walk(out, 0..rows);
    }
    if !private_per_thread(src_n, n_out) {
        // Tables as large as the sources: element by element, in buckets
        // (the row's values computed again for each element).
        let element = |i: usize| {
            let (r, j) = (i / len, i % len);
            let s = span(r);
            if !s.contains(&j) {
                return None;
            }
            target(&row(r, s.start), r, j)
        };
        return permute_atomic(out, src_n, element, value, op);
    }
    let parts = spans_in_parts(rows, table_ranges(src_n, n_out).count(), |r| span(r).len());
    let tables = par::map(parts.len(), |k| {
        let mut local = pool::filled(n_out, T::identity(op));
        walk(&mut local, parts[k].clone());
        local
    });
    merge_plain_tables(out, &tables, op);
    tables.into_iter().for_each(pool::recycle);
}

/// `0..rows` cut into at most `parts` consecutive ranges of about equal
/// total `weight`.
fn spans_in_parts(rows: usize, parts: usize, weight: impl Fn(usize) -> usize) -> Vec<Range<usize>> {
    let total: usize = (0..rows).map(&weight).sum();
    let per = total.div_ceil(parts.max(1)).max(1);
    let (mut out, mut start, mut sum) = (Vec::with_capacity(parts), 0, 0);
    for r in 0..rows {
        sum += weight(r);
        if sum >= per {
            out.push(start..r + 1);
            (start, sum) = (r + 1, 0);
        }
    }
    if start < rows {
        out.push(start..rows);
    }
    out
}

/// Combines the sources of rows `rows` into `table`, each row's positions in
/// its span. A function of its own for the reason given at [`combine_into`].
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn combine_rows_into<T: AtomicPrim, S>(
    table: &mut [T],
    rows: Range<usize>,
    len: usize,
    span: &impl Fn(usize) -> Range<usize>,
    row: &impl Fn(usize, usize) -> S,
    target: &impl Fn(&S, usize, usize) -> Option<usize>,
    value: &impl Fn(usize) -> T,
    op: AtomicOp,
) {
    let n = table.len();
    with_op!(op, |o| for r in rows.clone() {
        let js = span(r);
        if js.is_empty() {
            continue;
        }
        let s = row(r, js.start);
        for j in js {
            if let Some(t) = target(&s, r, j).filter(|&t| t < n) {
                table[t] = T::plain(value(r * len + j), table[t], o);
            }
        }
    })
}

/// Primitive element types stored with one atomic store (floats and `bool`
/// through integers of their size).
pub trait StorePrim: Copy + Send + Sync {
    /// Whether `ptr` is aligned for the atomic type of the same size.
    fn aligned(ptr: *mut Self) -> bool;
    /// `*slot = v`, atomically (relaxed).
    ///
    /// # Safety
    /// `slot` is valid, aligned (`aligned`), and only accessed atomically while
    /// this runs.
    unsafe fn store(slot: *mut Self, v: Self);
}

macro_rules! store_prim {
    ($($t:ty => $a:ty, $bits:ty, |$x:ident| $to:expr),* $(,)?) => {$(
        impl StorePrim for $t {
            fn aligned(ptr: *mut Self) -> bool {
                (ptr as usize) % std::mem::align_of::<$a>() == 0
            }
            #[inline]
            unsafe fn store(slot: *mut Self, $x: Self) {
                // SAFETY: the caller guarantees `slot` is valid and aligned for
                // the atomic type (of the same size) and accessed only
                // atomically meanwhile.
                let a = unsafe { <$a>::from_ptr(slot as *mut $bits) };
                a.store($to, Ordering::Relaxed);
            }
        }
    )*};
}

use std::sync::atomic::{
    AtomicBool, AtomicI16, AtomicI32, AtomicI64, AtomicI8, AtomicU16, AtomicU32, AtomicU64, AtomicU8,
    AtomicUsize, Ordering,
};
store_prim!(
    i8 => AtomicI8, i8, |x| x, i16 => AtomicI16, i16, |x| x, i32 => AtomicI32, i32, |x| x,
    i64 => AtomicI64, i64, |x| x, u8 => AtomicU8, u8, |x| x, u16 => AtomicU16, u16, |x| x,
    u32 => AtomicU32, u32, |x| x, u64 => AtomicU64, u64, |x| x, usize => AtomicUsize, usize, |x| x,
    f32 => AtomicU32, u32, |x| x.to_bits(), f64 => AtomicU64, u64, |x| x.to_bits(),
    half::f16 => AtomicU16, u16, |x| x.to_bits(), half::bf16 => AtomicU16, u16, |x| x.to_bits(),
    bool => AtomicBool, bool, |x| x,
);

/// A scatter (`permute` whose combination keeps the new value) of a
/// primitive type: each source stored straight into its target, in parallel.
/// When targets repeat, which source wins is unspecified (as documented for
/// `scatter`), and each store is atomic, so there is no data race. Replaces
/// a private table per thread (a table of `Option`s as large as the output,
/// filled, then merged) with one pass over the sources.
pub fn scatter_store<T: StorePrim>(
    out: &mut Vec<T>,
    src_n: usize,
    target: impl Fn(usize) -> Option<usize> + Sync,
    value: impl Fn(usize) -> T + Sync,
) {
    let n_out = out.len();
    if src_n < MIN_CHUNK || !T::aligned(out.as_mut_ptr()) {
        // Small (or no aligned atomics here): one thread, in source order.
        for i in 0..src_n {
            if let Some(t) = target(i).filter(|&t| t < n_out) {
                out[t] = value(i);
            }
        }
        return;
    }
    let ptr = OutPtr(out.as_mut_ptr());
    chunks(src_n).for_each(|r| {
        let ptr = &ptr;
        for i in r {
            if let Some(t) = target(i).filter(|&t| t < n_out) {
                // SAFETY: `t < out.len()`, the base is aligned (checked above)
                // and so is every element; `out` is borrowed mutably for the
                // whole call and every access during it is atomic.
                unsafe { T::store(ptr.get().add(t), value(i)) }
            }
        }
    });
}

/// Combines the sources `r` into a chunk's private `table` with `op`.
///
/// A function of its own so that `table` is a `&mut` argument: the compiler
/// then knows that its stores do not change what the element functions read
/// (their captured shapes and columns), and keeps those in registers instead
/// of reloading them for every element.
#[inline(never)]
fn combine_into<T: AtomicPrim>(
    table: &mut [T],
    r: Range<usize>,
    target: &impl Fn(usize) -> Option<usize>,
    value: &impl Fn(usize) -> T,
    op: AtomicOp,
) {
    with_op!(op, |o| for i in r.clone() {
        if let Some(slot) = target(i).and_then(|t| table.get_mut(t)) {
            *slot = T::plain(value(i), *slot, o);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(i: usize) -> u64 {
        let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }

    /// `out[t] = combine(value(i), out[t])` in source order.
    fn reference(
        defaults: &[i64],
        src_n: usize,
        target: impl Fn(usize) -> Option<usize>,
        value: impl Fn(usize) -> i64,
    ) -> Vec<i64> {
        let mut out = defaults.to_vec();
        for i in 0..src_n {
            if let Some(t) = target(i) {
                if t < out.len() {
                    out[t] = value(i).wrapping_add(out[t]);
                }
            }
        }
        out
    }

    #[test]
    fn permute_matches_reference() {
        for threads in [1, 4] {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => panic!("thread pool: {e}"),
            };
            pool.install(|| {
                for src_n in [0, 1, 2, 7, MIN_CHUNK - 1, MIN_CHUNK + 1, 3 * MIN_CHUNK + 17] {
                    // Private tables, and buckets by target range.
                    for n_out in [0, 1, 3, 100, 5000, 70_000] {
                        let target = |i: usize| {
                            if i % 5 == 3 {
                                None
                            } else {
                                Some(h(i) as usize % n_out.max(1))
                            }
                        };
                        let value = |i: usize| h(i + 7) as i64;
                        let defaults: Vec<i64> = (0..n_out).map(|t| t as i64 * 3 - 1).collect();

                        let mut out = defaults.clone();
                        permute(&mut out, src_n, target, value, i64::wrapping_add);
                        assert_eq!(out, reference(&defaults, src_n, target, value), "{src_n} {n_out}");

                        // Tuple columns: each field combined on its own.
                        let mut out2: (Vec<i64>, Vec<u8>) =
                            (defaults.clone(), (0..n_out).map(|t| t as u8).collect());
                        permute(
                            &mut out2,
                            src_n,
                            target,
                            |i| (value(i), (i % 7) as u8),
                            |a: (i64, u8), b: (i64, u8)| (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1)),
                        );
                        assert_eq!(out2.0, out);
                        let want1 = {
                            let mut w: Vec<u8> = (0..n_out).map(|t| t as u8).collect();
                            for i in 0..src_n {
                                if let Some(t) = target(i).filter(|&t| t < n_out) {
                                    w[t] = w[t].wrapping_add((i % 7) as u8);
                                }
                            }
                            w
                        };
                        assert_eq!(out2.1, want1);
                    }
                }
            });
        }
    }

    #[test]
    fn permute_atomic_matches_plain_updates() {
        for threads in [1, 4] {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => panic!("thread pool: {e}"),
            };
            pool.install(|| {
                for src_n in [0, 5, MIN_CHUNK + 1, 3 * MIN_CHUNK + 17] {
                    for n_out in [1, 7, 256, 70_000] {
                        for op in [
                            AtomicOp::Add,
                            AtomicOp::Min,
                            AtomicOp::Max,
                            AtomicOp::And,
                            AtomicOp::Or,
                            AtomicOp::Xor,
                        ] {
                            let target = |i: usize| (i % 11 != 4).then_some(h(i) as usize % (n_out + 2));
                            let value = |i: usize| h(i + 3) as i32;
                            let defaults: Vec<i32> = (0..n_out).map(|t| (t as i32) * 7 - 50).collect();
                            let mut want = defaults.clone();
                            for i in 0..src_n {
                                if let Some(t) = target(i).filter(|&t| t < n_out) {
                                    want[t] = i32::plain(value(i), want[t], op);
                                }
                            }
                            let mut got = defaults.clone();
                            permute_atomic(&mut got, src_n, target, value, op);
                            assert_eq!(got, want, "{src_n} {n_out} {op:?}");
                        }
                    }
                }
            });
        }
    }

    /// Float `+` through the buckets and the private tables (from `-0.0`): integer-valued floats, exact in any
    /// order; slots no source reaches keep their defaults bit for bit.
    #[test]
    fn float_adds_match_plain_updates() {
        super::super::testing::in_pools(|| {
            for src_n in [0, 5, MIN_CHUNK + 1, 3 * MIN_CHUNK + 17] {
                for n_out in [1, 7, 70_000, 1_000_000] {
                    let target = |i: usize| (i % 11 != 4).then_some(h(i) as usize % (n_out + 2));
                    let value = |i: usize| (h(i + 3) % 1000) as f64 - 500.0;
                    let defaults: Vec<f64> = (0..n_out)
                        .map(|t| if t % 2 == 0 { -0.0 } else { t as f64 })
                        .collect();
                    let mut want = defaults.clone();
                    for i in 0..src_n {
                        if let Some(t) = target(i).filter(|&t| t < n_out) {
                            want[t] += value(i);
                        }
                    }
                    let mut got = defaults.clone();
                    permute_atomic(&mut got, src_n, target, value, AtomicOp::Add);
                    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got), bits(&want), "{src_n} {n_out}");
                    let mut got32: Vec<f32> = defaults.iter().map(|&x| x as f32).collect();
                    permute_atomic(&mut got32, src_n, target, |i| value(i) as f32, AtomicOp::Add);
                    let want32: Vec<f32> = want.iter().map(|&x| x as f32).collect();
                    assert_eq!(got32, want32, "{src_n} {n_out} f32");
                }
            }
        });
    }

    /// An associative combination that is not commutative (2x2 matrix
    /// products) keeps the sources' order through the private tables (the
    /// first range combined straight into the defaults) and through the
    /// buckets.
    #[test]
    fn private_tables_keep_the_order() {
        use super::super::testing::{mul, MCols, M};
        for threads in [2, 4] {
            let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(p) => p,
                Err(e) => panic!("thread pool: {e}"),
            };
            pool.install(|| {
                let src_n = 3 * MIN_CHUNK + 17;
                for (n_out, tables) in [(5, true), (src_n / 3, true), (src_n * 3, false)] {
                    assert_eq!(private_per_thread(src_n, n_out), tables);
                    let shear = |i: usize| if h(i) & 1 == 0 { (1, 1, 0, 1) } else { (1, 0, 1, 1) };
                    let target = |i: usize| Some(h(i + 1) as usize % n_out);
                    let start: M = (1, 2, 0, 1);
                    let mut want: Vec<M> = vec![start; n_out];
                    for i in 0..src_n {
                        let t = target(i).unwrap_or(0);
                        want[t] = mul(shear(i), want[t]);
                    }
                    let mut got: MCols = (vec![1; n_out], vec![2; n_out], vec![0; n_out], vec![1; n_out]);
                    permute(&mut got, src_n, target, shear, mul);
                    assert_eq!(got.to_elems(), want, "{threads} threads, {n_out} slots");
                }
            });
        }
    }

    #[test]
    fn rows_go_where_their_elements_would() {
        for (rows, len, n_out_rows) in [
            (0, 3, 2),
            (5, 1, 3),
            (7, 34, 5),
            (40_000, 3, 7),
            (300, 100, 1000),
            (20, 2000, 4),
        ] {
            let n_out = n_out_rows * len;
            // Row `r` to row `h(r) % (n_out_rows + 1)`: the last one is past the end (skipped).
            let row = |r: usize| {
                let t = h(r) as usize % (n_out_rows + 1);
                (t < n_out_rows && h(r + 7) % 5 != 0).then_some(t * len)
            };
            let value = |i: usize| (h(i) % 1000) as i64 - 500;
            for op in [AtomicOp::Add, AtomicOp::Max, AtomicOp::Xor] {
                let mut want: Vec<i64> = (0..n_out).map(|i| i as i64 % 7).collect();
                for i in 0..rows * len {
                    if let Some(t) = row(i / len) {
                        let t = t + i % len;
                        want[t] = i64::plain(value(i), want[t], op);
                    }
                }
                let mut got: Vec<i64> = (0..n_out).map(|i| i as i64 % 7).collect();
                permute_rows_atomic(&mut got, rows, len, row, value, op);
                assert_eq!(got, want, "{rows} rows of {len} into {n_out_rows}, {op:?}");
            }
        }
    }

    #[test]
    fn rows_visit_their_spans_as_the_elements_would() {
        crate::cpu::testing::in_pools(|| {
            // Pairs `j > i` (and `j < hi`) of `rows` x `len` sources, into
            // few targets (private tables), as many as the sources (buckets)
            // and more; the row's value is the row's own number.
            for (rows, len, n_out) in [
                (0, 3, 2),
                (5, 1, 3),
                (9, 9, 4),
                (300, 300, 7),
                (2000, 40, 1000),
                (700, 700, 490_001),
                (3, 50_000, 3),
            ] {
                let span = |r: usize| (r + 1, len + 2 - r % 4);
                let target = |s: &usize, r: usize, j: usize| {
                    assert_eq!(*s, r * 10, "the row's value");
                    (h(r * len + j) % 11 != 0).then_some((h(r) as usize + j) % (n_out + 1))
                };
                let value = |i: usize| (h(i) % 1000) as i64 - 500;
                for op in [AtomicOp::Add, AtomicOp::Max, AtomicOp::Xor] {
                    let mut want: Vec<i64> = (0..n_out).map(|i| i as i64 % 7).collect();
                    for i in 0..rows * len {
                        let (r, j) = (i / len, i % len);
                        let (lo, hi) = span(r);
                        if (lo..hi).contains(&j) {
                            if let Some(t) = target(&(r * 10), r, j).filter(|&t| t < n_out) {
                                want[t] = i64::plain(value(i), want[t], op);
                            }
                        }
                    }
                    let mut got: Vec<i64> = (0..n_out).map(|i| i as i64 % 7).collect();
                    let row = |r: usize, lo: usize| {
                        assert!(
                            lo == r + 1 && lo < len.min(len + 2 - r % 4),
                            "computed at the span's start"
                        );
                        r * 10
                    };
                    permute_atomic_by_rows(&mut got, rows, len, span, row, target, value, op);
                    assert_eq!(got, want, "{rows} rows of {len} into {n_out}, {op:?}");
                }
            }
        });
    }

    #[test]
    fn spans_split_by_weight() {
        let parts = spans_in_parts(1000, 4, |r| 1000 - r);
        let got: Vec<usize> = parts.iter().cloned().flatten().collect();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
        assert_eq!(parts.len(), 4);
        for p in &parts {
            let w: usize = p.clone().map(|r| 1000 - r).sum();
            assert!((120_000..=130_000).contains(&w), "{p:?} weighs {w}");
        }
        assert!(spans_in_parts(0, 4, |_| 1).is_empty());
        assert_eq!(spans_in_parts(5, 4, |_| 0), vec![0..5]);
    }

    #[test]
    fn permute_ignores_out_of_bounds_targets() {
        for src_n in [10, 2 * MIN_CHUNK + 5] {
            let mut out = vec![0i64; 4];
            permute(&mut out, src_n, |i| Some(i % 9), |_| 1, i64::wrapping_add);
            let want: Vec<i64> = (0..4)
                .map(|t| (0..src_n).filter(|i| i % 9 == t).count() as i64)
                .collect();
            assert_eq!(out, want);
            let mut empty: Vec<i64> = Vec::new();
            permute(&mut empty, src_n, Some, |_| 1, i64::wrapping_add);
            assert!(empty.is_empty());
        }
    }

    #[test]
    fn permute_sequential_order_for_small_inputs() {
        // combine(new, old) = new: the last source wins in source order.
        let mut out = vec![-1i32; 3];
        permute(&mut out, 10, |i| Some(i % 3), |i| i as i32, |new, _old| new);
        assert_eq!(out, vec![9, 7, 8]);
    }

    #[test]
    fn scatter_store_moves_every_source() {
        crate::cpu::testing::in_pools(|| {
            for n in [0, 5, MIN_CHUNK - 1, 3 * MIN_CHUNK + 7] {
                // A permutation into `n + 3` slots (odd multiplier), some
                // sources dropped (`None`) or out of bounds.
                let m = n + 3;
                let target = |i: usize| match i % 11 {
                    3 => None,
                    5 => Some(m + i),
                    _ => Some((i * 7919) % m.max(1)),
                };
                let mut want = vec![1.5f32; m];
                for i in 0..n {
                    if let Some(t) = target(i).filter(|&t| t < m) {
                        want[t] = i as f32;
                    }
                }
                let mut got = vec![1.5f32; m];
                scatter_store(&mut got, n, target, |i| i as f32);
                assert_eq!(got, want, "n = {n}");
            }
            // Repeated targets: each slot holds one of its sources.
            let n = 4 * MIN_CHUNK;
            let mut got = vec![usize::MAX; 10];
            scatter_store(&mut got, n, |i| Some(i % 10), |i| i);
            for (t, &v) in got.iter().enumerate() {
                assert!(v < n && v % 10 == t, "slot {t} holds {v}");
            }
        });
    }
}
