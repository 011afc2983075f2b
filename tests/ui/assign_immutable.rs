use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| {
        let y = x * 2.0;
        y = y + 1.0;
        y
    })
}

fn main() {}
