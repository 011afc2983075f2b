use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Clamp, |[a, b, c, d]| a + b + c + d)
}

fn main() {}
