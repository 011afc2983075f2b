use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, m: &Matrix<f32>) -> Vector<f32> {
    xs.zip_with(m, |x, y| x + y)
}

fn main() {}
