//! A device that may hold at most a given number of bytes at once
//! (`ACCEL_DEVICE_MEM_LIMIT`, [`crate::Backend::with_device_mem_limit`]): a
//! small GPU on a large one, or on the simulator, so that programs over
//! streamed sequences can be shown to run in bounded device memory, and
//! programs that need more to fail cleanly, on any machine.

use super::{Device, DeviceProps, DevicePtr, KernelArg, LaunchConfig, Transfers};
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// `inner` with at most `limit` bytes allocated at once; every other call
/// is passed through.
#[derive(Debug)]
pub struct MemLimited {
    inner: Arc<dyn Device>,
    limit: usize,
    held: Mutex<Held>,
}

/// The allocations made through the wrapper and their sizes.
#[derive(Debug, Default)]
struct Held {
    bytes: usize,
    sizes: HashMap<DevicePtr, usize>,
}

impl MemLimited {
    pub fn new(inner: Arc<dyn Device>, limit: usize) -> MemLimited {
        MemLimited {
            inner,
            limit,
            held: Mutex::new(Held::default()),
        }
    }

    /// The bytes allocated now.
    pub fn held_bytes(&self) -> usize {
        self.held().bytes
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // The table stays consistent whatever panicked while holding it.
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A size in bytes as `ACCEL_DEVICE_MEM_LIMIT` writes it: a whole number,
/// optionally followed by `K`, `M` or `G` (powers of 1024; `KiB`, `MiB`,
/// `GiB` and `KB`... are read the same). `None` when it is not one.
pub fn parse_bytes(s: &str) -> Option<usize> {
    let s = s.trim();
    let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (n, unit) = s.split_at(digits);
    let n: usize = n.parse().ok()?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return None,
    };
    n.checked_mul(1usize << shift)
}

impl Device for MemLimited {
    fn name(&self) -> String {
        format!("{} (memory limited to {} bytes)", self.inner.name(), self.limit)
    }
    fn props(&self) -> &DeviceProps {
        self.inner.props()
    }
    fn alloc(&self, bytes: usize) -> Result<DevicePtr> {
        // Held across the allocation, so that two threads cannot both pass
        // the check with room for one.
        let mut held = self.held();
        if held.bytes.checked_add(bytes).is_none_or(|b| b > self.limit) {
            return Err(Error::with_kind(
                ErrorKind::OutOfMemory,
                self.name(),
                format!(
                    "cannot allocate {bytes} bytes: {} of the {} allowed are in use (ACCEL_DEVICE_MEM_LIMIT)",
                    held.bytes, self.limit
                ),
            ));
        }
        let ptr = self.inner.alloc(bytes)?;
        held.bytes += bytes;
        held.sizes.insert(ptr, bytes);
        Ok(ptr)
    }
    fn free(&self, ptr: DevicePtr) {
        let mut held = self.held();
        if let Some(bytes) = held.sizes.remove(&ptr) {
            held.bytes -= bytes;
        }
        self.inner.free(ptr)
    }
    fn upload(&self, dst: DevicePtr, src: &[u8]) -> Result<()> {
        self.inner.upload(dst, src)
    }
    fn download(&self, src: DevicePtr, dst: &mut [u8]) -> Result<()> {
        self.inner.download(src, dst)
    }
    fn copy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize) -> Result<()> {
        self.inner.copy(dst, src, bytes)
    }
    fn memset(&self, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        self.inner.memset(dst, value, bytes)
    }
    fn launch(&self, ptx: &'static str, kernel: &str, cfg: LaunchConfig, args: &[KernelArg]) -> Result<()> {
        self.inner.launch(ptx, kernel, cfg, args)
    }
    fn synchronize(&self) -> Result<()> {
        self.inner.synchronize()
    }
    fn unload(&self, ptx: &'static str) -> Result<()> {
        self.inner.unload(ptx)
    }
    fn resident_blocks(
        &self,
        ptx: &'static str,
        kernel: &str,
        block: u32,
        dynamic_shared_bytes: u32,
    ) -> Result<u32> {
        self.inner
            .resident_blocks(ptx, kernel, block, dynamic_shared_bytes)
    }
    fn transfers(&self) -> Option<Transfers> {
        self.inner.transfers()
    }
    fn end_call(&self, program: &str) {
        self.inner.end_call(program)
    }
    fn mem_limit(&self) -> Option<usize> {
        Some(self.inner.mem_limit().map_or(self.limit, |l| l.min(self.limit)))
    }
    #[cfg(feature = "ptx-sim")]
    fn as_sim(&self) -> Option<&crate::ptx_sim::SimDevice> {
        self.inner.as_sim()
    }
}

#[cfg(all(test, feature = "ptx-sim"))]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("4096"), Some(4096));
        assert_eq!(parse_bytes(" 64K "), Some(64 << 10));
        assert_eq!(parse_bytes("512MiB"), Some(512 << 20));
        assert_eq!(parse_bytes("2g"), Some(2 << 30));
        for bad in ["", "K", "-1", "1.5G", "12 apples", "99999999999999999999G"] {
            assert_eq!(parse_bytes(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn allocations_past_the_limit_are_errors_and_frees_make_room() {
        let sim: Arc<dyn Device> = Arc::new(crate::ptx_sim::SimDevice::new(1));
        let dev = MemLimited::new(sim, 1000);
        let a = dev.alloc(600).expect("within the limit");
        let e = dev.alloc(600).expect_err("past the limit");
        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
        assert!(e.message().contains("600 of the 1000"), "{e}");
        let b = dev.alloc(400).expect("exactly up to the limit");
        assert_eq!(dev.held_bytes(), 1000);
        dev.free(a);
        assert_eq!(dev.held_bytes(), 400);
        let c = dev.alloc(600).expect("room again after a free");
        dev.free(b);
        dev.free(c);
        assert_eq!(dev.held_bytes(), 0);
        assert_eq!(dev.mem_limit(), Some(1000));
    }
}
