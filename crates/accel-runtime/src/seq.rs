//! Streams: what a program's `Seq<A>` parameter is fed from. A program
//! pulls elements as it needs them, one or a chunk at a time, so the whole
//! sequence never has to be in memory (the paper's `streamIn`).

use crate::array::Array;
use crate::backend::Backend;
use crate::dynamic::{Dyn, ToDyn};
use crate::elem::Elem;
use crate::error::{Error, ErrorKind, Result};
use std::cell::Cell;

/// The elements of a `Seq<Array<T, R>>` parameter, pulled lazily from a
/// Rust iterator. Any `IntoIterator` of arrays converts into one (`Vec`,
/// `iter.map(..)`, a reader of blocks); [`Stream::regular`] says that every
/// element has one shape, [`Stream::fallible`] takes an iterator whose items
/// may be errors (a failed read).
///
/// A run stops at the first bad element (an `Err` item, or a shape that
/// differs from a regular stream's) with an error naming its position.
pub struct Stream<'a, T: Elem, const R: usize> {
    items: Box<dyn Iterator<Item = Result<Array<T, R>>> + 'a>,
    shape: Option<[usize; R]>,
    /// Elements pulled so far.
    pulled: usize,
    /// An element pulled but not used yet: the first of the next chunk.
    stash: Option<Array<T, R>>,
    /// Told the number of elements pulled after each; `false` cancels.
    progress: Option<Box<dyn FnMut(usize) -> bool + 'a>>,
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
        Stream {
            items: Box::new(items.into_iter()),
            shape: None,
            pulled: 0,
            stash: None,
            progress: None,
        }
    }

    /// A stream read ahead on a thread of its own: up to `depth` elements
    /// wait in a bounded queue while the program computes, so that reading
    /// (a file, a decoder, a generator) overlaps computing, and memory holds
    /// at most `depth` elements besides the chunk the program works on,
    /// whatever the stream's length. When the
    /// program stops early (a zip with a shorter sequence, an error), the
    /// thread stops after the element it is reading.
    pub fn read_ahead<I>(depth: usize, items: I) -> Self
    where
        I: IntoIterator<Item = Result<Array<T, R>>> + Send + 'static,
        I::IntoIter: Send,
        Array<T, R>: Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::sync_channel(depth.max(1));
        std::thread::spawn(move || {
            for x in items {
                // The program has dropped the stream: stop reading.
                if tx.send(x).is_err() {
                    break;
                }
            }
        });
        Stream::fallible(rx)
    }

    /// The same stream, reporting its progress: `progress(n)` is called after
    /// each element the program pulls, `n` counting them. Returning `false`
    /// cancels the run: it stops with a `Cancelled` error that says how many
    /// elements it had pulled (results computed so far are dropped).
    pub fn with_progress(mut self, progress: impl FnMut(usize) -> bool + 'a) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// The shape of every element, for a regular stream.
    pub fn shape(&self) -> Option<[usize; R]> {
        self.shape
    }

    /// How many elements the program has pulled.
    pub fn pulled(&self) -> usize {
        self.pulled
    }

    /// The next element, checked.
    fn pull(&mut self) -> Result<Option<Array<T, R>>> {
        if let Some(x) = self.stash.take() {
            return Ok(Some(x));
        }
        let at = self.pulled;
        let item = match self.items.next() {
            None => return Ok(None),
            Some(Err(e)) => {
                return Err(Error::with_kind(
                    e.kind(),
                    "stream",
                    format!("element {at} could not be read: {e}"),
                ))
            }
            Some(Ok(x)) => x,
        };
        if let Some(want) = self.shape {
            if item.shape() != want {
                return Err(Error::with_kind(
                    ErrorKind::ShapeMismatch,
                    "stream",
                    format!(
                        "element {at} has shape {:?}, but the stream is regular with shape {want:?}",
                        item.shape()
                    ),
                ));
            }
        }
        self.pulled += 1;
        if let Some(report) = &mut self.progress {
            if !report(self.pulled) {
                return Err(Error::with_kind(
                    ErrorKind::Cancelled,
                    "stream",
                    format!("cancelled after {} elements", self.pulled),
                ));
            }
        }
        Ok(Some(item))
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
/// stream or before an element of another shape; as one array whose
/// outermost dimension counts them. `None` at the end of the stream.
#[doc(hidden)]
pub fn next_chunk<T: Elem, const R: usize, const R1: usize>(
    s: &mut Stream<'_, T, R>,
    len: usize,
    elems: usize,
) -> Result<Option<Array<T, R1>>> {
    let Some(first) = s.pull()? else {
        return Ok(None);
    };
    let shape = first.shape();
    let c = if len > 0 {
        len
    } else {
        (elems / first.len().max(1)).max(1)
    };
    let mut data = first.to_vec();
    let mut n = 1;
    while n < c {
        match s.pull()? {
            None => break,
            Some(x) if x.shape() == shape => {
                data.extend(x.to_vec());
                n += 1;
            }
            Some(x) => {
                s.stash = Some(x);
                break;
            }
        }
    }
    let mut dims = [0; R1];
    dims[0] = n;
    dims[1..].copy_from_slice(&shape);
    Array::from_vec(dims, data).map(Some)
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

thread_local! {
    /// The chunk length asked for on this thread (0: none).
    static CHUNK_LEN: Cell<usize> = const { Cell::new(0) };
}

/// Runs `f` with the sequences of the programs it calls on this thread
/// chunked `len` elements at a time (0: chosen by the backend, as
/// without it). Results do not depend on the chunk length (up to float
/// rounding, as the order of a chunk's reduction changes); tests and
/// tuning use it. `ACCEL_CHUNK` sets it for the whole process.
pub fn with_chunk_len<T>(len: usize, f: impl FnOnce() -> T) -> T {
    let old = CHUNK_LEN.with(|c| c.replace(len));
    // Restored even if `f` panics.
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            CHUNK_LEN.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(old);
    f()
}

/// The chunk length asked for: [`with_chunk_len`]'s, else `ACCEL_CHUNK`'s,
/// else 0 (the program chooses it from [`chunk_elems`]).
#[doc(hidden)]
pub fn chunk_len() -> usize {
    let here = CHUNK_LEN.with(|c| c.get());
    if here > 0 {
        return here;
    }
    static ENV: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *ENV.get_or_init(|| {
        std::env::var("ACCEL_CHUNK")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    })
}

/// How many array elements a chunk of a sequence should hold on `backend`:
/// enough that every thread of its parallel width has work (the CPU's
/// threads, a GPU's resident threads) and the kernels' launch costs vanish,
/// few enough that a chunk's arrays stay small.
#[doc(hidden)]
pub fn chunk_elems(backend: &Backend) -> usize {
    match backend.device() {
        Some(_) => 1 << 22,
        None => (rayon::current_num_threads().max(1) << 16).max(1 << 20),
    }
}
