use accel_core::compile_source;
#[test]
fn smoke() {
    let src = r#"
        fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
            xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
        }
        fn twice(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
            let ys = xs.map(|x| x * 2 + 1);
            let n = xs.len();
            (ys.map(|y| y - n as i32), ys.sum())
        }
    "#;
    for name in ["dotp", "twice"] {
        let (p, plan) = compile_source(src, name).unwrap_or_else(|e| panic!("{}", e.message));
        println!("{}\n{}", p.arena.show(p.body), plan);
        println!("{}", plan.explain());
    }
}
