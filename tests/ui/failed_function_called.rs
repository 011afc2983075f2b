use accel::prelude::*;

#[acc]
fn double(xs: &Vector<f32>) -> Vector<f32> {
    xs.mapp(|x| x * 2.0)
}

fn main() {
    let xs = Vector::from(vec![1.0f32, 2.0]);
    let ys: accel::Result<Vector<f32>> = double(&xs);
    let zs = double::on(&Backend::cpu(), &xs);
    let text: String = double::explain();
    println!("{:?} {:?} {}", ys, zs, text);
}
