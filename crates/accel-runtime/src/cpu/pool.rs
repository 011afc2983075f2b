//! Reuse of dead arrays within one program call.
//!
//! Generated code hands every array it no longer needs to [`recycle`] instead
//! of dropping it, and every kernel takes its output's storage from
//! [`take`]. A loop that rebuilds its state each step (`a = generate(.. a ..)`)
//! then writes each new state into the storage of an old one, instead of
//! asking the allocator for fresh memory every step: for large arrays that is
//! an `mmap`, a page fault on every first touch, and an `munmap`, which cost
//! as much as the kernel itself in the PolyBench stencils.
//!
//! The pool lives on the calling thread. While a program runs (between
//! [`Scope::enter`] and the scope's drop) it holds at most [`SLOTS`] arrays,
//! the oldest given back first, so it never keeps more than a few dead arrays
//! beyond what the program had alive. When the outermost program returns it
//! keeps the newest of them up to [`RETAIN_BYTES`] in all, for the next call
//! on this thread (as PyTorch's and CuPy's caching allocators do): a program
//! called again and again would otherwise map and fault in its intermediate
//! arrays afresh every call (tridiagonal in the corpus: 18 ms a call against
//! 12 ms with its memory reused). They are freed when the thread ends, or
//! never kept with `ACCEL_POOL=off`.
//!
//! Storage is shared between element types of one size and alignment (an
//! `f32` array's memory can hold an `i32` array): the allocation's layout is
//! the same, which is what `Vec::from_raw_parts` requires.

use std::alloc::Layout;
use std::cell::RefCell;
use std::ptr::NonNull;

/// Whether dead arrays are reused: yes unless `ACCEL_POOL=off` (to measure
/// what reuse saves, in one binary).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("ACCEL_POOL").map_or(true, |v| v != "off"))
}

/// Most arrays kept at once.
const SLOTS: usize = 8;
/// Smaller arrays are not kept: the allocator serves them quickly.
const MIN_BYTES: usize = 1 << 14;
/// Most bytes kept on a thread between program calls.
const RETAIN_BYTES: usize = 256 << 20;

/// A dead array's storage: `cap` elements of `size` bytes aligned to `align`.
struct Block {
    ptr: NonNull<u8>,
    size: usize,
    align: usize,
    cap: usize,
}

impl Block {
    fn layout(&self) -> Layout {
        // The layout `Vec` allocated this block with (`Layout::array`), which
        // was valid then.
        Layout::from_size_align(self.size * self.cap, self.align).expect("a Vec's layout")
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

#[derive(Default)]
struct Pool {
    /// Programs running on this thread (nested calls share the pool).
    depth: usize,
    /// Oldest first.
    free: Vec<Block>,
}

thread_local! {
    static POOL: RefCell<Pool> = RefCell::new(Pool::default());
}

/// While alive, arrays given to [`recycle`] on this thread are kept for
/// [`take`]; the last scope to end frees them.
#[derive(Debug)]
pub struct Scope(());

impl Scope {
    pub fn enter() -> Scope {
        POOL.with(|p| p.borrow_mut().depth += 1);
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
        // Taken out first so the blocks are freed outside the borrow. During
        // thread teardown the pool may be gone already: nothing to free then.
        let free = POOL
            .try_with(|p| {
                let mut p = p.borrow_mut();
                p.depth -= 1;
                if p.depth > 0 {
                    return Vec::new();
                }
                // The newest blocks up to the budget stay for the next call.
                let mut kept = 0usize;
                let mut keep = p.free.len();
                while keep > 0 {
                    let bytes = p.free[keep - 1].size * p.free[keep - 1].cap;
                    if kept + bytes > RETAIN_BYTES {
                        break;
                    }
                    kept += bytes;
                    keep -= 1;
                }
                p.free.drain(..keep).collect::<Vec<Block>>()
            })
            .unwrap_or_default();
        drop(free);
    }
}

/// An empty vector with room for `n` elements: the storage of a dead array
/// when one fits (at most an eighth larger than needed), a new allocation
/// otherwise.
pub fn take<T: Copy>(n: usize) -> Vec<T> {
    let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
    if size == 0 || n.saturating_mul(size) < MIN_BYTES {
        return Vec::with_capacity(n);
    }
    let block = POOL
        .try_with(|p| {
            let mut p = p.borrow_mut();
            if p.depth == 0 || p.free.is_empty() {
                return None;
            }
            let fits = |b: &Block| b.size == size && b.align == align && b.cap >= n && b.cap - n <= n / 8;
            // The tightest fit, the newest among equals (its memory is the
            // most likely still in cache).
            let i = (0..p.free.len())
                .rev()
                .filter(|&i| fits(&p.free[i]))
                .min_by_key(|&i| p.free[i].cap)?;
            Some(p.free.remove(i))
        })
        .ok()
        .flatten();
    match block {
        Some(b) => {
            let b = std::mem::ManuallyDrop::new(b);
            // SAFETY: `b.ptr` was allocated by a `Vec` of elements with this
            // size and alignment and capacity `b.cap` (see `recycle`), so the
            // layout matches what `Vec<T>` frees with; length 0 needs no
            // initialised elements, and `T` is `Copy` in every use (plain
            // data: any bits the memory held are never read before written).
            unsafe { Vec::from_raw_parts(b.ptr.as_ptr() as *mut T, 0, b.cap) }
        }
        None => Vec::with_capacity(n),
    }
}

/// Gives a dead array's storage to the pool, or frees it when no program is
/// running on this thread or the array is small.
pub fn recycle<T: Copy>(v: Vec<T>) {
    let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
    if size == 0 || v.capacity().saturating_mul(size) < MIN_BYTES {
        return;
    }
    let mut v = std::mem::ManuallyDrop::new(v);
    let block = Block {
        // SAFETY: a `Vec` with nonzero capacity of a sized type has a real allocation.
        ptr: unsafe { NonNull::new_unchecked(v.as_mut_ptr() as *mut u8) },
        size,
        align,
        cap: v.capacity(),
    };
    let evicted = POOL.try_with(|p| {
        let mut p = p.borrow_mut();
        if p.depth == 0 || !enabled() {
            return Some(block);
        }
        p.free.push(block);
        (p.free.len() > SLOTS).then(|| p.free.remove(0))
    });
    // Freed outside the borrow (also when the pool is gone: `Err` drops the block).
    drop(evicted);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pooled() -> usize {
        POOL.with(|p| p.borrow().free.len())
    }

    #[test]
    fn storage_is_reused_within_a_scope_and_by_the_next() {
        let n = 1 << 16;
        // Outside a scope nothing is kept.
        recycle(vec![1.0f32; n]);
        assert_eq!(pooled(), 0);
        let scope = Scope::enter();
        let v: Vec<f32> = vec![1.0; n];
        let addr = v.as_ptr() as usize;
        recycle(v);
        assert_eq!(pooled(), 1);
        // Same size and alignment: an i32 array gets the f32 array's memory.
        let w: Vec<i32> = take(n - 5);
        assert_eq!((w.as_ptr() as usize, w.len(), w.capacity()), (addr, 0, n));
        recycle(w);
        // Too large a block for a small array, and a different element size.
        let (small, wide) = (take::<f32>(n / 2), take::<f64>(n / 2));
        assert!(small.as_ptr() as usize != addr && wide.as_ptr() as usize != addr);
        assert_eq!(pooled(), 1);
        drop(scope);
        // Kept for the next call on this thread, which reuses it.
        assert_eq!(pooled(), 1);
        let _next = Scope::enter();
        let again: Vec<f32> = take(n);
        assert_eq!(again.as_ptr() as usize, addr);
        assert_eq!(pooled(), 0);
    }

    #[test]
    fn at_most_the_budget_is_kept_between_calls() {
        let scope = Scope::enter();
        // Not touched: `with_capacity` maps no page.
        let big = |bytes: usize| Vec::<u8>::with_capacity(bytes);
        recycle(big(RETAIN_BYTES / 2 + 1));
        recycle(big(RETAIN_BYTES / 2 + 1));
        recycle(big(1 << 20));
        assert_eq!(pooled(), 3);
        drop(scope);
        // The newest first: the 1 MiB block and one large one fit.
        let kept: Vec<usize> = POOL.with(|p| p.borrow().free.iter().map(|b| b.cap).collect());
        assert_eq!(kept, vec![RETAIN_BYTES / 2 + 1, 1 << 20]);
    }

    #[test]
    fn nested_scopes_share_the_pool_and_it_stays_bounded() {
        let outer = Scope::enter();
        {
            let _inner = Scope::enter();
            for _ in 0..SLOTS + 3 {
                recycle(vec![0u64; 4096]);
            }
            assert_eq!(pooled(), SLOTS);
        }
        // The inner scope's end keeps the pool for the outer one.
        assert_eq!(pooled(), SLOTS);
        drop(outer);
        // Well within the budget: all kept for the next call.
        assert_eq!(pooled(), SLOTS);
        // Small arrays are never kept.
        let _s = Scope::enter();
        recycle(vec![0u8; 100]);
        assert_eq!(pooled(), SLOTS);
    }
}
