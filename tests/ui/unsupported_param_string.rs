use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, name: String) -> Scalar<f32> {
    xs.sum()
}

fn main() {}
