//! A PTX simulator: runs the PTX that accel emits on the CPU, with the grid,
//! block and warp semantics of the PTX ISA, and reports what a GPU would not:
//! reads of registers and shared memory never written, shared-memory data
//! races between barriers, barriers and warp collectives that cannot complete,
//! out-of-bounds and misaligned accesses. It implements the ISA independently
//! of the emitter, so it is a check on it.
//!
//! * `lex` / `parse`: PTX text → decoded [`inst::Module`] (once per module);
//! * `exec`: one launch (the scheduling model is described there);
//! * `float`: rounding modes, `cvt`, min/max;
//! * `mem`: global memory;
//! * `counters`: performance counters per launch, when profiling
//!   (`crate::profile`: the data and the time model; `ACCEL_SIM_PROFILE=1`
//!   prints them after each program call).
//!
//! Approximate instructions (`div.approx`, `div.full`, `rcp.approx`,
//! `sqrt.approx`, `rsqrt.approx`, `sin/cos/ex2/lg2.approx`) are computed
//! exactly (rounded once to the type). The ISA only promises, for f32:
//! `div.approx` / `div.full` 2 ulp, `rcp.approx` 1 ulp, `sqrt.approx` and
//! `rsqrt.approx` about 2^-23 / 2^-22.9 relative error, `ex2.approx` 2 ulp,
//! `lg2.approx` 2^-22.6 absolute error, `sin/cos.approx` 2^-20.9 absolute
//! error in [-π, π] (worse outside): the emitter must not rely on more.
//! Integer `div`/`rem` by zero are undefined in the ISA; the simulator gives
//! what NVIDIA GPUs give: all ones for `div`, the dividend for `rem`.
//! `add.f32`/`mul.f32` without a rounding modifier round to nearest here, but
//! ptxas may contract them into an `fma` on a GPU: code that needs the
//! unfused result must say `.rn`.
//!
//! Memory: allocations get distinct, 256-byte aligned addresses with a gap
//! between them; fresh allocations hold 0xff bytes (never zero, as on a GPU).
//! Shared-space addresses start at 0 (static variables in declaration order,
//! then the dynamic `.extern .shared` area); generic addresses of shared
//! memory (`cvta.shared`) lie in a window at [`mem::SHARED_WINDOW`].
//!
//! Checks, each an error naming the kernel, the instruction (line and text)
//! and the thread(s): out-of-bounds or misaligned global/shared accesses; a
//! register read before any write (per thread; a `.func`'s registers are
//! fresh at each call); a shared byte read before any write in the launch; a
//! shared-memory data race (two threads access a byte between two barriers,
//! one writes, not both atomically); a deadlock (a barrier or warp collective
//! that cannot complete: the message lists where the threads wait); a
//! `shfl.sync` reading a lane that has exited or is outside the membermask,
//! and a membermask without the executing thread; more than
//! [`exec::INSTRUCTION_LIMIT`] instructions in one launch (an endless loop).
//! Launches check the kernel name, argument count and sizes, grid and block
//! limits, `.reqntid`/`.maxntid` and the shared memory size.
//!
//! Not supported (a parse error, never ignored): instructions and modifiers
//! outside the subset in `notes/common.md` (e.g. `prmt`, `lop3`, `.sat` on
//! arithmetic, `.local`/`.const` spaces, module-scope variables other than
//! `.extern .shared`), recursion, directed rounding of f64 `fma` and of
//! `div`. Not detected: global-memory races; spinning on a flag set by a
//! block that is not resident (blocks are resident 8 at a time, started in
//! order) runs into the instruction limit.

pub mod counters;
pub mod exec;
pub mod float;
pub mod inst;
pub mod lex;
pub mod mem;
pub mod parse;
pub mod rng;

use crate::error::{Error, ErrorKind, Result};
use crate::gpu::{Device, DeviceProps, DevicePtr, KernelArg, LaunchConfig, Transfers};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Counters of a [`SimDevice`], for reporting simulation speed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimStats {
    pub launches: u64,
    /// PTX instructions executed (by every thread, predicated-off ones included).
    pub instructions: u64,
    /// Wall time spent running launches (parsing included).
    pub sim_time: Duration,
}

impl SimStats {
    pub fn instructions_per_second(&self) -> f64 {
        self.instructions as f64 / self.sim_time.as_secs_f64().max(1e-9)
    }
}

struct State {
    mem: mem::GlobalMem,
    modules: HashMap<(usize, usize), Arc<inst::Module>>,
    rng: rng::Rng,
    stats: SimStats,
    transfers: Transfers,
    profile: Profiling,
}

/// What a profiling device keeps: the launches of the call in progress, and
/// the last call's profile.
#[derive(Default)]
struct Profiling {
    on: bool,
    print: bool,
    kernels: Vec<crate::profile::KernelProfile>,
    /// The copies counted when the call in progress began.
    transfers_before: Transfers,
    last_call: Option<crate::profile::CallProfile>,
}

/// The simulated GPU. Launches run synchronously; scheduling decisions come
/// from the seed given to [`SimDevice::new`].
pub struct SimDevice {
    props: DeviceProps,
    state: Mutex<State>,
}

impl std::fmt::Debug for SimDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimDevice").field("props", &self.props).finish()
    }
}

fn fail(msg: impl Into<String>) -> Error {
    Error::with_kind(ErrorKind::DeviceFailure, "ptx-sim", msg)
}

/// Parses a PTX module (for tools and tests that only want to validate one).
pub fn parse(ptx: &str) -> Result<inst::Module> {
    parse::parse_module(ptx).map_err(|e| fail(format!("PTX parse error: {e}")))
}

impl SimDevice {
    /// A simulator scheduling from `seed`; with `ACCEL_SIM_PROFILE=1` it
    /// profiles every launch and prints each program call's profile.
    pub fn new(seed: u64) -> SimDevice {
        let print = std::env::var("ACCEL_SIM_PROFILE").is_ok_and(|v| v.trim() == "1");
        SimDevice::with_profiling(seed, print, print)
    }

    /// A simulator that profiles every launch (see [`crate::profile`]); read a
    /// call's profile with [`SimDevice::last_call`].
    pub fn profiled(seed: u64) -> SimDevice {
        SimDevice::with_profiling(seed, true, false)
    }

    fn with_profiling(seed: u64, on: bool, print: bool) -> SimDevice {
        SimDevice {
            props: DeviceProps {
                name: "ptx-sim".into(),
                // Profiled launches take the shape they take on an H100 or
                // H200 (grids are sized by the multiprocessor count); plain
                // ones stay small, for speed.
                multiprocessors: if on {
                    crate::profile::H100.multiprocessors
                } else {
                    4
                },
                max_threads_per_block: 1024,
                warp_size: 32,
                shared_bytes_per_block: 48 * 1024,
            },
            state: Mutex::new(State {
                mem: mem::GlobalMem::new(),
                modules: HashMap::new(),
                rng: rng::Rng::new(seed),
                stats: SimStats::default(),
                transfers: Transfers::default(),
                profile: Profiling {
                    on,
                    print,
                    ..Profiling::default()
                },
            }),
        }
    }

    pub fn stats(&self) -> SimStats {
        self.lock().stats
    }

    /// The profile of the last program call that ended, on a profiling device.
    pub fn last_call(&self) -> Option<crate::profile::CallProfile> {
        self.lock().profile.last_call.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data behind: go on.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Device for SimDevice {
    fn name(&self) -> String {
        "ptx-sim".into()
    }

    fn props(&self) -> &DeviceProps {
        &self.props
    }

    fn alloc(&self, bytes: usize) -> Result<DevicePtr> {
        let mut s = self.lock();
        match s.mem.alloc(bytes) {
            Some(p) => Ok(DevicePtr(p)),
            None => Err(Error::with_kind(
                ErrorKind::OutOfMemory,
                "ptx-sim",
                format!("cannot allocate {bytes} bytes"),
            )),
        }
    }

    fn free(&self, ptr: DevicePtr) {
        self.lock().mem.free(ptr.0);
    }

    fn upload(&self, dst: DevicePtr, src: &[u8]) -> Result<()> {
        let mut s = self.lock();
        let d = s
            .mem
            .slice_mut(dst.0, src.len())
            .map_err(|e| fail(format!("upload: {e}")))?;
        d.copy_from_slice(src);
        s.transfers.uploads += 1;
        s.transfers.upload_bytes += src.len() as u64;
        Ok(())
    }

    fn download(&self, src: DevicePtr, dst: &mut [u8]) -> Result<()> {
        let mut s = self.lock();
        let d = s
            .mem
            .slice(src.0, dst.len())
            .map_err(|e| fail(format!("download: {e}")))?;
        dst.copy_from_slice(d);
        s.transfers.downloads += 1;
        s.transfers.download_bytes += dst.len() as u64;
        Ok(())
    }

    fn copy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize) -> Result<()> {
        let mut s = self.lock();
        let tmp = s
            .mem
            .slice(src.0, bytes)
            .map_err(|e| fail(format!("copy: {e}")))?
            .to_vec();
        s.mem
            .slice_mut(dst.0, bytes)
            .map_err(|e| fail(format!("copy: {e}")))?
            .copy_from_slice(&tmp);
        Ok(())
    }

    fn memset(&self, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        let mut s = self.lock();
        s.mem
            .slice_mut(dst.0, bytes)
            .map_err(|e| fail(format!("memset: {e}")))?
            .fill(value);
        Ok(())
    }

    fn transfers(&self) -> Option<Transfers> {
        Some(self.lock().transfers)
    }

    fn launch(&self, ptx: &'static str, kernel: &str, cfg: LaunchConfig, args: &[KernelArg]) -> Result<()> {
        let start = Instant::now();
        let mut s = self.lock();
        let key = (ptx.as_ptr() as usize, ptx.len());
        let module = match s.modules.get(&key) {
            Some(m) => m.clone(),
            None => {
                let m = Arc::new(parse(ptx)?);
                s.modules.insert(key, m.clone());
                m
            }
        };
        let kidx = module
            .funcs
            .iter()
            .position(|f| f.is_entry && f.name == kernel)
            .ok_or_else(|| fail(format!("launch: the module has no kernel `{kernel}`")))?;
        let k = &module.funcs[kidx];
        if args.len() != k.kparams.len() {
            return Err(fail(format!(
                "launch of `{kernel}`: {} arguments given, the kernel has {} parameters",
                args.len(),
                k.kparams.len()
            )));
        }
        let mut pbuf = vec![0u8; k.kparam_bytes as usize];
        for (i, (a, p)) in args.iter().zip(&k.kparams).enumerate() {
            let bytes = a.to_le_bytes();
            if bytes.len() != p.size as usize {
                return Err(fail(format!(
                    "launch of `{kernel}`: argument {i} ({a:?}) has {} bytes, parameter `{}` has {}",
                    bytes.len(),
                    p.name,
                    p.size
                )));
            }
            pbuf[p.offset as usize..p.offset as usize + bytes.len()].copy_from_slice(&bytes);
        }
        let threads = cfg.block[0] as u64 * cfg.block[1] as u64 * cfg.block[2] as u64;
        if cfg.grid.contains(&0) || cfg.block.contains(&0) {
            return Err(fail(format!(
                "launch of `{kernel}`: grid {:?} / block {:?} has a zero dimension",
                cfg.grid, cfg.block
            )));
        }
        if threads > self.props.max_threads_per_block as u64
            || cfg.block[2] > 64
            || cfg.grid[1] > 65535
            || cfg.grid[2] > 65535
        {
            return Err(fail(format!(
                "launch of `{kernel}`: block {:?} / grid {:?} exceed the device's limits",
                cfg.block, cfg.grid
            )));
        }
        if let Some(r) = k.reqntid {
            if cfg.block != r {
                return Err(fail(format!(
                    "launch of `{kernel}`: block {:?} differs from the kernel's .reqntid {r:?}",
                    cfg.block
                )));
            }
        }
        if let Some(m) = k.maxntid {
            if threads > m[0] as u64 * m[1] as u64 * m[2] as u64 {
                return Err(fail(format!(
                    "launch of `{kernel}`: block {:?} has more threads than the kernel's .maxntid {m:?}",
                    cfg.block
                )));
            }
        }
        let shared = exec::shared_bytes(k, cfg.dynamic_shared_bytes) as u64;
        if shared > self.props.shared_bytes_per_block as u64 {
            return Err(fail(format!(
                "launch of `{kernel}`: {shared} bytes of shared memory (static {} + dynamic {}) exceed {}",
                k.shared_bytes, cfg.dynamic_shared_bytes, self.props.shared_bytes_per_block
            )));
        }
        let st = &mut *s;
        let r = exec::run_launch(
            &module,
            kidx,
            &cfg,
            &pbuf,
            &mut st.mem,
            &mut st.rng,
            st.profile.on,
        );
        st.stats.launches += 1;
        st.stats.sim_time += start.elapsed();
        match r {
            Ok((n, profile)) => {
                st.stats.instructions += n;
                st.profile.kernels.extend(profile);
                Ok(())
            }
            Err(e) => Err(fail(e)),
        }
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn end_call(&self, program: &str) {
        let mut s = self.lock();
        if !s.profile.on {
            return;
        }
        let (now, before) = (s.transfers, s.profile.transfers_before);
        let call = crate::profile::CallProfile {
            program: program.to_string(),
            kernels: std::mem::take(&mut s.profile.kernels),
            upload_bytes: now.upload_bytes - before.upload_bytes,
            download_bytes: now.download_bytes - before.download_bytes,
        };
        s.profile.transfers_before = now;
        if s.profile.print {
            eprint!("{}", call.table());
        }
        s.profile.last_call = Some(call);
    }

    fn as_sim(&self) -> Option<&SimDevice> {
        Some(self)
    }
}
