use accel::prelude::*;

#[acc]
fn f(m: &Matrix<f32>) -> Matrix<f32> {
    m.stencil(Boundary::Mirror, |[l, c, r]| l + c + r)
}

fn main() {}
