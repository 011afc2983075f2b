//! How a profiling simulator counts (the data is [`crate::profile`]'s).
//!
//! The simulator runs every thread on its own (see `exec`), so a warp's
//! instruction is rebuilt afterwards: the threads of one warp that execute
//! the same instruction for the same `k`-th time form one warp-level
//! instruction, as they would on a GPU whose warp stays converged. Its
//! memory accesses are one request; the 32-byte sectors they touch, the
//! shared-memory banks, and the lanes taking part give the counters.

use crate::profile::{KernelProfile, Pipe};
use std::collections::{HashMap, HashSet};

/// One warp-level instruction being rebuilt from its threads.
#[derive(Default)]
struct Group {
    lanes: u32,
    pipe: Option<Pipe>,
    bar: bool,
    /// (address, bytes) of each thread's access; global or shared per `pipe`.
    accesses: Vec<(u64, u32)>,
    /// The lane of each access, in the same order.
    access_lanes: Vec<u32>,
    store: bool,
    /// An atomic on global memory (not shared).
    global_atomic: bool,
    /// A poll of a flag another block sets (`ld.volatile`): how many a
    /// warp issues depends on the order the simulator runs blocks in, so
    /// they are left out of the warp's own time.
    poll: bool,
}

/// The warp instructions of one block in flight.
#[derive(Default)]
pub(super) struct BlockCounters {
    on: bool,
    /// (thread << 32 | pc) → times the thread has executed pc.
    seen: HashMap<u64, u32>,
    /// (occurrence, warp, pc) → the group.
    groups: HashMap<(u32, u32, u32), Group>,
    /// The lane of the thread that issued last: its accesses follow.
    lane: u32,
}

/// Where an access went.
pub(super) enum Mem {
    Global { store: bool },
    Shared,
    GlobalAtomic,
    SharedAtomic,
}

impl BlockCounters {
    pub(super) fn new(on: bool) -> BlockCounters {
        BlockCounters {
            on,
            ..BlockCounters::default()
        }
    }

    pub(super) fn on(&self) -> bool {
        self.on
    }

    /// Thread `t` issues the instruction at `pc`; returns the group's key.
    pub(super) fn issue(&mut self, t: u32, pc: u32, pipe: Pipe, bar: bool, poll: bool) -> (u32, u32, u32) {
        let n = self.seen.entry((t as u64) << 32 | pc as u64).or_insert(0);
        let key = (*n, t / 32, pc);
        *n += 1;
        self.lane = t % 32;
        let g = self.groups.entry(key).or_default();
        g.lanes += 1;
        g.pipe.get_or_insert(pipe);
        g.bar |= bar;
        g.poll |= poll;
        key
    }

    /// The instruction of group `key` accessed `bytes` at `addr`.
    pub(super) fn access(&mut self, key: (u32, u32, u32), mem: Mem, addr: u64, bytes: u32) {
        let g = self.groups.entry(key).or_default();
        let pipe = match mem {
            Mem::Global { store } => {
                g.store = store;
                Pipe::Global
            }
            Mem::Shared => Pipe::Shared,
            Mem::GlobalAtomic => {
                g.global_atomic = true;
                Pipe::Atomic
            }
            Mem::SharedAtomic => Pipe::Atomic,
        };
        g.pipe = Some(pipe);
        g.accesses.push((addr, bytes));
        g.access_lanes.push(self.lane);
    }
}

/// The counters of one launch, filled as its blocks retire.
pub(super) struct LaunchCounters {
    pub profile: KernelProfile,
    read: HashSet<u64>,
    written: HashSet<u64>,
    atomic_addresses: HashMap<u64, u64>,
}

impl LaunchCounters {
    pub(super) fn new(kernel: &str, grid: [u32; 3], block: [u32; 3]) -> LaunchCounters {
        LaunchCounters {
            profile: KernelProfile {
                kernel: kernel.to_string(),
                grid,
                block,
                ..KernelProfile::default()
            },
            read: HashSet::new(),
            written: HashSet::new(),
            atomic_addresses: HashMap::new(),
        }
    }

    /// Folds a finished block's warp instructions into the launch.
    pub(super) fn retire(&mut self, b: &mut BlockCounters) {
        let p = &mut self.profile;
        // Per warp of the block: instructions, global load requests.
        let mut per_warp: HashMap<u32, (u64, u64)> = HashMap::new();
        for ((_, warp, _), g) in b.groups.drain() {
            let pipe = g.pipe.unwrap_or(Pipe::Alu);
            let w = per_warp.entry(warp).or_default();
            if !g.poll {
                w.0 += 1;
                if pipe == Pipe::Global && !g.store && !g.accesses.is_empty() {
                    w.1 += 1;
                }
            }
            p.warp_instructions += 1;
            p.thread_instructions += g.lanes as u64;
            p.mix[pipe as usize] += 1;
            if g.bar {
                p.barriers += 1;
            }
            if g.accesses.is_empty() {
                continue;
            }
            match pipe {
                Pipe::Global => {
                    let sectors = sectors(&g.accesses);
                    let distinct = distinct_bytes(&g.accesses);
                    p.bytes_requested += g.accesses.iter().map(|a| a.1 as u64).sum::<u64>();
                    p.ideal_sectors += distinct.div_ceil(32);
                    let set = if g.store {
                        p.store_requests += 1;
                        p.store_sectors += sectors.len() as u64;
                        &mut self.written
                    } else {
                        p.load_requests += 1;
                        p.load_sectors += sectors.len() as u64;
                        &mut self.read
                    };
                    set.extend(sectors);
                }
                Pipe::Shared => {
                    p.shared_requests += 1;
                    p.bank_conflicts += bank_conflicts(&g.accesses, &g.access_lanes);
                }
                Pipe::Atomic => {
                    p.atomics += g.accesses.len() as u64;
                    if g.global_atomic {
                        p.global_atomics += g.accesses.len() as u64;
                        for &(a, _) in &g.accesses {
                            *self.atomic_addresses.entry(a).or_insert(0) += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        for (inst, loads) in per_warp.into_values() {
            p.longest_warp_instructions = p.longest_warp_instructions.max(inst);
            p.longest_warp_loads = p.longest_warp_loads.max(loads);
        }
        b.seen.clear();
    }

    pub(super) fn finish(mut self) -> KernelProfile {
        self.profile.dram_read_bytes = self.read.len() as u64 * 32;
        self.profile.dram_write_bytes = self.written.len() as u64 * 32;
        self.profile.hottest_atomic_address = self.atomic_addresses.values().copied().max().unwrap_or(0);
        self.profile
    }
}

/// The distinct 32-byte sectors of a request.
fn sectors(accesses: &[(u64, u32)]) -> Vec<u64> {
    let mut s: Vec<u64> = accesses
        .iter()
        .flat_map(|&(a, n)| a / 32..=(a + n.max(1) as u64 - 1) / 32)
        .collect();
    s.sort_unstable();
    s.dedup();
    s
}

/// The bytes a request touches, each counted once.
fn distinct_bytes(accesses: &[(u64, u32)]) -> u64 {
    let mut r: Vec<(u64, u64)> = accesses.iter().map(|&(a, n)| (a, a + n as u64)).collect();
    r.sort_unstable();
    let (mut total, mut end) = (0u64, 0u64);
    for (a, b) in r {
        let a = a.max(end);
        if b > a {
            total += b - a;
            end = b;
        }
    }
    total
}

/// Extra wavefronts of a shared-memory request: 32 banks of 4-byte words;
/// a wavefront serves one distinct word per bank (threads reading the same
/// word share it), and a request needs at least one per 128 distinct bytes.
/// Wider accesses that touch more than 128 distinct bytes are served 128
/// bytes of lanes at a time: a half-warp for 8 bytes, a quarter for 16,
/// each group's conflicts its own (two lanes of one half-warp in one bank
/// conflict, lanes of different halves do not). The H200 counted these:
/// canny's look-back scan of 8-byte counts, staged with a slot of padding
/// per 32, had 2 extra wavefronts per access where a whole-warp count found
/// none (docs/gpu.md, 2026-11-30).
fn bank_conflicts(accesses: &[(u64, u32)], lanes: &[u32]) -> u64 {
    let words_of = |lane_in: &dyn Fn(u32) -> bool| {
        let mut words: Vec<u64> = accesses
            .iter()
            .zip(lanes)
            .filter(|(_, &lane)| lane_in(lane))
            .flat_map(|(&(a, n), _)| a / 4..=(a + n.max(1) as u64 - 1) / 4)
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    };
    let wavefronts = |words: &[u64]| {
        let mut per_bank = [0u64; 32];
        for w in words {
            per_bank[(w % 32) as usize] += 1;
        }
        per_bank.iter().copied().max().unwrap_or(0)
    };
    let all = words_of(&|_| true);
    let ideal = (all.len() as u64 * 4).div_ceil(128).max(1);
    let widest = accesses.iter().map(|a| a.1).max().unwrap_or(4).clamp(4, 16);
    let needed = if widest == 4 || ideal == 1 {
        wavefronts(&all)
    } else {
        let per_group = 128 / widest;
        (0..32 / per_group)
            .map(|g| wavefronts(&words_of(&|lane| lane / per_group == g)))
            .sum()
    };
    needed.saturating_sub(ideal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coalescing_counts_sectors() {
        // 32 lanes reading consecutive f32: 128 bytes, 4 sectors.
        let unit: Vec<(u64, u32)> = (0..32).map(|i| (256 + 4 * i, 4)).collect();
        assert_eq!(sectors(&unit).len(), 4);
        assert_eq!(distinct_bytes(&unit), 128);
        // Stride of 32 f32: a sector per lane.
        let strided: Vec<(u64, u32)> = (0..32).map(|i| (256 + 128 * i, 4)).collect();
        assert_eq!(sectors(&strided).len(), 32);
        assert_eq!(distinct_bytes(&strided), 128);
        // Every lane on the same word: one sector.
        let same: Vec<(u64, u32)> = (0..32).map(|_| (260, 4)).collect();
        assert_eq!(sectors(&same).len(), 1);
        assert_eq!(distinct_bytes(&same), 4);
    }

    #[test]
    fn bank_conflicts_follow_the_banks() {
        let lanes: Vec<u32> = (0..32).collect();
        let unit: Vec<(u64, u32)> = (0..32).map(|i| (4 * i, 4)).collect();
        assert_eq!(bank_conflicts(&unit, &lanes), 0);
        // f64 per lane: two wavefronts are the ideal, not a conflict.
        let wide: Vec<(u64, u32)> = (0..32).map(|i| (8 * i, 8)).collect();
        assert_eq!(bank_conflicts(&wide, &lanes), 0);
        // A column of a 32-wide f32 tile: every lane in bank 0.
        let column: Vec<(u64, u32)> = (0..32).map(|i| (128 * i, 4)).collect();
        assert_eq!(bank_conflicts(&column, &lanes), 31);
        // Broadcast: one word for all lanes.
        let broadcast: Vec<(u64, u32)> = (0..32).map(|_| (64, 4)).collect();
        assert_eq!(bank_conflicts(&broadcast, &lanes), 0);
        let broadcast: Vec<(u64, u32)> = (0..32).map(|_| (64, 8)).collect();
        assert_eq!(bank_conflicts(&broadcast, &lanes), 0);
        // 8-byte slots 8 apart with a slot of padding per 32 (a staged
        // tile, 8 positions per thread): 16 distinct bank pairs over the
        // warp, but two lanes per pair within each half-warp.
        let slot = |o: u64| 8 * (o + o / 32);
        let staged32: Vec<(u64, u32)> = (0..32).map(|t| (slot(8 * t), 8)).collect();
        assert_eq!(bank_conflicts(&staged32, &lanes), 2);
        // A slot of padding per 16: each half-warp's lanes in distinct pairs.
        let slot = |o: u64| 8 * (o + o / 16);
        let staged16: Vec<(u64, u32)> = (0..32).map(|t| (slot(8 * t), 8)).collect();
        assert_eq!(bank_conflicts(&staged16, &lanes), 0);
    }
}
