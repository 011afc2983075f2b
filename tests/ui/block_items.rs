use accel::prelude::*;

accel! {
    const SIDE: usize = 4 * 4;
    const NAME: &str = "x";
    const SMALL: u8 = -1;
    type Pair<T> = (T, T);

    pub fn f(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x + 1.0)
    }
}

fn main() {}
