//! Dot product of two vectors streamed in blocks from Rust iterators: the
//! program is over two sequences of numbers (`Seq<Scalar<f32>>`), fed by
//! `Stream::chunks` from blocks of them (`Vector<f32>`), and pulls a chunk
//! of each at a time, so memory holds a few blocks whatever the length.
//!
//! Prints, in one run:
//! 1. peak resident memory (Linux `VmHWM`) after streaming `N` and `10 N`
//!    elements generated on the fly (in the program's thread, then ahead on
//!    threads of their own, `accel::read_ahead`): flat when the program
//!    streams;
//! 2. the streamed program against the array program on the same data in
//!    memory (blocks shared with the arrays, not copied): the sequence
//!    machinery's overhead;
//! 3. streaming the two vectors from files (`Stream::fill_ahead`: read ahead
//!    on their own threads into reused blocks) against reading the same files
//!    raw, in the same run (both from the page cache after the first read).
//!
//! `cargo run --release --example dotp_seq [-- N BLOCK]` (defaults 20,000,000
//! and 1,048,576 f32; with N over 500,000,000 only the streamed runs, to 10 N).

use accel::prelude::*;
use std::io::Read;
use std::time::{Duration, Instant};

accel! {
    fn dotp_seq(xs: Seq<Scalar<f32>>, ys: Seq<Scalar<f32>>) -> Scalar<f32> {
        xs.zip_with(ys, |x, y| x.value() * y.value()).sum()
    }
    fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
        xs.zip_with(ys, |x, y| x * y).sum()
    }
}

/// The largest N compared in memory and from files (two vectors of N f32
/// in memory, then on disk).
const IN_MEMORY_MAX: usize = 500_000_000;

fn x_at(i: usize) -> f32 {
    ((i % 1000) as f32) * 0.001
}

fn y_at(i: usize) -> f32 {
    ((i % 777) as f32) * 0.002 - 0.5
}

/// The blocks of `n` elements of `f`, made when pulled.
fn blocks(n: usize, block: usize, f: fn(usize) -> f32) -> impl Iterator<Item = Vector<f32>> {
    (0..n.div_ceil(block)).map(move |b| {
        let lo = b * block;
        let len = block.min(n - lo);
        Vector::from((lo..lo + len).map(f).collect::<Vec<f32>>())
    })
}

/// A stream of the f32 of a file in this machine's byte order, read ahead
/// on a thread of its own in blocks of `block` values, straight into
/// storage that the stream hands back once the program is done with it.
fn file_stream(path: std::path::PathBuf, block: usize) -> Stream<'static, f32, 0> {
    let io = |e: std::io::Error| accel::Error::new("read", e.to_string());
    let mut file = std::fs::File::open(&path).map_err(io);
    Stream::fill_ahead(2, [], move |buf: &mut Vec<f32>| {
        let f = file.as_mut().map_err(|e| e.clone())?;
        buf.resize(block, 0.0);
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut buf[..]);
        let mut n = 0;
        while n < bytes.len() {
            match f.read(&mut bytes[n..]).map_err(io)? {
                0 => break,
                k => n += k,
            }
        }
        buf.truncate(n / 4);
        Ok(!buf.is_empty())
    })
}

/// Peak resident memory of this process in MiB (Linux), if known.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn arg(i: usize, default: usize) -> accel::Result<usize> {
    match std::env::args().nth(i) {
        Some(s) => s
            .parse()
            .map_err(|_| accel::Error::new("dotp_seq example", format!("not a size: {s}"))),
        None => Ok(default),
    }
}

fn main() -> accel::Result<()> {
    let n = arg(1, 20_000_000)?;
    let block = arg(2, 1 << 20)?.max(1);
    let backend = Backend::default();
    println!(
        "dotp of {n} f32 in blocks of {block}, backend `{}` ({} threads)",
        backend.name(),
        rayon::current_num_threads()
    );
    println!("{}", dotp_seq::explain());

    // 1. Memory: streamed from generators, N then 10 N.
    for len in [n, 10 * n] {
        let t = Instant::now();
        let (xs, ys) = (blocks(len, block, x_at), blocks(len, block, y_at));
        let r = dotp_seq::on(&backend, Stream::chunks(xs), Stream::chunks(ys))?;
        let peak = peak_mib().map_or("unknown".to_string(), |m| format!("{m:.0} MiB"));
        println!(
            "streamed {len:>12} elements (generated): {:>9.1} ms, result {:.6e}, peak resident {peak}",
            t.elapsed().as_secs_f64() * 1e3,
            r.value()
        );
    }

    // The same, with each stream generated ahead on its own thread.
    let ahead = |f: fn(usize) -> f32| Stream::chunks(accel::read_ahead(2, blocks(10 * n, block, f)));
    let t = Instant::now();
    let r = dotp_seq::on(&backend, ahead(x_at), ahead(y_at))?;
    let peak = peak_mib().map_or("unknown".to_string(), |m| format!("{m:.0} MiB"));
    println!(
        "streamed {:>12} elements (generated ahead): {:>9.1} ms, result {:.6e}, peak resident {peak}",
        10 * n,
        t.elapsed().as_secs_f64() * 1e3,
        r.value()
    );

    // 2. and 3. hold N elements of each vector in memory (and on disk).
    if n > IN_MEMORY_MAX {
        println!("N is over {IN_MEMORY_MAX}: the comparisons in memory and from files are skipped");
        return Ok(());
    }

    // 2. Overhead: the same data in memory, as arrays and as blocks of them.
    let xs: Vec<Vector<f32>> = blocks(n, block, x_at).collect();
    let ys: Vec<Vector<f32>> = blocks(n, block, y_at).collect();
    let whole = |bs: &[Vector<f32>]| Vector::from(bs.iter().flat_map(|b| b.to_vec()).collect::<Vec<f32>>());
    let (ax, ay) = (whole(&xs), whole(&ys));
    let (mut t_arr, mut t_seq) = (Vec::new(), Vec::new());
    let (mut r_arr, mut r_seq) = (0.0, 0.0);
    // Alternated, many times: this machine's timings vary from run to run.
    for _ in 0..41 {
        let t = Instant::now();
        r_arr = dotp::on(&backend, &ax, &ay)?.value();
        t_arr.push(t.elapsed());
        // Cloning a block shares its storage: nothing is copied.
        let t = Instant::now();
        let (bx, by) = (
            Stream::chunks(xs.iter().cloned()),
            Stream::chunks(ys.iter().cloned()),
        );
        r_seq = dotp_seq::on(&backend, bx, by)?.value();
        t_seq.push(t.elapsed());
    }
    let (a_min, s_min) = (t_arr.iter().min().copied(), t_seq.iter().min().copied());
    let (a, s) = (median(t_arr), median(t_seq));
    let ms = |d: Option<Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1e3);
    println!(
        "in memory: array program {:.2} ms, streamed blocks {:.2} ms: {:.3}x the array's time \
         (fastest runs: {:.2} and {:.2} ms, {:.3}x; results {r_arr:.6e} and {r_seq:.6e})",
        a.as_secs_f64() * 1e3,
        s.as_secs_f64() * 1e3,
        s.as_secs_f64() / a.as_secs_f64(),
        ms(a_min),
        ms(s_min),
        ms(s_min) / ms(a_min)
    );

    // 3. From files: written once, then read raw and streamed, alternately.
    let dir = std::env::temp_dir().join(format!("accel-dotp-seq-{}", std::process::id()));
    let io = |e: std::io::Error| accel::Error::new("dotp_seq example", e.to_string());
    std::fs::create_dir_all(&dir).map_err(io)?;
    let (px, py) = (dir.join("xs.f32"), dir.join("ys.f32"));
    for (path, v) in [(&px, &ax), (&py, &ay)] {
        std::fs::write(path, bytemuck::cast_slice::<f32, u8>(v.as_slice())).map_err(io)?;
    }
    drop((xs, ys, ax, ay));
    let (mut t_raw, mut t_file) = (Vec::new(), Vec::new());
    let mut r_file = 0.0;
    for _ in 0..5 {
        let t = Instant::now();
        let mut total = 0usize;
        let mut buf = vec![0u8; block * 4];
        for path in [&px, &py] {
            let mut f = std::fs::File::open(path).map_err(io)?;
            loop {
                let k = f.read(&mut buf).map_err(io)?;
                if k == 0 {
                    break;
                }
                total += k;
            }
        }
        std::hint::black_box(total);
        t_raw.push(t.elapsed());
        let t = Instant::now();
        let (xs, ys) = (file_stream(px.clone(), block), file_stream(py.clone(), block));
        r_file = dotp_seq::on(&backend, xs, ys)?.value();
        t_file.push(t.elapsed());
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (raw, file) = (median(t_raw), median(t_file));
    let mb = (8 * n) as f64 / 1e6;
    println!(
        "from files ({:.0} MB): raw read {:.1} ms ({:.0} MB/s), streamed dotp {:.1} ms ({:.0} MB/s, {:.0}% of raw; result {r_file:.6e})",
        mb,
        raw.as_secs_f64() * 1e3,
        mb / raw.as_secs_f64(),
        file.as_secs_f64() * 1e3,
        mb / file.as_secs_f64(),
        100.0 * raw.as_secs_f64() / file.as_secs_f64()
    );
    Ok(())
}
