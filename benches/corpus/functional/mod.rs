//! Functional-language suites (futhark-benchmarks, accelerate-examples), written in accel.

use crate::harness::Harness;

mod crystal;
mod life;
mod nbody;
mod pagerank;
mod quicksort;
mod radix_sort;
mod tridiagonal;

pub fn all(h: &mut Harness) {
    pagerank::program(h);
    tridiagonal::program(h);
    radix_sort::program(h);
    quicksort::program(h);
    nbody::program(h);
    crystal::program(h);
    life::program(h);
}
