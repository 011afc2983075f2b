//! Element types and their struct-of-arrays storage.
//!
//! Every element type is a primitive (`bool`, `i8`–`i64`, `u8`–`u64`, `usize`,
//! `f32`, `f64`) or a tuple of element types. An array of tuples is stored as one
//! column (`Vec`) per primitive leaf, so `Vector<(f32, i32)>` is a `Vec<f32>` and a
//! `Vec<i32>`: kernels read and write each leaf with unit stride. A struct
//! with `#[derive(accel::Elem)]` is stored as the tuple of its fields (its
//! [`Elem::Repr`]), which is what the compiler and the kernels see.

use crate::dynamic::Value;
use std::fmt::Debug;

pub use accel_types::Prim;

/// A type that can be an element of an [`Array`](crate::Array).
pub trait Elem: Copy + Default + PartialEq + Debug + Send + Sync + 'static {
    /// The structural form the compiler and the kernels see: the type itself
    /// for a primitive or a tuple of primitives; for a struct with
    /// `#[derive(accel::Elem)]`, the tuple of its fields' forms (the field
    /// itself for a struct of one field). Both have the same columns.
    type Repr: Elem<Repr = Self::Repr, Columns = Self::Columns>;
    /// One `Vec` per primitive leaf.
    type Columns: Columns<Elem = Self::Repr>;

    fn into_repr(self) -> Self::Repr;
    fn from_repr(r: Self::Repr) -> Self;

    /// The columns of `elems`, without a copy where the columns are one
    /// `Vec` of them.
    fn columns_from_vec(elems: Vec<Self>) -> Self::Columns {
        let mut c = Self::Columns::with_capacity(elems.len());
        for e in elems {
            c.push(e.into_repr());
        }
        c
    }
    /// The elements of `columns`.
    fn columns_to_vec(columns: &Self::Columns) -> Vec<Self> {
        (0..columns.len())
            .filter_map(|i| columns.get(i))
            .map(Self::from_repr)
            .collect()
    }
    /// The elements of `columns`, without a copy where the columns are one
    /// `Vec` of them.
    fn columns_into_vec(columns: Self::Columns) -> Vec<Self> {
        Self::columns_to_vec(&columns)
    }

    /// Leaf types, depth first (for tuples: the fields in order).
    fn leaves(out: &mut Vec<Prim>);

    /// The element as a dynamically typed value (for the interpreter and tests).
    fn to_value(self) -> Value;

    /// The value as this element type, if it has this type.
    fn from_value(v: &Value) -> Option<Self>;

    /// [`LANES`] values of this type, field by field (an array per
    /// primitive leaf): the interleaved accumulators of a commutative
    /// reduction (`cpu::fold_all_fields`), which the compiler vectorises
    /// field by field, where it does not vectorise an array of tuples.
    type Lanes: Copy;
    /// Every lane `v`.
    fn splat(v: Self) -> Self::Lanes;
    fn lane(l: &Self::Lanes, k: usize) -> Self;
    fn set_lane(l: &mut Self::Lanes, k: usize, v: Self);
}

/// Invokes macro `$m` with every primitive element type (for the impls that
/// each of them gets alike).
macro_rules! for_each_prim {
    ($m:ident) => {
        $m!(
            bool,
            i8,
            i16,
            i32,
            i64,
            u8,
            u16,
            u32,
            u64,
            usize,
            f32,
            f64,
            half::f16,
            half::bf16
        );
    };
}
pub(crate) use for_each_prim;

/// The lanes of [`Elem::Lanes`].
pub const LANES: usize = 8;

/// Struct-of-arrays storage of one element type.
///
/// # Safety
/// `write` must be called with an `Out` obtained from `out_ptr` of a value with at
/// least `i + 1` allocated slots; implementations rely on the caller for that.
pub unsafe trait Columns: Clone + Debug + Send + Sync + Sized + 'static {
    type Elem: Elem;
    /// Raw pointers to the first slot of each column: shared by the threads that
    /// fill disjoint parts of the columns.
    type Out: Copy + Send + Sync;

    /// Empty columns with room for `n` elements.
    fn with_capacity(n: usize) -> Self;
    fn out_ptr(&mut self) -> Self::Out;
    /// # Safety
    /// `i` is below the capacity, and no other thread writes slot `i`.
    unsafe fn write(out: Self::Out, i: usize, v: Self::Elem);
    /// Writes `f(i)` to every slot `i` of `range`.
    ///
    /// # Safety
    /// `range` is below the capacity, and no other thread writes those slots.
    #[inline(always)]
    unsafe fn write_range(out: Self::Out, range: std::ops::Range<usize>, f: &impl Fn(usize) -> Self::Elem) {
        for i in range {
            // SAFETY: forwarded contract.
            unsafe { Self::write(out, i, f(i)) }
        }
    }
    /// Writes `f(j, a)` with `(j, a) = at(i)` to every slot `i` of `range`.
    ///
    /// # Safety
    /// As [`Columns::write_range`].
    #[inline(always)]
    unsafe fn write_range_at<A>(
        out: Self::Out,
        range: std::ops::Range<usize>,
        at: &impl Fn(usize) -> (usize, A),
        f: &impl Fn(usize, A) -> Self::Elem,
    ) {
        for i in range {
            let (j, a) = at(i);
            // SAFETY: forwarded contract.
            unsafe { Self::write(out, i, f(j, a)) }
        }
    }
    /// Writes `f(i)` to every slot `i` of `range`, in ascending order, or
    /// descending when `rev`: `f` may carry state from slot to slot (a
    /// scan's running value).
    ///
    /// # Safety
    /// `range` is below the capacity, and no other thread writes those slots.
    #[inline(always)]
    unsafe fn write_each(
        out: Self::Out,
        range: std::ops::Range<usize>,
        rev: bool,
        f: &mut impl FnMut(usize) -> Self::Elem,
    ) {
        let mut put = |i: usize| {
            let v = f(i);
            // SAFETY: forwarded contract.
            unsafe { Self::write(out, i, v) }
        };
        if rev {
            range.rev().for_each(&mut put)
        } else {
            range.for_each(put)
        }
    }
    /// # Safety
    /// `i` is below the length, and no other thread writes slot `i` meanwhile.
    unsafe fn read(out: Self::Out, i: usize) -> Self::Elem;
    /// # Safety
    /// Every slot below `n` has been written.
    unsafe fn set_len(&mut self, n: usize);
    fn len(&self) -> usize;
    /// Keeps the first `n` elements (all of them when there are fewer).
    fn truncate(&mut self, n: usize) {
        if n < self.len() {
            // SAFETY: every slot below the length was written, so every
            // slot below `n` was; the elements are plain data, nothing to drop.
            unsafe { self.set_len(n) }
        }
    }
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn get(&self, i: usize) -> Option<Self::Elem>;
    fn push(&mut self, v: Self::Elem);
    fn from_elems(elems: &[Self::Elem]) -> Self {
        let mut c = Self::with_capacity(elems.len());
        for &e in elems {
            c.push(e);
        }
        c
    }
    fn to_elems(&self) -> Vec<Self::Elem> {
        (0..self.len()).filter_map(|i| self.get(i)).collect()
    }
    /// Appends the elements of `from` at `range` (a stream's chunk of the
    /// rows of a block). `range` is within `from`.
    fn extend_from(&mut self, from: &Self, range: std::ops::Range<usize>) {
        for i in range {
            if let Some(v) = from.get(i) {
                self.push(v);
            }
        }
    }
    /// A copy, in storage from the program's pool of dead arrays when one
    /// fits (see [`crate::cpu::pool`]).
    fn copy(&self) -> Self {
        self.clone()
    }
    /// Ends the columns' life: their storage goes to the pool of dead arrays
    /// while a program runs on this thread, back to the allocator otherwise.
    fn recycle(self) {}
}

/// A raw pointer to an array shared between the threads of one parallel
/// loop: generated kernels and the runtime's primitives write disjoint slots
/// through it, one thread per slot, or update slots atomically.
#[derive(Debug)]
pub struct OutPtr<T>(pub *mut T);

// Copied whatever `T` is (a derive would ask `T: Copy`).
impl<T> Clone for OutPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for OutPtr<T> {}

impl<T> OutPtr<T> {
    /// The pointer (a method, so that closures capture the `Sync` wrapper
    /// rather than its raw field).
    #[inline(always)]
    pub fn get(&self) -> *mut T {
        self.0
    }
    /// Slot `i`'s address (not dereferenced here).
    #[inline(always)]
    pub fn at(&self, i: usize) -> *mut T {
        self.0.wrapping_add(i)
    }
}
// SAFETY: the pointer is only used to write disjoint slots, one thread per
// slot, or to update slots atomically, while the owning allocation outlives
// the parallel loop and is borrowed mutably for it.
unsafe impl<T: Send> Send for OutPtr<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for OutPtr<T> {}

macro_rules! prim_elem {
    ($($t:ty => $p:ident),* $(,)?) => {$(
        impl Elem for $t {
            type Repr = $t;
            type Columns = Vec<$t>;
            #[inline(always)]
            fn into_repr(self) -> $t { self }
            #[inline(always)]
            fn from_repr(r: $t) -> $t { r }
            fn columns_from_vec(elems: Vec<$t>) -> Vec<$t> { elems }
            fn columns_to_vec(columns: &Vec<$t>) -> Vec<$t> { columns.clone() }
            fn columns_into_vec(columns: Vec<$t>) -> Vec<$t> { columns }
            type Lanes = [$t; LANES];
            #[inline(always)]
            fn splat(v: $t) -> Self::Lanes { [v; LANES] }
            #[inline(always)]
            fn lane(l: &Self::Lanes, k: usize) -> $t { l[k] }
            #[inline(always)]
            fn set_lane(l: &mut Self::Lanes, k: usize, v: $t) { l[k] = v }
            fn leaves(out: &mut Vec<Prim>) { out.push(Prim::$p) }
            fn to_value(self) -> Value { Value::$p(self) }
            fn from_value(v: &Value) -> Option<Self> {
                match v { Value::$p(x) => Some(*x), _ => None }
            }
        }

        // SAFETY: `write` stays within the capacity reserved by `with_capacity`,
        // which the caller guarantees through the trait's contract.
        unsafe impl Columns for Vec<$t> {
            type Elem = $t;
            type Out = OutPtr<$t>;
            fn with_capacity(n: usize) -> Self { crate::cpu::pool::take(n) }
            fn out_ptr(&mut self) -> Self::Out { OutPtr(self.as_mut_ptr()) }
            unsafe fn write(out: Self::Out, i: usize, v: $t) {
                // SAFETY: slot `i` is allocated and written by this thread only.
                unsafe { out.0.add(i).write(v) }
            }
            #[inline(always)]
            unsafe fn write_range(out: Self::Out, range: std::ops::Range<usize>, f: &impl Fn(usize) -> $t) {
                // SAFETY: the slots of `range` are allocated and written by this
                // thread only, so a unique slice over them is sound.
                let slots = unsafe {
                    std::slice::from_raw_parts_mut(out.0.add(range.start) as *mut std::mem::MaybeUninit<$t>, range.len())
                };
                crate::cpu::fill_slots(slots, range.start, f)
            }
            #[inline(always)]
            unsafe fn write_range_at<A>(
                out: Self::Out,
                range: std::ops::Range<usize>,
                at: &impl Fn(usize) -> (usize, A),
                f: &impl Fn(usize, A) -> $t,
            ) {
                // SAFETY: as in `write_range`.
                let slots = unsafe {
                    std::slice::from_raw_parts_mut(out.0.add(range.start) as *mut std::mem::MaybeUninit<$t>, range.len())
                };
                crate::cpu::fill_slots_at(slots, range.start, at, f)
            }
            #[inline(always)]
            unsafe fn write_each(
                out: Self::Out,
                range: std::ops::Range<usize>,
                rev: bool,
                f: &mut impl FnMut(usize) -> $t,
            ) {
                // SAFETY: as in `write_range`.
                let slots = unsafe {
                    std::slice::from_raw_parts_mut(out.0.add(range.start) as *mut std::mem::MaybeUninit<$t>, range.len())
                };
                let start = range.start;
                if rev {
                    for (k, slot) in slots.iter_mut().enumerate().rev() {
                        slot.write(f(start + k));
                    }
                } else {
                    for (k, slot) in slots.iter_mut().enumerate() {
                        slot.write(f(start + k));
                    }
                }
            }
            unsafe fn read(out: Self::Out, i: usize) -> $t {
                // SAFETY: slot `i` is initialised and not written concurrently.
                unsafe { out.0.add(i).read() }
            }
            unsafe fn set_len(&mut self, n: usize) {
                // SAFETY: the caller wrote every slot below `n`.
                unsafe { Vec::set_len(self, n) }
            }
            fn len(&self) -> usize { Vec::len(self) }
            fn get(&self, i: usize) -> Option<$t> { self.as_slice().get(i).copied() }
            fn push(&mut self, v: $t) { Vec::push(self, v) }
            fn from_elems(elems: &[$t]) -> Self { elems.to_vec() }
            fn to_elems(&self) -> Vec<$t> { self.clone() }
            fn extend_from(&mut self, from: &Self, range: std::ops::Range<usize>) {
                self.extend_from_slice(&from[range])
            }
            fn copy(&self) -> Self {
                crate::cpu::pool::copied(self)
            }
            fn recycle(self) { crate::cpu::pool::recycle(self) }
        }
    )*};
}

prim_elem! {
    bool => Bool, i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64, usize => Usize,
    f32 => F32, f64 => F64, half::f16 => F16, half::bf16 => BF16,
}

macro_rules! tuple_elem {
    ($(($($T:ident $i:tt),+))*) => {$(
        impl<$($T: Elem),+> Elem for ($($T,)+) {
            type Repr = ($($T::Repr,)+);
            type Columns = ($($T::Columns,)+);
            #[inline(always)]
            fn into_repr(self) -> Self::Repr { ($(self.$i.into_repr(),)+) }
            #[inline(always)]
            fn from_repr(r: Self::Repr) -> Self { ($($T::from_repr(r.$i),)+) }
            type Lanes = ($($T::Lanes,)+);
            #[inline(always)]
            fn splat(v: Self) -> Self::Lanes { ($($T::splat(v.$i),)+) }
            #[inline(always)]
            fn lane(l: &Self::Lanes, k: usize) -> Self { ($($T::lane(&l.$i, k),)+) }
            #[inline(always)]
            fn set_lane(l: &mut Self::Lanes, k: usize, v: Self) { $($T::set_lane(&mut l.$i, k, v.$i);)+ }
            fn leaves(out: &mut Vec<Prim>) { $($T::leaves(out);)+ }
            fn to_value(self) -> Value { Value::Tuple(vec![$(self.$i.to_value()),+]) }
            fn from_value(v: &Value) -> Option<Self> {
                match v {
                    Value::Tuple(xs) if xs.len() == [$($i),+].len() =>
                        Some(($($T::from_value(&xs[$i])?,)+)),
                    _ => None,
                }
            }
        }

        // SAFETY: every operation forwards to the columns of the fields, which
        // uphold the contract themselves.
        unsafe impl<$($T: Columns),+> Columns for ($($T,)+) {
            type Elem = ($($T::Elem,)+);
            type Out = ($($T::Out,)+);
            fn with_capacity(n: usize) -> Self { ($($T::with_capacity(n),)+) }
            fn out_ptr(&mut self) -> Self::Out { ($(self.$i.out_ptr(),)+) }
            unsafe fn write(out: Self::Out, i: usize, v: Self::Elem) {
                // SAFETY: forwarded contract.
                unsafe { $($T::write(out.$i, i, v.$i);)+ }
            }
            unsafe fn read(out: Self::Out, i: usize) -> Self::Elem {
                // SAFETY: forwarded contract.
                unsafe { ($($T::read(out.$i, i),)+) }
            }
            unsafe fn set_len(&mut self, n: usize) {
                // SAFETY: forwarded contract.
                unsafe { $(self.$i.set_len(n);)+ }
            }
            fn len(&self) -> usize { self.0.len() }
            fn get(&self, i: usize) -> Option<Self::Elem> { Some(($(self.$i.get(i)?,)+)) }
            fn push(&mut self, v: Self::Elem) { $(self.$i.push(v.$i);)+ }
            fn extend_from(&mut self, from: &Self, range: std::ops::Range<usize>) {
                $(self.$i.extend_from(&from.$i, range.clone());)+
            }
            fn copy(&self) -> Self { ($(self.$i.copy(),)+) }
            fn recycle(self) { $(self.$i.recycle();)+ }
        }
    )*};
}

tuple_elem! {
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
}
