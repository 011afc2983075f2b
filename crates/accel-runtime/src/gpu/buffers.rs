//! Device memory for the host code that `accel-kernels` generates for a
//! program's GPU path: struct-of-arrays columns on a [`Device`] (one
//! allocation per primitive leaf), and their transfers.

use super::{Device, DeviceBuffer, DevicePtr, KernelArg};
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

// Half-precision elements: their 16 bits on the device, and as a scalar
// argument (a `.u32` parameter, as a `u16`'s: kernels keep the bits in a
// 32-bit register and compute in `f32`).
macro_rules! half_dev_elem {
    ($($t:ty),*) => {$(
        impl DevElem for $t {
            const BYTES: usize = 2;
            fn to_device(xs: &[Self]) -> Cow<'_, [u8]> {
                Cow::Borrowed(bytemuck::cast_slice(xs))
            }
            fn from_device(n: usize, read: impl FnOnce(&mut [u8]) -> Result<()>) -> Result<Vec<Self>> {
                // Every 16-bit pattern is a value (NaNs included).
                let mut v: Vec<$t> = vec![<$t>::ZERO; n];
                read(bytemuck::cast_slice_mut(&mut v))?;
                Ok(v)
            }
            fn arg(self) -> KernelArg {
                KernelArg::U32(self.to_bits() as u32)
            }
        }
    )*};
}
half_dev_elem!(half::f16, half::bf16);

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

/// A stream element's device columns for this chunk only: not remembered
/// by the array (see [`Array::device_columns_once`]), so a stream the
/// caller holds on to does not hold its device memory too.
pub fn pulled<T: Elem, const R: usize>(dev: &Arc<dyn Device>, a: &Array<T, R>) -> Result<GBuf>
where
    T::Columns: DevColumns,
{
    a.device_columns_once(dev)
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
}
