//! PolyBench/C 4.2.1 stencils, written in accel.

use crate::harness::Harness;

mod jacobi_1d;

pub fn all(h: &mut Harness) {
    jacobi_1d::program(h);
}
