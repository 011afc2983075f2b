use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.stencil2(Boundary::Clamp, ys, Boundary::Wrap, |[a, b, c]| a + b + c)
}

fn main() {}
