use accel::prelude::*;

#[acc]
fn running(xs: &Vector<i32>) -> Vector<i32> {
    let mut c = 10;
    xs.map(|x| {
        c = c + x;
        c
    })
}

fn main() {}
