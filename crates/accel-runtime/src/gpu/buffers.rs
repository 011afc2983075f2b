//! Helpers for the host code that `accel-kernels` generates for a program's GPU
//! path: buffers of struct-of-arrays columns on a [`Device`], transfers of
//! element columns, launch sizes, and the error word kernels report run-time
//! errors through.

use super::{Device, DeviceBuffer, DevicePtr, KernelArg, LaunchConfig};
use crate::array::Array;
use crate::elem::Elem;
use crate::error::{Error, ErrorKind, Result};
use std::borrow::Cow;
use std::sync::Arc;

/// A primitive element type as bytes on the device (`bool` is one byte, 0 or 1).
pub trait DevElem: Copy {
    const BYTES: usize;
    /// `xs` as the device stores them, little-endian: the slice's own bytes
    /// when the host's layout is the same (no copy), else converted.
    fn to_device(xs: &[Self]) -> Cow<'_, [u8]>;
    /// `n` values read from the device by `read`, which fills the bytes it is
    /// given: straight into the vector's memory when the layouts agree.
    fn from_device(n: usize, read: impl FnOnce(&mut [u8]) -> Result<()>) -> Result<Vec<Self>>;
    /// The value as a kernel argument (narrow integers and `bool` widened to
    /// 32 bits, sign-extended for signed types).
    fn arg(self) -> KernelArg;
}

/// Whether `T`'s host representation is its device form, `D` little-endian
/// (every number type on little-endian hosts; `usize` where it has 8 bytes).
const fn same_layout<T, D>() -> bool {
    cfg!(target_endian = "little") && std::mem::size_of::<T>() == std::mem::size_of::<D>()
}

// Each type with the type of its device form (`usize` is 64 bits on the device).
macro_rules! dev_elem {
    ($($t:ty as $d:ty, |$x:ident| $arg:expr;)*) => {$(
        impl DevElem for $t {
            const BYTES: usize = std::mem::size_of::<$d>();
            fn to_device(xs: &[Self]) -> Cow<'_, [u8]> {
                if same_layout::<$t, $d>() {
                    Cow::Borrowed(bytemuck::cast_slice(xs))
                } else {
                    Cow::Owned(xs.iter().flat_map(|&x| (x as $d).to_le_bytes()).collect())
                }
            }
            fn from_device(n: usize, read: impl FnOnce(&mut [u8]) -> Result<()>) -> Result<Vec<Self>> {
                if same_layout::<$t, $d>() {
                    let mut v: Vec<$t> = vec![0 as $t; n];
                    read(bytemuck::cast_slice_mut(&mut v))?;
                    return Ok(v);
                }
                let mut bytes = vec![0u8; bytes_of(Self::BYTES, n)?];
                read(&mut bytes)?;
                Ok(bytes
                    .chunks_exact(Self::BYTES)
                    .map(|b| {
                        let mut a = [0u8; std::mem::size_of::<$d>()];
                        a.copy_from_slice(b);
                        <$d>::from_le_bytes(a) as $t
                    })
                    .collect())
            }
            fn arg(self) -> KernelArg {
                let $x = self;
                $arg
            }
        }
    )*};
}

dev_elem! {
    i8 as i8, |x| KernelArg::U32(x as i32 as u32);
    i16 as i16, |x| KernelArg::U32(x as i32 as u32);
    i32 as i32, |x| KernelArg::U32(x as u32);
    i64 as i64, |x| KernelArg::U64(x as u64);
    u8 as u8, |x| KernelArg::U32(x as u32);
    u16 as u16, |x| KernelArg::U32(x as u32);
    u32 as u32, |x| KernelArg::U32(x);
    u64 as u64, |x| KernelArg::U64(x);
    usize as u64, |x| KernelArg::U64(x as u64);
    f32 as f32, |x| KernelArg::F32(x);
    f64 as f64, |x| KernelArg::F64(x);
}

impl DevElem for bool {
    const BYTES: usize = 1;
    fn to_device(xs: &[Self]) -> Cow<'_, [u8]> {
        // A `bool` is one byte, 0 or 1, on every Rust target.
        Cow::Borrowed(bytemuck::cast_slice(xs))
    }
    fn from_device(n: usize, read: impl FnOnce(&mut [u8]) -> Result<()>) -> Result<Vec<Self>> {
        // Not read into the vector in place: a byte other than 0 or 1 is no `bool`.
        let mut bytes = vec![0u8; n];
        read(&mut bytes)?;
        Ok(bytes.into_iter().map(|b| b != 0).collect())
    }
    fn arg(self) -> KernelArg {
        KernelArg::U32(self as u32)
    }
}

/// Struct-of-arrays columns (`Vec<P>` of a primitive, tuples of columns) that
/// can be copied to and from a device, one allocation per primitive leaf.
pub trait DevColumns: Sized {
    /// Uploads every leaf column, depth first, to `out`.
    fn upload_to(&self, dev: &Arc<dyn Device>, out: &mut Vec<DeviceBuffer>) -> Result<()>;
    /// Downloads `n` elements from the leaf columns of `buf` starting at `*k`,
    /// and moves `*k` past them.
    fn download_from(buf: &GBuf, k: &mut usize, n: usize) -> Result<Self>;
    /// Bytes per element of each leaf column, depth first.
    fn leaf_bytes(out: &mut Vec<usize>);
}

impl<P: DevElem> DevColumns for Vec<P> {
    fn upload_to(&self, dev: &Arc<dyn Device>, out: &mut Vec<DeviceBuffer>) -> Result<()> {
        out.push(upload(dev, self)?);
        Ok(())
    }
    fn download_from(buf: &GBuf, k: &mut usize, n: usize) -> Result<Self> {
        let dev = buf.col(*k)?.device().clone();
        let col = buf.download::<P>(&dev, *k, n)?;
        *k += 1;
        Ok(col)
    }
    fn leaf_bytes(out: &mut Vec<usize>) {
        out.push(P::BYTES);
    }
}

macro_rules! dev_columns_tuple {
    ($(($($C:ident $i:tt),+))*) => {$(
        impl<$($C: DevColumns),+> DevColumns for ($($C,)+) {
            fn upload_to(&self, dev: &Arc<dyn Device>, out: &mut Vec<DeviceBuffer>) -> Result<()> {
                $(self.$i.upload_to(dev, out)?;)+
                Ok(())
            }
            fn download_from(buf: &GBuf, k: &mut usize, n: usize) -> Result<Self> {
                Ok(($($C::download_from(buf, k, n)?,)+))
            }
            fn leaf_bytes(out: &mut Vec<usize>) {
                $($C::leaf_bytes(out);)+
            }
        }
    )*};
}

// The tuple arities `Elem` has.
dev_columns_tuple! {
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
}

/// The device columns of array parameter `a` for a launch on `dev`: its device
/// copy when it has one on `dev`, otherwise an upload of its host columns,
/// which the array keeps for the next call on `dev`.
pub fn input<T: Elem, const R: usize>(dev: &Arc<dyn Device>, a: &Array<T, R>) -> Result<GBuf>
where
    T::Columns: DevColumns,
{
    a.device_columns(dev)
}

/// The result array of shape `shape` whose elements are in `buf` on the
/// device: nothing is downloaded until the host reads it.
pub fn output<T: Elem, const R: usize>(shape: [usize; R], buf: GBuf) -> Result<Array<T, R>>
where
    T::Columns: DevColumns,
{
    Array::from_device(shape, buf)
}

/// A materialised array on the device: one allocation per primitive leaf.
/// Clones share the allocations (buffers are never written after the kernel
/// that fills them, so sharing is safe).
#[derive(Clone, Debug)]
pub struct GBuf {
    cols: Arc<Vec<DeviceBuffer>>,
}

impl GBuf {
    /// Uninitialised columns of `n` elements, `leaf_bytes[k]` bytes each in column `k`.
    pub fn alloc(dev: &Arc<dyn Device>, leaf_bytes: &[usize], n: usize) -> Result<GBuf> {
        let cols = leaf_bytes
            .iter()
            .map(|b| DeviceBuffer::alloc(dev, bytes_of(*b, n)?))
            .collect::<Result<Vec<_>>>()?;
        Ok(GBuf { cols: Arc::new(cols) })
    }

    pub fn from_columns(cols: Vec<DeviceBuffer>) -> GBuf {
        GBuf { cols: Arc::new(cols) }
    }

    /// The address of column `k`.
    pub fn ptr(&self, k: usize) -> DevicePtr {
        self.cols[k].ptr()
    }

    /// Number of columns (primitive leaves).
    pub fn columns(&self) -> usize {
        self.cols.len()
    }

    /// Column `k`, or an error when there is none.
    pub fn col(&self, k: usize) -> Result<&DeviceBuffer> {
        self.cols.get(k).ok_or_else(|| {
            Error::with_kind(
                ErrorKind::DeviceFailure,
                "device columns",
                format!("column {k} of {} does not exist", self.cols.len()),
            )
        })
    }

    /// The device the columns live on (`None` for no columns).
    pub fn device(&self) -> Option<&Arc<dyn Device>> {
        self.cols.first().map(|c| c.device())
    }

    /// Whether every column lives on `dev`.
    pub fn is_on(&self, dev: &Arc<dyn Device>) -> bool {
        self.cols.iter().all(|c| same_device(c.device(), dev))
    }

    /// A copy in new allocations (for a permute's output started from defaults
    /// that live on).
    pub fn copy(&self, dev: &Arc<dyn Device>) -> Result<GBuf> {
        let cols = self
            .cols
            .iter()
            .map(|c| {
                let d = DeviceBuffer::alloc(dev, c.bytes())?;
                if c.bytes() > 0 {
                    dev.copy(d.ptr(), c.ptr(), c.bytes())?;
                }
                Ok(d)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(GBuf { cols: Arc::new(cols) })
    }

    /// Column `k` as `n` values.
    pub fn download<T: DevElem>(&self, dev: &Arc<dyn Device>, k: usize, n: usize) -> Result<Vec<T>> {
        let col = self.col(k)?;
        let want = bytes_of(T::BYTES, n)?;
        if want > col.bytes() {
            return Err(Error::with_kind(
                ErrorKind::DeviceFailure,
                "download",
                format!("{want} bytes asked of a column of {}", col.bytes()),
            ));
        }
        T::from_device(n, |bytes| {
            if bytes.is_empty() {
                Ok(())
            } else {
                dev.download(col.ptr(), bytes)
            }
        })
    }
}

/// Whether two handles name the same device (the data pointers, not the
/// vtables, which may differ between codegen units).
pub fn same_device(a: &Arc<dyn Device>, b: &Arc<dyn Device>) -> bool {
    std::ptr::eq(Arc::as_ptr(a) as *const (), Arc::as_ptr(b) as *const ())
}

fn bytes_of(elem: usize, n: usize) -> Result<usize> {
    elem.checked_mul(n)
        .ok_or_else(|| Error::with_kind(ErrorKind::OutOfMemory, "device allocation", "size overflows"))
}

/// A column of values in a new device allocation.
pub fn upload<T: DevElem>(dev: &Arc<dyn Device>, xs: &[T]) -> Result<DeviceBuffer> {
    let bytes = T::to_device(xs);
    let b = DeviceBuffer::alloc(dev, bytes.len())?;
    if !bytes.is_empty() {
        dev.upload(b.ptr(), &bytes)?;
    }
    Ok(b)
}

/// `bytes` zero bytes on the device.
pub fn zeroed(dev: &Arc<dyn Device>, bytes: usize) -> Result<DeviceBuffer> {
    let b = DeviceBuffer::alloc(dev, bytes)?;
    if bytes > 0 {
        dev.memset(b.ptr(), 0, bytes)?;
    }
    Ok(b)
}

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

/// The split of a fold of `n > 0` elements over blocks of 256 threads: the
/// grid, the elements per thread (each thread a contiguous range, so the
/// combination order is sequential), and how many blocks have elements.
pub fn fold_split(dev: &Arc<dyn Device>, n: usize) -> (usize, usize, usize) {
    let g = grid(dev, n, 256, 4);
    let per = n.div_ceil(g * 256).max(1);
    let busy_threads = n.div_ceil(per);
    (g, per, busy_threads.div_ceil(256))
}

/// Rows shorter than this are combined by one thread, in order: the CPU back
/// end's sequential chunk size, so that both give the same result even for an
/// operator that is associative only up to rounding (float addition). An
/// `exact` operator (integer arithmetic, `min`, `max`, bit operations: the
/// same result in any grouping) is split over the threads at any length.
pub const SEQUENTIAL_ROW: usize = 1 << 14;

/// Threads per block for kernels working on rows of `len` elements: one warp
/// for rows one thread combines, 256 threads otherwise.
pub fn row_block(len: usize, exact: bool) -> u32 {
    if len < SEQUENTIAL_ROW && !exact {
        32
    } else {
        256
    }
}

/// Elements per thread of a row of `len` elements: contiguous chunks of at
/// least [`SEQUENTIAL_ROW`] (all of a shorter row) unless the operator is
/// `exact`.
pub fn row_per(len: usize, exact: bool) -> usize {
    let threads = row_block(len, exact) as usize;
    let least = if exact { 1 } else { len.min(SEQUENTIAL_ROW) };
    len.div_ceil(threads).max(least).max(1)
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
        (false, len.div_ceil(256))
    }
}

/// Positions per thread of a long scan's tile (256 threads).
const LONG_SCAN_PER: usize = 16;

/// Whether a scan of `rows` rows of `len` elements runs by tiles with
/// look-back (few long rows: one block per row would leave most of the
/// device idle) rather than one block per row. Rows of an `exact` operator
/// (see [`SEQUENTIAL_ROW`]) go by tiles from two tiles long.
pub fn long_scan(dev: &Arc<dyn Device>, rows: usize, len: usize, exact: bool) -> bool {
    let sms = (dev.props().multiprocessors as usize).max(1);
    let long = if exact {
        2 * 256 * LONG_SCAN_PER
    } else {
        2 * SEQUENTIAL_ROW
    };
    len >= long && rows < 2 * sms
}

/// The split of a long scan's rows of `len > 0` elements: positions per
/// thread, and tiles per row.
pub fn long_scan_split(len: usize) -> (usize, usize) {
    (LONG_SCAN_PER, len.div_ceil(256 * LONG_SCAN_PER))
}

/// One run-time error a kernel can report: `(index out of bounds?, op, message,
/// source location)`.
pub type ErrSite = (bool, &'static str, &'static str, Option<&'static str>);

/// The word kernels write the first run-time error into (0: none).
#[derive(Debug)]
pub struct ErrWord {
    buf: DeviceBuffer,
}

impl ErrWord {
    pub fn new(dev: &Arc<dyn Device>) -> Result<ErrWord> {
        Ok(ErrWord { buf: zeroed(dev, 4)? })
    }

    pub fn ptr(&self) -> DevicePtr {
        self.buf.ptr()
    }

    /// `r`, unless a kernel launched before failed: its error comes first,
    /// in program order (for host checks that return at once: shapes).
    pub fn after_kernels<T>(&self, sites: &[ErrSite], r: Result<T>) -> Result<T> {
        if r.is_err() {
            self.check(sites)?;
        }
        r
    }

    /// `Err` with the error a kernel recorded, if any.
    pub fn check(&self, sites: &[ErrSite]) -> Result<()> {
        let mut b = [0u8; 4];
        self.buf.device().download(self.buf.ptr(), &mut b)?;
        let code = u32::from_le_bytes(b) as usize;
        if code == 0 {
            return Ok(());
        }
        Err(match sites.get(code - 1) {
            Some((true, op, msg, at)) => Error::with_kind(ErrorKind::IndexOutOfBounds, *op, *msg).or_at(*at),
            Some((false, op, msg, at)) => Error::with_kind(ErrorKind::InvalidArgument, *op, *msg).or_at(*at),
            None => Error::with_kind(
                ErrorKind::DeviceFailure,
                "kernel",
                format!("unknown error code {code} in the error word"),
            ),
        })
    }
}

/// The first error of the program so far: a kernel's (reported through `err`,
/// which is read only when the host part failed: kernels launched before the
/// failing host expression come first in program order) or the host part's.
pub fn first_error(err: &ErrWord, sites: &[ErrSite], ctx: &crate::host::Ctx) -> Result<()> {
    match ctx.check() {
        Ok(()) => Ok(()),
        Err(e) => {
            err.check(sites)?;
            Err(e)
        }
    }
}

/// The error of a program whose GPU path is not supported yet.
pub fn unsupported(program: &str, why: &str) -> Error {
    Error::with_kind(
        ErrorKind::BackendUnavailable,
        program,
        format!("not supported on the GPU back end yet: {why}; use Backend::cpu()"),
    )
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

    /// Each value's device form is its little-endian bytes (`usize` as 64
    /// bits), and reading those bytes back gives the values again.
    fn round_trip<T: DevElem + PartialEq + std::fmt::Debug>(xs: &[T], le: impl Fn(T) -> Vec<u8>) {
        let bytes = T::to_device(xs);
        let want: Vec<u8> = xs.iter().flat_map(|&x| le(x)).collect();
        assert_eq!(&*bytes, &want[..]);
        let back = T::from_device(xs.len(), |b| {
            b.copy_from_slice(&want);
            Ok(())
        })
        .expect("from_device");
        assert_eq!(back, xs);
    }

    #[test]
    fn device_bytes_of_every_element_type() {
        round_trip(&[-3i8, 0, 127], |x| x.to_le_bytes().to_vec());
        round_trip(&[-3i16, 0, i16::MAX], |x| x.to_le_bytes().to_vec());
        round_trip(&[-3i32, 1 << 20], |x| x.to_le_bytes().to_vec());
        round_trip(&[i64::MIN, 5], |x| x.to_le_bytes().to_vec());
        round_trip(&[0u8, 255], |x| x.to_le_bytes().to_vec());
        round_trip(&[1u16, 65535], |x| x.to_le_bytes().to_vec());
        round_trip(&[7u32, u32::MAX], |x| x.to_le_bytes().to_vec());
        round_trip(&[u64::MAX, 9], |x| x.to_le_bytes().to_vec());
        round_trip(&[usize::MAX, 0, 12], |x| (x as u64).to_le_bytes().to_vec());
        round_trip(&[1.5f32, -0.0, f32::INFINITY], |x| x.to_le_bytes().to_vec());
        round_trip(&[1e300f64, -2.5], |x| x.to_le_bytes().to_vec());
        round_trip(&[true, false, true], |x| vec![x as u8]);
        round_trip::<f32>(&[], |x| x.to_le_bytes().to_vec());
        // Any nonzero byte reads back as `true`.
        let b = bool::from_device(2, |b| {
            b.copy_from_slice(&[0, 7]);
            Ok(())
        });
        assert_eq!(b.expect("bool"), vec![false, true]);
    }

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
}
