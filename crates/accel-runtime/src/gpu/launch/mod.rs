//! The host side of every GPU skeleton, written once: given a kernel's
//! entries (described as data by `accel_kernels::gpu`) and the values the
//! program's host part computed (input buffers, host scalars, the iteration
//! shape), allocate the outputs and scratch memory, size and order the
//! launches, and return the output buffers.
//!
//! The generated host code of a program calls [`kernel`] with a `static`
//! [`Kernel`]; an in-process executor (the random-program tests) calls it with
//! one built at run time. Both therefore launch exactly the same way.

mod sizes;

pub use sizes::{expand_strategy, set_expand_strategy, ExpandStrategy};

use super::buffers::{zeroed, GBuf};
use super::error_word::{ErrSite, ErrWord};
use super::{Device, DeviceBuffer, KernelArg};
use crate::error::{Error, ErrorKind, Result};
use crate::shape;
use sizes::{fold_row_split, fold_split, grid_for, scan_split, ScanSplit};
use std::sync::Arc;

/// The block size of the emitter's full-block kernels.
const BLOCK: u32 = BLOCK_THREADS as u32;

pub use accel_types::launch::{Entry, Kernel, Param, Skeleton, BLOCK_THREADS};
use accel_types::launch::{
    ExpandFoldEntry, ExpandPermuteEntry, FoldAllEntry, FoldRowsEntry, GenerateEntry, PermuteEntry, ScanEntry,
    SortEntry,
};

/// The values of one launch of a kernel.
#[derive(Clone, Copy, Debug)]
pub struct Io<'a> {
    /// The buffers the kernel reads, with their shapes.
    pub bufs: &'a [(&'a GBuf, &'a [usize])],
    /// Host scalars, as arguments.
    pub scalars: &'a [KernelArg],
    /// The leaves of the initial value, as arguments (empty if none).
    pub z: &'a [KernelArg],
    /// The iteration shape.
    pub iter: &'a [usize],
    /// The shapes of the outputs.
    pub outs: &'a [&'a [usize]],
}

/// Values per element past which a segment-folding generate runs a warp
/// per element ([`Launch::segment_spread`]).
const SPREAD_VALUES: usize = 64;

/// Runs kernel `k` of module `ptx` on `dev`: its outputs, in order.
pub fn kernel(
    dev: &Arc<dyn Device>,
    ptx: &'static str,
    err: &ErrWord,
    sites: &[ErrSite],
    k: &Kernel<'_>,
    io: &Io<'_>,
) -> Result<Vec<GBuf>> {
    let mut l = Launch {
        dev,
        ptx,
        err,
        sites,
        k,
        io,
        outs: Vec::new(),
        part: None,
        extras: Vec::new(),
    };
    // An allocation that fails comes after the errors of earlier kernels.
    let r = l.run();
    err.after_kernels(sites, r)?;
    Ok(l.outs)
}

/// The `N` outputs of a kernel as an array (for the generated code's `let`).
pub fn outputs<const N: usize>(outs: Vec<GBuf>) -> Result<[GBuf; N]> {
    let got = outs.len();
    outs.try_into()
        .map_err(|_| failure(format!("a kernel gave {got} outputs, {N} expected")))
}

fn failure(msg: String) -> Error {
    Error::with_kind(ErrorKind::DeviceFailure, "kernel launch", msg)
}

struct Launch<'a> {
    dev: &'a Arc<dyn Device>,
    ptx: &'static str,
    err: &'a ErrWord,
    sites: &'a [ErrSite],
    k: &'a Kernel<'a>,
    io: &'a Io<'a>,
    outs: Vec<GBuf>,
    part: Option<GBuf>,
    /// The skeleton's own parameters set so far (latest wins).
    extras: Vec<(&'static str, KernelArg)>,
}

impl Launch<'_> {
    fn set(&mut self, name: &'static str, v: usize) {
        self.set_arg(name, KernelArg::U64(v as u64));
    }

    fn set_arg(&mut self, name: &'static str, a: KernelArg) {
        self.extras.retain(|(n, _)| *n != name);
        self.extras.push((name, a));
    }

    fn set_ptr(&mut self, name: &'static str, b: &DeviceBuffer) {
        self.set_arg(name, KernelArg::Ptr(b.ptr()));
    }

    fn sms(&self) -> usize {
        (self.dev.props().multiprocessors as usize).max(1)
    }

    fn entry(&self, e: usize) -> Result<&Entry<'_>> {
        self.k
            .entries
            .get(e)
            .ok_or_else(|| failure(format!("{}: the kernel has no entry {e}", self.k.op)))
    }

    fn shape_of<'s>(&self, shapes: &[&'s [usize]], b: usize) -> Result<&'s [usize]> {
        shapes
            .get(b)
            .copied()
            .ok_or_else(|| failure(format!("{}: no buffer {b}", self.k.op)))
    }

    fn dim(shape: &[usize], d: usize) -> Result<KernelArg> {
        shape
            .get(d)
            .map(|&x| KernelArg::U64(x as u64))
            .ok_or_else(|| failure(format!("no dimension {d} in shape {shape:?}")))
    }

    fn col(b: &GBuf, k: usize) -> Result<KernelArg> {
        Ok(KernelArg::Ptr(b.col(k)?.ptr()))
    }

    /// The arguments of entry `e`.
    fn args(&self, e: &Entry<'_>) -> Result<Vec<KernelArg>> {
        let in_shapes: Vec<&[usize]> = self.io.bufs.iter().map(|b| b.1).collect();
        let input = |b: usize| {
            self.io
                .bufs
                .get(b)
                .map(|x| x.0)
                .ok_or_else(|| failure(format!("{}: no input buffer {b}", self.k.op)))
        };
        let output = |o: usize| {
            self.outs
                .get(o)
                .ok_or_else(|| failure(format!("{}: no output {o}", self.k.op)))
        };
        let nth = |xs: &[KernelArg], i: usize, what: &str| {
            xs.get(i)
                .copied()
                .ok_or_else(|| failure(format!("{}: no {what} {i}", self.k.op)))
        };
        e.params
            .iter()
            .map(|p| match *p {
                Param::Err => Ok(KernelArg::Ptr(self.err.ptr())),
                Param::In(b, k) => Self::col(input(b)?, k),
                Param::InDim(b, d) => Self::dim(self.shape_of(&in_shapes, b)?, d),
                Param::Out(o, k) => Self::col(output(o)?, k),
                Param::OutDim(o, d) => Self::dim(self.shape_of(self.io.outs, o)?, d),
                Param::Scalar(s) => nth(self.io.scalars, s, "host scalar"),
                Param::IterDim(d) => Self::dim(self.io.iter, d),
                Param::Z(k) => nth(self.io.z, k, "leaf of the initial value"),
                Param::Part(k) => match &self.part {
                    Some(part) => Self::col(part, k),
                    None => Err(failure(format!("{}: no partial results", self.k.op))),
                },
                Param::Extra(name) => self
                    .extras
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, a)| *a)
                    .ok_or_else(|| failure(format!("{}: parameter `{name}` not set", self.k.op))),
            })
            .collect()
    }

    /// Launches entry `e` on `grid` blocks of `block` threads.
    fn launch(&self, e: usize, grid: usize, block: u32) -> Result<()> {
        let entry = self.entry(e)?;
        let args = self.args(entry)?;
        self.dev
            .launch(self.ptx, entry.name, sizes::cfg(grid, block), &args)
    }

    /// Launches the grid-stride entry `e` over `work` items in blocks of
    /// `block` threads: as many blocks as the device holds at once.
    fn stride(&self, e: usize, work: usize, block: u32) -> Result<()> {
        let name = self.entry(e)?.name;
        let grid = grid_for(self.dev, self.ptx, name, work, block)?;
        self.launch(e, grid, block)
    }

    /// Threads per element of a generate whose elements fold segments
    /// (`ptx::segments`): a warp each (32) when its largest input holds at
    /// least `SPREAD_VALUES` values per element, so that long segments
    /// (a dense matrix's rows) have the parallelism of a warp each; one
    /// otherwise, where a warp still shares its threads' long segments.
    fn segment_spread(&self, n: usize) -> usize {
        let values = self.io.bufs.iter().map(|b| shape::size(b.1)).max().unwrap_or(0);
        if values / n.max(1) >= SPREAD_VALUES {
            32
        } else {
            1
        }
    }

    /// Output `o`, allocated for its shape.
    fn alloc_out(&mut self, o: usize) -> Result<()> {
        let n = shape::size(self.shape_of(self.io.outs, o)?);
        let lb = self
            .k
            .out_leaf_bytes
            .get(o)
            .ok_or_else(|| failure(format!("{}: no element type for output {o}", self.k.op)))?;
        self.outs.push(GBuf::alloc(self.dev, lb, n)?);
        Ok(())
    }

    /// Every output, allocated for its shape (several for a kernel merged
    /// from siblings, or a scan's totals).
    fn alloc_outs(&mut self) -> Result<()> {
        (0..self.io.outs.len()).try_for_each(|o| self.alloc_out(o))
    }

    /// A copy of input buffer `b` as the first output (a permute's defaults).
    fn copy_out(&mut self, b: usize) -> Result<()> {
        let d = self
            .io
            .bufs
            .get(b)
            .ok_or_else(|| failure(format!("{}: no defaults buffer {b}", self.k.op)))?;
        self.outs.push(d.0.copy(self.dev)?);
        Ok(())
    }

    /// The error of a reduction without an initial value over nothing;
    /// earlier kernels' errors come first, in program order.
    fn empty(&self, op: &str) -> Result<()> {
        self.empty_at(op, self.k.at)
    }

    /// [`Launch::empty`] at source position `at`.
    fn empty_at(&self, op: &str, at: Option<&str>) -> Result<()> {
        self.err.check(self.sites)?;
        Err(crate::cpu::empty_reduction(op).or_at(at))
    }

    fn run(&mut self) -> Result<()> {
        let n = shape::size(self.io.iter);
        // Rows of the innermost dimension (a rank-0 shape is one row of one).
        let (rows, len) = match self.io.iter.split_last() {
            Some((len, rest)) => (shape::size(rest), *len),
            None => (1, 1),
        };
        match self.k.skeleton {
            Skeleton::Generate { segments } => {
                self.alloc_outs()?;
                self.set("n", n);
                let spread = if segments { self.segment_spread(n) } else { 1 };
                if segments {
                    self.set("spread", spread);
                }
                if n > 0 {
                    self.stride(GenerateEntry::Map.index(), n.saturating_mul(spread), BLOCK)?;
                }
            }
            Skeleton::FoldAll { z } => {
                if !z && n == 0 {
                    return self.empty("fold1_all");
                }
                self.set("n", n);
                self.fold_all(n, FoldAllEntry::Part.index(), FoldAllEntry::Final.index())?;
            }
            Skeleton::FoldRows { z } => {
                if !z && rows > 0 && len == 0 {
                    return self.empty("fold1");
                }
                self.alloc_outs()?;
                let (warp, per) = fold_row_split(len);
                self.set("rows", rows);
                self.set("len", len);
                self.set("per", per);
                if rows > 0 {
                    if warp {
                        self.stride(FoldRowsEntry::Warp.index(), rows.saturating_mul(32), BLOCK)?;
                    } else {
                        self.launch(FoldRowsEntry::Block.index(), rows.min(8 * self.sms()), BLOCK)?;
                    }
                }
            }
            Skeleton::Scan {
                scan_leaves,
                empty_fold,
            } => {
                if let (Some(op), true) = (empty_fold, rows > 0 && len == 0) {
                    return self.empty_at(op, self.k.empty_at);
                }
                self.alloc_outs()?;
                self.set("rows", rows);
                self.set("len", len);
                let scan_leaf_bytes = self.k.acc_leaf_bytes.get(..scan_leaves).unwrap_or_default();
                if rows > 0 {
                    match scan_split(self.dev, rows, len, scan_leaf_bytes) {
                        ScanSplit::Lookback { per, tpr } => {
                            // An aggregate and a prefix per tile (and the
                            // folds' results so far), a counter and two
                            // flags per tile, the scan's and the folds' (zeroed).
                            let tiles = rows * tpr;
                            self.part = Some(GBuf::alloc(self.dev, self.k.acc_leaf_bytes, 2 * tiles)?);
                            let status = zeroed(self.dev, 4 * (1 + 2 * tiles))?;
                            self.set_ptr("status", &status);
                            self.set("per", per);
                            self.set("tpr", tpr);
                            self.set("tiles", tiles);
                            self.launch(ScanEntry::Lookback.index(), tiles.min(8 * self.sms()), BLOCK)?;
                        }
                        ScanSplit::Rows { per } => {
                            self.set("per", per);
                            self.launch(ScanEntry::Rows.index(), rows.min(8 * self.sms()), BLOCK)?;
                        }
                        // Up to 32 warps per multiprocessor.
                        ScanSplit::WarpRows { per } => {
                            self.set("per", per);
                            self.launch(ScanEntry::WarpRows.index(), rows.min(32 * self.sms()), 32)?;
                        }
                    }
                }
            }
            Skeleton::Permute {
                defaults,
                private_bins,
            } => {
                self.copy_out(defaults)?;
                let nout = shape::size(self.shape_of(self.io.outs, 0)?);
                self.set("n", n);
                let private = match private_bins {
                    0 => None,
                    _ => {
                        let name = self.entry(PermuteEntry::Private.index())?.name;
                        let most = grid_for(self.dev, self.ptx, name, n, BLOCK)?;
                        sizes::private_permute(n, nout, private_bins, most)
                    }
                };
                if let Some(grid) = private {
                    self.set("nout", nout);
                    self.launch(PermuteEntry::Private.index(), grid, BLOCK)?;
                } else if n > 0 {
                    let lock = zeroed(self.dev, 4 * nout)?;
                    self.set_ptr("lock", &lock);
                    self.stride(PermuteEntry::Scatter.index(), n, BLOCK)?;
                }
            }
            Skeleton::Sort {
                key_bits,
                digit_bits,
                tile,
            } => {
                self.alloc_out(0)?;
                if n > 0 {
                    self.sort(n, key_bits, digit_bits, tile)?;
                }
            }
            Skeleton::ExpandPermute { defaults, chunk } => {
                let (total, max, _offs) = self.expand_offsets(n)?;
                self.copy_out(defaults)?;
                if total > 0 {
                    let lock = zeroed(self.dev, 4 * shape::size(self.shape_of(self.io.outs, 0)?))?;
                    self.set_ptr("lock", &lock);
                    use ExpandPermuteEntry as E;
                    match sizes::expand_strategy(total, max, n) {
                        ExpandStrategy::Thread => self.stride(E::Thread.index(), n, BLOCK)?,
                        ExpandStrategy::Warp => self.stride(E::Warp.index(), n.saturating_mul(32), BLOCK)?,
                        ExpandStrategy::Block => {
                            self.launch(E::Block.index(), n.min(8 * self.sms()), BLOCK)?
                        }
                        ExpandStrategy::Prefix => self.stride(E::Prefix.index(), total, BLOCK)?,
                        ExpandStrategy::Chunk => self.stride(E::Chunk.index(), n, chunk)?,
                    }
                }
            }
            Skeleton::ExpandFold { z } => {
                let (total, _max, _offs) = self.expand_offsets(n)?;
                if !z && total == 0 {
                    return self.empty("fold1_all");
                }
                self.fold_all(
                    total,
                    ExpandFoldEntry::Part.index(),
                    ExpandFoldEntry::Final.index(),
                )?;
            }
        }
        Ok(())
    }

    /// A fold of `n` values to one: entries `part` (partial results per
    /// block) and `last` (their combination).
    fn fold_all(&mut self, n: usize, part: usize, last: usize) -> Result<()> {
        // One element per output (several for a horizontal fold).
        self.alloc_outs()?;
        let (grid, per, nparts) = if n == 0 {
            (1, 1, 0)
        } else {
            fold_split(self.dev, n)
        };
        self.part = Some(GBuf::alloc(self.dev, self.k.acc_leaf_bytes, grid)?);
        self.set("per", per);
        self.set("nparts", nparts);
        if n > 0 {
            self.launch(part, grid, BLOCK)?;
        }
        self.set("per", nparts.div_ceil(BLOCK_THREADS));
        self.launch(last, 1, BLOCK)
    }

    /// A radix sort of `n > 0` elements.
    fn sort(&mut self, n: usize, key_bits: u32, digit_bits: u32, tile: u32) -> Result<()> {
        let key_bytes = (key_bits / 8) as usize;
        // Keys and indices, and their copies the passes scatter to.
        let keys = [zeroed(self.dev, key_bytes * n)?, zeroed(self.dev, key_bytes * n)?];
        let idx = [zeroed(self.dev, 8 * n)?, zeroed(self.dev, 8 * n)?];
        let tiles = n.div_ceil(tile as usize);
        // Counts per digit and tile, scanned in place.
        let tn = (1usize << digit_bits) * tiles;
        let counts = zeroed(self.dev, 8 * tn)?;
        let stats = zeroed(self.dev, 16)?;
        // The counts' scan: one block, or the blocks' sums first.
        let g = sizes::count_scan_blocks(self.dev, tn);
        let part = zeroed(self.dev, 8 * g)?;
        let bper = tn.div_ceil(g);
        self.set("n", n);
        self.set("tiles", tiles);
        self.set("counts", counts.ptr().0 as usize);
        self.set("stats", stats.ptr().0 as usize);
        self.set("part", part.ptr().0 as usize);
        self.set("bper", bper);
        self.set("keys", keys[0].ptr().0 as usize);
        self.set("idx", idx[0].ptr().0 as usize);
        self.stride(SortEntry::Keys.index(), n, BLOCK)?;
        let passes = (key_bits / digit_bits.max(1)) as usize;
        for pass in 0..passes {
            let (s, d) = (pass % 2, 1 - pass % 2);
            self.set("shift", digit_bits as usize * pass);
            self.set("ksrc", keys[s].ptr().0 as usize);
            self.set("isrc", idx[s].ptr().0 as usize);
            self.set("kdst", keys[d].ptr().0 as usize);
            self.set("idst", idx[d].ptr().0 as usize);
            self.launch(SortEntry::Count.index(), tiles, tile)?;
            self.scan_counts(&counts, &part, tn, g, bper)?;
            self.launch(SortEntry::Scatter.index(), tiles, tile)?;
        }
        self.set("idx", idx[passes % 2].ptr().0 as usize);
        self.stride(SortEntry::Gather.index(), n, BLOCK)
    }

    /// The exclusive scan, in place, of a sort pass's `tn` counts: one block,
    /// or over `g` blocks of `bper` counts (each block's sum into `part`,
    /// their scan, then each block's counts from its sum's prefix).
    fn scan_counts(
        &mut self,
        counts: &DeviceBuffer,
        part: &DeviceBuffer,
        tn: usize,
        g: usize,
        bper: usize,
    ) -> Result<()> {
        let one_block = |this: &mut Self, buf: &DeviceBuffer, len: usize| {
            this.set("psum", buf.ptr().0 as usize);
            this.set("pmax", buf.ptr().0 as usize);
            this.set("tn", len);
            this.set("tper", len.div_ceil(BLOCK_THREADS));
            this.launch(SortEntry::Scan.index(), 1, BLOCK)
        };
        if g == 1 {
            return one_block(self, counts, tn);
        }
        self.set("psum", counts.ptr().0 as usize);
        self.set("tn", tn);
        self.launch(SortEntry::Reduce.index(), g, BLOCK)?;
        one_block(self, part, g)?;
        self.set("psum", counts.ptr().0 as usize);
        self.set("tn", tn);
        self.set("tper", bper.div_ceil(BLOCK_THREADS));
        self.launch(SortEntry::Apply.index(), g, BLOCK)
    }

    /// The offsets of a fused expand's counts (its first three entries, the
    /// same in both expand skeletons), their total and
    /// maximum; the offsets' buffer must live while later entries read it.
    fn expand_offsets(&mut self, n: usize) -> Result<(usize, usize, DeviceBuffer)> {
        let offs = zeroed(self.dev, 8 * n)?;
        self.set("n", n);
        self.set("offs", offs.ptr().0 as usize);
        let (total, max) = if n == 0 {
            (0, 0)
        } else {
            let (grid, iper, _) = fold_split(self.dev, n);
            let tn = grid * BLOCK_THREADS;
            let parts = zeroed(self.dev, 16 * tn)?;
            let stats = zeroed(self.dev, 16)?;
            self.set("iper", iper);
            self.set("tn", tn);
            self.set("tper", tn.div_ceil(BLOCK_THREADS));
            self.set("psum", parts.ptr().0 as usize);
            self.set("pmax", parts.ptr().offset(8 * tn as u64).0 as usize);
            self.set("stats", stats.ptr().0 as usize);
            use ExpandPermuteEntry as E;
            self.launch(E::Count.index(), grid, BLOCK)?;
            self.launch(E::Scan.index(), 1, BLOCK)?;
            self.launch(E::Offsets.index(), grid, BLOCK)?;
            // The download waits for the kernels anyway: report theirs first.
            self.err.check(self.sites)?;
            sizes::expand_stats(&stats)?
        };
        self.set("total", total);
        self.set("max", max);
        Ok((total, max, offs))
    }
}
