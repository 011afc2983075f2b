//! Code generation from a kernel plan. `cpu`: Rust code calling the CPU
//! skeletons of `accel-runtime`. `ptx`: the PTX module of the
//! program's kernels; `gpu`: the host code that runs them on a device.

pub mod cpu;
pub mod gpu;
pub mod host;
pub mod ptx;
