//! Canny edge detection, the six data-parallel phases (the Accelerate paper's
//! §5.7) on a generated 4K image. Checked bit for bit against a sequential
//! Rust version at small sizes, then timed against the hand-written rayon one.
//!
//! `cargo run --release --example canny [-- WIDTH HEIGHT]` (default 3840 x 2160).

use accel::prelude::*;

#[path = "baselines/canny.rs"]
mod baseline;
mod common;
#[path = "programs/canny.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

use baseline::{HIGH, LOW};
use common::{arg, fail, report, Rng, Samples};
use program::canny;

const NAME: &str = "canny";

fn run(backend: &Backend, img: &Matrix<u32>) -> accel::Result<(Vec<f32>, Vec<usize>)> {
    let (e, s) = canny::on(backend, img, LOW, HIGH)?;
    Ok((e.to_vec(), s.to_vec()))
}

fn main() -> accel::Result<()> {
    let w = arg(NAME, 1, 3840)?;
    let h = arg(NAME, 2, 2160)?;
    if w == 0 || h == 0 {
        return Err(fail(NAME, "the image must not be empty"));
    }
    let backend = Backend::default();

    for (sh, sw) in [(1, 1), (3, 7), (120, 160)] {
        let img = baseline::image(sh, sw, &mut Rng(99 + sw as u64));
        let want = baseline::canny(&img, sh, sw, false);
        if run(&backend, &Matrix::from_vec([sh, sw], img.clone())?)? != want {
            return Err(fail(
                NAME,
                format!("{sw} x {sh}: accel differs from the reference"),
            ));
        }
        if baseline::canny(&img, sh, sw, true) != want {
            return Err(fail(NAME, "the rayon version differs from the reference"));
        }
    }
    println!("checked bit for bit against the sequential reference");

    println!(
        "Canny (6 phases) on a {w} x {h} image, backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", canny::explain());
    let img = baseline::image(h, w, &mut Rng(0x9E37_79B9_7F4A_7C15));
    let aimg = Matrix::from_vec([h, w], img.clone())?;
    let _ = run(&backend, &aimg)?;
    let runs = 5;
    let (mut acc, mut hand) = (Samples::default(), Samples::default());
    let mut strong = 0;
    for _ in 0..runs {
        let a = acc.run(|| canny::on(&backend, &aimg, LOW, HIGH))?;
        let hd = hand.run(|| baseline::canny(&img, h, w, true));
        if (a.0.to_vec(), a.1.to_vec()) != hd {
            return Err(fail(NAME, "accel and rayon differ"));
        }
        strong = hd.1.len();
    }
    println!("{strong} strong edge pixels");
    report(runs, &acc, &hand);
    Ok(())
}
