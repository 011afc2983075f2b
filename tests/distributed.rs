//! accel programs run distributed (`accel::dist`) on ranks that are threads
//! of this process, 1 to 4 of them, against the same programs on one rank:
//! on the CPU, with each rank's blocks on the PTX simulator, and on a CUDA
//! GPU where there is one (`bench/gpu.sh` runs that test). The same
//! checks run between processes under `mpiexec` in `tests/distributed_mpi.rs`.

#[path = "distributed/checks.rs"]
mod checks;

use accel::dist::{Comm, LocalComm};
use accel::Backend;
use std::sync::Arc;

fn on_every_world(backend: &Backend, sizes: &[usize]) {
    for p in 1..=4 {
        let failures: Vec<String> =
            LocalComm::run(p, |c| checks::run_all(&(c as Arc<dyn Comm>), backend, sizes))
                .into_iter()
                .flatten()
                .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn programs_on_cpu_ranks() {
    on_every_world(&Backend::cpu(), &checks::SIZES);
}

#[test]
fn programs_on_simulated_gpu_ranks() {
    match Backend::ptx_sim() {
        // The simulator interprets every GPU thread: small sizes only.
        Ok(b) => on_every_world(&b, &checks::SIZES[..4]),
        Err(e) => eprintln!("skipped: no PTX simulator in this build ({e})"),
    }
}

/// Every thread rank on CUDA device 0: each rank's blocks on the GPU,
/// moved between ranks through the host.
#[test]
fn programs_on_cuda_ranks() {
    match Backend::cuda(0) {
        Ok(b) => on_every_world(&b, &checks::SIZES),
        Err(e) => eprintln!("skipped: no CUDA device ({e})"),
    }
}
