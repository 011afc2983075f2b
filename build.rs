//! Generates `accel::operations` (rustdoc only): one page per array operation,
//! made from the operation tables of `docs/language.md` and the section that
//! describes each operation, so the two cannot drift. The front end's own list
//! of operations is checked against the same tables by a test
//! (`crates/accel-core/tests/guide.rs`); both read them with
//! `tools/guide_tables.rs`.

#[path = "tools/guide_tables.rs"]
mod guide_tables;

use std::fmt::Write;

fn main() {
    let guide = "docs/language.md";
    println!("cargo:rerun-if-changed={guide}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=tools/guide_tables.rs");
    // Missing only where the crate is built outside this repository: the
    // module is then empty.
    let text = std::fs::read_to_string(guide).unwrap_or_default();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("operations.rs"), operations(&text)).expect("OUT_DIR is writable");
}

/// One `pub mod name {}` per operation of the guide's tables, documented
/// with its signature, its kind (fusion class) and its section of the guide.
fn operations(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut seen = Vec::new();
    for row in guide_tables::rows(text) {
        for name in row.names {
            if seen.contains(&name) || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let mut doc = format!(
                "`{name}`: {}\n\n**Kind:** {}.\n\n",
                row.signature.replace("\\|", "|"),
                row.kind
            );
            if let Some(section) = section(&lines, name) {
                doc.push_str(&section);
            }
            let _ = writeln!(out, "#[doc = {doc:?}]\npub mod {name} {{}}\n");
            seen.push(name);
        }
    }
    out
}

/// The text under the first `###` heading that names `name` in backticks,
/// up to the next heading.
fn section(lines: &[&str], name: &str) -> Option<String> {
    let start = lines
        .iter()
        .position(|l| l.starts_with("### ") && guide_tables::backticked(l).contains(&name))?;
    let body: Vec<&str> = lines[start + 1..]
        .iter()
        .take_while(|l| !l.starts_with("## ") && !l.starts_with("### "))
        .copied()
        .collect();
    Some(format!(
        "# {}\n{}",
        lines[start].trim_start_matches("### "),
        body.join("\n")
    ))
}
