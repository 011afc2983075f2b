use accel::prelude::*;

#[acc]
fn wrong_spec(m: &Matrix<f32>) -> Array<f32, 3> {
    m.replicate([All, 4, All, All])
}

#[acc]
fn filter_arity(xs: &Vector<i32>) -> Vector<i32> {
    xs.filter(|x, y| x > y)
}

#[acc]
fn sort_tuples(xs: &Vector<(i32, i32)>) -> Vector<(i32, i32)> {
    xs.sort()
}

#[acc]
fn seg_scan_matrix(m: &Matrix<i32>, lens: &Vector<usize>) -> Matrix<i32> {
    m.scanl1_seg(lens, |a, b| a + b)
}

#[acc]
fn expand_float_count(xs: &Vector<f32>) -> Vector<f32> {
    xs.expand(|x| x * 2.0, |x, k| x)
}

fn main() {}
