//! The ranks of a distributed example: with the `distributed` feature, the
//! processes that `mpiexec` started; without it, `ACCEL_RANKS` threads of
//! this process (2 when unset).

use accel::dist::Comm;
use std::process::ExitCode;
use std::sync::Arc;

/// Runs `f` on every rank; fails when it fails on any.
pub fn run(f: impl Fn(Arc<dyn Comm>) -> accel::Result<()> + Sync) -> ExitCode {
    #[cfg(feature = "distributed")]
    let results = vec![accel::dist::Mpi::init().and_then(|m| f(m))];
    #[cfg(not(feature = "distributed"))]
    let results = {
        let p = std::env::var("ACCEL_RANKS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2);
        accel::dist::LocalComm::run(p, |c| f(c))
    };
    let mut code = ExitCode::SUCCESS;
    for r in results {
        if let Err(e) = r {
            eprintln!("{e}");
            code = ExitCode::FAILURE;
        }
    }
    code
}

/// The `k`th command-line argument as a number, or `default`.
pub fn arg(k: usize, default: usize) -> usize {
    std::env::args()
        .nth(k)
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(default)
}
