//! Choosing where a program runs.

use crate::error::{Error, ErrorKind, Result};
use crate::gpu::Device;
use std::sync::{Arc, OnceLock};

/// The error of a backend this build leaves out (`accel` without `feature`).
#[allow(dead_code)]
fn not_built(backend: &str, feature: &str) -> Error {
    Error::with_kind(
        ErrorKind::BackendUnavailable,
        backend,
        format!("this build of accel has no `{backend}` backend: enable the `{feature}` feature of the `accel` crate"),
    )
}

/// Where a program runs.
#[derive(Clone, Debug)]
pub enum Backend {
    /// All cores of this machine, through rayon's global thread pool.
    Cpu,
    /// A GPU: a CUDA device, or the PTX simulator. Programs run their PTX kernels
    /// on it through the [`Device`] interface.
    Gpu(Arc<dyn Device>),
    /// The reference interpreter (`accel`'s `interp` feature): one thread,
    /// no fusion, for telling a wrong program from a wrong compiler.
    Interp,
    /// A backend that was asked for (through `ACCEL_BACKEND`) but cannot be used in
    /// this build or on this machine. Running a program on it returns an error
    /// that says why: choosing a backend never panics.
    Unavailable { requested: String, reason: String },
}

impl Backend {
    /// The CPU backend.
    pub fn cpu() -> Backend {
        Backend::Cpu
    }

    /// The device of a GPU backend; `None` for the CPU.
    pub fn device(&self) -> Option<&Arc<dyn Device>> {
        match self {
            Backend::Gpu(d) => Some(d),
            _ => None,
        }
    }

    /// Waits until the work queued on this backend has finished (a GPU's
    /// kernels run asynchronously); immediate on the CPU. For timing.
    pub fn synchronize(&self) -> Result<()> {
        match self {
            Backend::Gpu(d) => d.synchronize(),
            _ => Ok(()),
        }
    }

    /// CUDA device `n`. `Err` of kind `BackendUnavailable` when there is no
    /// driver library, the driver fails to initialise or is too old, or device
    /// `n` does not exist; the message says which. The device is opened once
    /// per process: `Backend::cuda(0) == Backend::cuda(0)`.
    ///
    /// With `ACCEL_DEVICE_MEM_LIMIT` set (bytes, or a number with `K`, `M`
    /// or `G`), the device holds at most that much at once, as after
    /// [`Backend::with_device_mem_limit`]; the limited device is also opened
    /// once per process.
    pub fn cuda(n: usize) -> Result<Backend> {
        #[cfg(feature = "cuda")]
        {
            let device: Arc<dyn Device> = crate::gpu::cuda::device(n)?;
            let Some(limit) = env_mem_limit()? else {
                return Ok(Backend::Gpu(device));
            };
            // One limited device per CUDA device, so that every backend on
            // it shares the one budget.
            static LIMITED: std::sync::Mutex<Vec<(usize, Arc<dyn Device>)>> =
                std::sync::Mutex::new(Vec::new());
            let mut limited = LIMITED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some((_, d)) = limited.iter().find(|(k, _)| *k == n) {
                return Ok(Backend::Gpu(d.clone()));
            }
            let d: Arc<dyn Device> = Arc::new(crate::gpu::limited::MemLimited::new(device, limit));
            limited.push((n, d.clone()));
            Ok(Backend::Gpu(d))
        }
        #[cfg(not(feature = "cuda"))]
        {
            let _ = n;
            Err(not_built("cuda", "gpu"))
        }
    }

    /// The PTX simulator: programs run their PTX kernels on the CPU with grid,
    /// block and warp semantics. Its scheduling seed comes from
    /// `ACCEL_SIM_SEED` (a number) when set, otherwise it is fixed, so runs
    /// are reproducible. `ACCEL_DEVICE_MEM_LIMIT` limits its memory as it
    /// does a CUDA device's.
    pub fn ptx_sim() -> Result<Backend> {
        #[cfg(feature = "ptx-sim")]
        {
            let seed = std::env::var("ACCEL_SIM_SEED")
                .ok()
                .and_then(|s| s.trim().parse::<u64>().ok())
                .unwrap_or(0x5eed);
            let sim = Backend::Gpu(Arc::new(crate::ptx_sim::SimDevice::new(seed)));
            Ok(match env_mem_limit()? {
                Some(limit) => sim.with_device_mem_limit(limit),
                None => sim,
            })
        }
        #[cfg(not(feature = "ptx-sim"))]
        Err(not_built("ptx-sim", "ptx-sim"))
    }

    /// This backend with its device holding at most `bytes` at once: an
    /// allocation past that is an error of kind `OutOfMemory`, and streamed
    /// sequences run in chunks that fit. A small GPU on a large one (or on
    /// the simulator), to check that a program runs out of core. The
    /// limit is this backend's own (a new budget), not shared with others on
    /// the same device. Backends without a device are returned unchanged.
    pub fn with_device_mem_limit(self, bytes: usize) -> Backend {
        match self {
            Backend::Gpu(d) => Backend::Gpu(Arc::new(crate::gpu::limited::MemLimited::new(d, bytes))),
            other => other,
        }
    }

    /// The reference interpreter: programs run unfused on one thread, as the
    /// tests' oracle runs them (see `accel_runtime::interp`). `Err` of kind
    /// `BackendUnavailable` without `accel`'s `interp` feature.
    pub fn interp() -> Result<Backend> {
        if cfg!(feature = "interp") {
            Ok(Backend::Interp)
        } else {
            Err(not_built("interp", "interp"))
        }
    }

    /// Whether this is [`Backend::interp`].
    pub fn is_interp(&self) -> bool {
        matches!(self, Backend::Interp)
    }

    /// The backend of programs called without one (`name(..)` rather than
    /// `name::on(&backend, ..)`): inside [`Backend::with_default`] on this
    /// thread, the backend it set; otherwise `ACCEL_BACKEND` (`cpu`, `cuda`,
    /// `cuda:N`, `ptx-sim`, `interp`) when set, else CUDA device 0 when the driver loads
    /// and has a device, else the CPU. The process's choice is made once;
    /// probing never panics.
    #[allow(clippy::should_implement_trait)]
    pub fn default() -> Backend {
        if let Some(b) = SCOPED.with(|s| s.borrow().last().cloned()) {
            return b;
        }
        static CHOSEN: OnceLock<Backend> = OnceLock::new();
        CHOSEN
            .get_or_init(|| Backend::from_setting(std::env::var("ACCEL_BACKEND").ok().as_deref()))
            .clone()
    }

    /// Runs `f` with `self` as the [`Backend::default`] of this thread (nested
    /// calls stack; the previous default is back when `f` returns or
    /// panics). Other threads, the tasks of a thread pool included, keep
    /// theirs: pass the backend to work sent elsewhere.
    ///
    /// ```
    /// # use accel_runtime::Backend;
    /// let name = Backend::cpu().with_default(|| Backend::default().name());
    /// assert_eq!(name, "cpu");
    /// ```
    pub fn with_default<R>(&self, f: impl FnOnce() -> R) -> R {
        /// Pops this scope's backend, also when `f` unwinds.
        struct Pop;
        impl Drop for Pop {
            fn drop(&mut self) {
                SCOPED.with(|s| s.borrow_mut().pop());
            }
        }
        SCOPED.with(|s| s.borrow_mut().push(self.clone()));
        let _pop = Pop;
        f()
    }

    /// The backend a value of `ACCEL_BACKEND` asks for (`None`: unset, the
    /// best backend present).
    pub fn from_setting(setting: Option<&str>) -> Backend {
        let Some(raw) = setting else {
            return Backend::cuda(0).unwrap_or(Backend::Cpu);
        };
        let s = raw.trim().to_ascii_lowercase();
        let unavailable = |reason: String| Backend::Unavailable {
            requested: raw.to_string(),
            reason,
        };
        if s.is_empty() || s == "cpu" {
            Backend::Cpu
        } else if s == "cuda"
            || s.strip_prefix("cuda:")
                .is_some_and(|n| n.parse::<usize>().is_ok())
        {
            let n = s.strip_prefix("cuda:").and_then(|n| n.parse().ok()).unwrap_or(0);
            match Backend::cuda(n) {
                Ok(b) => b,
                Err(e) => unavailable(e.message().to_string()),
            }
        } else if s == "ptx-sim" {
            match Backend::ptx_sim() {
                Ok(b) => b,
                Err(e) => unavailable(e.message().to_string()),
            }
        } else if s == "interp" {
            match Backend::interp() {
                Ok(b) => b,
                Err(e) => unavailable(e.message().to_string()),
            }
        } else {
            unavailable("expected one of cpu, cuda, cuda:N, ptx-sim, interp".to_string())
        }
    }

    /// A short name: `cpu`, or what was requested.
    pub fn name(&self) -> String {
        match self {
            Backend::Cpu => "cpu".to_string(),
            Backend::Gpu(d) => d.name(),
            Backend::Interp => "interp".to_string(),
            Backend::Unavailable { requested, .. } => format!("{requested} (unavailable)"),
        }
    }

    /// `Ok` when programs can run on this backend; otherwise the error that
    /// program `program` reports.
    pub fn check_usable(&self, program: &str) -> Result<()> {
        match self {
            Backend::Cpu | Backend::Gpu(_) | Backend::Interp => Ok(()),
            Backend::Unavailable { requested, reason } => Err(Error::with_kind(
                ErrorKind::BackendUnavailable,
                program,
                format!("backend `{requested}` (from ACCEL_BACKEND) cannot be used: {reason}"),
            )),
        }
    }
}

/// `ACCEL_DEVICE_MEM_LIMIT`'s size in bytes, if set; an error of kind
/// `BackendUnavailable` when it is not a size.
#[allow(dead_code)]
fn env_mem_limit() -> Result<Option<usize>> {
    let Some(raw) = std::env::var_os("ACCEL_DEVICE_MEM_LIMIT") else {
        return Ok(None);
    };
    let raw = raw.to_string_lossy();
    match crate::gpu::limited::parse_bytes(&raw) {
        Some(bytes) => Ok(Some(bytes)),
        None => Err(Error::with_kind(
            ErrorKind::BackendUnavailable,
            "ACCEL_DEVICE_MEM_LIMIT",
            format!("`{raw}` is not a size: bytes, or a whole number followed by K, M or G"),
        )),
    }
}

thread_local! {
    /// The backends [`Backend::with_default`] set on this thread, innermost last.
    static SCOPED: std::cell::RefCell<Vec<Backend>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Two backends are equal when they are the same kind on the same device.
impl PartialEq for Backend {
    fn eq(&self, other: &Backend) -> bool {
        match (self, other) {
            (Backend::Cpu, Backend::Cpu) | (Backend::Interp, Backend::Interp) => true,
            (Backend::Gpu(a), Backend::Gpu(b)) => Arc::ptr_eq(a, b),
            (
                Backend::Unavailable {
                    requested: r1,
                    reason: w1,
                },
                Backend::Unavailable {
                    requested: r2,
                    reason: w2,
                },
            ) => r1 == r2 && w1 == w2,
            _ => false,
        }
    }
}

impl Eq for Backend {}

// The backends' tests need both (the crate's default features).
#[cfg(all(test, feature = "cuda", feature = "ptx-sim"))]
mod tests {
    use super::*;
    use crate::gpu::cuda;

    /// Whether this machine has a usable CUDA device 0.
    fn have_gpu() -> bool {
        cuda::probe().reason_unavailable(0).is_none()
    }

    #[test]
    fn settings() {
        if have_gpu() {
            println!("skipped the no-GPU settings checks: this machine has a CUDA device");
            return;
        }
        assert_eq!(Backend::from_setting(None), Backend::Cpu);
        assert_eq!(Backend::from_setting(Some("CPU")), Backend::Cpu);
        assert!(matches!(Backend::from_setting(Some("ptx-sim")), Backend::Gpu(_)));
        for s in ["cuda", "cuda:1", "tpu"] {
            let b = Backend::from_setting(Some(s));
            assert!(matches!(b, Backend::Unavailable { .. }), "{s}");
            assert!(b.check_usable("p").is_err());
        }
    }

    #[test]
    fn cuda_without_a_driver() {
        match cuda::probe() {
            cuda::Probe::NoLibrary => {
                let e = Backend::cuda(0).unwrap_err();
                assert_eq!(e.kind(), ErrorKind::BackendUnavailable);
                assert!(e.message().contains("libcuda"), "{e}");
                match Backend::from_setting(Some("cuda")) {
                    Backend::Unavailable { requested, reason } => {
                        assert_eq!(requested, "cuda");
                        assert!(reason.contains("libcuda"), "{reason}");
                    }
                    other => panic!("expected Unavailable, got {other:?}"),
                }
                assert_eq!(Backend::from_setting(None), Backend::Cpu);
            }
            other => println!("skipped cuda_without_a_driver: the driver library is present ({other:?})"),
        }
    }

    #[test]
    fn default_backend() {
        // Whatever ACCEL_BACKEND says, choosing twice gives the same backend.
        assert_eq!(Backend::default(), Backend::default());
        if std::env::var_os("ACCEL_BACKEND").is_none() {
            if have_gpu() {
                assert!(
                    Backend::default().name().starts_with("cuda:0 ("),
                    "{}",
                    Backend::default().name()
                );
            } else {
                assert_eq!(Backend::default(), Backend::Cpu);
            }
        }
    }

    #[test]
    fn scoped_default_backend() {
        let process = Backend::default();
        let unavailable = Backend::Unavailable {
            requested: "x".into(),
            reason: "test".into(),
        };
        let seen = unavailable.with_default(|| {
            let inner = Backend::cpu().with_default(Backend::default);
            (Backend::default(), inner)
        });
        assert_eq!(seen, (unavailable.clone(), Backend::Cpu));
        assert_eq!(Backend::default(), process);
        // Another thread keeps the process default.
        let other = unavailable.with_default(|| std::thread::spawn(Backend::default).join().unwrap());
        assert_eq!(other, process);
        // A panic inside the scope restores the default too.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            unavailable.with_default(|| panic!("inside"))
        }));
        assert!(r.is_err());
        assert_eq!(Backend::default(), process);
    }

    #[test]
    fn cuda_backend_on_a_gpu() {
        if !have_gpu() {
            println!(
                "skipped cuda_backend_on_a_gpu: no CUDA device ({:?})",
                cuda::probe()
            );
            return;
        }
        let b = Backend::cuda(0).expect("cuda:0");
        assert_eq!(b, Backend::cuda(0).expect("cuda:0 again"));
        assert!(b.name().starts_with("cuda:0 ("), "{}", b.name());
        assert_eq!(Backend::from_setting(Some("cuda:0")), b);
        assert!(b.check_usable("p").is_ok());
        let n = cuda::probe().devices();
        let e = Backend::cuda(n).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BackendUnavailable);
    }
}
