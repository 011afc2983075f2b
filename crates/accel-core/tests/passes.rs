//! Unit tests of the compiler passes: front end typing, sharing, the plan's
//! golden text, the validator, and the interpreter's semantics on small cases
//! computed by hand.

use accel_core::ir::{ArrayOp, Expr, Scalar, Ty};
use accel_core::{compile_source, front, interp, sharing, valid};
use accel_types::dynamic::{Dyn, DynArray, Value};

const DOTP: &str = "fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
    xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
}";

#[test]
fn golden_dotp_plan() {
    let (_, plan) = compile_source(DOTP, "dotp").unwrap();
    let text = plan.to_string();
    let expected = "plan dotp
  param xs: Vector<f32> = Array(BufId(0))
  param ys: Vector<f32> = Array(BufId(1))
  b2 = fold [min(shape(b0).0, shape(b1).0)] linear |i_11| let x_2 = let i_6 = i_11; b0@[i_6]; let y_3 = let i_8 = i_11; b1@[i_8]; (x_2 * y_3) z=0.0f32 f=|a_4, b_5| (a_4 + b_5)
  result Array(BufId(2))
";
    assert_eq!(text, expected, "got:\n{text}");
    assert!(plan.explain().contains("1 kernel"));
    assert!(plan.explain().contains("fuses: zip_with -> fold"));
}

/// `compile_traced` shows the IR after every pass, in `PASSES` order: the
/// typed IR while it is one, then the plan; two siblings reading `xs` are two
/// kernels after fusion and one after clustering.
#[test]
fn every_pass_can_be_dumped_in_order() {
    let src = "fn f(xs: &Vector<f32>) -> (Scalar<f32>, Scalar<f32>) { (xs.sum(), xs.map(|x| x * x).sum()) }";
    let fns = front::parse_source(src).unwrap();
    let mut seen = Vec::new();
    accel_core::compile_traced(&fns, 0, Default::default(), &mut |pass, ir| {
        seen.push((pass, ir.to_string()));
    })
    .unwrap();
    let passes: Vec<&str> = seen.iter().map(|(p, _)| *p).collect();
    assert_eq!(passes, accel_core::PASSES);
    assert!(
        seen[0]
            .1
            .starts_with("fn f(xs: Vector<f32>) -> (Scalar<f32>, Scalar<f32>)"),
        "{}",
        seen[0].1
    );
    let kernels = |text: &str| text.lines().filter(|l| l.contains(" = fold ")).count();
    let (fused, clustered) = (&seen[3].1, &seen[4].1);
    assert!(fused.starts_with("plan f") && clustered.starts_with("plan f"));
    assert_eq!(kernels(fused), 2, "{fused}");
    assert_eq!(kernels(clustered), 1, "{clustered}");
}

#[test]
fn literals_take_the_expected_type() {
    let src = "fn f(xs: &Vector<f32>) -> Vector<f32> { let k = 3.0; xs.map(|x| k * x + 2.0) }";
    let fns = front::parse_source(src).unwrap();
    let p = front::lower_program(&fns, 0).unwrap();
    assert_eq!(
        p.arena.ty(p.body),
        &Ty::array(Ty::Prim(accel_core::ir::Prim::F32), 1)
    );
    let src = "fn f(xs: &Vector<u8>) -> Vector<u8> { xs.map(|x| x + 300) }";
    let err = compile_source(src, "f").unwrap_err();
    assert!(err.message.contains("out of range for `u8`"), "{}", err.message);
}

#[test]
fn sharing_counts_data_uses_not_shape_uses() {
    let src = "fn f(xs: &Vector<f32>) -> Vector<f32> {
        let ys = xs.map(|x| x * 2.0);
        let n = ys.len();
        ys.zip_with(&ys, |a, b| a + b + n as f32)
    }";
    let fns = front::parse_source(src).unwrap();
    let mut p = front::lower_program(&fns, 0).unwrap();
    let body = sharing::inline_array_lets(&mut p.arena, p.body);
    let uses = sharing::data_uses(&p.arena, body);
    let map = p
        .arena
        .handles()
        .find(|h| matches!(p.arena.expr(*h), Expr::Array(ArrayOp::Map { .. })))
        .unwrap();
    assert_eq!(
        uses.get(&map),
        Some(&2),
        "zip_with reads ys twice; ys.len() is not a data use"
    );
    // Stored for its two uses by the fuser, then computed inside the one
    // kernel that reads it at its own element (its length is `xs`'s).
    let (_, plan) = compile_source(src, "f").unwrap();
    assert_eq!(plan.kernels().count(), 1, "{plan}");
    assert_eq!(plan.materialised().count(), 1, "{plan}");
}

#[test]
fn validator_rejects_a_variable_out_of_scope() {
    let src = "fn f(xs: &Vector<i32>) -> Vector<i32> { xs.map(|x| x + 1) }";
    let fns = front::parse_source(src).unwrap();
    let mut p = front::lower_program(&fns, 0).unwrap();
    assert!(valid::program(&p).is_ok());
    // Point the body at the closure's parameter, outside the closure.
    let stray = p
        .arena
        .handles()
        .find(|h| matches!(p.arena.expr(*h), Expr::Scalar(Scalar::Var(v)) if p.arena.var(*v).name == "x"))
        .unwrap();
    let one = p.arena.lit(accel_core::ir::Prim::I32, 1);
    p.body = p.arena.binary(accel_core::ir::BinOp::Add, stray, one);
    p.result = Ty::Prim(accel_core::ir::Prim::I32);
    let e = valid::program(&p).unwrap_err();
    assert_eq!(e.rule, valid::Rule::Scope, "{e}");
    assert!(e.message.starts_with("variable out of scope"), "{e}");
}

fn vec_i32(xs: &[i32]) -> Dyn {
    Dyn::Array(DynArray {
        shape: vec![xs.len()],
        elems: xs.iter().map(|x| Value::I32(*x)).collect(),
    })
}

fn run(src: &str, name: &str, args: &[Dyn]) -> Dyn {
    let (p, _) = compile_source(src, name).unwrap_or_else(|e| panic!("{}", e.message));
    interp::run(&p, args).unwrap()
}

#[test]
fn interpreter_scans_follow_accelerate() {
    // Subtraction is not associative, so the combination order shows.
    let src = "fn l(xs: &Vector<i32>) -> Vector<i32> { xs.scanl(100, |a, x| a - x) }
               fn l1(xs: &Vector<i32>) -> Vector<i32> { xs.scanl1(|a, x| a - x) }
               fn r(xs: &Vector<i32>) -> Vector<i32> { xs.scanr(100, |x, a| x - a) }
               fn lt(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) { xs.scanl_total(100, |a, x| a - x) }
               fn rt(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) { xs.scanr_total(100, |x, a| x - a) }";
    let xs = vec_i32(&[1, 2, 3]);
    assert_eq!(run(src, "l", &[xs.clone()]), vec_i32(&[100, 99, 97, 94]));
    assert_eq!(run(src, "l1", &[xs.clone()]), vec_i32(&[1, -1, -4]));
    // scanr: [1-(2-(3-100)), 2-(3-100), 3-100, 100]
    assert_eq!(run(src, "r", &[xs.clone()]), vec_i32(&[-98, 99, -97, 100]));
    let scalar = |v| {
        Dyn::Array(DynArray {
            shape: vec![],
            elems: vec![Value::I32(v)],
        })
    };
    assert_eq!(
        run(src, "lt", &[xs.clone()]),
        Dyn::Tuple(vec![vec_i32(&[100, 99, 97]), scalar(94)])
    );
    assert_eq!(
        run(src, "rt", &[xs]),
        Dyn::Tuple(vec![vec_i32(&[99, -97, 100]), scalar(-98)])
    );
}

#[test]
fn interpreter_reports_errors_naming_the_operation() {
    let src = "fn f(xs: &Vector<i32>) -> Vector<i32> { xs.backpermute([3], |[i]| [i + 1]) }";
    let (p, _) = compile_source(src, "f").unwrap();
    let e = interp::run(&p, &[vec_i32(&[1, 2, 3])]).unwrap_err();
    assert!(e.to_string().contains("backpermute"), "{e}");
    assert!(e.to_string().contains("[3]"), "{e}");
}

/// The library builds DAGs (a sort is 32 passes, each reading the previous
/// state four times): compiling and interpreting them must take time linear in
/// the graph, not in its tree expansion.
#[test]
fn library_dags_stay_linear() {
    let src = "fn s(xs: &Vector<i64>) -> Vector<i64> { xs.sort().reverse().sort() }";
    let (_, plan) = compile_source(src, "s").unwrap();
    assert!(plan.kernels().count() < 400, "{}", plan.explain());
    let xs = Dyn::Array(DynArray {
        shape: vec![5],
        elems: [3i64, -1, 7, -1, 0].iter().map(|&x| Value::I64(x)).collect(),
    });
    let got = accel_core::interpret_source(src, "s", &[xs]).unwrap();
    let want: Vec<Value> = [-1i64, -1, 0, 3, 7].iter().map(|&x| Value::I64(x)).collect();
    assert_eq!(
        got,
        Dyn::Array(DynArray {
            shape: vec![5],
            elems: want
        })
    );
}

#[test]
fn lets_used_inside_loops_stay_lets() {
    // `ys` is computed before the loop, once: sharing keeps its `let`, and the
    // plan computes it outside the loop step.
    let src = "fn f(xs: &Vector<i32>, n: i32) -> Vector<i32> {
        let ys = xs.map(|x| x * 2);
        let mut x = xs.map(|v| v);
        for _ in 0..n {
            x = x.zip_with(&ys, |a, b| a + b);
        }
        x
    }";
    let fns = front::parse_source(src).unwrap();
    let mut p = front::lower_program(&fns, 0).unwrap();
    let body = sharing::inline_array_lets(&mut p.arena, p.body);
    let kept_array_let = p
        .arena
        .handles()
        .any(|h| matches!(p.arena.expr(h), Expr::Scalar(Scalar::Let { var, .. }) if p.arena.var(*var).name == "ys"))
        && matches!(p.arena.expr(body), Expr::Scalar(Scalar::Let { .. }));
    assert!(kept_array_let);
    let (_, plan) = compile_source(src, "f").unwrap();
    valid::plan(&plan).unwrap();
    let loop_kernels = plan
        .steps
        .iter()
        .find_map(|s| match s {
            accel_core::plan::Step::While { body, .. } => Some(body.steps.len()),
            _ => None,
        })
        .unwrap();
    assert_eq!(loop_kernels, 1, "{plan}");
    // Before the loop, `ys` and the loop's first state (a copy of `xs`) in
    // one kernel: both read `xs` (horizontal fusion).
    assert_eq!(plan.kernels().count(), 2, "{plan}");
}

#[test]
fn interpreter_runs_array_loops() {
    let src = "fn f(xs: &Vector<i32>) -> (Vector<i32>, Scalar<i32>) {
        let mut x = xs.map(|v| v);
        let mut i = 0;
        while x.len() > 1 {
            x = x.backpermute([x.len() / 2], |[j]| [2 * j]);
            i += 1;
        }
        (x, fill([], i))
    }";
    let xs = DynArray {
        shape: vec![5],
        elems: (0..5).map(Value::I32).collect(),
    };
    let r = interp::run(&compile_source(src, "f").unwrap().0, &[Dyn::Array(xs)]).unwrap();
    let Dyn::Tuple(parts) = r else { panic!("{r:?}") };
    let (Dyn::Array(x), Dyn::Array(i)) = (&parts[0], &parts[1]) else {
        panic!()
    };
    assert_eq!(x.elems, vec![Value::I32(0)]);
    assert_eq!(i.elems, vec![Value::I32(2)]);
}

/// The kernels of `fn f` in `src` (each kernel's skeleton and its fused
/// operations), and how many arrays the plan holds (parameters included).
fn kernels(src: &str) -> (Vec<(&'static str, Vec<&'static str>)>, usize) {
    let (_, plan) = compile_source(src, "f").unwrap_or_else(|e| panic!("{}", e.message));
    let k = plan
        .kernels()
        .map(|k| (k.op.skeleton(), k.fused.clone()))
        .collect();
    let arrays = plan
        .buffers
        .iter()
        .filter(|(_, b)| {
            !matches!(
                b.origin,
                accel_core::plan::Origin::Inlined | accel_core::plan::Origin::Dropped
            )
        })
        .count();
    (k, arrays)
}

/// Fusion decisions that change no result, only speed: each checked by the
/// kernels it gives, so that losing one is seen without a benchmark.
#[test]
fn fusion_decisions_show_in_the_plan() {
    // A cheap producer read by index is fused into the read: no array for it.
    let (k, arrays) = kernels(
        "fn f(xs: &Vector<f32>) -> Vector<f32> { let ys = xs.map(|x| x * 2.0); let n = xs.len();
            generate([n], |[i]| ys[[n - 1 - i]]) }",
    );
    assert_eq!((k.len(), arrays), (1, 2), "{k:?}");
    // A stencil reads the elements of a producer that is index arithmetic
    // (here a reversal) in place.
    let (k, arrays) = kernels(
        "fn f(xs: &Vector<f32>) -> Vector<f32> {
            xs.reverse().stencil(Boundary::Clamp, |[l, c, r]| l + c + r) }",
    );
    assert_eq!((k.len(), arrays), (1, 2), "{k:?}");
    // An expansion into a fold over everything: one kernel, no expanded array.
    let (k, arrays) = kernels(
        "fn f(xs: &Vector<i32>) -> Scalar<i32> { xs.expand(|x| x % 4, |x, j| x + j as i32).fold_all(0, |a, b| a + b) }",
    );
    assert_eq!((k.len(), arrays), (1, 2), "{k:?}");
    // An expensive producer used twice is not computed in both consumers:
    // they are siblings, one kernel, which computes it once per element and
    // never stores it.
    let (k, arrays) = kernels(
        "fn f(xs: &Vector<f64>) -> (Scalar<f64>, Scalar<f64>) {
            let ys = xs.map(|x| x.sin().exp().ln_1p().sqrt());
            (ys.sum(), ys.maximum()) }",
    );
    assert_eq!((k.len(), arrays), (1, 3), "{k:?}");
}

/// A plain permute's kernel names its defaults (the CPU back end and the
/// validator read them).
#[test]
fn permute_kernels_name_their_defaults() {
    let (_, plan) = compile_source(
        "fn f(xs: &Vector<i32>, z: &Vector<i32>) -> Vector<i32> { xs.permute(z, |[i]| Some([i / 2]), |a, b| a + b) }",
        "f",
    )
    .unwrap();
    let k: Vec<_> = plan.kernels().collect();
    assert_eq!(k.len(), 1);
    assert_eq!(k[0].op.defaults(), Some(accel_core::ir::BufId(1)));
}

/// `explain` of array loops nested in array loops: each level indented
/// further.
#[test]
fn explain_nests_array_loops() {
    let (_, plan) = compile_source(
        "fn f(xs: &Vector<f32>) -> Vector<f32> {
            let mut a = xs.map(|x| x + 1.0);
            let mut i = 0usize;
            while i < 3 {
                let mut j = 0usize;
                while j < 2 { a = a.map(|x| x * 2.0); j += 1; }
                i += 1;
            }
            a }",
        "f",
    )
    .unwrap();
    let text = plan.explain();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let depths: Vec<usize> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("while"))
        .map(indent)
        .collect();
    assert_eq!(depths.len(), 2, "{text}");
    assert!(depths[1] > depths[0], "{text}");
}
