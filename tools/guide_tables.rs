//! The operation tables of `docs/language.md` (rows of tables whose header
//! is `| operation | signature | kind |`), read by the crate's build script
//! (rustdoc's `accel::operations`) and by `accel-core/tests/guide.rs` (which
//! checks them against the front end), so both read them the same way.

/// One row: the operations it names (backticked in its first cell), its
/// signature and its kind, as written.
pub struct Row<'a> {
    pub names: Vec<&'a str>,
    pub signature: &'a str,
    pub kind: &'a str,
}

/// Every row of every operation table of `text`, in order.
pub fn rows(text: &str) -> Vec<Row<'_>> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split(" | ")
            .map(str::trim)
            .collect();
        if cells == ["operation", "signature", "kind"] {
            in_table = true;
            continue;
        }
        in_table &= line.starts_with('|');
        if !in_table || cells.len() != 3 || cells[0].starts_with("---") {
            continue;
        }
        out.push(Row {
            names: backticked(cells[0]),
            signature: cells[1],
            kind: cells[2],
        });
    }
    out
}

/// The backticked words of `s`.
pub fn backticked(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}
