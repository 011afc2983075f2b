use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| match x {
        0 => 1,
        _ => x,
    })
}

fn main() {}
