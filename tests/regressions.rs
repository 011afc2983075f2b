//! Programs that once generated code rustc rejected, or wrong results.

use accel::prelude::*;

accel! {
    // A materialised Scalar read in a later kernel (rank-0 shapes once had no type).
    fn centred(xs: &Vector<f32>) -> Vector<f32> {
        let mean = xs.sum();
        let n = xs.len() as f32;
        xs.map(|x| x - mean.value() / n)
    }

    // The same computed array returned twice.
    fn twice(xs: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
        let ys = xs.map(|x| x + 1.0);
        (ys, ys)
    }

    // A scalar parameter passed by reference.
    fn scale(xs: &Vector<f32>, alpha: &f32) -> Vector<f32> {
        xs.map(|x| x * alpha)
    }

    // The fill value takes the element type of the result.
    fn zeros(xs: &Matrix<f32>) -> Matrix<f32> {
        fill(xs.shape(), 0.0)
    }

    // Arguments of a let-bound closure take its annotated parameter types.
    fn squares(xs: &Vector<f32>) -> Vector<f32> {
        let sq = |x: f32| x * x;
        xs.map(|x| sq(x) + sq(2.0))
    }

    // A scalar result computed from a reduction.
    fn total(xs: &Vector<i64>) -> i64 {
        xs.sum().value() * 2
    }
}

#[test]
fn regressions() -> accel::Result<()> {
    let xs = Vector::from(vec![1.0f32, 2.0, 3.0]);
    assert_eq!(centred(&xs)?.to_vec(), vec![-1.0, 0.0, 1.0]);
    let (a, b) = twice(&xs)?;
    assert_eq!(a, b);
    assert_eq!(a.to_vec(), vec![2.0, 3.0, 4.0]);
    assert_eq!(scale(&xs, &2.0)?.to_vec(), vec![2.0, 4.0, 6.0]);
    let m = Matrix::from_vec([2, 3], vec![1.0f32; 6])?;
    assert_eq!(zeros(&m)?.to_vec(), vec![0.0; 6]);
    assert_eq!(zeros(&m)?.shape(), [2, 3]);
    assert_eq!(squares(&xs)?.to_vec(), vec![5.0, 8.0, 13.0]);
    assert_eq!(total(&Vector::from(vec![1i64, 2, 3]))?, 12);
    Ok(())
}
