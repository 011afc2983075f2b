use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, m: &Matrix<f32>, flip: bool) -> Vector<f32> {
    if flip { xs.map(|x| -x) } else { m.map(|x| x) }
}

fn main() {}
