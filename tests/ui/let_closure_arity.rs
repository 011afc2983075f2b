use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    let add = |a: f32, b: f32| a + b;
    xs.map(|x| add(x))
}

fn main() {}
