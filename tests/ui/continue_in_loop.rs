use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>, n: i32) -> Vector<i32> {
    let mut ys = xs.map(|x| x);
    let mut i = 0;
    while i < n {
        i += 1;
        if i % 2 == 0 {
            continue;
        }
        ys = ys.map(|y| y + 1);
    }
    ys
}

fn main() {}
