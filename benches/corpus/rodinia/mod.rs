//! Rodinia 3.1, written in accel.

use crate::harness::Harness;

mod backprop;
mod cfd;
mod hotspot;
mod kmeans;
mod lud;
mod nn;
mod pathfinder;
mod srad;
mod streamcluster;

pub fn all(h: &mut Harness) {
    hotspot::program(h);
    srad::program(h);
    pathfinder::program(h);
    nn::program(h);
    backprop::program(h);
    kmeans::program(h);
    lud::program(h);
    cfd::program(h);
    streamcluster::program(h);
}
