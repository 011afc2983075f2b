use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, ys: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x * ys.sum().value())
}

fn main() {}
