use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>) -> Vector<u32> {
    xs.map(|x| x.count_ones())
}

fn main() {}
