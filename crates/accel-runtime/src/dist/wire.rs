//! Elements as bytes between ranks: each primitive leaf column in its
//! device form (little-endian, `usize` as 64 bits, `bool` as one byte), so
//! that ranks of different word sizes or endianness agree, and numbers on a
//! little-endian host go out as their own bytes.

use super::dist_error;
use crate::elem::{Columns, Elem};
use crate::error::Result;
use crate::gpu::buffers::DevElem;
use std::ops::Range;

/// Struct-of-arrays columns that travel between ranks.
pub trait WireColumns: Sized {
    /// Appends the elements at `range` (within the columns), leaf by leaf.
    fn put(&self, range: Range<usize>, out: &mut Vec<u8>);
    /// Reads `n` elements written by `put` from the front of `bytes`, and
    /// moves `bytes` past them.
    fn take(bytes: &mut &[u8], n: usize) -> Result<Self>;
}

impl<P: DevElem> WireColumns for Vec<P> {
    fn put(&self, range: Range<usize>, out: &mut Vec<u8>) {
        out.extend_from_slice(&P::to_device(&self[range]));
    }

    fn take(bytes: &mut &[u8], n: usize) -> Result<Self> {
        let len = n
            .checked_mul(P::BYTES)
            .filter(|&l| l <= bytes.len())
            .ok_or_else(|| short("elements"))?;
        let (head, rest) = bytes.split_at(len);
        *bytes = rest;
        P::from_device(n, |b| {
            b.copy_from_slice(head);
            Ok(())
        })
    }
}

macro_rules! wire_tuple {
    ($(($($C:ident $i:tt),+))*) => {$(
        impl<$($C: WireColumns),+> WireColumns for ($($C,)+) {
            fn put(&self, range: Range<usize>, out: &mut Vec<u8>) {
                $(self.$i.put(range.clone(), out);)+
            }
            fn take(bytes: &mut &[u8], n: usize) -> Result<Self> {
                Ok(($($C::take(bytes, n)?,)+))
            }
        }
    )*};
}

// The tuple arities `Elem` has.
wire_tuple! {
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
}

fn short(what: &str) -> crate::error::Error {
    dist_error("receive", format!("a message from another rank ended before its {what} (a bug in accel, or ranks running different programs)"))
}

pub(crate) fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

pub(crate) fn take_u64(bytes: &mut &[u8]) -> Result<u64> {
    let (head, rest) = bytes.split_first_chunk::<8>().ok_or_else(|| short("header"))?;
    *bytes = rest;
    Ok(u64::from_le_bytes(*head))
}

pub(crate) fn take_usize(bytes: &mut &[u8]) -> Result<usize> {
    usize::try_from(take_u64(bytes)?).map_err(|_| short("size that fits this machine's usize"))
}

/// Appends elements `range` of `cols`, after their count.
pub(crate) fn put_elems<C: WireColumns>(cols: &C, range: Range<usize>, out: &mut Vec<u8>) {
    put_u64(out, range.len() as u64);
    cols.put(range, out);
}

/// Reads elements written by [`put_elems`].
pub(crate) fn take_elems<C: WireColumns>(bytes: &mut &[u8]) -> Result<C> {
    let n = take_usize(bytes)?;
    C::take(bytes, n)
}

/// Single values (a fold's partial result, a scan's block total).
pub(crate) fn put_value<T: Elem>(v: T, out: &mut Vec<u8>)
where
    T::Columns: WireColumns,
{
    T::columns_from_vec(vec![v]).put(0..1, out);
}

pub(crate) fn take_value<T: Elem>(bytes: &mut &[u8]) -> Result<T>
where
    T::Columns: WireColumns,
{
    let c = T::Columns::take(bytes, 1)?;
    c.get(0).map(T::from_repr).ok_or_else(|| short("value"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_round_trip() {
        let cols: (Vec<f32>, (Vec<bool>, Vec<usize>)) = (
            vec![1.5, -0.0, f32::NAN],
            (vec![true, false, true], vec![0, usize::MAX, 7]),
        );
        let mut out = Vec::new();
        cols.put(1..3, &mut out);
        assert_eq!(out.len(), 2 * 4 + 2 + 2 * 8);
        let mut b = &out[..];
        let back = <(Vec<f32>, (Vec<bool>, Vec<usize>))>::take(&mut b, 2).unwrap();
        assert!(b.is_empty());
        assert_eq!(back.0[0].to_bits(), (-0.0f32).to_bits());
        assert!(back.0[1].is_nan());
        assert_eq!(back.1, (vec![false, true], vec![usize::MAX, 7]));
        // A short message is an error, not a panic.
        assert!(<Vec<f64>>::take(&mut &out[..3], 1).is_err());
    }
}
