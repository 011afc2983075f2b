//! k-means clustering of 2-D points (Lloyd's algorithm), shared by the example
//! and the benchmarks. Each iteration assigns every point to its nearest
//! centroid (a scalar `for` loop over the centroids inside a `map`), adds the
//! points of each cluster with a `permute`, and divides. The iterations are an
//! array-level `for` loop whose state is the centroids.
//!
//! `kmeans_program!()` instantiates the program; the benchmarks instantiate it
//! again under other compiler settings (no fusion, no sharing).

macro_rules! kmeans_program {
    ($($settings:tt)*) => {
        #[allow(unused_imports)] // the types are in scope also when a program fails to compile
        use accel::prelude::*;
        accel::accel! {
            $($settings)*

            /// One iteration: the centroids of the clusters of the current
            /// centroids (an empty cluster keeps its centroid).
            fn kmeans_step(points: &Vector<(f32, f32)>, centroids: &Vector<(f32, f32)>) -> Vector<(f32, f32)> {
                let k = centroids.len();
                let nearest = points.map(|p| {
                    let mut best: usize = 0;
                    let mut best_d = f32::INFINITY;
                    for c in 0..k {
                        let (cx, cy) = centroids[[c]];
                        let dx = p.0 - cx;
                        let dy = p.1 - cy;
                        let d = dx * dx + dy * dy;
                        if d < best_d {
                            best_d = d;
                            best = c;
                        }
                    }
                    best
                });
                let sums = points.map(|p| (p.0 as f64, p.1 as f64, 1u32)).permute(
                    &fill([k], (0.0f64, 0.0f64, 0u32)),
                    |[i]| Some([nearest[[i]]]),
                    |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2),
                );
                sums.zip_with(centroids, |s, c| {
                    if s.2 > 0 {
                        ((s.0 / s.2 as f64) as f32, (s.1 / s.2 as f64) as f32)
                    } else {
                        c
                    }
                })
            }

            /// The centroids after `iters` iterations from `initial`.
            pub fn kmeans(points: &Vector<(f32, f32)>, initial: &Vector<(f32, f32)>, iters: usize) -> Vector<(f32, f32)> {
                let mut cs = initial.map(|c| c);
                for _ in 0..iters {
                    cs = kmeans_step(points, &cs);
                }
                cs
            }
        }
    };
}

kmeans_program!();
