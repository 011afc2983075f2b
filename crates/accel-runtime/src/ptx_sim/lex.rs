//! Tokens of PTX text.

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifiers, opcodes with their modifiers, directives, registers:
    /// anything made of letters, digits, `_ $ % .`.
    Ident(String),
    Int(u64),
    /// `0fXXXXXXXX`
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX`
    F64(u64),
    /// Decimal floating-point literal.
    Float(f64),
    Str(String),
    Punct(char),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'%' || c == b'.'
}

pub fn lex(src: &str) -> Result<Vec<Token>, String> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut line = 1u32;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
        } else if c == b'"' {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Str(src[start..i.min(b.len())].to_string()),
                line,
            });
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                // An exponent sign inside a decimal float: 1.5e-3.
                i += 1;
                if i < b.len()
                    && (b[i] == b'-' || b[i] == b'+')
                    && matches!(b[i - 1], b'e' | b'E')
                    && !src[start..i].starts_with("0x")
                    && !src[start..i].starts_with("0X")
                {
                    i += 1;
                }
            }
            let text = &src[start..i];
            out.push(Token {
                tok: number(text).ok_or_else(|| format!("line {line}: bad number `{text}`"))?,
                line,
            });
        } else if ident_char(c) {
            let start = i;
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(src[start..i].to_string()),
                line,
            });
        } else if b",;:{}[]()+-<>@!|=".contains(&c) {
            out.push(Token {
                tok: Tok::Punct(c as char),
                line,
            });
            i += 1;
        } else {
            return Err(format!("line {line}: unexpected character `{}`", c as char));
        }
    }
    Ok(out)
}

fn number(t: &str) -> Option<Tok> {
    let t = t.strip_suffix('U').unwrap_or(t);
    if let Some(h) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        if h.len() == 8 {
            return u32::from_str_radix(h, 16).ok().map(Tok::F32);
        }
        return None;
    }
    if let Some(h) = t.strip_prefix("0d").or_else(|| t.strip_prefix("0D")) {
        if h.len() == 16 {
            return u64::from_str_radix(h, 16).ok().map(Tok::F64);
        }
        return None;
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok().map(Tok::Int);
    }
    if let Some(h) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return u64::from_str_radix(h, 2).ok().map(Tok::Int);
    }
    if t.contains(['.', 'e', 'E']) {
        return t.parse::<f64>().ok().map(Tok::Float);
    }
    if t.len() > 1 && t.starts_with('0') {
        return u64::from_str_radix(&t[1..], 8).ok().map(Tok::Int);
    }
    t.parse::<u64>().ok().map(Tok::Int)
}
