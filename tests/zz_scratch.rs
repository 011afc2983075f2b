#![allow(unexpected_cfgs, dead_code)]
mod common;
use accel::prelude::*;
use common::*;

#[acc]
fn scan_err(xs: &Vector<i32>, ys: &Vector<i32>) -> (Vector<i32>, Vector<i32>, Scalar<i32>, Vector<i32>) {
    (xs.scanl1(|a, b| a + b + ys[[5]] * 0), xs.scanr1(|a, b| a + b + ys[[5]] * 0), xs.fold1(|a, b| a + b + ys[[5]] * 0), xs.scanl(0, |a, b| a + b + ys[[5]] * 0))
}

#[acc]
fn top_unused(xs: &Vector<i32>, k: usize) -> Vector<i32> {
    let _v = xs[[k]];
    xs.map(|x| x + 1)
}

#[acc]
fn top_unused_min(xs: &Vector<i32>) -> Vector<i32> {
    let _m = xs.minimum();
    xs.map(|x| x + 1)
}

#[acc]
fn stmts(xs: &Vector<i32>) -> Vector<(i32, i32, u8)> {
    xs.map(|x| {
        let mut y = 0;
        if x > 0 { y = 1; }
        let mut z = 0;
        if x > 100 { z = 3; } else if x < -100 { z = -3; y += 10; } else { z = x; }
        let (mut a, mut b) = (x, 7);
        let mut i = 0;
        while i < 4 {
            let mut j = 0;
            while j < i { a ^= b << j; j += 1; }
            b = b * 3 + 1;
            i += 1;
        }
        (y + z, a + b, x as u8 as i32 as u8)
    })
}

#[acc]
fn search(xs: &Vector<i32>, targets: &Vector<i32>) -> Vector<usize> {
    let n = xs.len();
    targets.map(|t| {
        let mut i = 0usize;
        while i < n && xs[[i]] != t { i += 1; }
        i
    })
}

#[acc]
fn literal_forms(xs: &Vector<u32>) -> Vector<(u32, u32, f32, i64, f64)> {
    xs.map(|x| (x & 0xFF, x | 0b1010, -1.0f32.abs(), -(x as i64) - -1, 1e40 * 0.0 + (x as f64) * 1_000.5))
}

#[acc]
fn tuple_reads(ps: &Vector<(u8, (i16, f32))>, idx: &Vector<usize>) -> Vector<(i16, f32)> {
    idx.map(|i| { let p = ps[[i]]; ((p.1).0 + p.0 as i16, ps[[i]].1 .1) })
}

#[acc]
fn unzip_nested(ps: &Vector<(u8, (i16, f32))>) -> (Vector<u8>, Vector<(i16, f32)>) {
    ps.unzip()
}

#[test]
fn probes() {
    let one = Vector::from(vec![3i32]);
    let e = Vector::<i32>::from(vec![]);
    check(scan_err::SOURCE, "scan_err", &[arg(&one), arg(&e)], scan_err(&one, &e), EXACT).ok();
    println!("scan_err ok");
    let xs = Vector::from(vec![1i32, 2, 3]);
    for k in [0usize, 5] {
        let r = std::panic::catch_unwind(|| check(top_unused::SOURCE, "top_unused", &[arg(&xs), arg(k)], top_unused(&xs, k), EXACT).ok());
        println!("top_unused {k} {}", r.is_ok());
    }
    let r = std::panic::catch_unwind(|| check(top_unused_min::SOURCE, "top_unused_min", &[arg(&e)], top_unused_min(&e), EXACT).ok());
    println!("top_unused_min {}", r.is_ok());
    let v = Vector::from(vec![0i32, 5, 101, -101, -5, 1000, i32::MIN]);
    check_ok(stmts::SOURCE, "stmts", &[arg(&v)], stmts(&v), EXACT);
    let t = Vector::from(vec![5i32, 7, 0]);
    check_ok(search::SOURCE, "search", &[arg(&v), arg(&t)], search(&v, &t), EXACT);
    let u = Vector::from(vec![0u32, 0x1234, u32::MAX]);
    check_ok(literal_forms::SOURCE, "literal_forms", &[arg(&u)], literal_forms(&u), EXACT);
    let ps = Vector::from(vec![(1u8, (2i16, 3.5f32)), (200, (-7, -1.0))]);
    let idx = Vector::from(vec![1usize, 0, 1]);
    check_ok(tuple_reads::SOURCE, "tuple_reads", &[arg(&ps), arg(&idx)], tuple_reads(&ps, &idx), EXACT);
    check_ok(unzip_nested::SOURCE, "unzip_nested", &[arg(&ps)], unzip_nested(&ps), EXACT);
    println!("done");
}
