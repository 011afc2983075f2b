use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> f32 {
    xs.value()
}

fn main() {}
