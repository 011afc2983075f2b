use accel::prelude::*;

#[acc]
fn f(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        println!("{}", x);
        x + 1
    })
}

fn main() {}
