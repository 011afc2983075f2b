//! Wall time per kernel on the CPU back end: where a program's time goes,
//! kernel by kernel, as `explain()` numbers them.
//!
//! `ACCEL_PROFILE=1` prints a table to stderr after every program call on
//! the CPU; [`crate::profile::cpu`] returns the same as data for one call.
//! Off, a call pays one flag test per kernel run.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The time one kernel of a program took in one call.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelTime {
    /// As `explain()` shows it: `kernel 3: fold -> b4   fuses: map -> fold`.
    pub label: String,
    /// How many times it ran (kernels in loops run once per iteration).
    pub runs: u64,
    /// Its wall time, all runs together.
    pub total: Duration,
}

/// A program call's kernels on the CPU, in `explain()` order (those that
/// never ran included, with no runs).
#[derive(Clone, Debug, PartialEq)]
pub struct CpuProfile {
    pub program: String,
    pub kernels: Vec<KernelTime>,
    /// The whole call, host work between kernels included.
    pub call: Duration,
}

impl CpuProfile {
    /// The table `ACCEL_PROFILE=1` prints.
    pub fn table(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut s = String::new();
        let _ = writeln!(s, "cpu profile of `{}`: {:.3} ms", self.program, ms(self.call));
        let _ = writeln!(
            s,
            "{:>10} {:>7} {:>10} {:>6}  kernel",
            "ms", "runs", "us/run", "%"
        );
        for k in &self.kernels {
            let per = if k.runs == 0 {
                0.0
            } else {
                k.total.as_secs_f64() * 1e6 / k.runs as f64
            };
            let share = 100.0 * k.total.as_secs_f64() / self.call.as_secs_f64().max(1e-12);
            let _ = writeln!(
                s,
                "{:>10.3} {:>7} {:>10.1} {:>6.1}  {}",
                ms(k.total),
                k.runs,
                per,
                share,
                k.label
            );
        }
        let kernels: Duration = self.kernels.iter().map(|k| k.total).sum();
        let _ = writeln!(
            s,
            "{:>10.3} {:>7} {:>10} {:>6.1}  outside kernels",
            ms(self.call.saturating_sub(kernels)),
            "",
            "",
            100.0 * self.call.saturating_sub(kernels).as_secs_f64() / self.call.as_secs_f64().max(1e-12)
        );
        s
    }
}

fn printing() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("ACCEL_PROFILE").is_ok_and(|v| v == "1"))
}

thread_local! {
    /// Set by [`collect`] around one call on this thread.
    static COLLECTING: Cell<bool> = const { Cell::new(false) };
    static LAST: RefCell<Option<CpuProfile>> = const { RefCell::new(None) };
}

/// Runs `f` with timing on for this thread, returning the profile of the
/// last program call it made (`None`: it made none on the CPU).
pub(crate) fn collect<T>(f: impl FnOnce() -> T) -> (T, Option<CpuProfile>) {
    let before = COLLECTING.with(|c| c.replace(true));
    LAST.with(|l| l.borrow_mut().take());
    let out = f();
    COLLECTING.with(|c| c.set(before));
    (out, LAST.with(|l| l.borrow_mut().take()))
}

/// One program call's timer, made by the generated code at the start of
/// the call; it reports when dropped (on an error too).
pub struct CallTimer {
    on: Option<Timing>,
}

struct Timing {
    program: &'static str,
    labels: &'static [&'static str],
    runs: RefCell<Vec<(u64, Duration)>>,
    started: Instant,
}

impl CallTimer {
    /// `labels`: the program's kernels as `explain()` shows them.
    #[inline]
    pub fn start(program: &'static str, labels: &'static [&'static str]) -> CallTimer {
        let on = (printing() || COLLECTING.with(Cell::get)).then(|| Timing {
            program,
            labels,
            runs: RefCell::new(vec![(0, Duration::ZERO); labels.len()]),
            started: Instant::now(),
        });
        CallTimer { on }
    }

    /// Before a kernel runs.
    #[inline]
    pub fn begin(&self) -> Option<Instant> {
        self.on.as_ref().map(|_| Instant::now())
    }

    /// After kernel `k` (its number in `explain()`) ran, from `begin`'s instant.
    #[inline]
    pub fn end(&self, began: Option<Instant>, k: usize) {
        if let (Some(t), Some(on)) = (began, &self.on) {
            if let Some(slot) = on.runs.borrow_mut().get_mut(k) {
                slot.0 += 1;
                slot.1 += t.elapsed();
            }
        }
    }
}

impl Drop for CallTimer {
    fn drop(&mut self) {
        let Some(on) = self.on.take() else { return };
        let profile = CpuProfile {
            program: on.program.to_string(),
            kernels: on
                .labels
                .iter()
                .zip(on.runs.into_inner())
                .map(|(label, (runs, total))| KernelTime {
                    label: label.to_string(),
                    runs,
                    total,
                })
                .collect(),
            call: on.started.elapsed(),
        };
        if printing() {
            eprint!("{}", profile.table());
        }
        if COLLECTING.with(Cell::get) {
            LAST.with(|l| *l.borrow_mut() = Some(profile));
        }
    }
}
