//! How kernels report run-time errors: the first one is written into an
//! error word on the device, which the host reads back and turns into an
//! [`Error`] naming the operation and the source location.

use super::buffers::zeroed;
use super::{Device, DeviceBuffer, DevicePtr};
use crate::error::{Error, ErrorKind, Result};
use std::borrow::Cow;
use std::sync::Arc;

/// One run-time error a kernel can report: `(kind, op, message, source
/// location)`.
pub type ErrSite = (ErrorKind, &'static str, &'static str, Option<&'static str>);

/// The word kernels write the first run-time error into (0: none). One
/// lives for each program call: dropping it ends the call
/// ([`Device::end_call`]).
#[derive(Debug)]
pub struct ErrWord {
    buf: DeviceBuffer,
    /// Borrowed in generated code: no allocation per call.
    program: Cow<'static, str>,
}

impl ErrWord {
    pub fn new(dev: &Arc<dyn Device>, program: impl Into<Cow<'static, str>>) -> Result<ErrWord> {
        Ok(ErrWord {
            buf: zeroed(dev, 4)?,
            program: program.into(),
        })
    }

    pub fn ptr(&self) -> DevicePtr {
        self.buf.ptr()
    }

    /// `r`, unless a kernel launched before failed: its error comes first,
    /// in program order (for host checks that return at once: shapes).
    pub fn after_kernels<T>(&self, sites: &[ErrSite], r: Result<T>) -> Result<T> {
        if r.is_err() {
            self.check(sites)?;
        }
        r
    }

    /// `Err` with the error a kernel recorded, if any.
    pub fn check(&self, sites: &[ErrSite]) -> Result<()> {
        let mut b = [0u8; 4];
        self.buf.device().download(self.buf.ptr(), &mut b)?;
        let code = u32::from_le_bytes(b) as usize;
        if code == 0 {
            return Ok(());
        }
        Err(match sites.get(code - 1) {
            Some((kind, op, msg, at)) => Error::with_kind(*kind, *op, *msg).or_at(*at),
            None => Error::with_kind(
                ErrorKind::DeviceFailure,
                "kernel",
                format!("unknown error code {code} in the error word"),
            ),
        })
    }
}

/// The first error of the program so far: a kernel's (reported through `err`,
/// which is read only when the host part failed: kernels launched before the
/// failing host expression come first in program order) or the host part's.
pub fn first_error(err: &ErrWord, sites: &[ErrSite], ctx: &crate::host::Ctx) -> Result<()> {
    match ctx.check() {
        Ok(()) => Ok(()),
        Err(e) => {
            err.check(sites)?;
            Err(e)
        }
    }
}

/// The error of a program whose GPU path is not supported yet.
pub fn unsupported(program: &str, why: &str) -> Error {
    Error::with_kind(
        ErrorKind::BackendUnavailable,
        program,
        format!("not supported on the GPU back end yet: {why}; use Backend::cpu()"),
    )
}

impl Drop for ErrWord {
    fn drop(&mut self) {
        self.buf.device().end_call(&self.program);
    }
}
