use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>, n: i32) -> Vector<i32> {
    let mut ys = xs.map(|x| x);
    let mut i = 0;
    while i < n {
        ys = ys.sum();
        i += 1;
    }
    ys
}

fn main() {}
