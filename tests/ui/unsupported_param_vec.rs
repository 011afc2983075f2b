use accel::prelude::*;

#[acc]
fn f(xs: &Vec<f32>) -> Scalar<f32> {
    xs.sum()
}

fn main() {}
