//! The parameter sizes of a PTX kernel, read from its `.entry` declaration.
//!
//! `cuLaunchKernel` reads each parameter's value through a pointer, as many
//! bytes as the kernel declares: an argument of the wrong size would make the
//! driver read past it. The driver API of our pinned CUDA level cannot list a
//! kernel's parameters, but the PTX text declares them, so `launch` checks its
//! arguments against this list first.

/// The byte size of each parameter of kernel `kernel`, in order; `None` when
/// the text has no `.entry` of that name or its parameter list cannot be read.
pub(crate) fn entry_param_sizes(ptx: &str, kernel: &str) -> Option<Vec<usize>> {
    let text = strip_comments(ptx);
    let mut rest = text.as_str();
    while let Some(at) = rest.find(".entry") {
        let after = &rest[at + ".entry".len()..];
        rest = after;
        if !after.starts_with(char::is_whitespace) {
            continue;
        }
        let after = after.trim_start();
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(after.len());
        if &after[..name_len] != kernel {
            continue;
        }
        let after = after[name_len..].trim_start();
        let Some(list) = after.strip_prefix('(') else {
            // `.entry k` followed by the body or a directive: no parameters.
            return Some(Vec::new());
        };
        let list = &list[..list.find(')')?];
        return list
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(param_size)
            .collect();
    }
    None
}

/// The size of one `.param [.align N] [.ptr ...] .type name[N]` declaration.
fn param_size(decl: &str) -> Option<usize> {
    let mut words = decl.split_whitespace();
    if words.next()? != ".param" {
        return None;
    }
    let mut elem = None;
    let mut name = None;
    let mut skip_next = false;
    for w in words {
        if skip_next {
            skip_next = false;
        } else if w == ".align" {
            skip_next = true;
        } else if let Some(ty) = w.strip_prefix('.') {
            if elem.is_none() {
                elem = type_size(ty);
            }
        } else {
            name = Some(w);
        }
    }
    let elem = elem?;
    let count = match name?.split_once('[') {
        None => 1,
        Some((_, n)) => n.strip_suffix(']')?.trim().parse::<usize>().ok()?,
    };
    Some(elem * count)
}

fn type_size(ty: &str) -> Option<usize> {
    Some(match ty {
        "u8" | "s8" | "b8" => 1,
        "u16" | "s16" | "b16" | "f16" => 2,
        "u32" | "s32" | "b32" | "f32" => 4,
        "u64" | "s64" | "b64" | "f64" => 8,
        _ => return None,
    })
}

/// The text with `//` and `/* */` comments replaced by a space.
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('/') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if tail.starts_with("//") {
            out.push(' ');
            rest = tail.find('\n').map_or("", |e| &tail[e..]);
        } else if let Some(body) = tail.strip_prefix("/*") {
            out.push(' ');
            rest = body.find("*/").map_or("", |e| &body[e + 2..]);
        } else {
            out.push('/');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64
// .entry commented(.param .u32 x)
.visible .entry add_one(
    .param .u64 add_one_param_0, /* the array */
    .param .u32 add_one_param_1
)
{
    ret;
}
.visible .entry add_one_more(.param .align 8 .b8 pair[16], .param .f32 a, .param .u8 b, .param .s16 c)
{ ret; }
.visible .entry nothing()
{ ret; }
.entry bare
{ ret; }
"#;

    #[test]
    fn sizes_of_declared_params() {
        assert_eq!(entry_param_sizes(PTX, "add_one"), Some(vec![8, 4]));
        assert_eq!(entry_param_sizes(PTX, "add_one_more"), Some(vec![16, 4, 1, 2]));
        assert_eq!(entry_param_sizes(PTX, "nothing"), Some(vec![]));
        assert_eq!(entry_param_sizes(PTX, "bare"), Some(vec![]));
        assert_eq!(entry_param_sizes(PTX, "commented"), None);
        assert_eq!(entry_param_sizes(PTX, "add"), None);
        assert_eq!(entry_param_sizes(".entry k(.param .v4 x)", "k"), None);
    }
}
