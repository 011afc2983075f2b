use accel::prelude::*;

accel! {
    fn double(xs: &Vector<f32>) -> Vector<f32> {
        xs.mapp(|x| x * 2.0)
    }
    pub fn total(xs: &Vector<f32>) -> Scalar<f32> {
        double(xs).sum()
    }
}

fn main() {
    let xs = Vector::from(vec![1.0f32, 2.0]);
    let t: accel::Result<Scalar<f32>> = total(&xs);
    println!("{:?}", t);
}
