use accel::prelude::*;

#[acc]
fn f(s: &Scalar<f32>) -> Scalar<f32> {
    s.fold(0.0, |a, b| a + b)
}

fn main() {}
