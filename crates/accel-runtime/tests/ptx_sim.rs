//! Tests of the PTX simulator with hand-written PTX of known results, and of
//! each check it makes. Every program here is also assembled by `ptxas`
//! (test `all_programs_assemble_with_ptxas`), so they are known-valid PTX.
#![allow(clippy::needless_range_loop)]

use accel_runtime::gpu::{Device, DevicePtr, KernelArg, LaunchConfig};
use accel_runtime::ptx_sim::SimDevice;
use accel_runtime::Result;

const HEADER: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn cfg(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: 0,
    }
}

fn up<T: Copy>(d: &SimDevice, xs: &[T]) -> DevicePtr {
    let bytes = std::mem::size_of_val(xs);
    // SAFETY: T is a plain number type here (f32, u32, ...); viewing it as bytes is sound.
    let b = unsafe { std::slice::from_raw_parts(xs.as_ptr() as *const u8, bytes) };
    let p = d.alloc(bytes).expect("alloc");
    d.upload(p, b).expect("upload");
    p
}

fn down<T: Copy + Default>(d: &SimDevice, p: DevicePtr, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    let bytes = n * std::mem::size_of::<T>();
    // SAFETY: as in `up`; the vector owns `bytes` bytes.
    let b = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, bytes) };
    d.download(p, b).expect("download");
    v
}

fn ptr(p: DevicePtr) -> KernelArg {
    KernelArg::Ptr(p)
}

// ---------------------------------------------------------------- programs

const VADD: &str = r#"
.version 7.0
.target sm_70
.address_size 64

// c[i] = a[i] + b[i], grid-stride loop
.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 pn)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    ld.param.u32 %r1, [pn];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    mov.u32 %r6, %nctaid.x;
    mul.lo.s32 %r6, %r6, %r3;
$L_loop:
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra $L_done;
    mul.wide.u32 %rd4, %r5, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    ld.global.nc.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.rn.f32 %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;
    add.s32 %r5, %r5, %r6;
    bra.uni $L_loop;
$L_done:
    ret;
}
"#;

/// out[i] = i for i <= n: one element too many.
const FILL_OFF_BY_ONE: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry fill(.param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.gt.u32 %p1, %r5, %r1;
    @%p1 bra $L_done;
    mul.wide.u32 %rd2, %r5, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r5;
$L_done:
    ret;
}
"#;

/// Block sums of u32 by a shared-memory tree (128 threads per block).
/// `BARRIER` is replaced by `bar.sync 0;` or by nothing.
const BLOCK_SUM_TEMPLATE: &str = r#"
.visible .entry block_sum(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<16>;
    .shared .align 4 .b8 smem[512];
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    mov.u32 %r6, 0;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra $L_store;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r6, [%rd4];
$L_store:
    mov.u64 %rd5, smem;
    mul.wide.u32 %rd6, %r4, 4;
    add.s64 %rd7, %rd5, %rd6;
    st.shared.u32 [%rd7], %r6;
    bar.sync 0;
    mov.u32 %r10, 64;
$L_loop:
    setp.ge.u32 %p2, %r4, %r10;
    @%p2 bra $L_skip;
    add.s32 %r11, %r4, %r10;
    mul.wide.u32 %rd8, %r11, 4;
    add.s64 %rd9, %rd5, %rd8;
    ld.shared.u32 %r12, [%rd9];
    ld.shared.u32 %r13, [%rd7];
    add.s32 %r13, %r13, %r12;
    st.shared.u32 [%rd7], %r13;
$L_skip:
    BARRIER
    shr.u32 %r10, %r10, 1;
    setp.ne.u32 %p3, %r10, 0;
    @%p3 bra $L_loop;
    setp.ne.u32 %p2, %r4, 0;
    @%p2 bra $L_end;
    ld.shared.u32 %r14, [smem];
    mul.wide.u32 %rd10, %r2, 4;
    add.s64 %rd11, %rd2, %rd10;
    st.global.u32 [%rd11], %r14;
$L_end:
    ret;
}
"#;

fn block_sum(barrier: bool) -> &'static str {
    leak(format!(
        "{HEADER}{}",
        BLOCK_SUM_TEMPLATE.replace("BARRIER", if barrier { "bar.sync 0;" } else { "" })
    ))
}

/// Warp sums with shfl.sync.down, added to *out with atom.global.add.u32;
/// and with shfl.sync.bfly every lane gets its warp's sum in all[i].
const WARP_SUM: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry warp_sum(.param .u64 pin, .param .u64 pout, .param .u64 pall, .param .u32 pn)
{
    .reg .pred %p<4>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u64 %rd3, [pall];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    mov.u32 %r6, 0;
    setp.ge.u32 %p1, %r5, %r1;
    mul.wide.u32 %rd4, %r5, 4;
    add.s64 %rd5, %rd1, %rd4;
    @!%p1 ld.global.u32 %r6, [%rd5];
    mov.u32 %r7, %r6;
    // down
    shfl.sync.down.b32 %r8, %r6, 16, 31, -1;
    add.s32 %r6, %r6, %r8;
    shfl.sync.down.b32 %r8, %r6, 8, 31, -1;
    add.s32 %r6, %r6, %r8;
    shfl.sync.down.b32 %r8, %r6, 4, 31, -1;
    add.s32 %r6, %r6, %r8;
    shfl.sync.down.b32 %r8, %r6, 2, 31, -1;
    add.s32 %r6, %r6, %r8;
    shfl.sync.down.b32 %r8|%p2, %r6, 1, 31, -1;
    add.s32 %r6, %r6, %r8;
    mov.u32 %r9, %laneid;
    setp.eq.u32 %p3, %r9, 0;
    @%p3 red.global.add.u32 [%rd2], %r6;
    // butterfly
    mov.u32 %r10, 1;
$L_bfly:
    shfl.sync.bfly.b32 %r11, %r7, %r10, 31, -1;
    add.s32 %r7, %r7, %r11;
    shl.b32 %r10, %r10, 1;
    setp.lt.u32 %p3, %r10, 32;
    @%p3 bra $L_bfly;
    @%p1 bra $L_end;
    add.s64 %rd6, %rd3, %rd4;
    st.global.u32 [%rd6], %r7;
$L_end:
    ret;
}
"#;

/// Sum of f32 with atom.global.add.f32 from every thread.
const ATOMIC_F32_SUM: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry atomic_sum(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra $L_end;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    atom.global.add.f32 %f2, [%rd2], %f1;
$L_end:
    ret;
}
"#;

/// Each block's thread 0 sums its slice into partial[ctaid]; the last block
/// to finish (atom.inc on a counter, after membar.gl) sums the partials.
const LAST_BLOCK_SUM: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry last_block(.param .u64 pin, .param .u64 ppart, .param .u64 pcount, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<4>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<16>;
    .reg .f64 %fd<4>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [ppart];
    ld.param.u64 %rd3, [pcount];
    ld.param.u64 %rd4, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    setp.ne.u32 %p1, %r4, 0;
    @%p1 bra $L_end;
    // serial sum of this block's slice
    mul.lo.s32 %r5, %r2, %r3;
    add.s32 %r6, %r5, %r3;
    min.u32 %r6, %r6, %r1;
    mov.f64 %fd1, 0d0000000000000000;
$L_sum:
    setp.ge.u32 %p2, %r5, %r6;
    @%p2 bra $L_sum_done;
    mul.wide.u32 %rd5, %r5, 8;
    add.s64 %rd6, %rd1, %rd5;
    ld.global.f64 %fd2, [%rd6];
    add.rn.f64 %fd1, %fd1, %fd2;
    add.s32 %r5, %r5, 1;
    bra.uni $L_sum;
$L_sum_done:
    mul.wide.u32 %rd7, %r2, 8;
    add.s64 %rd8, %rd2, %rd7;
    st.global.f64 [%rd8], %fd1;
    membar.gl;
    mov.u32 %r7, %nctaid.x;
    sub.s32 %r8, %r7, 1;
    atom.global.inc.u32 %r9, [%rd3], %r8;
    setp.ne.u32 %p3, %r9, %r8;
    @%p3 bra $L_end;
    // last block
    fence.acq_rel.gpu;
    mov.f64 %fd1, 0d0000000000000000;
    mov.u32 %r10, 0;
$L_total:
    mul.wide.u32 %rd9, %r10, 8;
    add.s64 %rd10, %rd2, %rd9;
    ld.volatile.global.f64 %fd2, [%rd10];
    add.rn.f64 %fd1, %fd1, %fd2;
    add.s32 %r10, %r10, 1;
    setp.lt.u32 %p2, %r10, %r7;
    @%p2 bra $L_total;
    st.global.f64 [%rd4], %fd1;
$L_end:
    ret;
}
"#;

/// Inclusive prefix sum of one block (Hillis–Steele) in shared memory.
const SCAN: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry scan(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<4>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<12>;
    .shared .align 4 .b8 buf[1024];
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mov.u32 %r6, 0;
    setp.ge.u32 %p1, %r4, %r1;
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd1, %rd3;
    @!%p1 ld.global.u32 %r6, [%rd4];
    mov.u64 %rd5, buf;
    cvta.shared.u64 %rd5, %rd5;
    add.s64 %rd6, %rd5, %rd3;
    st.u32 [%rd6], %r6;
    bar.sync 0;
    mov.u32 %r7, 1;
$L_loop:
    setp.ge.u32 %p2, %r7, %r3;
    @%p2 bra $L_done;
    mov.u32 %r8, 0;
    setp.lt.u32 %p3, %r4, %r7;
    sub.s32 %r9, %r4, %r7;
    mul.wide.u32 %rd7, %r9, 4;
    add.s64 %rd8, %rd5, %rd7;
    @!%p3 ld.u32 %r8, [%rd8];
    barrier.sync 0;
    ld.u32 %r10, [%rd6];
    add.s32 %r10, %r10, %r8;
    st.u32 [%rd6], %r10;
    bar.sync 0;
    shl.b32 %r7, %r7, 1;
    bra.uni $L_loop;
$L_done:
    @%p1 bra $L_end;
    ld.u32 %r11, [%rd6];
    add.s64 %rd9, %rd2, %rd3;
    st.global.u32 [%rd9], %r11;
$L_end:
    ret;
}
"#;

/// Divergent branches: even lanes record activemask and a ballot over it,
/// odd lanes a vote.all and vote.uni over theirs; then a converged vote.any.
const VOTES: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry votes(.param .u64 pout)
{
    .reg .pred %p<6>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd2, %r1, 16;
    add.s64 %rd3, %rd1, %rd2;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 1;
    @%p1 bra $L_odd;
    activemask.b32 %r3;
    and.b32 %r4, %r1, 3;
    setp.eq.u32 %p2, %r4, 0;
    vote.sync.ballot.b32 %r5, %p2, %r3;
    bra.uni $L_join;
$L_odd:
    activemask.b32 %r3;
    setp.lt.u32 %p3, %r1, 1000;
    vote.sync.all.pred %p4, %p3, %r3;
    selp.u32 %r5, 1, 0, %p4;
    vote.sync.uni.pred %p4, %p3, %r3;
    selp.u32 %r6, 2, 0, %p4;
    or.b32 %r5, %r5, %r6;
$L_join:
    setp.gt.u32 %p5, %r1, 40;
    vote.sync.any.pred %p5, %p5, -1;
    selp.u32 %r7, 1, 0, %p5;
    vote.sync.ballot.b32 %r8, !%p1, 0xffffffff;
    st.global.v4.u32 [%rd3], {%r3, %r5, %r7, %r8};
    ret;
}
"#;

/// out[i] = sq(in[i]) + 1 through a .func with a return value.
const CALL: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.func (.param .b32 rv) sq(.param .b32 x, .param .b32 y)
{
    .reg .b32 %r<4>;
    ld.param.b32 %r1, [x];
    ld.param.b32 %r2, [y];
    mul.lo.s32 %r3, %r1, %r1;
    add.s32 %r3, %r3, %r2;
    st.param.b32 [rv], %r3;
    ret;
}

.visible .entry call_sq(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<2>;
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %tid.x;
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra $L_end;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r3, [%rd4];
    {
        .param .b32 p0;
        st.param.b32 [p0], %r3;
        .param .b32 p1;
        st.param.b32 [p1], 1;
        .param .b32 ret0;
        call.uni (ret0), sq, (p0, p1);
        ld.param.b32 %r4, [ret0];
    }
    add.s64 %rd5, %rd2, %rd3;
    st.global.u32 [%rd5], %r4;
$L_end:
    ret;
}
"#;

/// Maximum of f64 by an atom.cas loop on its bits.
const CAS_MAX: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry cas_max(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<3>;
    .reg .b32 %r<8>;
    .reg .f64 %fd<4>;
    .reg .b64 %rd<10>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p1, %r5, %r1;
    @%p1 bra $L_end;
    mul.wide.u32 %rd3, %r5, 8;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f64 %fd1, [%rd4];
    ld.volatile.global.u64 %rd5, [%rd2];
$L_retry:
    mov.b64 %fd2, %rd5;
    max.f64 %fd3, %fd2, %fd1;
    mov.b64 %rd6, %fd3;
    atom.global.cas.b64 %rd7, [%rd2], %rd5, %rd6;
    setp.ne.s64 %p2, %rd7, %rd5;
    mov.b64 %rd5, %rd7;
    @%p2 bra $L_retry;
$L_end:
    ret;
}
"#;

/// Reverses each block's slice through dynamic shared memory.
const DYN_REVERSE: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.extern .shared .align 16 .b8 dyn[];

.visible .entry dyn_reverse(.param .u64 pin, .param .u64 pout)
{
    .reg .pred %p<2>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<12>;
    .shared .align 4 .b32 pad[3];
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r6, [%rd4];
    mov.u64 %rd5, dyn;
    mul.wide.u32 %rd6, %r4, 4;
    add.s64 %rd7, %rd5, %rd6;
    st.shared.u32 [%rd7], %r6;
    setp.eq.u32 %p1, %r4, 0;
    @%p1 st.shared.u32 [pad+8], %r6;
    bar.sync 0;
    sub.s32 %r7, %r3, %r4;
    sub.s32 %r7, %r7, 1;
    mul.wide.u32 %rd8, %r7, 4;
    add.s64 %rd9, %rd5, %rd8;
    ld.shared.u32 %r8, [%rd9];
    add.s64 %rd10, %rd2, %rd3;
    st.global.u32 [%rd10], %r8;
    ret;
}
"#;

/// A one-thread-per-element kernel: loads `in[i]` (memory type `in_mem`) into
/// register `%a` (`.in_reg`), runs `body`, stores `%d` (`.out_reg`) as `out_mem`.
fn map_kernel(
    name: &str,
    in_mem: &str,
    in_reg: &str,
    out_mem: &str,
    out_reg: &str,
    body: &str,
) -> &'static str {
    let size = |t: &str| t[1..].parse::<u32>().unwrap_or(32) / 8;
    let (isz, osz) = (size(in_mem), size(out_mem));
    leak(format!(
        "{HEADER}
.visible .entry {name}(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{{
    .reg .pred %p<2>;
    .reg .pred %q<4>;
    .reg .b32 %r<4>;
    .reg .b32 %t<4>;
    .reg .b64 %rd<6>;
    .reg .{in_reg} %a;
    .reg .{out_reg} %d;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r0, %ntid.x;
    mad.lo.s32 %r2, %r3, %r0, %r2;
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra $L_end;
    mul.wide.u32 %rd3, %r2, {isz};
    add.s64 %rd3, %rd1, %rd3;
    ld.global.{in_mem} %a, [%rd3];
    {body}
    mul.wide.u32 %rd4, %r2, {osz};
    add.s64 %rd4, %rd2, %rd4;
    st.global.{out_mem} [%rd4], %d;
$L_end:
    ret;
}}
"
    ))
}

/// Runs a map kernel over `xs`, returning `n` outputs of type `O`.
fn run_map<I: Copy, O: Copy + Default>(
    d: &SimDevice,
    ptx: &'static str,
    name: &str,
    xs: &[I],
) -> Result<Vec<O>> {
    let pin = up(d, xs);
    let pout = d.alloc(xs.len() * std::mem::size_of::<O>())?;
    let n = xs.len() as u32;
    d.launch(
        ptx,
        name,
        cfg(n.div_ceil(64).max(1), 64),
        &[ptr(pin), ptr(pout), KernelArg::U32(n)],
    )?;
    Ok(down(d, pout, xs.len()))
}

fn map(ptx: &'static str, name: &str) -> (&'static str, String) {
    (ptx, name.to_string())
}

/// The generated map kernels used by the tests (also assembled by ptxas).
fn cvt_programs() -> Vec<(&'static str, String)> {
    let mut v = Vec::new();
    for r in ["rni", "rzi", "rmi", "rpi"] {
        let n = format!("f2s_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f32",
                "f32",
                "s32",
                "s32",
                &format!("cvt.{r}.s32.f32 %d, %a;"),
            ),
            &n,
        ));
        let n = format!("f2f_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f32",
                "f32",
                "f32",
                "f32",
                &format!("cvt.{r}.f32.f32 %d, %a;"),
            ),
            &n,
        ));
    }
    v.push(map(
        map_kernel("f2u", "f32", "f32", "u32", "u32", "cvt.rzi.u32.f32 %d, %a;"),
        "f2u",
    ));
    v.push(map(
        map_kernel("f2u16", "f32", "f32", "u16", "u16", "cvt.rni.u16.f32 %d, %a;"),
        "f2u16",
    ));
    v.push(map(
        map_kernel("f2s64", "f32", "f32", "s64", "s64", "cvt.rzi.s64.f32 %d, %a;"),
        "f2s64",
    ));
    for r in ["rn", "rz", "rm", "rp"] {
        let n = format!("d2f_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f64",
                "f64",
                "f32",
                "f32",
                &format!("cvt.{r}.f32.f64 %d, %a;"),
            ),
            &n,
        ));
        let n = format!("l2f_{r}");
        v.push(map(
            map_kernel(
                &n,
                "s64",
                "s64",
                "f32",
                "f32",
                &format!("cvt.{r}.f32.s64 %d, %a;"),
            ),
            &n,
        ));
    }
    v.push(map(
        map_kernel("sat_s16", "s32", "s32", "s16", "s16", "cvt.sat.s16.s32 %d, %a;"),
        "sat_s16",
    ));
    v.push(map(
        map_kernel("trunc_s16", "s32", "s32", "s16", "s16", "cvt.s16.s32 %d, %a;"),
        "trunc_s16",
    ));
    v.push(map(
        map_kernel("sext_s16", "s16", "s16", "s32", "s32", "cvt.s32.s16 %d, %a;"),
        "sext_s16",
    ));
    v.push(map(
        map_kernel("s32_to_u64", "s32", "s32", "u64", "u64", "cvt.u64.s32 %d, %a;"),
        "s32_to_u64",
    ));
    v.push(map(
        map_kernel("u32_to_u64", "u32", "u32", "u64", "u64", "cvt.u64.u32 %d, %a;"),
        "u32_to_u64",
    ));
    v.push(map(
        map_kernel("sat_f32", "f32", "f32", "f32", "f32", "cvt.sat.f32.f32 %d, %a;"),
        "sat_f32",
    ));
    v.push(map(
        map_kernel("ld_s8", "s8", "s32", "s32", "s32", "mov.b32 %d, %a;"),
        "ld_s8",
    ));
    v
}

fn shift_programs() -> Vec<(&'static str, String)> {
    let mut v = Vec::new();
    for (n, op, ty, amt) in [
        ("shl32_32", "shl.b32", "b32", 32),
        ("shl32_31", "shl.b32", "b32", 31),
        ("shru32_40", "shr.u32", "u32", 40),
        ("shrs32_100", "shr.s32", "s32", 100),
        ("shrs32_33", "shr.s32", "s32", 33),
        ("shl64_63", "shl.b64", "b64", 63),
        ("shl64_64", "shl.b64", "b64", 64),
        ("shrs64_200", "shr.s64", "s64", 200),
    ] {
        let body = format!("mov.u32 %t1, {amt};\n    {op} %d, %a, %t1;");
        let mem = if ty.ends_with("64") { "b64" } else { "b32" };
        v.push(map(map_kernel(n, mem, ty, mem, ty, &body), n));
    }
    v
}

fn misc_programs() -> Vec<(&'static str, String)> {
    let testp = "testp.finite.f32 %q0, %a;
    selp.u32 %t0, 1, 0, %q0;
    testp.infinite.f32 %q0, %a;
    selp.u32 %t1, 2, 0, %q0;
    or.b32 %t0, %t0, %t1;
    testp.number.f32 %q0, %a;
    selp.u32 %t1, 4, 0, %q0;
    or.b32 %t0, %t0, %t1;
    testp.notanumber.f32 %q0, %a;
    selp.u32 %t1, 8, 0, %q0;
    or.b32 %t0, %t0, %t1;
    testp.normal.f32 %q0, %a;
    selp.u32 %t1, 16, 0, %q0;
    or.b32 %t0, %t0, %t1;
    testp.subnormal.f32 %q0, %a;
    selp.u32 %t1, 32, 0, %q0;
    or.b32 %d, %t0, %t1;";
    let minmax = "mov.f32 %t2, 0f7FC00000;
    min.f32 %d, %a, %t2;";
    let intops = "mov.u32 %t1, 0;
    div.u32 %t2, %a, %t1;
    rem.u32 %t3, %a, %t1;
    add.u32 %t2, %t2, %t3;
    bfind.u32 %t3, %a;
    add.u32 %t2, %t2, %t3;
    popc.b32 %t3, %a;
    add.u32 %t2, %t2, %t3;
    clz.b32 %t3, %a;
    add.u32 %t2, %t2, %t3;
    bfe.s32 %t3, %a, 4, 8;
    xor.b32 %t2, %t2, %t3;
    brev.b32 %t3, %a;
    xor.b32 %t2, %t2, %t3;
    bfi.b32 %d, %a, %t2, 8, 4;";
    vec![
        map(map_kernel("testp", "f32", "f32", "u32", "u32", testp), "testp"),
        map(
            map_kernel("fmin_nan", "f32", "f32", "f32", "f32", minmax),
            "fmin_nan",
        ),
        map(map_kernel("intops", "u32", "u32", "u32", "u32", intops), "intops"),
        map(
            map_kernel(
                "copysign",
                "f32",
                "f32",
                "f32",
                "f32",
                "mov.f32 %t2, 0fBF800000;\n    copysign.f32 %d, %t2, %a;",
            ),
            "copysign",
        ),
    ]
}

// ------------------------------------------------------------------- tests

#[test]
fn vector_add_grid_stride_odd_sizes_and_empty() -> Result<()> {
    for (n, grid, block, seed) in [
        (0usize, 1u32, 32u32, 1u64),
        (1, 1, 32, 2),
        (1000, 3, 96, 3),
        (2001, 4, 128, 4),
        (77, 2, 33, 5),
    ] {
        let d = SimDevice::new(seed);
        let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
        let (pa, pb) = (up(&d, &a), up(&d, &b));
        let pc = d.alloc(n * 4)?;
        d.launch(
            VADD,
            "vadd",
            cfg(grid, block),
            &[ptr(pa), ptr(pb), ptr(pc), KernelArg::U32(n as u32)],
        )?;
        let c: Vec<f32> = down(&d, pc, n);
        for i in 0..n {
            assert_eq!(c[i], a[i] + b[i], "n={n} i={i}");
        }
    }
    Ok(())
}

#[test]
fn launch_checks_arguments_and_kernel_name() {
    let d = SimDevice::new(0);
    let p = d.alloc(4).expect("alloc");
    let e = d
        .launch(VADD, "vadd", cfg(1, 32), &[ptr(p), ptr(p), ptr(p)])
        .unwrap_err();
    assert!(e.message().contains("3 arguments"), "{e}");
    let e = d
        .launch(
            VADD,
            "vadd",
            cfg(1, 32),
            &[ptr(p), ptr(p), ptr(p), KernelArg::U64(1)],
        )
        .unwrap_err();
    assert!(e.message().contains("pn"), "{e}");
    let e = d.launch(VADD, "nope", cfg(1, 32), &[]).unwrap_err();
    assert!(e.message().contains("no kernel `nope`"), "{e}");
    let e = d
        .launch(
            VADD,
            "vadd",
            cfg(0, 32),
            &[ptr(p), ptr(p), ptr(p), KernelArg::U32(0)],
        )
        .unwrap_err();
    assert!(e.message().contains("zero"), "{e}");
    let src = ntid_program();
    assert!(d.launch(src, "k", cfg(2, 64), &[]).is_ok());
    let e = d.launch(src, "k", cfg(1, 32), &[]).unwrap_err();
    assert!(e.message().contains(".reqntid"), "{e}");
    assert!(d.launch(src, "m", cfg(1, 64), &[]).is_ok());
    let e = d.launch(src, "m", cfg(1, 65), &[]).unwrap_err();
    assert!(e.message().contains(".maxntid"), "{e}");
    // Freeing twice or freeing an unknown pointer is harmless.
    d.free(p);
    d.free(p);
    d.free(DevicePtr(12345));
    let z1 = d.alloc(0).expect("alloc");
    let z2 = d.alloc(0).expect("alloc");
    assert_ne!(z1, z2);
    assert!(z1.0 != 0 && z1.0.is_multiple_of(256));
}

#[test]
fn block_reduction_in_shared_memory() -> Result<()> {
    let prog = block_sum(true);
    for (n, seed) in [(1usize, 1u64), (128, 2), (300, 3), (1000, 4)] {
        let d = SimDevice::new(seed);
        let xs: Vec<u32> = (0..n as u32).map(|i| i * 7 + 1).collect();
        let blocks = n.div_ceil(128);
        let pin = up(&d, &xs);
        let pout = d.alloc(blocks * 4)?;
        d.launch(
            prog,
            "block_sum",
            cfg(blocks as u32, 128),
            &[ptr(pin), ptr(pout), KernelArg::U32(n as u32)],
        )?;
        let out: Vec<u32> = down(&d, pout, blocks);
        for b in 0..blocks {
            let want: u32 = xs[b * 128..((b + 1) * 128).min(n)].iter().sum();
            assert_eq!(out[b], want, "block {b}");
        }
    }
    Ok(())
}

#[test]
fn missing_barrier_is_a_data_race() {
    let prog = block_sum(false);
    for seed in 0..4 {
        let d = SimDevice::new(seed);
        let xs: Vec<u32> = (0..256).collect();
        let pin = up(&d, &xs);
        let pout = d.alloc(8).expect("alloc");
        let e = d
            .launch(
                prog,
                "block_sum",
                cfg(2, 128),
                &[ptr(pin), ptr(pout), KernelArg::U32(256)],
            )
            .unwrap_err();
        let m = e.message();
        assert!(m.contains("data race on shared memory"), "{m}");
        assert!(
            m.contains("kernel `block_sum`") && m.contains("tid=(") && m.contains("line "),
            "{m}"
        );
    }
}

#[test]
fn warp_shuffle_reductions() -> Result<()> {
    for (n, seed) in [(192usize, 1u64), (150, 2), (31, 3)] {
        let d = SimDevice::new(seed);
        let xs: Vec<u32> = (0..n as u32).map(|i| i * 3 + 2).collect();
        let pin = up(&d, &xs);
        let pout = up(&d, &[0u32]);
        let pall = d.alloc(n * 4)?;
        let grid = n.div_ceil(64) as u32;
        d.launch(
            WARP_SUM,
            "warp_sum",
            cfg(grid, 64),
            &[ptr(pin), ptr(pout), ptr(pall), KernelArg::U32(n as u32)],
        )?;
        let total: Vec<u32> = down(&d, pout, 1);
        assert_eq!(total[0], xs.iter().sum::<u32>());
        let all: Vec<u32> = down(&d, pall, n);
        for i in 0..n {
            let w = i / 32;
            let want: u32 = xs[w * 32..((w + 1) * 32).min(n)].iter().sum();
            assert_eq!(all[i], want, "lane sum at {i}");
        }
    }
    Ok(())
}

#[test]
fn atomic_f32_sum_over_blocks() -> Result<()> {
    let d = SimDevice::new(7);
    let n = 1999;
    let xs: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
    let pin = up(&d, &xs);
    let pout = up(&d, &[0.0f32]);
    d.launch(
        ATOMIC_F32_SUM,
        "atomic_sum",
        cfg(16, 128),
        &[ptr(pin), ptr(pout), KernelArg::U32(n as u32)],
    )?;
    let s: Vec<f32> = down(&d, pout, 1);
    assert_eq!(s[0], xs.iter().sum::<f32>());
    Ok(())
}

#[test]
fn last_block_reduction_with_atom_inc() -> Result<()> {
    for seed in 0..3 {
        let d = SimDevice::new(seed);
        let n = 1000usize;
        let xs: Vec<f64> = (0..n).map(|i| i as f64 * 0.25).collect();
        let blocks = 9u32;
        let bs = (n as u32).div_ceil(blocks);
        let pin = up(&d, &xs);
        let ppart = d.alloc(blocks as usize * 8)?;
        let pcount = up(&d, &[0u32]);
        let pout = up(&d, &[0.0f64]);
        d.launch(
            LAST_BLOCK_SUM,
            "last_block",
            cfg(blocks, bs),
            &[
                ptr(pin),
                ptr(ppart),
                ptr(pcount),
                ptr(pout),
                KernelArg::U32(n as u32),
            ],
        )?;
        let out: Vec<f64> = down(&d, pout, 1);
        assert_eq!(out[0], xs.iter().sum::<f64>());
        // atom.inc wrapped the counter back to 0 at nblocks-1.
        let c: Vec<u32> = down(&d, pcount, 1);
        assert_eq!(c[0], 0);
    }
    Ok(())
}

#[test]
fn prefix_sum_in_shared_memory() -> Result<()> {
    for (n, block, seed) in [(256usize, 256u32, 1u64), (200, 256, 2), (1, 32, 3), (96, 96, 4)] {
        let d = SimDevice::new(seed);
        let xs: Vec<u32> = (0..n as u32).map(|i| i % 13 + 1).collect();
        let pin = up(&d, &xs);
        let pout = d.alloc(n * 4)?;
        d.launch(
            SCAN,
            "scan",
            cfg(1, block),
            &[ptr(pin), ptr(pout), KernelArg::U32(n as u32)],
        )?;
        let out: Vec<u32> = down(&d, pout, n);
        let mut acc = 0;
        for i in 0..n {
            acc += xs[i];
            assert_eq!(out[i], acc, "at {i}");
        }
    }
    Ok(())
}

#[test]
fn vote_ballot_activemask_with_divergence() -> Result<()> {
    for seed in 0..4 {
        let d = SimDevice::new(seed);
        let pout = d.alloc(64 * 16)?;
        d.launch(VOTES, "votes", cfg(1, 64), &[ptr(pout)])?;
        let out: Vec<u32> = down(&d, pout, 64 * 4);
        for t in 0..64usize {
            let r = &out[t * 4..t * 4 + 4];
            if t.is_multiple_of(2) {
                assert_eq!(r[0], 0x5555_5555, "activemask of even lanes, t={t}");
                assert_eq!(r[1], 0x1111_1111, "ballot of lanes divisible by 4, t={t}");
            } else {
                assert_eq!(r[0], 0xaaaa_aaaa, "activemask of odd lanes, t={t}");
                // all(tid < 1000) = 1, uni(tid < 1000) = 2
                assert_eq!(r[1], 3, "t={t}");
            }
            assert_eq!(r[2], (t >= 32) as u32, "any(tid > 40) in warp of t={t}");
            assert_eq!(r[3], 0x5555_5555, "ballot(!odd)");
        }
    }
    Ok(())
}

#[test]
fn func_call_with_params_and_return_value() -> Result<()> {
    let d = SimDevice::new(3);
    let xs: Vec<u32> = (0..50).collect();
    let pin = up(&d, &xs);
    let pout = d.alloc(50 * 4)?;
    d.launch(
        CALL,
        "call_sq",
        cfg(1, 64),
        &[ptr(pin), ptr(pout), KernelArg::U32(50)],
    )?;
    let out: Vec<u32> = down(&d, pout, 50);
    for i in 0..50 {
        assert_eq!(out[i], xs[i] * xs[i] + 1);
    }
    Ok(())
}

#[test]
fn cas_loop_f64_max() -> Result<()> {
    for seed in 0..3 {
        let d = SimDevice::new(seed);
        let xs: Vec<f64> = (0..700).map(|i| ((i * 37) % 101) as f64 - 50.5).collect();
        let pin = up(&d, &xs);
        let pout = up(&d, &[f64::NEG_INFINITY]);
        d.launch(
            CAS_MAX,
            "cas_max",
            cfg(6, 128),
            &[ptr(pin), ptr(pout), KernelArg::U32(700)],
        )?;
        let out: Vec<f64> = down(&d, pout, 1);
        assert_eq!(out[0], 49.5);
    }
    Ok(())
}

#[test]
fn dynamic_shared_memory() -> Result<()> {
    let d = SimDevice::new(5);
    let n = 3 * 64;
    let xs: Vec<u32> = (0..n as u32).collect();
    let pin = up(&d, &xs);
    let pout = d.alloc(n * 4)?;
    let c = LaunchConfig {
        grid: [3, 1, 1],
        block: [64, 1, 1],
        dynamic_shared_bytes: 64 * 4,
    };
    d.launch(DYN_REVERSE, "dyn_reverse", c, &[ptr(pin), ptr(pout)])?;
    let out: Vec<u32> = down(&d, pout, n);
    for i in 0..n {
        let (b, t) = (i / 64, i % 64);
        assert_eq!(out[i], xs[b * 64 + 63 - t]);
    }
    // Too little dynamic shared memory: out of the block's shared memory.
    let c = LaunchConfig {
        dynamic_shared_bytes: 32 * 4,
        ..c
    };
    let e = d
        .launch(DYN_REVERSE, "dyn_reverse", c, &[ptr(pin), ptr(pout)])
        .unwrap_err();
    assert!(e.message().contains("outside the block's"), "{e}");
    Ok(())
}

fn find(progs: &[(&'static str, String)], name: &str) -> &'static str {
    progs.iter().find(|p| p.1 == name).map(|p| p.0).expect("program")
}

#[test]
fn cvt_rounding_edge_cases() -> Result<()> {
    let d = SimDevice::new(1);
    let progs = cvt_programs();
    let nan = f32::NAN;
    let xs = [
        nan,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3e9,
        -3e9,
        2.5,
        -2.5,
        3.5,
        -0.0,
        1.5,
        -1.5,
        0.7,
    ];
    let (mx, mn) = (i32::MAX, i32::MIN);
    let want: [(&str, [i32; 12]); 4] = [
        ("f2s_rni", [0, mx, mn, mx, mn, 2, -2, 4, 0, 2, -2, 1]),
        ("f2s_rzi", [0, mx, mn, mx, mn, 2, -2, 3, 0, 1, -1, 0]),
        ("f2s_rmi", [0, mx, mn, mx, mn, 2, -3, 3, 0, 1, -2, 0]),
        ("f2s_rpi", [0, mx, mn, mx, mn, 3, -2, 4, 0, 2, -1, 1]),
    ];
    for (name, w) in want {
        let got: Vec<i32> = run_map(&d, find(&progs, name), name, &xs)?;
        assert_eq!(got, w.to_vec(), "{name}");
    }
    let got: Vec<u32> = run_map(&d, find(&progs, "f2u"), "f2u", &xs)?;
    assert_eq!(got, vec![0, u32::MAX, 0, 3_000_000_000, 0, 2, 0, 3, 0, 1, 0, 0]);
    let got: Vec<u16> = run_map(
        &d,
        find(&progs, "f2u16"),
        "f2u16",
        &[70000.0f32, -5.0, 1.5, 65535.4, nan],
    )?;
    assert_eq!(got, vec![65535, 0, 2, 65535, 0]);
    let got: Vec<i64> = run_map(&d, find(&progs, "f2s64"), "f2s64", &[1e19f32, -1e19, -7.9, nan])?;
    assert_eq!(got, vec![i64::MAX, i64::MIN, -7, 0]);
    // Float to float with integer rounding keeps the sign of zero.
    let ys = [-0.5f32, 0.5, 2.5, -2.5, 1e30, nan, -0.0];
    for (name, w) in [
        ("f2f_rni", [-0.0f32, 0.0, 2.0, -2.0, 1e30, nan, -0.0]),
        ("f2f_rzi", [-0.0, 0.0, 2.0, -2.0, 1e30, nan, -0.0]),
        ("f2f_rmi", [-1.0, 0.0, 2.0, -3.0, 1e30, nan, -0.0]),
        ("f2f_rpi", [-0.0, 1.0, 3.0, -2.0, 1e30, nan, -0.0]),
    ] {
        let got: Vec<f32> = run_map(&d, find(&progs, name), name, &ys)?;
        let gb: Vec<u32> = got
            .iter()
            .map(|x| if x.is_nan() { 1 } else { x.to_bits() })
            .collect();
        let wb: Vec<u32> = w
            .iter()
            .map(|x| if x.is_nan() { 1 } else { x.to_bits() })
            .collect();
        assert_eq!(gb, wb, "{name}");
    }
    // f64 -> f32 in all four directions.
    let above1 = 1.0 + 2f64.powi(-30);
    let tie = 1.0 + 2f64.powi(-24);
    let zs = [above1, -above1, 1e39, -1e39, 2f64.powi(-160), -0.0, tie];
    let up1 = 1.0f32.next_up();
    let tiny = f32::from_bits(1);
    for (name, w) in [
        (
            "d2f_rn",
            [1.0f32, -1.0, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0, 1.0],
        ),
        ("d2f_rz", [1.0, -1.0, f32::MAX, -f32::MAX, 0.0, -0.0, 1.0]),
        ("d2f_rm", [1.0, -up1, f32::MAX, f32::NEG_INFINITY, 0.0, -0.0, 1.0]),
        ("d2f_rp", [up1, -1.0, f32::INFINITY, -f32::MAX, tiny, -0.0, up1]),
    ] {
        let got: Vec<f32> = run_map(&d, find(&progs, name), name, &zs)?;
        let gb: Vec<u32> = got.iter().map(|x| x.to_bits()).collect();
        let wb: Vec<u32> = w.iter().map(|x| x.to_bits()).collect();
        assert_eq!(gb, wb, "{name}");
    }
    // s64 -> f32 in all four directions.
    let p24 = 1i64 << 24;
    let ls = [p24 + 1, -(p24 + 1), i64::MAX, p24 + 3];
    let (a, b) = (16777216.0f32, 16777218.0f32);
    let big = 9.223372e18f32;
    let below_big = big.next_down();
    for (name, w) in [
        ("l2f_rn", [a, -a, big, 16777220.0]),
        ("l2f_rz", [a, -a, below_big, b]),
        ("l2f_rm", [a, -b, below_big, b]),
        ("l2f_rp", [b, -a, big, 16777220.0]),
    ] {
        let got: Vec<f32> = run_map(&d, find(&progs, name), name, &ls)?;
        assert_eq!(got, w.to_vec(), "{name}");
    }
    // Integer to integer: saturation, truncation, sign and zero extension.
    let got: Vec<i16> = run_map(&d, find(&progs, "sat_s16"), "sat_s16", &[40000i32, -40000, 5])?;
    assert_eq!(got, vec![32767, -32768, 5]);
    let got: Vec<i16> = run_map(&d, find(&progs, "trunc_s16"), "trunc_s16", &[40000i32, -1])?;
    assert_eq!(got, vec![-25536, -1]);
    let got: Vec<i32> = run_map(&d, find(&progs, "sext_s16"), "sext_s16", &[-25536i16, 7])?;
    assert_eq!(got, vec![-25536, 7]);
    let got: Vec<u64> = run_map(&d, find(&progs, "s32_to_u64"), "s32_to_u64", &[-1i32, 3])?;
    assert_eq!(got, vec![u64::MAX, 3]);
    let got: Vec<u64> = run_map(&d, find(&progs, "u32_to_u64"), "u32_to_u64", &[u32::MAX])?;
    assert_eq!(got, vec![0xffff_ffff]);
    let got: Vec<f32> = run_map(&d, find(&progs, "sat_f32"), "sat_f32", &[nan, -1.0f32, 2.0, 0.5])?;
    assert_eq!(got, vec![0.0, 0.0, 1.0, 0.5]);
    let got: Vec<i32> = run_map(&d, find(&progs, "ld_s8"), "ld_s8", &[-3i8, 100, -128])?;
    assert_eq!(got, vec![-3, 100, -128]);
    Ok(())
}

#[test]
fn shifts_at_and_beyond_the_width() -> Result<()> {
    let d = SimDevice::new(1);
    let progs = shift_programs();
    let r32 = |name: &str, x: i32| -> Result<i32> {
        Ok(run_map::<i32, i32>(&d, find(&progs, name), name, &[x])?[0])
    };
    assert_eq!(r32("shl32_32", -1)?, 0);
    assert_eq!(r32("shl32_31", 3)?, i32::MIN);
    assert_eq!(r32("shru32_40", -1)?, 0);
    assert_eq!(r32("shrs32_100", -8)?, -1);
    assert_eq!(r32("shrs32_33", 8)?, 0);
    let r64 = |name: &str, x: i64| -> Result<i64> {
        Ok(run_map::<i64, i64>(&d, find(&progs, name), name, &[x])?[0])
    };
    assert_eq!(r64("shl64_63", 1)?, i64::MIN);
    assert_eq!(r64("shl64_64", 1)?, 0);
    assert_eq!(r64("shrs64_200", -5)?, -1);
    Ok(())
}

#[test]
fn testp_min_nan_copysign_and_integer_bit_ops() -> Result<()> {
    let d = SimDevice::new(1);
    let progs = misc_programs();
    let got: Vec<u32> = run_map(
        &d,
        find(&progs, "testp"),
        "testp",
        &[0.0f32, 1.0, f32::INFINITY, f32::NAN, 1e-40, -0.0],
    )?;
    assert_eq!(got, vec![21, 21, 6, 8, 37, 21]);
    let got: Vec<f32> = run_map(&d, find(&progs, "fmin_nan"), "fmin_nan", &[2.0f32, -0.0])?;
    assert_eq!(got[0], 2.0);
    assert!(got[1] == 0.0 && got[1].is_sign_negative());
    let got: Vec<f32> = run_map(&d, find(&progs, "copysign"), "copysign", &[2.0f32, -3.0])?;
    assert_eq!(got, vec![-2.0, -3.0]);
    // intops on x: t2 = div(x,0) + rem(x,0) + bfind + popc + clz, ^ bfe.s32(x,4,8) ^ brev(x); d = bfi(x, t2, 8, 4)
    let model = |x: u32| -> u32 {
        let mut t2 = u32::MAX.wrapping_add(x);
        t2 = t2.wrapping_add(if x == 0 { u32::MAX } else { 31 - x.leading_zeros() });
        t2 = t2.wrapping_add(x.count_ones());
        t2 = t2.wrapping_add(x.leading_zeros());
        t2 ^= (((x >> 4) & 0xff) as u8 as i8) as i32 as u32;
        t2 ^= x.reverse_bits();
        (t2 & !(0xf << 8)) | ((x & 0xf) << 8)
    };
    let xs = [0u32, 1, 0x8000_0000, 0x1234_5678, 0xffff_ffff, 0xf0];
    let got: Vec<u32> = run_map(&d, find(&progs, "intops"), "intops", &xs)?;
    let want: Vec<u32> = xs.iter().map(|&x| model(x)).collect();
    assert_eq!(got, want);
    Ok(())
}

// ------------------------------------------------------- negative programs

const UNINIT_REG: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry uninit_reg(.param .u64 pout)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [pout];
    add.s32 %r2, %r1, 1;
    st.global.u32 [%rd1], %r2;
    ret;
}
"#;

const UNINIT_SHARED: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry uninit_shared(.param .u64 pout)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    .shared .align 4 .b8 s[128];
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    ld.shared.u32 %r2, [s+8];
    st.global.u32 [%rd1], %r2;
    ret;
}
"#;

/// Even lanes shuffle down by one: their source (an odd lane) is not in the mask.
const SHFL_INACTIVE: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry shfl_inactive(.param .u64 pout)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p1, %r2, 1;
    @%p1 bra $L_end;
    activemask.b32 %r3;
    shfl.sync.down.b32 %r4, %r1, 1, 31, %r3;
    st.global.u32 [%rd1], %r4;
$L_end:
    ret;
}
"#;

/// Lane 0 passes a membermask without itself.
const SHFL_SELF: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry shfl_self(.param .u64 pout)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    shfl.sync.idx.b32 %r4, %r1, 0, 31, 0xfffffffe;
    st.global.u32 [%rd1], %r4;
    ret;
}
"#;

/// Half the block waits at a 64-thread barrier, the other half exits.
const BARRIER_HALF: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry barrier_half(.param .u64 pout)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra $L_end;
    bar.sync 1, 64;
$L_end:
    ret;
}
"#;

fn negative_programs() -> Vec<(&'static str, String)> {
    vec![
        map(FILL_OFF_BY_ONE, "fill"),
        map(UNINIT_REG, "uninit_reg"),
        map(UNINIT_SHARED, "uninit_shared"),
        map(SHFL_INACTIVE, "shfl_inactive"),
        map(SHFL_SELF, "shfl_self"),
        map(BARRIER_HALF, "barrier_half"),
        map(block_sum(false), "block_sum"),
    ]
}

fn launch_err(ptx: &'static str, name: &str, grid: u32, block: u32, args: &[KernelArg]) -> String {
    let d = SimDevice::new(9);
    match d.launch(ptx, name, cfg(grid, block), args) {
        Ok(()) => panic!("{name}: expected an error"),
        Err(e) => {
            assert_eq!(e.kind(), accel_runtime::ErrorKind::DeviceFailure);
            e.to_string()
        }
    }
}

#[test]
fn out_of_bounds_store_names_kernel_instruction_and_thread() {
    let d = SimDevice::new(2);
    let p = d.alloc(100 * 4).expect("alloc");
    let e = d
        .launch(
            FILL_OFF_BY_ONE,
            "fill",
            cfg(2, 64),
            &[ptr(p), KernelArg::U32(100)],
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("kernel `fill`"), "{e}");
    assert!(e.contains("st.global.u32 [%rd3], %r5;"), "{e}");
    assert!(e.contains("ctaid=(1,0,0), tid=(36,0,0)"), "{e}");
    assert!(e.contains("outside every live allocation"), "{e}");
    // Using freed memory is out of bounds too.
    d.free(p);
    let e = d
        .launch(FILL_OFF_BY_ONE, "fill", cfg(1, 8), &[ptr(p), KernelArg::U32(4)])
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside every live allocation"), "{e}");
}

#[test]
fn uninitialised_register_read() {
    let d = SimDevice::new(0);
    let p = d.alloc(4).expect("alloc");
    let e = d
        .launch(UNINIT_REG, "uninit_reg", cfg(1, 1), &[ptr(p)])
        .unwrap_err()
        .to_string();
    assert!(e.contains("reads register %r1 before any write"), "{e}");
    assert!(e.contains("add.s32 %r2, %r1, 1;"), "{e}");
}

#[test]
fn uninitialised_shared_read() {
    let d = SimDevice::new(0);
    let p = d.alloc(4).expect("alloc");
    let e = d
        .launch(UNINIT_SHARED, "uninit_shared", cfg(1, 1), &[ptr(p)])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("reads shared memory byte 0x8, which no thread has written"),
        "{e}"
    );
}

#[test]
fn shuffle_from_a_lane_outside_the_mask_or_without_self() {
    let d = SimDevice::new(0);
    let p = d.alloc(4).expect("alloc");
    let e = launch_err(SHFL_INACTIVE, "shfl_inactive", 1, 32, &[ptr(p)]);
    assert!(
        e.contains("kernel `shfl_inactive`") && e.contains("shfl.sync reads lane 1, which has exited"),
        "{e}"
    );
    let _ = d;
    let d = SimDevice::new(0);
    let p = d.alloc(4).expect("alloc");
    let e = d
        .launch(SHFL_SELF, "shfl_self", cfg(1, 32), &[ptr(p)])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("does not include the executing thread (lane 0)"),
        "{e}"
    );
}

#[test]
fn barrier_not_reached_by_all_threads_deadlocks() {
    let d = SimDevice::new(0);
    let p = d.alloc(4).expect("alloc");
    let e = d
        .launch(BARRIER_HALF, "barrier_half", cfg(1, 64), &[ptr(p)])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("deadlock") && e.contains("32 thread(s) wait at") && e.contains("bar.sync 1, 64;"),
        "{e}"
    );
}

#[test]
fn unsupported_instruction_or_modifier_fails_at_parse_time() {
    let d = SimDevice::new(0);
    let src = unsupported_programs()[0].0;
    let e = d.launch(src, "k", cfg(1, 1), &[]).unwrap_err().to_string();
    assert!(
        e.contains("unsupported instruction `prmt.b32`") && e.contains("line 8"),
        "{e}"
    );
    let src = unsupported_programs()[1].0;
    let e = d.launch(src, "k", cfg(1, 1), &[]).unwrap_err().to_string();
    assert!(
        e.contains("unsupported modifier `.sat`") && e.contains("line 8"),
        "{e}"
    );
}

// ------------------------------------------------------------ speed, ptxas

#[test]
fn simulation_speed() -> Result<()> {
    let d = SimDevice::new(11);
    let n = 200_000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let (pa, pb) = (up(&d, &a), up(&d, &a));
    let pc = d.alloc(n * 4)?;
    d.launch(
        VADD,
        "vadd",
        cfg(16, 256),
        &[ptr(pa), ptr(pb), ptr(pc), KernelArg::U32(n as u32)],
    )?;
    let prog = block_sum(true);
    let xs: Vec<u32> = (0..n as u32).collect();
    let pin = up(&d, &xs);
    let pout = d.alloc(n.div_ceil(128) * 4)?;
    d.launch(
        prog,
        "block_sum",
        cfg(n.div_ceil(128) as u32, 128),
        &[ptr(pin), ptr(pout), KernelArg::U32(n as u32)],
    )?;
    let s = d.stats();
    println!(
        "ptx-sim: {} launches, {} instructions in {:.3} s: {:.1} M instructions/s",
        s.launches,
        s.instructions,
        s.sim_time.as_secs_f64(),
        s.instructions_per_second() / 1e6
    );
    assert_eq!(s.launches, 2);
    assert!(s.instructions > 2 * n as u64);
    Ok(())
}

/// `ptxas`: at `$ACCEL_PTXAS` (set in CI), on `PATH`, or where `.ci/run`
/// installs it.
fn ptxas() -> Option<std::path::PathBuf> {
    let explicit = std::env::var_os("ACCEL_PTXAS")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_file());
    let on_path = || {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join("ptxas"))
                .find(|f| f.is_file())
        })
    };
    explicit.or_else(on_path).or_else(|| {
        std::env::var_os("HOME")
            .map(|h| std::path::PathBuf::from(h).join(".cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas"))
            .filter(|p| p.is_file())
    })
}

/// Every program of this file parses in the simulator (but those that test
/// what it rejects) and is assembled by `ptxas`. Without `ptxas` the parse
/// checks still run and the assembly is skipped, said on stdout, unless
/// `ACCEL_REQUIRE_PTXAS=1` (set in CI), where a missing `ptxas` fails.
#[test]
fn all_programs_assemble_with_ptxas() {
    let ptxas = ptxas();
    let required = std::env::var("ACCEL_REQUIRE_PTXAS").is_ok_and(|v| v == "1");
    assert!(
        ptxas.is_some() || !required,
        "ptxas not found ($ACCEL_PTXAS, PATH, ~/.cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas) \
         and ACCEL_REQUIRE_PTXAS=1"
    );
    let mut all = vec![
        map(VADD, "vadd"),
        map(block_sum(true), "block_sum"),
        map(WARP_SUM, "warp_sum"),
        map(ATOMIC_F32_SUM, "atomic_sum"),
        map(LAST_BLOCK_SUM, "last_block"),
        map(SCAN, "scan"),
        map(VOTES, "votes"),
        map(CALL, "call_sq"),
        map(CAS_MAX, "cas_max"),
        map(DYN_REVERSE, "dyn_reverse"),
    ];
    all.extend(cvt_programs());
    all.extend(shift_programs());
    all.extend(misc_programs());
    all.extend(arith_programs());
    all.push(map(SHARED_HISTOGRAM, "histogram"));
    all.push(map(GRID3D, "grid3d"));
    all.push(map(LAST_WRITER, "last_writer"));
    all.push(map(NESTED_CALLS, "nested"));
    all.push(map(ntid_program(), "ntid"));
    all.push(map(EARLY_EXIT_BARRIER, "early_exit"));
    all.extend(unsupported_programs());
    all.extend(negative_programs());
    let dir = std::env::temp_dir().join(format!("accel-ptx-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    let (mut assembled, mut skipped) = (0usize, 0usize);
    for (i, (src, name)) in all.into_iter().enumerate() {
        // Each program must also parse in the simulator, but those that
        // test what it rejects.
        let rejected = unsupported_programs().iter().any(|p| p.1 == name);
        if accel_runtime::ptx_sim::parse(src).is_err() != rejected {
            failures.push(format!(
                "{name}: the simulator's parser disagrees (rejected expected: {rejected})"
            ));
        }
        let Some(ptxas) = &ptxas else {
            skipped += 1;
            continue;
        };
        let f = dir.join(format!("{i}_{name}.ptx"));
        std::fs::write(&f, src).expect("write");
        assembled += 1;
        let out = std::process::Command::new(ptxas)
            .args(["-arch=sm_70", "-o", "/dev/null"])
            .arg(&f)
            .output()
            .expect("run ptxas");
        if !out.status.success() {
            failures.push(format!("{name}: {}", String::from_utf8_lossy(&out.stderr)));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    match &ptxas {
        Some(p) => println!("ptxas ({}): {assembled} programs assembled", p.display()),
        None => println!(
            "SKIPPED: ptxas not found ($ACCEL_PTXAS, PATH, \
             ~/.cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas): {skipped} programs parsed, not assembled"
        ),
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn arith_programs() -> Vec<(&'static str, String)> {
    let mut v = Vec::new();
    // x + 2^-30 and x * (1 + 2^-23) in each rounding direction, f32 and f64.
    for r in ["rn", "rz", "rm", "rp"] {
        let n = format!("add32_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f32",
                "f32",
                "f32",
                "f32",
                &format!("add.{r}.f32 %d, %a, 0f30800000;"),
            ),
            &n,
        ));
        let n = format!("mul32_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f32",
                "f32",
                "f32",
                "f32",
                &format!("mul.{r}.f32 %d, %a, 0f3F800001;"),
            ),
            &n,
        ));
        let n = format!("fma32_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f32",
                "f32",
                "f32",
                "f32",
                &format!("fma.{r}.f32 %d, %a, %a, 0f30800000;"),
            ),
            &n,
        ));
        let n = format!("add64_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f64",
                "f64",
                "f64",
                "f64",
                &format!("add.{r}.f64 %d, %a, 0d3C00000000000000;"),
            ),
            &n,
        ));
        let n = format!("mul64_{r}");
        v.push(map(
            map_kernel(
                &n,
                "f64",
                "f64",
                "f64",
                "f64",
                &format!("mul.{r}.f64 %d, %a, 0d3FF0000000000001;"),
            ),
            &n,
        ));
    }
    let ints = "mov.u32 %t1, 0;
    div.s32 %t2, %a, %t1;
    rem.s32 %t3, %a, %t1;
    xor.b32 %t2, %t2, %t3;
    mul.hi.s32 %t3, %a, -7;
    xor.b32 %t2, %t2, %t3;
    mul.hi.u32 %t3, %a, 0xfffffff9;
    xor.b32 %t2, %t2, %t3;
    mad.lo.s32 %t3, %a, 3, -11;
    xor.b32 %t2, %t2, %t3;
    min.s32 %t3, %a, -5;
    xor.b32 %t2, %t2, %t3;
    max.u32 %t3, %a, 5;
    xor.b32 %t2, %t2, %t3;
    bfind.s32 %t3, %a;
    xor.b32 %t2, %t2, %t3;
    bfind.shiftamt.u32 %t3, %a;
    xor.b32 %t2, %t2, %t3;
    abs.s32 %t3, %a;
    xor.b32 %t2, %t2, %t3;
    div.s32 %t3, %a, -3;
    xor.b32 %t2, %t2, %t3;
    rem.s32 %t3, %a, -3;
    xor.b32 %d, %t2, %t3;";
    v.push(map(map_kernel("ints", "s32", "s32", "s32", "s32", ints), "ints"));
    let wide = "mul.wide.s32 %d, %a, -3;
    mad.wide.u32 %d, %a, 5, %d;";
    v.push(map(map_kernel("wide", "s32", "s32", "s64", "s64", wide), "wide"));
    let unordered = "setp.ltu.f32 %q0, %a, 0f3F800000;
    selp.u32 %t0, 1, 0, %q0;
    setp.lt.f32 %q0, %a, 0f3F800000;
    selp.u32 %t1, 2, 0, %q0;
    or.b32 %t0, %t0, %t1;
    setp.nan.f32 %q0, %a, %a;
    selp.u32 %t1, 4, 0, %q0;
    or.b32 %t0, %t0, %t1;
    setp.neu.f32 %q0|%q1, %a, %a;
    selp.u32 %t1, 8, 0, %q1;
    or.b32 %t0, %t0, %t1;
    setp.ge.and.f32 %q0, %a, 0f00000000, %q1;
    selp.u32 %t1, 16, 0, %q0;
    or.b32 %d, %t0, %t1;";
    v.push(map(
        map_kernel("unordered", "f32", "f32", "u32", "u32", unordered),
        "unordered",
    ));
    let approx = "sin.approx.f32 %tf0, %a;
    cos.approx.f32 %tf1, %a;
    add.f32 %tf0, %tf0, %tf1;
    ex2.approx.ftz.f32 %tf1, %a;
    add.f32 %tf0, %tf0, %tf1;
    lg2.approx.f32 %tf1, %a;
    add.f32 %tf0, %tf0, %tf1;
    rsqrt.approx.f32 %tf1, %a;
    add.f32 %tf0, %tf0, %tf1;
    sqrt.rn.f32 %tf1, %a;
    add.f32 %tf0, %tf0, %tf1;
    rcp.approx.f32 %tf1, %a;
    add.f32 %tf0, %tf0, %tf1;
    div.full.f32 %tf1, 0f3F800000, %a;
    add.f32 %d, %tf0, %tf1;";
    v.push(map(
        map_kernel("approx", "f32", "f32", "f32", "f32", &approx.replace("%tf", "%t")),
        "approx",
    ));
    v
}

/// Per-block histogram of values mod 8 in shared memory with atom.shared.add:
/// atomics on the same byte from many threads are not a race.
const SHARED_HISTOGRAM: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry histogram(.param .u64 pin, .param .u64 pout, .param .u32 pn)
{
    .reg .pred %p<3>;
    .reg .b32 %r<12>;
    .reg .b64 %rd<10>;
    .shared .align 4 .u32 bins[8];
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u32 %r1, [pn];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.lt.u32 %p1, %r4, 8;
    mov.u32 %r0, bins;
    shl.b32 %r6, %r4, 2;
    add.s32 %r7, %r0, %r6;
    @%p1 st.shared.u32 [%r7], 0;
    bar.sync 0;
    setp.ge.u32 %p2, %r5, %r1;
    @%p2 bra $L_wait;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r8, [%rd4];
    and.b32 %r8, %r8, 7;
    shl.b32 %r8, %r8, 2;
    add.s32 %r9, %r0, %r8;
    atom.shared.add.u32 %r10, [%r9], 1;
$L_wait:
    bar.sync 0;
    @!%p1 bra $L_end;
    ld.shared.u32 %r11, [%r7];
    atom.global.add.u32 %r10, [%rd2+0], 0;
    mul.wide.u32 %rd5, %r4, 4;
    add.s64 %rd6, %rd2, %rd5;
    red.global.add.u32 [%rd6], %r11;
$L_end:
    ret;
}
"#;

#[test]
fn shared_atomics_are_not_races() -> Result<()> {
    for seed in 0..3 {
        let d = SimDevice::new(seed);
        let n = 1500usize;
        let xs: Vec<u32> = (0..n as u32).map(|i| i * 5 + i / 7).collect();
        let pin = up(&d, &xs);
        let pout = up(&d, &[0u32; 8]);
        d.launch(
            SHARED_HISTOGRAM,
            "histogram",
            cfg(n.div_ceil(256) as u32, 256),
            &[ptr(pin), ptr(pout), KernelArg::U32(n as u32)],
        )?;
        let out: Vec<u32> = down(&d, pout, 8);
        let mut want = [0u32; 8];
        for x in &xs {
            want[(x & 7) as usize] += 1;
        }
        assert_eq!(out, want.to_vec());
    }
    Ok(())
}

#[test]
fn directed_rounding_of_add_mul_fma() -> Result<()> {
    let d = SimDevice::new(1);
    let progs = arith_programs();
    let one_up = 1.0f32.next_up();
    let m1_up = (-1.0f32).next_up();
    // 1 + 2^-30 and -1 + 2^-30 in f32: rn gives 1 and -1, rz rounds toward
    // zero, rm down, rp up.
    for (r, w) in [
        ("rn", [1.0, -1.0]),
        ("rz", [1.0, m1_up]),
        ("rm", [1.0, -1.0]),
        ("rp", [one_up, m1_up]),
    ] {
        let name = format!("add32_{r}");
        let got: Vec<f32> = run_map(&d, find(&progs, &name), &name, &[1.0f32, -1.0])?;
        assert_eq!(got, w.to_vec(), "{name}");
    }
    // (1 + 2^-23) * (1 + 2^-23) = 1 + 2^-22 + 2^-46: the tail rounds away only with rp.
    let x = one_up;
    for (r, w) in [
        ("rn", 1.0 + 2f32.powi(-22)),
        ("rz", 1.0 + 2f32.powi(-22)),
        ("rm", 1.0 + 2f32.powi(-22)),
        ("rp", (1.0 + 2f32.powi(-22)).next_up()),
    ] {
        let name = format!("mul32_{r}");
        let got: Vec<f32> = run_map(&d, find(&progs, &name), &name, &[x])?;
        assert_eq!(got, vec![w], "{name}");
        // fma(x, x, 2^-30) = 1 + 2^-22 + 2^-46 + 2^-30: rp rounds up, the others down.
        let name = format!("fma32_{r}");
        let got: Vec<f32> = run_map(&d, find(&progs, &name), &name, &[x])?;
        assert_eq!(got, vec![w], "{name}");
    }
    for (r, w) in [("rn", 1.0f64), ("rz", 1.0), ("rm", 1.0), ("rp", 1.0f64.next_up())] {
        let name = format!("add64_{r}");
        let got: Vec<f64> = run_map(&d, find(&progs, &name), &name, &[1.0f64, f64::MAX])?;
        let big = if r == "rp" { f64::INFINITY } else { f64::MAX };
        assert_eq!(got, vec![w, big], "{name}");
        let name = format!("mul64_{r}");
        let got: Vec<f64> = run_map(&d, find(&progs, &name), &name, &[1.0f64.next_up()])?;
        let base = 1.0 + 2f64.powi(-51);
        let w = if r == "rp" { base.next_up() } else { base };
        assert_eq!(got, vec![w], "{name}");
    }
    Ok(())
}

#[test]
fn integer_arithmetic_semantics() -> Result<()> {
    let d = SimDevice::new(1);
    let progs = arith_programs();
    let model = |a: i32| -> i32 {
        let mut t2 = -1i32; // div by zero: all ones
        t2 ^= a; // rem by zero: the dividend
        t2 ^= ((a as i64 * -7) >> 32) as i32;
        t2 ^= ((a as u32 as u64 * 0xffff_fff9u64) >> 32) as u32 as i32;
        t2 ^= a.wrapping_mul(3).wrapping_sub(11);
        t2 ^= a.min(-5);
        t2 ^= (a as u32).max(5) as i32;
        let x = if a < 0 { !a } else { a };
        t2 ^= if x == 0 { -1 } else { 31 - x.leading_zeros() as i32 };
        t2 ^= if a == 0 {
            -1
        } else {
            (a as u32).leading_zeros() as i32
        };
        t2 ^= a.wrapping_abs();
        t2 ^= a.wrapping_div(-3);
        t2 ^ a.wrapping_rem(-3)
    };
    let xs = [0i32, 1, -1, 7, -8, i32::MIN, i32::MAX, 123_456_789, -98_765];
    let got: Vec<i32> = run_map(&d, find(&progs, "ints"), "ints", &xs)?;
    assert_eq!(got, xs.iter().map(|&a| model(a)).collect::<Vec<_>>());
    let got: Vec<i64> = run_map(&d, find(&progs, "wide"), "wide", &xs)?;
    let want: Vec<i64> = xs
        .iter()
        .map(|&a| (a as i64 * -3).wrapping_add((a as u32 as i64) * 5))
        .collect();
    assert_eq!(got, want);
    Ok(())
}

#[test]
fn unordered_compares_and_approximate_functions() -> Result<()> {
    let d = SimDevice::new(1);
    let progs = arith_programs();
    let got: Vec<u32> = run_map(
        &d,
        find(&progs, "unordered"),
        "unordered",
        &[0.5f32, 2.0, f32::NAN],
    )?;
    // 0.5: ltu, lt, not nan, neu false -> q1 = !neu = true -> 8, ge.and(0.5>=0, q1) -> 16
    // 2.0: 8 | 16; NaN: ltu, nan, neu true -> q1 false.
    assert_eq!(got, vec![1 | 2 | 8 | 16, 8 | 16, 1 | 4]);
    let xs = [0.5f32, 1.0, 2.0, 3.0];
    let got: Vec<f32> = run_map(&d, find(&progs, "approx"), "approx", &xs)?;
    for (x, g) in xs.iter().zip(&got) {
        let x = *x as f64;
        let want = x.sin() + x.cos() + x.exp2() + x.log2() + 1.0 / x.sqrt() + x.sqrt() + 2.0 / x;
        assert!(
            (*g as f64 - want).abs() < 1e-5 * want.abs().max(1.0),
            "{x}: {g} vs {want}"
        );
    }
    Ok(())
}

/// Every thread of a 3-D grid of 3-D blocks writes its coordinates, packed,
/// at its linear global index.
const GRID3D: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry grid3d(.param .u64 pout)
{
    .reg .b32 %r<24>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %tid.y;
    mov.u32 %r3, %tid.z;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %ntid.y;
    mov.u32 %r6, %ntid.z;
    mov.u32 %r7, %ctaid.x;
    mov.u32 %r8, %ctaid.y;
    mov.u32 %r9, %ctaid.z;
    mov.u32 %r10, %nctaid.x;
    mov.u32 %r11, %nctaid.y;
    // block linear = (cz * ny + cy) * nx + cx
    mad.lo.s32 %r12, %r9, %r11, %r8;
    mad.lo.s32 %r12, %r12, %r10, %r7;
    // thread linear = (tz * by + ty) * bx + tx
    mad.lo.s32 %r13, %r3, %r5, %r2;
    mad.lo.s32 %r13, %r13, %r4, %r1;
    mul.lo.s32 %r14, %r4, %r5;
    mul.lo.s32 %r14, %r14, %r6;
    mad.lo.s32 %r15, %r12, %r14, %r13;
    // value = tx | ty << 4 | tz << 8 | cx << 12 | cy << 16 | cz << 20 | warpid << 24 | laneid << 27
    shl.b32 %r16, %r2, 4;
    or.b32 %r16, %r16, %r1;
    shl.b32 %r17, %r3, 8;
    or.b32 %r16, %r16, %r17;
    shl.b32 %r17, %r7, 12;
    or.b32 %r16, %r16, %r17;
    shl.b32 %r17, %r8, 16;
    or.b32 %r16, %r16, %r17;
    shl.b32 %r17, %r9, 20;
    or.b32 %r16, %r16, %r17;
    mov.u32 %r18, %warpid;
    shl.b32 %r17, %r18, 24;
    or.b32 %r16, %r16, %r17;
    mov.u32 %r19, %laneid;
    shl.b32 %r17, %r19, 27;
    or.b32 %r16, %r16, %r17;
    mul.wide.u32 %rd2, %r15, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r16;
    ret;
}
"#;

#[test]
fn three_dimensional_grid_and_blocks() -> Result<()> {
    let d = SimDevice::new(4);
    let (g, b) = ([3u32, 2, 2], [5u32, 3, 4]);
    let nb = (b[0] * b[1] * b[2]) as usize;
    let n = (g[0] * g[1] * g[2]) as usize * nb;
    let p = d.alloc(n * 4)?;
    d.launch(
        GRID3D,
        "grid3d",
        LaunchConfig {
            grid: g,
            block: b,
            dynamic_shared_bytes: 0,
        },
        &[ptr(p)],
    )?;
    let out: Vec<u32> = down(&d, p, n);
    for (i, &v) in out.iter().enumerate() {
        let (bl, t) = (i / nb, (i % nb) as u32);
        let (cx, cy, cz) = (
            bl as u32 % g[0],
            (bl as u32 / g[0]) % g[1],
            bl as u32 / (g[0] * g[1]),
        );
        let (tx, ty, tz) = (t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1]));
        let want = tx | ty << 4 | tz << 8 | cx << 12 | cy << 16 | cz << 20 | (t / 32) << 24 | (t % 32) << 27;
        assert_eq!(v, want, "element {i}");
    }
    Ok(())
}

/// Every thread exchanges its index into one word: which one is last depends
/// on the schedule.
const LAST_WRITER: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry last_writer(.param .u64 pout)
{
    .reg .b32 %r<6>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r4, %r1, %r2, %r3;
    atom.global.exch.b32 %r5, [%rd1], %r4;
    ret;
}
"#;

#[test]
fn scheduling_depends_on_the_seed_and_only_on_it() -> Result<()> {
    let run = |seed: u64| -> Result<u32> {
        let d = SimDevice::new(seed);
        let p = up(&d, &[0u32]);
        d.launch(LAST_WRITER, "last_writer", cfg(4, 64), &[ptr(p)])?;
        Ok(down::<u32>(&d, p, 1)[0])
    };
    let results: Vec<u32> = (0..8).map(run).collect::<Result<_>>()?;
    assert!(
        results.iter().any(|&r| r != results[0]),
        "every seed gave {results:?}"
    );
    for (seed, &r) in results.iter().enumerate() {
        assert_eq!(run(seed as u64)?, r, "seed {seed} is not reproducible");
    }
    Ok(())
}

/// Nested `.func` calls, generic addressing of global memory, `.v2` loads and
/// stores, and `mov.b64` packing: out[i] = swap(in[i]) as a pair, plus
/// f(in) = twice(lo) + hi computed through two calls.
const NESTED_CALLS: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    shl.b32 %r2, %r1, 1;
    st.param.b32 [r], %r2;
    ret;
}

.visible .func (.param .b64 r) combine(.param .b32 lo, .param .b32 hi)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<2>;
    ld.param.b32 %r1, [lo];
    ld.param.b32 %r2, [hi];
    {
        .param .b32 a;
        st.param.b32 [a], %r1;
        .param .b32 b;
        call.uni (b), twice, (a);
        ld.param.b32 %r3, [b];
    }
    add.s32 %r4, %r3, %r2;
    mov.b64 %rd1, {%r4, %r2};
    st.param.b64 [r], %rd1;
    ret;
}

.visible .entry nested(.param .u64 pin, .param .u64 pout, .param .u64 pf)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    ld.param.u64 %rd3, [pf];
    cvta.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd4, %r1, 8;
    add.s64 %rd5, %rd1, %rd4;
    ld.v2.u32 {%r2, %r3}, [%rd5];
    add.s64 %rd6, %rd2, %rd4;
    st.global.v2.u32 [%rd6], {%r3, %r2};
    {
        .param .b32 p0;
        st.param.b32 [p0], %r2;
        .param .b32 p1;
        st.param.b32 [p1], %r3;
        .param .b64 ret0;
        call.uni (ret0), combine, (p0, p1);
        ld.param.b64 %rd7, [ret0];
    }
    mov.b64 {%r4, _}, %rd7;
    add.s64 %rd8, %rd3, %rd4;
    st.global.u64 [%rd8], %rd7;
    ret;
}
"#;

#[test]
fn nested_calls_vectors_and_packing() -> Result<()> {
    let d = SimDevice::new(6);
    let xs: Vec<u32> = (0..64).map(|i| i * 11 + 3).collect();
    let pin = up(&d, &xs);
    let pout = d.alloc(64 * 4)?;
    let pf = d.alloc(32 * 8)?;
    d.launch(
        NESTED_CALLS,
        "nested",
        cfg(1, 32),
        &[ptr(pin), ptr(pout), ptr(pf)],
    )?;
    let out: Vec<u32> = down(&d, pout, 64);
    let f: Vec<u64> = down(&d, pf, 32);
    for t in 0..32 {
        let (lo, hi) = (xs[2 * t], xs[2 * t + 1]);
        assert_eq!((out[2 * t], out[2 * t + 1]), (hi, lo));
        assert_eq!(f[t], (2 * lo + hi) as u64 | (hi as u64) << 32);
    }
    Ok(())
}

#[test]
fn recursion_and_undeclared_calls_are_parse_errors() {
    let d = SimDevice::new(0);
    let src = unsupported_programs()[2].0;
    let e = d.launch(src, "k", cfg(1, 1), &[]).unwrap_err().to_string();
    assert!(e.contains("recursion") && e.contains("line 6"), "{e}");
    let src = leak(format!(
        "{HEADER}.visible .entry k()\n{{\n    call.uni g;\n    ret;\n}}\n"
    ));
    let e = d.launch(src, "k", cfg(1, 1), &[]).unwrap_err().to_string();
    // (not valid PTX either: ptxas rejects it the same way)
    assert!(e.contains("undeclared function `g`"), "{e}");
}

fn ntid_program() -> &'static str {
    leak(format!("{HEADER}.visible .entry k() .reqntid 64\n{{\n    ret;\n}}\n.visible .entry m() .maxntid 32, 2, 1\n{{\n    ret;\n}}\n"))
}

/// Valid PTX that the simulator rejects at parse time, on purpose.
fn unsupported_programs() -> Vec<(&'static str, String)> {
    vec![
        map(leak(format!("{HEADER}.visible .entry k()\n{{\n    .reg .b32 %r<4>;\n    mov.u32 %r1, 1;\n    prmt.b32 %r2, %r1, %r1, 0x3210;\n    ret;\n}}\n")), "prmt"),
        map(leak(format!("{HEADER}.visible .entry k()\n{{\n    .reg .b32 %r<4>;\n    mov.u32 %r1, 1;\n    add.sat.s32 %r2, %r1, %r1;\n    ret;\n}}\n")), "add_sat"),
        map(leak(format!("{HEADER}.func f()\n{{\n    call.uni f;\n    ret;\n}}\n.visible .entry k()\n{{\n    call.uni f;\n    ret;\n}}\n")), "recursion"),
    ]
}

/// Threads 32.. exit at once; the others meet at bar.sync 0, which exited
/// threads do not hold up (PTX ISA, `exit`), then read each other's values.
const EARLY_EXIT_BARRIER: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry early_exit(.param .u64 pout)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<6>;
    .shared .align 4 .u32 s[32];
    ld.param.u64 %rd1, [pout];
    mov.u32 %r1, %tid.x;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 exit;
    mov.u64 %rd2, s;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.shared.u32 [%rd4], %r1;
    bar.sync 0;
    xor.b32 %r2, %r1, 31;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.shared.u32 %r3, [%rd4];
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd5, %rd1, %rd3;
    st.global.u32 [%rd5], %r3;
    ret;
}
"#;

#[test]
fn exited_threads_do_not_hold_up_a_barrier() -> Result<()> {
    for seed in 0..3 {
        let d = SimDevice::new(seed);
        let p = d.alloc(32 * 4)?;
        d.launch(EARLY_EXIT_BARRIER, "early_exit", cfg(2, 96), &[ptr(p)])?;
        let out: Vec<u32> = down(&d, p, 32);
        assert_eq!(out, (0..32).map(|t| t ^ 31).collect::<Vec<u32>>());
    }
    Ok(())
}

#[test]
fn parser_never_panics_on_damaged_text() {
    let progs = [
        VADD,
        WARP_SUM,
        CALL,
        NESTED_CALLS,
        DYN_REVERSE,
        LAST_BLOCK_SUM,
        SCAN,
        VOTES,
    ];
    let junk = [
        "",
        "%",
        "[",
        "]",
        "{",
        "}",
        ";",
        "-",
        "0f",
        "0x",
        ".",
        "<",
        ">",
        "|",
        "!",
        "@",
        "(",
        ")",
        "9999999999999999999999",
        "%r<",
        ".reg",
    ];
    let mut k = 0usize;
    for src in progs {
        let b = src.as_bytes();
        for cut in (0..b.len()).step_by(13) {
            // Truncated, and with a junk token spliced in.
            let _ = accel_runtime::ptx_sim::parse(&src[..cut]);
            let j = junk[k % junk.len()];
            k += 1;
            let damaged = format!("{}{}{}", &src[..cut], j, &src[(cut + 1).min(b.len())..]);
            let _ = accel_runtime::ptx_sim::parse(&damaged);
        }
    }
}
