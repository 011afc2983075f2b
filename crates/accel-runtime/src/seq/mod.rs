//! Streams: what a program's `Seq<A>` parameter is fed from. A program
//! pulls elements as it needs them, one or a chunk at a time, so the whole
//! sequence never has to be in memory (the paper's `streamIn`).

use crate::array::Array;
use crate::dynamic::{Dyn, ToDyn};
use crate::elem::{Columns, Elem};
use crate::error::{Error, ErrorKind, Result};

mod ahead;
mod block;
mod chunk;
mod out;
mod tally;

pub use ahead::read_ahead;
use block::{Block, RankUp};
pub use chunk::{chunk_elems, chunk_len, with_chunk_elems, with_chunk_len};
pub use out::SeqOut;
#[doc(hidden)]
pub use tally::Tally;

/// The elements of a `Seq<Array<T, R>>` parameter, pulled lazily from a
/// Rust iterator. Any `IntoIterator` of arrays converts into one (`Vec`,
/// `iter.map(..)`, a reader of blocks); [`Stream::regular`] says that every
/// element has one shape, [`Stream::fallible`] takes an iterator whose items
/// may be errors (a failed read), and [`Stream::chunks`] an iterator of
/// blocks of elements, each an array one rank higher (rows read from a file).
///
/// A run stops at the first bad element (an `Err` item, or a shape that
/// differs from a regular stream's) with an error naming its position.
pub struct Stream<'a, T: Elem, const R: usize> {
    blocks: Box<dyn Iterator<Item = Result<Block<T, R>>> + 'a>,
    shape: Option<[usize; R]>,
    /// Elements pulled so far.
    pulled: usize,
    /// The blocks whose rows are pulled next, the next on top: the block
    /// being read, and above it the rest of a chunk cut short ([`cut`]).
    current: Vec<Block<T, R>>,
    /// Told the number of elements pulled after each pull; `false` cancels.
    progress: Option<Box<dyn FnMut(usize) -> bool + 'a>>,
    /// The last chunk copied together (its elements, shared with the
    /// program): its storage is reused for the next once the program has
    /// dropped it, rather than fresh memory for every chunk.
    spare: Option<Array<T, 1>>,
    /// Given each block the program is done with ([`Stream::fill_ahead`]'s
    /// storage goes back to its reader).
    recycle: Option<Box<dyn FnMut(Array<T, 1>) + 'a>>,
}

impl<'a, T: Elem, const R: usize> Stream<'a, T, R> {
    /// A stream of arrays of any shapes (of rank `R`).
    pub fn new(items: impl IntoIterator<Item = Array<T, R>, IntoIter: 'a>) -> Self {
        Stream::fallible(items.into_iter().map(Ok))
    }

    /// A stream whose every element has shape `shape`; an element of
    /// another shape stops the run with a `ShapeMismatch` error.
    pub fn regular(shape: [usize; R], items: impl IntoIterator<Item = Array<T, R>, IntoIter: 'a>) -> Self {
        Stream {
            shape: Some(shape),
            ..Stream::new(items)
        }
    }

    /// A stream from an iterator whose items may be errors: the first `Err`
    /// stops the run, as the error of the element at its position.
    pub fn fallible(items: impl IntoIterator<Item = Result<Array<T, R>>, IntoIter: 'a>) -> Self {
        Stream::of_blocks(items.into_iter().map(|x| x.map(Block::of_element)))
    }

    /// A stream of the rows of blocks: each block, an array one rank higher
    /// than the elements (`R1 = R + 1`, checked at compile time), holds
    /// elements along its outermost dimension; blocks may differ in their
    /// number of rows and their rows' shape. Reading a file in large blocks
    /// this way costs nothing per element: a chunk of the program is a whole
    /// block (not copied) when the block holds at least a sixteenth of a chunk.
    pub fn chunks<const R1: usize>(blocks: impl IntoIterator<Item = Array<T, R1>, IntoIter: 'a>) -> Self {
        Stream::fallible_chunks(blocks.into_iter().map(Ok))
    }

    /// [`Stream::chunks`] from an iterator whose items may be errors, as
    /// [`Stream::fallible`]'s.
    pub fn fallible_chunks<const R1: usize>(
        blocks: impl IntoIterator<Item = Result<Array<T, R1>>, IntoIter: 'a>,
    ) -> Self {
        #[allow(clippy::let_unit_value)]
        let () = RankUp::<R, R1>::CHECK;
        Stream::of_blocks(blocks.into_iter().map(|b| b.map(Block::of_rows)))
    }

    fn of_blocks(blocks: impl Iterator<Item = Result<Block<T, R>>> + 'a) -> Self {
        Stream {
            blocks: Box::new(blocks),
            shape: None,
            pulled: 0,
            current: Vec::new(),
            progress: None,
            spare: None,
            recycle: None,
        }
    }

    /// A stream read ahead on a thread of its own: up to `depth` elements
    /// wait in a bounded queue while the program computes, so that reading
    /// (a file, a decoder, a generator) overlaps computing, and memory holds
    /// at most `depth` elements besides the chunk the program works on,
    /// whatever the stream's length. When the program stops early (a zip
    /// with a shorter sequence, an error), the thread stops after the element
    /// it is reading. [`read_ahead`] does the same for any iterator, such as
    /// the blocks of [`Stream::chunks`].
    pub fn read_ahead<I>(depth: usize, items: I) -> Self
    where
        I: IntoIterator<Item = Result<Array<T, R>>> + Send + 'static,
        I::IntoIter: Send,
        Array<T, R>: Send + 'static,
    {
        Stream::fallible(read_ahead(depth, items))
    }

    /// A stream of blocks filled ahead on a thread of its own, into storage
    /// used again and again: `fill(&mut buf)` puts the next block's values
    /// into `buf` (which holds an earlier block's, or nothing: set its
    /// length) and returns `Ok(false)` at the end. Each block's values are
    /// rows of shape `row`, one after the other. Up to `depth` blocks wait
    /// while the program computes; a block the program is done with goes back
    /// to the reader, so that reading a file costs no fresh memory (no page
    /// faults, no zeroing) whatever its length.
    pub fn fill_ahead<F>(depth: usize, row: [usize; R], fill: F) -> Self
    where
        T: Elem<Columns = Vec<T>>,
        F: FnMut(&mut Vec<T>) -> Result<bool> + Send + 'static,
    {
        let (rx, back_tx) = ahead::fill_thread(depth, fill);
        let w = crate::shape::size(&row);
        let blocks = rx.into_iter().map(move |b| {
            let b = b?;
            if (w == 0 && !b.is_empty()) || (w > 0 && b.len() % w != 0) {
                return Err(Error::with_kind(
                    ErrorKind::ShapeMismatch,
                    "Stream::fill_ahead",
                    format!("a block of {} values is not rows of shape {row:?}", b.len()),
                ));
            }
            let n = b.len();
            Ok(Block {
                flat: Array::from_columns([n], b)?,
                row,
                rows: n.checked_div(w).unwrap_or(0),
                next: 0,
            })
        });
        let mut s = Stream::of_blocks(blocks);
        s.recycle = Some(Box::new(move |flat: Array<T, 1>| {
            let _ = back_tx.send(flat.into_unique_columns());
        }));
        s
    }

    /// The same stream, reporting its progress: `progress(n)` is called after
    /// each pull of the program (an element, or a chunk of them), `n` counting
    /// the elements pulled so far. Returning `false` cancels the run: it
    /// stops with a `Cancelled` error that says how many elements it had
    /// pulled (results computed so far are dropped).
    pub fn with_progress(mut self, progress: impl FnMut(usize) -> bool + 'a) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// The same stream, with a progress bar on the terminal (stderr) that
    /// counts the elements pulled: out of `total` when it is given, with the
    /// rate and the time left. The bar stays when the run ends, showing how
    /// far it got. (The `progress` feature. It takes the place of an earlier
    /// [`with_progress`](Self::with_progress), which does anything else, such
    /// as cancelling.)
    #[cfg(feature = "progress")]
    pub fn with_progress_bar(self, total: Option<u64>) -> Self {
        let bar = match total {
            Some(n) => indicatif::ProgressBar::new(n).with_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {human_pos}/{human_len} elements, {per_sec}, {eta} left",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            ),
            None => indicatif::ProgressBar::new_spinner().with_style(
                indicatif::ProgressStyle::with_template("{spinner} {human_pos} elements, {per_sec}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            ),
        };
        self.with_progress(move |n| {
            bar.set_position(n as u64);
            true
        })
    }

    /// The shape of every element, for a regular stream.
    pub fn shape(&self) -> Option<[usize; R]> {
        self.shape
    }

    /// How many elements the program has pulled.
    pub fn pulled(&self) -> usize {
        self.pulled
    }

    /// The block holding the next element, checked; `None` at the end.
    fn block(&mut self) -> Result<Option<&mut Block<T, R>>> {
        while self.current.last().is_some_and(|b| b.left() == 0) {
            if let (Some(b), Some(recycle)) = (self.current.pop(), &mut self.recycle) {
                recycle(b.flat);
            }
        }
        if self.current.is_empty() {
            let at = self.pulled;
            loop {
                let b = match self.blocks.next() {
                    None => return Ok(None),
                    Some(Err(e)) => {
                        return Err(Error::with_kind(
                            e.kind(),
                            "stream",
                            format!("element {at} could not be read: {e}"),
                        ))
                    }
                    Some(Ok(b)) => b,
                };
                if b.rows == 0 {
                    continue;
                }
                if let Some(want) = self.shape {
                    if b.row != want {
                        return Err(Error::with_kind(
                            ErrorKind::ShapeMismatch,
                            "stream",
                            format!(
                                "element {at} has shape {:?}, but the stream is regular with shape {want:?}",
                                b.row
                            ),
                        ));
                    }
                }
                self.current.push(b);
                break;
            }
        }
        Ok(self.current.last_mut())
    }

    /// Counts `k` elements pulled and reports them.
    fn pulled_more(&mut self, k: usize) -> Result<()> {
        self.pulled += k;
        if let Some(report) = &mut self.progress {
            if !report(self.pulled) {
                return Err(Error::with_kind(
                    ErrorKind::Cancelled,
                    "stream",
                    format!("cancelled after {} elements", self.pulled),
                ));
            }
        }
        Ok(())
    }

    /// The next element.
    fn pull(&mut self) -> Result<Option<Array<T, R>>> {
        let Some(b) = self.block()? else {
            return Ok(None);
        };
        let x = b.take_flat(1)?;
        let row = b.row;
        self.pulled_more(1)?;
        Ok(x.reshaped(row))
    }

    /// The next elements that have the shape of the first, as one array whose
    /// outermost dimension counts them: `len` of them (when `len > 0`) or
    /// about `elems` array elements' worth; fewer at the end of the stream or
    /// before an element of another shape. `None` at the end.
    fn pull_chunk<const R1: usize>(&mut self, len: usize, elems: usize) -> Result<Option<Array<T, R1>>> {
        let Some(b) = self.block()? else {
            return Ok(None);
        };
        let row = b.row;
        let w = b.row_len();
        let c = if len > 0 { len } else { (elems / w.max(1)).max(1) };
        // The rest of a block when it holds a sixteenth of a chunk or more
        // (half, asked for a length `len`, and never more than it): no copy
        // when that is the whole block. Copying costs more than an
        // iteration of the loop (a chunk of 2^20 f32 takes about 0.4 ms to
        // copy; an iteration's own work, some 20 us).
        let (least, most) = if len > 0 {
            (c.div_ceil(2), len)
        } else {
            (c.div_ceil(16), usize::MAX)
        };
        if b.left() <= most && b.left() >= least {
            let k = b.left();
            let x = b.take(k)?;
            self.pulled_more(k)?;
            return Ok(Some(x));
        }
        // Otherwise the rows of successive blocks, copied, up to `c`, into
        // the last such chunk's storage when the program is done with it.
        let mut cols = match self.spare.take().and_then(Array::into_unique_columns) {
            Some(mut cols) => {
                // SAFETY: no slot below 0 needs to be written.
                unsafe { cols.set_len(0) };
                cols
            }
            // Room for a chunk, within reason: a huge `len` grows as it fills.
            None => T::Columns::with_capacity(c.saturating_mul(w).min(1 << 24)),
        };
        let mut n = 0;
        while n < c {
            let Some(b) = self.block()? else { break };
            if b.row != row {
                break;
            }
            let k = b.left().min(c - n);
            let lo = b.next;
            cols.extend_from(b.flat.try_columns()?, lo * w..(lo + k) * w);
            b.next += k;
            n += k;
            self.pulled_more(k)?;
        }
        let mut dims = [0; R1];
        dims[0] = n;
        dims[1..].copy_from_slice(&row);
        let chunk = Array::from_columns(dims, cols)?;
        self.spare = chunk.clone().reshaped([n * w]);
        Ok(Some(chunk))
    }
}

impl<'a, T: Elem, const R: usize, I> From<I> for Stream<'a, T, R>
where
    I: IntoIterator<Item = Array<T, R>>,
    I::IntoIter: 'a,
{
    fn from(items: I) -> Self {
        Stream::new(items)
    }
}

/// The generated code's pull: the next element of `s`, `None` at its end.
#[doc(hidden)]
pub fn next<T: Elem, const R: usize>(s: &mut Stream<'_, T, R>) -> Result<Option<Array<T, R>>> {
    s.pull()
}

/// The generated code's pull of a chunk: the next elements of `s` that have
/// the shape of the first, `len` of them (when `len > 0`) or enough to hold
/// about `elems` array elements (at least one), fewer at the end of the
/// stream, before an element of another shape, or where a block of
/// [`Stream::chunks`] is taken whole; as one array whose outermost dimension
/// counts them. `None` at the end of the stream.
#[doc(hidden)]
pub fn next_chunk<T: Elem, const R: usize, const R1: usize>(
    s: &mut Stream<'_, T, R>,
    len: usize,
    elems: usize,
) -> Result<Option<Array<T, R1>>> {
    s.pull_chunk(len, elems)
}

/// The generated code's cut of a chunk to its first `n` elements, when a
/// loop pulls chunks from several streams (a zip): all are cut to the
/// shortest, and the elements cut off go back to the front of their stream.
#[doc(hidden)]
pub fn cut<T: Elem, const R: usize, const R1: usize>(
    s: &mut Stream<'_, T, R>,
    chunk: Array<T, R1>,
    n: usize,
) -> Result<Array<T, R1>> {
    let rows = chunk.shape()[0];
    if rows <= n {
        return Ok(chunk);
    }
    let mut back = Block::of_rows(chunk);
    let kept = back.take(n)?;
    s.pulled -= rows - n;
    s.current.push(back);
    Ok(kept)
}

/// The whole stream, for the reference interpreter (which reads sequences
/// as lists).
#[doc(hidden)]
pub fn collect_arg<T: Elem, const R: usize>(s: &mut Stream<'_, T, R>) -> Result<Dyn> {
    let mut out = Vec::new();
    while let Some(x) = s.pull()? {
        match x.to_dyn() {
            Dyn::Array(a) => out.push(a),
            _ => return Err(Error::new("stream", "an element is not an array")),
        }
    }
    Ok(Dyn::Seq(out))
}

/// The type of a sequence parameter in an `#[acc]` signature,
/// `xs: Seq<Vector<f32>>`: the arrays of type `A` one after the other. The
/// generated function takes `impl Into<Stream<'_, T, R>>` in its place, so
/// that any iterator of arrays can be passed; values of `Seq` itself are
/// never made.
pub struct Seq<A>(std::marker::PhantomData<A>, std::convert::Infallible);

#[cfg(test)]
mod tests {
    use super::*;

    /// A block of half a chunk or more (asked for a length) is a chunk itself, not a copy; other
    /// chunk lengths cut blocks and join their pieces.
    #[test]
    fn whole_blocks_are_not_copied() {
        let a = Array::from_vec([4, 2], (0..8).collect::<Vec<i32>>()).unwrap();
        let b = Array::from_vec([3, 2], (8..14).collect::<Vec<i32>>()).unwrap();
        let at = a.as_slice().as_ptr();
        let mut s: Stream<'_, i32, 1> = Stream::chunks(vec![a, b.clone()]);
        let first: Array<i32, 2> = next_chunk(&mut s, 0, 8).unwrap().unwrap();
        assert_eq!(first.as_slice().as_ptr(), at);
        let mut s: Stream<'_, i32, 1> = Stream::chunks(vec![first, b]);
        let x: Array<i32, 2> = next_chunk(&mut s, 3, 0).unwrap().unwrap();
        assert_eq!(x.shape(), [3, 2]);
        let y: Array<i32, 2> = next_chunk(&mut s, 3, 0).unwrap().unwrap();
        assert_eq!(y.to_vec(), vec![6, 7, 8, 9, 10, 11]);
        let z = next(&mut s).unwrap().unwrap();
        assert_eq!(z.to_vec(), vec![12, 13]);
        assert!(next(&mut s).unwrap().is_none());
        assert_eq!(s.pulled(), 7);
    }
}
