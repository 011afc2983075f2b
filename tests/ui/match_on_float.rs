use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| match x {
        _ => 1.0,
    })
}

fn main() {}
