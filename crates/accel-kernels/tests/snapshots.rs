//! Snapshots of what the compiler makes of every program in
//! `examples/programs/`: the kernel plan, the CPU code, the PTX module and
//! the GPU host code, in `tests/snapshots/`. A change to any of them shows
//! as a diff in review. After a change meant to alter them:
//! `ACCEL_BLESS=1 cargo test -p accel-kernels --test snapshots`, then read
//! the diff before committing it.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::quote;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The functions inside `accel::accel! { $($settings)* .. }` in `file`, as
/// source text (the settings left out: the snapshots use the defaults).
fn programs(file: &Path) -> Vec<String> {
    fn walk(ts: TokenStream, out: &mut Vec<String>) {
        let tokens: Vec<TokenTree> = ts.into_iter().collect();
        for (i, t) in tokens.iter().enumerate() {
            let TokenTree::Group(g) = t else { continue };
            let after_accel_bang = i >= 2
                && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
                && matches!(&tokens[i - 2], TokenTree::Ident(id) if id == "accel");
            if after_accel_bang && g.delimiter() == Delimiter::Brace {
                // Skip `$ ( $settings : tt ) *`.
                let body: Vec<TokenTree> = g.stream().into_iter().collect();
                let start = match body.first() {
                    Some(TokenTree::Punct(p)) if p.as_char() == '$' => 3,
                    _ => 0,
                };
                out.push(
                    body[start.min(body.len())..]
                        .iter()
                        .cloned()
                        .collect::<TokenStream>()
                        .to_string(),
                );
            } else {
                walk(g.stream(), out);
            }
        }
    }
    let text = std::fs::read_to_string(file).expect("read the program");
    let mut out = Vec::new();
    walk(text.parse().expect("tokens"), &mut out);
    out
}

/// Generated Rust code, formatted.
fn pretty(body: TokenStream) -> String {
    let file = quote!(fn program() { #body });
    match syn::parse2::<syn::File>(file) {
        Ok(f) => prettyplease::unparse(&f),
        Err(e) => format!("(not Rust: {e})\n{body}\n"),
    }
}

/// Every snapshot, by file name.
fn snapshots() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("examples/programs")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let mut out = BTreeMap::new();
    for file in files {
        let stem = file.file_stem().unwrap_or_default().to_string_lossy().to_string();
        for source in programs(&file) {
            let fns = accel_core::front::parse_source(&source).expect("the program parses");
            for f in &fns {
                let name = f.sig.ident.to_string();
                let (_, plan) = accel_core::compile_source(&source, &name)
                    .unwrap_or_else(|e| panic!("{stem}::{name}: {}", e.message));
                let rt = quote!(rt);
                let ptx = accel_kernels::ptx::program(&plan);
                let key = format!("{stem}.{name}");
                out.insert(format!("{key}.plan"), format!("{plan}\n{}", plan.explain()));
                out.insert(
                    format!("{key}.cpu.rs"),
                    pretty(accel_kernels::cpu::program_body(&plan, &rt)),
                );
                out.insert(
                    format!("{key}.gpu.rs"),
                    pretty(accel_kernels::gpu::program_body(&plan, &ptx, &rt)),
                );
                out.insert(format!("{key}.ptx"), ptx.text.clone());
            }
        }
    }
    out
}

#[test]
fn generated_code_matches_the_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let now = snapshots();
    assert!(now.len() >= 4 * 12, "{} snapshots: programs not found", now.len());
    if std::env::var_os("ACCEL_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create tests/snapshots");
        for (name, text) in &now {
            std::fs::write(dir.join(name), text).expect("write a snapshot");
        }
        eprintln!("wrote {} snapshots to {}", now.len(), dir.display());
        return;
    }
    let mut problems = Vec::new();
    let stored: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().to_string()))
                .collect()
        })
        .unwrap_or_default();
    for name in stored.iter().filter(|n| !now.contains_key(*n)) {
        problems.push(format!("{name}: no longer generated"));
    }
    for (name, text) in &now {
        match std::fs::read_to_string(dir.join(name)) {
            Err(_) => problems.push(format!("{name}: no snapshot")),
            Ok(old) if old != *text => {
                let line = old.lines().zip(text.lines()).position(|(a, b)| a != b);
                let line = line.unwrap_or(old.lines().count().min(text.lines().count()));
                problems.push(format!("{name}: differs from line {}", line + 1));
            }
            Ok(_) => {}
        }
    }
    assert!(
        problems.is_empty(),
        "generated code changed ({} files); if meant, rerun with ACCEL_BLESS=1 and review the diff:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
