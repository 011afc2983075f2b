#[test]
fn show() {
    let src = r#"
fn a(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> { xs.zip_with(ys, |x, y| x * y).sum() }
fn b(xs: &Vector<f32>) -> Scalar<f32> { xs.minimum() }
fn c(m: &Matrix<f32>, v: &Vector<f32>) -> Vector<f32> { generate(m.shape(), |[i, j]| m[[i, j]] * v[[j]]).sum() }
fn d(xs: &Vector<f32>) -> Vector<f32> { let n = xs.len(); generate([n], |[i]| xs[[i]] * 2.0) }
fn e(xs: &Vector<f32>) -> Scalar<f32> { xs.fold(1.0, |a, b| a * b) }
fn f(xs: &Vector<i32>) -> Scalar<i32> { xs.maximum() }
"#;
    for name in ["a", "b", "c", "d", "e", "f"] {
        let (p, _) = accel_core::compile_source(src, name).unwrap();
        println!("{name}: {}", p.arena.show(p.body));
    }
}
