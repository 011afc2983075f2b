use accel::prelude::*;

#[acc]
fn f(xs: &Vector<(i32, i32)>) -> Vector<i32> {
    xs.map(|p| match p {
        (0, y) => y,
        _ => 1,
    })
}

fn main() {}
