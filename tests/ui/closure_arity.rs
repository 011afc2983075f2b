use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|a, b| a)
}

fn main() {}
