use accel::prelude::*;

#[acc]
fn holes(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        trace!("{} and {}", x);
        x
    })
}

#[acc]
fn tuple_display(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        trace!("{}", (x, x));
        x
    })
}

#[acc]
fn named_hole(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        trace!("{x}");
        x
    })
}

#[acc]
fn on_arrays(xs: &Vector<i32>) -> Vector<i32> {
    let n = xs.len();
    trace!("n = {}", n);
    xs.map(|x| x + 1)
}

#[acc]
fn other_macro(xs: &Vector<i32>) -> Vector<i32> {
    xs.map(|x| {
        println!("{}", x);
        x
    })
}

fn main() {}
