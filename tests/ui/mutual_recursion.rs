use accel::prelude::*;

accel! {
    fn ping(xs: &Vector<i32>) -> Vector<i32> {
        pong(xs)
    }
    fn pong(xs: &Vector<i32>) -> Vector<i32> {
        ping(xs)
    }
}

fn main() {}
