//! Dot product, shared by the example and the benchmarks: `zip_with` fused into
//! `fold`, one kernel.
//!
//! `dotp_program!()` instantiates the program; the benchmarks instantiate it
//! again under other compiler settings (no fusion, no sharing).

macro_rules! dotp_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            pub fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
                xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
            }
        }
    };
}

dotp_program!();
