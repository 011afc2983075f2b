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

const SCALE: f32 = 2.5;
type Vec32 = Vector<f32>;

#[acc]
fn crate_const(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| x * SCALE)
}

#[acc]
fn alias(xs: &Vec32) -> Vector<f32> {
    xs.map(|x| x + 1.0)
}

#[acc]
fn iterator_style_fold(xs: &Vector<f32>) -> Scalar<usize> {
    xs.fold_all(0usize, |acc, _| acc + 1)
}

#[acc]
fn iterator_chain(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| (0..4).map(|k| x * k as f32).sum())
}

#[acc]
fn nested(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| xs.sum().value() + x)
}

fn helper(x: f32) -> f32 {
    x * 2.0
}

#[acc]
fn calls_rust(xs: &Vector<f32>) -> Vector<f32> {
    xs.map(|x| helper(x))
}

fn main() {
    let _ = (SCALE, helper(1.0));
}
