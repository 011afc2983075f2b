//! The length of a sequence's chunks: asked for, or chosen from the backend.

use crate::backend::Backend;
use std::cell::Cell;

thread_local! {
    /// The chunk length asked for on this thread (0: none).
    static CHUNK_LEN: Cell<usize> = const { Cell::new(0) };
    /// The array elements per chunk asked for on this thread (0: none).
    static CHUNK_ELEMS: Cell<usize> = const { Cell::new(0) };
}

/// Runs `f` with `cell` set to `v`, restored after, even if `f` panics.
fn with_set<T>(cell: &'static std::thread::LocalKey<Cell<usize>>, v: usize, f: impl FnOnce() -> T) -> T {
    struct Restore(&'static std::thread::LocalKey<Cell<usize>>, usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.with(|c| c.set(self.1));
        }
    }
    let _restore = Restore(cell, cell.with(|c| c.replace(v)));
    f()
}

/// Runs `f` with the sequences of the programs it calls on this thread
/// chunked `len` elements at a time (0: chosen by the backend, as
/// without it). Results do not depend on the chunk length (up to float
/// rounding, as the order of a chunk's reduction changes); tests and
/// tuning use it. `ACCEL_CHUNK` sets it for the whole process.
pub fn with_chunk_len<T>(len: usize, f: impl FnOnce() -> T) -> T {
    with_set(&CHUNK_LEN, len, f)
}

/// Runs `f` with the chunks of the regular sequences of the programs it
/// calls on this thread holding about `elems` array elements each (the
/// chunk length is `elems` over the elements of one sequence element, at
/// least 1; 0: chosen by the backend, as without it). Where
/// [`with_chunk_len`] fixes the number of sequence elements per chunk, this
/// bounds a chunk's memory whatever its elements' size: the override of
/// [`chunk_elems`]'s choice, for a machine with less memory, or for tuning.
pub fn with_chunk_elems<T>(elems: usize, f: impl FnOnce() -> T) -> T {
    with_set(&CHUNK_ELEMS, elems, f)
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

/// How many array elements a chunk of a sequence should hold on `backend`
/// ([`with_chunk_elems`]'s count where one is asked for):
/// enough that every thread of its parallel width has work (the CPU's
/// threads, a GPU's resident threads) and the loop's cost per chunk
/// vanishes (on the CPU some 20 us: a fork-join of the threads per kernel;
/// at 2^20 elements that was 8% of a dot product, at 2^22 2%), few enough
/// that a chunk's arrays stay small. On a device with a memory limit, a
/// 64th of the limit's bytes: room for a chunk's arrays of 8-byte
/// elements, their intermediates and the chunks in flight.
#[doc(hidden)]
pub fn chunk_elems(backend: &Backend) -> usize {
    let asked = CHUNK_ELEMS.with(|c| c.get());
    if asked > 0 {
        return asked;
    }
    match backend.device() {
        Some(d) => match d.mem_limit() {
            Some(limit) => (limit / 64).clamp(1, 1 << 22),
            None => 1 << 22,
        },
        None => (rayon::current_num_threads().max(1) << 18).max(1 << 22),
    }
}
