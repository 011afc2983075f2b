//! The clustering of every accel program in the repository
//! (`cargo bench --bench clustering`): each `#[acc]` function and each
//! function of an `accel! { .. }` block under `examples/` and `benches/`
//! (the corpus included), compiled three ways, with no clustering, greedy
//! clustering and the optimal (ILP) clustering. Prints a markdown table:
//! kernels and the cost model's bytes per way, the solver's status and its
//! time, and the median and slowest solve per function.
//!
//! It times the compiler, not the programs: the solve times are the ILP's
//! alone (`Report::solves`), which runs inside the procedural macro.

use accel_core::plan::horizontal::{ilp, Clustering};
use accel_core::Options;
use proc_macro2::{TokenStream, TokenTree};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The accel functions of one file, grouped as they are compiled together.
#[derive(Default)]
struct Programs {
    groups: Vec<Vec<syn::ItemFn>>,
}

impl<'ast> Visit<'ast> for Programs {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if f.attrs.iter().any(|a| a.path().is_ident("acc")) {
            let mut f = f.clone();
            f.attrs.clear();
            self.groups.push(vec![f]);
        }
        syn::visit::visit_item_fn(self, f);
    }

    // `accel! { .. }` blocks, also inside `macro_rules!` bodies (whose
    // `$($settings)*` is left out).
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if m.path.segments.last().is_some_and(|s| s.ident == "accel") {
            self.block(m.tokens.clone());
        } else {
            self.blocks(m.tokens.clone());
        }
    }
}

impl Programs {
    /// The functions of one `accel!` block.
    fn block(&mut self, body: TokenStream) {
        if let Ok(file) = syn::parse2::<syn::File>(without_repetitions(body)) {
            // Its functions, with the block's constants and aliases substituted.
            let mut fns = accel_core::front::program_items(file.items).fns;
            for f in &mut fns {
                f.attrs.clear();
            }
            self.groups.push(fns);
        }
    }

    fn blocks(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        for (k, t) in tokens.iter().enumerate() {
            if let TokenTree::Group(g) = t {
                let after_bang = k >= 2
                    && matches!(&tokens[k - 1], TokenTree::Punct(p) if p.as_char() == '!')
                    && matches!(&tokens[k - 2], TokenTree::Ident(i) if i == "accel");
                if after_bang {
                    self.block(g.stream());
                } else {
                    self.blocks(g.stream());
                }
            }
        }
    }
}

/// `tokens` without `$( .. )*` and `$name` (a macro's parameters).
fn without_repetitions(tokens: TokenStream) -> TokenStream {
    let mut out = Vec::new();
    let mut it = tokens.into_iter().peekable();
    while let Some(t) = it.next() {
        match &t {
            TokenTree::Punct(p) if p.as_char() == '$' => {
                if let Some(TokenTree::Group(_)) = it.next() {
                    if matches!(it.peek(), Some(TokenTree::Punct(p)) if p.as_char() == '*' || p.as_char() == '+')
                    {
                        it.next();
                    }
                }
            }
            TokenTree::Group(g) => {
                let mut n = proc_macro2::Group::new(g.delimiter(), without_repetitions(g.stream()));
                n.set_span(g.span());
                out.push(TokenTree::Group(n));
            }
            _ => out.push(t),
        }
    }
    out.into_iter().collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

struct Row {
    name: String,
    kernels: [usize; 3],
    cost: [f64; 3],
    status: String,
    ms: Option<f64>,
    /// The whole clustering pass, optimal and greedy.
    pass_ms: [f64; 2],
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("examples"), &mut files);
    rust_files(&root.join("benches"), &mut files);
    let mut rows = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let Ok(ast) = syn::parse_file(&text) else { continue };
        let mut progs = Programs::default();
        progs.visit_file(&ast);
        let rel = file.strip_prefix(root).unwrap_or(file).display().to_string();
        for group in &progs.groups {
            for (which, f) in group.iter().enumerate() {
                let plans: Vec<_> = [Clustering::Off, Clustering::Greedy, Clustering::Optimal]
                    .into_iter()
                    .map(|clustering| {
                        let opts = Options {
                            clustering,
                            ..Options::default()
                        };
                        accel_core::compile_with(group, which, opts).ok().map(|(_, p)| p)
                    })
                    .collect();
                let [Some(off), Some(greedy), Some(optimal)] = &plans[..] else {
                    continue;
                };
                let all = [off, greedy, optimal];
                let solves = &optimal.fusion.solves;
                rows.push(Row {
                    name: format!("{rel}: {}", f.sig.ident),
                    kernels: all.map(|p| p.kernels().count()),
                    cost: all.map(|p| ilp::cost(p, &p.steps)),
                    status: optimal.fusion.describe(),
                    ms: (!solves.is_empty()).then(|| solves.iter().map(|s| s.seconds).sum::<f64>() * 1e3),
                    pass_ms: [optimal.fusion.seconds * 1e3, greedy.fusion.seconds * 1e3],
                });
            }
        }
    }
    println!("| program | kernels none / greedy / optimal | cost greedy / optimal (model bytes) | clustering | solve ms | pass ms optimal / greedy |");
    println!("|---|---|---|---|---|---|");
    for r in &rows {
        println!(
            "| {} | {} / {} / {} | {:.0} / {:.0}{} | {} | {} | {:.2} / {:.2} |",
            r.name,
            r.kernels[0],
            r.kernels[1],
            r.kernels[2],
            r.cost[1],
            r.cost[2],
            if r.cost[2] < r.cost[1] { " (less)" } else { "" },
            r.status,
            r.ms.map_or("-".into(), |ms| format!("{ms:.2}")),
            r.pass_ms[0],
            r.pass_ms[1]
        );
    }
    let mut solved: Vec<f64> = rows.iter().filter_map(|r| r.ms).collect();
    solved.sort_by(f64::total_cmp);
    let mut passes: Vec<f64> = rows.iter().map(|r| r.pass_ms[0]).collect();
    passes.sort_by(f64::total_cmp);
    let cheaper = rows.iter().filter(|r| r.cost[2] < r.cost[1]).count();
    let fewer = rows.iter().filter(|r| r.kernels[2] < r.kernels[1]).count();
    println!();
    println!(
        "{} functions; the ILP ran for {} (the others had nothing to choose): median {:.2} ms, slowest {:.2} ms. \
         The whole clustering pass (optimal): median {:.2} ms, slowest {:.2} ms. \
         Optimal cheaper than greedy in {cheaper}, fewer kernels in {fewer}.",
        rows.len(),
        solved.len(),
        solved.get(solved.len() / 2).copied().unwrap_or(0.0),
        solved.last().copied().unwrap_or(0.0),
        passes.get(passes.len() / 2).copied().unwrap_or(0.0),
        passes.last().copied().unwrap_or(0.0)
    );
}
