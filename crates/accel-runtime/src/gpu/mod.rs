//! The device layer shared by the GPU back ends: the CUDA driver (`cuda`) and
//! the PTX simulator (`crate::ptx_sim`) both implement [`Device`], and the host
//! code that `accel-kernels` generates for a program's GPU path calls only this
//! interface, so the same generated code runs on a real GPU and on the simulator.
//!
//! Addresses are plain 64-bit device addresses, as in the CUDA driver API;
//! [`DeviceBuffer`] owns one allocation and frees it when dropped.

pub mod buffers;
#[cfg(feature = "cuda")]
pub mod cuda;
pub mod error_word;
pub mod launch;
pub mod limited;

use crate::error::Result;
use std::fmt;
use std::sync::Arc;

/// An address in device memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevicePtr(pub u64);

impl DevicePtr {
    /// The address `bytes` further on.
    pub fn offset(self, bytes: u64) -> DevicePtr {
        DevicePtr(self.0 + bytes)
    }
}

/// Grid and block sizes of a launch, and its dynamic shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Bytes of `.extern .shared` memory per block.
    pub dynamic_shared_bytes: u32,
}

/// One kernel argument, in the order of the kernel's `.param` list. Its size
/// must match the parameter's declared size (`U32` for `.u32`/`.s32`/`.b32`, and
/// so on); a device checks this and returns an error otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KernelArg {
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    Ptr(DevicePtr),
}

impl KernelArg {
    /// The argument's bytes, little-endian, as the driver passes them.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match *self {
            KernelArg::U8(v) => v.to_le_bytes().to_vec(),
            KernelArg::U16(v) => v.to_le_bytes().to_vec(),
            KernelArg::U32(v) => v.to_le_bytes().to_vec(),
            KernelArg::U64(v) => v.to_le_bytes().to_vec(),
            KernelArg::F32(v) => v.to_le_bytes().to_vec(),
            KernelArg::F64(v) => v.to_le_bytes().to_vec(),
            KernelArg::Ptr(p) => p.0.to_le_bytes().to_vec(),
        }
    }
}

/// What the host code needs to size launches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceProps {
    pub name: String,
    pub multiprocessors: u32,
    pub max_threads_per_block: u32,
    pub warp_size: u32,
    pub shared_bytes_per_block: u32,
}

/// Host↔device copies a device has made so far (for tests and reports: how
/// much data crossed the bus).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Transfers {
    /// Calls of `upload`, and the bytes they copied to the device.
    pub uploads: u64,
    pub upload_bytes: u64,
    /// Calls of `download`, and the bytes they copied to the host.
    pub downloads: u64,
    pub download_bytes: u64,
}

/// A GPU, real or simulated. Every failure (out of memory, a failed launch, a
/// bad argument, a lost driver) is an `Err`, never a panic.
pub trait Device: Send + Sync + fmt::Debug {
    /// For messages and `Backend::name`: `cuda:0 (NVIDIA H100)`, `ptx-sim`.
    fn name(&self) -> String;
    fn props(&self) -> &DeviceProps;
    /// `bytes` of uninitialised device memory. Zero bytes gives a valid, unique
    /// address that must not be read or written.
    fn alloc(&self, bytes: usize) -> Result<DevicePtr>;
    /// Gives back an allocation made by `alloc`.
    fn free(&self, ptr: DevicePtr);
    fn upload(&self, dst: DevicePtr, src: &[u8]) -> Result<()>;
    fn download(&self, src: DevicePtr, dst: &mut [u8]) -> Result<()>;
    /// Device-to-device copy of `bytes`.
    fn copy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize) -> Result<()>;
    /// Sets `bytes` bytes at `dst` to `value`.
    fn memset(&self, dst: DevicePtr, value: u8, bytes: usize) -> Result<()>;
    /// Launches `kernel` of the PTX module `ptx`. A module is loaded (parsed,
    /// JIT-compiled) the first time it is used and cached for the life of the
    /// device, keyed by the text's address and length: pass the program's
    /// `&'static str`. Work is ordered on one stream: a download after a launch
    /// sees its results.
    fn launch(&self, ptx: &'static str, kernel: &str, cfg: LaunchConfig, args: &[KernelArg]) -> Result<()>;
    /// Waits for all work queued so far.
    fn synchronize(&self) -> Result<()>;
    /// Unloads module `ptx`, for a program that will not run again (one
    /// compiled at run time, as the in-process tests do): a device keeps
    /// every module it loaded, and a driver's module load slows as they
    /// accumulate. Waits for the queued work first; a later launch loads the
    /// module again. Nothing to do where modules are cheap (the simulator).
    fn unload(&self, ptx: &'static str) -> Result<()> {
        let _ = ptx;
        Ok(())
    }
    /// How many blocks of `block` threads of `kernel` (with
    /// `dynamic_shared_bytes` each) one multiprocessor holds at once, from the
    /// kernel's register and shared-memory use where the device knows them (a
    /// GPU asks its driver); by default 8, a full multiprocessor of 256-thread
    /// blocks on every GPU from Volta on.
    fn resident_blocks(
        &self,
        ptx: &'static str,
        kernel: &str,
        block: u32,
        dynamic_shared_bytes: u32,
    ) -> Result<u32> {
        let _ = (ptx, kernel, block, dynamic_shared_bytes);
        Ok(8)
    }
    /// The most bytes this device lets a process hold at once, where it was
    /// limited (`ACCEL_DEVICE_MEM_LIMIT`, [`limited::MemLimited`]); `None`
    /// otherwise. Streamed sequences choose chunks that fit.
    fn mem_limit(&self) -> Option<usize> {
        None
    }
    /// The copies made so far, where the device counts them (the simulator
    /// does); `None` otherwise.
    fn transfers(&self) -> Option<Transfers> {
        None
    }
    /// A program call on this device has ended (its error word is dropped):
    /// a profiling simulator closes the call's profile here.
    fn end_call(&self, program: &str) {
        let _ = program;
    }
    /// The simulator behind this device, if it is one (for its profile).
    #[cfg(feature = "ptx-sim")]
    fn as_sim(&self) -> Option<&crate::ptx_sim::SimDevice> {
        None
    }
}

/// One device allocation, freed on drop.
#[derive(Debug)]
pub struct DeviceBuffer {
    device: Arc<dyn Device>,
    ptr: DevicePtr,
    bytes: usize,
}

impl DeviceBuffer {
    /// `bytes` bytes on `device`. The allocation is rounded up to whole
    /// 32-bit words: a kernel updates a byte atomically through the aligned
    /// word that holds it (`ptx::blocks::cas8`), which must be allocated.
    pub fn alloc(device: &Arc<dyn Device>, bytes: usize) -> Result<DeviceBuffer> {
        let words = bytes.checked_next_multiple_of(4).ok_or_else(|| {
            crate::Error::with_kind(
                crate::ErrorKind::OutOfMemory,
                "device allocation",
                "size overflows",
            )
        })?;
        let ptr = device.alloc(words)?;
        Ok(DeviceBuffer {
            device: device.clone(),
            ptr,
            bytes,
        })
    }

    pub fn ptr(&self) -> DevicePtr {
        self.ptr
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn device(&self) -> &Arc<dyn Device> {
        &self.device
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        self.device.free(self.ptr);
    }
}
