use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x * std::f32::consts::PIE)
}

fn main() {}
