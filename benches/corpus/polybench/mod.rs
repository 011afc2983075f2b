//! PolyBench/C 4.2.1 (linear algebra, stencils, data mining), written in accel.

use crate::harness::Harness;

mod gemm;

pub fn all(h: &mut Harness) {
    gemm::program(h);
}
