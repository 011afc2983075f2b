use accel::prelude::*;

accel! {
    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    struct Vec2 { x: f32, y: f32 }

    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    struct Polar { r: f32, x: f32 }

    // Without `derive(Elem)` a struct is not an element type.
    #[derive(Clone, Copy)]
    struct Plain { a: f32 }

    fn no_such_field(ps: &Vector<Vec2>) -> Vector<f32> {
        ps.map(|p| p.z)
    }

    fn missing_field(xs: &Vector<f32>) -> Vector<Vec2> {
        xs.map(|x| Vec2 { x })
    }

    fn field_twice(xs: &Vector<f32>) -> Vector<Vec2> {
        xs.map(|x| Vec2 { x, y: x, x: 1.0 })
    }

    fn unknown_in_pattern(ps: &Vector<Vec2>) -> Vector<f32> {
        ps.map(|Vec2 { x, w }| x)
    }

    // `Vec2` and `Polar` are both `(f32, f32)`, with `x` at different places.
    fn ambiguous(ps: &Vector<Polar>) -> Vector<f32> {
        ps.map(|p| p.x)
    }

    impl Vec2 {
        // A method may not change its struct.
        fn grow(&mut self) -> f32 {
            self.x
        }
    }

    impl Default for Polar {
        fn default() -> Self {
            Polar { r: 0.0, x: 0.0 }
        }
    }

    fn not_a_struct(xs: &Vector<f32>) -> Vector<f32> {
        xs.map(|x| x.y)
    }

}

// A lone function sees only itself: a struct declared outside is unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
struct Outside {
    a: f32,
    b: f32,
}

#[acc]
fn lone(xs: &Vector<Outside>) -> Vector<f32> {
    xs.map(|o| o.a)
}

fn main() {
    let _ = Outside { a: 1.0, b: 2.0 }.b;
}
