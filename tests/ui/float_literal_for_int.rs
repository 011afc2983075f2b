use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| x + 1.5)
}

fn main() {}
