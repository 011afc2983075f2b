use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.stencil(Boundary::Wrap, |[a, _, _, _, _, _, _, _, _, _, k]| a + k)
}

fn main() {}
