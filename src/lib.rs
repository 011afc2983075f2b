//! # accel
//!
//! Data-parallel array programs in plain Rust syntax, checked, fused and compiled
//! at build time, run on every CPU core.
//!
//! ```
//! use accel::prelude::*;
//!
//! #[acc]
//! pub fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
//!     xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
//! }
//!
//! # fn main() -> accel::Result<()> {
//! let xs = Vector::from(vec![1.0f32, 2.0, 3.0]);
//! let ys = Vector::from(vec![4.0f32, 5.0, 6.0]);
//! assert_eq!(dotp(&xs, &ys)?.value(), 32.0);
//! assert_eq!(dotp::on(&Backend::cpu(), &xs, &ys)?.value(), 32.0);
//! assert!(dotp::explain().contains("1 kernel"));
//! # Ok(())
//! # }
//! ```
//!
//! The language is described in `docs/language.md`. Several functions that call
//! each other go in one `accel! { .. }` block. (Rust has one namespace for
//! macros, so the block macro cannot also be called `acc`.)

pub use accel_macros::{acc, accel, Elem};
/// The half-precision element types (the `half` crate's): stored in 16 bits,
/// computed in `f32` and rounded back after every operation.
pub use accel_runtime::{bf16, f16};
pub use accel_runtime::{read_ahead, with_chunk_elems, with_chunk_len};
pub use accel_runtime::{
    Array, Backend, Elem, Error, ErrorKind, Matrix, Result, Scalar, Seq, SeqOut, Stream, Vector,
};

/// The interface of a GPU backend's device (`Backend::device()`), real or
/// simulated: to name it, or to implement another one.
pub use accel_runtime::gpu::{Device, DeviceProps};

/// Dynamically typed values, as the reference interpreter sees them.
pub use accel_runtime::dist;
pub use accel_runtime::dynamic;
/// Profiles of program calls on the PTX simulator and the GPU time model
/// (`name::profile(..)`, `ACCEL_SIM_PROFILE=1`).
pub use accel_runtime::profile;

/// The language guide (`docs/language.md`): how to write programs, every
/// operation, the scalar language, errors.
#[cfg(all(doc, not(doctest)))]
#[doc = include_str!("../docs/language.md")]
pub mod guide {}

/// Every array operation, a page each: its signature, its kind (how it
/// fuses) and its section of the [`guide`]. Generated from the guide's
/// operation tables, which a test checks against the compiler's operations.
#[cfg(all(doc, not(doctest)))]
pub mod operations {
    include!(concat!(env!("OUT_DIR"), "/operations.rs"));
}

/// Prints a message while debugging, from the scalar code of an accel
/// program (a closure, a loop, scalar `let`s):
///
/// ```text
/// xs.map(|x| {
///     trace!("x = {}, pair = {:?}", x, (x, x > 0));
///     x * 2
/// })
/// ```
///
/// The placeholders are `{}` (numbers and `bool`s) and `{:?}` (also tuples
/// and indices). The reference interpreter prints every message; the CPU
/// back end prints them in builds with debug assertions (elements run in
/// parallel, so their messages interleave); the GPU path prints nothing.
/// Outside a program this macro is an error: the program's macro reads it.
#[macro_export]
macro_rules! trace {
    ($($t:tt)*) => {
        ::core::compile_error!("`trace!` prints from inside an accel program (`#[acc]` or `accel! { .. }`)")
    };
}

/// The runtime, for generated code. Not a stable API.
#[doc(hidden)]
pub use accel_runtime as __rt;

/// Everything a program needs: `use accel::prelude::*;`.
pub mod prelude {
    pub use crate::{acc, accel, bf16, f16, Array, Backend, Matrix, Scalar, Seq, Stream, Vector};
}
