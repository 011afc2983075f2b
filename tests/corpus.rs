//! The corpus programs (benches/corpus/) at small sizes: accel, the sequential
//! reference and the rayon version must agree. `cargo bench --bench corpus`
//! times them.

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

use harness::{Harness, Mode};

#[test]
fn corpus_programs_agree_with_their_references() {
    let mut h = Harness::new(Mode::Check, None);
    polybench::all(&mut h);
    stencils::all(&mut h);
    rodinia::all(&mut h);
    parboil::all(&mut h);
    functional::all(&mut h);
    assert!(h.failures.is_empty(), "{}", h.failures.join("\n"));
}
