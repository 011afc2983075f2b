//! Code generation from a kernel plan. `cpu`: Rust code calling the CPU
//! skeletons of `accel-runtime`. (The PTX back end will live beside it.)

pub mod cpu;
pub mod ptx;
