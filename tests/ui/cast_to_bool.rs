use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<bool> {
    xs.map(|x| x as bool)
}

fn main() {}
