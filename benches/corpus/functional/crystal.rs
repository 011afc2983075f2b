//! crystal: one frame of a quasicrystal: at every pixel the sum of `degree`
//! plane waves at evenly spaced angles, wrapped into [0, 1] and coloured.
//! futhark-benchmarks `accelerate/crystal/crystal.fut`, after
//! accelerate-examples `examples/crystal`. Accelerate's default is 200 x 200,
//! scale 30, degree 5; here 1000 x 1000 at time 1.

use crate::harness::{run, Harness, Program};
use accel::prelude::*;
use rayon::prelude::*;

/// As a user writes it from docs/language.md: one `generate` over the
/// pixels, the waves summed by a `for` loop in the element function.
#[acc]
fn crystal(field: usize, scale: f32, degree: i32, time: f32) -> Matrix<u32> {
    let phi = 1.0f32 + time.powf(1.5) * 0.005;
    let th = std::f32::consts::PI / phi;
    generate([field, field], |[y, x]| {
        let px = x as f32 / field as f32 * scale;
        let py = y as f32 / field as f32 * scale;
        let mut sum = 0.0f32;
        for i in 0..degree {
            let t = i as f32 * th;
            sum += ((t.cos() * px + t.sin() * py).cos() + 1.0) / 2.0;
        }
        let whole = sum as i32;
        let frac = sum - whole as f32;
        let odd = (whole & 1) as f32;
        let v = odd * (1.0 - frac) + (1.0 - odd) * frac;
        let (r, g, b) = (1.0f32, 0.4 + v * 0.6, v);
        ((255.0 * r) as u8 as u32) << 16 | ((255.0 * g) as u8 as u32) << 8 | (255.0 * b) as u8 as u32
    })
}

fn pixel(field: usize, scale: f32, degree: i32, th: f32, y: usize, x: usize) -> u32 {
    let px = x as f32 / field as f32 * scale;
    let py = y as f32 / field as f32 * scale;
    let mut sum = 0.0f32;
    for i in 0..degree {
        let t = i as f32 * th;
        sum += ((t.cos() * px + t.sin() * py).cos() + 1.0) / 2.0;
    }
    let whole = sum as i32;
    let frac = sum - whole as f32;
    let odd = (whole & 1) as f32;
    let v = odd * (1.0 - frac) + (1.0 - odd) * frac;
    let (r, g, b) = (1.0f32, 0.4 + v * 0.6, v);
    ((255.0 * r) as u8 as u32) << 16 | ((255.0 * g) as u8 as u32) << 8 | (255.0 * b) as u8 as u32
}

fn theta(time: f32) -> f32 {
    std::f32::consts::PI / (1.0f32 + time.powf(1.5) * 0.005)
}

fn sequential(field: usize, scale: f32, degree: i32, time: f32) -> Vec<u32> {
    let th = theta(time);
    (0..field * field)
        .map(|p| pixel(field, scale, degree, th, p / field, p % field))
        .collect()
}

fn rayon(field: usize, scale: f32, degree: i32, time: f32) -> Vec<u32> {
    let th = theta(time);
    (0..field * field)
        .into_par_iter()
        .map(|p| pixel(field, scale, degree, th, p / field, p % field))
        .collect()
}

pub fn program(h: &mut Harness) {
    if !h.wants("crystal") {
        return;
    }
    let field = h.pick(1000, 9);
    let (scale, degree, time) = (30.0f32, 5i32, 1.0f32);
    let backend = h.backend();
    h.program(Program {
        name: "crystal",
        source: "futhark-benchmarks accelerate/crystal/crystal.fut (accelerate-examples crystal)",
        size: format!("{field}x{field}, degree {degree}"),
        tolerance: 0.0,
        systems: vec![
            (
                "accel",
                run(move || crystal::on(&backend, field, scale, degree, time)),
            ),
            (
                "sequential",
                run(move || Ok(sequential(field, scale, degree, time))),
            ),
            ("rayon", run(move || Ok(rayon(field, scale, degree, time)))),
        ],
    });
}
