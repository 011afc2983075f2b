//! Heat diffusion over ranks: a square grid split into blocks of rows, one
//! per rank; each step calls `heat::dist`, the program's distributed entry:
//! every rank takes one row from each neighbour (a halo exchange: the
//! compiler saw that the stencil reaches one row, `heat::explain_dist()`)
//! and runs the `heat` stencil program on its block. Prints the time per
//! step and the bytes sent against what the halos must send, and checks
//! the grid against the same steps on one rank.
//!
//! Between processes:
//! `cargo build --release --features distributed --example distributed_stencil`,
//! then `mpiexec -n 4 target/release/examples/distributed_stencil [N] [STEPS]`.
//! Ranks as threads: `ACCEL_RANKS=4 cargo run --release --example distributed_stencil`.
//! The grid is N × N f32 (N = 2048 by default), STEPS = 50.

use accel::dist::{blocks, CommExt, DistArray, Metered};
use accel::prelude::*;
use std::time::Instant;

#[path = "distributed/world.rs"]
mod world;

accel::accel! {
    /// One explicit step of the heat equation, insulated edges.
    pub fn heat(u: &Matrix<f32>) -> Matrix<f32> {
        u.stencil(Boundary::Clamp, |[[_, n, _], [w, c, e], [_, s, _]]| c + 0.2 * (n + s + e + w - 4.0 * c))
    }
}

fn initial(i: usize, j: usize, n: usize) -> f32 {
    // A hot square in the middle of a cold plate.
    let hot = |k: usize| (n * 3 / 8..n * 5 / 8).contains(&k);
    if hot(i) && hot(j) {
        100.0
    } else {
        0.0
    }
}

fn main() -> std::process::ExitCode {
    world::run(|comm| {
        let (n, steps) = (world::arg(1, 2048), world::arg(2, 50));
        let metered = Metered::new(comm);
        let comm: std::sync::Arc<dyn accel::dist::Comm> = metered.clone();
        let (p, me) = (comm.size(), comm.rank());
        let backend = Backend::default();
        let starts = blocks(n, p);
        let rows = starts[me]..starts[me + 1];
        let block = Matrix::from_fn([rows.len(), n], |[i, j]| initial(rows.start + i, j, n));
        let mut u = DistArray::local(&comm, block)?;
        if me == 0 {
            println!("heat::dist runs {}", heat::explain_dist());
        }
        comm.agree(Ok(()))?;
        metered.reset();
        let t = Instant::now();
        for _ in 0..steps {
            u = heat::dist(&backend, &u)?;
        }
        let per_step = t.elapsed().as_secs_f64() / steps.max(1) as f64;
        let sent = metered.sent().0;
        let slowest = comm
            .combine_in_order(Ok(Some(per_step)), f64::max)?
            .unwrap_or(0.0);
        let bytes = comm.combine_in_order(Ok(Some(sent)), |a, b| a + b)?.unwrap_or(0);
        let whole = u.gather_to(0)?;
        if let Some(got) = whole {
            // Each of the p - 1 borders between blocks sends one row each way.
            let model = 2 * (p - 1) * n * 4 * steps;
            println!(
                "RESULT distributed_stencil ranks={p} threads={} n={n} steps={steps} step_ms={:.3} bytes={bytes} model_bytes={model}",
                rayon::current_num_threads(),
                slowest * 1e3
            );
            let mut want = Matrix::from_fn([n, n], |[i, j]| initial(i, j, n));
            for _ in 0..steps {
                want = heat::on(&backend, &want)?;
            }
            if got != want {
                return Err(accel::Error::new(
                    "distributed_stencil",
                    "the distributed grid differs from one rank's",
                ));
            }
            println!("the grid after {steps} steps equals one rank's, to the bit");
        }
        Ok(())
    })
}
