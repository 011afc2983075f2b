use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f64>) -> Vector<f64> {
    xs.map(|x| x.hypot())
}

fn main() {}
