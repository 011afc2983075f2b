//! A front end that never breaks: mutated sources, compiled in-process.
//!
//! The corpus is the project's own programs: the functions of every `accel! { .. }`
//! block and every `#[acc]` function in `tests/*.rs`, `tests/ui/*.rs` and
//! `examples/**/*.rs`, and the string literals of the test files that hold whole
//! programs. Mutants are token-level edits of one corpus entry (a token deleted,
//! duplicated, swapped with its neighbour, replaced by a token from elsewhere in
//! the corpus or by an edge token such as `u64::MAX` or `-0.0`, a token inserted,
//! a delimited group deleted, duplicated or replaced by another). Every mutant is
//! handed to `accel_core::front::parse_source` and every function of it to
//! `accel_core::compile_with`, inside `catch_unwind`. Each must give either a
//! program, whose front-end program and kernel plan pass the validator (which
//! `compile_with` also runs after every pass, turning a failure into an
//! "internal compiler error"), and whose plan prints; or an error with a message
//! at a span inside the mutant's text. A panic, an internal error, an empty
//! message or an error at no source position fails the test (except syn's
//! syntax errors at the end of the input, which are at the call site: in a macro,
//! its invocation), as does a mutant that takes over a minute to compile.
//!
//! `ACCEL_FUZZ_MUTANTS` (default 20,000) sets the number of mutants,
//! `ACCEL_FUZZ_SEED` the seed (printed), `ACCEL_FUZZ_THREADS` the threads.

use accel_core::plan::horizontal::Clustering;
use accel_core::{front, valid, CompileError, Options};
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Regressions: mutants the fuzzer found, minimised. Each must compile or give
// a clean error (no panic, no internal error, a span inside the source).

/// What a regression source must give (with the default options).
enum Expect {
    /// A program.
    Ok,
    /// An error at a span whose source text is this.
    ErrorAt(&'static str),
}

/// Each source is compiled with several sets of options and must never fail
/// as the fuzzer checks; with the defaults its first function must give the
/// expected outcome.
const REGRESSIONS: &[(Expect, &str)] = &[
    // An ordinary program.
    (
        Expect::Ok,
        "fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
            xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
        }",
    ),
    // An empty statement `;` (syn: an empty verbatim expression) was "unsupported
    // Rust syntax" at no position; Rust accepts it, and so does accel now.
    (
        Expect::Ok,
        "fn f(xs: &Vector<f32>) -> Vector<f32> { let k = 3.0;; xs.map(|x| k * x); ; xs.map(|x| x + k) }",
    ),
    // An operator on arrays: "cannot apply `+` to a value of type `Vector<f32>`"
    // was at the left operand's IR node, which for an operation's result or a
    // variable has no source position. It is at the left operand's syntax now.
    (
        Expect::ErrorAt("xs.sort()"),
        "fn f(xs: &Vector<f32>) -> Vector<f32> { xs.sort() + xs.sort() }",
    ),
    (
        Expect::ErrorAt("a.all(|x| x > 2)"),
        "fn f(a: Matrix<i16>) -> Vector<bool> { a.all(|x| x > 2) & a.any(|x| x > 3) }",
    ),
    // The same through a compound assignment (`x += ..` on an array).
    (
        Expect::ErrorAt("x"),
        "fn f(xs: &Vector<i32>) -> Vector<i32> { let mut x = xs.map(|v| v); x += xs.map(|v| v); x }",
    ),
    // A `let` inside a branch or loop body that shadows a variable the
    // statement assigns: the branch's new values were looked up by name and
    // found the inner variable. `let z = 3;` (a literal binding) gave "loop state
    // `z` is not a variable" at no position; an inner `let mut z` silently became
    // the outer `z` (see `shadowing_inside_branches_and_loops`).
    (
        Expect::Ok,
        "fn f(x: i32) -> i32 { let mut z = 0; if x > 0 { let z = 3; } else { z = 5; } z }",
    ),
];

// ---------------------------------------------------------------------------
// A small deterministic generator (splitmix64 seeding, xorshift64*).

struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(z | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        (self.next() % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------
// The corpus.

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, recurse: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if recurse {
                rust_files(&p, recurse, out);
            }
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn strip_attrs(mut f: syn::ItemFn) -> syn::ItemFn {
    f.attrs.clear();
    f
}

fn fns_text(fns: &[syn::ItemFn]) -> String {
    fns.iter()
        .map(|f| quote::quote!(#f).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The functions of a token stream parsed as a file, when it is a valid
/// program's items (functions, with its constants and aliases substituted).
fn fns_of(tokens: TokenStream) -> Option<Vec<syn::ItemFn>> {
    let file: syn::File = syn::parse2(tokens).ok()?;
    let items = accel_core::front::program_items(file.items);
    let fns: Vec<syn::ItemFn> = items.fns.into_iter().map(strip_attrs).collect();
    (items.errors.is_empty() && !fns.is_empty()).then_some(fns)
}

/// `accel ! { .. }` anywhere in a token stream (inside other macros too).
fn scan_accel_blocks(tokens: TokenStream, out: &mut Vec<String>) {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    for (i, tt) in tts.iter().enumerate() {
        if let TokenTree::Group(g) = tt {
            let is_block = i >= 2
                && matches!(&tts[i - 2], TokenTree::Ident(id) if id == "accel")
                && matches!(&tts[i - 1], TokenTree::Punct(p) if p.as_char() == '!');
            if is_block {
                if let Some(fns) = fns_of(g.stream()) {
                    out.push(fns_text(&fns));
                }
            } else {
                scan_accel_blocks(g.stream(), out);
            }
        }
    }
}

struct Collect<'a> {
    out: &'a mut Vec<String>,
}

impl<'ast> syn::visit::Visit<'ast> for Collect<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if f.attrs.iter().any(|a| a.path().is_ident("acc")) {
            self.out.push(fns_text(&[strip_attrs(f.clone())]));
        }
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if m.path.segments.last().is_some_and(|s| s.ident == "accel") {
            if let Some(fns) = fns_of(m.tokens.clone()) {
                self.out.push(fns_text(&fns));
            }
        } else {
            scan_accel_blocks(m.tokens.clone(), self.out);
        }
    }
    fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
        // Programs held in string literals (`compile_source(SRC, ..)`).
        let v = s.value();
        if v.trim_start().starts_with("fn ") {
            if let Ok(ts) = v.parse::<TokenStream>() {
                if let Some(fns) = fns_of(ts) {
                    self.out.push(fns_text(&fns));
                }
            }
        }
    }
}

/// Every corpus entry as source text, deduplicated, in a fixed order.
fn corpus() -> Vec<String> {
    let root = workspace_root();
    let mut files = Vec::new();
    rust_files(&root.join("tests"), true, &mut files);
    rust_files(&root.join("examples"), true, &mut files);
    rust_files(&root.join("crates/accel-core/tests"), false, &mut files);
    let mut out = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Ok(file) = syn::parse_file(&text) else {
            // A UI test may hold a deliberate syntax error.
            continue;
        };
        syn::visit::Visit::visit_file(&mut Collect { out: &mut out }, &file);
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.clone()));
    out
}

// ---------------------------------------------------------------------------
// Mutation on a flattened token stream.

#[derive(Clone)]
enum Tok {
    Leaf(TokenTree),
    Open(Delimiter),
    Close,
}

fn flatten(ts: TokenStream, out: &mut Vec<Tok>) {
    for tt in ts {
        match tt {
            TokenTree::Group(g) => {
                out.push(Tok::Open(g.delimiter()));
                flatten(g.stream(), out);
                out.push(Tok::Close);
            }
            leaf => out.push(Tok::Leaf(leaf)),
        }
    }
}

fn rebuild(toks: &[Tok]) -> TokenStream {
    let mut stack: Vec<(Delimiter, Vec<TokenTree>)> = vec![(Delimiter::None, Vec::new())];
    for t in toks {
        match t {
            Tok::Leaf(l) => stack.last_mut().unwrap().1.push(l.clone()),
            Tok::Open(d) => stack.push((*d, Vec::new())),
            Tok::Close => {
                if stack.len() > 1 {
                    let (d, inner) = stack.pop().unwrap();
                    let g = Group::new(d, inner.into_iter().collect());
                    stack.last_mut().unwrap().1.push(TokenTree::Group(g));
                }
            }
        }
    }
    while stack.len() > 1 {
        let (d, inner) = stack.pop().unwrap();
        let g = Group::new(d, inner.into_iter().collect());
        stack.last_mut().unwrap().1.push(TokenTree::Group(g));
    }
    stack.pop().unwrap().1.into_iter().collect()
}

/// The index one past the `Close` matching the `Open` at `i`.
fn group_end(toks: &[Tok], i: usize) -> usize {
    let mut depth = 0usize;
    for (j, t) in toks.iter().enumerate().skip(i) {
        match t {
            Tok::Open(_) => depth += 1,
            Tok::Close => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            Tok::Leaf(_) => {}
        }
    }
    toks.len()
}

/// Tokens with edge values and keywords, inserted or put in place of a token.
const EDGE: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "u64::MAX",
    "i64::MIN",
    "i32::MAX",
    "i32::MIN",
    "u32::MAX",
    "u8::MAX",
    "usize::MAX",
    "1e308",
    "-1e308",
    "1e-320",
    "9e999",
    "-0.0",
    "0.0",
    "0.5",
    "f32::NAN",
    "f64::INFINITY",
    "f32::MAX",
    "f64::MIN_POSITIVE",
    "255u8",
    "256",
    "-129i8",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "0usize",
    "1.0f32",
    "2f64",
    "0x7fff_ffff",
    "0b1",
    "1_000_000",
    "'a'",
    "\"s\"",
    "b'x'",
    "true",
    "false",
    "usize",
    "isize",
    "u8",
    "i8",
    "u16",
    "i16",
    "u32",
    "i32",
    "u64",
    "i64",
    "u128",
    "i128",
    "f32",
    "f64",
    "bool",
    "char",
    "()",
    "[]",
    "[0; 0]",
    "(0,)",
    "..",
    "..=",
    "as",
    "_",
    "return",
    "loop",
    "break",
    "continue",
    "while",
    "for",
    "in",
    "match",
    "if",
    "else",
    "let",
    "mut",
    "&",
    "*",
    "!",
    "-",
    "%",
    "<<",
    ">>",
    "==",
    "=",
    "+=",
    "|",
    "||",
    "&&",
    ";",
    ",",
    ".",
    "::",
    "?",
    "=>",
    "->",
    "x",
    "xs",
    "i",
    "n",
    "Vector",
    "Scalar",
    "Array",
    "Matrix",
    "Array3",
];

/// Type names, replaced by one another.
const TYPES: &[&str] = &[
    "bool", "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "usize", "isize", "f32", "f64", "u128",
    "char", "Vector", "Matrix", "Array3", "Scalar", "Array",
];

struct Mutator {
    /// Each corpus entry, flattened.
    units: Vec<Vec<Tok>>,
    /// Every leaf of the corpus, and by kind.
    leaves: Vec<TokenTree>,
    idents: Vec<TokenTree>,
    /// Identifiers after a `.` (methods, fields), and the type names.
    methods: Vec<TokenTree>,
    types: Vec<TokenTree>,
    /// The corpus's literals and the edge literals.
    literals: Vec<TokenTree>,
    puncts: Vec<TokenTree>,
    /// Every group of the corpus, flattened (with its delimiters).
    groups: Vec<Vec<Tok>>,
    edges: Vec<Vec<Tok>>,
}

impl Mutator {
    fn new(corpus: &[String]) -> Mutator {
        let mut units = Vec::new();
        let mut leaves = Vec::new();
        let mut groups = Vec::new();
        for src in corpus {
            let ts: TokenStream = src.parse().expect("corpus entry tokenizes");
            let mut toks = Vec::new();
            flatten(ts, &mut toks);
            for (i, t) in toks.iter().enumerate() {
                match t {
                    Tok::Leaf(l) => leaves.push(l.clone()),
                    Tok::Open(_) => {
                        let end = group_end(&toks, i);
                        if end - i <= 40 {
                            groups.push(toks[i..end].to_vec());
                        }
                    }
                    Tok::Close => {}
                }
            }
            units.push(toks);
        }
        let edges = EDGE
            .iter()
            .map(|s| {
                let mut v = Vec::new();
                flatten(s.parse().unwrap(), &mut v);
                v
            })
            .collect();
        let kind = |f: fn(&TokenTree) -> bool| leaves.iter().filter(|t| f(t)).cloned().collect::<Vec<_>>();
        let idents = kind(|t| matches!(t, TokenTree::Ident(_)));
        let mut literals = kind(|t| matches!(t, TokenTree::Literal(_)));
        for e in EDGE {
            let ts: TokenStream = e.parse().unwrap();
            literals.extend(ts.into_iter().filter(|t| matches!(t, TokenTree::Literal(_))));
        }
        let mut methods = Vec::new();
        for u in &units {
            for w in u.windows(2) {
                if let [Tok::Leaf(TokenTree::Punct(p)), Tok::Leaf(id @ TokenTree::Ident(_))] = w {
                    if p.as_char() == '.' {
                        methods.push(id.clone());
                    }
                }
            }
        }
        let types = TYPES
            .iter()
            .map(|t| t.parse::<TokenStream>().unwrap().into_iter().next().unwrap())
            .collect();
        let puncts = kind(|t| matches!(t, TokenTree::Punct(_)));
        Mutator {
            units,
            idents,
            methods,
            types,
            literals,
            puncts,
            leaves,
            groups,
            edges,
        }
    }

    /// Mutant number `k` of the run with `seed`.
    fn mutant(&self, seed: u64, k: u64) -> String {
        let mut rng = Rng::new(seed ^ k.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let mut toks = self.units[rng.below(self.units.len())].clone();
        let edits = match rng.below(20) {
            0..=11 => 1,
            12..=16 => 2,
            _ => 3,
        };
        for _ in 0..edits {
            self.edit(&mut rng, &mut toks);
        }
        rebuild(&toks).to_string()
    }

    fn edit(&self, rng: &mut Rng, toks: &mut Vec<Tok>) {
        if toks.is_empty() {
            return;
        }
        let leaf_at = |rng: &mut Rng, toks: &[Tok]| -> Option<usize> {
            for _ in 0..8 {
                let i = rng.below(toks.len());
                if matches!(toks[i], Tok::Leaf(_)) {
                    return Some(i);
                }
            }
            None
        };
        let open_at = |rng: &mut Rng, toks: &[Tok]| -> Option<usize> {
            for _ in 0..16 {
                let i = rng.below(toks.len());
                if matches!(toks[i], Tok::Open(_)) {
                    return Some(i);
                }
            }
            None
        };
        match rng.below(11) {
            // Delete a token.
            0 | 1 => {
                if let Some(i) = leaf_at(rng, toks) {
                    toks.remove(i);
                }
            }
            // Duplicate a token.
            2 => {
                if let Some(i) = leaf_at(rng, toks) {
                    let t = toks[i].clone();
                    toks.insert(i, t);
                }
            }
            // Swap two adjacent tokens.
            3 => {
                if let Some(i) = leaf_at(rng, toks) {
                    if i + 1 < toks.len() && matches!(toks[i + 1], Tok::Leaf(_)) {
                        toks.swap(i, i + 1);
                    }
                }
            }
            // Replace a token by one from elsewhere in the corpus: mostly one
            // of the same kind (identifier, literal, punctuation).
            4 | 5 => {
                if let Some(i) = leaf_at(rng, toks) {
                    let Tok::Leaf(old) = &toks[i] else { unreachable!() };
                    let after_dot =
                        i > 0 && matches!(&toks[i - 1], Tok::Leaf(TokenTree::Punct(p)) if p.as_char() == '.');
                    let pool = match old {
                        _ if rng.below(4) == 0 => &self.leaves,
                        TokenTree::Ident(_) if after_dot => &self.methods,
                        TokenTree::Ident(id) if TYPES.contains(&id.to_string().as_str()) => &self.types,
                        TokenTree::Ident(_) => &self.idents,
                        TokenTree::Literal(_) => &self.literals,
                        _ => &self.puncts,
                    };
                    toks[i] = Tok::Leaf(pool[rng.below(pool.len())].clone());
                }
            }
            // Replace a token by an edge token.
            6 | 7 => {
                if let Some(i) = leaf_at(rng, toks) {
                    let e = &self.edges[rng.below(self.edges.len())];
                    toks.splice(i..i + 1, e.iter().cloned());
                }
            }
            // Insert a corpus or edge token.
            8 => {
                let i = rng.below(toks.len() + 1);
                if rng.below(2) == 0 {
                    toks.insert(i, Tok::Leaf(self.leaves[rng.below(self.leaves.len())].clone()));
                } else {
                    let e = &self.edges[rng.below(self.edges.len())];
                    toks.splice(i..i, e.iter().cloned());
                }
            }
            // Delete or duplicate a group.
            9 => {
                if let Some(i) = open_at(rng, toks) {
                    let end = group_end(toks, i);
                    if rng.below(2) == 0 {
                        toks.drain(i..end);
                    } else {
                        let g: Vec<Tok> = toks[i..end].to_vec();
                        toks.splice(end..end, g);
                    }
                }
            }
            // Replace a group by a corpus group, mostly one with the same
            // delimiters.
            _ => {
                if let Some(i) = open_at(rng, toks) {
                    let end = group_end(toks, i);
                    let Tok::Open(d) = toks[i] else { unreachable!() };
                    let mut g = &self.groups[rng.below(self.groups.len())];
                    for _ in 0..8 {
                        if matches!(g[0], Tok::Open(e) if e == d) {
                            break;
                        }
                        g = &self.groups[rng.below(self.groups.len())];
                    }
                    toks.splice(i..end, g.iter().cloned());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Checking one source.

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A panic hook that records panics on threads checking sources (to be reported
/// with the source) and leaves every other panic to the default hook.
fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(|q| q.get()) {
                LAST_PANIC.with(|l| *l.borrow_mut() = Some(info.to_string()));
            } else {
                prev(info);
            }
        }));
    });
}

#[derive(Default, Clone, Debug)]
struct Counts {
    tried: u64,
    parsed: u64,
    fns: u64,
    ok: u64,
    clean_errors: u64,
    syntax_errors: u64,
}

/// What went wrong with a source, and a key that groups the same bug.
#[derive(Debug)]
struct Failure {
    key: String,
    detail: String,
}

fn options(rng: u64) -> Options {
    // Mostly the defaults; otherwise each switch at random.
    if rng & 3 != 0 {
        return Options::default();
    }
    Options {
        fusion: rng & 0x10 != 0,
        sharing: rng & 0x20 != 0,
        maps_after_consumers: rng & 0x40 != 0,
        expand_fusion: rng & 0x80 != 0,
        clustering: match (rng >> 8) & 3 {
            0 => Clustering::Off,
            1 => Clustering::Greedy,
            _ => Clustering::Optimal,
        },
    }
}

/// The start of a message with the text in backquotes left out (to group
/// the errors of one kind).
fn normalized(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        out.push_str(if i % 2 == 0 { part } else { "_" });
    }
    out.chars().take(80).collect()
}

fn check_error(src: &str, e: &CompileError, what: &str) -> Result<(), Failure> {
    if e.message.trim().is_empty() {
        return Err(Failure {
            key: format!("empty message ({what})"),
            detail: String::new(),
        });
    }
    if e.message.to_lowercase().contains("internal") {
        let first = normalized(&e.message);
        return Err(Failure {
            key: format!("internal error: {first}"),
            detail: e.message.clone(),
        });
    }
    // The span must point into the source: not `Span::call_site()`. (Syntax
    // errors are syn's: at the end of the input they are at the call site, which
    // in a macro is the macro's invocation.)
    if what == "parse" {
        return Ok(());
    }
    let inside = e.span.source_text().is_some() && e.span.byte_range().end <= src.len();
    if !inside {
        let first = normalized(&e.message);
        return Err(Failure {
            key: format!("error at no source position ({what}): {first}"),
            detail: e.message.clone(),
        });
    }
    Ok(())
}

/// Parses and compiles `src` (every function of it), without catching panics.
fn check_inner(src: &str, opts: Options, counts: &mut Counts) -> Result<(), Failure> {
    let fns = match front::parse_source(src) {
        Ok(fns) => fns,
        Err(e) => {
            counts.syntax_errors += 1;
            return check_error(src, &e, "parse");
        }
    };
    counts.parsed += 1;
    for which in 0..fns.len() {
        counts.fns += 1;
        match accel_core::compile_with(&fns, which, opts) {
            Ok((program, plan)) => {
                if let Err(e) = valid::program(&program) {
                    return Err(Failure {
                        key: format!("invalid program: {e}"),
                        detail: String::new(),
                    });
                }
                if let Err(e) = valid::plan(&plan) {
                    return Err(Failure {
                        key: format!("invalid plan: {e}"),
                        detail: String::new(),
                    });
                }
                // What the macros print into the generated code.
                let _ = plan.to_string();
                let _ = plan.explain();
                let _ = plan.explain_dot();
                counts.ok += 1;
            }
            Err(e) => {
                check_error(src, &e, "compile")?;
                counts.clean_errors += 1;
            }
        }
    }
    Ok(())
}

/// Checks `src`, catching panics.
fn check(src: &str, opts: Options, counts: &mut Counts) -> Result<(), Failure> {
    install_hook();
    QUIET.with(|q| q.set(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_inner(src, opts, counts)));
    QUIET.with(|q| q.set(false));
    // Spans of this source are no longer needed: keep the span table small.
    proc_macro2::extra::invalidate_current_thread_spans();
    match r {
        Ok(r) => r,
        Err(_) => {
            let info = LAST_PANIC.with(|l| l.borrow_mut().take()).unwrap_or_default();
            let key = info.lines().next().unwrap_or("panic").to_string();
            Err(Failure { key, detail: info })
        }
    }
}

/// Removes tokens and groups from `src` while it fails with the same key.
fn minimize(src: &str, opts: Options, key: &str) -> String {
    let fails = |s: &str| {
        let mut c = Counts::default();
        matches!(check(s, opts, &mut c), Err(f) if f.key == key)
    };
    let mut toks = Vec::new();
    flatten(src.parse().unwrap(), &mut toks);
    let mut progress = true;
    while progress {
        progress = false;
        let mut i = 0;
        while i < toks.len() {
            let end = match toks[i] {
                Tok::Open(_) => group_end(&toks, i),
                Tok::Leaf(_) => i + 1,
                Tok::Close => {
                    i += 1;
                    continue;
                }
            };
            let mut cand = toks.clone();
            cand.drain(i..end);
            if fails(&rebuild(&cand).to_string()) {
                toks = cand;
                progress = true;
            } else {
                i += 1;
            }
        }
    }
    rebuild(&toks).to_string()
}

// ---------------------------------------------------------------------------
// The tests.

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim().replace('_', "");
    Some(if let Some(hex) = v.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).unwrap_or_else(|_| panic!("{name}={v}"))
    } else {
        v.parse().unwrap_or_else(|_| panic!("{name}={v}"))
    })
}

#[test]
fn regressions_compile_or_fail_cleanly() {
    let mut failures = Vec::new();
    for (expect, src) in REGRESSIONS {
        for bits in [None, Some(0x00), Some(0x10), Some(0x30), Some(0xF0)] {
            let opts = bits.map_or(Options::default(), |b| options(b & !3));
            let mut c = Counts::default();
            if let Err(f) = check(src, opts, &mut c) {
                failures.push(format!("{src}\n  {opts:?}\n  {}\n  {}", f.key, f.detail));
            }
        }
        let name = front::parse_source(src).expect("parses")[0].sig.ident.to_string();
        let got = accel_core::compile_source(src, &name);
        match (expect, &got) {
            (Expect::Ok, Ok(_)) => {}
            (Expect::ErrorAt(text), Err(e)) if e.span.source_text().as_deref() == Some(*text) => {}
            (Expect::Ok, Err(e)) => failures.push(format!("{src}\n  expected a program, got: {}", e.message)),
            (Expect::ErrorAt(text), Err(e)) => failures.push(format!(
                "{src}\n  expected an error at `{text}`, got one at {:?}: {}",
                e.span.source_text(),
                e.message
            )),
            (Expect::ErrorAt(text), Ok(_)) => {
                failures.push(format!("{src}\n  expected an error at `{text}`, got a program"))
            }
        }
        proc_macro2::extra::invalidate_current_thread_spans();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs function `f` of `src` on the interpreter with the `i32` argument `x`.
fn run_i32(src: &str, x: i32) -> i32 {
    use accel_types::dynamic::{Dyn, Value};
    match accel_core::interpret_source(src, "f", &[Dyn::Scalar(Value::I32(x))]) {
        Ok(Dyn::Scalar(Value::I32(v))) => v,
        Ok(Dyn::Array(a)) if a.shape.is_empty() => match a.elems[..] {
            [Value::I32(v)] => v,
            _ => panic!("{src}: {a:?}"),
        },
        other => panic!("{src}: {other:?}"),
    }
}

/// A `let` inside a branch, a match arm or a loop body is a new variable even
/// when it has the name of one that the statement assigns (a regression found
/// by fuzz_front; the expected values are Rust's).
#[test]
fn shadowing_inside_branches_and_loops() {
    fn rust(x: i32) -> [i32; 6] {
        #![allow(unused_assignments, unused_variables, unused_mut)]
        let a = {
            let mut z = 0;
            if x > 0 {
                let mut z = 3;
                z += 1;
            } else {
                z = 5;
            }
            z
        };
        let b = {
            let mut z = 0;
            if x > 0 {
                let z = x + 1;
            } else {
                z = 5;
            }
            z
        };
        let c = {
            let mut z = 1;
            let mut i = 0;
            while i < 3 {
                let mut z = 7;
                z += i;
                i += 1;
            }
            z + i
        };
        let d = {
            let mut z = 1;
            for i in 0..x {
                z *= 2;
                let mut z = 100;
                z += 1;
            }
            z
        };
        let e = {
            let mut z = 0;
            match x {
                1 => {
                    let mut z = 9;
                    z += 1;
                }
                _ => z = 4,
            }
            z
        };
        let f = {
            let mut z = 0;
            if x > 0 {
                z = 1;
                let z = 50;
            }
            z
        };
        [a, b, c, d, e, f]
    }
    let srcs = [
        "fn f(x: i32) -> i32 { let mut z = 0; if x > 0 { let mut z = 3; z += 1; } else { z = 5; } z }",
        "fn f(x: i32) -> i32 { let mut z = 0; if x > 0 { let z = x + 1; } else { z = 5; } z }",
        "fn f(x: i32) -> i32 { let mut z = 1; let mut i = 0; while i < 3 { let mut z = 7; z += i; i += 1; } z + i }",
        "fn f(x: i32) -> i32 { let mut z = 1; for i in 0..x { z *= 2; let mut z = 100; z += 1; } z }",
        "fn f(x: i32) -> i32 { let mut z = 0; match x { 1 => { let mut z = 9; z += 1; } _ => z = 4, } z }",
        "fn f(x: i32) -> i32 { let mut z = 0; if x > 0 { z = 1; let z = 50; } z }",
    ];
    for x in [-1, 0, 1, 3] {
        let want = rust(x);
        for (src, want) in srcs.iter().zip(want) {
            assert_eq!(run_i32(src, x), want, "{src} at x = {x}");
        }
    }
}

#[test]
fn corpus_is_large_and_compiles() {
    let corpus = corpus();
    assert!(corpus.len() >= 200, "only {} corpus entries", corpus.len());
    // The unmutated programs themselves hold to the same rule.
    let mut counts = Counts::default();
    let mut failures = Vec::new();
    for src in &corpus {
        if let Err(f) = check(src, Options::default(), &mut counts) {
            failures.push(format!("{src}\n  {}\n  {}", f.key, f.detail));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(counts.ok > counts.fns / 2, "{counts:?}");
}

#[test]
fn mutants_compile_or_fail_cleanly() {
    let start = Instant::now();
    let n = env_u64("ACCEL_FUZZ_MUTANTS").unwrap_or(20_000);
    let seed = env_u64("ACCEL_FUZZ_SEED").unwrap_or(0x00AC_CE15);
    let threads = env_u64("ACCEL_FUZZ_THREADS")
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()).min(4))
        .max(1);
    let corpus = Arc::new(corpus());
    eprintln!(
        "fuzz_front: seed {seed:#x} (ACCEL_FUZZ_SEED), {n} mutants (ACCEL_FUZZ_MUTANTS), {} corpus entries, {threads} threads",
        corpus.len()
    );
    // What each thread is checking now and since when (for the watchdog).
    type Slot = Mutex<Option<(Instant, String)>>;
    let current: Arc<Vec<Slot>> = Arc::new((0..threads).map(|_| Mutex::new(None)).collect());
    type Found = BTreeMap<String, (String, Options, String)>;
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let corpus = Arc::clone(&corpus);
            let current = Arc::clone(&current);
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn(move || {
                    let m = Mutator::new(&corpus);
                    let mut counts = Counts::default();
                    let mut found: Found = BTreeMap::new();
                    let mut k = t as u64;
                    while k < n {
                        let src = m.mutant(seed, k);
                        let opts = options(Rng::new(seed ^ k).next());
                        *current[t].lock().unwrap() = Some((Instant::now(), src.clone()));
                        counts.tried += 1;
                        if let Err(f) = check(&src, opts, &mut counts) {
                            let e = found
                                .entry(f.key)
                                .or_insert_with(|| (src.clone(), opts, f.detail));
                            if src.len() < e.0.len() {
                                e.0 = src.clone();
                                e.1 = opts;
                            }
                        }
                        k += threads as u64;
                    }
                    *current[t].lock().unwrap() = None;
                    (counts, found)
                })
                .unwrap()
        })
        .collect();
    // Watchdog: a source that takes over a minute is a hang.
    while !handles.iter().all(|h| h.is_finished()) {
        std::thread::sleep(Duration::from_millis(50));
        for slot in current.iter() {
            if let Some((since, src)) = &*slot.lock().unwrap() {
                if since.elapsed() > Duration::from_secs(60) {
                    panic!("fuzz_front: compiling this mutant takes over a minute:\n{src}");
                }
            }
        }
    }
    let mut total = Counts::default();
    let mut found: Found = BTreeMap::new();
    for h in handles {
        let (c, f) = h.join().expect("fuzz thread");
        total.tried += c.tried;
        total.parsed += c.parsed;
        total.fns += c.fns;
        total.ok += c.ok;
        total.clean_errors += c.clean_errors;
        total.syntax_errors += c.syntax_errors;
        for (key, v) in f {
            let e = found.entry(key).or_insert_with(|| v.clone());
            if v.0.len() < e.0.len() {
                *e = v;
            }
        }
    }
    eprintln!(
        "fuzz_front: {} mutants tried, {} parsed as functions ({} syntax errors), {} functions compiled: {} ok, {} clean errors; {} failures; {:.1}s",
        total.tried,
        total.parsed,
        total.syntax_errors,
        total.fns,
        total.ok,
        total.clean_errors,
        found.len(),
        start.elapsed().as_secs_f64()
    );
    assert_eq!(total.tried, n);
    if !found.is_empty() {
        let mut report = String::new();
        for (key, (src, opts, detail)) in &found {
            let min = minimize(src, *opts, key);
            report.push_str(&format!(
                "\n=== {key}\n{detail}\n--- options {opts:?}\n--- mutant:\n{src}\n--- minimised:\n{min}\n"
            ));
        }
        panic!(
            "fuzz_front (seed {seed:#x}): {} distinct failures:{report}",
            found.len()
        );
    }
    // The mutants must reach the compiler, not only the parser, and both
    // outcomes must be common.
    assert!(total.parsed * 10 > total.tried, "{total:?}");
    assert!(
        total.ok * 10 > total.fns && total.clean_errors * 10 > total.fns,
        "{total:?}"
    );
}
