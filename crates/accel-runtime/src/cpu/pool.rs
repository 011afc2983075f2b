//! Reuse of dead arrays while programs run, and between calls.
//!
//! Generated code hands every array it no longer needs to [`recycle`] instead
//! of dropping it, and every kernel takes its output's storage from
//! [`take`]. A loop that rebuilds its state each step (`a = generate(.. a ..)`)
//! then writes each new state into the storage of an old one, instead of
//! asking the allocator for fresh memory every step: for large arrays that is
//! an `mmap`, a page fault on every first touch, and an `munmap`, which cost
//! as much as the kernel itself in the PolyBench stencils. The skeletons'
//! scratch (a permute's private tables, made on the worker threads) comes
//! from here too.
//!
//! The pool is one for the process, behind a lock taken once per array (not
//! per element), so that storage given back on one thread serves the next
//! request on any other: a permute's tables are filled on rayon's workers and
//! merged on the calling thread. While programs run it holds at most
//! [`slots`] arrays, the oldest given back first, so it never keeps more
//! than a few dead arrays beyond what the programs had alive; between calls
//! (when the last running program has returned) the newest of them up to
//! [`RETAIN_BYTES`] in all (and [`BETWEEN_CALLS_SLOTS`] arrays), for the
//! next call (as PyTorch's and CuPy's caching allocators do).
//! Results that the caller drops come here too (their storage's drop), so a
//! host loop of calls (`u = step(&u)?`) writes each result into the memory
//! of an earlier one. Arrays the caller built from its own vectors do not:
//! a stream of the caller's blocks, each dropped once its chunk is done,
//! would fill the pool with blocks that no program asks for (72 blocks on
//! 16 threads: 1.3 GB of a streamed dot product's 16 MB blocks on an H200's
//! host; see `Storage::pooled` in `array.rs`). Without the pool, a program
//! called again and again would map and fault in its arrays afresh every
//! call (tridiagonal in the corpus: 18 ms a call against 12 ms with its
//! memory reused; histo's 4 MB private table: page faults and TLB
//! shootdowns on every call). Nothing is kept with `ACCEL_POOL=off`.
//!
//! Storage is shared between element types of one size and alignment (an
//! `f32` array's memory can hold an `i32` array): the allocation's layout is
//! the same, which is what `Vec::from_raw_parts` requires.

use crate::elem::OutPtr;
use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::{Mutex, PoisonError};

/// Whether dead arrays are reused: yes unless `ACCEL_POOL=off` (to measure
/// what reuse saves, in one binary).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("ACCEL_POOL").map_or(true, |v| v != "off"))
}

/// Most arrays kept at once while programs run: a few for the programs'
/// own arrays, and room for a private table per chunk of a permute (four
/// per thread).
fn slots() -> usize {
    8 + 4 * super::par::threads()
}

/// Smaller arrays are not kept: the allocator serves them quickly.
const MIN_BYTES: usize = 1 << 14;
/// Most arrays kept between program calls: more than while programs run
/// (a call's many intermediate arrays all serve the next call), bounded
/// because `take` looks through them all.
const BETWEEN_CALLS_SLOTS: usize = 256;
/// Most bytes kept between program calls.
const RETAIN_BYTES: usize = 256 << 20;

/// A dead array's storage: `cap` elements of `size` bytes aligned to `align`.
struct Block {
    ptr: NonNull<u8>,
    size: usize,
    align: usize,
    cap: usize,
}

// SAFETY: a block owns its allocation alone (no other pointer to it is
// used while the pool holds it), and plain memory may be freed or reused on
// any thread.
unsafe impl Send for Block {}

impl Block {
    fn layout(&self) -> Layout {
        // The layout `Vec` allocated this block with (`Layout::array`), which
        // was valid then.
        Layout::from_size_align(self.size * self.cap, self.align).expect("a Vec's layout")
    }

    fn bytes(&self) -> usize {
        self.size * self.cap
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: the block was allocated by `Vec` through the global
        // allocator with this layout (nonzero: see `recycle`), and is owned
        // by this `Block` alone.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout()) }
    }
}

/// The blocks kept, and how many programs are running. Blocks are freed by
/// the caller, outside the lock.
struct Pool {
    /// Programs running (nested calls and calls on other threads count too).
    running: usize,
    /// Oldest first.
    free: Vec<Block>,
}

impl Pool {
    const fn new() -> Pool {
        Pool {
            running: 0,
            free: Vec::new(),
        }
    }

    /// The tightest block (at most an eighth larger than needed) for `n`
    /// elements of this size and alignment, the newest among equals (its
    /// memory is the most likely still in cache).
    fn take(&mut self, size: usize, align: usize, n: usize) -> Option<Block> {
        let fits = |b: &Block| b.size == size && b.align == align && b.cap >= n && b.cap - n <= n / 8;
        let i = (0..self.free.len())
            .rev()
            .filter(|&i| fits(&self.free[i]))
            .min_by_key(|&i| self.free[i].cap)?;
        Some(self.free.remove(i))
    }

    /// Keeps `block` for a later program: while programs run, at most
    /// `slots` blocks; between calls, at most [`BETWEEN_CALLS_SLOTS`] blocks
    /// and `retain` bytes. Returns what is to be freed: the oldest blocks
    /// beyond those limits.
    fn give(&mut self, block: Block, slots: usize, retain: usize) -> Vec<Block> {
        self.free.push(block);
        if self.running > 0 {
            let over = self.free.len().saturating_sub(slots);
            return self.free.drain(..over).collect();
        }
        self.trim(BETWEEN_CALLS_SLOTS, retain)
    }

    /// One program fewer running; when none is left, what is to be freed:
    /// all but the newest blocks within the limits between calls.
    fn leave(&mut self, retain: usize) -> Vec<Block> {
        self.running -= 1;
        if self.running > 0 {
            return Vec::new();
        }
        self.trim(BETWEEN_CALLS_SLOTS, retain)
    }

    /// Keeps the newest blocks that fit `slots` blocks and `retain` bytes;
    /// returns the others.
    fn trim(&mut self, slots: usize, retain: usize) -> Vec<Block> {
        let (mut bytes, mut count) = (0usize, 0usize);
        let mut keep = vec![false; self.free.len()];
        for (i, b) in self.free.iter().enumerate().rev() {
            if count < slots && bytes + b.bytes() <= retain {
                bytes += b.bytes();
                count += 1;
                keep[i] = true;
            }
        }
        let (kept, freed) = std::mem::take(&mut self.free)
            .into_iter()
            .zip(keep)
            .partition::<Vec<_>, _>(|(_, k)| *k);
        self.free = kept.into_iter().map(|(b, _)| b).collect();
        freed.into_iter().map(|(b, _)| b).collect()
    }
}

static POOL: Mutex<Pool> = Mutex::new(Pool::new());

/// The pool, locked. A panic while it was held cannot have left it
/// inconsistent (every update is one push, remove or drain).
fn pool() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// While alive, arrays given to [`recycle`] are kept for [`take`]; the last
/// scope to end frees them (but those kept for the next call).
#[derive(Debug)]
pub struct Scope(());

impl Scope {
    pub fn enter() -> Scope {
        pool().running += 1;
        Scope(())
    }
}

impl Default for Scope {
    fn default() -> Scope {
        Scope::enter()
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        // Taken out first so the blocks are freed outside the lock.
        let free = pool().leave(RETAIN_BYTES);
        drop(free);
    }
}

/// An empty vector with room for `n` elements: the storage of a dead array
/// when one fits, a new allocation otherwise.
pub fn take<T: Copy>(n: usize) -> Vec<T> {
    let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
    if size == 0 || n.saturating_mul(size) < MIN_BYTES {
        return Vec::with_capacity(n);
    }
    let block = pool().take(size, align, n);
    block.map_or_else(|| Vec::with_capacity(n), into_vec)
}

/// `n` copies of `v`, in storage from [`take`] (a large array filled in
/// parallel parts).
pub fn filled<T: Copy + Send + Sync>(n: usize, v: T) -> Vec<T> {
    let mut out = take(n);
    if !in_parts(n) {
        out.resize(n, v);
        return out;
    }
    let dst = OutPtr(out.as_mut_ptr());
    super::chunks(n).for_each(|r| {
        // SAFETY: `r` lies within `0..n`, the capacity; the parts are
        // disjoint, so each slot is written by one thread.
        unsafe { std::slice::from_raw_parts_mut(dst.at(r.start), r.len()) }.fill(v)
    });
    // SAFETY: the parts cover `0..n`, every slot written above.
    unsafe { out.set_len(n) };
    out
}

/// A copy of `from`, in storage from [`take`] (a large array copied in
/// parallel parts: a `permute` starts from a copy of defaults it may not
/// move, such as a loop's invariant `fill`, every iteration).
pub fn copied<T: Copy + Send + Sync>(from: &[T]) -> Vec<T> {
    let n = from.len();
    let mut out = take(n);
    if !in_parts(n) {
        out.extend_from_slice(from);
        return out;
    }
    let dst = OutPtr(out.as_mut_ptr());
    super::chunks(n).for_each(|r| {
        // SAFETY: `r` lies within `0..n`, the length of `from` and the
        // capacity of `out`, two different allocations; the parts are
        // disjoint, so each slot is written by one thread.
        unsafe { std::ptr::copy_nonoverlapping(from.as_ptr().add(r.start), dst.at(r.start), r.len()) }
    });
    // SAFETY: the parts cover `0..n`, every slot written above.
    unsafe { out.set_len(n) };
    out
}

/// Whether `n` elements are worth filling or copying in parallel parts.
fn in_parts(n: usize) -> bool {
    n >= 4 * super::MIN_CHUNK && super::par::threads() > 1
}

/// Gives a dead array's storage to the pool (small arrays are freed): from
/// generated code while programs run, and from an array whose last owner
/// drops it (a result the caller is done with: the next call's results
/// take its memory).
pub fn recycle<T: Copy>(v: Vec<T>) {
    let Some(block) = block_of(v) else { return };
    if !enabled() {
        return drop(block);
    }
    let slots = slots();
    let evicted = pool().give(block, slots, RETAIN_BYTES);
    // Freed outside the lock.
    drop(evicted);
}

/// A vector's storage as a block (its elements are plain data, dropped
/// without running anything); `None` (and freed) when it is too small to keep.
fn block_of<T: Copy>(v: Vec<T>) -> Option<Block> {
    let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
    if size == 0 || v.capacity().saturating_mul(size) < MIN_BYTES {
        return None;
    }
    let mut v = std::mem::ManuallyDrop::new(v);
    Some(Block {
        // SAFETY: a `Vec` with nonzero capacity of a sized type has a real allocation.
        ptr: unsafe { NonNull::new_unchecked(v.as_mut_ptr() as *mut u8) },
        size,
        align,
        cap: v.capacity(),
    })
}

/// An empty vector on a block of `T`'s size and alignment.
fn into_vec<T: Copy>(b: Block) -> Vec<T> {
    assert!(b.size == std::mem::size_of::<T>() && b.align == std::mem::align_of::<T>());
    let b = std::mem::ManuallyDrop::new(b);
    // SAFETY: `b.ptr` was allocated by a `Vec` of elements with this size
    // and alignment (checked above) and capacity `b.cap` (see `block_of`),
    // so the layout matches what `Vec<T>` frees with; length 0 needs no
    // initialised elements, and `T` is `Copy` (plain data: any bits the
    // memory held are never read before written).
    unsafe { Vec::from_raw_parts(b.ptr.as_ptr() as *mut T, 0, b.cap) }
}

#[cfg(test)]
mod tests {
    use super::*;

    // On a pool of their own: other tests of this binary run programs, on
    // the process's pool, meanwhile.

    const SLOTS: usize = 8;

    fn block(v: Vec<f32>) -> Block {
        block_of(v).expect("large enough to keep")
    }

    #[test]
    fn copies_and_fills_of_every_size_hold_every_element() {
        let part = 4 * super::super::MIN_CHUNK;
        for n in [0, 1, 7, part - 1, part, 3 * part + 7] {
            let from: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            assert_eq!(copied(&from), from, "copy of {n}");
            let bytes: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
            assert_eq!(copied(&bytes), bytes, "copy of {n} bools");
            assert_eq!(filled(n, 0xabu8), vec![0xabu8; n], "fill of {n}");
            assert_eq!(
                filled(n, (1.5f32, 7u16)),
                vec![(1.5f32, 7u16); n],
                "fill of {n} pairs"
            );
        }
    }

    #[test]
    fn storage_is_reused_while_programs_run_and_by_the_next_call() {
        let mut pool = Pool::new();
        let n = 1 << 16;
        // No program running: kept for the next, or for host code between calls.
        assert!(pool.give(block(vec![1.0; n]), SLOTS, RETAIN_BYTES).is_empty());
        assert!(pool.take(4, 4, n).is_some());
        pool.running += 1;
        let v: Vec<f32> = vec![1.0; n];
        let addr = v.as_ptr() as usize;
        assert!(pool.give(block(v), SLOTS, RETAIN_BYTES).is_empty());
        // Same size and alignment: an i32 array gets the f32 array's memory.
        let w: Vec<i32> = into_vec(pool.take(4, 4, n - 5).expect("a block fits"));
        assert_eq!((w.as_ptr() as usize, w.len(), w.capacity()), (addr, 0, n));
        assert!(pool.give(block_of(w).unwrap(), SLOTS, RETAIN_BYTES).is_empty());
        // Too large a block for a small array, and a different element size.
        assert!(pool.take(4, 4, n / 2).is_none() && pool.take(8, 8, n / 2).is_none());
        assert_eq!(pool.free.len(), 1);
        assert!(pool.leave(RETAIN_BYTES).is_empty());
        // Kept for the next call, which reuses it.
        assert_eq!(pool.free.len(), 1);
        pool.running += 1;
        let again: Vec<f32> = into_vec(pool.take(4, 4, n).unwrap());
        assert_eq!(again.as_ptr() as usize, addr);
        assert!(pool.free.is_empty());
    }

    #[test]
    fn at_most_the_budget_is_kept_between_calls() {
        let mut pool = Pool::new();
        pool.running += 1;
        // Not touched: `with_capacity` maps no page.
        let big = |bytes: usize| block_of(Vec::<u8>::with_capacity(bytes)).unwrap();
        for bytes in [RETAIN_BYTES / 2 + 1, RETAIN_BYTES / 2 + 1, 1 << 20] {
            assert!(pool.give(big(bytes), SLOTS, RETAIN_BYTES).is_empty());
        }
        let freed = pool.leave(RETAIN_BYTES);
        // The newest first: the 1 MiB block and one large one fit.
        assert_eq!(freed.len(), 1);
        let kept: Vec<usize> = pool.free.iter().map(|b| b.cap).collect();
        assert_eq!(kept, vec![RETAIN_BYTES / 2 + 1, 1 << 20]);
        // Given back between calls: the same budget, the oldest out first.
        let freed = pool.give(big(RETAIN_BYTES / 2), SLOTS, RETAIN_BYTES);
        assert_eq!(
            freed.iter().map(|b| b.cap).collect::<Vec<_>>(),
            vec![RETAIN_BYTES / 2 + 1]
        );
        assert_eq!(pool.free.len(), 2);
        // A block beyond the budget goes alone.
        assert_eq!(pool.give(big(RETAIN_BYTES + 1), SLOTS, RETAIN_BYTES).len(), 1);
        assert_eq!(pool.free.len(), 2);
    }

    #[test]
    fn nested_calls_share_the_pool_and_it_stays_bounded() {
        let mut pool = Pool::new();
        pool.running += 2;
        for _ in 0..SLOTS + 3 {
            pool.give(block_of(vec![0u64; 4096]).unwrap(), SLOTS, RETAIN_BYTES);
        }
        assert_eq!(pool.free.len(), SLOTS);
        // The inner call's end keeps the pool for the outer one.
        assert!(pool.leave(RETAIN_BYTES).is_empty());
        assert_eq!(pool.free.len(), SLOTS);
        // Well within the budget: all kept for the next call.
        assert!(pool.leave(RETAIN_BYTES).is_empty());
        assert_eq!(pool.free.len(), SLOTS);
        // Small arrays are never kept.
        assert!(block_of(vec![0u8; 100]).is_none());
    }
}
