use accel::prelude::*;

#[acc]
fn f(xs: &Vector<u8>) -> Vector<u8> {
    xs.map(|x| match x {
        0..100 => 0,
        101..=255 => 1,
    })
}

fn main() {}
