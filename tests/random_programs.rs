//! Random programs through every executor, compared with the interpreter.
//!
//! `ACCEL_FUZZ_PROGRAMS=N cargo test --release --test random_programs -- --nocapture`
//! draws N programs (`tests/random/gen.rs`; seed `ACCEL_FUZZ_SEED`, default
//! 1), and for each:
//! - compiles it in-process (front end, plan validated after every pass)
//!   and generates its PTX, CPU code and GPU host code: a panic or an
//!   "accel internal error" in the code is a failure;
//! - runs it, in one generated crate holding every program (`#[acc]`
//!   functions, built once), on the CPU back end and on the PTX simulator
//!   (the GPU path), and through its `dist` entry on 3 thread ranks (its
//!   inputs skewed over them; `accel_core::dist` decides how it runs), and
//!   compares each with the reference interpreter
//!   (`tests/random/compare.rs`).
//!
//! It prints `N programs, M mismatches` last and fails when M > 0. A failing
//! program is written, with its inputs, to `failures/` under the test's
//! folder in `target/tmp/random-programs`, ready to minimise into a test of
//! `tests/regressions.rs`.

#[path = "random/compare.rs"]
mod compare;
#[path = "random/exec.rs"]
mod exec;
#[path = "random/gen.rs"]
mod gen;
#[path = "random/in_process.rs"]
mod in_process;
#[path = "random/shrink.rs"]
mod shrink;

use in_process::in_process;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Whether the program has a `dist` entry (`accel_core::dist::has_entry`),
/// and its result's rank.
fn dist_result_rank(p: &gen::Program) -> Option<usize> {
    use accel_core::ir::Ty;
    let (prog, _) = accel_core::compile_source(&p.source, &p.name).ok()?;
    match prog.result {
        Ty::Array(_, r) if accel_core::dist::has_entry(&prog) => Some(r),
        _ => None,
    }
}

/// How the programs' `dist` entries run them (`accel_core::dist`): a count
/// of each, so that a run shows that its `dist` executor tries every kind.
fn dist_summary(progs: &[&gen::Program]) -> String {
    use accel_core::dist::{split, Split};
    let (mut rows, mut halos, mut folds, mut scans, mut phased, mut whole) = (0, 0, 0, 0, 0, 0);
    for p in progs.iter().filter(|p| dist_result_rank(p).is_some()) {
        let Ok((prog, _)) = accel_core::compile_source(&p.source, &p.name) else {
            continue;
        };
        match split(&prog) {
            Split::Rows { halo: 0, .. } => rows += 1,
            Split::Rows { .. } => halos += 1,
            Split::FoldRows { .. } => folds += 1,
            Split::ScanRows { .. } => scans += 1,
            Split::Whole { .. } if accel_core::dist::phases(&prog).is_some() => phased += 1,
            Split::Whole { .. } => whole += 1,
            Split::SeqFold { .. } | Split::SeqCollect { .. } | Split::SeqWhole { .. } => {
                unreachable!("random programs have no sequence parameter")
            }
        }
    }
    format!(
        "dist entries on 3 thread ranks: {rows} by rows, {halos} by rows with halos, {folds} folds by rows, {scans} scans by rows, {phased} in phases, {whole} whole"
    )
}

/// The runner's `dist_NAME`: the program's `dist` entry on 3 thread ranks,
/// each input of rank 1 or more skewed over them (`skew::skewed`), the result
/// gathered; `None` for a program without one.
fn dist_source(p: &gen::Program) -> Option<String> {
    let rank = dist_result_rank(p)?;
    let mut s = String::new();
    let mut args = Vec::new();
    for i in &p.inputs {
        if i.shape.is_empty() {
            args.push(format!("{}", i.name));
        } else {
            let _ = writeln!(s, "let d_{0} = skew::skewed(&comm, {0})?;", i.name);
            args.push(format!("&d_{}", i.name));
        }
    }
    let gathered = if rank == 0 {
        "r.to_dyn()"
    } else {
        "r.to_array()?.to_dyn()"
    };
    let params: Vec<String> = p
        .inputs
        .iter()
        .map(|i| format!("{}: &{}", i.name, i.ty.rust()))
        .collect();
    Some(format!(
        "fn dist_{n}({params}) -> accel::Result<accel::dynamic::Dyn> {{
         dist_ranks(|comm| {{
{s}let r = {n}::dist(&Backend::cpu(), {args})?;
Ok(compare::normalise({gathered}))
}})
}}",
        n = p.name,
        params = params.join(", "),
        args = args.join(", "),
    ))
}

/// Helpers of the runner's `dist_NAME` functions.
const DIST_HELPERS: &str = r#"
/// `f` on 3 thread ranks: a failed rank's own error, else rank 0's result,
/// checked to be every rank's (NaN equal to NaN).
fn dist_ranks(f: impl Fn(std::sync::Arc<dyn accel::dist::Comm>) -> accel::Result<accel::dynamic::Dyn> + Sync) -> accel::Result<accel::dynamic::Dyn> {
    let all = accel::dist::LocalComm::run(3, |c| f(c));
    if let Some(e) = all.iter().find_map(|r| r.as_ref().err().filter(|e| e.kind() != accel::ErrorKind::Distributed)) {
        return Err(e.clone());
    }
    let first = all[0].clone()?;
    for r in &all[1..] {
        if !r.as_ref().is_ok_and(|r| compare::dyn_eq(r, &first, 0.0, 0.0)) {
            return Err(accel::Error::new("dist", format!("the ranks disagree: {first:?} against {r:?}")));
        }
    }
    Ok(first)
}
"#;

/// The runner crate: every program, its inputs, and a `main` that runs each
/// on every executor and prints one `RESULT` line per (program, executor):
/// the CPU and the PTX simulator, and the program's `dist` entry on 3 ranks
/// of threads where it has one.
fn runner_source(progs: &[&gen::Program]) -> (String, Vec<(usize, usize)>) {
    let compare = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/random/compare.rs");
    let mut s = String::new();
    let _ = writeln!(s, "#![allow(unused, non_snake_case, clippy::all)]");
    let _ = writeln!(s, "use accel::prelude::*;\nuse accel::dynamic::ToDyn;");
    let _ = writeln!(s, "#[path = {:?}]\nmod compare;", compare.display().to_string());
    let skew = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/distributed/skew.rs");
    let _ = writeln!(s, "#[path = {:?}]\nmod skew;", skew.display().to_string());
    s.push_str(DIST_HELPERS);
    let mut lines = Vec::new();
    for p in progs {
        let start = s.lines().count() + 1;
        let _ = writeln!(s, "#[acc]\npub {}", p.source);
        let end = s.lines().count();
        lines.push((start, end));
        let params: Vec<String> = p.inputs.iter().map(|i| format!("&{}", i.name)).collect();
        let dyns: Vec<String> = p.inputs.iter().map(|i| format!("{}.to_dyn()", i.name)).collect();
        let dist = dist_source(p);
        let run_dist = if dist.is_some() {
            format!(
                "gots.push(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| dist_{n}({params})))\n\
                   .unwrap_or_else(|p| Err(accel::Error::new(\"panic\", compare::panic_message(p)))));\n\
                 names.push(\"dist\".to_string());\n",
                n = p.name,
                params = params.join(", "),
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "fn run_{n}(backends: &[Backend]) {{\n{inputs}let args = vec![{dyns}];\n\
             let want = std::panic::catch_unwind(|| accel_core::interpret_source({n}::SOURCE, {n:?}, &args))\n\
               .unwrap_or_else(|_| Err(accel::Error::new(\"panic\", \"the interpreter panicked\")));\n\
             let mut gots: Vec<_> = backends.iter().map(|b| {{\n\
               std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {n}::on(b, {params}).map(|r| compare::normalise(r.to_dyn()))))\n\
                 .unwrap_or_else(|p| Err(accel::Error::new(\"panic\", compare::panic_message(p))))\n\
             }}).collect();\n\
             let mut names: Vec<String> = backends.iter().map(|b| b.name().to_string()).collect();\n\
             {run_dist}\
             for (b, v) in names.iter().zip(compare::judge(&want, &gots, {re})) {{\n\
               println!(\"RESULT {n} {{b}} {{v}}\");\n\
             }}\n}}",
            n = p.name,
            inputs = p.input_code(),
            dyns = dyns.join(", "),
            params = params.join(", "),
            re = p.reordered_floats,
        );
        if let Some(d) = dist {
            let _ = writeln!(s, "{d}");
        }
    }
    // `runner FROM` runs the programs from position FROM on: after a crash
    // (an abort, a stack overflow) the harness goes on past the program.
    let _ = writeln!(s, "const PROGRAMS: &[(&str, fn(&[Backend]))] = &[");
    for p in progs {
        let _ = writeln!(s, "    ({:?}, run_{}),", p.name, p.name);
    }
    let _ = writeln!(
        s,
        "];\nfn main() {{\n\
         let from: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0);\n\
         let backends = vec![Backend::cpu(), Backend::ptx_sim().expect(\"the simulator\")];\n\
         std::panic::set_hook(Box::new(|_| {{}}));\n\
         for (name, run) in &PROGRAMS[from.min(PROGRAMS.len())..] {{\n\
           println!(\"START {{name}}\");\n\
           run(&backends);\n\
         }}\n}}"
    );
    (s, lines)
}

/// Builds the runner crate in `dir`; programs whose code rustc rejects are
/// reported and left out (the build is retried without them).
fn build_runner(
    dir: &Path,
    progs: &mut Vec<&gen::Program>,
    failures: &mut BTreeMap<String, String>,
) -> Option<PathBuf> {
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::create_dir_all(dir.join("src")).ok()?;
    // The programs at opt-level 1, their dependencies at 0 (building those
    // took most of this test on a fresh clone: 93 s, against 55 s so), but
    // for the runtime, which runs them (skeletons, the PTX simulator), and
    // the proc macro (`build-override`), which compiles them.
    let manifest = format!(
        "[package]\nname = \"random-programs\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [dependencies]\naccel = {{ path = {root:?}, features = [\"verify-elisions\", \"ptx-sim\"] }}\naccel-core = {{ path = {core:?} }}\n\n\
         [profile.dev]\nopt-level = 1\ndebug = false\n\n\
         [profile.dev.package.\"*\"]\nopt-level = 0\n\n\
         [profile.dev.package.accel-runtime]\nopt-level = 1\n\n\
         [profile.dev.build-override]\nopt-level = 1\n\n[workspace]\n",
        core = format!("{root}/crates/accel-core"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).ok()?;
    for _attempt in 0..4 {
        let (src, lines) = runner_source(progs);
        std::fs::write(dir.join("src/main.rs"), &src).ok()?;
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args(["build", "--quiet", "--message-format=short"])
            .current_dir(dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            .env_remove("RUSTFLAGS")
            .output()
            .ok()?;
        if out.status.success() {
            return Some(dir.join("target/debug/random-programs"));
        }
        // `src/main.rs:LINE:COL: error..`: the programs at those lines.
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let mut bad = Vec::new();
        for l in stderr.lines().filter(|l| l.contains("error")) {
            let line = l.split(':').nth(1).and_then(|n| n.parse::<usize>().ok());
            if let Some(k) = line.and_then(|n| lines.iter().position(|(a, b)| (*a..=*b).contains(&n))) {
                if !bad.contains(&k) {
                    bad.push(k);
                }
            }
        }
        if bad.is_empty() {
            eprintln!("the runner crate does not build:\n{stderr}");
            return None;
        }
        bad.sort_unstable_by(|a, b| b.cmp(a));
        for k in bad {
            let p = progs.remove(k);
            let why: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).take(3).collect();
            failures.insert(
                p.name.clone(),
                format!("rustc rejects its generated code: {}", why.join(" / ")),
            );
        }
    }
    None
}

/// A test file (for `tests/`) that runs program `p` on every backend and
/// compares it with the interpreter: a failing program, ready to become a
/// regression test.
fn regression_test(p: &gen::Program, why: &str, seed: u64) -> String {
    let why: String = why.lines().map(|l| format!("// {l}\n")).collect();
    let n = &p.name;
    let params: Vec<String> = p.inputs.iter().map(|i| format!("&{}", i.name)).collect();
    let dyns: Vec<String> = p.inputs.iter().map(|i| format!("{}.to_dyn()", i.name)).collect();
    format!(
        "// Found by tests/random_programs.rs (ACCEL_FUZZ_SEED={seed}):\n{why}\n\
         use accel::dynamic::ToDyn;\nuse accel::prelude::*;\n\n\
         #[path = \"random/compare.rs\"]\nmod compare;\n\n#[acc]\npub {source}\n\n\
         #[test]\nfn {n}_matches_the_interpreter() {{\n{inputs}\
         let args = vec![{dyns}];\n\
         let want = accel_core::interpret_source({n}::SOURCE, {n:?}, &args);\n\
         for b in [Backend::cpu(), Backend::ptx_sim().expect(\"the simulator\")] {{\n\
         let got = {n}::on(&b, {params}).map(|r| compare::normalise(r.to_dyn()));\n\
         let differs = compare::differs(&want, &got, {re});\n\
         assert!(differs.is_none(), \"{{b:?}}: {{differs:?}}\");\n}}\n}}\n",
        source = p.source,
        inputs = p.input_code(),
        dyns = dyns.join(", "),
        params = params.join(", "),
        re = p.reordered_floats,
    )
}

#[test]
fn random_programs() {
    let n: usize = env_or("ACCEL_FUZZ_PROGRAMS", 200);
    let n_gpu: usize = env_or("ACCEL_FUZZ_GPU_PROGRAMS", 1000);
    let seed: u64 = env_or("ACCEL_FUZZ_SEED", 1);
    eprintln!(
        "random programs: {n} through generated crates, {n_gpu} through the GPU path in-process, seed {seed} \
         (ACCEL_FUZZ_PROGRAMS, ACCEL_FUZZ_GPU_PROGRAMS, ACCEL_FUZZ_SEED)"
    );
    let mut rng = gen::Rng::new(seed);
    let all: Vec<gen::Program> = (0..n.max(n_gpu))
        .map(|i| gen::program(&mut rng, &format!("rp{i}")))
        .collect();

    // The GPU path in-process: plan → PTX → simulator, every program.
    let t = std::time::Instant::now();
    let verdicts = in_process(&all[..n_gpu]);
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    let (mut one_sided, mut rejected_gpu) = (0, 0);
    for (p, v) in all.iter().zip(&verdicts) {
        if v == "lazy" {
            one_sided += 1;
        } else if v == "rejected" {
            rejected_gpu += 1;
        } else if v != "ok" {
            failures.insert(p.name.clone(), format!("ptx-sim in-process: {v}"));
        }
    }
    eprintln!(
        "{} programs ran on the GPU path in-process in {:.1} s ({rejected_gpu} rejected by the front end): \
         {} mismatches; {one_sided} fail on one side only (accepted, as in the runner, but without a second \
         executor to confirm it)",
        n_gpu - rejected_gpu,
        t.elapsed().as_secs_f64(),
        failures.len()
    );
    let programs = &all[..n];

    // In-process: front end, plan (validated after every pass), PTX.
    let mut rejected = Vec::new();
    let mut compiled = Vec::new();
    for p in programs {
        // Outer `Err`: the front end rejects the program; inner `Err`: the
        // generated code holds an internal error; `Some`: no PTX.
        let r = catch_unwind(AssertUnwindSafe(|| {
            let (_, plan) = accel_core::compile_source(&p.source, &p.name).map_err(|e| e.message)?;
            let ptx = accel_kernels::ptx::program(&plan);
            // The CPU code and the GPU host code, generated here too: the
            // runner builds them again, but a panic is easier to see here.
            let rt = quote::quote!(::accel::__rt);
            let cpu = accel_kernels::cpu::program_body(&plan, &rt).to_string();
            let host = accel_kernels::gpu::program_body(&plan, &ptx, &rt).to_string();
            if cpu.contains("accel internal error") || host.contains("accel internal error") {
                return Ok(Err(format!(
                    "internal error in the generated code:\n{cpu}\n{host}"
                )));
            }
            Ok::<_, String>(Ok(ptx.unsupported))
        }));
        match r {
            Ok(Ok(Ok(None))) => compiled.push(p),
            Ok(Ok(Ok(Some(why)))) => {
                failures.insert(p.name.clone(), format!("no PTX: {why}"));
            }
            Ok(Ok(Err(why))) => {
                failures.insert(p.name.clone(), why);
            }
            Ok(Err(e)) => rejected.push((p, e)),
            Err(_) => {
                failures.insert(p.name.clone(), "the compiler panicked".into());
            }
        }
    }
    eprintln!(
        "{} compile, {} rejected by the front end (the generator's share of ill-typed programs)",
        compiled.len(),
        rejected.len()
    );
    for (p, e) in rejected.iter().take(5) {
        eprintln!("rejected: {e}\n{}", p.source);
    }
    eprintln!("{}", dist_summary(&compiled));
    // The generator must mostly produce programs that compile.
    assert!(
        rejected.len() * 10 <= n,
        "{} of {n} programs rejected",
        rejected.len()
    );

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("random-programs");
    let mut runnable = compiled.clone();
    let mut outputs = String::new();
    // No runner to build for no programs (`ACCEL_FUZZ_PROGRAMS=0`: the GPU path only).
    let bin = if runnable.is_empty() {
        PathBuf::new()
    } else {
        build_runner(&dir, &mut runnable, &mut failures).expect("the runner crate builds")
    };
    let mut from = 0;
    while from < runnable.len() {
        // Sequences in chunks of 3 elements: chunk boundaries in every
        // sequence longer than that (the default chunk holds any of these
        // small inputs whole).
        let out = Command::new(&bin)
            .arg(from.to_string())
            .env("ACCEL_CHUNK", "3")
            .output()
            .expect("the runner runs");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        outputs.push_str(&stdout);
        if out.status.success() {
            break;
        }
        // The program that was running when the runner stopped.
        let last = stdout.lines().filter_map(|l| l.strip_prefix("START ")).last();
        let k = last
            .and_then(|n| runnable.iter().position(|p| p.name == n))
            .unwrap_or(from);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
        failures.insert(
            runnable[k].name.clone(),
            format!("the runner crashed: {}", tail.join(" / ")),
        );
        from = k + 1;
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    // Programs where the interpreter fails on work the plan does not do.
    let mut lazy = std::collections::BTreeSet::new();
    for line in outputs.lines() {
        let mut parts = line.splitn(4, ' ');
        if parts.next() != Some("RESULT") {
            continue;
        }
        let (Some(name), Some(backend), Some(verdict)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        *seen.entry(name).or_default() += 1;
        if verdict == "lazy" {
            lazy.insert(name);
        } else if verdict != "ok" {
            let f = failures.entry(name.to_string()).or_default();
            let _ = write!(f, "\n  {backend}: {verdict}");
        }
    }
    for p in &runnable {
        if seen.get(p.name.as_str()).copied().unwrap_or(0) < 2 {
            failures
                .entry(p.name.clone())
                .or_insert_with(|| "no result".to_string());
        }
    }

    let fail_dir = dir.join("failures");
    // This run's failures only.
    let _ = std::fs::remove_dir_all(&fail_dir);
    let _ = std::fs::create_dir_all(&fail_dir);
    for (k, (name, why)) in failures.iter().enumerate() {
        let p = all.iter().find(|p| &p.name == name).expect("a generated program");
        eprintln!("\nFAILED {name}: {why}\n{}inputs:\n{}", p.source, p.input_code());
        // A mismatch on the GPU path in-process is shrunk (each try takes
        // milliseconds); the first few only, to bound the time.
        let mut small = p.clone();
        if why.starts_with("ptx-sim in-process: MISMATCH") && k < 5 {
            small.source = shrink::shrink(
                &p.source,
                |src| {
                    let mut q = p.clone();
                    q.source = src.to_string();
                    in_process::verdict(&q).starts_with("MISMATCH")
                },
                4000,
            );
            eprintln!("shrunk to:\n{}", small.source);
        }
        let _ = std::fs::write(
            fail_dir.join(format!("{name}.rs")),
            regression_test(&small, why, seed),
        );
    }
    eprintln!(
        "{} of the programs fail only on one side, in work the other side skips (accepted: the executors agree)",
        lazy.len()
    );
    eprintln!("{} programs, {} mismatches", all.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} random programs failed (see above)",
        failures.len(),
        all.len()
    );
}

/// On random programs, horizontal fusion (and the vertical fusion it opens)
/// never adds a kernel, a read or a write: no buffer is read or written by
/// more kernels with it than without (`Plan::accesses`; the pass runs on the
/// finished plan, so both plans name their buffers alike).
#[test]
fn horizontal_fusion_never_adds_traffic() {
    let n: usize = env_or("ACCEL_FUZZ_PROGRAMS", 200).max(1000);
    let mut rng = gen::Rng::new(env_or("ACCEL_FUZZ_SEED", 1));
    let off = accel_core::Options {
        clustering: accel_core::plan::horizontal::Clustering::Off,
        ..accel_core::Options::default()
    };
    let (mut compiled, mut fewer) = (0, 0);
    for i in 0..n {
        let p = gen::program(&mut rng, &format!("rp{i}"));
        let Ok((_, with)) = accel_core::compile_source(&p.source, &p.name) else {
            continue;
        };
        let (_, without) =
            accel_core::compile_source_with(&p.source, &p.name, off).expect("compiles without");
        let (a, b) = (with.accesses(), without.accesses());
        let at_most = |x: &std::collections::BTreeMap<_, usize>, y: &std::collections::BTreeMap<_, usize>| {
            x.iter().all(|(k, n)| *n <= y.get(k).copied().unwrap_or(0))
        };
        assert!(
            a.kernels <= b.kernels && at_most(&a.reads, &b.reads) && at_most(&a.writes, &b.writes),
            "{}: more traffic with horizontal fusion\n{}\nwith:\n{}\nwithout:\n{}",
            p.name,
            p.source,
            with.explain(),
            without.explain()
        );
        compiled += 1;
        fewer += usize::from(a.kernels < b.kernels);
    }
    eprintln!("{compiled} random programs compile; horizontal fusion removes kernels from {fewer}");
    assert!(compiled > n / 2, "only {compiled} of {n} random programs compile");
}

/// On random programs, the optimal clustering never costs more than the
/// greedy one in the cost model (bytes moved, a small term per kernel), the
/// solver's answer is never worse once applied, and the same program gives
/// the same plan every time.
#[test]
fn optimal_clustering_never_costs_more_than_greedy() {
    use accel_core::plan::horizontal::{ilp, Clustering};
    let n: usize = env_or("ACCEL_FUZZ_PROGRAMS", 200).max(1000);
    let mut rng = gen::Rng::new(env_or("ACCEL_FUZZ_SEED", 2));
    let with = |c| accel_core::Options {
        clustering: c,
        ..accel_core::Options::default()
    };
    let (mut compiled, mut better, mut solves) = (0, 0, Vec::new());
    for i in 0..n {
        let p = gen::program(&mut rng, &format!("rp{i}"));
        let Ok((_, optimal)) = accel_core::compile_source_with(&p.source, &p.name, with(Clustering::Optimal))
        else {
            continue;
        };
        let (_, greedy) = accel_core::compile_source_with(&p.source, &p.name, with(Clustering::Greedy))
            .expect("compiles greedily");
        let (o, g) = (
            ilp::cost(&optimal, &optimal.steps),
            ilp::cost(&greedy, &greedy.steps),
        );
        assert!(
            o <= g,
            "{}: the optimal clustering costs {o}, the greedy one {g}\n{}\noptimal:\n{}\ngreedy:\n{}",
            p.name,
            p.source,
            optimal.explain(),
            greedy.explain()
        );
        assert!(
            optimal
                .fusion
                .solves
                .iter()
                .all(|s| s.status != ilp::Status::Worse),
            "{}: the solver's clustering was worse once applied\n{}\n{}",
            p.name,
            p.source,
            optimal.explain()
        );
        let (_, again) =
            accel_core::compile_source_with(&p.source, &p.name, with(Clustering::Optimal)).unwrap();
        assert_eq!(
            optimal.explain(),
            again.explain(),
            "{}: two plans for one program",
            p.name
        );
        compiled += 1;
        better += usize::from(o < g);
        solves.extend(optimal.fusion.solves.iter().map(|s| s.seconds));
    }
    solves.sort_by(f64::total_cmp);
    eprintln!(
        "{compiled} random programs compile; the optimal clustering is cheaper than the greedy one in {better}; \
         {} solves, median {:.2} ms, slowest {:.2} ms",
        solves.len(),
        solves.get(solves.len() / 2).map_or(0.0, |s| s * 1e3),
        solves.last().map_or(0.0, |s| s * 1e3)
    );
    assert!(compiled > n / 2, "only {compiled} of {n} random programs compile");
}
