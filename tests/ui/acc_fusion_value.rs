use accel::prelude::*;

#[acc(fusion = "fast")]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x + 1.0)
}

fn main() {}
