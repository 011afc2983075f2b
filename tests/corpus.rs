//! The corpus programs (benches/corpus/) at small sizes: accel, the sequential
//! reference and the rayon version must agree, with accel on the CPU and on
//! the GPU path (the simulator, or CUDA where `ACCEL_BACKEND` names it).
//! `cargo bench --bench corpus` times them.

#[path = "../benches/corpus/functional/mod.rs"]
mod functional;
#[path = "../benches/corpus/harness.rs"]
mod harness;
#[path = "../benches/corpus/parboil/mod.rs"]
mod parboil;
#[path = "../benches/corpus/polybench/mod.rs"]
mod polybench;
#[path = "../benches/corpus/rodinia/mod.rs"]
mod rodinia;
#[path = "../benches/corpus/stencils/mod.rs"]
mod stencils;

use accel::Backend;
use harness::{Harness, Mode};

fn check_all(backend: Backend) {
    let mut h = Harness::new(Mode::Check, None, backend);
    polybench::all(&mut h);
    stencils::all(&mut h);
    rodinia::all(&mut h);
    parboil::all(&mut h);
    functional::all(&mut h);
    assert!(h.failures.is_empty(), "{}", h.failures.join("\n"));
}

#[test]
fn corpus_programs_agree_with_their_references() {
    check_all(Backend::cpu());
}

/// Programs nobody wrote for the GPU path, on it.
#[test]
fn corpus_programs_on_the_gpu_path() {
    let cuda = std::env::var("ACCEL_BACKEND").is_ok_and(|b| b.trim().starts_with("cuda"));
    let backend = if cuda {
        Backend::default()
    } else {
        Backend::ptx_sim().expect("the project's tests build the simulator")
    };
    check_all(backend);
}
