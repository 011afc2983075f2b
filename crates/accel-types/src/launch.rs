//! A GPU kernel's host side described as data: which skeleton it is, its
//! entries and where each parameter's value comes from. The code generator
//! (`accel_kernels::gpu`) writes these descriptors as `static`s into a
//! program; the runtime's `gpu::launch::kernel` launches from them.

/// Where one kernel parameter's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param<'a> {
    /// The launch's error word.
    Err,
    /// Column `k` of input buffer `b` (its position in the launch's input buffers, `gpu::launch::Io::bufs` in the runtime).
    In(usize, usize),
    /// Dimension `d` of input buffer `b`'s shape.
    InDim(usize, usize),
    /// Column `k` of output `o`.
    Out(usize, usize),
    /// Dimension `d` of output `o`'s shape.
    OutDim(usize, usize),
    /// Host scalar `s` (its position in the launch's scalars).
    Scalar(usize),
    /// Dimension `d` of the iteration shape.
    IterDim(usize),
    /// Leaf `k` of the initial value `z`.
    Z(usize),
    /// Column `k` of a two-pass fold's partial results.
    Part(usize),
    /// A value the skeleton's host side computes (`"n"`, `"per"`, `"lock"`, ...).
    Extra(&'a str),
}

/// One `.entry` of the module and its parameters, in order.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    pub name: &'a str,
    pub params: &'a [Param<'a>],
}

/// Which skeleton a kernel is, with what its host side needs to know. The
/// entries of each are listed in the order `accel_kernels::ptx` emits them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skeleton {
    /// `[map]`: one grid-stride pass. `segments`: its element folds
    /// segments that a warp may share (`ptx::segments`): the host spreads
    /// each element over a warp when its inputs hold many values per element.
    Generate { segments: bool },
    /// A fold to one value: `[part, final]`. `z`: it has an initial value.
    FoldAll { z: bool },
    /// A fold of each innermost row: `[block per row, warp per row]`.
    FoldRows { z: bool },
    /// `[block per row, tiles with look-back, warp per row]`. The first
    /// `scan_leaves` columns of the partial results are the scan's
    /// accumulator; the rest, those of the folds in its pass (each tile's
    /// fold results, chained along the row). `empty_fold`: a fold in its
    /// pass without an initial value that has no element where a row is
    /// empty, named as its error names it (`fold1`, `fold1_all`).
    Scan {
        scan_leaves: usize,
        empty_fold: Option<&'static str>,
    },
    /// `[scatter, private]`, into a copy of input buffer `defaults`. An
    /// output of at most `private_bins` elements (0: the combination has no
    /// native atomic per field) may be combined in a table per block in
    /// shared memory first, merged into the output once per block and bin.
    Permute { defaults: usize, private_bins: usize },
    /// A radix sort: `[keys, count, scan, scatter, gather]`, `key_bits`
    /// bits of key in passes of `digit_bits`, `tile` elements per block.
    Sort {
        key_bits: u32,
        digit_bits: u32,
        tile: u32,
    },
    /// A fused expand into a permute: `[count, scan, offsets, thread, warp,
    /// block, prefix, chunk]`, `chunk` inputs per block in the last.
    ExpandPermute { defaults: usize, chunk: u32 },
    /// A fused expand into a fold: `[count, scan, offsets, part, final]`.
    ExpandFold { z: bool },
}

/// A kernel of a program's plan, as its host side sees it.
#[derive(Clone, Copy, Debug)]
pub struct Kernel<'a> {
    /// The operation named in errors.
    pub op: &'a str,
    pub skeleton: Skeleton,
    pub entries: &'a [Entry<'a>],
    /// Bytes per element of each column of each output.
    pub out_leaf_bytes: &'a [&'a [usize]],
    /// Bytes per element of each column of the accumulator (a fold's or
    /// scan's partial results).
    pub acc_leaf_bytes: &'a [usize],
    /// The source position of the operation, for its errors (`file:line:column`).
    pub at: Option<&'a str>,
    /// The source position of a scan's `empty_fold` (`Skeleton::Scan`), for
    /// its error.
    pub empty_at: Option<&'a str>,
}

/// Declares the entries of one skeleton: an enum whose order is the order of
/// the module's `.entry`s (the PTX emitter writes `ALL`) and whose values
/// the runtime launches by, so that the two cannot disagree.
macro_rules! entries {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $suffix:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vm])* $v,)*
        }

        impl $name {
            /// Every entry, in the module's order.
            pub const ALL: &'static [$name] = &[$($name::$v,)*];

            /// The entry's name after the kernel's prefix (`f_k0_` + this).
            pub fn suffix(self) -> &'static str {
                match self {
                    $($name::$v => $suffix,)*
                }
            }

            /// The entry's position among its kernel's entries.
            pub fn index(self) -> usize {
                self as usize
            }
        }
    };
}

entries!(
    /// [`Skeleton::Generate`].
    GenerateEntry {
        /// One grid-stride pass over the output.
        Map = "generate",
    }
);

entries!(
    /// [`Skeleton::FoldAll`].
    FoldAllEntry {
        /// One partial result per block.
        Part = "fold_part",
        /// One block combines the partials (and `z`).
        Final = "fold_final",
    }
);

entries!(
    /// [`Skeleton::FoldRows`]; the host launches one of them.
    FoldRowsEntry {
        /// A block per row (long rows).
        Block = "fold_rows",
        /// A warp per row (short rows).
        Warp = "fold_rows_warp",
    }
);

entries!(
    /// [`Skeleton::Scan`]; the host launches one of them.
    ScanEntry {
        /// A block per row, staged in shared memory where the accumulator
        /// allows (rows of at most one tile).
        Rows = "scan",
        /// Tiles of long rows, with look-back.
        Lookback = "scan_lookback",
        /// A warp per short row, not staged (the stage's shared memory
        /// would leave few warps per multiprocessor).
        WarpRows = "scan_warp",
    }
);

entries!(
    /// [`Skeleton::Permute`]; the host launches one of them.
    PermuteEntry {
        /// Each source element combined into its target.
        Scatter = "permute",
        /// Each block combines into its own table in shared memory, then
        /// merges the table into the output (few targets, many sources).
        Private = "permute_private",
    }
);

/// The shared memory a look-back scan's tile may stage its elements in
/// ([`ScanEntry::Lookback`]: read from global memory by consecutive threads,
/// scanned by each thread from its own positions), padding included.
pub const SCAN_STAGE_BYTES: usize = 24 * 1024;

/// The padding of a look-back scan's stage: a slot after every
/// `1 << scan_stage_pad_shift(..)` positions, so that the threads reading
/// their own consecutive positions (a power of two, at most 16, apart) fall
/// in different banks. A shared access is served 128 bytes of lanes at a
/// time: after every 32 slots for 4-byte leaves (a warp), after every 16
/// when every leaf takes 8 bytes (a half-warp; with padding per 32, two
/// lanes of a half-warp shared each bank pair: 2 extra wavefronts per
/// access, counted on an H200). Mixed leaves keep 32: their 8-byte leaves
/// conflict two ways, their 4-byte ones not at all.
pub fn scan_stage_pad_shift(leaf_bytes: &[usize]) -> u32 {
    if !leaf_bytes.is_empty() && leaf_bytes.iter().all(|&b| b > 4) {
        4
    } else {
        5
    }
}

/// Positions per thread of a look-back scan's tile, for accumulators whose
/// leaves take `leaf_bytes` bytes each on the device: 16, or the largest
/// power of two whose tile of [`BLOCK_THREADS`] threads (with its padding,
/// [`scan_stage_pad_shift`]) fits in [`SCAN_STAGE_BYTES`] (a shared slot is
/// 4 bytes, or 8 for 8-byte leaves). `None` when not even one position per
/// thread fits, or the slots pass 64 bytes (the block's 258 partial
/// results, in shared memory too, then leave too little of the 48 KiB a
/// block may declare): the tile is then not staged, and has 16 positions
/// per thread.
/// The kernel's shared arrays and the host's tiles both follow it.
pub fn scan_stage_per(leaf_bytes: &[usize]) -> Option<usize> {
    let slot: usize = leaf_bytes.iter().map(|&b| if b > 4 { 8 } else { 4 }).sum();
    let padded = BLOCK_THREADS + (BLOCK_THREADS >> scan_stage_pad_shift(leaf_bytes));
    let fits = SCAN_STAGE_BYTES / (padded * slot.max(1));
    (fits >= 1 && slot <= 64).then(|| 16usize.min(1 << fits.ilog2()))
}

/// The bytes of a block's private table ([`PermuteEntry::Private`]): small
/// enough to leave room for several blocks per multiprocessor.
pub const PRIVATE_TABLE_BYTES: usize = 16 * 1024;

/// The most targets a private table of elements of `elem_bytes` bytes holds.
pub fn private_bins(elem_bytes: usize) -> usize {
    PRIVATE_TABLE_BYTES / elem_bytes.max(1)
}

entries!(
    /// [`Skeleton::Sort`]: keys, then per digit a count, a scan and a
    /// scatter, then the gather of the sorted elements. The scan of the
    /// counts is one block (`Scan`) when they are few; otherwise each block
    /// sums a range of them (`Reduce`), one block scans those sums (`Scan`),
    /// and each block scans its range from its sum's prefix (`Apply`).
    SortEntry {
        Keys = "skeys",
        Count = "scount",
        Scan = "sscan",
        Scatter = "sscatter",
        Gather = "sgather",
        Reduce = "sreduce",
        Apply = "sapply",
    }
);

entries!(
    /// [`Skeleton::ExpandPermute`]: the counts' offsets, then one entry per
    /// work distribution; the host launches one of those.
    ExpandPermuteEntry {
        Count = "xcount",
        Scan = "xscan",
        Offsets = "xoffs",
        Thread = "xthread",
        Warp = "xwarp",
        Block = "xblock",
        Prefix = "xprefix",
        Chunk = "xchunk",
    }
);

entries!(
    /// [`Skeleton::ExpandFold`]: the counts' offsets, then the fold's two passes.
    ExpandFoldEntry {
        Count = "xcount",
        Scan = "xscan",
        Offsets = "xoffs",
        Part = "xfold",
        Final = "xfold_final",
    }
);

/// Threads per block of the kernels the PTX emitter writes for a full block
/// (its shared-memory tables, tiles and block reductions are sized for it),
/// and the block size the runtime launches them with.
pub const BLOCK_THREADS: usize = 256;

// The runtime computes a fused expand's offsets by the same three entries
// whatever its sink.
const _: () = assert!(
    ExpandFoldEntry::Count as usize == ExpandPermuteEntry::Count as usize
        && ExpandFoldEntry::Scan as usize == ExpandPermuteEntry::Scan as usize
        && ExpandFoldEntry::Offsets as usize == ExpandPermuteEntry::Offsets as usize
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_stages_fit_a_block() {
        assert_eq!(scan_stage_per(&[4]), Some(16));
        assert_eq!(scan_stage_per(&[1]), Some(16));
        assert_eq!(scan_stage_per(&[8]), Some(8));
        assert_eq!(scan_stage_per(&[4, 1]), Some(8));
        assert_eq!(scan_stage_per(&[4; 4]), Some(4));
        assert_eq!(scan_stage_per(&[8; 8]), Some(1));
        assert_eq!(scan_stage_per(&[8; 9]), None);
        for leaves in 1..=16 {
            for bytes in [1, 2, 4, 8] {
                let leaf_bytes = vec![bytes; leaves];
                let slot = leaves * if bytes > 4 { 8 } else { 4 };
                if let Some(per) = scan_stage_per(&leaf_bytes) {
                    // The stage, the partial results with their flags, the tile counter.
                    let stage = (BLOCK_THREADS * per) * 33 / 32 * slot;
                    let partials = (BLOCK_THREADS + 2) * (slot + 4);
                    assert!(stage + partials + 4 <= 48 * 1024, "{leaf_bytes:?}: {per}");
                    assert!(per.is_power_of_two() && per <= 16);
                }
            }
        }
    }
}
