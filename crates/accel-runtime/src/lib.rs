//! accel's runtime: arrays, element types, backends, the CPU skeletons that
//! generated code calls, and run-time errors. It parses and fuses nothing: the
//! compiler (`accel-core`) and the macros decide what runs, this crate runs it.

pub mod array;
pub mod backend;
pub mod cpu;
pub mod dist;
pub mod dynamic;
pub mod elem;
pub mod gpu;
pub mod host;
#[cfg(feature = "ndarray")]
mod interop;
pub mod interp;
pub mod profile;
#[cfg(feature = "ptx-sim")]
pub mod ptx_sim;
pub mod seq;
#[cfg(feature = "serde")]
mod serialize;

pub use accel_types::{error, ops, shape};
pub use array::{Array, Matrix, Output, Retype, Scalar, Vector};
pub use backend::Backend;
pub use elem::{Columns, Elem, Prim};
pub use error::{Error, ErrorKind, Result};
/// The half-precision element types: stored in 16 bits, computed in `f32`.
pub use half::{bf16, f16};
pub use seq::{read_ahead, with_chunk_elems, with_chunk_len, Seq, SeqOut, Stream};
