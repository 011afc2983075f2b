//! Breadth-first search, level by level, with the frontier expansion fused:
//! each level is one `expand` → `permute` kernel over the frontier's edges
//! (the expand fusion thesis's example). The graph is generated: `n` vertices
//! in compressed sparse rows, most with a few out-edges, a few hubs with many.
//! Checked against a sequential BFS at small sizes, then timed against the
//! program without fusion.
//!
//! `cargo run --release --example bfs [-- N]` (default 1,000,000 vertices).

use accel::prelude::*;

mod common;
#[path = "programs/bfs.rs"]
#[allow(dead_code)] // the default-backend entry point is unused here
#[macro_use]
mod program;

#[allow(dead_code)] // only `on` is used
mod unfused {
    bfs_program!(#![acc(fusion = false)]);
}

use common::{arg, fail, Rng, Samples};
use program::bfs_step;

const NAME: &str = "bfs";
const UNREACHED: u32 = u32::MAX;

/// A graph in compressed sparse rows: vertex `v`'s neighbours are
/// `edges[offsets[v]..offsets[v + 1]]`. Degrees: mostly 0–7, one vertex in
/// 500 a hub with up to 2,000 edges.
fn graph(n: usize, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = Rng(seed | 1);
    let mut offsets = vec![0u32];
    let mut edges = Vec::new();
    for _ in 0..n {
        let deg = if rng.below(500) == 0 {
            rng.below(2000)
        } else {
            rng.below(8)
        };
        for _ in 0..deg {
            edges.push(rng.below(n as u64) as u32);
        }
        offsets.push(edges.len() as u32);
    }
    (offsets, edges)
}

/// Sequential reference.
fn reference(offsets: &[u32], edges: &[u32], src: usize) -> Vec<u32> {
    let n = offsets.len() - 1;
    let mut dist = vec![UNREACHED; n];
    let mut queue = std::collections::VecDeque::new();
    if n > 0 {
        dist[src] = 0;
        queue.push_back(src);
    }
    while let Some(v) = queue.pop_front() {
        for &w in &edges[offsets[v] as usize..offsets[v + 1] as usize] {
            if dist[w as usize] == UNREACHED {
                dist[w as usize] = dist[v] + 1;
                queue.push_back(w as usize);
            }
        }
    }
    dist
}

/// BFS from `src`: one fused kernel per level; the next frontier is the
/// vertices that got the new level.
fn bfs(
    backend: &Backend,
    offsets: &Vector<u32>,
    edges: &Vector<u32>,
    src: usize,
    fused: bool,
) -> accel::Result<Vec<u32>> {
    let n = offsets.len() - 1;
    let mut dist = vec![UNREACHED; n];
    if n == 0 {
        return Ok(dist);
    }
    dist[src] = 0;
    let mut frontier = vec![src as u32];
    let mut level = 0u32;
    while !frontier.is_empty() {
        let (f, d) = (Vector::from(frontier), Vector::from(dist));
        let next = if fused {
            bfs_step::on(backend, &f, offsets, edges, &d, level)?
        } else {
            unfused::bfs_step::on(backend, &f, offsets, edges, &d, level)?
        };
        dist = next.to_vec();
        level += 1;
        frontier = (0..n as u32).filter(|&v| dist[v as usize] == level).collect();
    }
    Ok(dist)
}

fn main() -> accel::Result<()> {
    let n = arg(NAME, 1, 1_000_000)?;
    if n == 0 {
        return Err(fail(NAME, "the graph needs at least one vertex"));
    }
    let backend = Backend::default();
    for (sn, seed) in [(1, 1), (2, 2), (10, 3), (1000, 4), (50_000, 5)] {
        let (o, e) = graph(sn, seed);
        let want = reference(&o, &e, 0);
        let (o, e) = (Vector::from(o), Vector::from(e));
        for fused in [true, false] {
            if bfs(&backend, &o, &e, 0, fused)? != want {
                return Err(fail(
                    NAME,
                    format!("{sn} vertices: accel differs from the reference"),
                ));
            }
        }
    }
    println!("checked against the sequential reference");
    println!("{}", bfs_step::explain());
    let (o, e) = graph(n, 0x5EED);
    let edges_n = e.len();
    let (o, e) = (Vector::from(o), Vector::from(e));
    let runs = 5;
    let (mut fused, mut unfused) = (Samples::default(), Samples::default());
    let mut reached = 0;
    for _ in 0..runs {
        let a = fused.run(|| bfs(&backend, &o, &e, 0, true))?;
        let b = unfused.run(|| bfs(&backend, &o, &e, 0, false))?;
        if a != b {
            return Err(fail(NAME, "fused and unfused differ"));
        }
        reached = a.iter().filter(|&&d| d != UNREACHED).count();
    }
    println!(
        "BFS over {n} vertices, {edges_n} edges ({reached} reached) on backend `{}` ({} threads): \
         fused {:.2} ms, unfused {:.2} ms (median of {runs})",
        backend.name(),
        rayon::current_num_threads(),
        fused.median().as_secs_f64() * 1e3,
        unfused.median().as_secs_f64() * 1e3,
    );
    Ok(())
}
