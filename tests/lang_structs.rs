//! Structs as element types (`#[derive(accel::Elem)]`): stored as a column
//! per primitive field, read by field name, built by struct literals and
//! destructured by patterns, in every kind of operation. Every program runs
//! on the reference interpreter and on the backend under test (the CPU, or
//! `ACCEL_BACKEND=ptx-sim` / `cuda`), which must agree, and is checked
//! against plain Rust written here.

mod common;

use accel::prelude::*;
use common::*;
use proptest::prelude::*;

#[acc]
mod particles {
    use accel::prelude::*;

    /// Declared after its first use: the order of a module's items is free.
    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    pub struct Particle {
        pub pos: Vec2,
        pub vel: Vec2,
        pub mass: f32,
    }

    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    /// A tuple struct: the best (smallest) distance and where it is.
    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    pub struct Best(pub f32, pub u32);

    /// A struct of one field is its field to the compiler.
    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    pub struct Meters {
        pub m: f32,
    }

    /// An alias of arrays of structs: the generated functions take it too.
    pub type Cloud = Vector<Particle>;

    /// Struct literals, `..base`, nested field access, a struct parameter.
    pub fn step(ps: &Cloud, dt: f32, wind: Vec2) -> Cloud {
        ps.map(|p| Particle {
            pos: Vec2 {
                x: p.pos.x + dt * (p.vel.x + wind.x),
                y: p.pos.y + dt * (p.vel.y + wind.y),
            },
            ..p
        })
    }

    /// Patterns in closure parameters and `let`s; a tuple of results.
    pub fn momentum(ps: &Vector<Particle>) -> (Scalar<f32>, Scalar<f32>) {
        let mx = ps.map(|Particle { vel, mass, .. }| mass * vel.x).sum();
        let my = ps
            .map(|p| {
                let Vec2 { y, .. } = p.vel;
                p.mass * y
            })
            .sum();
        (mx, my)
    }

    /// A fold whose accumulator is a struct (the centre of mass).
    pub fn centre(ps: &Vector<Particle>) -> Scalar<Vec2> {
        let weighted = ps.map(|p| Vec2 {
            x: p.mass * p.pos.x,
            y: p.mass * p.pos.y,
        });
        let m = ps.map(|p| p.mass).sum().value();
        weighted
            .fold(Vec2 { x: 0.0, y: 0.0 }, |a, b| Vec2 {
                x: a.x + b.x,
                y: a.y + b.y,
            })
            .map(|s| Vec2 {
                x: s.x / m,
                y: s.y / m,
            })
    }

    /// The nearest particle to `q`: a fold over a tuple struct.
    pub fn nearest(ps: &Vector<Particle>, q: Vec2) -> Scalar<Best> {
        let n = ps.len();
        generate([n], |[i]| {
            let Vec2 { x, y } = ps[[i]].pos;
            Best((x - q.x) * (x - q.x) + (y - q.y) * (y - q.y), i as u32)
        })
        .fold(Best(f32::INFINITY, u32::MAX), |a, b| {
            if b.0 < a.0 || (b.0 == a.0 && b.1 < a.1) {
                b
            } else {
                a
            }
        })
    }

    /// A scan, a scatter and a one-field struct.
    pub fn paths(ps: &Vector<Particle>) -> (Vector<Meters>, Vector<Particle>) {
        let n = ps.len();
        let lengths = ps.map(|p| Meters {
            m: (p.vel.x * p.vel.x + p.vel.y * p.vel.y).sqrt(),
        });
        let travelled = lengths.scanl1(|a, b| Meters { m: a.m + b.m });
        let zero = Vec2 { x: 0.0, y: 0.0 };
        let reversed = ps.permute(
            &fill(
                [n],
                Particle {
                    pos: zero,
                    vel: zero,
                    mass: 0.0,
                },
            ),
            |[i]| Some([n - 1 - i]),
            |new, _old| new,
        );
        (travelled, reversed)
    }

    /// Methods and associated functions, called in programs (inlined) and
    /// from Rust alike.
    impl Vec2 {
        pub fn new(x: f32, y: f32) -> Self {
            Self { x, y }
        }

        pub fn norm2(self) -> f32 {
            self.x * self.x + self.y * self.y
        }

        pub fn scaled(&self, k: f32) -> Vec2 {
            Vec2::new(self.x * k, self.y * k)
        }
    }

    pub fn speeds(ps: &Vector<Particle>, k: f32) -> Vector<f32> {
        ps.map(|p| p.vel.scaled(k).norm2().sqrt())
    }

    /// A one-field tuple struct: `k.0` is the value itself to the compiler.
    #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
    pub struct Key(pub u32);

    /// Tuples holding structs; sorting by a field; choosing between structs.
    pub fn weighted(vs: &Vector<(Vec2, f32)>) -> Vector<Vec2> {
        vs.map(|(v, w)| Vec2 {
            x: v.x * w,
            y: v.y * w,
        })
    }

    pub fn sorted(vs: &Vector<Vec2>) -> Vector<Vec2> {
        vs.sort_by_key(|v| v.x)
    }

    pub fn larger_x(a: &Vector<Vec2>, b: &Vector<Vec2>) -> Vector<Vec2> {
        a.zip_with(b, |p, q| if p.x > q.x { p } else { q })
    }

    /// A struct as a `while` loop's state.
    pub fn walk(a: &Vector<Vec2>, steps: u32) -> Vector<Vec2> {
        a.map(|p| {
            let mut q = p;
            let mut k = 0u32;
            while k < steps {
                q = Vec2 { x: q.x + q.y, ..q };
                k += 1;
            }
            q
        })
    }

    pub fn smooth(a: &Vector<Vec2>) -> Vector<Vec2> {
        a.stencil(Boundary::Clamp, |[l, c, r]| Vec2 {
            x: (l.x + c.x + r.x) / 3.0,
            y: c.y,
        })
    }

    /// `==` and `!=` compare field by field, nested structs too.
    pub fn compare(a: &Vector<Particle>, b: &Vector<Particle>) -> (Vector<bool>, Vector<bool>) {
        (a.zip_with(b, |p, q| p == q), a.zip_with(b, |p, q| p.pos != q.pos))
    }

    pub fn key_sum(ks: &Vector<Key>) -> Scalar<u32> {
        ks.map(|k| k.0).sum()
    }

    /// A sequence of arrays of structs, reduced.
    pub fn total_x(ps: Seq<Vector<Vec2>>) -> Scalar<f32> {
        ps.map(|p| p.map(|v| v.x).sum()).sum()
    }

    /// A sequence of arrays of structs returned, a chunk at a time.
    pub fn shifted(ps: Seq<Vector<Vec2>>, by: Vec2) -> Seq<Vector<Vec2>> {
        ps.map(|p| p.map(|v| Vec2 { x: v.x + by.x, ..v }))
    }
}

use particles::{Best, Key, Meters, Particle, Vec2};

fn particle() -> impl Strategy<Value = Particle> {
    (
        -100.0f32..100.0,
        -100.0f32..100.0,
        -5.0f32..5.0,
        -5.0f32..5.0,
        0.0f32..10.0,
    )
        .prop_map(|(x, y, vx, vy, mass)| Particle {
            pos: Vec2 { x, y },
            vel: Vec2 { x: vx, y: vy },
            mass,
        })
}

fn cfg() -> ProptestConfig {
    ProptestConfig {
        cases: cases(16),
        max_shrink_iters: 50,
        ..ProptestConfig::default()
    }
}

#[test]
fn a_derived_struct_is_stored_as_columns_of_its_fields() {
    let ps = vec![
        Particle {
            pos: Vec2 { x: 1.0, y: 2.0 },
            vel: Vec2 { x: 3.0, y: 4.0 },
            mass: 5.0,
        };
        3
    ];
    let a = Vector::from(ps.clone());
    assert_eq!(a.to_vec(), ps);
    assert_eq!(a.get([1]), Some(ps[1]));
    // Nested structs are flattened: five columns of `f32`.
    let ((xs, ys), (vxs, _), masses) = a.columns();
    assert_eq!((xs[0], ys[0], vxs[2], masses[1]), (1.0, 2.0, 3.0, 5.0));
    assert_eq!(Scalar::new(Best(0.5, 7)).value(), Best(0.5, 7));
    assert!(a.to_string().starts_with("[Particle { pos: Vec2 { x: 1.0"), "{a}");
}

proptest! {
    #![proptest_config(cfg())]

    #[test]
    fn struct_programs_agree_with_rust(
        ps in prop::collection::vec(particle(), 0..300),
        dt in 0.0f32..1.0,
        qx in -50.0f32..50.0,
        qy in -50.0f32..50.0,
    ) {
        let a = Vector::from(ps.clone());
        let wind = Vec2 { x: 0.25, y: -0.5 };
        let q = Vec2 { x: qx, y: qy };

        let stepped = particles::step(&a, dt, wind).unwrap();
        check_ok(particles::step::SOURCE, "step", &[arg(&a), arg(dt), arg(wind)], particles::step(&a, dt, wind), EXACT);
        let want: Vec<Particle> = ps
            .iter()
            .map(|p| Particle {
                pos: Vec2 { x: p.pos.x + dt * (p.vel.x + wind.x), y: p.pos.y + dt * (p.vel.y + wind.y) },
                ..*p
            })
            .collect();
        prop_assert_eq!(stepped.to_vec(), want);

        let mag = ps.iter().map(|p| (p.mass * p.vel.x).abs() + (p.mass * p.vel.y).abs()).sum::<f32>() as f64;
        check_ok(particles::momentum::SOURCE, "momentum", &[arg(&a)], particles::momentum(&a), sum_tol(F32_TOL, mag));
        let (mx, _) = particles::momentum(&a).unwrap();
        let want_mx: f32 = ps.iter().map(|p| p.mass * p.vel.x).sum();
        prop_assert!(((mx.value() - want_mx) as f64).abs() <= F32_TOL * mag);

        if !ps.is_empty() && ps.iter().any(|p| p.mass > 0.0) {
            check_ok(particles::centre::SOURCE, "centre", &[arg(&a)], particles::centre(&a), sum_tol(F32_TOL, 100.0));
        }

        check_ok(particles::nearest::SOURCE, "nearest", &[arg(&a), arg(q)], particles::nearest(&a, q), EXACT);
        let best = particles::nearest(&a, q).unwrap().value();
        let d = |p: &Particle| (p.pos.x - q.x) * (p.pos.x - q.x) + (p.pos.y - q.y) * (p.pos.y - q.y);
        let want_best = ps.iter().enumerate().fold(Best(f32::INFINITY, u32::MAX), |b, (i, p)| {
            if d(p) < b.0 { Best(d(p), i as u32) } else { b }
        });
        prop_assert_eq!(best, want_best);

        let total = ps.iter().map(|p| (p.vel.x * p.vel.x + p.vel.y * p.vel.y).sqrt()).sum::<f32>() as f64;
        check_ok(particles::paths::SOURCE, "paths", &[arg(&a)], particles::paths(&a), sum_tol(F32_TOL, total));
        let (travelled, reversed) = particles::paths(&a).unwrap();
        prop_assert_eq!(travelled.len(), ps.len());
        let want_rev: Vec<Particle> = ps.iter().rev().copied().collect();
        prop_assert_eq!(reversed.to_vec(), want_rev);
        let _: Vec<Meters> = travelled.to_vec();
    }
}

#[test]
fn sequences_of_structs() {
    let blocks: Vec<Vector<Vec2>> = (0..5)
        .map(|b| {
            Vector::from(
                (0..b * 3)
                    .map(|i| Vec2 {
                        x: i as f32,
                        y: b as f32,
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let total = particles::total_x(blocks.clone()).unwrap().value();
    let want: f32 = blocks.iter().flat_map(|b| b.to_vec()).map(|v| v.x).sum();
    assert_eq!(total, want);
    check_ok(
        particles::total_x::SOURCE,
        "total_x",
        &[seq_arg(&blocks)],
        particles::total_x(blocks.clone()),
        EXACT,
    );
    let by = Vec2 { x: 0.5, y: 9.0 };
    let out: Vec<Vector<Vec2>> = particles::shifted(blocks.clone(), by)
        .unwrap()
        .collect::<accel::Result<_>>()
        .unwrap();
    assert_eq!(out.len(), blocks.len());
    for (o, b) in out.iter().zip(&blocks) {
        let want: Vec<Vec2> = b
            .to_vec()
            .into_iter()
            .map(|v| Vec2 { x: v.x + 0.5, ..v })
            .collect();
        assert_eq!(o.to_vec(), want);
    }
}

/// Structs through the other kinds of operation: tuples of structs, sorts,
/// `zip_with`, `while` state, stencils, equality, a one-field tuple struct.
#[test]
fn structs_in_every_kind_of_operation() {
    let vs: Vec<Vec2> = (0..37)
        .map(|i| Vec2 {
            x: ((i * 7) % 11) as f32,
            y: i as f32,
        })
        .collect();
    let a = Vector::from(vs.clone());
    let b = Vector::from(vs.iter().rev().copied().collect::<Vec<_>>());
    let w = Vector::from(vs.iter().map(|v| (*v, 2.0f32)).collect::<Vec<_>>());
    check_ok(
        particles::weighted::SOURCE,
        "weighted",
        &[arg(&w)],
        particles::weighted(&w),
        EXACT,
    );
    check_ok(
        particles::sorted::SOURCE,
        "sorted",
        &[arg(&a)],
        particles::sorted(&a),
        EXACT,
    );
    let sorted = particles::sorted(&a).unwrap().to_vec();
    assert!(sorted.windows(2).all(|p| p[0].x <= p[1].x));
    check_ok(
        particles::larger_x::SOURCE,
        "larger_x",
        &[arg(&a), arg(&b)],
        particles::larger_x(&a, &b),
        EXACT,
    );
    check_ok(
        particles::walk::SOURCE,
        "walk",
        &[arg(&a), arg(3u32)],
        particles::walk(&a, 3),
        EXACT,
    );
    assert_eq!(
        particles::walk(&a, 3).unwrap().get([5]),
        Some(Vec2 {
            x: vs[5].x + 15.0,
            y: 5.0
        })
    );
    check_ok(
        particles::smooth::SOURCE,
        "smooth",
        &[arg(&a)],
        particles::smooth(&a),
        F32_TOL,
    );

    let p = |x: f32, vx: f32| Particle {
        pos: Vec2 { x, y: 1.0 },
        vel: Vec2 { x: vx, y: 0.0 },
        mass: 1.0,
    };
    let l = Vector::from(vec![p(1.0, 2.0), p(1.0, 2.0), p(3.0, 2.0), p(f32::NAN, 0.0)]);
    let r = Vector::from(vec![p(1.0, 2.0), p(1.0, 5.0), p(1.0, 2.0), p(f32::NAN, 0.0)]);
    check_ok(
        particles::compare::SOURCE,
        "compare",
        &[arg(&l), arg(&r)],
        particles::compare(&l, &r),
        EXACT,
    );
    let (same, moved) = particles::compare(&l, &r).unwrap();
    // As Rust's derived `PartialEq`: a NaN field makes structs unequal.
    let want: Vec<bool> = l.to_vec().iter().zip(r.to_vec()).map(|(x, y)| *x == y).collect();
    assert_eq!(same.to_vec(), want);
    assert_eq!(same.to_vec(), vec![true, false, false, false]);
    assert_eq!(moved.to_vec(), vec![false, false, true, true]);

    let ps = Vector::from(vec![p(1.0, 3.0), p(2.0, -4.0)]);
    check_ok(
        particles::speeds::SOURCE,
        "speeds",
        &[arg(&ps), arg(2.0f32)],
        particles::speeds(&ps, 2.0),
        EXACT,
    );
    let want: Vec<f32> = ps
        .to_vec()
        .iter()
        .map(|p| p.vel.scaled(2.0).norm2().sqrt())
        .collect();
    assert_eq!(particles::speeds(&ps, 2.0).unwrap().to_vec(), want);
    assert_eq!(want, vec![6.0, 8.0]);

    let ks = Vector::from((0..10).map(Key).collect::<Vec<_>>());
    check_ok(
        particles::key_sum::SOURCE,
        "key_sum",
        &[arg(&ks)],
        particles::key_sum(&ks),
        EXACT,
    );
    assert_eq!(particles::key_sum(&ks).unwrap().value(), 45);
}
