use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, flip: bool) -> Vector<f32> {
    if flip { xs.map(|x| -x) } else { xs.map(|x| x) }
}

fn main() {}
