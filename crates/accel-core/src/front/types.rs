//! Rust types in signatures and annotations → IR types.

use crate::error::{err, CResult};
use crate::ir::{Prim, Ty};
use syn::spanned::Spanned;

const SUPPORTED: &str = "supported types: bool, i8..i64, u8..u64, usize, f32, f64, f16, bf16, \
                         tuples of 2 to 5 of these, the program's structs that derive `accel::Elem`, \
                         Scalar<T>, Vector<T>, Matrix<T>, Array<T, R> of them, and Seq<A> of such arrays";

/// The IR type of a Rust type. `&T` is `T`: arrays are passed by reference.
pub fn lower_type(t: &syn::Type) -> CResult<Ty> {
    match t {
        syn::Type::Reference(r) => {
            if r.mutability.is_some() {
                return err(
                    r.span(),
                    "accel programs do not mutate their arguments: use `&` not `&mut`",
                );
            }
            lower_type(&r.elem)
        }
        syn::Type::Paren(p) => lower_type(&p.elem),
        syn::Type::Group(g) => lower_type(&g.elem),
        syn::Type::Tuple(tt) => {
            let ts = tt.elems.iter().map(lower_type).collect::<CResult<Vec<_>>>()?;
            Ok(Ty::Tuple(ts))
        }
        syn::Type::Array(a) => {
            // `[usize; R]`: an index or a shape.
            let elem = lower_type(&a.elem)?;
            if elem != Ty::Prim(Prim::Usize) {
                return err(a.elem.span(), "array types `[T; N]` must be indices `[usize; N]`");
            }
            let n = const_usize(&a.len)?;
            Ok(Ty::Index(n))
        }
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return err(t.span(), format!("unsupported type; {SUPPORTED}"));
            };
            let name = last.ident.to_string();
            if let Some(prim) = Prim::from_name(&name) {
                if p.path.segments.len() == 1 && last.arguments.is_empty() {
                    return Ok(Ty::Prim(prim));
                }
            }
            let args: Vec<&syn::GenericArgument> = match &last.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().collect(),
                _ => vec![],
            };
            if name == "Seq" {
                let inner = match args.as_slice() {
                    [syn::GenericArgument::Type(t)] => lower_type(t)?,
                    _ => return err(last.span(), "`Seq` takes 1 generic argument: `Seq<Vector<f32>>`"),
                };
                if !inner.is_array() {
                    return err(
                        last.span(),
                        format!(
                            "the elements of a sequence are arrays, found `{inner}`; a sequence of \
                             numbers is `Seq<Scalar<{inner}>>`"
                        ),
                    );
                }
                return Ok(Ty::seq(inner));
            }
            let fixed_rank = match name.as_str() {
                "Scalar" => Some(0),
                "Vector" => Some(1),
                "Matrix" => Some(2),
                "Array" => None,
                _ => {
                    // A name of the standard library is not an alias: no hint.
                    const STD: [&str; 7] = ["String", "Vec", "Box", "Option", "Result", "HashMap", "str"];
                    let hint = if STD.contains(&name.as_str()) {
                        ""
                    } else {
                        "\nhelp: accel sees only the program's own code: a type alias or a struct declared \
                         elsewhere is unknown here; write the type itself, or declare the alias (or the \
                         struct, with `#[derive(accel::Elem)]`) beside the function in an `#[acc] mod` or \
                         an `accel! { .. }` block"
                    };
                    return err(
                        last.ident.span(),
                        format!("unknown type `{name}`; {SUPPORTED}{hint}"),
                    );
                }
            };
            let want = if fixed_rank.is_some() { 1 } else { 2 };
            if args.len() != want {
                return err(
                    last.span(),
                    format!(
                        "`{name}` takes {want} generic argument{}",
                        if want == 1 { "" } else { "s" }
                    ),
                );
            }
            let elem = match args[0] {
                syn::GenericArgument::Type(t) => lower_type(t)?,
                other => return err(other.span(), "expected an element type"),
            };
            if !elem.is_elem() {
                return err(
                    args[0].span(),
                    format!("`{elem}` cannot be an array element; elements are primitives or tuples of 2 to 5 of them"),
                );
            }
            let rank = match fixed_rank {
                Some(r) => r,
                None => match args[1] {
                    syn::GenericArgument::Const(e) => const_usize(e)?,
                    syn::GenericArgument::Type(syn::Type::Path(p)) => {
                        // `Array<f32, 3>` parses the rank as a const expression, but a
                        // bare literal may also arrive as a type path in some macro
                        // contexts.
                        return err(p.span(), "the rank of `Array<T, R>` must be a number literal");
                    }
                    other => return err(other.span(), "the rank of `Array<T, R>` must be a number literal"),
                },
            };
            Ok(Ty::array(elem, rank))
        }
        _ => err(t.span(), format!("unsupported type; {SUPPORTED}")),
    }
}

fn const_usize(e: &syn::Expr) -> CResult<usize> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => {
            let n: usize = i.base10_parse()?;
            if n > 8 {
                return err(i.span(), "ranks above 8 are not supported");
            }
            Ok(n)
        }
        syn::Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
            syn::Stmt::Expr(e, None) => const_usize(e),
            _ => err(e.span(), "expected a number literal"),
        },
        _ => err(e.span(), "expected a number literal"),
    }
}
