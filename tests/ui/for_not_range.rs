use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    let mut ys = xs.map(|x| x);
    for x in xs {
        ys = ys.map(|y| y + 1);
    }
    ys
}

fn main() {}
