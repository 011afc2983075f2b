//! Sparse matrix-vector product in CSR form (the Accelerate paper's §5.9): the
//! products fused into the library's segmented fold over the row offsets, one
//! kernel. Runs a generated corpus (dense-in-CSR, banded, uniform random,
//! power-law row lengths) or a Matrix Market file; each matrix is checked
//! against a sequential Rust loop (on the CPU the same sums in the same
//! order, so the same bits; on a GPU a warp shares each long row, so within
//! the rounding of a reordered sum), then timed against the hand-written rayon loop.
//!
//! `cargo run --release --example spmv [-- NNZ | FILE.mtx]` (default 4,000,000 values).

use accel::prelude::*;

#[path = "baselines/spmv.rs"]
mod baseline;
mod common;
#[path = "programs/spmv.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

use baseline::Csr;
use common::{fail, report, Rng, Samples};
use program::spmv;

const NAME: &str = "spmv";

struct Input {
    offsets: Vector<u32>,
    cols: Vector<u32>,
    vals: Vector<f32>,
    x: Vector<f32>,
}

impl Input {
    fn new(m: &Csr, x: &[f32]) -> Input {
        Input {
            offsets: Vector::from(m.offsets.clone()),
            cols: Vector::from(m.idx.clone()),
            vals: Vector::from(m.vals.clone()),
            x: Vector::from(x.to_vec()),
        }
    }

    fn run(&self, backend: &Backend) -> accel::Result<Vec<f32>> {
        Ok(spmv::on(backend, &self.offsets, &self.cols, &self.vals, &self.x)?.to_vec())
    }
}

fn check(backend: &Backend, what: &str, m: &Csr, x: &[f32]) -> accel::Result<()> {
    let want = baseline::reference(m, x);
    let got = Input::new(m, x).run(backend)?;
    if !baseline::agrees(m, x, &got, &want, backend.device().is_none()) {
        return Err(fail(NAME, format!("{what}: accel differs from the reference")));
    }
    if baseline::rayon(m, x) != want {
        return Err(fail(
            NAME,
            format!("{what}: the rayon version differs from the reference"),
        ));
    }
    Ok(())
}

fn time(backend: &Backend, what: &str, m: &Csr, x: &[f32]) -> accel::Result<()> {
    println!("-- {what}: {} x {}, {} values", m.rows, m.cols, m.nnz());
    let input = Input::new(m, x);
    let _ = input.run(backend)?;
    let runs = 11;
    let (mut acc, mut hand) = (Samples::default(), Samples::default());
    for _ in 0..runs {
        let a = acc.run(|| input.run(backend))?;
        let h = hand.run(|| baseline::rayon(m, x));
        if !baseline::agrees(m, x, &a, &h, backend.device().is_none()) {
            return Err(fail(NAME, format!("{what}: accel and rayon differ")));
        }
    }
    report(runs, &acc, &hand);
    Ok(())
}

fn main() -> accel::Result<()> {
    let backend = Backend::default();
    let mut rng = Rng(0x5EED_0000_0000_0001);

    // Correctness at small sizes: every kind of generated matrix, an empty
    // matrix, and the Matrix Market reader on a small file.
    for kind in baseline::KINDS {
        for nnz in [1, 50, 5000] {
            let m = baseline::generate(kind, nnz, &mut rng);
            let x = baseline::vector(m.cols, &mut rng);
            check(&backend, &format!("{kind} ({nnz})"), &m, &x)?;
        }
    }
    let path = std::env::temp_dir().join(format!("accel-spmv-{}.mtx", std::process::id()));
    let mtx = "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n4 4 5\n1 1 2.0\n2 1 -1.5\n3 3 4.0\n4 2 0.5\n4 4 1.0\n";
    std::fs::write(&path, mtx).map_err(|e| fail(NAME, e.to_string()))?;
    let m = baseline::read_matrix_market(&path.to_string_lossy());
    let _ = std::fs::remove_file(&path);
    let m = m?;
    let x = [1.0f32, 2.0, 3.0, 4.0];
    if baseline::reference(&m, &x) != [2.0 - 3.0, -1.5 + 2.0, 12.0, 1.0 + 4.0] {
        return Err(fail(NAME, "the Matrix Market reader read the test file wrongly"));
    }
    check(&backend, "Matrix Market test file", &m, &x)?;
    println!("checked against the sequential reference (4 kinds x 3 sizes, a Matrix Market file)");
    println!("{}", spmv::explain());
    println!(
        "backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );

    match std::env::args().nth(1) {
        Some(a) if a.parse::<usize>().is_err() => {
            let m = baseline::read_matrix_market(&a)?;
            let x = baseline::vector(m.cols, &mut rng);
            check(&backend, &a, &m, &x)?;
            time(&backend, &a, &m, &x)?;
        }
        a => {
            let nnz = a.and_then(|s| s.parse().ok()).unwrap_or(4_000_000);
            for kind in baseline::KINDS {
                let m = baseline::generate(kind, nnz, &mut rng);
                let x = baseline::vector(m.cols, &mut rng);
                time(&backend, kind, &m, &x)?;
            }
        }
    }
    Ok(())
}
