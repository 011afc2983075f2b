//! Rodinia 3.1, written in accel.

use crate::harness::Harness;

mod hotspot;
mod pathfinder;
mod srad;

pub fn all(h: &mut Harness) {
    hotspot::program(h);
    srad::program(h);
    pathfinder::program(h);
}
