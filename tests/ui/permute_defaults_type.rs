use accel::prelude::*;

// Bound first, the literal is an `f64`: the error says how to write it.
#[acc]
fn weights(xs: &Vector<f32>, n: usize) -> Vector<f32> {
    let zeros = fill([n], 0.0);
    xs.permute(&zeros, |[i]| Some([i % n]), |new, old| new + old)
}

fn main() {}
