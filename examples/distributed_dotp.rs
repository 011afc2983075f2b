//! Dot product over ranks: `dotp::dist`, the program's distributed entry,
//! runs `dotp` (one fused kernel) on each rank's own block of the vectors,
//! on its local backend, and combines the partial sums in rank order (the
//! compiler saw that the program is a fold of its rows:
//! `dotp::explain_dist()`). Prints the time per call and the bytes the
//! ranks sent against what a dot product must send.
//!
//! Between processes:
//! `cargo build --release --features distributed --example distributed_dotp`,
//! then `mpiexec -n 4 target/release/examples/distributed_dotp [N] [CALLS]`.
//! Ranks as threads: `ACCEL_RANKS=4 cargo run --release --example distributed_dotp`.
//! N defaults to 20,000,000 f32 elements in all.

use accel::dist::{blocks, Comm, CommExt, DistArray, Metered};
use accel::prelude::*;
use std::time::{Duration, Instant};

#[path = "programs/dotp.rs"]
#[allow(dead_code)]
#[macro_use]
mod program;
use program::dotp;

#[path = "distributed/world.rs"]
mod world;

accel! {
    /// The same dot product over two streams of values (read in blocks, as
    /// from files): `dist` gives each rank its own part of each stream.
    fn dotp_stream(xs: Seq<Scalar<f32>>, ys: Seq<Scalar<f32>>) -> Scalar<f32> {
        xs.zip_with(ys, |x, y| x.value() * y.value()).sum()
    }
}

fn x(i: usize) -> f32 {
    (i % 1000) as f32 / 1000.0
}

fn y(i: usize) -> f32 {
    ((i * 7) % 1000) as f32 / 1000.0 - 0.5
}

fn main() -> std::process::ExitCode {
    world::run(|comm| {
        let (n, calls) = (world::arg(1, 20_000_000), world::arg(2, 20).max(1));
        let comm = Metered::new(comm);
        let (p, me) = (comm.size(), comm.rank());
        let starts = blocks(n, p);
        // Each rank makes its own block: nothing crosses ranks but the sums.
        let rows = starts[me]..starts[me + 1];
        let xs = DistArray::local(&comm, Vector::from(rows.clone().map(x).collect::<Vec<_>>()))?;
        let ys = DistArray::local(&comm, Vector::from(rows.map(y).collect::<Vec<_>>()))?;
        if me == 0 {
            println!("dotp::dist runs {}", dotp::explain_dist());
        }
        let backend = Backend::default();
        let mut best = Duration::MAX;
        let mut sum = None;
        let mut sent = 0;
        for _ in 0..calls {
            comm.agree(Ok(()))?;
            comm.reset();
            let t = Instant::now();
            sum = Some(dotp::dist(&backend, &xs, &ys)?.value());
            best = best.min(t.elapsed());
            sent = comm.sent().0;
        }
        // Streamed: each rank's part in blocks of 2^20 values (clones share
        // their storage: nothing is copied per call).
        let in_blocks = |v: &Vector<f32>| -> accel::Result<Vec<Vector<f32>>> {
            let v = v.to_vec();
            Ok(v.chunks(1 << 20).map(|c| Vector::from(c.to_vec())).collect())
        };
        let (xb, yb) = (in_blocks(xs.part())?, in_blocks(ys.part())?);
        let mut streamed_best = Duration::MAX;
        let mut streamed = 0.0;
        for _ in 0..calls {
            comm.agree(Ok(()))?;
            let t = Instant::now();
            streamed = dotp_stream::dist(
                &backend,
                &comm,
                Stream::chunks(xb.clone()),
                Stream::chunks(yb.clone()),
            )?
            .value();
            streamed_best = streamed_best.min(t.elapsed());
        }
        let streamed_slowest = comm
            .combine_in_order(Ok(Some(streamed_best.as_secs_f64())), f64::max)?
            .unwrap_or(0.0);
        // The slowest rank's time and every rank's bytes.
        let slowest = comm
            .combine_in_order(Ok(Some(best.as_secs_f64())), f64::max)?
            .unwrap_or(0.0);
        let bytes = comm.combine_in_order(Ok(Some(sent)), |a, b| a + b)?.unwrap_or(0);
        if me == 0 {
            let want: f64 = (0..n).map(|i| x(i) as f64 * y(i) as f64).sum();
            let got = sum.unwrap_or(0.0) as f64;
            // Each rank sends its framed f32 partial (5 bytes) to every other.
            let model = p * (p - 1) * 5;
            println!(
                "RESULT distributed_dotp ranks={p} threads={} n={n} best_ms={:.3} bytes={bytes} model_bytes={model}",
                rayon::current_num_threads(),
                slowest * 1e3
            );
            println!(
                "dot = {got} (f64 sequential {want}, relative difference {:.1e})",
                ((got - want) / want).abs()
            );
            println!(
                "streamed: dotp_stream::dist runs {}\n  {:.3} ms per call, dot = {streamed}",
                dotp_stream::explain_dist(),
                streamed_slowest * 1e3
            );
            if ((got - want) / want).abs() > 1e-3 || ((streamed as f64 - want) / want).abs() > 1e-3 {
                return Err(accel::Error::new(
                    "distributed_dotp",
                    "the distributed sum differs from the sequential one",
                ));
            }
        }
        Ok(())
    })
}
