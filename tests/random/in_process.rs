//! The GPU path of random programs run in-process (`exec.rs`:
//! plan → PTX → PTX simulator, no rustc), judged against the interpreter.
//! Shared by `tests/random_programs.rs` and the quicker
//! `crates/accel-kernels/tests/random_gpu.rs`.

use super::{compare, exec, gen};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Program `p` on the GPU path in-process (`exec.rs`: plan →
/// PTX → simulator, no rustc), judged against the interpreter.
pub fn verdict(p: &gen::Program) -> String {
    if accel_core::compile_source(&p.source, &p.name).is_err() {
        return "rejected".into();
    }
    let args: Vec<accel::dynamic::Dyn> = p.inputs.iter().map(|i| i.to_dyn()).collect();
    let want = catch_unwind(AssertUnwindSafe(|| {
        accel_core::interpret_source(&p.source, &p.name, &args)
    }))
    .unwrap_or_else(|_| Err(accel::Error::new("panic", "the interpreter panicked")));
    let got = catch_unwind(AssertUnwindSafe(|| {
        let (_, plan) = accel_core::compile_source(&p.source, &p.name)
            .map_err(|e| accel::Error::new("compile", e.message))?;
        let ptx = accel_kernels::ptx::program(&plan);
        // The kernels the PTX was made for (`ptx::gpu_plan`).
        let apart = accel_kernels::ptx::gpu_plan(&plan);
        let prog = exec::GpuProgram::new(&apart, &ptx);
        let backend = device()?;
        let dev = backend.device().expect("a GPU backend has a device");
        let got = prog.run(dev, &args).map(compare::normalise);
        // A shared CUDA device would keep every program's module.
        prog.unload(dev)?;
        got
    }))
    .unwrap_or_else(|p| Err(accel::Error::new("panic", compare::panic_message(p))));
    compare::judge(&want, &[got], p.reordered_floats).remove(0)
}

/// The device a program runs on: CUDA when `ACCEL_BACKEND` names it (one
/// device for the whole run), otherwise a fresh simulator per program (a
/// device keeps every module it loaded).
fn device() -> accel::Result<accel::Backend> {
    let setting = std::env::var("ACCEL_BACKEND").unwrap_or_default();
    if setting.trim().to_ascii_lowercase().starts_with("cuda") {
        let b = accel::Backend::default();
        b.check_usable("random programs")?;
        Ok(b)
    } else {
        accel::Backend::ptx_sim()
    }
}

/// The in-process verdicts of `programs`, on every core.
///
/// `ACCEL_FUZZ_THREADS=N` sets the number of workers (default: one per
/// core); `ACCEL_FUZZ_TRACE=1` prints each program's name as it starts and
/// its verdict as it ends, to find one that hangs.
pub fn in_process(programs: &[gen::Program]) -> Vec<String> {
    let workers = std::env::var("ACCEL_FUZZ_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let trace = std::env::var_os("ACCEL_FUZZ_TRACE").is_some();
    let t0 = std::time::Instant::now();
    let mut verdicts = vec![String::new(); programs.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(s, move || {
                        (w..programs.len())
                            .step_by(workers)
                            .map(|i| {
                                if trace {
                                    eprintln!("start {} {}ms", programs[i].name, t0.elapsed().as_millis());
                                }
                                let v = verdict(&programs[i]);
                                if trace {
                                    eprintln!("end {} {}ms: {v}", programs[i].name, t0.elapsed().as_millis());
                                }
                                (i, v)
                            })
                            .collect::<Vec<_>>()
                    })
                    .expect("a worker thread")
            })
            .collect();
        for h in handles {
            for (i, v) in h.join().expect("a worker") {
                verdicts[i] = v;
            }
        }
    });
    verdicts
}
