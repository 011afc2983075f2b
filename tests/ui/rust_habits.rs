// Errors that point a Rust habit to the accel way.
use accel::prelude::*;

#[acc]
fn single_index(xs: &Vector<f32>) -> Vector<f32> {
    generate([xs.len()], |[i]| xs[i] * 2.0)
}

#[acc]
fn scalar_as_number(xs: &Vector<f32>) -> Vector<f32> {
    let s = xs.sum();
    xs.map(|x| x / s)
}

#[acc]
fn returns_reference(xs: &Vector<f32>) -> &Vector<f32> {
    xs
}

#[acc]
fn returns_references(xs: &Vector<f32>) -> (Vector<f32>, &Vector<f32>) {
    (xs.map(|x| x), xs)
}

fn main() {}
