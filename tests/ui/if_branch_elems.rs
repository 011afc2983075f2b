use accel::prelude::*;

#[acc]
fn f(xs: &Vector<f32>, flip: bool) -> Vector<f32> {
    let mut ys = xs.map(|x| x);
    if flip {
        ys = xs.map(|x| x as i32);
    }
    ys
}

fn main() {}
