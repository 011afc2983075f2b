//! PolyBench/C 4.2.1 (linear algebra, stencils, data mining), written in accel.

use crate::harness::Harness;

mod atax;
mod bicg;
mod correlation;
mod covariance;
mod doitgen;
mod gemm;
mod gemver;
mod gesummv;
mod mvt;
mod symm;
mod syr2k;
mod syrk;
mod three_mm;
mod trmm;
mod two_mm;

pub fn all(h: &mut Harness) {
    gemm::program(h);
    two_mm::program(h);
    three_mm::program(h);
    atax::program(h);
    bicg::program(h);
    mvt::program(h);
    gemver::program(h);
    gesummv::program(h);
    syrk::program(h);
    syr2k::program(h);
    trmm::program(h);
    symm::program(h);
    doitgen::program(h);
    covariance::program(h);
    correlation::program(h);
}
