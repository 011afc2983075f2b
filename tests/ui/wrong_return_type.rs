use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f64> {
    xs.map(|x| x * 2.0)
}

fn main() {}
