//! The vocabulary that accel's compiler, reference interpreter and runtime
//! share: the primitive element types, the meaning of scalar arithmetic,
//! shapes, run-time errors, dynamically typed values, and the descriptors of
//! GPU launches. It depends on nothing, so the compiler (`accel-core`) and
//! the procedural macros build without the runtime's thread pool or CUDA
//! bindings; the runtime re-exports all of it under its own paths.

pub mod dynamic;
pub mod error;
pub mod launch;
pub mod ops;
pub mod prim;
pub mod shape;

pub use error::{Error, ErrorKind, Result};
pub use prim::Prim;

/// The direction of a scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanDir {
    /// From the first element to the last (`scanl`).
    Left,
    /// From the last element to the first (`scanr`).
    Right,
}
