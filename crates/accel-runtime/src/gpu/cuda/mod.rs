//! The CUDA back end: a thin layer over the driver API (through cudarc, loaded
//! at run time), implementing [`Device`].
//!
//! * One context per device (the device's primary context, shared with any
//!   other library in the process) and one stream: every operation is queued
//!   on it in call order, so a download after a launch sees its results.
//! * Memory is allocated stream-ordered (`cuMemAllocAsync`/`cuMemFreeAsync`)
//!   from the device's default memory pool, which keeps freed memory for reuse
//!   instead of returning it to the driver at every synchronisation; devices
//!   without memory pools fall back to `cuMemAlloc`/`cuMemFree`.
//! * A PTX module is JIT-compiled by the driver on first use and cached, with
//!   its kernels' handles, for the life of the device, keyed by the text's
//!   address and length.
//! * Uploads and downloads wait for their copy to finish (the host slice is
//!   only borrowed for the call); device copies, memsets and launches are
//!   queued and return at once.
//! * Every driver error is an `accel::Error`: `CUDA_ERROR_OUT_OF_MEMORY` is
//!   `ErrorKind::OutOfMemory`, everything else `ErrorKind::DeviceFailure`, with
//!   the operation and the driver's error name.
//!
//! Nothing in this module touches the driver before [`probe`] has found it.

mod driver_call;
mod probe;
mod ptx_params;

pub use probe::{device, probe, Probe, MIN_DRIVER_VERSION};

use super::{Device, DeviceProps, DevicePtr, KernelArg, LaunchConfig};
use crate::error::{Error, ErrorKind, Result};
use cudarc::driver::{result, sys, CudaContext, CudaStream, DriverError};
use driver_call::guarded;
use std::collections::hash_map::{Entry, HashMap};
use std::ffi::{c_void, CStr, CString};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Zero-byte allocations get addresses from here on: real device addresses lie
/// far below (GPU and host virtual addresses use at most 57 bits), so these
/// never collide with one, and `free` recognises them.
const EMPTY_BASE: u64 = 1 << 63;

/// Dynamic shared memory a kernel may use without opting in to more.
const DEFAULT_DYNAMIC_SHARED_LIMIT: u32 = 48 * 1024;

/// Bytes kept for the JIT's error log.
const JIT_LOG_BYTES: usize = 16 * 1024;

/// A CUDA device: its context, its stream and its loaded modules.
pub struct CudaDevice {
    ordinal: usize,
    label: String,
    props: DeviceProps,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// The default memory pool, when the device supports stream-ordered
    /// allocation.
    pool: Option<MemPool>,
    modules: Mutex<HashMap<(usize, usize), Module>>,
    next_empty: AtomicU64,
    /// The first error of a `free` (which cannot return one), reported by the
    /// next `synchronize`.
    deferred: Mutex<Option<Error>>,
}

/// A kernel's resources and the block size the driver's occupancy calculator
/// suggests for it: what the host code needs to size a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelResources {
    /// Registers per thread.
    pub registers: u32,
    /// Bytes of statically declared `.shared` memory per block.
    pub static_shared_bytes: u32,
    /// The largest block this kernel can be launched with on this device (its
    /// register use can make this smaller than the device's limit).
    pub max_threads_per_block: u32,
    /// The block size with the highest occupancy (`cuOccupancyMaxPotentialBlockSize`).
    pub suggested_block: u32,
    /// The smallest grid that reaches that occupancy on the whole device.
    pub min_grid_for_full_occupancy: u32,
}

struct MemPool(sys::CUmemoryPool);

// SAFETY: a memory pool handle is a process-wide driver object; the driver
// API may be called with it from any thread.
unsafe impl Send for MemPool {}
// SAFETY: as above; the pool is only passed to thread-safe driver calls.
unsafe impl Sync for MemPool {}

/// A loaded module and the kernels looked up in it so far.
struct Module {
    handle: sys::CUmodule,
    /// The PTX text with comments (for the parameter lists).
    ptx: &'static str,
    kernels: HashMap<String, Kernel>,
}

#[derive(Clone)]
struct Kernel {
    func: sys::CUfunction,
    /// Byte size of each parameter, from the PTX `.entry` declaration.
    params: Arc<[usize]>,
    /// Blocks per multiprocessor by (block size, dynamic shared bytes), asked
    /// of the driver once each.
    resident: Arc<Mutex<HashMap<(u32, u32), u32>>>,
}

// SAFETY: module and function handles belong to the context, not to a thread;
// every use binds the context first, and the map holding them is behind a mutex.
unsafe impl Send for Module {}

impl CudaDevice {
    /// Opens device `n`: retains its primary context and creates the stream.
    /// Call only after [`probe`] found device `n` (see [`device`]).
    fn open(n: usize) -> Result<CudaDevice> {
        guarded(n, "open device", || {
            let ctx = CudaContext::new(n)?;
            let stream = ctx.new_stream()?;
            let attr = |a| ctx.attribute(a).map(|v| v.max(0) as u32);
            use sys::CUdevice_attribute as A;
            let props = DeviceProps {
                name: ctx.name()?,
                multiprocessors: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
                max_threads_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
                warp_size: attr(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
                shared_bytes_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
            };
            let pool = if ctx.has_async_alloc() {
                // SAFETY: the device handle comes from a live context.
                let pool = unsafe { result::device::get_default_mem_pool(ctx.cu_device()) }?;
                let mut keep_all = u64::MAX;
                // SAFETY: the pool is valid and the release threshold is a
                // `cuuint64_t`, which `keep_all` is; the driver copies it.
                unsafe {
                    result::mem_pool::set_attribute(
                        pool,
                        sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                        &mut keep_all as *mut u64 as *mut c_void,
                    )
                }?;
                Some(MemPool(pool))
            } else {
                None
            };
            Ok(CudaDevice {
                ordinal: n,
                label: format!("cuda:{n} ({})", props.name),
                props,
                ctx,
                stream,
                pool,
                modules: Mutex::new(HashMap::new()),
                next_empty: AtomicU64::new(0),
                deferred: Mutex::new(None),
            })
        })
    }

    /// The device's ordinal (`n` of `cuda:n`).
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// Whether allocations are stream-ordered from the default memory pool.
    pub fn uses_memory_pool(&self) -> bool {
        self.pool.is_some()
    }

    /// Registers, static shared memory and the occupancy-optimal block size of
    /// kernel `kernel` in module `ptx` (loaded if needed), for launches with
    /// `dynamic_shared_bytes` of dynamic shared memory per block. Use
    /// `suggested_block` as the block size of a grid-stride kernel and at least
    /// `min_grid_for_full_occupancy` blocks to fill the device.
    pub fn kernel_resources(
        &self,
        ptx: &'static str,
        kernel: &str,
        dynamic_shared_bytes: u32,
    ) -> Result<KernelResources> {
        let k = self.kernel(ptx, kernel)?;
        self.call("kernel_resources", || {
            use sys::CUfunction_attribute as F;
            // SAFETY: `k.func` is a handle of a module that stays loaded while
            // the device lives; the attribute queries only read it.
            let attr =
                |a| unsafe { result::function::get_function_attribute(k.func, a) }.map(|v| v.max(0) as u32);
            // SAFETY: as above; no block-size-to-shared-memory callback is passed.
            let (min_grid, block) = unsafe {
                result::occupancy::max_potential_block_size(k.func, None, dynamic_shared_bytes as usize, 0)
            }?;
            Ok(KernelResources {
                registers: attr(F::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
                static_shared_bytes: attr(F::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
                max_threads_per_block: attr(F::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
                suggested_block: block.max(0) as u32,
                min_grid_for_full_occupancy: min_grid.max(0) as u32,
            })
        })
    }

    /// Runs driver calls `f` for operation `op` with this device's context
    /// current on the calling thread.
    fn call<T>(&self, op: &str, f: impl FnOnce() -> Result<T, DriverError>) -> Result<T> {
        guarded(self.ordinal, op, || {
            self.ctx.bind_to_thread()?;
            f()
        })
    }

    fn cu_stream(&self) -> sys::CUstream {
        self.stream.cu_stream()
    }

    fn is_empty_alloc(ptr: DevicePtr) -> bool {
        ptr.0 >= EMPTY_BASE
    }

    /// An error unless `bytes` may be accessed at `ptr`: the address of a
    /// zero-byte allocation holds nothing.
    fn check_access(&self, op: &str, ptr: DevicePtr, bytes: usize) -> Result<()> {
        if Self::is_empty_alloc(ptr) {
            return Err(Error::with_kind(
                ErrorKind::InvalidArgument,
                format!("cuda:{}: {op}", self.ordinal),
                format!(
                    "{bytes} bytes at {:#x}, the address of a zero-byte allocation",
                    ptr.0
                ),
            ));
        }
        Ok(())
    }

    fn modules(&self) -> MutexGuard<'_, HashMap<(usize, usize), Module>> {
        self.modules
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Kernel `name` of module `ptx`, loading the module on first use.
    fn kernel(&self, ptx: &'static str, name: &str) -> Result<Kernel> {
        let key = (ptx.as_ptr() as usize, ptx.len());
        if !self.modules().contains_key(&key) {
            // JIT-compile without the lock: other threads keep launching the
            // modules they have (one module's JIT takes milliseconds).
            let handle = self.load_module(ptx)?;
            if let Entry::Vacant(slot) = self.modules().entry(key) {
                slot.insert(Module {
                    handle,
                    ptx,
                    kernels: HashMap::new(),
                });
            } else {
                // Another thread loaded it meanwhile: keep one copy.
                // SAFETY: `handle` was just loaded and nothing launched from it.
                let _ = self.call("unload PTX module", || unsafe { result::module::unload(handle) });
            }
        }
        let mut modules = self.modules();
        let Some(module) = modules.get_mut(&key) else {
            return Err(Error::with_kind(
                ErrorKind::DeviceFailure,
                format!("cuda:{}: launch of kernel `{name}`", self.ordinal),
                "the module was unloaded while it was being loaded",
            ));
        };
        if let Some(k) = module.kernels.get(name) {
            return Ok(k.clone());
        }
        let op = format!("launch of kernel `{name}`");
        let c_name = CString::new(name).map_err(|_| {
            Error::new(
                format!("cuda:{}: {op}", self.ordinal),
                "the kernel name contains a NUL byte",
            )
        })?;
        let handle = module.handle;
        // SAFETY: `handle` is a loaded module of this context; the name is a
        // valid C string, copied by the driver.
        let func = self.call(&op, || unsafe { result::module::get_function(handle, c_name) })?;
        let params = ptx_params::entry_param_sizes(module.ptx, name).ok_or_else(|| {
            Error::with_kind(
                ErrorKind::DeviceFailure,
                format!("cuda:{}: {op}", self.ordinal),
                "the kernel's `.param` list could not be read from the PTX text",
            )
        })?;
        let k = Kernel {
            func,
            params: params.into(),
            resident: Arc::default(),
        };
        module.kernels.insert(name.to_string(), k.clone());
        Ok(k)
    }

    /// JIT-compiles `ptx`; a rejected module's error names the driver error
    /// and carries the JIT's log.
    fn load_module(&self, ptx: &str) -> Result<sys::CUmodule> {
        let op = "load PTX module";
        let text = CString::new(ptx).map_err(|_| {
            Error::with_kind(
                ErrorKind::InvalidArgument,
                format!("cuda:{}: {op}", self.ordinal),
                "the PTX text contains a NUL byte",
            )
        })?;
        let mut log = vec![0u8; JIT_LOG_BYTES];
        let mut options = [
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        // The driver takes option values as pointer-sized slots: the buffer's
        // address, and its size as an integer in a pointer.
        let mut values = [log.as_mut_ptr() as *mut c_void, JIT_LOG_BYTES as *mut c_void];
        let mut module: sys::CUmodule = std::ptr::null_mut();
        let loaded = self.call(op, || {
            // SAFETY: `text` is NUL-terminated PTX; `options` and `values` have
            // the same length, and the log buffer is `JIT_LOG_BYTES` long and
            // outlives the call; `module` is a valid place for the result.
            unsafe {
                sys::cuModuleLoadDataEx(
                    &mut module,
                    text.as_ptr() as *const c_void,
                    options.len() as u32,
                    options.as_mut_ptr(),
                    values.as_mut_ptr(),
                )
            }
            .result()
        });
        match loaded {
            Ok(()) => Ok(module),
            Err(mut e) => {
                let log = CStr::from_bytes_until_nul(&log)
                    .map(|c| c.to_string_lossy().trim().to_string())
                    .unwrap_or_default();
                if !log.is_empty() {
                    e = Error::with_kind(e.kind(), e.op(), format!("{}; JIT log:\n{log}", e.message()));
                }
                Err(e)
            }
        }
    }

    fn defer(&self, e: Error) {
        let mut deferred = self
            .deferred
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        deferred.get_or_insert(e);
    }
}

impl Device for CudaDevice {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn props(&self) -> &DeviceProps {
        &self.props
    }

    fn alloc(&self, bytes: usize) -> Result<DevicePtr> {
        if bytes == 0 {
            let n = self.next_empty.fetch_add(1, Ordering::Relaxed);
            return Ok(DevicePtr(EMPTY_BASE + n * 256));
        }
        let stream = self.cu_stream();
        let op = "alloc";
        let ptr = match &self.pool {
            Some(pool) => {
                // SAFETY: the stream belongs to this context; the memory is
                // returned uninitialised, which `Device::alloc` promises.
                let first = self.call(op, || unsafe { result::malloc_async(stream, bytes) });
                match first {
                    Err(e) if e.kind() == ErrorKind::OutOfMemory => {
                        // Memory freed on the stream may still sit in the pool
                        // waiting for earlier work: wait, give it back, retry.
                        self.call(op, || {
                            self.stream.synchronize()?;
                            // SAFETY: the pool handle is valid for the device's life.
                            unsafe { result::mem_pool::trim_to(pool.0, 0) }?;
                            // SAFETY: as for the first attempt.
                            unsafe { result::malloc_async(stream, bytes) }
                        })
                    }
                    other => other,
                }
            }
            // SAFETY: the context is current; the memory is uninitialised.
            None => self.call(op, || unsafe { result::malloc_sync(bytes) }),
        };
        ptr.map(DevicePtr)
            .map_err(|e| Error::with_kind(e.kind(), format!("{} of {bytes} bytes", e.op()), e.message()))
    }

    fn free(&self, ptr: DevicePtr) {
        if Self::is_empty_alloc(ptr) {
            return;
        }
        let stream = self.cu_stream();
        let freed = match &self.pool {
            // SAFETY: `ptr` came from `alloc` on this stream (the caller's
            // contract); the free is ordered after all work queued before it.
            Some(_) => self.call("free", || unsafe { result::free_async(ptr.0, stream) }),
            None => self.call("free", || {
                // `cuMemFree` is not ordered on our stream: wait for the work
                // that may still use the memory.
                self.stream.synchronize()?;
                // SAFETY: `ptr` came from `cuMemAlloc` and no queued work uses it.
                unsafe { result::free_sync(ptr.0) }
            }),
        };
        if let Err(e) = freed {
            self.defer(e);
        }
    }

    fn upload(&self, dst: DevicePtr, src: &[u8]) -> Result<()> {
        if src.is_empty() {
            return Ok(());
        }
        self.check_access("upload", dst, src.len())?;
        let stream = self.cu_stream();
        self.call("upload", || {
            // SAFETY: `src` is valid for reading its length and stays borrowed
            // until the stream has finished the copy (synchronised below); the
            // caller guarantees `dst` holds `src.len()` bytes.
            unsafe { result::memcpy_htod_async(dst.0, src, stream) }?;
            // The driver does not promise to have read pageable memory when an
            // async copy returns (it may stage it later), and `src` may be
            // freed as soon as we return: wait for the copy.
            self.stream.synchronize()
        })
    }

    fn download(&self, src: DevicePtr, dst: &mut [u8]) -> Result<()> {
        if dst.is_empty() {
            return Ok(());
        }
        self.check_access("download", src, dst.len())?;
        let stream = self.cu_stream();
        self.call("download", || {
            // SAFETY: `dst` is valid for writing its length and stays borrowed
            // until the stream has finished the copy (synchronised below).
            unsafe { result::memcpy_dtoh_async(dst, src.0, stream) }?;
            self.stream.synchronize()
        })
    }

    fn copy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_access("copy", dst, bytes)?;
        self.check_access("copy", src, bytes)?;
        let stream = self.cu_stream();
        // SAFETY: device-to-device on our stream; the caller guarantees both
        // ranges lie in live allocations.
        self.call("copy", || unsafe {
            result::memcpy_dtod_async(dst.0, src.0, bytes, stream)
        })
    }

    fn memset(&self, dst: DevicePtr, value: u8, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.check_access("memset", dst, bytes)?;
        let stream = self.cu_stream();
        // SAFETY: on our stream; the caller guarantees the range is allocated.
        self.call("memset", || unsafe {
            result::memset_d8_async(dst.0, value, bytes, stream)
        })
    }

    fn launch(&self, ptx: &'static str, kernel: &str, cfg: LaunchConfig, args: &[KernelArg]) -> Result<()> {
        let k = self.kernel(ptx, kernel)?;
        let op = || format!("cuda:{}: launch of kernel `{kernel}`", self.ordinal);
        if args.len() != k.params.len() {
            return Err(Error::new(
                op(),
                format!(
                    "{} arguments given, the kernel declares {} parameters",
                    args.len(),
                    k.params.len()
                ),
            ));
        }
        // Each argument in its own 8-byte slot, in the host's byte order (the
        // driver reads each parameter's declared size from its slot's start).
        let mut slots = Vec::with_capacity(args.len());
        for (i, (arg, &size)) in args.iter().zip(k.params.iter()).enumerate() {
            let (bytes, len) = native_bytes(arg);
            if len != size {
                return Err(Error::new(
                    op(),
                    format!(
                        "argument {i} is {arg:?} ({len} bytes), the kernel's parameter {i} has {size} bytes"
                    ),
                ));
            }
            slots.push(bytes);
        }
        let mut pointers: Vec<*mut c_void> = slots
            .iter_mut()
            .map(|s| s as *mut [u8; 8] as *mut c_void)
            .collect();
        let stream = self.cu_stream();
        self.call(&format!("launch of kernel `{kernel}`"), || {
            if cfg.dynamic_shared_bytes > DEFAULT_DYNAMIC_SHARED_LIMIT {
                // More than the default needs the kernel's opt-in (up to the
                // device's opt-in maximum; the driver rejects more).
                // SAFETY: `k.func` is a live kernel handle; this sets one of its
                // attributes, which the driver validates.
                unsafe {
                    result::function::set_function_attribute(
                        k.func,
                        sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        cfg.dynamic_shared_bytes.min(i32::MAX as u32) as i32,
                    )
                }?;
            }
            // SAFETY: `k.func` is a kernel of a module loaded in this context;
            // `pointers` holds one pointer per declared parameter, each to at
            // least as many bytes as the parameter has (checked above), and the
            // driver copies the values before returning. The kernel's memory
            // accesses are the caller's responsibility (the `Device` contract).
            unsafe {
                result::launch_kernel(
                    k.func,
                    (cfg.grid[0], cfg.grid[1], cfg.grid[2]),
                    (cfg.block[0], cfg.block[1], cfg.block[2]),
                    cfg.dynamic_shared_bytes,
                    stream,
                    &mut pointers,
                )
            }
        })
    }

    fn resident_blocks(
        &self,
        ptx: &'static str,
        kernel: &str,
        block: u32,
        dynamic_shared_bytes: u32,
    ) -> Result<u32> {
        let k = self.kernel(ptx, kernel)?;
        let mut cache = k.resident.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(&n) = cache.get(&(block, dynamic_shared_bytes)) {
            return Ok(n);
        }
        let block_size = i32::try_from(block).unwrap_or(i32::MAX);
        // SAFETY: `k.func` is a kernel of a module loaded in this context; the
        // query only reads its attributes.
        let n = self.call(&format!("occupancy of kernel `{kernel}`"), || unsafe {
            result::occupancy::max_active_block_per_multiprocessor(
                k.func,
                block_size,
                dynamic_shared_bytes as usize,
            )
        })?;
        let n = n.max(1) as u32;
        cache.insert((block, dynamic_shared_bytes), n);
        Ok(n)
    }

    fn unload(&self, ptx: &'static str) -> Result<()> {
        let key = (ptx.as_ptr() as usize, ptx.len());
        let Some(module) = self.modules().remove(&key) else {
            return Ok(());
        };
        self.call("unload PTX module", || {
            self.stream.synchronize()?;
            // SAFETY: the module is out of the cache, so no new launch uses
            // it, and the work queued from it has finished.
            unsafe { result::module::unload(module.handle) }
        })
    }

    fn synchronize(&self) -> Result<()> {
        self.call("synchronize", || self.stream.synchronize())?;
        let deferred = self
            .deferred
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        match deferred {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// An argument's value in the first bytes of an 8-byte slot, and its size.
fn native_bytes(arg: &KernelArg) -> ([u8; 8], usize) {
    fn slot<const N: usize>(b: [u8; N]) -> ([u8; 8], usize) {
        let mut s = [0u8; 8];
        s[..N].copy_from_slice(&b);
        (s, N)
    }
    match *arg {
        KernelArg::U8(v) => slot(v.to_ne_bytes()),
        KernelArg::U16(v) => slot(v.to_ne_bytes()),
        KernelArg::U32(v) => slot(v.to_ne_bytes()),
        KernelArg::U64(v) => slot(v.to_ne_bytes()),
        KernelArg::F32(v) => slot(v.to_ne_bytes()),
        KernelArg::F64(v) => slot(v.to_ne_bytes()),
        KernelArg::Ptr(p) => slot(p.0.to_ne_bytes()),
    }
}

impl fmt::Debug for CudaDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CudaDevice")
            .field("name", &self.label)
            .field("props", &self.props)
            .field("memory_pool", &self.pool.is_some())
            .finish_non_exhaustive()
    }
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        // Errors cannot be reported from here; the context is released by
        // cudarc after this.
        let modules = std::mem::take(
            self.modules
                .get_mut()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        let _ = self.call("drop", || {
            self.stream.synchronize()?;
            for (_, m) in modules {
                // SAFETY: each module was loaded once and is unloaded once; no
                // work using it is pending after the synchronisation.
                unsafe { result::module::unload(m.handle) }?;
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests;
