//! The corpus harness: each program runs as accel (written the natural way,
//! from docs/language.md), as a sequential Rust loop and as a straightforward
//! rayon version; every system's result is checked against the sequential one
//! before anything is timed.
//!
//! Shared by `benches/corpus.rs` (times the systems, writes
//! docs/bench/CORPUS.md) and `tests/corpus.rs` (checks them at small sizes).

#![allow(dead_code)] // the test uses the checking half only

use std::time::{Duration, Instant};

/// A result reduced to numbers, for checking. Done outside the timed calls.
pub trait Flat {
    fn flat(&self, out: &mut Vec<f64>);
}

macro_rules! flat_number {
    ($($t:ty),*) => {$(
        impl Flat for $t {
            fn flat(&self, out: &mut Vec<f64>) {
                out.push(*self as f64);
            }
        }
    )*};
}
flat_number!(f32, f64, u8, u32, i32, u64, i64, usize);

impl Flat for bool {
    fn flat(&self, out: &mut Vec<f64>) {
        out.push(*self as u8 as f64);
    }
}

impl<T: Flat> Flat for Vec<T> {
    fn flat(&self, out: &mut Vec<f64>) {
        self.iter().for_each(|x| x.flat(out));
    }
}

impl<T: Flat + accel::Elem, const R: usize> Flat for accel::Array<T, R> {
    fn flat(&self, out: &mut Vec<f64>) {
        self.to_vec().flat(out);
    }
}

macro_rules! flat_tuple {
    ($(($($T:ident $i:tt),+))*) => {$(
        impl<$($T: Flat),+> Flat for ($($T,)+) {
            fn flat(&self, out: &mut Vec<f64>) {
                $(self.$i.flat(out);)+
            }
        }
    )*};
}
flat_tuple!((A 0) (A 0, B 1) (A 0, B 1, C 2) (A 0, B 1, C 2, D 3));

/// One system's run: its result, or accel's error.
pub type Run<'a> = Box<dyn FnMut() -> accel::Result<Box<dyn Flat>> + 'a>;

/// Wraps a closure returning any `Flat` value as a `Run`.
pub fn run<'a, T: Flat + 'static>(mut f: impl FnMut() -> accel::Result<T> + 'a) -> Run<'a> {
    Box::new(move || f().map(|v| Box::new(v) as Box<dyn Flat>))
}

/// One program of the corpus at one size.
pub struct Program<'a> {
    /// Short name (`gemm`, `hotspot`).
    pub name: &'static str,
    /// Where it comes from: suite, repository and path of the original.
    pub source: &'static str,
    /// The size, as the table shows it.
    pub size: String,
    /// Largest relative difference allowed between systems (0 for exact
    /// results; float sums taken in another order need more).
    pub tolerance: f64,
    /// `("accel", ..)`, `("sequential", ..)`, `("rayon", ..)`, and any
    /// tuned accel form (`"accel tuned"`). The sequential run is the reference.
    pub systems: Vec<(&'static str, Run<'a>)>,
}

/// `CORPUS_CHECK_DIVISOR`, when set to a positive number.
fn check_divisor() -> Option<usize> {
    let n = std::env::var("CORPUS_CHECK_DIVISOR").ok()?.parse().ok()?;
    (n > 0).then_some(n)
}

/// Whether the harness times the systems or only checks them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Tiny sizes, check only (the test).
    Check,
    /// Reduced sizes, timed (a quick look).
    Small,
    /// The suites' sizes, timed.
    Full,
}

pub struct Row {
    pub name: &'static str,
    pub source: &'static str,
    pub size: String,
    pub times: Vec<(&'static str, f64)>,
}

pub struct Harness {
    pub mode: Mode,
    pub filter: Option<String>,
    pub rows: Vec<Row>,
    pub failures: Vec<String>,
    /// The backend every accel form runs on.
    pub backend: accel::Backend,
    /// The Python interpreter that runs `bench/corpus.py` (`CORPUS_PYTHON`,
    /// set by `bench/corpus.sh`): `None` leaves the NumPy and Numba columns out.
    pub python: Option<String>,
    /// The inputs of the next program's Python forms (see [`Harness::python`]).
    pending: Option<Py>,
}

impl Harness {
    pub fn new(mode: Mode, filter: Option<String>, backend: accel::Backend) -> Harness {
        Harness {
            mode,
            filter,
            backend,
            rows: vec![],
            failures: vec![],
            python: None,
            pending: None,
        }
    }

    /// Gives the next program Python forms (NumPy, and Numba where it is
    /// installed: `bench/corpus.py`), run on these inputs, checked against its
    /// sequential result and timed beside the Rust systems.
    pub fn python(&mut self, py: Py) {
        self.pending = Some(py);
    }

    /// `full` at full scale, a tenth at small scale, `check` when checking
    /// (or `full / N` with `CORPUS_CHECK_DIVISOR=N`, for longer checks: the
    /// GPU run, a soak on the simulator).
    pub fn pick(&self, full: usize, check: usize) -> usize {
        match self.mode {
            Mode::Full => full,
            Mode::Small => (full / 10).max(check),
            Mode::Check => match check_divisor() {
                Some(n) => (full / n).max(check),
                None => check,
            },
        }
    }

    /// The backend the accel forms run on.
    pub fn backend(&self) -> accel::Backend {
        self.backend.clone()
    }

    /// Whether `name` passes the filter (build no inputs otherwise).
    pub fn wants(&self, name: &str) -> bool {
        self.filter.as_deref().map_or(true, |f| name.contains(f))
    }

    /// Checks every system against the sequential one, then times them.
    pub fn program(&mut self, mut p: Program<'_>) {
        let py = self.pending.take();
        if !self.wants(p.name) {
            return;
        }
        let mut results = vec![];
        for (system, f) in &mut p.systems {
            match f() {
                Ok(v) => {
                    let mut out = vec![];
                    v.flat(&mut out);
                    results.push((*system, out));
                }
                Err(e) => {
                    self.failures.push(format!("{} / {system}: {e}", p.name));
                    return;
                }
            }
        }
        let Some((_, want)) = results.iter().find(|(s, _)| *s == "sequential") else {
            self.failures.push(format!("{}: no sequential reference", p.name));
            return;
        };
        for (system, got) in &results {
            if let Some(why) = differs(want, got, p.tolerance) {
                self.failures
                    .push(format!("{} / {system} differs from sequential: {why}", p.name));
                return;
            }
        }
        if self.mode == Mode::Check {
            return;
        }
        // Rounds over the systems, interleaved, so that a slow spell of the
        // machine (2 shared cores) falls on every system alike and the ratios
        // hold. In a round each system runs twice and the second call is
        // timed: the first warms the caches and wakes the thread pool, so
        // the sample is the steady state that back-to-back calls measure.
        // The median of each system's samples.
        let per_system = Duration::from_millis(if self.mode == Mode::Full { 1500 } else { 300 });
        let budget = per_system * p.systems.len() as u32;
        let mut samples: Vec<Vec<f64>> = vec![vec![]; p.systems.len()];
        let start = Instant::now();
        while samples[0].len() < 3 || (samples[0].len() < 21 && start.elapsed() < budget) {
            for ((_, f), s) in p.systems.iter_mut().zip(&mut samples) {
                drop(std::hint::black_box(f()));
                let t = Instant::now();
                let r = f();
                s.push(t.elapsed().as_secs_f64());
                drop(std::hint::black_box(r));
            }
        }
        let mut times = vec![];
        for ((system, _), mut s) in p.systems.iter().zip(samples) {
            s.sort_by(f64::total_cmp);
            times.push((*system, s[s.len() / 2]));
        }
        if let (Some(python), Some(py)) = (&self.python, py) {
            match py.run(python, want, p.tolerance) {
                Ok(py_times) => times.extend(py_times),
                Err(e) => self.failures.push(format!("{} / {e}", p.name)),
            }
        }
        let line: Vec<String> = times
            .iter()
            .map(|(s, t)| format!("{s} {:.3} ms", t * 1e3))
            .collect();
        println!("{:<16} {:>12}  {}", p.name, p.size, line.join("  "));
        self.rows.push(Row {
            name: p.name,
            source: p.source,
            size: p.size,
            times,
        });
    }
}

/// An element type of the inputs handed to Python, with NumPy's name for it.
pub trait PyElem: Copy {
    const DTYPE: &'static str;
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! py_elem {
    ($($t:ty => $d:literal),*) => {$(
        impl PyElem for $t {
            const DTYPE: &'static str = $d;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
py_elem!(f32 => "float32", f64 => "float64", i32 => "int32", u32 => "uint32");

/// The inputs of a program's Python forms: arrays (row-major) and scalars,
/// by the names its functions in `bench/corpus.py` take.
pub struct Py {
    program: &'static str,
    arrays: Vec<(&'static str, &'static str, Vec<usize>, Vec<u8>)>,
    scalars: Vec<(&'static str, f64)>,
}

impl Py {
    pub fn new(program: &'static str) -> Py {
        Py {
            program,
            arrays: vec![],
            scalars: vec![],
        }
    }

    pub fn array<T: PyElem>(mut self, name: &'static str, shape: &[usize], v: &[T]) -> Py {
        assert_eq!(
            shape.iter().product::<usize>(),
            v.len(),
            "{name}: shape and length"
        );
        let mut bytes = Vec::with_capacity(v.len() * std::mem::size_of::<T>());
        v.iter().for_each(|x| x.put(&mut bytes));
        self.arrays.push((name, T::DTYPE, shape.to_vec(), bytes));
        self
    }

    pub fn scalar(mut self, name: &'static str, v: f64) -> Py {
        self.scalars.push((name, v));
        self
    }

    /// Writes the inputs to a scratch folder, runs `bench/corpus.py` on them,
    /// and checks each form's result against `want`: the forms' times, or
    /// why not.
    fn run(&self, python: &str, want: &[f64], tol: f64) -> Result<Vec<(&'static str, f64)>, String> {
        let dir = std::env::temp_dir().join("accel-corpus-py").join(self.program);
        let io = |e: std::io::Error| format!("python: {}: {e}", dir.display());
        std::fs::create_dir_all(&dir).map_err(io)?;
        let mut manifest = String::new();
        for (name, dtype, shape, bytes) in &self.arrays {
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            manifest += &format!("array {name} {dtype} {}\n", dims.join(" "));
            std::fs::write(dir.join(format!("{name}.bin")), bytes).map_err(io)?;
        }
        for (name, v) in &self.scalars {
            manifest += &format!("scalar {name} {v:e}\n");
        }
        std::fs::write(dir.join("inputs.txt"), manifest).map_err(io)?;
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/corpus.py");
        let out = std::process::Command::new(python)
            .arg(script)
            .arg(self.program)
            .arg(&dir)
            .stderr(std::process::Stdio::inherit())
            .output()
            .map_err(|e| format!("python: cannot run {python}: {e}"))?;
        if !out.status.success() {
            return Err(format!("python: {script} failed ({})", out.status));
        }
        let mut times = vec![];
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let (form, secs) = match line.split_once(' ') {
                Some(("numpy", t)) => ("numpy", t),
                Some(("numba", t)) => ("numba", t),
                _ => return Err(format!("python: unexpected output `{line}`")),
            };
            let secs: f64 = secs
                .parse()
                .map_err(|_| format!("python: unexpected output `{line}`"))?;
            let bytes = std::fs::read(dir.join(format!("{form}.bin"))).map_err(io)?;
            let got: Vec<f64> = bytes
                .chunks_exact(8)
                .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
                .collect();
            if let Some(why) = differs(want, &got, tol) {
                return Err(format!("{form} differs from sequential: {why}"));
            }
            times.push((form, secs));
        }
        Ok(times)
    }
}

/// Where `got` differs from `want` by more than `tol` (relative, with an
/// absolute floor of `tol` near zero), or in length.
pub fn differs(want: &[f64], got: &[f64], tol: f64) -> Option<String> {
    if want.len() != got.len() {
        return Some(format!("{} values, expected {}", got.len(), want.len()));
    }
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let same = (w.is_nan() && g.is_nan()) || (w - g).abs() <= tol * w.abs().max(1.0);
        if !same {
            return Some(format!("at {i}: {g} against {w}"));
        }
    }
    None
}
