//! accel programs run distributed (`accel::dist`) on ranks that are threads
//! of this process, 1 to 4 of them, against the same programs on one rank:
//! on the CPU, and with each rank's blocks on the PTX simulator. The same
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
