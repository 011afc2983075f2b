use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, ys: &Vector<f64>) -> Vector<f32> {
    xs.zip_with(ys, |x, y| x * y)
}

fn main() {}
