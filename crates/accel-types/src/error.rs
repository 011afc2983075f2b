//! `accel::Error`: every run-time failure, as a value.

use std::fmt;

/// What went wrong. New kinds may be added: a `match` needs a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An index outside an array's shape (`xs[[i]]`, `backpermute`, `permute`).
    IndexOutOfBounds,
    /// Shapes that do not fit: `reshape` to a shape of another size,
    /// `zip_with_exact` of arrays of different shapes, `zip_with_broadcast` of
    /// shapes that do not broadcast, a shape whose number of
    /// elements overflows `usize` (`Array::from_vec` with the wrong number of
    /// elements is an `InvalidArgument`).
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
    /// The caller stopped a run: a stream's progress callback returned
    /// `false` (the message says how many elements had been pulled).
    Cancelled,
    /// A failure of a distributed run (`accel::dist`): another rank failed
    /// (the message names it and says why), or the ranks stopped answering
    /// within the communicator's timeout.
    Distributed,
}

/// A run-time error: which operation failed, where in the source, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    op: String,
    message: String,
    location: Option<String>,
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
            location: None,
        }
    }

    pub fn index_out_of_bounds(op: impl Into<String>, ix: &[usize], shape: &[usize]) -> Self {
        Error::with_kind(
            ErrorKind::IndexOutOfBounds,
            op,
            format!("index {ix:?} is out of bounds for shape {shape:?}"),
        )
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The operation that failed.
    pub fn op(&self) -> &str {
        &self.op
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where in the source the failing expression is (`file:line:column`),
    /// when known. Errors of compiled programs name the expression in the
    /// `#[acc]` function: the index of `xs[[i]]`, the `backpermute`,
    /// `permute`, `reshape` or reduction whose argument is wrong.
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }

    /// The same error at source location `location` (`file:line:column`).
    pub fn at(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    /// The same error at `location`, if it has none yet and `location` is
    /// `Some`: the generated code's way of placing an error that a skeleton
    /// raised without knowing the source.
    pub fn or_at(self, location: Option<&str>) -> Self {
        match location {
            Some(l) if self.location.is_none() => self.at(l),
            _ => self,
        }
    }

    /// The same error, reported as happening inside program `program`.
    pub fn in_program(mut self, program: &str) -> Self {
        self.op = format!("{program}: {}", self.op);
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(l) => write!(f, "{} at {l}: {}", self.op, self.message),
            None => write!(f, "{}: {}", self.op, self.message),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_is_shown_and_kept() {
        let e = Error::index_out_of_bounds("index", &[3], &[3]);
        assert_eq!(e.location(), None);
        assert_eq!(e.to_string(), "index: index [3] is out of bounds for shape [3]");
        let e = e.or_at(Some("src/a.rs:4:9")).in_program("p");
        assert_eq!(e.location(), Some("src/a.rs:4:9"));
        assert_eq!(e.kind(), ErrorKind::IndexOutOfBounds);
        assert_eq!(
            e.to_string(),
            "p: index at src/a.rs:4:9: index [3] is out of bounds for shape [3]"
        );
        // A located error keeps its own position.
        assert_eq!(e.or_at(Some("src/b.rs:1:1")).location(), Some("src/a.rs:4:9"));
        assert_eq!(Error::new("reshape", "m").or_at(None).location(), None);
    }
}
