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
    /// `[map]`: one grid-stride pass.
    Generate,
    /// A fold to one value: `[part, final]`. `z`: it has an initial value.
    FoldAll { z: bool },
    /// A fold of each innermost row: `[block per row, warp per row]`.
    FoldRows { z: bool },
    /// `[block per row, tiles with look-back]`; `exact`: the operator gives
    /// the same result in any grouping.
    Scan { exact: bool },
    /// `[scatter]`, into a copy of input buffer `defaults`.
    Permute { defaults: usize },
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
}
