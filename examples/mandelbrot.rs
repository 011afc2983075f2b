//! Mandelbrot (the Accelerate paper's §5.5): the escape count of every pixel,
//! as a scalar `while` loop per pixel and in the paper's form (each iteration
//! step a collective operation, unrolled 8 times and fused into one kernel).
//! Both are checked against a sequential Rust loop at a small size, then timed
//! against the hand-written rayon loop.
//!
//! `cargo run --release --example mandelbrot [-- PIXELS [LIMIT]]`
//! (default 2,000,000 pixels, limit 256).

use accel::prelude::*;

#[path = "baselines/mandelbrot.rs"]
mod baseline;
mod common;
#[path = "programs/mandelbrot.rs"]
#[allow(dead_code)] // the default-backend entry points are unused here
#[macro_use]
mod program;

use baseline::View;
use common::{arg, fail, report, Samples};
use program::{mandelbrot_unrolled, mandelbrot_while};

const NAME: &str = "mandelbrot";

fn run_while(b: &Backend, v: &View) -> accel::Result<Vec<u32>> {
    Ok(mandelbrot_while::on(b, v.w, v.h, v.limit, v.x0, v.y0, v.dx, v.dy)?.to_vec())
}

fn run_unrolled(b: &Backend, v: &View) -> accel::Result<Vec<u32>> {
    Ok(mandelbrot_unrolled::on(b, v.w, v.h, v.limit, v.x0, v.y0, v.dx, v.dy)?.to_vec())
}

fn main() -> accel::Result<()> {
    let pixels = arg(NAME, 1, 2_000_000)?;
    let limit = arg(NAME, 2, 256)? as u32;
    if limit % 8 != 0 {
        return Err(fail(
            NAME,
            format!("the limit must be a multiple of 8, got {limit}"),
        ));
    }
    let backend = Backend::default();

    // Correctness: both forms against the sequential loop, bit for bit.
    for (px, lim) in [(1, 8), (77, 16), (20_000, 64)] {
        let v = View::new(px, lim);
        let want = baseline::reference(&v);
        if run_while(&backend, &v)? != want {
            return Err(fail(
                NAME,
                format!("while form differs from the reference ({px} px)"),
            ));
        }
        if run_unrolled(&backend, &v)? != want {
            return Err(fail(
                NAME,
                format!("unrolled form differs from the reference ({px} px)"),
            ));
        }
        if baseline::rayon(&v) != want {
            return Err(fail(NAME, "the rayon version differs from the reference"));
        }
    }
    println!("both forms checked against the sequential reference");

    let v = View::new(pixels, limit);
    println!(
        "Mandelbrot {} x {} (limit {limit}) on backend `{}` ({} threads)",
        v.w,
        v.h,
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", mandelbrot_while::explain());
    println!("{}", mandelbrot_unrolled::explain());
    let runs = 5;
    for (form, f) in [
        (
            "while",
            run_while as fn(&Backend, &View) -> accel::Result<Vec<u32>>,
        ),
        ("unrolled", run_unrolled),
    ] {
        let _ = f(&backend, &v)?;
        let (mut acc, mut hand) = (Samples::default(), Samples::default());
        let (mut a, mut h) = (vec![], vec![]);
        for _ in 0..runs {
            a = acc.run(|| f(&backend, &v))?;
            h = hand.run(|| baseline::rayon(&v));
        }
        if a != h {
            return Err(fail(NAME, format!("{form}: accel and rayon differ")));
        }
        println!("-- {form} form");
        report(runs, &acc, &hand);
    }
    Ok(())
}
