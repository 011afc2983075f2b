//! `accel::Error`: every run-time failure, as a value.

use std::fmt;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// An index outside an array's shape (`xs[[i]]`, `backpermute`, `permute`).
    IndexOutOfBounds,
    /// Shapes that do not fit (`reshape`, `Array::from_vec`).
    ShapeMismatch,
    /// A reduction without a neutral element over an empty row (`fold1`, `minimum`).
    EmptyReduction,
    /// A backend that cannot be used here (`ACCEL_BACKEND=cuda` without a GPU).
    BackendUnavailable,
    /// An argument that does not meet the program's requirements.
    InvalidArgument,
    /// The device has no memory left for an allocation.
    OutOfMemory,
    /// A failure of the device, its driver or the simulator: a failed launch, a
    /// module the driver rejects, a fault found by the PTX simulator.
    DeviceFailure,
}

/// A run-time error: which operation failed and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    op: String,
    message: String,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error in operation `op` (`"reshape"`, `"dotp: backpermute"`, ...).
    pub fn new(op: impl Into<String>, message: impl Into<String>) -> Self {
        Error::with_kind(ErrorKind::InvalidArgument, op, message)
    }

    pub fn with_kind(kind: ErrorKind, op: impl Into<String>, message: impl Into<String>) -> Self {
        Error {
            kind,
            op: op.into(),
            message: message.into(),
        }
    }

    pub fn index_out_of_bounds(op: impl Into<String>, ix: &[usize], shape: &[usize]) -> Self {
        Error::with_kind(
            ErrorKind::IndexOutOfBounds,
            op,
            format!("index {ix:?} is out of bounds for shape {shape:?}"),
        )
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The operation that failed.
    pub fn op(&self) -> &str {
        &self.op
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error, reported as happening inside program `program`.
    pub fn in_program(mut self, program: &str) -> Self {
        self.op = format!("{program}: {}", self.op);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.op, self.message)
    }
}

impl std::error::Error for Error {}
