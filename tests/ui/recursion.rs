use accel::prelude::*;

accel! {
    fn halve(xs: &Vector<i32>) -> Vector<i32> {
        halve(&xs.map(|x| x / 2))
    }
}

fn main() {}
