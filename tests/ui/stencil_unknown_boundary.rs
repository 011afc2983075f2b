use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.stencil(Boundary::Reflect, |[l, c, r]| l + c + r)
}

fn main() {}
