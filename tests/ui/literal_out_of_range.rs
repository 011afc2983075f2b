use accel::prelude::*;

#[acc]
fn f(xs: &Vector<u8>) -> Vector<u8> {
    xs.map(|x| x + 300)
}

fn main() {}
