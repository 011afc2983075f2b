//! Random programs on the GPU path in-process (plan → PTX → simulator),
//! compared with the interpreter: the part of `tests/random_programs.rs` that
//! needs no rustc and no proc macro, so it builds in seconds after a change to
//! the compiler (the inner loop of mutation testing and of long soaks).
//!
//! `ACCEL_FUZZ_GPU_PROGRAMS=N ACCEL_FUZZ_SEED=S cargo test -p accel-kernels --test random_gpu`
//! (default 300 programs, seed 1).

// The shared test code names the runtime `accel`, as the root crate re-exports it.
extern crate accel_runtime as accel;

#[path = "../../../tests/random/compare.rs"]
mod compare;
#[path = "../../../tests/random/exec.rs"]
mod exec;
#[path = "../../../tests/random/gen.rs"]
mod gen;
#[path = "../../../tests/random/in_process.rs"]
mod in_process;

#[test]
fn random_programs_on_the_gpu_path() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let n = env("ACCEL_FUZZ_GPU_PROGRAMS", 300) as usize;
    let seed = env("ACCEL_FUZZ_SEED", 1);
    let mut rng = gen::Rng::new(seed);
    let programs: Vec<gen::Program> = (0..n)
        .map(|i| gen::program(&mut rng, &format!("rp{i}")))
        .collect();
    let verdicts = in_process::in_process(&programs);
    let mut failed = 0;
    for (p, v) in programs.iter().zip(&verdicts) {
        if !matches!(v.as_str(), "ok" | "lazy" | "rejected") {
            failed += 1;
            eprintln!(
                "\nFAILED {}: {v}\n{}\ninputs:\n{}",
                p.name,
                p.source,
                p.input_code()
            );
        }
    }
    eprintln!("{n} programs (seed {seed}), {failed} mismatches");
    assert_eq!(
        failed, 0,
        "{failed} of {n} random programs differ on the GPU path"
    );
}
