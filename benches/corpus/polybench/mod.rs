//! PolyBench/C 4.2.1 (linear algebra, stencils, data mining), written in accel.

use crate::harness::Harness;

mod atax;
mod bicg;
mod gemm;
mod mvt;
mod three_mm;
mod two_mm;

pub fn all(h: &mut Harness) {
    gemm::program(h);
    two_mm::program(h);
    three_mm::program(h);
    atax::program(h);
    bicg::program(h);
    mvt::program(h);
}
