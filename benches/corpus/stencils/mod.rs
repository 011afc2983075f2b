//! PolyBench/C 4.2.1 stencils, written in accel.

use crate::harness::Harness;

mod fdtd_2d;
mod heat_3d;
mod jacobi_1d;
mod jacobi_2d;

pub fn all(h: &mut Harness) {
    jacobi_1d::program(h);
    jacobi_2d::program(h);
    heat_3d::program(h);
    fdtd_2d::program(h);
}
