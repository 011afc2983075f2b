use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        let mut s = x;
        loop {
            s += 1;
        }
        s
    })
}

fn main() {}
