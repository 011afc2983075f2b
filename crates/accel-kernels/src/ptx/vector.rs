//! 16-byte loads and stores for element functions over a vector.
//!
//! A thread takes a quad (four neighbouring elements): every column that the
//! element function reads at its own index is read with one `ld.global.v4`
//! (two `v2` for 64-bit leaves), the element function runs once per lane,
//! and an output column is written the same way. A warp then moves 512
//! bytes of a 32-bit column per instruction instead of 128. The kernel
//! checks that every column it moves so is 16-byte aligned (allocations are)
//! and otherwise, and for the last `n % 4` elements, runs its scalar loop.
//!
//! Only loop-free element functions are unrolled: a `while` body's cost
//! varies with the data, and four of them in a row would serialise it.
//!
//! Loading ahead is safe: a read at the element's own linear index
//! (`ReadLinear`) comes only from a view of a buffer at least as long as
//! the iteration, so it is in bounds for every element, even where it stands
//! in a branch; reads that may leave their array are `Checked`.

use super::blocks::{apply2, elem_at, Dest, Reduced};
use super::lower::{bytes, class, leaves, mty, Arg, Class, Loaded, Lower, Unsupported};
use accel_core::ir::{Expr, Fun, PlanRead, Prim, Scalar, Ty};
use accel_core::plan::ElemFn;

/// Elements per thread and vector instruction group.
const LANES: usize = 4;

/// What a quad moves with vector instructions.
pub(super) struct Quad {
    /// Columns (buffer, leaf) read at the element's own index.
    reads: Vec<(u32, usize, Prim)>,
    /// Leaves of the output column that are stored as vectors.
    outs: Vec<usize>,
}

/// Leaves worth a vector access: 32- and 64-bit ones.
fn wide(p: Prim) -> bool {
    p != Prim::Bool && matches!(bytes(p), 4 | 8)
}

/// The quad plan of element function `e` writing `out` (leaf types; empty
/// for a fold), or `None` when nothing would be moved as a vector or the
/// function loops.
pub(super) fn quad(l: &Lower, e: &ElemFn, out: &[Prim]) -> Option<Quad> {
    let ElemFn::Linear(f) = e else {
        return None;
    };
    let a = l.a;
    if e.loops(a) {
        return None;
    }
    let index = super::blocks::param_names(a, f);
    let mut reads = Vec::new();
    a.reaches(f.body, |_, x| {
        if let Expr::Plan(PlanRead::ReadLinear { array, index: i }) = x {
            if let (Expr::Plan(PlanRead::Buffer(b)), Expr::Scalar(Scalar::Var(v))) =
                (a.expr(*array), a.expr(*i))
            {
                if index.contains(v) {
                    for (k, p) in leaves(&l.buf_elems[b.0 as usize]).into_iter().enumerate() {
                        if wide(p) && !reads.contains(&(b.0, k, p)) {
                            reads.push((b.0, k, p));
                        }
                    }
                }
            }
        }
        false
    });
    let outs: Vec<usize> = (0..out.len()).filter(|&k| wide(out[k])).collect();
    (!(reads.is_empty() && outs.is_empty())).then_some(Quad { reads, outs })
}

/// A predicate register: whether some column the quad moves (and `out`'s
/// vector leaves) is not 16-byte aligned.
fn misaligned(l: &mut Lower, q: &Quad, out: Option<&Dest>) -> String {
    let mut cols: Vec<(u32, usize)> = q.reads.iter().map(|&(b, k, _)| (b, k)).collect();
    if let Some(o) = out {
        cols.extend(q.outs.iter().map(|&k| o.cols[k]));
    }
    let any = l.reg(Class::Rd);
    l.ins(format!("mov.b64 {any}, 0;"));
    for (b, k) in cols {
        let base = l.param(Arg::Col(b, k))[0].clone();
        l.ins(format!("or.b64 {any}, {any}, {base};"));
    }
    l.ins(format!("and.b64 {any}, {any}, 15;"));
    let p = l.reg(Class::P);
    l.ins(format!("setp.ne.u64 {p}, {any}, 0;"));
    p
}

/// Loads the quad at element `i0` (a multiple of 4) of every column read at
/// the element's index: per lane, (buffer, leaf) → register.
fn load_quad(l: &mut Lower, q: &Quad, i0: &str) -> Vec<Loaded> {
    let mut lanes = vec![Loaded::new(); LANES];
    for &(b, k, p) in &q.reads {
        let base = l.param(Arg::Col(b, k))[0].clone();
        let regs = vector_access(l, &base, i0, p, None);
        for (lane, r) in regs.into_iter().enumerate() {
            lanes[lane].insert((b, k), r);
        }
    }
    lanes
}

/// `ld.global.v4` (or two `v2`) of the four elements at `i0` of the column
/// at `base` into fresh registers, or with `store` the `st.global` of them.
fn vector_access(l: &mut Lower, base: &str, i0: &str, p: Prim, store: Option<&[String]>) -> Vec<String> {
    let addr = l.reg(Class::Rd);
    l.ins(format!("mad.lo.u64 {addr}, {i0}, {}, {base};", bytes(p)));
    let regs: Vec<String> = match store {
        Some(v) => v.to_vec(),
        None => (0..LANES).map(|_| l.reg(class(p))).collect(),
    };
    let per = 16 / bytes(p) as usize;
    let t = match p {
        Prim::F32 | Prim::F64 => mty(p),
        _ if bytes(p) == 4 => "b32",
        _ => "b64",
    };
    for (g, rs) in regs.chunks(per).enumerate() {
        let at = if g == 0 {
            format!("[{addr}]")
        } else {
            format!("[{addr}+{}]", 16 * g)
        };
        let v = format!("{{{}}}", rs.join(", "));
        match store {
            Some(_) => l.ins(format!("st.global.v{per}.{t} {at}, {v};")),
            None => l.ins(format!("ld.global.v{per}.{t} {v}, {at};")),
        }
    }
    regs
}

/// The element function at lane `lane` of the quad at `i0`, and the
/// element's index: reads at that index come from `loaded`.
fn lane_elem(
    l: &mut Lower,
    e: &ElemFn,
    i0: &str,
    lane: usize,
    loaded: &Loaded,
) -> Result<(Vec<String>, String), Unsupported> {
    let i = l.reg(Class::Rd);
    l.ins(format!("add.u64 {i}, {i0}, {lane};"));
    l.lane = Some((i.clone(), loaded.clone()));
    let v = elem_at(l, e, &i);
    l.lane = None;
    Ok((v?, i))
}

/// The quads of a generate of `n` elements into buffer `out` (element type
/// `t`), thread `g` of `stride` taking quads `g, g + stride, …`. Leaves in
/// `start` the first element of the caller's scalar grid-stride loop: the
/// remainder after the quads, or `g` when a column is misaligned.
#[allow(clippy::too_many_arguments)]
pub(super) fn generate_quads(
    l: &mut Lower,
    q: &Quad,
    e: &ElemFn,
    out: &Dest,
    g: &str,
    stride: &str,
    n: &str,
    start: &str,
) -> Result<(), Unsupported> {
    let (top, tail, scalar) = (l.label("quad"), l.label("quadend"), l.label("scalar"));
    l.ins(format!("mov.b64 {start}, {g};"));
    let t = &out.ty;
    let bad = misaligned(l, q, Some(out));
    l.ins(format!("@{bad} bra {scalar};"));
    let (nq, qi, i0) = (l.reg(Class::Rd), l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("shr.u64 {nq}, {n}, 2;"));
    l.ins(format!("mov.b64 {qi}, {g};"));
    l.put_label(&top);
    let done = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {done}, {qi}, {nq};"));
    l.ins(format!("@{done} bra {tail};"));
    l.ins(format!("shl.b64 {i0}, {qi}, 2;"));
    let loaded = load_quad(l, q, &i0);
    let ps = leaves(t);
    let mut vals = Vec::new();
    for (lane, ld) in loaded.iter().enumerate() {
        let (v, i) = lane_elem(l, e, &i0, lane, ld)?;
        // Leaves without a vector store are stored lane by lane.
        for (k, p) in ps.iter().enumerate() {
            if !q.outs.contains(&k) {
                let base = out.base(l, k);
                l.store(&base, &i, *p, &v[k], false);
            }
        }
        vals.push(v);
    }
    for &k in &q.outs {
        let base = out.base(l, k);
        let rs: Vec<String> = vals.iter().map(|v| v[k].clone()).collect();
        vector_access(l, &base, &i0, ps[k], Some(&rs));
    }
    l.ins(format!("add.u64 {qi}, {qi}, {stride};"));
    l.ins(format!("bra {top};"));
    l.put_label(&tail);
    l.ins(format!("shl.b64 {start}, {nq}, 2;"));
    l.ins(format!("add.u64 {start}, {start}, {g};"));
    l.put_label(&scalar);
    Ok(())
}

/// The commutative fold of `n` elements by threads `0..threads` with quads:
/// thread `g` combines quads `g, g + threads, …`, then the last `n % 4`
/// elements strided from `4 (n / 4) + g`. The accumulator and `have` (a
/// `.u32` 0/1: whether thread `g` had elements). When a column is
/// misaligned, or some of the threads would have no quad (`threads > n /
/// 4`), `scalar` reduces instead.
#[allow(clippy::too_many_arguments)]
pub(super) fn reduce_quads(
    l: &mut Lower,
    q: &Quad,
    e: &ElemFn,
    g: &str,
    threads: &str,
    n: &str,
    f: &Fun,
    t: &Ty,
    scalar: &mut dyn FnMut(&mut Lower) -> Result<Reduced, Unsupported>,
) -> Result<Reduced, Unsupported> {
    let (by_one, done) = (l.label("rscalar"), l.label("rquads"));
    let acc = l.fresh(t);
    let have = l.reg(Class::R);
    l.ins(format!("mov.b32 {have}, 0;"));
    // Registers assigned on one path only still need a value for the warp tree.
    for (r, p) in acc.clone().iter().zip(leaves(t)) {
        super::blocks::zero_reg(l, r, p);
    }
    let bad = misaligned(l, q, None);
    l.ins(format!("@{bad} bra {by_one};"));
    let nq = l.reg(Class::Rd);
    l.ins(format!("shr.u64 {nq}, {n}, 2;"));
    let few = l.reg(Class::P);
    l.ins(format!("setp.gt.u64 {few}, {threads}, {nq};"));
    l.ins(format!("@{few} bra {by_one};"));
    let idle = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {idle}, {g}, {threads};"));
    l.ins(format!("@{idle} bra {done};"));
    // The first quad starts the accumulator; the loop adds the others.
    let (qi, i0) = (l.reg(Class::Rd), l.reg(Class::Rd));
    l.ins(format!("mov.b64 {qi}, {g};"));
    let quad_sum = |l: &mut Lower| -> Result<Vec<String>, Unsupported> {
        l.ins(format!("shl.b64 {i0}, {qi}, 2;"));
        let loaded = load_quad(l, q, &i0);
        let mut xs = Vec::new();
        for (lane, ld) in loaded.iter().enumerate() {
            xs.push(lane_elem(l, e, &i0, lane, ld)?.0);
        }
        let a = apply2(l, f, &xs[0], &xs[1])?;
        let b = apply2(l, f, &xs[2], &xs[3])?;
        apply2(l, f, &a, &b)
    };
    let first = quad_sum(l)?;
    l.assign(&acc, &first, t);
    l.ins(format!("mov.b32 {have}, 1;"));
    let (top, rest) = (l.label("rq"), l.label("rqe"));
    l.put_label(&top);
    l.ins(format!("add.u64 {qi}, {qi}, {threads};"));
    let stop = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop}, {qi}, {nq};"));
    l.ins(format!("@{stop} bra {rest};"));
    let s = quad_sum(l)?;
    let v = apply2(l, f, &acc, &s)?;
    l.assign(&acc, &v, t);
    l.ins(format!("bra {top};"));
    l.put_label(&rest);
    // The remainder (fewer than four elements), strided.
    let j = l.reg(Class::Rd);
    l.ins(format!("shl.b64 {j}, {nq}, 2;"));
    l.ins(format!("add.u64 {j}, {j}, {g};"));
    let (ttop, tend) = (l.label("rt"), l.label("rte"));
    l.put_label(&ttop);
    let stop2 = l.reg(Class::P);
    l.ins(format!("setp.ge.u64 {stop2}, {j}, {n};"));
    l.ins(format!("@{stop2} bra {tend};"));
    let x = elem_at(l, e, &j)?;
    let v = apply2(l, f, &acc, &x)?;
    l.assign(&acc, &v, t);
    l.ins(format!("add.u64 {j}, {j}, {threads};"));
    l.ins(format!("bra {ttop};"));
    l.put_label(&tend);
    l.ins(format!("bra {done};"));
    l.put_label(&by_one);
    let (a2, h2) = scalar(l)?;
    l.assign(&acc, &a2, t);
    l.ins(format!("mov.b32 {have}, {h2};"));
    l.put_label(&done);
    Ok((acc, have))
}

#[cfg(test)]
mod tests {
    //! The kernels on the PTX simulator with columns at chosen addresses: the
    //! runtime's allocations are all aligned, so only here do the scalar
    //! fallbacks for misaligned columns run (the simulator rejects a
    //! misaligned vector access).
    use super::super::{program, Arg};
    use accel_runtime::gpu::{Device, DevicePtr, KernelArg, LaunchConfig};
    use accel_runtime::ptx_sim::SimDevice;

    struct Run {
        dev: SimDevice,
        ptx: &'static str,
        entries: Vec<super::super::EntryPtx>,
    }

    impl Run {
        fn new(source: &str) -> Run {
            let (_, plan) =
                accel_core::compile_source(source, "f").unwrap_or_else(|e| panic!("{}", e.message));
            let p = program(&plan);
            assert!(p.unsupported.is_none(), "{:?}", p.unsupported);
            Run {
                dev: SimDevice::new(7),
                ptx: Box::leak(p.text.into_boxed_str()),
                entries: p.kernels.into_iter().flat_map(|k| k.entries).collect(),
            }
        }

        /// Device memory holding `xs`, starting `skew` bytes into its allocation.
        fn put(&self, xs: &[i32], skew: u64) -> DevicePtr {
            let p = self.dev.alloc(xs.len() * 4 + 16).expect("alloc").offset(skew);
            let bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
            self.dev.upload(p, &bytes).expect("upload");
            p
        }

        fn get(&self, p: DevicePtr, n: usize) -> Vec<i32> {
            let mut bytes = vec![0u8; n * 4];
            self.dev.download(p, &mut bytes).expect("download");
            bytes
                .chunks(4)
                .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        }

        /// Launches entry `e` on 2 blocks of 256 threads; `col(b)` is buffer
        /// `b`'s column, `extra(name)` a skeleton's parameter.
        fn launch(&self, e: usize, col: impl Fn(u32) -> DevicePtr, extra: impl Fn(&str) -> u64) {
            let err = self.put(&[0], 0);
            let args: Vec<KernelArg> = self.entries[e]
                .params
                .iter()
                .map(|a| match a {
                    Arg::Col(b, 0) => KernelArg::Ptr(col(*b)),
                    Arg::Part(0) => KernelArg::Ptr(col(u32::MAX)),
                    Arg::Extra(name) => KernelArg::U64(extra(name)),
                    Arg::Err => KernelArg::Ptr(err),
                    other => panic!("unexpected parameter {other:?}"),
                })
                .collect();
            let cfg = LaunchConfig {
                grid: [2, 1, 1],
                block: [256, 1, 1],
                dynamic_shared_bytes: 0,
            };
            let name = self.entries[e].name.clone();
            self.dev.launch(self.ptx, &name, cfg, &args).expect("launch");
            assert_eq!(self.get(err, 1), [0], "error word");
        }
    }

    #[test]
    fn maps_misaligned_columns_element_by_element() {
        let r = Run::new(
            "fn f(xs: &Vector<i32>, ys: &Vector<i32>) -> Vector<i32> { xs.zip_with(ys, |x, y| x * 3 - y) }",
        );
        assert!(
            r.ptx.contains("ld.global.v4.b32") && r.ptx.contains("st.global.v4.b32"),
            "{}",
            r.ptx
        );
        for n in [0usize, 3, 4, 1027, 5001] {
            let xs: Vec<i32> = (0..n as i32).map(|i| i * 7 - 100).collect();
            let ys: Vec<i32> = (0..n as i32).map(|i| i % 13).collect();
            let want: Vec<i32> = xs.iter().zip(&ys).map(|(x, y)| x * 3 - y).collect();
            for (sx, sy, so) in [(0, 0, 0), (4, 0, 0), (0, 8, 0), (0, 0, 12)] {
                let (px, py) = (r.put(&xs, sx), r.put(&ys, sy));
                let out = r.put(&vec![-1; n], so);
                r.launch(0, |b| [px, py, out][b as usize], |_| n as u64);
                assert_eq!(r.get(out, n), want, "n {n}, skews {sx} {sy} {so}");
            }
        }
    }

    #[test]
    fn folds_misaligned_or_short_columns_element_by_element() {
        let r = Run::new("fn f(xs: &Vector<i32>) -> Scalar<i32> { xs.fold(0, |a, b| a + b) }");
        assert!(r.ptx.contains("ld.global.v4.b32"), "{}", r.ptx);
        // 2 blocks of 256 threads, `per` elements each: from 1,000 elements
        // on, every thread that has elements has a quad.
        for n in [1usize, 5, 600, 1000, 5003] {
            let xs: Vec<i32> = (0..n as i32).map(|i| i * 31 % 1000 - 400).collect();
            let per = n.div_ceil(512) as u64;
            for skew in [0, 4] {
                let px = r.put(&xs, skew);
                let parts = r.put(&[0, 0], 0);
                r.launch(
                    0,
                    |b| if b == u32::MAX { parts } else { px },
                    |name| match name {
                        "n" => n as u64,
                        "per" => per,
                        other => panic!("unexpected parameter {other}"),
                    },
                );
                let busy = n.div_ceil(per as usize).div_ceil(256);
                let got: i32 = r.get(parts, busy).iter().sum();
                assert_eq!(got, xs.iter().sum::<i32>(), "n {n}, skew {skew}");
            }
        }
    }
}
