//! Performance profiles of program calls on the PTX simulator, and a time
//! model built on them: GPU performance made visible without a GPU.
//!
//! A profiling simulator (`ACCEL_SIM_PROFILE=1`, [`call`], or a program's
//! `name::profile(..)`) counts, per kernel launch, what decides a GPU's
//! speed: warp instructions and their lanes, global requests and the 32-byte
//! sectors they touch, the bytes DRAM must move, shared-memory bank
//! conflicts, atomics on one address, barriers (how: `ptx_sim::counters`).
//! Where ncu has a metric for a counter, the field names it.
//!
//! The model ([`GpuModel::time_us`]) is a roofline: a launch costs its
//! launch overhead plus the largest of the DRAM time (distinct sectors read
//! and written, at the measured copy bandwidth, scaled down when the grid
//! holds fewer blocks than the device has multiprocessors), the issue time
//! (warp instructions over the multiprocessors' schedulers, weighted by
//! throughput) and the serialisation of atomics on the hottest address. It
//! ignores latency chains, caches other than "each sector comes from DRAM
//! once per launch", and occupancy limits from registers.

use crate::backend::Backend;
use crate::error::Result;
use std::fmt::Write as _;

/// The kinds of warp instruction, by the pipe that issues them (in the
/// order of [`PIPES`]: `p as usize` indexes [`KernelProfile::mix`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pipe {
    /// Integer, logic, moves, conversions, compares, f32 add/mul/fma.
    Alu,
    /// f64 arithmetic (half the f32 rate on an H100).
    Fp64,
    /// Special functions (`rcp`, `sqrt`, `ex2`, `sin` ...): 16 lanes per clock per SM.
    Sfu,
    /// Global loads and stores.
    Global,
    /// Shared-memory loads and stores.
    Shared,
    /// Atomics and reductions (global or shared).
    Atomic,
    /// Branches, calls, barriers, shuffles, votes.
    Control,
}

pub const PIPES: [Pipe; 7] = [
    Pipe::Alu,
    Pipe::Fp64,
    Pipe::Sfu,
    Pipe::Global,
    Pipe::Shared,
    Pipe::Atomic,
    Pipe::Control,
];

/// The counters of one kernel launch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelProfile {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Warp-level instructions issued (ncu `smsp__inst_executed.sum`).
    pub warp_instructions: u64,
    /// Threads over those instructions (ncu `smsp__thread_inst_executed.sum`);
    /// divided by `warp_instructions`, 32 when no warp diverges.
    pub thread_instructions: u64,
    /// Warp instructions per pipe, in the order of [`Pipe`].
    pub mix: [u64; 7],
    /// Global load requests (ncu `l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum`)
    /// and the sectors they touch (`l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum`).
    pub load_requests: u64,
    pub load_sectors: u64,
    /// The same for stores (`..._op_st.sum`).
    pub store_requests: u64,
    pub store_sectors: u64,
    /// Sectors the requests would touch if each request's distinct bytes
    /// were packed: `sectors / ideal_sectors` is 1 for perfect coalescing.
    pub ideal_sectors: u64,
    /// Bytes the threads asked for (loads and stores).
    pub bytes_requested: u64,
    /// Distinct sectors read and written, in bytes: what DRAM moves when each
    /// sector is fetched once per launch (ncu `dram__bytes_read.sum`,
    /// `dram__bytes_write.sum`).
    pub dram_read_bytes: u64,
    pub dram_write_bytes: u64,
    /// Shared-memory requests, and their extra wavefronts over the ideal
    /// (ncu `l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum`).
    pub shared_requests: u64,
    pub bank_conflicts: u64,
    /// Atomic operations (lanes), those on global memory, and the most of
    /// them on one global address.
    pub atomics: u64,
    pub global_atomics: u64,
    pub hottest_atomic_address: u64,
    /// `bar.sync` executed, per warp.
    pub barriers: u64,
    /// The warp that issued the most instructions, and the one that issued
    /// the most global load requests: their counts. A warp issues in
    /// order, so its instructions, and the loads whose results it waits
    /// on, bound the launch's time from below however many warps run
    /// beside it: the critical path of one thread summing a long row.
    pub longest_warp_instructions: u64,
    pub longest_warp_loads: u64,
}

impl KernelProfile {
    /// Threads per warp instruction (32: no divergence).
    pub fn lanes_per_instruction(&self) -> f64 {
        self.thread_instructions as f64 / self.warp_instructions.max(1) as f64
    }

    /// Global sectors touched per sector needed (1: perfectly coalesced).
    pub fn sector_efficiency(&self) -> f64 {
        (self.load_sectors + self.store_sectors) as f64 / self.ideal_sectors.max(1) as f64
    }

    /// Warp instructions of one pipe.
    pub fn pipe(&self, p: Pipe) -> u64 {
        self.mix[p as usize]
    }

    /// Blocks in the launch's grid.
    pub fn blocks(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }
}

/// The launches of one program call, with its host↔device copies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallProfile {
    pub program: String,
    /// Its launches, in order.
    pub kernels: Vec<KernelProfile>,
    /// Bytes copied to and from the device since the previous call ended:
    /// the call's inputs (uploaded when it needs them), the error word and
    /// scalar results it reads; arrays left on the device and downloaded
    /// later count in the next call.
    pub upload_bytes: u64,
    pub download_bytes: u64,
}

impl CallProfile {
    /// The model's time of the whole call on `gpu`, in µs: its kernels and
    /// its copies.
    pub fn time_us(&self, gpu: &GpuModel) -> f64 {
        self.kernels.iter().map(|k| gpu.time_us(k)).sum::<f64>()
            + gpu.transfer_us(self.upload_bytes + self.download_bytes)
    }

    /// The per-kernel table that `ACCEL_SIM_PROFILE=1` prints.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "ptx-sim profile of `{}`: {} kernel launches, {} B uploaded, {} B downloaded",
            self.program,
            self.kernels.len(),
            self.upload_bytes,
            self.download_bytes
        );
        let _ = writeln!(
            s,
            "{:<34} {:>14} {:>10} {:>6} {:>9} {:>8} {:>11} {:>9} {:>7} {:>8} {:>6} {:>9} {:>12} {:>12}",
            "kernel",
            "grid x block",
            "warp inst",
            "lanes",
            "requests",
            "sect/req",
            "sect/ideal",
            "DRAM KB",
            "bank cf",
            "hot atom",
            "bars",
            "warp us",
            "model H100 us",
            "model H200 us"
        );
        for k in &self.kernels {
            let req = k.load_requests + k.store_requests;
            let _ = writeln!(
                s,
                "{:<34} {:>14} {:>10} {:>6.1} {:>9} {:>8.2} {:>11.2} {:>9.1} {:>7} {:>8} {:>6} {:>9.2} {:>12.2} {:>12.2}",
                k.kernel,
                format!("{}x{}", k.blocks(), k.block.iter().product::<u32>()),
                k.warp_instructions,
                k.lanes_per_instruction(),
                req,
                (k.load_sectors + k.store_sectors) as f64 / req.max(1) as f64,
                k.sector_efficiency(),
                (k.dram_read_bytes + k.dram_write_bytes) as f64 / 1e3,
                k.bank_conflicts,
                k.hottest_atomic_address,
                k.barriers,
                H100.longest_warp_us(k),
                H100.time_us(k),
                H200.time_us(k)
            );
        }
        let _ = writeln!(
            s,
            "call: model H100 {:.2} us, H200 {:.2} us (kernels and copies; ncu names: warp inst = smsp__inst_executed.sum, \
             sect/req = l1tex__t_sectors_pipe_lsu_mem_global_op_{{ld,st}} per request, bank cf = \
             l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum)",
            self.time_us(&H100),
            self.time_us(&H200)
        );
        s
    }
}

/// A GPU as the model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuModel {
    pub name: &'static str,
    pub multiprocessors: u32,
    /// Sustained SM clock under load, GHz.
    pub clock_ghz: f64,
    /// Device-to-device copy bandwidth (bytes read + written), GB/s.
    pub dram_gb_s: f64,
    /// Host↔device copy bandwidth (pinned), GB/s.
    pub pcie_gb_s: f64,
    /// What a launch costs even when it does nothing, µs.
    pub launch_us: f64,
    /// One atomic on an address that others also update: they serialise at
    /// the L2, ns each.
    pub atomic_same_address_ns: f64,
    /// What a warp waits, on average, for each global load it issues, in
    /// clocks, when nothing else hides it: a mix of L1 hits and L2 or DRAM
    /// misses. Calibrated on spmv_powerlaw with one thread per row: its
    /// longest row (153,528 values, three loads and 29 instructions each)
    /// took 18.4 ms on the H200 (docs/gpu.md, 2026-11-30), 60 clocks a load.
    pub load_wait_clocks: f64,
}

/// [`GpuModel::load_wait_clocks`] of the H100 and the H200 (one value: no
/// H100 figure to fit it on).
const LOAD_WAIT_CLOCKS: f64 = 60.0;

/// An H100 SXM 80 GB: copy bandwidth as measured on 2026-11-23 (docs/gpu.md).
pub const H100: GpuModel = GpuModel {
    name: "H100",
    multiprocessors: 132,
    clock_ghz: 1.755,
    dram_gb_s: 2980.0,
    pcie_gb_s: 25.0,
    launch_us: 2.5,
    atomic_same_address_ns: 30.0,
    load_wait_clocks: LOAD_WAIT_CLOCKS,
};

/// An H200: copy bandwidth as measured on 2026-11-26 and 2026-11-27.
pub const H200: GpuModel = GpuModel {
    name: "H200",
    multiprocessors: 132,
    clock_ghz: 1.755,
    dram_gb_s: 4205.0,
    pcie_gb_s: 25.0,
    launch_us: 2.5,
    atomic_same_address_ns: 30.0,
    load_wait_clocks: LOAD_WAIT_CLOCKS,
};

impl GpuModel {
    /// Issue cost of one warp instruction of `p`, in scheduler slots: an SM's
    /// four schedulers each issue one per clock; f64 runs at half rate and
    /// the special-function unit at 16 lanes per clock per SM.
    fn slots(p: Pipe) -> f64 {
        match p {
            Pipe::Fp64 => 2.0,
            Pipe::Sfu => 8.0,
            _ => 1.0,
        }
    }

    /// The model's time of one launch, µs.
    pub fn time_us(&self, k: &KernelProfile) -> f64 {
        let sms = self.multiprocessors as f64;
        let busy = (k.blocks() as f64).min(sms).max(1.0);
        let dram = (k.dram_read_bytes + k.dram_write_bytes) as f64 / (self.dram_gb_s * 1e3) * (sms / busy);
        let slots: f64 = PIPES
            .iter()
            .zip(k.mix)
            .map(|(&p, n)| n as f64 * Self::slots(p))
            .sum();
        let issue = slots / (busy * 4.0 * self.clock_ghz * 1e3);
        let atomics = k.hottest_atomic_address as f64 * self.atomic_same_address_ns / 1e3;
        self.launch_us + dram.max(issue).max(atomics).max(self.longest_warp_us(k))
    }

    /// The longest warp's own time, µs: one instruction per clock, and a
    /// wait on each global load (the launch's critical path).
    pub fn longest_warp_us(&self, k: &KernelProfile) -> f64 {
        let clocks = k.longest_warp_instructions as f64 + k.longest_warp_loads as f64 * self.load_wait_clocks;
        clocks / (self.clock_ghz * 1e3)
    }

    /// Host↔device copies of `bytes`, µs.
    pub fn transfer_us(&self, bytes: u64) -> f64 {
        bytes as f64 / (self.pcie_gb_s * 1e3)
    }
}

/// Runs `f` once on a fresh profiling simulator and returns the profile of
/// the program call it makes (the last, if it makes several). What
/// `name::profile(..)` does; needs accel's `ptx-sim` feature.
pub fn call<T>(f: impl FnOnce(&Backend) -> Result<T>) -> Result<CallProfile> {
    #[cfg(feature = "ptx-sim")]
    {
        let sim = std::sync::Arc::new(crate::ptx_sim::SimDevice::profiled(0x5eed));
        f(&Backend::Gpu(sim.clone()))?;
        sim.last_call().ok_or_else(|| {
            crate::error::Error::new(
                "profile",
                "the function made no program call on the backend it was given",
            )
        })
    }
    #[cfg(not(feature = "ptx-sim"))]
    {
        let _ = f;
        Err(crate::error::Error::with_kind(
            crate::error::ErrorKind::BackendUnavailable,
            "profile",
            "profiles come from the PTX simulator: enable accel's `ptx-sim` feature",
        ))
    }
}

/// Runs `f`, a program call on a CPU backend, with the CPU back end's
/// timing on: its result and the wall time of each kernel of the last
/// program call it made (the data of `ACCEL_PROFILE=1`'s table).
pub fn cpu<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, CpuProfile)> {
    let (out, profile) = crate::cpu::timing::collect(f);
    let out = out?;
    let profile = profile.ok_or_else(|| {
        crate::error::Error::new("profile", "the function made no program call on a CPU backend")
    })?;
    Ok((out, profile))
}

pub use crate::cpu::timing::{CpuProfile, KernelTime};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_a_roofline() {
        let mut k = KernelProfile {
            grid: [528, 1, 1],
            block: [256, 1, 1],
            dram_read_bytes: 536_870_912,
            ..KernelProfile::default()
        };
        // The dot product's fold of 2^26 f32 pairs: 127-130 µs measured on the H200.
        let t = H200.time_us(&k);
        assert!((125.0..135.0).contains(&t), "{t}");
        // One block cannot use the whole device's bandwidth.
        k.grid = [1, 1, 1];
        assert!(H200.time_us(&k) > 100.0 * t);
    }
}
