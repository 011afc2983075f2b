//! The guide (`docs/language.md`) against the compiler:
//!
//! * every `#[acc]` function, module and impl block and `accel! { .. }` block in its Rust code blocks
//!   compiles, so an example cannot drift from the language (blocks of host
//!   code alone, `let r = dotp(&xs, &ys)?;`, have no program to check);
//! * its operation tables (`| operation | signature | kind |`, from which
//!   rustdoc's `accel::operations` is generated; both read them with
//!   `tools/guide_tables.rs`) name exactly the operations the front end
//!   accepts.

#[path = "../../../tools/guide_tables.rs"]
#[allow(dead_code)] // the kinds are rustdoc's only
mod guide_tables;

use accel_core::front::{program_items, ARRAY_METHODS, FREE_FUNCTIONS, LIBRARY_METHODS};

fn guide() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/language.md");
    std::fs::read_to_string(path).expect("docs/language.md")
}

/// The ```rust blocks of `text`, with the line each starts on.
fn rust_blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start()) {
            (None, l) if l.starts_with("```rust") => open = Some((n + 1, String::new())),
            (Some(_), l) if l.starts_with("```") => out.extend(open.take()),
            (Some((_, b)), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

/// The programs of a block: each `#[acc]` function alone, each `accel!`
/// block's, each `#[acc]` module's and each `#[acc]` impl block's items
/// together.
fn programs(file: syn::File) -> Vec<Vec<syn::Item>> {
    let mut out = Vec::new();
    for item in file.items {
        match item {
            syn::Item::Fn(f) if f.attrs.iter().any(|a| a.path().is_ident("acc")) => {
                out.push(vec![syn::Item::Fn(f)]);
            }
            syn::Item::Mod(m) if m.attrs.iter().any(|a| a.path().is_ident("acc")) => {
                let items = m.content.map(|(_, items)| items).unwrap_or_default();
                out.push(
                    items
                        .into_iter()
                        .filter(|i| !matches!(i, syn::Item::Use(_)))
                        .collect(),
                );
            }
            syn::Item::Impl(imp) if imp.attrs.iter().any(|a| a.path().is_ident("acc")) => {
                let program = accel_core::front::impl_program(&imp)
                    .expect("an #[acc] impl block of the guide is valid");
                out.push(program.items);
            }
            syn::Item::Macro(m) if m.mac.path.is_ident("accel") => {
                let inner: syn::File = m.mac.parse_body().expect("an accel! block parses");
                out.push(inner.items);
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_program_in_the_guide_compiles() {
    let (mut checked, mut failures) = (0, Vec::new());
    for (line, block) in rust_blocks(&guide()) {
        let has_program = block.contains("#[acc]") || block.contains("accel!");
        let file: syn::File = match syn::parse_str(&block) {
            Ok(f) => f,
            Err(e) if has_program => {
                failures.push(format!("docs/language.md:{line}: the block does not parse: {e}"));
                continue;
            }
            Err(_) => continue,
        };
        for items in programs(file) {
            let items = program_items(items);
            if let Some(e) = items.errors.first() {
                failures.push(format!("docs/language.md:{line}: {e}"));
                continue;
            }
            for (i, f) in items.fns.iter().enumerate() {
                checked += 1;
                if let Err(e) = accel_core::compile(&items.fns, i) {
                    failures.push(format!(
                        "docs/language.md:{line}: `{}`: {}",
                        f.sig.ident, e.message
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the guide's programs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{checked} programs of the guide compiled");
    assert!(checked >= 50, "only {checked} programs found in the guide");
}

/// The operations of the guide's tables, each with whether it is written as
/// a function (`generate(..)`) rather than a method (`xs.map(..)`).
fn table_operations(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for row in guide_tables::rows(text) {
        for name in row.names {
            let free = row.signature.starts_with(&format!("`{name}("));
            out.push((name.to_string(), free));
        }
    }
    out
}

fn names(list: &str) -> Vec<String> {
    list.split(',').map(|s| s.trim().to_string()).collect()
}

#[test]
fn the_operation_tables_list_what_the_compiler_accepts() {
    let ops = table_operations(&guide());
    let documented: Vec<&str> = ops.iter().map(|(n, _)| n.as_str()).collect();
    // Every operation the front end names is in a table.
    let known: Vec<String> = [ARRAY_METHODS, LIBRARY_METHODS, FREE_FUNCTIONS]
        .iter()
        .flat_map(|l| names(l))
        .collect();
    let missing: Vec<&String> = known
        .iter()
        .filter(|n| !documented.contains(&n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "operations missing from the guide's tables: {missing:?}"
    );
    // Every operation in a table is one the front end knows by that name:
    // called with no arguments, the error is about its arguments, never that
    // there is no such operation.
    for (name, free) in &ops {
        assert!(
            known.contains(name),
            "`{name}` is in the guide's tables but not in the front end's lists"
        );
        let call = if *free {
            format!("{name}()")
        } else {
            format!("xs.{name}()")
        };
        let source = format!("fn f(xs: &Vector<i32>) -> Vector<i32> {{ {call} }}");
        if let Err(e) = accel_core::compile_source(&source, "f") {
            let m = e.message;
            assert!(
                !m.contains("no array operation") && !m.contains("cannot find function"),
                "`{call}`: {m}"
            );
        }
    }
}
