//! Every call into the CUDA driver goes through [`guarded`]: a driver error
//! becomes an `accel::Error` naming the operation and the driver's error code,
//! and a panic inside cudarc (its dynamic loader panics when a symbol is
//! missing from an old driver) becomes an error instead of unwinding into the
//! caller.

use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::{sys, DriverError};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, a sequence of driver calls for operation `op` of device `ordinal`.
pub(crate) fn guarded<T>(ordinal: usize, op: &str, f: impl FnOnce() -> Result<T, DriverError>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(driver_error(ordinal, op, e)),
        Err(panic) => Err(Error::with_kind(
            ErrorKind::DeviceFailure,
            format!("cuda:{ordinal}: {op}"),
            format!("the CUDA driver library failed: {}", panic_message(&*panic)),
        )),
    }
}

/// The error for driver result `e` in operation `op`: out of memory keeps its
/// kind, everything else is a device failure.
pub(crate) fn driver_error(ordinal: usize, op: &str, e: DriverError) -> Error {
    let kind = if e.0 == sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        ErrorKind::OutOfMemory
    } else {
        ErrorKind::DeviceFailure
    };
    Error::with_kind(
        kind,
        format!("cuda:{ordinal}: {op}"),
        format!("the CUDA driver returned {}", error_name(e)),
    )
}

/// The driver's name for an error code (`CUDA_ERROR_OUT_OF_MEMORY`), taken from
/// the bindings' enum rather than `cuGetErrorName`, so it works even when the
/// driver cannot be called.
pub(crate) fn error_name(e: DriverError) -> String {
    format!("{:?} ({})", e.0, e.0 as u32)
}

/// The text of a caught panic.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_keeps_its_kind() {
        let e = driver_error(
            0,
            "alloc of 8 bytes",
            DriverError(sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY),
        );
        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
        assert_eq!(e.op(), "cuda:0: alloc of 8 bytes");
        assert!(e.message().contains("CUDA_ERROR_OUT_OF_MEMORY"), "{e}");
        let e = driver_error(1, "launch", DriverError(sys::CUresult::CUDA_ERROR_LAUNCH_FAILED));
        assert_eq!(e.kind(), ErrorKind::DeviceFailure);
        assert!(e.message().contains("CUDA_ERROR_LAUNCH_FAILED"), "{e}");
    }

    #[test]
    fn panics_become_errors() {
        let r: Result<()> = guarded(0, "load", || panic!("Missing symbol cuFoo"));
        let e = r.unwrap_err();
        assert_eq!(e.kind(), ErrorKind::DeviceFailure);
        assert!(e.message().contains("Missing symbol cuFoo"), "{e}");
        assert_eq!(guarded(0, "ok", || Ok(3)), Ok(3));
    }
}
