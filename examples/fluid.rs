//! Fluid flow (Stam's stable fluids, the Accelerate paper's §5.6): Jacobi
//! relaxations as stencils in array-level loops, semi-Lagrangian advection as a
//! gather. Checked bit for bit against a sequential Rust loop at small sizes,
//! then timed against the hand-written rayon version.
//!
//! `cargo run --release --example fluid [-- CELLS [STEPS]]` (default 2,000,000 cells, 1 step).

use accel::prelude::*;

#[path = "baselines/fluid.rs"]
mod baseline;
mod common;
#[path = "programs/fluid.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

use baseline::{Fields, DIFF, DT, ITERS, VISC};
use common::{arg, fail, report, Samples};
use program::fluid_step;

const NAME: &str = "fluid";

fn run(backend: &Backend, f: &Fields, steps: usize) -> accel::Result<Fields> {
    let sh = [f.h, f.w];
    let mut d = Matrix::from_vec(sh, f.dens.clone())?;
    let mut u = Matrix::from_vec(sh, f.u.clone())?;
    let mut v = Matrix::from_vec(sh, f.v.clone())?;
    for _ in 0..steps {
        (d, u, v) = fluid_step::on(backend, &d, &u, &v, DT, VISC, DIFF, ITERS)?;
    }
    Ok(Fields {
        h: f.h,
        w: f.w,
        dens: d.to_vec(),
        u: u.to_vec(),
        v: v.to_vec(),
    })
}

fn hand(f: &Fields, steps: usize, par: bool) -> Fields {
    let mut f = f.clone();
    for _ in 0..steps {
        f = baseline::step(&f, par);
    }
    f
}

fn main() -> accel::Result<()> {
    let cells = arg(NAME, 1, 2_000_000)?;
    let steps = arg(NAME, 2, 1)?;
    let backend = Backend::default();

    for (h, w, s) in [(1, 1, 1), (2, 5, 2), (33, 47, 3)] {
        let f0 = baseline::initial(h, w);
        let want = hand(&f0, s, false);
        if run(&backend, &f0, s)? != want {
            return Err(fail(NAME, format!("{h} x {w}: accel differs from the reference")));
        }
        if hand(&f0, s, true) != want {
            return Err(fail(NAME, "the rayon version differs from the reference"));
        }
    }
    println!("checked bit for bit against the sequential reference");

    let n = ((cells as f64).sqrt() as usize).max(1);
    println!(
        "stable fluids on {n} x {n} cells, {steps} step(s) of {ITERS} Jacobi iterations, backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", fluid_step::explain());
    let f0 = baseline::initial(n, n);
    let _ = run(&backend, &f0, 1)?;
    let runs = 3;
    let (mut acc, mut hd) = (Samples::default(), Samples::default());
    for _ in 0..runs {
        let a = acc.run(|| run(&backend, &f0, steps))?;
        let h = hd.run(|| hand(&f0, steps, true));
        if a != h {
            return Err(fail(NAME, "accel and rayon differ"));
        }
    }
    report(runs, &acc, &hd);
    Ok(())
}
