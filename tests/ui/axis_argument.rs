use accel::prelude::*;

#[acc]
fn by_variable(m: &Matrix<f32>, k: usize) -> Vector<f32> {
    m.sum_axis(k)
}

#[acc]
fn out_of_range(m: &Matrix<f32>) -> Vector<f32> {
    m.maximum_axis(2)
}

#[acc]
fn mean_of_integers(m: &Matrix<i32>) -> Vector<i32> {
    m.mean()
}

fn main() {}
