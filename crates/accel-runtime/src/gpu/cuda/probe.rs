//! Finding the CUDA driver and its devices without ever panicking, and the
//! one [`CudaDevice`] per device that the process shares.
//!
//! cudarc loads `libcuda` the first time any driver function is called, and
//! panics when it is missing, so the probe first checks that the library can be
//! loaded at all, and only then calls `cuDriverGetVersion`, `cuInit` and
//! `cuDeviceGetCount`, all inside `catch_unwind`. It also checks that the
//! library has every function this back end calls, since cudarc panics on the
//! first call of a missing one. The outcome is computed once
//! per process.

use super::driver_call::{error_name, panic_message};
use super::CudaDevice;
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::{result, sys};
use std::collections::HashMap;
use std::panic::catch_unwind;
use std::sync::{Arc, Mutex, OnceLock};

/// The oldest driver accel works with, as `cuDriverGetVersion` reports it
/// (1000 × major + 10 × minor): the API level of the pinned bindings.
pub const MIN_DRIVER_VERSION: i32 = 12020;

/// Every driver function this back end calls (directly or through cudarc),
/// under the names the CUDA 12.2 bindings load.
const DRIVER_FUNCTIONS: &[&str] = &[
    "cuDriverGetVersion",
    "cuInit",
    "cuDeviceGetCount",
    "cuDeviceGet",
    "cuDeviceGetName",
    "cuDeviceGetAttribute",
    "cuDeviceGetDefaultMemPool",
    "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease_v2",
    "cuCtxGetCurrent",
    "cuCtxSetCurrent",
    "cuCtxSynchronize",
    "cuStreamCreate",
    "cuStreamDestroy_v2",
    "cuStreamSynchronize",
    "cuMemPoolSetAttribute",
    "cuMemPoolTrimTo",
    "cuMemAllocAsync",
    "cuMemFreeAsync",
    "cuMemAlloc_v2",
    "cuMemFree_v2",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyDtoDAsync_v2",
    "cuMemsetD8Async",
    "cuModuleLoadDataEx",
    "cuModuleGetFunction",
    "cuModuleUnload",
    "cuLaunchKernel",
    "cuFuncGetAttribute",
    "cuFuncSetAttribute",
    "cuOccupancyMaxPotentialBlockSize",
];

/// What the probe found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Probe {
    /// No CUDA driver library (`libcuda.so`) could be loaded.
    NoLibrary,
    /// The driver is older than [`MIN_DRIVER_VERSION`].
    DriverTooOld { version: i32 },
    /// A driver call failed: `call` returned the driver error `error`.
    DriverFailed { call: &'static str, error: String },
    /// The driver library lacks functions accel calls.
    MissingSymbols { names: Vec<&'static str> },
    /// The driver library misbehaved (a panic inside the loader).
    Panicked { message: String },
    /// A working driver with `devices` devices (possibly none).
    Ready { driver_version: i32, devices: usize },
}

impl Probe {
    /// Why CUDA device `n` cannot be used; `None` when it exists.
    pub fn reason_unavailable(&self, n: usize) -> Option<String> {
        Some(match self {
            Probe::NoLibrary => {
                let names = cudarc::get_lib_name_candidates("cuda");
                format!(
                    "no CUDA driver library: {} could not be loaded (nor {} similar names); \
                     is the NVIDIA driver installed and on LD_LIBRARY_PATH?",
                    names.first().map_or("libcuda.so", String::as_str),
                    names.len().saturating_sub(1),
                )
            }
            Probe::DriverTooOld { version } => format!(
                "the CUDA driver supports CUDA {}.{}, accel needs {}.{} or newer",
                version / 1000,
                version % 1000 / 10,
                MIN_DRIVER_VERSION / 1000,
                MIN_DRIVER_VERSION % 1000 / 10,
            ),
            Probe::MissingSymbols { names } => {
                format!(
                    "the CUDA driver library lacks {}: is it older than CUDA 12.2?",
                    names.join(", ")
                )
            }
            Probe::DriverFailed { call, error } => format!("{call} failed with {error}"),
            Probe::Panicked { message } => format!("the CUDA driver library failed to load: {message}"),
            Probe::Ready { devices, .. } if n >= *devices => {
                format!("CUDA device {n} does not exist: there are {devices}")
            }
            Probe::Ready { .. } => return None,
        })
    }

    /// The number of usable devices (0 unless `Ready`).
    pub fn devices(&self) -> usize {
        match self {
            Probe::Ready { devices, .. } => *devices,
            _ => 0,
        }
    }
}

/// The probe's outcome, computed on the first call.
pub fn probe() -> &'static Probe {
    static PROBE: OnceLock<Probe> = OnceLock::new();
    PROBE.get_or_init(|| {
        catch_unwind(run_probe).unwrap_or_else(|p| Probe::Panicked {
            message: panic_message(&*p),
        })
    })
}

fn run_probe() -> Probe {
    // SAFETY: only tries to open the candidate library names (running their
    // initialisers, as any dlopen does); no function in them is called.
    if !unsafe { sys::is_culib_present() } {
        return Probe::NoLibrary;
    }
    // cudarc panics on the first call of a function the library lacks: look
    // them all up now, so that no later call can.
    // SAFETY: the library loads (checked above); looking a symbol up calls nothing.
    let lib = unsafe { sys::culib() };
    let names: Vec<&'static str> = DRIVER_FUNCTIONS
        .iter()
        .copied()
        // SAFETY: the symbol is only looked up, never called through this type.
        .filter(|name| unsafe { lib.get::<unsafe extern "C" fn()>(name.as_bytes()) }.is_err())
        .collect();
    if !names.is_empty() {
        return Probe::MissingSymbols { names };
    }
    let mut version = 0;
    // SAFETY: writes one int through a valid pointer; allowed before cuInit.
    if let Err(e) = unsafe { sys::cuDriverGetVersion(&mut version) }.result() {
        return Probe::DriverFailed {
            call: "cuDriverGetVersion",
            error: error_name(e),
        };
    }
    if version < MIN_DRIVER_VERSION {
        return Probe::DriverTooOld { version };
    }
    if let Err(e) = result::init() {
        return Probe::DriverFailed {
            call: "cuInit",
            error: error_name(e),
        };
    }
    match result::device::get_count() {
        Ok(n) => Probe::Ready {
            driver_version: version,
            devices: n.max(0) as usize,
        },
        Err(e) => Probe::DriverFailed {
            call: "cuDeviceGetCount",
            error: error_name(e),
        },
    }
}

/// CUDA device `n`, opened on first use and shared by the whole process (so
/// each module is loaded once per context, and backends on the same device
/// compare equal). An `Err` of kind `BackendUnavailable` says why there is none.
pub fn device(n: usize) -> Result<Arc<CudaDevice>> {
    static OPEN: Mutex<Option<HashMap<usize, Arc<CudaDevice>>>> = Mutex::new(None);
    let op = format!("Backend::cuda({n})");
    if let Some(reason) = probe().reason_unavailable(n) {
        return Err(Error::with_kind(ErrorKind::BackendUnavailable, op, reason));
    }
    let mut open = OPEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let open = open.get_or_insert_with(HashMap::new);
    if let Some(d) = open.get(&n) {
        return Ok(d.clone());
    }
    let d = CudaDevice::open(n).map_err(|e| {
        Error::with_kind(
            ErrorKind::BackendUnavailable,
            op,
            format!("CUDA device {n} could not be opened: {}: {}", e.op(), e.message()),
        )
    })?;
    let d = Arc::new(d);
    open.insert(n, d.clone());
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probing_twice_is_cached() {
        let first = probe();
        let second = probe();
        assert!(std::ptr::eq(first, second));
        println!("CUDA probe: {first:?}");
    }

    #[test]
    fn reasons() {
        assert!(Probe::NoLibrary
            .reason_unavailable(0)
            .is_some_and(|r| r.contains("libcuda")));
        let old = Probe::DriverTooOld { version: 11080 }.reason_unavailable(0);
        assert!(old.is_some_and(|r| r.contains("CUDA 11.8") && r.contains("12.2")));
        let ready = Probe::Ready {
            driver_version: 12040,
            devices: 2,
        };
        assert_eq!(ready.reason_unavailable(1), None);
        assert_eq!(
            ready.reason_unavailable(2).as_deref(),
            Some("CUDA device 2 does not exist: there are 2")
        );
        let failed = Probe::DriverFailed {
            call: "cuInit",
            error: "CUDA_ERROR_NO_DEVICE (100)".into(),
        };
        assert_eq!(
            failed.reason_unavailable(0).as_deref(),
            Some("cuInit failed with CUDA_ERROR_NO_DEVICE (100)")
        );
    }
}
