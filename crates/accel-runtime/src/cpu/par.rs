//! The one door from the CPU skeletons to rayon.
//!
//! A skeleton is generic over its element function, so everything it calls
//! generically is compiled again for every kernel of every program. Rayon's
//! scheduling code (jobs, joins, splitting, unwinding) was 46% of the LLVM IR
//! of a test binary (`cargo llvm-lines --test differential`), and a large share
//! of each `#[acc]` function's build time. Here it is called only with
//! `&dyn Fn` bodies, from functions that are not generic, so it is compiled
//! once, in this crate. A body runs a whole chunk of work, so the indirect call
//! costs nothing measurable; the chunk's own loop stays generic, inlined with
//! the element function.

use rayon::prelude::*;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

/// Threads in the current rayon pool (at least 1).
pub(crate) fn threads() -> usize {
    rayon::current_num_threads().max(1)
}

/// `body(i)` for every `i` in `0..count`, in parallel.
pub(crate) fn for_each(count: usize, body: &(dyn Fn(usize) + Sync)) {
    // One task (a small kernel, a loop's step over a short array) runs here,
    // without rayon's bridge: it would run it inline anyway, after its
    // splitting and registry lookups (a tenth of a 2,000-element sweep).
    if count == 1 {
        return body(0);
    }
    (0..count).into_par_iter().for_each(body);
}

/// `body(i, scratch)` for every `i` in `0..count`, in parallel, each task
/// reusing one `scratch = init()` for the indices it runs.
pub(crate) fn for_each_with<S: Send>(count: usize, init: fn() -> S, body: &(dyn Fn(usize, &mut S) + Sync)) {
    (0..count).into_par_iter().for_each_init(init, |s, i| body(i, s));
}

/// `[f(0), .., f(count - 1)]`, computed in parallel.
pub(crate) fn map<T: Send>(count: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    // One slot per task (a chunk of work): the lock is never contended.
    let slots: Vec<Mutex<Option<T>>> = (0..count).map(|_| Mutex::new(None)).collect();
    for_each(count, &|i| {
        let v = super::wide(|| f(i));
        *slots[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(v);
    });
    slots
        .into_iter()
        .map(|s| {
            s.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("for_each runs every index")
        })
        .collect()
}

/// `(a(), b())`, the two run in parallel.
pub(crate) fn join<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    let (mut a, mut b) = (Some(a), Some(b));
    let (mut ra, mut rb) = (None, None);
    join_erased(&mut || ra = a.take().map(|a| a()), &mut || {
        rb = b.take().map(|b| b())
    });
    (
        ra.expect("join runs its first closure"),
        rb.expect("join runs its second closure"),
    )
}

fn join_erased(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    rayon::join(a, b);
}

/// `body(c, part)` for every part `c` of `data` cut into parts of `size`
/// elements (the last one shorter), in parallel.
pub(crate) fn for_each_chunk_mut<T: Send>(
    data: &mut [T],
    size: usize,
    body: impl Fn(usize, &mut [T]) + Sync,
) {
    // A lock per part hands each task its part: never contended.
    let parts: Vec<Mutex<&mut [T]>> = data.chunks_mut(size.max(1)).map(Mutex::new).collect();
    for_each(parts.len(), &|c| {
        let part: &mut [T] = &mut parts[c].lock().unwrap_or_else(PoisonError::into_inner);
        super::wide(|| body(c, part));
    });
}

/// `0..len` cut into consecutive ranges of `size` elements (the last one
/// shorter), the unit of parallel work.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    len: usize,
    size: usize,
}

impl Split {
    pub(crate) fn new(len: usize, size: usize) -> Split {
        Split {
            len,
            size: size.max(1),
        }
    }

    /// `0..len` in `parts` ranges of about equal size (fewer when `len` is
    /// small).
    pub(crate) fn into_parts(len: usize, parts: usize) -> Split {
        Split::new(len, len.div_ceil(parts.max(1)))
    }

    pub(crate) fn count(self) -> usize {
        self.len.div_ceil(self.size)
    }

    pub(crate) fn range(self, c: usize) -> Range<usize> {
        c * self.size..((c + 1) * self.size).min(self.len)
    }

    /// The ranges in order, one after another.
    pub(crate) fn ranges(self) -> impl Iterator<Item = Range<usize>> {
        (0..self.count()).map(move |c| self.range(c))
    }

    /// `body(r)` for every range `r`, in parallel.
    pub(crate) fn for_each(self, body: impl Fn(Range<usize>) + Sync) {
        for_each(self.count(), &|c| super::wide(|| body(self.range(c))));
    }

    /// `f(r)` for every range `r`, computed in parallel, in range order.
    pub(crate) fn map<T: Send>(self, f: impl Fn(Range<usize>) -> T + Sync) -> Vec<T> {
        map(self.count(), |c| f(self.range(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_cover_their_range_in_order() {
        for (len, size) in [(0, 1), (1, 1), (10, 3), (10, 10), (10, 100), (7, 0)] {
            let s = Split::new(len, size);
            let got: Vec<usize> = s.ranges().flatten().collect();
            assert_eq!(got, (0..len).collect::<Vec<_>>(), "{len} by {size}");
            assert_eq!(s.map(|r| r.len()).iter().sum::<usize>(), len);
        }
        assert_eq!(Split::into_parts(10, 4).count(), 4);
        assert_eq!(Split::into_parts(2, 4).count(), 2);
    }

    #[test]
    fn map_and_join_keep_their_order() {
        assert_eq!(map(1000, |i| i * 2), (0..1000).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(join(|| 1, || "b"), (1, "b"));
        let hits: Vec<std::sync::atomic::AtomicUsize> = (0..100).map(|_| Default::default()).collect();
        for_each(100, &|i| {
            hits[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        });
        assert!(hits
            .iter()
            .all(|h| h.load(std::sync::atomic::Ordering::Relaxed) == 1));
    }
}
