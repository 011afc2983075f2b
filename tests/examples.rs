//! Every example program (`examples/programs/*.rs`) at a small size, compiled
//! and run on the default backend (`ACCEL_BACKEND`: the CPU, or the GPU path on
//! the PTX simulator in CI), compared with the reference interpreter: integers
//! exactly, floats within `F32_TOL` (summation order and the GPU math library
//! may differ in the last bits). The inputs are fixed pseudo-random data.

mod common;

use accel::prelude::*;
use common::*;

#[path = "../examples/programs/bfs.rs"]
mod bfs_p;
#[path = "../examples/programs/black_scholes.rs"]
mod black_scholes_p;
#[path = "../examples/programs/canny.rs"]
mod canny_p;
#[path = "../examples/programs/dotp.rs"]
mod dotp_p;
#[path = "../examples/programs/fluid.rs"]
mod fluid_p;
#[path = "../examples/programs/histogram.rs"]
mod histogram_p;
#[path = "../examples/programs/kmeans.rs"]
mod kmeans_p;
#[path = "../examples/programs/mandelbrot.rs"]
mod mandelbrot_p;
#[path = "../examples/programs/nbody.rs"]
mod nbody_p;
#[path = "../examples/programs/radix_sort.rs"]
mod radix_sort_p;
#[path = "../examples/programs/sieve.rs"]
mod sieve_p;
#[path = "../examples/programs/spmv.rs"]
mod spmv_p;

/// A pseudo-random f32 in `lo..hi` from `hash(i)`.
fn unit(i: usize, lo: f32, hi: f32) -> f32 {
    lo + (hash(i) >> 40) as f32 / (1u64 << 24) as f32 * (hi - lo)
}

#[test]
fn black_scholes() {
    use black_scholes_p::black_scholes;
    let opts = Vector::from(
        (0..300)
            .map(|i| {
                (
                    unit(3 * i, 5.0, 30.0),
                    unit(3 * i + 1, 1.0, 100.0),
                    unit(3 * i + 2, 0.25, 10.0),
                )
            })
            .collect::<Vec<_>>(),
    );
    let (r, v) = (0.02f32, 0.3f32);
    check_ok(
        black_scholes::SOURCE,
        "black_scholes",
        &[arg(&opts), arg(r), arg(v)],
        black_scholes(&opts, r, v),
        F32_TOL,
    );
}

#[test]
fn canny() {
    use canny_p::canny;
    let (h, w) = (7, 9);
    let img = Matrix::from_vec([h, w], (0..h * w).map(|i| hash(i) as u32).collect()).expect("shape");
    check_ok(
        canny::SOURCE,
        "canny",
        &[arg(&img), arg(0.1f32), arg(0.3f32)],
        canny(&img, 0.1, 0.3),
        F32_TOL,
    );
}

#[test]
fn dotp() {
    use dotp_p::dotp;
    for n in [0, 1, 31, 1000, 5000] {
        let xs = Vector::from((0..n).map(|i| unit(i, -1.0, 1.0)).collect::<Vec<_>>());
        let ys = Vector::from((0..n).map(|i| unit(i + 7777, -1.0, 1.0)).collect::<Vec<_>>());
        check_ok(
            dotp::SOURCE,
            "dotp",
            &[arg(&xs), arg(&ys)],
            dotp(&xs, &ys),
            F32_TOL,
        );
    }
}

#[test]
fn fluid() {
    use fluid_p::fluid_step;
    let n = 10;
    let m = |s: usize| {
        Matrix::from_vec([n, n], (0..n * n).map(|i| unit(i + s, 0.0, 1.0)).collect()).expect("shape")
    };
    let (d, u, v) = (m(0), m(1000), m(2000));
    let args = [
        arg(&d),
        arg(&u),
        arg(&v),
        arg(0.1f32),
        arg(0.001f32),
        arg(0.001f32),
        arg(4usize),
    ];
    check_ok(
        fluid_step::SOURCE,
        "fluid_step",
        &args,
        fluid_step(&d, &u, &v, 0.1, 0.001, 0.001, 4),
        F32_TOL,
    );
}

#[test]
fn histogram() {
    use histogram_p::histogram;
    let xs = Vector::from((0..3000).map(|i| hash(i) as u32).collect::<Vec<_>>());
    for bins in [1, 17, 256] {
        check_ok(
            histogram::SOURCE,
            "histogram",
            &[arg(&xs), arg(bins)],
            histogram(&xs, bins),
            EXACT,
        );
    }
}

#[test]
fn kmeans() {
    use kmeans_p::kmeans;
    let points = Vector::from(
        (0..400)
            .map(|i| (unit(2 * i, 0.0, 10.0), unit(2 * i + 1, 0.0, 10.0)))
            .collect::<Vec<_>>(),
    );
    let initial = Vector::from(vec![(1.0f32, 1.0f32), (8.0, 2.0), (5.0, 5.0), (2.0, 9.0)]);
    check_ok(
        kmeans::SOURCE,
        "kmeans",
        &[arg(&points), arg(&initial), arg(3usize)],
        kmeans(&points, &initial, 3),
        F32_TOL,
    );
}

#[test]
fn mandelbrot() {
    use mandelbrot_p::{mandelbrot_unrolled, mandelbrot_while};
    let (w, h, limit) = (24usize, 16usize, 64u32);
    let (x0, y0, dx, dy) = (-2.0f32, -1.2f32, 3.0 / 24.0, 2.4 / 16.0);
    let args = [arg(w), arg(h), arg(limit), arg(x0), arg(y0), arg(dx), arg(dy)];
    check_ok(
        mandelbrot_while::SOURCE,
        "mandelbrot_while",
        &args,
        mandelbrot_while(w, h, limit, x0, y0, dx, dy),
        EXACT,
    );
    check_ok(
        mandelbrot_unrolled::SOURCE,
        "mandelbrot_unrolled",
        &args,
        mandelbrot_unrolled(w, h, limit, x0, y0, dx, dy),
        EXACT,
    );
}

#[test]
fn nbody() {
    use nbody_p::nbody_step;
    let n = 50;
    let v3 = |s: usize| {
        Vector::from(
            (0..n)
                .map(|i| {
                    (
                        unit(3 * i + s, -1.0, 1.0),
                        unit(3 * i + s + 1, -1.0, 1.0),
                        unit(3 * i + s + 2, -1.0, 1.0),
                    )
                })
                .collect::<Vec<_>>(),
        )
    };
    let (pos, vel) = (v3(0), v3(10_000));
    let mass = Vector::from((0..n).map(|i| unit(i + 20_000, 0.5, 2.0)).collect::<Vec<_>>());
    let args = [arg(&pos), arg(&vel), arg(&mass), arg(0.01f32), arg(0.01f32)];
    check_ok(
        nbody_step::SOURCE,
        "nbody_step",
        &args,
        nbody_step(&pos, &vel, &mass, 0.01, 0.01),
        F32_TOL,
    );
}

#[test]
fn radix_sort() {
    use radix_sort_p::sort_keys;
    for n in [0, 1, 100, 300] {
        let xs = Vector::from((0..n).map(|i| hash(i) as i32).collect::<Vec<_>>());
        check_ok(sort_keys::SOURCE, "sort_keys", &[arg(&xs)], sort_keys(&xs), EXACT);
    }
}

#[test]
fn spmv() {
    use spmv_p::spmv;
    let (rows, ncols) = (40usize, 60usize);
    let mut offsets = vec![0u32];
    for r in 0..rows {
        let len = (hash(r) % 7) as u32;
        offsets.push(offsets[r] + len);
    }
    let nnz = offsets[rows] as usize;
    let cols = Vector::from(
        (0..nnz)
            .map(|i| (hash(i + 500) % ncols as u64) as u32)
            .collect::<Vec<_>>(),
    );
    let vals = Vector::from((0..nnz).map(|i| unit(i + 900, -2.0, 2.0)).collect::<Vec<_>>());
    let x = Vector::from((0..ncols).map(|i| unit(i + 1300, -1.0, 1.0)).collect::<Vec<_>>());
    let offsets = Vector::from(offsets);
    check_ok(
        spmv::SOURCE,
        "spmv",
        &[arg(&offsets), arg(&cols), arg(&vals), arg(&x)],
        spmv(&offsets, &cols, &vals, &x),
        F32_TOL,
    );
}

#[test]
fn sieve() {
    use sieve_p::sieve;
    // Divisors 2..=√n (composites included, as the example passes them),
    // and n just above and below a square.
    for n in [0usize, 1, 2, 48, 50, 1000] {
        let ps = Vector::from(
            (2..)
                .take_while(|p: &u64| p * p <= n as u64)
                .collect::<Vec<u64>>(),
        );
        check_ok(sieve::SOURCE, "sieve", &[arg(&ps), arg(n)], sieve(&ps, n), EXACT);
    }
}

#[test]
fn bfs() {
    use bfs_p::bfs_step;
    // A random graph of 200 vertices in compressed sparse rows, 0 to 5 edges
    // each; one step from a frontier of every third vertex.
    let n = 200usize;
    let mut offsets = vec![0u32];
    let mut edges = Vec::new();
    for v in 0..n {
        for e in 0..hash(v) % 6 {
            edges.push((hash(7 * v + e as usize + 1) % n as u64) as u32);
        }
        offsets.push(edges.len() as u32);
    }
    let frontier: Vec<u32> = (0..n as u32).step_by(3).collect();
    let dist: Vec<u32> = (0..n).map(|v| if v % 3 == 0 { 0 } else { u32::MAX }).collect();
    let (frontier, offsets, edges, dist) = (
        Vector::from(frontier),
        Vector::from(offsets),
        Vector::from(edges),
        Vector::from(dist),
    );
    check_ok(
        bfs_step::SOURCE,
        "bfs_step",
        &[arg(&frontier), arg(&offsets), arg(&edges), arg(&dist), arg(0u32)],
        bfs_step(&frontier, &offsets, &edges, &dist, 0),
        EXACT,
    );
}

#[path = "../examples/programs/md5.rs"]
mod md5_p;

/// The MD5 search over a stream of messages: RFC 1321's test messages and
/// words of the generated dictionary, against the `md-5` crate, and the
/// interpreter; a digest that is not there gives `u64::MAX`.
#[test]
fn md5_search() {
    use md5::{Digest, Md5};
    use md5_p::*;
    let mut messages: Vec<Vec<u8>> = ["", "a", "abc", "message digest", "abcdefghijklmnopqrstuvwxyz"]
        .iter()
        .map(|m| m.as_bytes().to_vec())
        .collect();
    for i in [0, 25, 26, 675, 676, 123_456] {
        let mut buf = [0u8; 16];
        let n = dictionary_word(i, &mut buf);
        messages.push(buf[..n].to_vec());
    }
    let blocks: Vec<Vector<u32>> = messages
        .iter()
        .map(|m| {
            let mut out = [0u32; 16];
            md5_block(m, &mut out);
            Vector::from(out.to_vec())
        })
        .collect();
    let k = Vector::from(ROUND_CONSTANTS.to_vec());
    // RFC 1321, appendix A.5: MD5("abc").
    let abc: [u8; 16] = [
        0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0, 0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72,
    ];
    assert_eq!(<[u8; 16]>::from(Md5::digest(b"abc")), abc);
    // The first of equal messages ("a" is also word 0) is found.
    let first = |m: &Vec<u8>| {
        messages
            .iter()
            .position(|x| x == m)
            .map_or(u64::MAX, |i| i as u64)
    };
    for msg in messages.iter().cloned().chain([b"absent".to_vec()]) {
        let want = first(&msg);
        let digest: [u8; 16] = Md5::digest(&msg).into();
        let target = Vector::from(digest_words(&digest).to_vec());
        let r = accel::with_chunk_len(3, || md5_search(blocks.clone(), &target, &k));
        let args = [seq_arg(&blocks), arg(&target), arg(&k)];
        let found = r.as_ref().map(|x| x.value()).ok();
        check_ok(md5_search::SOURCE, "md5_search", &args, r, EXACT);
        assert_eq!(found, Some(want), "{:?}", String::from_utf8_lossy(&msg));
    }
}
