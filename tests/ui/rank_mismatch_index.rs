use accel::prelude::*;

#[acc]
fn f(m: &Matrix<f32>, xs: &Vector<f32>) -> Vector<f32> {
    generate(xs.shape(), |[i]| m[[i]])
}

fn main() {}
