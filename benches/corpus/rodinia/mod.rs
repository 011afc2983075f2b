//! Rodinia 3.1, written in accel.

use crate::harness::Harness;

mod hotspot;

pub fn all(h: &mut Harness) {
    hotspot::program(h);
}
