//! Which backend `Backend::default()` chose and, on a CUDA device, its
//! properties and its device-to-device copy bandwidth: the roofline that the
//! benchmarks of memory-bound programs compare against.
//!
//! `cargo run --release --example gpu_info`. Without a GPU it says so and
//! exits successfully.

use accel::Backend;
use std::time::{Duration, Instant};

/// Bytes copied per measurement.
const COPY_BYTES: usize = 1 << 30;
const RUNS: usize = 10;

fn main() -> accel::Result<()> {
    let backend = Backend::default();
    println!("backend: {}", backend.name());
    let device = match &backend {
        Backend::Gpu(d) if d.name().starts_with("cuda:") => d.clone(),
        Backend::Unavailable { reason, .. } => {
            println!("no GPU found: {reason}");
            return Ok(());
        }
        _ => {
            match Backend::cuda(0) {
                Ok(_) => println!(
                    "no GPU chosen (ACCEL_BACKEND={:?})",
                    std::env::var("ACCEL_BACKEND").unwrap_or_default()
                ),
                Err(e) => println!("no GPU found: {}", e.message()),
            }
            return Ok(());
        }
    };

    let p = device.props();
    println!("device: {}", p.name);
    println!("  multiprocessors:       {}", p.multiprocessors);
    println!("  max threads per block: {}", p.max_threads_per_block);
    println!("  warp size:             {}", p.warp_size);
    println!("  shared memory / block: {} KiB", p.shared_bytes_per_block / 1024);

    // Two buffers of COPY_BYTES, or less when the device cannot hold them.
    let mut bytes = COPY_BYTES;
    let (src, dst) = loop {
        let src = device.alloc(bytes)?;
        match device.alloc(bytes) {
            Ok(dst) => break (src, dst),
            Err(e) if bytes > 1 << 26 => {
                println!("  ({e}; trying half the size)");
                device.free(src);
                bytes /= 2;
            }
            Err(e) => return Err(e),
        }
    };
    device.memset(src, 1, bytes)?;
    device.copy(dst, src, bytes)?; // warm-up
    device.synchronize()?;
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        device.copy(dst, src, bytes)?;
        device.synchronize()?;
        best = best.min(t.elapsed());
    }
    device.free(src);
    device.free(dst);
    device.synchronize()?;

    // A copy reads and writes every byte.
    let gbs = 2.0 * bytes as f64 / best.as_secs_f64() / 1e9;
    println!(
        "device-to-device copy of {} MiB: best of {RUNS} {:.3} ms, {gbs:.1} GB/s (read + write)",
        bytes >> 20,
        best.as_secs_f64() * 1e3,
    );
    Ok(())
}
