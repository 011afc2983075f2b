use accel::prelude::*;

#[acc]
pub fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
    xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
}

accel! {
    fn norm2(xs: &Vector<f32>) -> Scalar<f32> { xs.map(|x| x * x).sum() }
    pub fn rms(xs: &Vector<f32>) -> Scalar<f32> {
        let n = xs.len() as f32;
        norm2(xs).map(|s| (s / n).sqrt())
    }
    fn twice(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
        let ys = xs.map(|x| x * 2 + 1);
        let n = xs.len();
        (ys.map(|y| y - n as i32), ys.sum())
    }
}

fn main() -> accel::Result<()> {
    let xs = Vector::from(vec![1.0f32, 2.0, 3.0]);
    let ys = Vector::from(vec![4.0f32, 5.0, 6.0]);
    println!("{:?}", dotp(&xs, &ys)?);
    println!("{}", dotp::explain());
    println!("{:?}", rms(&xs)?);
    println!("{:?}", twice(&Vector::from(vec![1, 2, 3]))?);
    Ok(())
}
