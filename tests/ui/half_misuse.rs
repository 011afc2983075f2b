use accel::prelude::*;

// Rust has no `f16` literal suffix on stable: the type comes from the context.
#[acc]
fn suffix(xs: &Vector<f16>) -> Vector<f16> {
    xs.map(|x| x * 2.0f16)
}

// An `f16`'s bits are not those of the `f32` it is computed in.
#[acc]
fn bits(xs: &Vector<f16>) -> Vector<u16> {
    xs.map(|x| x.to_bits())
}

#[acc]
fn from_bits(xs: &Vector<u16>) -> Vector<f16> {
    xs.map(|x| f16::from_bits(x))
}

fn main() {}
