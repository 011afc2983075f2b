//! `Array<T, R>`: a rank-`R` array of elements `T`, row-major, struct-of-arrays.
//!
//! The elements live on the host, on a device, or both. An array built on the
//! host gets a device copy the first time a GPU program reads it, and keeps it
//! for the next program on that device; the result of a GPU program lives only
//! on the device until the host reads it (`to_vec`, `get`, `columns`, ...),
//! which downloads it once and keeps the host copy. Clones share both copies:
//! an array is never written after it is built.

use crate::elem::{Columns, Elem};
use crate::error::{Error, ErrorKind, Result};
use crate::gpu::buffers::{same_device, DevColumns, GBuf};
use crate::gpu::Device;
use crate::shape;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A rank-`R` array. Row-major: the last index varies fastest.
pub struct Array<T: Elem, const R: usize> {
    shape: [usize; R],
    len: usize,
    data: Arc<Storage<T::Columns>>,
}

/// Where an array's elements are. At least one of the two is set; each is set
/// at most once, so a reference to either stays valid for the array's life.
struct Storage<C: Columns> {
    host: OnceLock<C>,
    device: OnceLock<OnDevice<C>>,
    /// Whether the host columns go to the pool of dead arrays (`cpu::pool`)
    /// when the last owner drops them: yes for the storage programs made,
    /// not for the caller's own vectors. A stream of the caller's blocks
    /// would otherwise fill the pool with storage no program asks for (a
    /// pool's worth of blocks, 72 of them on 16 threads, held while the
    /// program runs).
    pooled: bool,
}

impl<C: Columns> Drop for Storage<C> {
    fn drop(&mut self) {
        // The last owner is done with the elements: their memory serves the
        // next program result of its size (see `cpu::pool`).
        if let Some(columns) = self.host.take() {
            if self.pooled {
                columns.recycle();
            }
        }
    }
}

/// An array's copy on one device.
struct OnDevice<C> {
    buf: GBuf,
    /// Downloads the columns: the element type's `DevColumns`, captured when
    /// the copy is made, so that reading needs no bound on `T`.
    download: fn(&GBuf, usize) -> Result<C>,
}

fn download_columns<C: DevColumns>(buf: &GBuf, n: usize) -> Result<C> {
    let mut k = 0;
    C::download_from(buf, &mut k, n)
}

/// A rank-0 array: one element.
pub type Scalar<T> = Array<T, 0>;
/// A rank-1 array.
pub type Vector<T> = Array<T, 1>;
/// A rank-2 array.
pub type Matrix<T> = Array<T, 2>;

impl<T: Elem, const R: usize> Array<T, R> {
    /// An array on the host; `columns` holds `shape`'s number of elements.
    /// `pooled`: whether the columns' storage goes to the pool of dead
    /// arrays when the array dies (see [`Storage::pooled`]).
    fn on_host(shape: [usize; R], columns: T::Columns, pooled: bool) -> Self {
        let len = columns.len();
        Array {
            shape,
            len,
            data: Arc::new(Storage {
                host: OnceLock::from(columns),
                device: OnceLock::new(),
                pooled,
            }),
        }
    }

    /// An array of the given shape holding `data` in row-major order; `Err` when
    /// `data.len()` is not the product of the shape.
    pub fn from_vec(shape: [usize; R], data: Vec<T>) -> Result<Self> {
        let size = shape::checked_size(&shape)
            .ok_or_else(|| Error::new("Array::from_vec", format!("shape {shape:?} overflows usize")))?;
        if size != data.len() {
            return Err(Error::new(
                "Array::from_vec",
                format!(
                    "shape {shape:?} holds {size} elements but {} were given",
                    data.len()
                ),
            ));
        }
        Ok(Array::on_host(shape, T::columns_from_vec(data), false))
    }

    /// An array whose element at each index is `f(index)`.
    pub fn from_fn(shape: [usize; R], mut f: impl FnMut([usize; R]) -> T) -> Self {
        let size = shape::size(&shape);
        let mut columns = T::Columns::with_capacity(size);
        for i in 0..size {
            columns.push(f(shape::from_linear(&shape, i)).into_repr());
        }
        Array::on_host(shape, columns, true)
    }

    /// An array from columns built by a kernel; `Err` when the columns do not hold
    /// exactly the shape's number of elements.
    pub fn from_columns(shape: [usize; R], columns: T::Columns) -> Result<Self> {
        if shape::checked_size(&shape) != Some(columns.len()) {
            return Err(Error::new(
                "Array::from_columns",
                format!("shape {shape:?} does not match {} elements", columns.len()),
            ));
        }
        Ok(Array::on_host(shape, columns, true))
    }

    /// An array whose elements are in the device columns `buf` (one per
    /// primitive leaf of `T`, depth first): nothing is copied until the host
    /// reads it. `Err` when `buf` does not hold the shape's elements.
    pub fn from_device(shape: [usize; R], buf: GBuf) -> Result<Self>
    where
        T::Columns: DevColumns,
    {
        let len = shape::checked_size(&shape)
            .ok_or_else(|| Error::new("Array::from_device", format!("shape {shape:?} overflows usize")))?;
        let mut leaf_bytes = Vec::new();
        <T::Columns as DevColumns>::leaf_bytes(&mut leaf_bytes);
        let fits = buf.columns() == leaf_bytes.len()
            && leaf_bytes.iter().enumerate().all(|(k, b)| {
                let need = b.checked_mul(len);
                buf.col(k)
                    .is_ok_and(|c| need.is_some_and(|need| c.bytes() >= need))
            });
        if !fits {
            return Err(Error::with_kind(
                ErrorKind::DeviceFailure,
                "Array::from_device",
                format!(
                    "{} device columns do not hold {len} elements of leaf sizes {leaf_bytes:?}",
                    buf.columns()
                ),
            ));
        }
        Ok(Array {
            shape,
            len,
            data: Arc::new(Storage {
                host: OnceLock::new(),
                device: OnceLock::from(OnDevice {
                    buf,
                    download: download_columns::<T::Columns>,
                }),
                pooled: true,
            }),
        })
    }

    /// The same elements (shared, not copied) under another shape of the
    /// same size; `None` when the sizes differ.
    pub(crate) fn reshaped<const Q: usize>(self, shape: [usize; Q]) -> Option<Array<T, Q>> {
        (shape::checked_size(&shape) == Some(self.len)).then_some(Array {
            shape,
            len: self.len,
            data: self.data,
        })
    }

    pub fn shape(&self) -> [usize; R] {
        self.shape
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the elements are on the host now (reading them copies nothing).
    pub fn is_on_host(&self) -> bool {
        self.data.host.get().is_some()
    }

    /// The device holding a copy of the elements, if any.
    pub fn device(&self) -> Option<&Arc<dyn Device>> {
        self.data.device.get().and_then(|d| d.buf.device())
    }

    /// The struct-of-arrays storage on the host: one `Vec` per primitive leaf
    /// of `T`. An array that lives only on a device is downloaded once, the
    /// first time; `Err` (kind `DeviceFailure`) when that download fails.
    pub fn try_columns(&self) -> Result<&T::Columns> {
        if let Some(c) = self.data.host.get() {
            return Ok(c);
        }
        let d = self.data.device.get().ok_or_else(|| {
            Error::with_kind(
                ErrorKind::DeviceFailure,
                "Array",
                "the array holds no elements anywhere",
            )
        })?;
        let columns = (d.download)(&d.buf, self.len)?;
        // Another thread may have downloaded them meanwhile: keep the first.
        Ok(self.data.host.get_or_init(|| columns))
    }

    /// The struct-of-arrays storage: one `Vec` per primitive leaf of `T`.
    ///
    /// # Panics
    /// Only when the elements are on a device and the download fails (the
    /// device has failed); [`try_columns`](Self::try_columns) returns that error.
    pub fn columns(&self) -> &T::Columns {
        match self.try_columns() {
            Ok(c) => c,
            Err(e) => panic!("reading an array from the device failed: {e}"),
        }
    }

    /// Gives this array's host storage to the calling thread's pool of dead
    /// arrays (`cpu::pool`) when it is the storage's only owner, for the next
    /// program result of its size to reuse; an array shared with another, or
    /// only on a device, is dropped as usual.
    #[doc(hidden)]
    pub fn give_storage(self) {
        // Dropping the last owner recycles the host columns.
        drop(self);
    }

    /// The host columns when this array is their only owner (to reuse their
    /// storage), else `None`.
    pub(crate) fn into_unique_columns(self) -> Option<T::Columns> {
        Arc::try_unwrap(self.data).ok()?.host.take()
    }

    /// The columns, without a copy when this is their only owner.
    ///
    /// # Panics
    /// As [`columns`](Self::columns).
    pub fn into_columns(self) -> T::Columns {
        let Array { shape, len, data } = self;
        let shared = match Arc::try_unwrap(data) {
            Ok(mut storage) => match storage.host.take() {
                Some(c) => return c,
                None => Arc::new(storage),
            },
            Err(shared) => shared,
        };
        Array::<T, R> {
            shape,
            len,
            data: shared,
        }
        .columns()
        .clone()
    }

    /// The elements in row-major order; `Err` (kind `DeviceFailure`) only when
    /// they are on a device and the download fails.
    pub fn try_to_vec(&self) -> Result<Vec<T>> {
        Ok(T::columns_to_vec(self.try_columns()?))
    }

    /// The elements in row-major order.
    ///
    /// # Panics
    /// As [`columns`](Self::columns); [`try_to_vec`](Self::try_to_vec) returns
    /// that error.
    pub fn to_vec(&self) -> Vec<T> {
        T::columns_to_vec(self.columns())
    }

    /// The elements in row-major order, without a copy when this array is
    /// their only owner and `T` is a primitive (stored as one column).
    ///
    /// # Panics
    /// As [`columns`](Self::columns).
    pub fn into_vec(self) -> Vec<T> {
        T::columns_into_vec(self.into_columns())
    }

    /// The element at `ix`, or `None` when `ix` is outside the shape.
    ///
    /// # Panics
    /// As [`columns`](Self::columns).
    pub fn get(&self, ix: [usize; R]) -> Option<T> {
        shape::to_linear_checked(&self.shape, &ix)
            .and_then(|i| self.columns().get(i))
            .map(T::from_repr)
    }

    /// Copies the elements to `backend`'s device now, as the first program on
    /// it would (a prefetch: keeps the copy out of a timed call, or moves it
    /// earlier). The array keeps the copy, so programs on that device read it
    /// without another upload; nothing happens when it is there already, or
    /// on the CPU. `Err` when the backend cannot be used or the copy fails.
    pub fn upload(&self, backend: &crate::Backend) -> Result<()>
    where
        T::Columns: DevColumns,
    {
        backend.check_usable("upload")?;
        match backend.device() {
            Some(dev) => self.device_columns(dev).map(|_| ()),
            None => Ok(()),
        }
    }

    /// The columns on `dev` for a GPU program: the device copy when it is on
    /// `dev`, otherwise an upload of the host columns, kept for the next call
    /// (when the array has no device copy yet).
    pub(crate) fn device_columns(&self, dev: &Arc<dyn Device>) -> Result<GBuf>
    where
        T::Columns: DevColumns,
    {
        if let Some(buf) = self.device_copy_on(dev) {
            return Ok(buf);
        }
        let buf = self.fresh_device_copy(dev)?;
        // Remembered only when the array is on no device yet: one on another
        // device keeps that copy, and this one lives for this call.
        let _ = self.data.device.set(OnDevice {
            buf: buf.clone(),
            download: download_columns::<T::Columns>,
        });
        Ok(buf)
    }

    /// The array's columns on `dev` for one use: its device copy there if
    /// it has one, else uploaded and not remembered (a stream's element,
    /// whose device memory is given back as soon as the chunk is done).
    pub(crate) fn device_columns_once(&self, dev: &Arc<dyn Device>) -> Result<GBuf>
    where
        T::Columns: DevColumns,
    {
        match self.device_copy_on(dev) {
            Some(buf) => Ok(buf),
            None => self.fresh_device_copy(dev),
        }
    }

    /// The device copy on `dev`, if the array has one.
    fn device_copy_on(&self, dev: &Arc<dyn Device>) -> Option<GBuf> {
        let d = self.data.device.get()?;
        (d.buf.device().is_some_and(|d| same_device(d, dev)) && d.buf.is_on(dev)).then(|| d.buf.clone())
    }

    /// A fresh device copy on `dev`.
    fn fresh_device_copy(&self, dev: &Arc<dyn Device>) -> Result<GBuf>
    where
        T::Columns: DevColumns,
    {
        let mut cols = Vec::new();
        self.try_columns()?.upload_to(dev, &mut cols)?;
        Ok(GBuf::from_columns(cols))
    }
}

impl<T: Elem<Columns = Vec<T>>, const R: usize> Array<T, R> {
    /// The elements in row-major order, borrowed: for primitive element types,
    /// stored as one column (an array of tuples is a column per field; use
    /// [`columns`](Self::columns) or [`to_vec`](Self::to_vec)).
    ///
    /// # Panics
    /// As [`columns`](Self::columns).
    pub fn as_slice(&self) -> &[T] {
        self.columns()
    }
}

impl<T: Elem> Array<T, 2> {
    /// A matrix from its rows; `Err` (kind `ShapeMismatch`) when they are not
    /// all of one length. No rows give the `[0, 0]` matrix.
    pub fn from_rows(rows: Vec<Vec<T>>) -> Result<Self> {
        let cols = rows.first().map_or(0, Vec::len);
        if let Some((r, row)) = rows.iter().enumerate().find(|(_, row)| row.len() != cols) {
            return Err(Error::with_kind(
                ErrorKind::ShapeMismatch,
                "Matrix::from_rows",
                format!("row {r} has {} elements, row 0 has {cols}", row.len()),
            ));
        }
        let n = rows.len();
        Array::from_vec([n, cols], rows.into_iter().flatten().collect())
    }
}

impl<T: Elem> Array<T, 0> {
    /// A rank-0 array holding `v`.
    pub fn new(v: T) -> Self {
        let mut columns = T::Columns::with_capacity(1);
        columns.push(v.into_repr());
        Array::on_host([], columns, true)
    }

    /// The single element.
    ///
    /// # Panics
    /// As [`columns`](Self::columns).
    pub fn value(&self) -> T {
        // A rank-0 array always holds exactly one element: every constructor
        // checks it.
        self.columns().get(0).map(T::from_repr).unwrap_or_default()
    }
}

/// A program's result as the compiler types it (structs as the tuples of
/// their fields) turned into the types its signature names: the same
/// columns, shared, not copied.
pub trait Retype<U> {
    fn retype(self) -> U;
}

impl<T: Elem, U: Elem<Columns = T::Columns>, const R: usize> Retype<Array<U, R>> for Array<T, R> {
    fn retype(self) -> Array<U, R> {
        Array {
            shape: self.shape,
            len: self.len,
            data: self.data,
        }
    }
}

macro_rules! tuple_retype {
    ($(($($A:ident $B:ident $i:tt),+))*) => {$(
        impl<$($A: Retype<$B>, $B),+> Retype<($($B,)+)> for ($($A,)+) {
            fn retype(self) -> ($($B,)+) {
                ($(self.$i.retype(),)+)
            }
        }
    )*};
}
tuple_retype! {
    (A0 B0 0, A1 B1 1)
    (A0 B0 0, A1 B1 1, A2 B2 2)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6, A7 B7 7)
}

/// Cheap: the clone shares the host and device copies.
impl<T: Elem, const R: usize> Clone for Array<T, R> {
    fn clone(&self) -> Self {
        Array {
            shape: self.shape,
            len: self.len,
            data: Arc::clone(&self.data),
        }
    }
}

// Arrays stay unwind-safe, as when they held host columns only: a panic (in a
// download) leaves each `OnceLock` set or empty, never half-written, so
// nothing broken can be seen after `catch_unwind`. (The device handle inside
// is not `RefUnwindSafe` only because `dyn Device` does not promise it.)
impl<T: Elem, const R: usize> std::panic::UnwindSafe for Array<T, R> {}
impl<T: Elem, const R: usize> std::panic::RefUnwindSafe for Array<T, R> {}

/// Same shape and elements. Arrays on a device are downloaded to compare them
/// (and so may panic as [`Array::columns`] does).
impl<T: Elem, const R: usize> PartialEq for Array<T, R>
where
    T::Columns: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.shape == other.shape && self.columns() == other.columns()
    }
}

impl<T: Elem> From<Vec<T>> for Array<T, 1> {
    fn from(data: Vec<T>) -> Self {
        Array::on_host([data.len()], T::columns_from_vec(data), false)
    }
}

impl<T: Elem> From<&[T]> for Array<T, 1> {
    fn from(data: &[T]) -> Self {
        Array::on_host([data.len()], T::columns_from_vec(data.to_vec()), false)
    }
}

impl<T: Elem> FromIterator<T> for Array<T, 1> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Array::from(iter.into_iter().collect::<Vec<T>>())
    }
}

/// By rows, as ndarray prints: nested brackets, a row per line, a blank line
/// between matrices; an axis longer than `2 * EDGE` shows its first and last
/// `EDGE` entries with `...` between. Elements print with `Debug` and the
/// formatter's flags (`{:.2}` rounds floats); an array whose download fails
/// shows the error (formatting never panics).
impl<T: Elem, const R: usize> fmt::Display for Array<T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.try_columns() {
            Ok(c) => display_axis::<T>(f, c, &self.shape, 0, 0),
            Err(e) => write!(f, "<on the device, unreadable: {e}>"),
        }
    }
}

/// Entries shown at each end of a long axis.
const EDGE: usize = 3;

/// The sub-array of shape `shape` starting at row-major `offset` of `c`,
/// inside `depth` brackets.
fn display_axis<T: Elem>(
    f: &mut fmt::Formatter<'_>,
    c: &T::Columns,
    shape: &[usize],
    offset: usize,
    depth: usize,
) -> fmt::Result {
    let Some((&n, inner_shape)) = shape.split_first() else {
        return match c.get(offset) {
            Some(x) => fmt::Debug::fmt(&T::from_repr(x), f),
            None => Ok(()),
        };
    };
    let inner: usize = inner_shape.iter().product();
    let shown: Vec<Option<usize>> = if n > 2 * EDGE {
        (0..EDGE)
            .map(Some)
            .chain([None])
            .chain((n - EDGE..n).map(Some))
            .collect()
    } else {
        (0..n).map(Some).collect()
    };
    f.write_str("[")?;
    for (k, entry) in shown.iter().enumerate() {
        if k > 0 {
            if inner_shape.is_empty() {
                f.write_str(", ")?;
            } else {
                f.write_str(",")?;
                for _ in 0..inner_shape.len() {
                    f.write_str("\n")?;
                }
                f.write_str(&" ".repeat(depth + 1))?;
            }
        }
        match entry {
            Some(i) => display_axis::<T>(f, c, inner_shape, offset + i * inner, depth + 1)?,
            None => f.write_str("...")?,
        }
    }
    f.write_str("]")
}

/// Shows the first elements; an array whose download fails shows the error
/// instead (formatting never panics).
impl<T: Elem, const R: usize> fmt::Debug for Array<T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 16;
        write!(f, "Array{:?} ", self.shape)?;
        let elems = match self.try_columns() {
            Ok(c) => T::columns_to_vec(c),
            Err(e) => return write!(f, "<on the device, unreadable: {e}>"),
        };
        if elems.len() <= SHOWN {
            write!(f, "{elems:?}")
        } else {
            write!(f, "{:?} .. ({} elements)", &elems[..SHOWN], elems.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_storage_programs_made_goes_to_the_pool() {
        let n = 1 << 16;
        let caller = [
            Vector::from(vec![1.0f32; n]),
            Vector::from(&vec![1.0f32; n][..]),
            Array::from_vec([n], vec![1.0f32; n]).unwrap(),
        ];
        assert!(caller.iter().all(|a| !a.data.pooled), "the caller's own vectors");
        let made = [
            Array::<f32, 1>::from_columns([n], vec![1.0f32; n]).unwrap(),
            Array::from_fn([n], |_| 1.0f32),
        ];
        assert!(made.iter().all(|a| a.data.pooled), "a kernel's columns");
        // A stream's chunk cut from a caller's block shares its storage, and its flag.
        assert!(!caller[0].clone().reshaped([n / 2, 2]).unwrap().data.pooled);
    }

    #[test]
    fn displays_by_rows_eliding_long_axes() {
        let v = Vector::from((1..=3).collect::<Vec<i32>>());
        assert_eq!(v.to_string(), "[1, 2, 3]");
        let v = Vector::from((1..=9).collect::<Vec<i32>>());
        assert_eq!(v.to_string(), "[1, 2, 3, ..., 7, 8, 9]");
        let m = Matrix::from_vec([2, 3], vec![1.5f32, 2.0, 3.25, 4.0, 5.0, 6.0]).unwrap();
        assert_eq!(format!("{m:.1}"), "[[1.5, 2.0, 3.2],\n [4.0, 5.0, 6.0]]");
        let a = Array::<i32, 3>::from_vec([2, 2, 2], (1..=8).collect()).unwrap();
        assert_eq!(a.to_string(), "[[[1, 2],\n  [3, 4]],\n\n [[5, 6],\n  [7, 8]]]");
        let tall = Matrix::from_vec([8, 1], (0..8).collect::<Vec<u8>>()).unwrap();
        assert_eq!(
            tall.to_string(),
            "[[0],\n [1],\n [2],\n ...,\n [5],\n [6],\n [7]]"
        );
        assert_eq!(Scalar::new((1, 2.5f64)).to_string(), "(1, 2.5)");
        assert_eq!(Matrix::<f32>::from_vec([0, 3], vec![]).unwrap().to_string(), "[]");
        assert_eq!(
            Matrix::<f32>::from_vec([2, 0], vec![]).unwrap().to_string(),
            "[[],\n []]"
        );
    }

    #[test]
    fn slices_vecs_and_rows() {
        let v = Vector::from(vec![3u32, 1, 2]);
        assert_eq!(v.as_slice(), &[3, 1, 2]);
        // Shared: copied, the other owner untouched.
        let w = v.clone();
        assert_eq!(v.into_vec(), vec![3, 1, 2]);
        assert_eq!(w.to_vec(), vec![3, 1, 2]);
        let t = Vector::from(vec![(1i32, 2.0f32), (3, 4.0)]);
        assert_eq!(t.into_vec(), vec![(1, 2.0), (3, 4.0)]);
        let m = Matrix::from_rows(vec![vec![1, 2, 3], vec![4, 5, 6]]).unwrap();
        assert_eq!((m.shape(), m.to_vec()), ([2, 3], vec![1, 2, 3, 4, 5, 6]));
        let e = Matrix::from_rows(vec![vec![1, 2], vec![3]]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ShapeMismatch);
        assert!(e.to_string().contains("row 1 has 1 elements, row 0 has 2"), "{e}");
        assert_eq!(Matrix::<f64>::from_rows(vec![]).unwrap().shape(), [0, 0]);
        assert_eq!(
            Matrix::<f64>::from_rows(vec![vec![], vec![]]).unwrap().shape(),
            [2, 0]
        );
    }
}

/// A program's result (an array or a tuple of them), whose storage
/// `name::on_into` hands to the program for its new result.
#[doc(hidden)]
pub trait Output: Sized {
    /// An empty value that owns no storage.
    fn empty() -> Self;
    /// [`Array::give_storage`] of each array.
    fn give_storage(self);
}

impl<T: Elem, const R: usize> Output for Array<T, R> {
    fn empty() -> Self {
        Array::on_host([0; R], T::Columns::with_capacity(0), true)
    }
    fn give_storage(self) {
        Array::give_storage(self)
    }
}

macro_rules! output_prim {
    ($($t:ty),*) => {$(
        impl Output for $t {
            fn empty() -> Self {
                <$t>::default()
            }
            fn give_storage(self) {}
        }
    )*};
}
crate::elem::for_each_prim!(output_prim);

macro_rules! output_tuple {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Output),+> Output for ($($t,)+) {
            fn empty() -> Self {
                ($($t::empty(),)+)
            }
            fn give_storage(self) {
                $(self.$i.give_storage();)+
            }
        }
    };
}
output_tuple!(A 0);
output_tuple!(A 0, B 1);
output_tuple!(A 0, B 1, C 2);
output_tuple!(A 0, B 1, C 2, D 3);
output_tuple!(A 0, B 1, C 2, D 3, E 4);
output_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
output_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
output_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
