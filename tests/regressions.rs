//! Programs that once generated code rustc rejected, or wrong results.

use accel::prelude::*;

accel! {
    // A materialised Scalar read in a later kernel (rank-0 shapes once had no type).
    fn centred(xs: &Vector<f32>) -> Vector<f32> {
        let mean = xs.sum();
        let n = xs.len() as f32;
        xs.map(|x| x - mean.value() / n)
    }

    // The same computed array returned twice.
    fn twice(xs: &Vector<f32>) -> (Vector<f32>, Vector<f32>) {
        let ys = xs.map(|x| x + 1.0);
        (ys, ys)
    }

    // A scalar parameter passed by reference.
    fn scale(xs: &Vector<f32>, alpha: &f32) -> Vector<f32> {
        xs.map(|x| x * alpha)
    }

    // The fill value takes the element type of the result.
    fn zeros(xs: &Matrix<f32>) -> Matrix<f32> {
        fill(xs.shape(), 0.0)
    }

    // Arguments of a let-bound closure take its annotated parameter types.
    fn squares(xs: &Vector<f32>) -> Vector<f32> {
        let sq = |x: f32| x * x;
        xs.map(|x| sq(x) + sq(2.0))
    }

    // A scalar result computed from a reduction.
    fn total(xs: &Vector<i64>) -> i64 {
        xs.sum().value() * 2
    }

    // A value the same along a row, read through the transposed index
    // (`let`s inlined): once emitted as `{ .. }[1]` at the end of a block,
    // which rustc read as a statement and an array (random program rp1023).
    fn transposed_rows(n: usize) -> Matrix<i8> {
        generate([n, 2], |[_i, j]| j).map(|_x| -128i8).transpose()
    }
}

#[test]
fn regressions() -> accel::Result<()> {
    let xs = Vector::from(vec![1.0f32, 2.0, 3.0]);
    assert_eq!(centred(&xs)?.to_vec(), vec![-1.0, 0.0, 1.0]);
    let (a, b) = twice(&xs)?;
    assert_eq!(a, b);
    assert_eq!(a.to_vec(), vec![2.0, 3.0, 4.0]);
    assert_eq!(scale(&xs, &2.0)?.to_vec(), vec![2.0, 4.0, 6.0]);
    let m = Matrix::from_vec([2, 3], vec![1.0f32; 6])?;
    assert_eq!(zeros(&m)?.to_vec(), vec![0.0; 6]);
    assert_eq!(zeros(&m)?.shape(), [2, 3]);
    assert_eq!(squares(&xs)?.to_vec(), vec![5.0, 8.0, 13.0]);
    assert_eq!(total(&Vector::from(vec![1i64, 2, 3]))?, 12);
    for n in [0, 3] {
        let t = transposed_rows(n)?;
        assert_eq!((t.shape(), t.to_vec()), ([2, n], vec![-128i8; 2 * n]));
    }
    Ok(())
}

// Loops whose state swaps or rotates: the PTX back edge once assigned the
// state as sequential moves (`a = b; b = a`), losing a value (issue 21).
accel! {
    fn p_swap2(xs: &Vector<u32>) -> Vector<u32> {
        xs.map(|x| {
            let mut a: u32 = x;
            let mut b: u32 = 1;
            for _i in 0..3usize {
                let t = a;
                a = b;
                b = t;
            }
            a * 1000 + b
        })
    }

    fn swap_while(xs: &Vector<u32>) -> Vector<u32> {
        xs.map(|x| {
            let mut a: u32 = x;
            let mut b: u32 = 7;
            let mut n: u32 = x % 5;
            while n > 0 {
                let t = a;
                a = b;
                b = t;
                n -= 1;
            }
            a.wrapping_mul(31) ^ b
        })
    }

    fn rotate4(xs: &Vector<u32>) -> Vector<(u32, u32, u32, u32)> {
        xs.map(|x| {
            let (mut a, mut b, mut c, mut d): (u32, u32, u32, u32) = (x, 1, 2, 3);
            let mut k: u32 = 0;
            while k < x % 7 {
                let t = d;
                d = c;
                c = b;
                b = a;
                a = t;
                k += 1;
            }
            (a, b, c, d)
        })
    }

    // MD5's 64 rounds over one 16-word block per element (words derived from
    // the element), with the state rotating as the reference writes it.
    fn md5_block(xs: &Vector<u32>, ks: &Vector<u32>, ss: &Vector<u32>) -> Vector<(u32, u32, u32, u32)> {
        xs.map(|x| {
            let mut a: u32 = 0x67452301;
            let mut b: u32 = 0xefcdab89;
            let mut c: u32 = 0x98badcfe;
            let mut d: u32 = 0x10325476;
            for i in 0..64usize {
                let mut f: u32 = 0;
                let mut g: usize = 0;
                if i < 16 {
                    f = (b & c) | (!b & d);
                    g = i;
                } else if i < 32 {
                    f = (d & b) | (!d & c);
                    g = (5 * i + 1) % 16;
                } else if i < 48 {
                    f = b ^ c ^ d;
                    g = (3 * i + 5) % 16;
                } else {
                    f = c ^ (b | !d);
                    g = (7 * i) % 16;
                }
                let m = x.wrapping_mul(2 * g as u32 + 1).rotate_left(g as u32);
                let f2 = f.wrapping_add(a).wrapping_add(ks[[i]]).wrapping_add(m);
                a = d;
                d = c;
                c = b;
                b = b.wrapping_add(f2.rotate_left(ss[[i]]));
            }
            (
                a.wrapping_add(0x67452301),
                b.wrapping_add(0xefcdab89),
                c.wrapping_add(0x98badcfe),
                d.wrapping_add(0x10325476),
            )
        })
    }
}

/// The MD5 round constants and shifts (RFC 1321).
fn md5_tables() -> (Vec<u32>, Vec<u32>) {
    let ks = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32)
        .collect();
    let shifts = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]];
    let ss = (0..64).map(|i| shifts[i / 16][i % 4]).collect();
    (ks, ss)
}

fn md5_block_ref(x: u32, ks: &[u32], ss: &[u32]) -> (u32, u32, u32, u32) {
    let iv = [0x67452301u32, 0xefcdab89, 0x98badcfe, 0x10325476];
    let [mut a, mut b, mut c, mut d] = iv;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let m = x.wrapping_mul(2 * g as u32 + 1).rotate_left(g as u32);
        let f2 = f.wrapping_add(a).wrapping_add(ks[i]).wrapping_add(m);
        (a, d, c) = (d, c, b);
        b = b.wrapping_add(f2.rotate_left(ss[i]));
    }
    (
        a.wrapping_add(iv[0]),
        b.wrapping_add(iv[1]),
        c.wrapping_add(iv[2]),
        d.wrapping_add(iv[3]),
    )
}

#[test]
fn loop_state_swaps_and_rotates() -> accel::Result<()> {
    let xs: Vec<u32> = vec![0xA5A50F0F, 0, 1, 2, 3, 4, 5, 6, 13, u32::MAX, 0x8000_0000];
    let v = Vector::from(xs.clone());
    // 0xA5A50F0F swapped three times: the reproducer.
    assert_eq!(p_swap2(&v)?.to_vec()[0], 2779058935);
    let swap = |mut a: u32, mut b: u32, n: u32| {
        for _ in 0..n {
            std::mem::swap(&mut a, &mut b);
        }
        (a, b)
    };
    let want: Vec<u32> = xs
        .iter()
        .map(|&x| {
            let (a, b) = swap(x, 1, 3);
            a.wrapping_mul(1000).wrapping_add(b)
        })
        .collect();
    assert_eq!(p_swap2(&v)?.to_vec(), want);
    let want: Vec<u32> = xs
        .iter()
        .map(|&x| {
            let (a, b) = swap(x, 7, x % 5);
            a.wrapping_mul(31) ^ b
        })
        .collect();
    assert_eq!(swap_while(&v)?.to_vec(), want);
    let want: Vec<(u32, u32, u32, u32)> = xs
        .iter()
        .map(|&x| {
            let mut s = [x, 1, 2, 3];
            for _ in 0..x % 7 {
                s.rotate_right(1);
            }
            (s[0], s[1], s[2], s[3])
        })
        .collect();
    assert_eq!(rotate4(&v)?.to_vec(), want);
    let (ks, ss) = md5_tables();
    let want: Vec<_> = xs.iter().map(|&x| md5_block_ref(x, &ks, &ss)).collect();
    assert_eq!(
        md5_block(&v, &Vector::from(ks), &Vector::from(ss))?.to_vec(),
        want
    );
    Ok(())
}

// Errors come in program order on every backend: the GPU path once returned
// the empty reduction it checks on the host before the index error of an
// earlier kernel (found by tests/random_programs.rs).
accel! {
    fn error_order(xs: &Vector<i32>, e: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
        let ys = generate([xs.len() + 1], |[i]| xs[[i]]).scanl1(|a, b| a + b);
        (ys, e.fold1_all(|a, b| a + b))
    }
}

// A shape too large to allocate, after a kernel that failed: the kernel's
// error comes first.
accel! {
    fn error_order_extent(xs: &Vector<i32>, k: &usize, n: &usize) -> (Vector<i32>, Matrix<i32>) {
        let ys = generate([xs.len()], |[i]| xs[[i + k]]);
        (ys, generate([n, 4], |[i, j]| (i + j) as i32))
    }
}

// An array too large for memory is an error, not an abort.
accel! {
    fn too_large(xs: &Vector<f64>, n: &usize) -> Matrix<f64> {
        generate([n, xs.len()], |[i, j]| xs[[j]] * i as f64)
    }
}

#[test]
fn arrays_too_large_for_memory_are_errors() {
    let xs = Vector::from(vec![1.0; 1 << 20]);
    for b in [Backend::cpu(), Backend::ptx_sim().expect("the simulator")] {
        // 2^24 × 2^20 × 8 bytes: 128 TiB.
        let err = too_large::on(&b, &xs, &(1 << 24)).expect_err("too large");
        assert_eq!(err.kind(), accel::ErrorKind::OutOfMemory, "{b:?}: {err}");
        assert_eq!(
            too_large::on(&b, &xs, &2).expect("small enough").shape(),
            [2, 1 << 20],
            "{b:?}"
        );
    }
}

#[test]
fn errors_in_program_order() {
    let xs = Vector::from(vec![1, 2, 3]);
    let e = Vector::from(Vec::<i32>::new());
    for b in [Backend::cpu(), Backend::ptx_sim().expect("the simulator")] {
        let err = error_order::on(&b, &xs, &e).expect_err("an index out of bounds");
        assert_eq!(err.kind(), accel::ErrorKind::IndexOutOfBounds, "{b:?}: {err}");
        let err = error_order_extent::on(&b, &xs, &1, &usize::MAX).expect_err("an index out of bounds");
        assert_eq!(err.kind(), accel::ErrorKind::IndexOutOfBounds, "{b:?}: {err}");
        // Alone, the shape's error.
        let err = error_order_extent::on(&b, &xs, &0, &usize::MAX).expect_err("a shape too large");
        assert_eq!(err.kind(), accel::ErrorKind::ShapeMismatch, "{b:?}: {err}");
    }
}

// Run-time errors name the source position of the failing expression
// (`file:line:column`), on the CPU and on the GPU path alike (issue 21).
accel! {
    fn loc_read(xs: &Vector<i32>) -> Vector<i32> {
        generate([xs.len()], |[i]| 2 * xs[[i + 1]])
    }

    fn loc_backpermute(xs: &Vector<i32>) -> Vector<i32> {
        xs.map(|x| x + 1)
            .backpermute([xs.len()], |[i]| [i + 2])
    }

    fn loc_permute(xs: &Vector<i32>) -> Vector<i32> {
        let zeros = fill([xs.len()], 0);
        xs.permute(&zeros, |[i]| Some([i + 3]), |a, b| a + b)
    }

    fn loc_reshape(xs: &Vector<i32>) -> Matrix<i32> {
        xs.map(|x| x * 2).reshape([2, xs.len()])
    }

    fn loc_expand(xs: &Vector<i32>) -> Vector<i32> {
        xs.expand(|x| x - 10, |x, k| x + k)
    }

    // Inlined: the error is at the read in `loc_read`.
    fn loc_called(xs: &Vector<i32>) -> Vector<i32> {
        loc_read(&xs.map(|x| x - 1))
    }

    fn loc_fold1(xs: &Vector<i32>) -> Scalar<i32> {
        xs.fold1_all(|x, y| y + x)
    }
}

/// `file:line:column` of the one occurrence of `needle` in this file's source.
fn source_position(needle: &str) -> String {
    let all = include_str!("regressions.rs");
    // The programs: the source before this function (whose uses name the needles too).
    let src = &all[..all.find("fn source_position(").expect("this function")];
    let found: Vec<_> = src.match_indices(needle).collect();
    assert_eq!(found.len(), 1, "`{needle}` occurs once in the source");
    let before = &src[..found[0].0];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("{}:{line}:{column}", file!())
}

#[test]
fn errors_name_their_source_position() {
    let xs = Vector::from(vec![1, 2, 3]);
    let backends = [
        Backend::cpu(),
        Backend::ptx_sim().expect("the simulator is always available"),
    ];
    for b in &backends {
        let cases = [
            (
                loc_read::on(b, &xs).map(|_| ()),
                accel::ErrorKind::IndexOutOfBounds,
                "xs[[i + 1]]",
            ),
            (
                loc_called::on(b, &xs).map(|_| ()),
                accel::ErrorKind::IndexOutOfBounds,
                "xs[[i + 1]]",
            ),
            (
                loc_backpermute::on(b, &xs).map(|_| ()),
                accel::ErrorKind::IndexOutOfBounds,
                "backpermute([xs.len()]",
            ),
            (
                loc_permute::on(b, &xs).map(|_| ()),
                accel::ErrorKind::IndexOutOfBounds,
                "permute(&zeros",
            ),
            (
                loc_reshape::on(b, &xs).map(|_| ()),
                accel::ErrorKind::ShapeMismatch,
                "reshape([2, xs.len()])",
            ),
            (
                loc_expand::on(b, &xs).map(|_| ()),
                accel::ErrorKind::InvalidArgument,
                "expand(|x| x - 10",
            ),
        ];
        for (r, kind, needle) in cases {
            let err = r.expect_err(needle);
            assert_eq!(err.kind(), kind, "{b:?}: {err}");
            let want = source_position(needle);
            assert_eq!(err.location(), Some(want.as_str()), "{b:?}: {err}");
            assert!(err.to_string().contains(&format!(" at {want}: ")), "{b:?}: {err}");
        }
    }
    // An empty reduction: the CPU checks it in the generated code, the GPU
    // path in its launch (`gpu::launch`).
    for b in [Backend::cpu(), Backend::ptx_sim().expect("the simulator")] {
        let err = loc_fold1::on(&b, &Vector::from(Vec::<i32>::new())).expect_err("fold1_all");
        assert_eq!(err.kind(), accel::ErrorKind::EmptyReduction, "{b:?}: {err}");
        assert_eq!(
            err.location(),
            Some(source_position("fold1_all(|x, y| y + x)").as_str()),
            "{b:?}"
        );
    }
}

// Neighbour reads behind hand-written edge tests: the CPU code generator
// proves them from the `if` (`i >= 1`, `i + 1 < n`) and a comparison of `n`
// with the array's extent at kernel entry. A bound `n` larger than the array
// must still report the out-of-bounds read.
accel! {
    fn smooth_guarded(a: &Matrix<f32>, n: usize, m: usize) -> Matrix<f32> {
        generate([n, m], |[i, j]| {
            if i >= 1 && i + 1 < n && j > 0 && 1 + j < m {
                a[[i - 1, j]] + a[[i + 1, j]] + 2.0 * a[[i, j - 1]] + 3.0 * a[[i, 1 + j]]
            } else {
                a[[i, j]]
            }
        })
    }

    // `i + 1 < n` proves `i + 1`, not `i + 2`.
    fn reach_two(a: &Vector<i32>, n: usize) -> Vector<i32> {
        generate([n], |[i]| if i + 1 < n { a[[i + 2]] } else { 0 })
    }
}

// A read whose row is the same for every element (`wall[[t + 1, n]]`, `t`
// the host's loop counter, as Rodinia's pathfinder reads its next row): the
// row is compared with the extent once, before the kernel, and the kernel
// reads unchecked; a row past the end must still be reported.
accel! {
    fn rows_down(wall: &Matrix<i32>, steps: usize) -> Vector<i32> {
        let [_, cols] = wall.shape();
        let mut dst = generate([cols], |[n]| wall[[0, n]]);
        for t in 0..steps {
            dst = generate([cols], |[n]| {
                let mut m = dst[[n]];
                if n > 0 {
                    m = m.min(dst[[n - 1]]);
                }
                wall[[t + 1, n]] + m
            });
        }
        dst
    }

    fn row_at(wall: &Matrix<i32>, r: usize) -> Vector<i32> {
        generate([wall.shape()[1]], |[n]| wall[[r, n]] * 2)
    }
}

#[test]
fn reads_of_a_row_fixed_per_kernel() -> accel::Result<()> {
    for (rows, cols) in [(1, 1), (2, 3), (3, 1), (5, 17), (9, 40)] {
        let w = |i: usize, j: usize| ((i * 7 + j * 3) % 10) as i32;
        let wall = Matrix::from_fn([rows, cols], |[i, j]| w(i, j));
        let mut want: Vec<i32> = (0..cols).map(|j| w(0, j)).collect();
        for t in 0..rows - 1 {
            want = (0..cols)
                .map(|n| w(t + 1, n) + if n > 0 { want[n].min(want[n - 1]) } else { want[n] })
                .collect();
        }
        assert_eq!(rows_down(&wall, rows - 1)?.to_vec(), want, "{rows}x{cols}");
        let e = rows_down(&wall, rows).unwrap_err();
        assert_eq!(e.kind(), accel::ErrorKind::IndexOutOfBounds, "{rows}x{cols}: {e}");
        let last: Vec<i32> = (0..cols).map(|j| 2 * w(rows - 1, j)).collect();
        assert_eq!(row_at(&wall, rows - 1)?.to_vec(), last);
        for r in [rows, rows + 5, usize::MAX] {
            let e = row_at(&wall, r).unwrap_err();
            assert_eq!(
                e.kind(),
                accel::ErrorKind::IndexOutOfBounds,
                "row {r} of {rows}: {e}"
            );
        }
    }
    // No element, no read: nothing to report.
    let empty = Matrix::from_fn([3, 0], |_| 0);
    assert_eq!(row_at(&empty, 7)?.len(), 0);
    Ok(())
}

// A permute's index and value functions read other arrays at the source's
// own index (`keys[[i]]`, `ws[[i, j]]`): unchecked when the host finds the
// source's space inside those arrays, checked (and reported) otherwise.
accel! {
    fn bin_weights(keys: &Vector<usize>, ws: &Vector<i64>, bins: usize) -> Vector<i64> {
        ws.map(|w| w * 2).permute(&fill([bins], 0i64), |[i]| Some([keys[[i]] % bins]), |new, old| new + old)
    }

    fn pairs_below(m: &Matrix<u32>, rows: usize) -> Vector<u32> {
        let [_, c] = m.shape();
        generate([rows, c], |[i, j]| m[[i, j]]).permute(&fill([8], 0u32), |[i, j]| if m[[i, j]] % 3 == 0 { None } else { Some([(m[[i, j]] as usize + i) % 8]) }, |new, old| new + old)
    }
}

#[test]
fn permute_reads_at_the_source_index() -> accel::Result<()> {
    for n in [0usize, 1, 5, 300, 20_000] {
        let keys: Vec<usize> = (0..n).map(|i| (i * 7919) % 1000).collect();
        let ws: Vec<i64> = (0..n as i64).map(|i| i % 17 - 8).collect();
        let bins = 13;
        let mut want = vec![0i64; bins];
        for (k, w) in keys.iter().zip(&ws) {
            want[k % bins] += 2 * w;
        }
        let kv = Vector::from(keys.clone());
        assert_eq!(
            bin_weights(&kv, &Vector::from(ws.clone()), bins)?.to_vec(),
            want,
            "n = {n}"
        );
        // More weights than keys: the read past the keys' end is reported.
        let more = Vector::from([ws.clone(), vec![1]].concat());
        let e = bin_weights(&kv, &more, bins).unwrap_err();
        assert_eq!(e.kind(), accel::ErrorKind::IndexOutOfBounds, "n = {n}: {e}");
    }
    for (r, c) in [(1, 1), (3, 7), (40, 600)] {
        let m = Matrix::from_fn([r, c], |[i, j]| ((i * 31 + j * 17) % 50) as u32);
        let mut want = vec![0u32; 8];
        for i in 0..r {
            for j in 0..c {
                let x = ((i * 31 + j * 17) % 50) as u32;
                if x % 3 != 0 {
                    want[(x as usize + i) % 8] += x;
                }
            }
        }
        assert_eq!(pairs_below(&m, r)?.to_vec(), want, "{r}x{c}");
        let e = pairs_below(&m, r + 1).unwrap_err();
        assert_eq!(e.kind(), accel::ErrorKind::IndexOutOfBounds, "{r}x{c}: {e}");
    }
    Ok(())
}

#[test]
fn guarded_neighbour_reads() -> accel::Result<()> {
    for (r, c) in [(0, 0), (1, 1), (1, 5), (2, 2), (3, 3), (4, 7), (9, 5), (17, 33)] {
        let a = Matrix::from_fn([r, c], |[i, j]| (i * 31 + j * 7) as f32);
        let at = |i: usize, j: usize| (i * 31 + j * 7) as f32;
        let want: Vec<f32> = (0..r * c)
            .map(|k| {
                let (i, j) = (k / c, k % c);
                if i >= 1 && i + 1 < r && j > 0 && j + 1 < c {
                    at(i - 1, j) + at(i + 1, j) + 2.0 * at(i, j - 1) + 3.0 * at(i, j + 1)
                } else {
                    at(i, j)
                }
            })
            .collect();
        assert_eq!(smooth_guarded(&a, r, c)?.to_vec(), want, "{r}x{c}");
        // A bound past the array: the edge test no longer keeps reads inside.
        if c > 0 {
            let e = smooth_guarded(&a, r + 1, c).unwrap_err();
            assert_eq!(e.kind(), accel::ErrorKind::IndexOutOfBounds, "{r}x{c}: {e}");
        }
    }
    let xs = Vector::from((0..6).collect::<Vec<i32>>());
    assert_eq!(reach_two(&xs, 4)?.to_vec(), vec![2, 3, 4, 0]);
    let e = reach_two(&xs, 6).unwrap_err();
    assert_eq!(e.kind(), accel::ErrorKind::IndexOutOfBounds);
    Ok(())
}
