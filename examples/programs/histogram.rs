//! Histogram with `permute`, shared by the example and the benchmarks: every
//! value contributes a 1 to its bin (`value % bins`), combined by addition.
//!
//! `histogram_program!()` instantiates the program; the benchmarks instantiate
//! it again under other compiler settings (no fusion, no sharing).

macro_rules! histogram_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// How many of `xs` fall into each of `bins` bins.
            pub fn histogram(xs: &Vector<u32>, bins: usize) -> Vector<u32> {
                let zeros = fill([bins], 0u32);
                xs.map(|_| 1u32).permute(&zeros, |[i]| Some([xs[[i]] as usize % bins]), |a, b| a + b)
            }
        }
    };
}

histogram_program!();
