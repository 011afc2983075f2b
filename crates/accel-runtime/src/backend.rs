//! Choosing where a program runs.

use crate::error::{Error, ErrorKind, Result};
use crate::gpu::Device;
use std::sync::{Arc, OnceLock};

/// Where a program runs.
#[derive(Clone, Debug)]
pub enum Backend {
    /// All cores of this machine, through rayon's global thread pool.
    Cpu,
    /// A GPU: a CUDA device, or the PTX simulator. Programs run their PTX kernels
    /// on it through the [`Device`] interface.
    Gpu(Arc<dyn Device>),
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

    /// CUDA device `n`. This build has no GPU back end yet, so this is always an
    /// `Err` saying so.
    pub fn cuda(n: usize) -> Result<Backend> {
        Err(Error::with_kind(
            ErrorKind::BackendUnavailable,
            format!("Backend::cuda({n})"),
            "this build of accel has no CUDA back end yet; use Backend::cpu()",
        ))
    }

    /// The PTX simulator: programs run their PTX kernels on the CPU with grid,
    /// block and warp semantics. Its scheduling seed comes from
    /// `ACCEL_SIM_SEED` (a number) when set, otherwise it is fixed, so runs
    /// are reproducible.
    pub fn ptx_sim() -> Result<Backend> {
        let seed = std::env::var("ACCEL_SIM_SEED")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(0x5eed);
        Ok(Backend::Gpu(Arc::new(crate::ptx_sim::SimDevice::new(seed))))
    }

    /// `ACCEL_BACKEND` (`cpu`, `cuda`, `cuda:N`, `ptx-sim`) when set, otherwise the
    /// best backend present (today: the CPU). Decided once per process.
    #[allow(clippy::should_implement_trait)]
    pub fn default() -> Backend {
        static CHOSEN: OnceLock<Backend> = OnceLock::new();
        CHOSEN
            .get_or_init(|| Backend::from_setting(std::env::var("ACCEL_BACKEND").ok().as_deref()))
            .clone()
    }

    /// The backend a value of `ACCEL_BACKEND` asks for (`None`: unset).
    pub fn from_setting(setting: Option<&str>) -> Backend {
        let Some(raw) = setting else { return Backend::Cpu };
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
        } else {
            unavailable("expected one of cpu, cuda, cuda:N, ptx-sim".to_string())
        }
    }

    /// A short name: `cpu`, or what was requested.
    pub fn name(&self) -> String {
        match self {
            Backend::Cpu => "cpu".to_string(),
            Backend::Gpu(d) => d.name(),
            Backend::Unavailable { requested, .. } => format!("{requested} (unavailable)"),
        }
    }

    /// `Ok` when programs can run on this backend; otherwise the error that
    /// program `program` reports.
    pub fn check_usable(&self, program: &str) -> Result<()> {
        match self {
            Backend::Cpu | Backend::Gpu(_) => Ok(()),
            Backend::Unavailable { requested, reason } => Err(Error::with_kind(
                ErrorKind::BackendUnavailable,
                program,
                format!("backend `{requested}` (from ACCEL_BACKEND) cannot be used: {reason}"),
            )),
        }
    }
}

/// Two backends are equal when they are the same kind on the same device.
impl PartialEq for Backend {
    fn eq(&self, other: &Backend) -> bool {
        match (self, other) {
            (Backend::Cpu, Backend::Cpu) => true,
            (Backend::Gpu(a), Backend::Gpu(b)) => Arc::ptr_eq(a, b),
            (
                Backend::Unavailable { requested: r1, reason: w1 },
                Backend::Unavailable { requested: r2, reason: w2 },
            ) => r1 == r2 && w1 == w2,
            _ => false,
        }
    }
}

impl Eq for Backend {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings() {
        assert_eq!(Backend::from_setting(None), Backend::Cpu);
        assert_eq!(Backend::from_setting(Some("CPU")), Backend::Cpu);
        assert!(matches!(Backend::from_setting(Some("ptx-sim")), Backend::Gpu(_)));
        for s in ["cuda", "cuda:1", "tpu"] {
            let b = Backend::from_setting(Some(s));
            assert!(matches!(b, Backend::Unavailable { .. }), "{s}");
            assert!(b.check_usable("p").is_err());
        }
    }
}
