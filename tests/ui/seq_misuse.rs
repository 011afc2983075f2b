use accel::prelude::*;

#[acc]
fn by_reference(xs: &Seq<Vector<f32>>) -> Scalar<f32> {
    xs.map(|x| x.sum()).sum()
}

#[acc]
fn traversed_twice(xs: Seq<Scalar<i32>>) -> (Scalar<i32>, Scalar<i32>) {
    (xs.sum(), xs.map(|x| x.map(|v| v * 2)).sum())
}

#[acc]
fn sum_of_vectors(xs: Seq<Vector<f32>>) -> Scalar<f32> {
    xs.sum()
}

#[acc]
fn no_such_method(xs: Seq<Scalar<f32>>) -> Scalar<f32> {
    xs.scanl(0.0, |a, b| a + b)
}

#[acc]
fn zip_with_an_array(xs: Seq<Vector<f32>>, v: &Vector<f32>) -> Scalar<f32> {
    xs.zip_with(v, |x, y| x.sum()).sum()
}

#[acc]
fn scalar_elements(xs: Seq<f32>) -> Scalar<f32> {
    xs.sum()
}

#[acc]
fn returns_a_stream_used_twice(xs: Seq<Scalar<i32>>) -> Seq<Scalar<i32>> {
    let t = xs.sum();
    xs.map(|x| x.map(|v| v + t.value()))
}

#[acc]
fn rows_inside_a_closure(m: &Matrix<f32>) -> Vector<f32> {
    m.map(|x| m.rows().map(|r| r.sum()).sum().value() + x)
}

#[acc]
fn split_marks_too_few(a: &Array<f32, 3>) -> Scalar<f32> {
    a.split([Split, All]).map(|x| x.sum()).sum()
}

#[acc]
fn split_nothing(m: &Matrix<f32>) -> Scalar<f32> {
    m.split([All, All]).map(|x| x.sum()).sum()
}

#[acc]
fn split_bad_mark(m: &Matrix<f32>) -> Scalar<f32> {
    m.split([Split, 1]).map(|x| x.sum()).sum()
}

#[acc]
fn fold_flatten_of_scalars(xs: Seq<Scalar<f32>>) -> Vector<f32> {
    xs.fold_flatten(fill([1], 0.0), |acc, lens, vals| acc)
}

#[acc]
fn fold_of_arrays_changes_type(xs: Seq<Vector<f32>>) -> Vector<f32> {
    xs.fold(fill([3], 0.0), |acc, x| acc.sum())
}

fn main() {}
