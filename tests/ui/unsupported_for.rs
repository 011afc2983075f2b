use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        let mut s = x;
        for i in 0..3 {
            s += i;
        }
        s
    })
}

fn main() {}
