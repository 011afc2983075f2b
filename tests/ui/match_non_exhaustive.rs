use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| match x {
        0 => 1,
        n if n > 0 => 2,
        i32::MIN..=-1 => 3,
    })
}

fn main() {}
