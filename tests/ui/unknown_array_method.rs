use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.mapp(|x| x * 2.0)
}

fn main() {}
