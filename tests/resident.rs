//! Arrays that stay on the device: the simulator counts every host↔device
//! copy, and these tests check that GPU programs upload an input once, keep
//! results on the device until the host reads them, and that arrays move
//! correctly between the CPU back end, the host and devices.
//!
//! Every launch checks the 4-byte error word, so a call downloads those words
//! and nothing else while its arrays stay on the device: `only_error_words`.

use accel::__rt::gpu::buffers::{self, GBuf};
use accel::__rt::gpu::{Device, DeviceProps, DevicePtr, KernelArg, LaunchConfig, Transfers};
use accel::__rt::ptx_sim::SimDevice;
use accel::prelude::*;
use accel::ErrorKind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

accel! {
    fn scale(xs: &Vector<f64>, a: f64) -> Vector<f64> {
        xs.map(|x| x * a)
    }
    fn add(xs: &Vector<f64>, ys: &Vector<f64>) -> Vector<f64> {
        xs.zip_with(ys, |x, y| x + y)
    }
    fn total(xs: &Vector<f64>) -> Scalar<f64> {
        xs.fold(0.0, |a, b| a + b)
    }
    fn split(xs: &Vector<f64>) -> (Vector<f64>, Vector<(f64, i32)>) {
        (xs.map(|x| x + 1.0), xs.map(|x| (x, x as i32)))
    }
    fn row_sums(m: &Matrix<i32>) -> Vector<i32> {
        m.fold(0, |a, b| a + b)
    }
    fn grid(n: usize) -> Matrix<i32> {
        generate([n, 3], |[i, j]| (i * 3 + j) as i32)
    }
}

const N: usize = 1000;

fn sim() -> (Backend, Arc<dyn Device>) {
    let b = Backend::ptx_sim().expect("the simulator is always available");
    let d = b.device().expect("the simulator is a device").clone();
    (b, d)
}

fn counted(d: &Arc<dyn Device>) -> Transfers {
    d.transfers().expect("the simulator counts transfers")
}

/// The copies made since `before`.
fn since(d: &Arc<dyn Device>, before: Transfers) -> Transfers {
    let now = counted(d);
    Transfers {
        uploads: now.uploads - before.uploads,
        upload_bytes: now.upload_bytes - before.upload_bytes,
        downloads: now.downloads - before.downloads,
        download_bytes: now.download_bytes - before.download_bytes,
    }
}

/// Nothing but error words (4 bytes each) came back, and nothing went out.
#[track_caller]
fn only_error_words(t: Transfers) {
    assert_eq!((t.uploads, t.upload_bytes), (0, 0), "{t:?}");
    assert_eq!(t.download_bytes, 4 * t.downloads, "{t:?}");
}

fn input() -> (Vector<f64>, Vec<f64>) {
    let v: Vec<f64> = (0..N).map(|i| i as f64 * 0.5).collect();
    (Vector::from(v.clone()), v)
}

#[test]
fn an_input_is_uploaded_once() {
    let (b, d) = sim();
    let (xs, v) = input();
    let t0 = counted(&d);
    let y1 = scale::on(&b, &xs, 2.0).unwrap();
    let first = since(&d, t0);
    assert_eq!(
        (first.uploads, first.upload_bytes),
        (1, 8 * N as u64),
        "{first:?}"
    );
    assert_eq!(first.download_bytes, 4 * first.downloads, "{first:?}");
    assert!(xs.device().is_some() && xs.is_on_host());

    let t1 = counted(&d);
    let y2 = scale::on(&b, &xs, 3.0).unwrap();
    only_error_words(since(&d, t1));

    let want2: Vec<f64> = v.iter().map(|x| x * 2.0).collect();
    let want3: Vec<f64> = v.iter().map(|x| x * 3.0).collect();
    assert_eq!(y1.to_vec(), want2);
    assert_eq!(y2.to_vec(), want3);
}

#[test]
fn upload_copies_ahead_of_the_first_call() {
    let (b, d) = sim();
    let (xs, v) = input();
    let t0 = counted(&d);
    xs.upload(&b).unwrap();
    let up = since(&d, t0);
    assert_eq!((up.uploads, up.upload_bytes), (1, 8 * N as u64), "{up:?}");
    // Again: already there. Then a program reads it in place.
    let t1 = counted(&d);
    xs.upload(&b).unwrap();
    let y = scale::on(&b, &xs, 2.0).unwrap();
    only_error_words(since(&d, t1));
    assert_eq!(y.to_vec(), v.iter().map(|x| x * 2.0).collect::<Vec<_>>());
    // Nothing to do on the CPU; an unusable backend says so.
    xs.upload(&Backend::cpu()).unwrap();
    let gone = Backend::from_setting(Some("no-such-backend"));
    assert_eq!(
        xs.upload(&gone).unwrap_err().kind(),
        ErrorKind::BackendUnavailable
    );
}

#[test]
fn results_feed_the_next_call_on_the_device() {
    let (b, d) = sim();
    let (xs, v) = input();
    let ys = scale::on(&b, &xs, 2.0).unwrap();
    let t0 = counted(&d);
    let zs = add::on(&b, &ys, &xs).unwrap();
    let ws = scale::on(&b, &zs, 0.5).unwrap();
    let s = total::on(&b, &ws).unwrap();
    only_error_words(since(&d, t0));
    assert!(!ys.is_on_host() && !zs.is_on_host() && !ws.is_on_host() && !s.is_on_host());

    // Reading the scalar downloads its 8 bytes and nothing else.
    let t1 = counted(&d);
    let want: f64 = v.iter().map(|x| (x * 2.0 + x) * 0.5).sum();
    assert_eq!(s.value(), want);
    assert_eq!(since(&d, t1).download_bytes, 8);
    assert!(!ws.is_on_host());
}

#[test]
fn to_vec_downloads_once() {
    let (b, d) = sim();
    let (xs, v) = input();
    let ys = scale::on(&b, &xs, 2.0).unwrap();
    let t0 = counted(&d);
    let first = ys.to_vec();
    let t = since(&d, t0);
    assert_eq!((t.downloads, t.download_bytes), (1, 8 * N as u64), "{t:?}");
    assert!(ys.is_on_host());

    let t1 = counted(&d);
    let again = ys.clone().to_vec();
    assert_eq!(ys.get([7]), Some(v[7] * 2.0));
    assert_eq!(format!("{ys:?}"), format!("{:?}", Vector::from(first.clone())));
    assert_eq!(since(&d, t1), Transfers::default());
    assert_eq!(first, again);
    assert_eq!(first, v.iter().map(|x| x * 2.0).collect::<Vec<_>>());
}

#[test]
fn into_columns_downloads_or_shares() {
    let (b, d) = sim();
    let (xs, v) = input();
    let want: Vec<f64> = v.iter().map(|x| x * 2.0).collect();
    // The only owner of a device array: one download, the columns moved out.
    let only = scale::on(&b, &xs, 2.0).unwrap();
    let t0 = counted(&d);
    assert_eq!(only.into_columns(), want);
    let t = since(&d, t0);
    assert_eq!((t.downloads, t.download_bytes), (1, 8 * N as u64), "{t:?}");
    // A shared one: the clone is downloaded once, for both.
    let ys = scale::on(&b, &xs, 2.0).unwrap();
    let t1 = counted(&d);
    assert_eq!(ys.clone().into_columns(), want);
    assert_eq!(ys.to_vec(), want);
    assert_eq!(since(&d, t1).download_bytes, 8 * N as u64);
    // Host arrays: no device involved.
    assert_eq!(xs.clone().into_columns(), v);
}

#[test]
fn tuple_results_keep_their_own_columns() {
    let (b, d) = sim();
    let (xs, v) = input();
    let (plus, pairs) = split::on(&b, &xs).unwrap();
    let t0 = counted(&d);
    let got = pairs.to_vec();
    // Two leaf columns of the pairs (f64 and i32), not the other result.
    let t = since(&d, t0);
    assert_eq!((t.downloads, t.download_bytes), (2, 12 * N as u64), "{t:?}");
    assert!(!plus.is_on_host());
    let want: Vec<(f64, i32)> = v.iter().map(|&x| (x, x as i32)).collect();
    assert_eq!(got, want);
    // The pairs go back to the device without a copy.
    let t1 = counted(&d);
    let again = split::on(&b, &plus).unwrap();
    only_error_words(since(&d, t1));
    assert_eq!(again.0.to_vec(), v.iter().map(|x| x + 2.0).collect::<Vec<_>>());
}

#[test]
fn host_and_cpu_arrays_work_on_the_gpu_and_back() {
    let (b, d) = sim();
    let cpu = Backend::cpu();
    let (xs, v) = input();
    // A CPU result is on the host: the GPU uploads it once.
    let on_cpu = scale::on(&cpu, &xs, 2.0).unwrap();
    assert!(on_cpu.device().is_none());
    let t0 = counted(&d);
    let on_gpu = add::on(&b, &on_cpu, &on_cpu).unwrap();
    let t = since(&d, t0);
    assert_eq!((t.uploads, t.upload_bytes), (1, 8 * N as u64), "{t:?}");

    // A device result given to the CPU back end is read through one download.
    let t1 = counted(&d);
    let back = add::on(&cpu, &on_gpu, &xs).unwrap();
    let t = since(&d, t1);
    assert_eq!((t.downloads, t.download_bytes), (1, 8 * N as u64), "{t:?}");
    assert_eq!(back.to_vec(), v.iter().map(|x| x * 5.0).collect::<Vec<_>>());
    assert!(back.device().is_none());

    // Matrices, both ways: made on the device, reduced on the CPU, and back.
    let m = grid::on(&b, 4).unwrap();
    let sums = row_sums::on(&cpu, &m).unwrap();
    assert_eq!(sums.to_vec(), vec![3, 12, 21, 30]);
    let host_m = Matrix::from_fn([2, 3], |[i, j]| (i * 10 + j) as i32);
    assert_eq!(row_sums::on(&b, &host_m).unwrap().to_vec(), vec![3, 33]);
    assert_eq!(m, grid::on(&cpu, 4).unwrap());
}

#[test]
fn an_array_on_one_device_is_read_on_another() {
    let (b1, d1) = sim();
    let (b2, d2) = sim();
    let (xs, v) = input();
    let ys = scale::on(&b1, &xs, 2.0).unwrap();
    let t1 = counted(&d1);
    let t2 = counted(&d2);
    let zs = scale::on(&b2, &ys, 2.0).unwrap();
    assert_eq!(since(&d1, t1).download_bytes, 8 * N as u64);
    assert_eq!(since(&d2, t2).upload_bytes, 8 * N as u64);
    assert_eq!(zs.to_vec(), v.iter().map(|x| x * 4.0).collect::<Vec<_>>());
    // `ys` keeps its copy on the first device.
    let t1 = counted(&d1);
    scale::on(&b1, &ys, 1.0).unwrap();
    only_error_words(since(&d1, t1));
}

#[test]
fn empty_arrays_stay_on_the_device() {
    let (b, d) = sim();
    let xs = Vector::<f64>::from(vec![]);
    let ys = scale::on(&b, &xs, 2.0).unwrap();
    let zs = add::on(&b, &ys, &xs).unwrap();
    assert_eq!(zs.len(), 0);
    assert_eq!(zs.to_vec(), Vec::<f64>::new());
    assert_eq!(total::on(&b, &zs).unwrap().value(), 0.0);
    assert_eq!(counted(&d).upload_bytes, 0);
}

#[test]
fn from_device_checks_the_columns() {
    let (_, d) = sim();
    let buf = GBuf::alloc(&d, &[8], 3).unwrap();
    assert!(Vector::<f64>::from_device([4], buf.clone()).is_err());
    assert!(Vector::<(f64, i32)>::from_device([3], buf.clone()).is_err());
    assert!(Vector::<f64>::from_device([3], buf).is_ok());
    let col = buffers::upload(&d, &[1i32, 2, 3]).unwrap();
    let v = buffers::output::<i32, 1>([3], GBuf::from_columns(vec![col])).unwrap();
    assert_eq!(v.try_to_vec().unwrap(), vec![1, 2, 3]);
}

#[test]
fn arrays_stay_send_sync_and_unwind_safe() {
    fn send_sync<T: Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe>() {}
    send_sync::<Vector<f64>>();
    send_sync::<Matrix<(f32, (u8, bool))>>();
    send_sync::<Scalar<usize>>();
}

/// The simulator, with downloads that fail while `broken` is set (a lost device).
#[derive(Debug)]
struct Flaky {
    sim: SimDevice,
    broken: AtomicBool,
}

impl Device for Flaky {
    fn name(&self) -> String {
        "flaky".into()
    }
    fn props(&self) -> &DeviceProps {
        self.sim.props()
    }
    fn alloc(&self, bytes: usize) -> accel::Result<DevicePtr> {
        self.sim.alloc(bytes)
    }
    fn free(&self, ptr: DevicePtr) {
        self.sim.free(ptr)
    }
    fn upload(&self, dst: DevicePtr, src: &[u8]) -> accel::Result<()> {
        self.sim.upload(dst, src)
    }
    fn download(&self, src: DevicePtr, dst: &mut [u8]) -> accel::Result<()> {
        if self.broken.load(Ordering::SeqCst) {
            return Err(accel::Error::with_kind(
                ErrorKind::DeviceFailure,
                "download",
                "device lost",
            ));
        }
        self.sim.download(src, dst)
    }
    fn copy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize) -> accel::Result<()> {
        self.sim.copy(dst, src, bytes)
    }
    fn memset(&self, dst: DevicePtr, value: u8, bytes: usize) -> accel::Result<()> {
        self.sim.memset(dst, value, bytes)
    }
    fn launch(
        &self,
        ptx: &'static str,
        kernel: &str,
        cfg: LaunchConfig,
        args: &[KernelArg],
    ) -> accel::Result<()> {
        self.sim.launch(ptx, kernel, cfg, args)
    }
    fn synchronize(&self) -> accel::Result<()> {
        self.sim.synchronize()
    }
}

#[test]
fn a_failed_download_is_an_error_where_it_can_be() {
    let flaky = Arc::new(Flaky {
        sim: SimDevice::new(1),
        broken: AtomicBool::new(false),
    });
    let b = Backend::Gpu(flaky.clone());
    let (xs, v) = input();
    let ys = scale::on(&b, &xs, 2.0).unwrap();
    flaky.broken.store(true, Ordering::SeqCst);
    let err = ys.try_to_vec().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DeviceFailure);
    assert!(format!("{ys:?}").contains("unreadable"));
    // The CPU back end reads device arrays through the fallible path.
    let err = add::on(&Backend::cpu(), &ys, &xs).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DeviceFailure);
    let caught = std::panic::catch_unwind(|| ys.to_vec());
    assert!(caught.is_err(), "the infallible reader panics on a lost device");
    // Nothing was cached by the failures: the device back, the data reads.
    flaky.broken.store(false, Ordering::SeqCst);
    assert_eq!(ys.to_vec(), v.iter().map(|x| x * 2.0).collect::<Vec<_>>());
}

/// `on_into` puts the result in the caller's array, reusing its storage on the
/// CPU back end (the same memory, when the sizes agree), and works on the
/// GPU path and for tuples; after an error the output is empty.
#[test]
fn on_into_reuses_the_output() {
    let n = 1 << 14; // past the pool's smallest kept array (16 KiB)
    let xs = Vector::from((0..n).map(|i| i as f64).collect::<Vec<_>>());
    let cpu = Backend::cpu();
    let mut out = scale::on(&cpu, &xs, 2.0).unwrap();
    let before = out.as_slice().as_ptr();
    for a in [3.0, 4.0] {
        scale::on_into(&cpu, &mut out, &xs, a).unwrap();
        assert_eq!(out.to_vec(), scale::on(&cpu, &xs, a).unwrap().to_vec());
        if std::env::var("ACCEL_POOL").map_or(true, |v| v != "off") {
            assert_eq!(out.as_slice().as_ptr(), before, "the storage is reused");
        }
    }
    // A tuple, and the GPU path (the simulator).
    let (sim, _) = sim();
    let mut pair = split::on(&cpu, &xs).unwrap();
    split::on_into(&sim, &mut pair, &xs).unwrap();
    let want = split::on(&cpu, &xs).unwrap();
    assert_eq!(
        (pair.0.to_vec(), pair.1.to_vec()),
        (want.0.to_vec(), want.1.to_vec())
    );
    // A failed call leaves the output empty.
    let mut m = grid::on(&cpu, 4).unwrap();
    let err = grid::on_into(&cpu, &mut m, usize::MAX).unwrap_err();
    assert_eq!(m.shape(), [0, 0], "{err}");
}

/// `Backend::interp` (`ACCEL_BACKEND=interp`) runs the same programs, with the
/// same API, on the reference interpreter: scalars, tuples and matrices come
/// back as the CPU back end gives them, and errors with the same kind.
#[test]
fn the_interp_backend_runs_programs_on_the_interpreter() {
    let interp = Backend::interp().expect("the tests build the interpreter");
    assert_eq!(Backend::from_setting(Some("interp")), interp);
    assert_eq!(interp.name(), "interp");
    let cpu = Backend::cpu();
    let (xs, _) = input();
    assert_eq!(
        scale::on(&interp, &xs, 1.5).unwrap().to_vec(),
        scale::on(&cpu, &xs, 1.5).unwrap().to_vec()
    );
    assert_eq!(
        total::on(&interp, &xs).unwrap().value(),
        total::on(&cpu, &xs).unwrap().value()
    );
    let (a, b) = split::on(&interp, &xs).unwrap();
    let (c, d) = split::on(&cpu, &xs).unwrap();
    assert_eq!((a.to_vec(), b.to_vec()), (c.to_vec(), d.to_vec()));
    let g = grid::on(&interp, 5).unwrap();
    assert_eq!(
        (g.shape(), g.to_vec()),
        (
            grid::on(&cpu, 5).unwrap().shape(),
            grid::on(&cpu, 5).unwrap().to_vec()
        )
    );
    assert_eq!(
        row_sums::on(&interp, &g).unwrap().to_vec(),
        row_sums::on(&cpu, &g).unwrap().to_vec()
    );
    // Inside `with_default`, calls without a backend take it too.
    let v = interp.with_default(|| scale(&xs, 2.0)).unwrap();
    assert_eq!(v.to_vec(), scale::on(&cpu, &xs, 2.0).unwrap().to_vec());
    let e = grid::on(&interp, usize::MAX).unwrap_err();
    assert_eq!(e.kind(), grid::on(&cpu, usize::MAX).unwrap_err().kind(), "{e}");
}
