#[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
enum Kind {
    #[default]
    A,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
struct Generic<T> {
    x: T,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
struct Wide {
    a: f32,
    b: f32,
    c: f32,
    d: f32,
    e: f32,
    f: f32,
}

// A field that is not an element type.
#[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
struct HoldsRef {
    x: &'static str,
}

fn main() {}
