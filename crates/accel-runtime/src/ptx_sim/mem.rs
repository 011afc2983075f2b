//! Simulated global memory: allocations at distinct addresses in a 64-bit
//! space, with every access checked against the live allocations.

/// Generic addresses of the shared window: `cvta.shared` adds this.
pub const SHARED_WINDOW: u64 = 0x0000_7e00_0000_0000;
const FIRST_ADDRESS: u64 = 0x0000_0001_0000_0000;
/// Unused bytes between allocations, so that small overruns hit no allocation.
const GAP: u64 = 256;

pub struct Alloc {
    pub base: u64,
    pub data: Vec<u8>,
}

pub struct GlobalMem {
    /// Sorted by base (addresses only grow, so pushing keeps the order).
    allocs: Vec<Alloc>,
    next: u64,
    last: usize,
}

impl Default for GlobalMem {
    fn default() -> Self {
        Self::new()
    }
}

impl GlobalMem {
    pub fn new() -> GlobalMem {
        GlobalMem {
            allocs: Vec::new(),
            next: FIRST_ADDRESS,
            last: 0,
        }
    }

    pub fn alloc(&mut self, bytes: usize) -> Option<u64> {
        let base = self.next;
        let span = (bytes as u64).max(1).div_ceil(256) * 256 + GAP;
        self.next = base.checked_add(span).filter(|&n| n < SHARED_WINDOW)?;
        let mut data = Vec::new();
        data.try_reserve_exact(bytes).ok()?;
        // Fresh device memory is not zero on a GPU either.
        data.resize(bytes, 0xff);
        self.allocs.push(Alloc { base, data });
        Some(base)
    }

    pub fn free(&mut self, base: u64) {
        if let Ok(i) = self.allocs.binary_search_by_key(&base, |a| a.base) {
            self.allocs.remove(i);
            self.last = 0;
        }
    }

    fn find(&mut self, addr: u64, size: usize) -> Result<(usize, usize), String> {
        let ok = |a: &Alloc| addr >= a.base && addr - a.base + size as u64 <= a.data.len() as u64;
        if let Some(a) = self.allocs.get(self.last) {
            if ok(a) {
                return Ok((self.last, (addr - a.base) as usize));
            }
        }
        let i = self.allocs.partition_point(|a| a.base <= addr);
        if i > 0 && ok(&self.allocs[i - 1]) {
            self.last = i - 1;
            return Ok((i - 1, (addr - self.allocs[i - 1].base) as usize));
        }
        let near = if i > 0 {
            let a = &self.allocs[i - 1];
            format!(
                " (the nearest allocation below is {:#x}, {} bytes: offset {} from its start)",
                a.base,
                a.data.len(),
                addr - a.base
            )
        } else {
            String::new()
        };
        Err(format!(
            "global memory access of {size} bytes at {addr:#x} is outside every live allocation{near}"
        ))
    }

    pub fn slice(&mut self, addr: u64, size: usize) -> Result<&[u8], String> {
        let (i, o) = self.find(addr, size)?;
        Ok(&self.allocs[i].data[o..o + size])
    }

    pub fn slice_mut(&mut self, addr: u64, size: usize) -> Result<&mut [u8], String> {
        let (i, o) = self.find(addr, size)?;
        Ok(&mut self.allocs[i].data[o..o + size])
    }
}
