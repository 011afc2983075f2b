//! What a program's generated host code uses on every back end: the run's
//! context ([`Ctx`]), and the checks of shapes the host computes.
//!
//! [`Ctx`] collects the first run-time error raised inside a kernel.
//! Element functions run on many threads and cannot return early; when one finds
//! an error (an index out of bounds) it records it here and goes on with a default
//! value, and the program returns the error once the kernel has finished.

use crate::error::{Error, Result};
use crate::shape;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct Ctx {
    failed: AtomicBool,
    first: Mutex<Option<Error>>,
    /// One context per program call: dead arrays are reused while it runs.
    _pool: crate::cpu::pool::Scope,
}

impl Ctx {
    pub fn new() -> Ctx {
        Ctx::default()
    }

    /// Records an error (the first one wins).
    #[cold]
    #[inline(never)]
    pub fn fail(&self, error: Error) {
        self.failed.store(true, Ordering::Relaxed);
        // A poisoned lock only means another thread panicked while recording;
        // the slot is still usable.
        let mut first = self.first.lock().unwrap_or_else(|p| p.into_inner());
        if first.is_none() {
            *first = Some(error);
        }
    }

    /// The row-major offset of `ix` in `shape`, or `None` after recording an
    /// index-out-of-bounds error for operation `op` at source location `at`
    /// (`file:line:column`).
    #[inline(always)]
    pub fn index<const R: usize>(
        &self,
        op: &'static str,
        at: Option<&'static str>,
        ix: [usize; R],
        shape: [usize; R],
    ) -> Option<usize> {
        let l = shape::to_linear_checked(&shape, &ix);
        if l.is_none() {
            self.fail_index(op, at, ix, shape);
        }
        l
    }

    /// Out of line, so that building the error message stays out of the
    /// loops that check indices.
    #[cold]
    #[inline(never)]
    fn fail_index<const R: usize>(
        &self,
        op: &'static str,
        at: Option<&'static str>,
        ix: [usize; R],
        shape: [usize; R],
    ) {
        self.fail(Error::index_out_of_bounds(op, &ix, &shape).or_at(at));
    }

    /// `Err` with the first recorded error, if any.
    pub fn check(&self) -> Result<()> {
        if !self.failed.load(Ordering::Relaxed) {
            return Ok(());
        }
        let first = self.first.lock().unwrap_or_else(|p| p.into_inner());
        match &*first {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }
}

/// `Err` unless an array of shape `from` can be reshaped to `to` (same size).
pub fn check_reshape(from: &[usize], to: &[usize]) -> crate::Result<()> {
    if crate::shape::checked_size(from) != crate::shape::checked_size(to)
        || crate::shape::checked_size(to).is_none()
    {
        return Err(crate::Error::with_kind(
            crate::ErrorKind::ShapeMismatch,
            "reshape",
            format!("cannot reshape an array of shape {from:?} into shape {to:?}: sizes differ"),
        ));
    }
    Ok(())
}

/// The number of elements of `shape`, or an error naming `op` when it does not
/// fit in `usize`.
#[inline]
pub fn extent<const R: usize>(op: &str, shape: &[usize; R]) -> crate::Result<usize> {
    crate::shape::checked_size(shape).ok_or_else(|| {
        crate::Error::with_kind(
            crate::ErrorKind::ShapeMismatch,
            op,
            format!("shape {shape:?} is too large"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first error recorded is the one reported; none, no error.
    #[test]
    fn check_reports_the_first_error() {
        let c = Ctx::new();
        assert!(c.check().is_ok());
        assert_eq!(c.index("index", None, [2, 1], [3, 2]), Some(5));
        assert!(c.check().is_ok());
        assert_eq!(c.index("index", Some("a.rs:1:2"), [3, 0], [3, 2]), None);
        c.fail(Error::new("later", "a second error"));
        let e = c.check().expect_err("recorded");
        assert_eq!(e.op(), "index");
        assert_eq!(e.location(), Some("a.rs:1:2"));
        assert_eq!(e.kind(), crate::ErrorKind::IndexOutOfBounds);
    }
}
