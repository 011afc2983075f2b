use accel::prelude::*;

struct Model {
    w: f32,
}

// `#[acc]` on a method: `self` is not a program parameter.
impl Model {
    #[acc]
    fn apply(&self, xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x * 2.0)
    }
}

// On the impl block, a method with `self` is refused the same way.
#[acc]
impl Model {
    fn scale(&self, xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x * 2.0)
    }
}

struct Pair<T>(T);

#[acc]
impl<T> Pair<T> {
    fn double(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x * 2.0)
    }
}

trait Step {
    fn step(xs: &Vector<f32>) -> Vector<f32>;
}

#[acc]
impl Step for Model {
    fn step(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x * 2.0)
    }
}

struct Other;

#[acc]
impl Other {
    type Elem = f32;
    fn double(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x * 2.0)
    }
}

// An error inside a function of the block is reported at its span.
struct Broken;

#[acc]
impl Broken {
    fn wrong(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x + true)
    }
}

fn main() {
    let _ = Model { w: 1.0 }.w;
    let xs = Vector::from(vec![1.0f32]);
    let _ = Broken::wrong(&xs);
}
