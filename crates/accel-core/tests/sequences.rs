//! The pass `sequences`: folds of sequences become loops, one per sequence.
//! The interpreter runs both the front end's program (sequences as lists)
//! and the lowered one (loops): they must agree.

use accel_core::{front, interp, seq};
use accel_types::dynamic::{Dyn, DynArray, Value};

fn lowered(src: &str) -> (front::Program, front::Program) {
    let fns = front::parse_source(src).unwrap();
    let p = front::lower_program(&fns, 0).unwrap();
    let l = seq::lower(&p).unwrap();
    accel_core::valid::program(&l).unwrap();
    (p, l)
}

fn matrix(rows: usize, cols: usize, seed: i32) -> Dyn {
    Dyn::Array(DynArray {
        shape: vec![rows, cols],
        elems: (0..rows * cols)
            .map(|i| Value::I32((i as i32 * 7 + seed) % 13 - 6))
            .collect(),
    })
}

fn vector(n: usize, seed: i32) -> Dyn {
    Dyn::Array(DynArray {
        shape: vec![n],
        elems: (0..n)
            .map(|i| Value::I32((i as i32 * 5 + seed) % 11 - 5))
            .collect(),
    })
}

/// The front end's program and the lowered one agree, whatever the chunk
/// length (programs with chunked loops take it as two more arguments).
fn same(src: &str, args: &[Dyn]) -> Dyn {
    let (p, l) = lowered(src);
    let a = interp::run(&p, args).unwrap();
    let chunked = l.params.len() > p.params.len();
    for (len, elems) in [(0, 7), (0, 1 << 20), (1, 0), (2, 0), (3, 0), (1000, 0)] {
        let mut args = args.to_vec();
        if chunked {
            args.extend([Dyn::Scalar(Value::Usize(len)), Dyn::Scalar(Value::Usize(elems))]);
        }
        let b = interp::run(&l, &args).unwrap();
        assert_eq!(a, b, "{src}\nchunks of {len} (or {elems} elements)");
        if !chunked {
            break;
        }
    }
    a
}

#[test]
fn matrix_vector_product_by_rows() {
    let src = "fn mv(m: &Matrix<i32>, v: &Vector<i32>) -> (Scalar<i32>, Scalar<i32>) {
        let s = m.rows().map(|r| r.zip_with(v, |a, b| a * b).sum());
        (s.sum(), s.maximum())
    }";
    for (rows, cols) in [(0, 3), (1, 1), (5, 3), (7, 9)] {
        let r = same(src, &[matrix(rows, cols, 1), vector(cols, 2)]);
        if rows == 0 {
            let want = Dyn::Tuple(vec![
                Dyn::Array(DynArray {
                    shape: vec![],
                    elems: vec![Value::I32(0)],
                }),
                Dyn::Array(DynArray {
                    shape: vec![],
                    elems: vec![Value::I32(i32::MIN)],
                }),
            ]);
            assert_eq!(r, want);
        }
    }
    let (_, l) = lowered(src);
    let mut loops = std::collections::HashSet::new();
    l.arena.reaches(l.body, |h, e| {
        if matches!(
            e,
            accel_core::ir::Expr::Scalar(accel_core::ir::Scalar::While { .. })
        ) {
            loops.insert(h);
        }
        false
    });
    let loops = loops.len();
    assert_eq!(loops, 1, "two consumers of one sequence share one loop");
    assert!(
        l.arena.show(l.body).contains("while(chunk"),
        "the rows run in chunks"
    );
    assert_eq!(l.params.len(), 4, "the chunk length and size are parameters");
}

#[test]
fn zips_stop_at_the_shorter_sequence() {
    let src = "fn z(a: &Vector<i32>, b: &Matrix<i32>) -> Scalar<i32> {
        let s = a.to_seq().zip_with(b.rows(), |x, r| (x.value() | 1, r.map(|y| y * x.value()).sum().value()));
        // Composition of affine maps: associative, not commutative.
        s.fold((1, 0), |p, q| (p.0 * q.0, p.1 * q.0 + q.1)).map(|t| t.0 ^ t.1)
    }";
    for (n, rows) in [(0, 4), (3, 5), (6, 2)] {
        same(src, &[vector(n, 3), matrix(rows, 4, 2)]);
    }
    let (_, l) = lowered(src);
    assert!(
        l.arena.show(l.body).contains("while(chunk"),
        "reads of a Scalar element inside closures lift"
    );
}

#[test]
fn streams_are_pulled_by_one_loop() {
    let src = "fn s(xs: Seq<Vector<i32>>, ys: Seq<Vector<i32>>) -> (Scalar<i32>, Scalar<i32>) {
        let d = xs.zip_with(ys, |x, y| x.zip_with(y, |a, b| a * b).sum());
        (d.sum(), d.minimum())
    }";
    let seq = |n: usize, len: usize, seed: i32| {
        Dyn::Seq(
            (0..n)
                .map(|i| match vector(len + i % 2, seed + i as i32) {
                    Dyn::Array(a) => a,
                    _ => unreachable!(),
                })
                .collect(),
        )
    };
    for (n, m) in [(0, 0), (3, 5), (4, 4)] {
        same(src, &[seq(n, 3, 1), seq(m, 3, 7)]);
    }
}

#[test]
fn a_stream_is_traversed_once() {
    for src in [
        "fn s(xs: Seq<Scalar<i32>>) -> (Scalar<i32>, Scalar<i32>) { (xs.sum(), xs.map(|x| x.map(|y| y * 2)).sum()) }",
        "fn s(xs: Seq<Scalar<i32>>, v: &Vector<i32>) -> Vector<i32> { v.map(|x| x) }",
    ] {
        let fns = front::parse_source(src).unwrap();
        let p = front::lower_program(&fns, 0).unwrap();
        let r = seq::lower(&p);
        if src.contains("sum") {
            let e = r.err().expect("rejected");
            assert!(e.message.contains("traversed only once"), "{}", e.message);
        } else {
            assert!(r.is_ok());
        }
    }
}

#[test]
fn sequences_compile_to_plans() {
    for (src, name) in [
        (
            "fn mv(m: &Matrix<i32>, v: &Vector<i32>) -> (Scalar<i32>, Scalar<i32>) {
            let s = m.rows().map(|r| r.zip_with(v, |a, b| a * b).sum());
            (s.sum(), s.maximum())
        }",
            "mv",
        ),
        (
            "fn s(xs: Seq<Vector<f32>>, ys: Seq<Vector<f32>>) -> Scalar<f32> {
            xs.zip_with(ys, |x, y| x.zip_with(y, |a, b| a * b).sum()).sum()
        }",
            "s",
        ),
    ] {
        let (_, plan) = accel_core::compile_source(src, name).unwrap();
        println!("{plan}\n{}", plan.explain());
    }
}

/// Without sharing recovery (`#[acc(sharing = false)]`) a value used twice is
/// computed twice, but a stream's loop must still run once.
#[test]
fn a_streams_loop_runs_once_without_sharing() {
    let src = "fn s(xs: Seq<Scalar<i32>>) -> (Scalar<i32>, Scalar<i32>) { (xs.sum(), xs.maximum()) }";
    let opts = accel_core::Options {
        sharing: false,
        ..Default::default()
    };
    let (_, plan) = accel_core::compile_source_with(src, "s", opts).unwrap();
    let loops = plan.to_string().matches("= loop").count();
    assert_eq!(loops, 1, "{plan}");
}
