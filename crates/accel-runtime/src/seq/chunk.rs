//! The length of a sequence's chunks: asked for, or chosen from the backend.

use crate::backend::Backend;
use std::cell::Cell;

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
/// threads, a GPU's resident threads) and the loop's cost per chunk
/// vanishes (on the CPU some 20 us: a fork-join of the threads per kernel;
/// at 2^20 elements that was 8% of a dot product, at 2^22 2%), few enough
/// that a chunk's arrays stay small.
#[doc(hidden)]
pub fn chunk_elems(backend: &Backend) -> usize {
    match backend.device() {
        Some(_) => 1 << 22,
        None => (rayon::current_num_threads().max(1) << 18).max(1 << 22),
    }
}
