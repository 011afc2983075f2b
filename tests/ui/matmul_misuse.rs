use accel::prelude::*;

#[acc]
fn ranks(a: &Array<f32, 3>, b: &Matrix<f32>) -> Matrix<f32> {
    a.matmul(b)
}

#[acc]
fn types(a: &Matrix<f32>, b: &Matrix<f64>) -> Matrix<f32> {
    a.matmul(b)
}

fn main() {}
