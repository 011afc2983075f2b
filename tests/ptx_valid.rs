//! PTX validity: every accel program in `examples/` and `tests/` (outside
//! `tests/ui/`) is compiled to its PTX module, and the module is assembled by
//! `ptxas` for sm_70, sm_80 and sm_90. Any error or warning fails the test,
//! naming the program.
//!
//! `ptxas` is looked up at `$ACCEL_PTXAS`, then on `PATH`, then at
//! `$HOME/.cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas` (where `.ci/run`
//! installs it). Without it the test says so and passes, unless
//! `ACCEL_REQUIRE_PTXAS=1` (set in CI), where a missing `ptxas` fails.
//! Programs whose GPU path is not supported yet are listed, not assembled.
//!
//! Nothing else is skipped: a source file that cannot be read or parsed, an
//! `accel!` block that does not parse, and a program that does not compile
//! (with the default options) fail the test. Not read: functions given to a
//! test's own macro that wraps them in `accel!` (`variants! { .. }` in
//! tests/fusion*.rs, tests/expand.rs), which are plain `fn`s in the source;
//! an `accel!` block whose body is `$` tokens is counted as such a template.

use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use syn::visit::Visit;

fn find_ptxas() -> Option<PathBuf> {
    // An explicit `$ACCEL_PTXAS` (CI sets it) comes first.
    if let Some(p) = std::env::var_os("ACCEL_PTXAS") {
        let p = PathBuf::from(p);
        if p.is_file() {
            return Some(p);
        }
        println!("note: ACCEL_PTXAS={} is not a file", p.display());
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("ptxas");
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let home = std::env::var_os("HOME")?;
    let p = Path::new(&home).join(".cache/accel/nvcc/nvidia/cuda_nvcc/bin/ptxas");
    p.is_file().then_some(p)
}

/// One program: where it was found, and the functions of its block.
struct Found {
    origin: String,
    fns: Vec<syn::ItemFn>,
}

struct Finder<'a> {
    file: &'a str,
    out: Vec<Found>,
    /// `accel!` blocks inside `macro_rules!` (their bodies are `$` tokens).
    templates: usize,
    /// What could not be read, parsed or compiled.
    broken: Vec<String>,
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if f.attrs.iter().any(|a| a.path().is_ident("acc")) {
            let mut g = f.clone();
            g.attrs.retain(|a| !a.path().is_ident("acc"));
            self.out.push(Found {
                origin: format!("{}: #[acc] fn {}", self.file, f.sig.ident),
                fns: vec![g],
            });
        }
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        match &m.content {
            // `#[acc] mod`: its items are one program, as an `accel!` block's.
            Some((_, items)) if m.attrs.iter().any(|a| a.path().is_ident("acc")) => {
                let items = items
                    .iter()
                    .filter(|i| !matches!(i, syn::Item::Use(_)))
                    .cloned()
                    .collect();
                let fns = accel_core::front::program_items(items).fns;
                self.out.push(Found {
                    origin: format!("{}: #[acc] mod {}", self.file, m.ident),
                    fns,
                });
            }
            _ => syn::visit::visit_item_mod(self, m),
        }
    }

    fn visit_item_impl(&mut self, imp: &'ast syn::ItemImpl) {
        if imp.attrs.iter().any(|a| a.path().is_ident("acc")) {
            // Its functions, as the macro compiles them (`Self::` paths resolved).
            match accel_core::front::impl_program(imp) {
                Ok(p) => {
                    let fns = accel_core::front::program_items(p.items).fns;
                    self.out.push(Found {
                        origin: format!("{}: #[acc] impl {}", self.file, p.ty),
                        fns,
                    });
                }
                Err(e) => self.broken.push(format!(
                    "{}: an #[acc] impl block the macro refuses: {e}",
                    self.file
                )),
            }
        }
        syn::visit::visit_item_impl(self, imp);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if m.path.segments.last().is_some_and(|s| s.ident == "accel") {
            match syn::parse2::<syn::File>(m.tokens.clone()) {
                Ok(file) => {
                    // Its functions, with the block's constants and aliases substituted.
                    let fns = accel_core::front::program_items(file.items).fns;
                    let names: Vec<String> = fns.iter().map(|f| f.sig.ident.to_string()).collect();
                    self.out.push(Found {
                        origin: format!("{}: accel! {{ {} }}", self.file, names.join(", ")),
                        fns,
                    });
                }
                // `accel! { $($body)* }` in a `macro_rules!`: a template.
                Err(_) if m.tokens.to_string().contains('$') => self.templates += 1,
                Err(e) => self.broken.push(format!(
                    "{}: an accel! block that does not parse ({e}): {}",
                    self.file,
                    m.tokens.to_string().chars().take(120).collect::<String>()
                )),
            }
        }
        syn::visit::visit_macro(self, m);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let rd =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read the folder {}: {e}", dir.display()));
    let mut entries: Vec<PathBuf> = rd
        .map(|e| {
            e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path()
        })
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "ui") {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_program_assembles_with_ptxas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ptxas = find_ptxas();
    let required = std::env::var("ACCEL_REQUIRE_PTXAS").is_ok_and(|v| v == "1");
    assert!(
        ptxas.is_some() || !required,
        "ptxas not found (PATH, $ACCEL_PTXAS, ~/.cache/accel/nvcc/...) and ACCEL_REQUIRE_PTXAS=1"
    );
    // Without ptxas, every program is still found, compiled and emitted as
    // PTX; only the assembly is skipped (and said so).
    let mut files = Vec::new();
    rust_files(&root.join("examples"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    let mut programs = Vec::new();
    // What was not assembled, and why: files and blocks that could not be
    // read, parsed or compiled fail the test.
    let (mut templates, mut broken) = (0usize, Vec::new());
    for f in &files {
        let rel = f.strip_prefix(root).unwrap_or(f).display().to_string();
        let src = match std::fs::read_to_string(f) {
            Ok(s) => s,
            Err(e) => {
                broken.push(format!("{rel}: cannot read it: {e}"));
                continue;
            }
        };
        let ast = match syn::parse_file(&src) {
            Ok(a) => a,
            Err(e) => {
                broken.push(format!("{rel}: does not parse: {e}"));
                continue;
            }
        };
        let mut finder = Finder {
            file: &rel,
            out: Vec::new(),
            templates: 0,
            broken: Vec::new(),
        };
        finder.visit_file(&ast);
        programs.extend(finder.out);
        templates += finder.templates;
        broken.extend(finder.broken);
    }
    let tmp = std::env::temp_dir().join(format!("accel_ptx_valid_{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temporary directory");
    let (mut modules, mut entries, mut unsupported) = (0, 0, Vec::new());
    let mut modules_to_check: Vec<(String, PathBuf)> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for p in &programs {
        for i in 0..p.fns.len() {
            let name = p.fns[i].sig.ident.to_string();
            // The plan of the GPU path, as the macros build it (the CPU's).
            // Programs that must not compile are in tests/ui (not read here):
            // every program found here compiles in its test, so a failure is
            // a bug (or a program this test read wrongly), not a skip.
            let plan = match accel_core::compile_with(&p.fns, i, accel_core::Options::default()) {
                Ok((_, plan)) => plan,
                Err(e) => {
                    broken.push(format!("{} / {name}: does not compile: {}", p.origin, e.message));
                    continue;
                }
            };
            let prog = accel_kernels::ptx::program(&plan);
            if let Some(why) = prog.unsupported {
                unsupported.push(format!("{} / {name}: {why}", p.origin));
                continue;
            }
            modules += 1;
            entries += prog.kernels.iter().map(|k| k.entries.len()).sum::<usize>();
            if ptxas.is_some() {
                let file = tmp.join(format!("m{modules}.ptx"));
                std::fs::write(&file, &prog.text).expect("write the module");
                modules_to_check.push((format!("{} / {name}", p.origin), file));
            }
        }
    }
    // Every (module, architecture) on its own `ptxas`, all cores busy.
    if let Some(ptxas) = &ptxas {
        let jobs: Vec<(&String, &PathBuf, &str)> = modules_to_check
            .iter()
            .flat_map(|(what, file)| ["sm_70", "sm_80", "sm_90"].map(|arch| (what, file, arch)))
            .collect();
        failures = jobs
            .par_iter()
            .enumerate()
            .filter_map(|(j, (what, file, arch))| {
                let out = Command::new(ptxas)
                    .arg(format!("-arch={arch}"))
                    .arg("-o")
                    .arg(tmp.join(format!("out{j}.cubin")))
                    .arg(file)
                    .output()
                    .expect("run ptxas");
                let msg = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                (!out.status.success() || !msg.trim().is_empty())
                    .then(|| format!("{what} ({arch}, {}):\n{msg}", file.display()))
            })
            .collect();
    }
    match &ptxas {
        Some(ptxas) => println!(
            "ptxas ({}): {modules} modules, {entries} entries assembled for sm_70, sm_80, sm_90",
            ptxas.display()
        ),
        None => println!(
            "skipped: ptxas not found on PATH, at $ACCEL_PTXAS or in ~/.cache/accel/nvcc: \
             {modules} modules ({entries} entries) emitted but not assembled"
        ),
    }
    println!(
        "{} programs not supported on the GPU path yet:",
        unsupported.len()
    );
    for u in &unsupported {
        println!("  {u}");
    }
    println!(
        "skipped: {} programs not supported on the GPU path, {templates} accel! templates, \
         {} files, blocks or programs that could not be read, parsed or compiled",
        unsupported.len(),
        broken.len()
    );
    assert!(modules > 0, "no accel program found");
    assert!(
        broken.is_empty(),
        "{} files, blocks or programs could not be read, parsed or compiled:\n{}",
        broken.len(),
        broken.join("\n")
    );
    assert!(
        failures.is_empty(),
        "{} modules rejected by ptxas:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
