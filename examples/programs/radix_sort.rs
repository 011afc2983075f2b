//! Radix sort of signed 32-bit integers with the library's `sort` (a
//! least-significant-digit radix sort, one primitive of the compiler), shared
//! with the benchmarks.
//!
//! `radix_sort_program!()` instantiates the program; the benchmarks instantiate
//! it again under other compiler settings (no fusion, no sharing).

macro_rules! radix_sort_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            pub fn sort_keys(xs: &Vector<i32>) -> Vector<i32> {
                xs.sort()
            }
        }
    };
}

radix_sort_program!();
