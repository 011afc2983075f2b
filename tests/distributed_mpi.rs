//! The checks of `tests/distributed.rs` between processes, over MPI: run it
//! under `mpiexec -n P` (`.ci/run` does, for 2 and 4 ranks; started alone,
//! as `cargo test --features distributed` does, it is one rank). Every rank
//! runs every check; the process fails when any check fails on any rank.

#[path = "distributed/checks.rs"]
mod checks;

use accel::dist::{Comm, CommExt, Mpi};
use accel::Backend;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let mpi = match Mpi::init() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("distributed_mpi: {e}");
            return ExitCode::FAILURE;
        }
    };
    let comm: Arc<dyn Comm> = mpi;
    let (rank, size) = (comm.rank(), comm.size());
    let failures = checks::run_all(&comm, &Backend::cpu(), &checks::SIZES);
    for f in &failures {
        eprintln!("{f}");
    }
    // Every rank learns whether any failed, so that all exit alike.
    let mine = if failures.is_empty() {
        Ok(())
    } else {
        Err(accel::Error::new(
            "distributed_mpi",
            format!("{} checks failed", failures.len()),
        ))
    };
    let all = comm.agree(mine);
    if rank == 0 {
        match &all {
            Ok(()) => println!(
                "distributed_mpi: {} checks at {} sizes passed on {size} ranks",
                checks::CHECKS.len(),
                checks::SIZES.len()
            ),
            Err(e) => println!("distributed_mpi: failed on {size} ranks: {e}"),
        }
    }
    drop(comm);
    if all.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
