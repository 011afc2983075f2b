//! Launch sizes: how many blocks of how many threads each skeleton's entries
//! run with, and how a fused expand spreads its work. These choices and the
//! launches that use them ([`super::kernel`]) are the host half of the
//! skeletons whose device half `accel_kernels::ptx` emits.

use crate::error::{Error, ErrorKind, Result};
use crate::gpu::{Device, DeviceBuffer, LaunchConfig};
use accel_types::launch::{scan_stage_per, BLOCK_THREADS};
use std::sync::Arc;

/// A one-dimensional launch of `grid` blocks of `block` threads.
pub fn cfg(grid: usize, block: u32) -> LaunchConfig {
    LaunchConfig {
        grid: [grid.clamp(1, u32::MAX as usize) as u32, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: 0,
    }
}

/// Blocks for `work` items of a grid-stride loop: enough to fill the device a
/// few times over (`per_sm` blocks per multiprocessor), never more than the work.
pub fn grid(dev: &Arc<dyn Device>, work: usize, block: u32, per_sm: usize) -> usize {
    let sms = (dev.props().multiprocessors as usize).max(1);
    work.div_ceil(block as usize).min(sms * per_sm).max(1)
}

/// Blocks for `work` items of the grid-stride kernel `kernel` of module `ptx`:
/// as many as the device holds at once (the kernel's occupancy, from its
/// register use, times the multiprocessors), so that one wave covers the
/// device; never more than the work.
pub fn grid_for(
    dev: &Arc<dyn Device>,
    ptx: &'static str,
    kernel: &str,
    work: usize,
    block: u32,
) -> Result<usize> {
    let per_sm = dev.resident_blocks(ptx, kernel, block, 0)?.max(1);
    Ok(grid(dev, work, block, per_sm as usize))
}

/// Whether a permute of `n` sources into `nout` targets combines in a table
/// per block in shared memory (`PermuteEntry::Private`, for outputs of at
/// most `bins` elements, 0 when the kernel has no such entry), and over how
/// many blocks: each block pays for filling and merging its table, so each
/// gets at least 8 sources per target, and no more blocks than
/// `grid_for` would run.
pub fn private_permute(n: usize, nout: usize, bins: usize, grid_for: usize) -> Option<usize> {
    const SOURCES_PER_TARGET: usize = 8;
    let fits = bins > 0 && nout > 0 && nout <= bins && n >= SOURCES_PER_TARGET * nout;
    fits.then(|| grid_for.min(n / (SOURCES_PER_TARGET * nout)).max(1))
}

/// Blocks for the exclusive scan of a sort's `tn` digit counts: 1 (one
/// block, `SortEntry::Scan` alone) while each of its threads takes at most
/// 16 counts (a thread's loads wait on each other, so about the cost of the
/// two launches more), else at least 4,096 counts per block, up to 4 blocks
/// per multiprocessor, at least 2 (`Reduce`, `Scan` of the blocks' sums,
/// `Apply`). One block scanning 16 counts per 256 keys was the sort's
/// bottleneck at millions of keys (docs/gpu.md).
pub fn count_scan_blocks(dev: &Arc<dyn Device>, tn: usize) -> usize {
    const ONE_BLOCK: usize = 16 * BLOCK_THREADS;
    if tn <= ONE_BLOCK {
        return 1;
    }
    grid(dev, tn, (16 * BLOCK_THREADS) as u32, 4).max(2)
}

/// The split of a fold of `n > 0` elements over blocks of 256 threads: the
/// grid, the elements per thread (each thread a contiguous range, so the
/// combination order is sequential), and how many blocks have elements.
pub fn fold_split(dev: &Arc<dyn Device>, n: usize) -> (usize, usize, usize) {
    let g = grid(dev, n, BLOCK_THREADS as u32, 4);
    let per = n.div_ceil(g * BLOCK_THREADS).max(1);
    let busy_threads = n.div_ceil(per);
    (g, per, busy_threads.div_ceil(BLOCK_THREADS))
}

/// Rows shorter than this are folded by one warp each, longer ones by a block.
const WARP_ROW: usize = 2048;

/// How a fold of rows of `len` elements runs: `(warp per row?, elements per
/// thread)`. Every thread takes a contiguous range, so partial results are
/// combined in index order (for a commutative operator the kernel strides
/// over the row instead, and does not use the count).
pub fn fold_row_split(len: usize) -> (bool, usize) {
    if len < WARP_ROW {
        (true, len.div_ceil(32).max(1))
    } else {
        (false, len.div_ceil(BLOCK_THREADS))
    }
}

/// Positions per thread of a look-back tile (256 threads) whose
/// accumulator is not staged.
const LONG_SCAN_PER: usize = 16;

/// Rows of at most this many elements are scanned by a warp each.
const WARP_SCAN_ROW: usize = 256;

/// How a scan of rows runs (the entries of `accel_kernels::ptx::scan`).
/// Every thread scans a contiguous part of a row, its prefix from the parts
/// before it, so the operator need only be associative (a float sum is
/// reassociated, as a fold's is); the split depends on the row length and
/// the accumulator alone, so a result does not depend on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanSplit {
    /// `ScanEntry::WarpRows`: a warp per row, `per` positions a lane.
    WarpRows { per: usize },
    /// `ScanEntry::Rows`: a block of 256 threads per row, `per` positions
    /// each.
    Rows { per: usize },
    /// `ScanEntry::Lookback`: tiles of `BLOCK_THREADS * per` positions,
    /// `tpr` per row, with look-back.
    Lookback { per: usize, tpr: usize },
}

/// The split of a scan of `rows` rows of `len` elements, for accumulators
/// whose leaves take `acc_leaf_bytes` each:
/// * a warp per row of at most 256 elements (not staged: the stage's shared
///   memory would leave few warps per multiprocessor);
/// * where the accumulator can be staged ([`scan_stage_per`]), a block per
///   row of at most one tile, staged (`per` the least power of two that
///   covers the row: the stage's padding needs a thread's positions within
///   32 aligned offsets), and tiles with look-back for longer rows, few or
///   many (each element read once, where a block per row reads it twice);
/// * where it cannot, a block per row, and tiles only for few long rows (one
///   block per row would leave most of the device idle).
pub fn scan_split(dev: &Arc<dyn Device>, rows: usize, len: usize, acc_leaf_bytes: &[usize]) -> ScanSplit {
    let tiles = |per: usize| ScanSplit::Lookback {
        per,
        tpr: len.div_ceil(BLOCK_THREADS * per),
    };
    if len <= WARP_SCAN_ROW {
        return ScanSplit::WarpRows {
            per: len.div_ceil(32).max(1),
        };
    }
    if let Some(stage) = scan_stage_per(acc_leaf_bytes) {
        return if len <= BLOCK_THREADS * stage {
            ScanSplit::Rows {
                per: len.div_ceil(BLOCK_THREADS).next_power_of_two(),
            }
        } else {
            tiles(stage)
        };
    }
    let sms = (dev.props().multiprocessors as usize).max(1);
    if len >= 2 * BLOCK_THREADS * LONG_SCAN_PER && rows < 2 * sms {
        return tiles(LONG_SCAN_PER);
    }
    ScanSplit::Rows {
        per: len.div_ceil(BLOCK_THREADS),
    }
}

/// How a fused expand into a permute spreads its work over GPU threads (the
/// entries of `accel_kernels::ptx::expand`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpandStrategy {
    /// One input per thread, which loops over the input's outputs.
    Thread,
    /// One input per warp, the lanes striding over its outputs.
    Warp,
    /// One input per block, the threads striding over its outputs.
    Block,
    /// One output per thread, which finds its input by a binary search over
    /// the offsets of the counts.
    Prefix,
    /// 256 inputs per block (the thesis's n per block): the threads stride
    /// over the block's outputs, each finding its input by a binary search
    /// over the block's offsets in shared memory.
    Chunk,
}

/// 0: not forced (the environment, then the rule, decide); 1 + the strategy's
/// position in `STRATEGIES` otherwise.
static FORCED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

const STRATEGIES: [ExpandStrategy; 5] = [
    ExpandStrategy::Thread,
    ExpandStrategy::Warp,
    ExpandStrategy::Block,
    ExpandStrategy::Prefix,
    ExpandStrategy::Chunk,
];

/// Forces the strategy of every later fused expand on the GPU (`None`: back
/// to the environment variable `ACCEL_GPU_EXPAND_STRATEGY=thread|warp|block|prefix|chunk`
/// when set, to the automatic choice otherwise). For tests and benchmarks;
/// folds always run balanced by output (`Prefix`), which keeps their order.
pub fn set_expand_strategy(s: Option<ExpandStrategy>) {
    let v = s
        .and_then(|s| STRATEGIES.iter().position(|x| *x == s))
        .map_or(0, |i| i as u8 + 1);
    FORCED.store(v, std::sync::atomic::Ordering::Relaxed);
}

fn forced_strategy() -> Option<ExpandStrategy> {
    match FORCED.load(std::sync::atomic::Ordering::Relaxed) {
        0 => {
            static ENV: std::sync::OnceLock<Option<ExpandStrategy>> = std::sync::OnceLock::new();
            *ENV.get_or_init(|| match std::env::var("ACCEL_GPU_EXPAND_STRATEGY").as_deref() {
                Ok("thread") => Some(ExpandStrategy::Thread),
                Ok("warp") => Some(ExpandStrategy::Warp),
                Ok("block") => Some(ExpandStrategy::Block),
                Ok("prefix") => Some(ExpandStrategy::Prefix),
                Ok("chunk") => Some(ExpandStrategy::Chunk),
                _ => None,
            })
        }
        v => STRATEGIES.get(v as usize - 1).copied(),
    }
}

/// The strategy of a fused expand into a permute of `n > 0` inputs whose
/// counts sum to `total` with maximum `max`: the forced one if any, otherwise
/// the rule of docs/bench/expand.md (to be confirmed on a GPU). Even counts
/// (the maximum at most four times the mean, plus a little): one input per
/// thread for short expansions (mean < 16), per warp up to a mean of 512, per
/// block beyond. Skewed counts, or few inputs with long expansions (the
/// device would idle): one output per thread, which balances perfectly.
pub fn expand_strategy(total: usize, max: usize, n: usize) -> ExpandStrategy {
    if let Some(s) = forced_strategy() {
        return s;
    }
    let n = n.max(1);
    let mean = total / n;
    let even = max <= 4 * mean + 8;
    if !even || (n < 1024 && mean >= 32) {
        ExpandStrategy::Prefix
    } else if mean < 16 {
        ExpandStrategy::Thread
    } else if mean < 512 {
        ExpandStrategy::Warp
    } else {
        ExpandStrategy::Block
    }
}

/// `(total, maximum)` of a fused expand's counts, from the two `u64`s that
/// its scan pass leaves in `stats`.
pub fn expand_stats(stats: &DeviceBuffer) -> Result<(usize, usize)> {
    let mut b = [0u8; 16];
    stats.device().download(stats.ptr(), &mut b)?;
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[8 * i..8 * i + 8]);
        u64::from_le_bytes(w)
    };
    let too_big = || {
        Error::with_kind(
            ErrorKind::OutOfMemory,
            "expand",
            "the expansion's size overflows usize",
        )
    };
    let total = usize::try_from(word(0)).map_err(|_| too_big())?;
    let max = usize::try_from(word(1)).map_err(|_| too_big())?;
    Ok((total, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule on the thesis's distributions (docs/bench/expand.md), unless
    /// the environment forces a strategy.
    #[test]
    fn expand_rule_on_the_thesis_distributions() {
        if forced_strategy().is_some() {
            return;
        }
        use ExpandStrategy::*;
        let n = 100_000;
        // (total, max) → pick.
        let cases = [
            ((5 * n, 10), Thread),     // 0-10
            ((3 * n / 4, 1), Thread),  // 75% 1, 25% 0
            ((50 * n, 100), Warp),     // 0-100
            ((2000 * n, 3000), Block), // 1000-3000
            ((330 * n, 3500), Prefix), // 90% 0-10, 10% 3000-3500
        ];
        for ((total, max), want) in cases {
            assert_eq!(expand_strategy(total, max, n), want, "total {total}, max {max}");
        }
        // Few inputs with long expansions: balanced by output.
        assert_eq!(expand_strategy(2000 * 10, 3000, 10), Prefix);
        assert_eq!(expand_strategy(50, 10, 10), Thread);
    }

    /// The scan entries by row length: a warp per short row, a staged block
    /// per row of one tile (a power of two per thread, covering the row),
    /// tiles beyond; an accumulator too wide to stage keeps a block per row
    /// unless there are few long rows.
    #[cfg(feature = "ptx-sim")]
    #[test]
    fn scan_split_by_row_length_and_accumulator() {
        use ScanSplit::*;
        let dev: Arc<dyn Device> = Arc::new(crate::ptx_sim::SimDevice::new(1));
        let sms = (dev.props().multiprocessors as usize).max(1);
        let f32s: &[usize] = &[4];
        assert_eq!(scan_split(&dev, 1000, 0, f32s), WarpRows { per: 1 });
        assert_eq!(scan_split(&dev, 1000, 100, f32s), WarpRows { per: 4 });
        assert_eq!(scan_split(&dev, 1000, 256, f32s), WarpRows { per: 8 });
        assert_eq!(scan_split(&dev, 1000, 257, f32s), Rows { per: 2 });
        assert_eq!(scan_split(&dev, 1000, 1000, f32s), Rows { per: 4 });
        assert_eq!(scan_split(&dev, 1000, 3000, f32s), Rows { per: 16 });
        assert_eq!(scan_split(&dev, 1000, 4096, f32s), Rows { per: 16 });
        assert_eq!(scan_split(&dev, 1000, 4097, f32s), Lookback { per: 16, tpr: 2 });
        assert_eq!(scan_split(&dev, 1, 40_000, f32s), Lookback { per: 16, tpr: 10 });
        // 13 leaves of 8 bytes: no stage.
        let wide: &[usize] = &[8; 13];
        assert_eq!(scan_stage_per(wide), None);
        assert_eq!(scan_split(&dev, 4 * sms, 40_000, wide), Rows { per: 157 });
        assert_eq!(scan_split(&dev, 1, 40_000, wide), Lookback { per: 16, tpr: 10 });
    }
}
