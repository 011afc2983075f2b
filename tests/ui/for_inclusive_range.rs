use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>, n: i32) -> Vector<i32> {
    let mut ys = xs.map(|x| x);
    for _ in 0..=n {
        ys = ys.map(|y| y + 1);
    }
    ys
}

fn main() {}
