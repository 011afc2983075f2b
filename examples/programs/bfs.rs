//! One level of breadth-first search with a fused `expand` → `permute`,
//! shared by the example and the expand benchmark: every frontier vertex
//! expands to its out-edges (a graph in compressed sparse rows), and each
//! neighbour not yet reached gets the next level, by an atomic minimum.
//!
//! `bfs_program!()` instantiates the program; the benchmark instantiates it
//! again without fusion.

macro_rules! bfs_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// The distances after visiting the neighbours of `frontier`
            /// (vertices at distance `level`); unreached vertices hold
            /// `u32::MAX` (4294967295).
            pub fn bfs_step(
                frontier: &Vector<u32>,
                offsets: &Vector<u32>,
                edges: &Vector<u32>,
                dist: &Vector<u32>,
                level: u32,
            ) -> Vector<u32> {
                let nbrs = frontier.expand(
                    |v| offsets[[v as usize + 1]] - offsets[[v as usize]],
                    |v, k| edges[[(offsets[[v as usize]] + k) as usize]],
                );
                nbrs.map(|_| level + 1).permute(
                    dist,
                    |[j]| {
                        let w = nbrs[[j]] as usize;
                        if dist[[w]] == 4294967295u32 { Some([w]) } else { None }
                    },
                    |a, b| a.min(b),
                )
            }
        }
    };
}

bfs_program!();
