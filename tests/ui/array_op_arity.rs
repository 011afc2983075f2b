use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Scalar<f32> {
    xs.fold(|a, b| a + b)
}

fn main() {}
