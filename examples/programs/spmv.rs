//! Sparse matrix-vector product in compressed-row (CSR) form, shared by the
//! example and the benchmarks: each stored value times the element of `x` in
//! its column, summed per row by the library's segmented fold over the row
//! offsets. Fusion puts the products inside the segmented fold: one kernel,
//! as the Accelerate paper reports (§5.9).
//!
//! `spmv_program!()` instantiates the program; the benchmarks instantiate it
//! again under other compiler settings (no fusion, no sharing).

macro_rules! spmv_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// `y = A x` for `A` given by its row offsets (rows + 1 of them), the
            /// column of each stored value, and the values.
            pub fn spmv(
                offsets: &Vector<u32>,
                cols: &Vector<u32>,
                vals: &Vector<f32>,
                x: &Vector<f32>,
            ) -> Vector<f32> {
                vals.zip_with(cols, |v, c| v * x[[c as usize]])
                    .fold_seg_offsets(offsets, 0.0, |a, b| a + b)
            }
        }
    };
}

spmv_program!();
