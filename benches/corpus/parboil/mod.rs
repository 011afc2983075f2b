//! Parboil, written in accel.

use crate::harness::Harness;

mod cutcp;
mod histo;
mod mri_q;
mod spmv;
mod stencil;
mod tpacf;

pub fn all(h: &mut Harness) {
    histo::program(h);
    stencil::program(h);
    mri_q::program(h);
    spmv::program(h);
    tpacf::program(h);
    cutcp::program(h);
}
