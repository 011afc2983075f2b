//! `#[acc]` on an `impl` block: its functions and constants as the items of
//! one program, as in an `accel!` block. Inside the block Rust names them
//! `Self::f` and `Self::N`; the program names them `f` and `N`.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::quote;
use std::collections::HashSet;
use syn::spanned::Spanned;

/// The items of an `#[acc]` impl block.
pub struct ImplProgram {
    /// The type's name (the last segment of its path).
    pub ty: Ident,
    /// The functions (public: the `impl`'s functions call them from outside
    /// the module the macro puts them in) and constants, `Self::` paths to
    /// them written without `Self::`.
    pub items: Vec<syn::Item>,
}

/// The program of `imp`, or why it cannot be one: a trait implementation, a
/// generic block, a type that is not a plain path, a method with `self`, or
/// an item other than a function or a constant.
pub fn impl_program(imp: &syn::ItemImpl) -> syn::Result<ImplProgram> {
    if let Some((_, path, _)) = &imp.trait_ {
        return Err(syn::Error::new(
            path.span(),
            "`#[acc]` compiles inherent `impl` blocks only, not trait implementations",
        ));
    }
    if !imp.generics.params.is_empty() || imp.generics.where_clause.is_some() {
        return Err(syn::Error::new(
            imp.generics.span(),
            "`#[acc]` does not compile generic `impl` blocks: accel programs have concrete element types",
        ));
    }
    let ty = match &*imp.self_ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.clone()),
        _ => None,
    };
    let ty = ty.ok_or_else(|| {
        syn::Error::new(
            imp.self_ty.span(),
            "`#[acc]` compiles `impl` blocks of named types",
        )
    })?;
    let mut names = HashSet::new();
    for item in &imp.items {
        match item {
            syn::ImplItem::Fn(f) => {
                if let Some(r) = f.sig.receiver() {
                    return Err(syn::Error::new(
                        r.span(),
                        "accel programs take arrays and scalars, not `self`: make this an associated \
                         function and pass what it needs as parameters",
                    ));
                }
                names.insert(f.sig.ident.to_string());
            }
            syn::ImplItem::Const(c) => {
                names.insert(c.ident.to_string());
            }
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "an `#[acc]` impl block holds functions and the constants they use; \
                     put other items in a separate `impl` block",
                ))
            }
        }
    }
    let mut items = Vec::new();
    for item in &imp.items {
        let tokens = match item {
            syn::ImplItem::Fn(f) => {
                let syn::ImplItemFn {
                    attrs, sig, block, ..
                } = f;
                let block = without_self_paths(quote!(#block), &names);
                quote!(#(#attrs)* pub #sig #block)
            }
            syn::ImplItem::Const(c) => {
                let syn::ImplItemConst {
                    attrs,
                    ident,
                    ty,
                    expr,
                    ..
                } = c;
                let expr = without_self_paths(quote!(#expr), &names);
                quote!(#(#attrs)* const #ident: #ty = #expr;)
            }
            _ => continue,
        };
        items.push(syn::parse2(tokens)?);
    }
    Ok(ImplProgram { ty, items })
}

/// `tokens` with `Self::name` written `name` for the block's own names.
fn without_self_paths(tokens: TokenStream, names: &HashSet<String>) -> TokenStream {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tts.len());
    let mut i = 0;
    while i < tts.len() {
        if let Some(name) = self_path_at(&tts[i..], names) {
            out.push(TokenTree::Ident(name));
            i += 4;
            continue;
        }
        out.push(match &tts[i] {
            TokenTree::Group(g) => {
                let mut inner = proc_macro2::Group::new(g.delimiter(), without_self_paths(g.stream(), names));
                inner.set_span(g.span());
                TokenTree::Group(inner)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// The name in `Self :: name` at the start of `tts`, when it is one of `names`.
fn self_path_at(tts: &[TokenTree], names: &HashSet<String>) -> Option<Ident> {
    match tts {
        [TokenTree::Ident(s), TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(name), ..]
            if s == "Self"
                && a.as_char() == ':'
                && a.spacing() == proc_macro2::Spacing::Joint
                && b.as_char() == ':'
                && names.contains(&name.to_string()) =>
        {
            Some(name.clone())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_paths_to_the_block_s_names_lose_self() {
        let imp: syn::ItemImpl = syn::parse_quote! {
            impl T {
                const N: usize = 2;
                fn f(xs: &Vector<f32>) -> Vector<f32> { Self::g(xs).map(|x| x * Self::N as f32 + Self::M) }
                fn g(xs: &Vector<f32>) -> Vector<f32> { xs.map(|x| x) }
            }
        };
        let p = impl_program(&imp).unwrap();
        assert_eq!(p.ty, "T");
        let f = &p.items[1];
        let text = quote!(#f).to_string();
        assert!(text.starts_with("pub fn f"), "{text}");
        assert!(text.contains("g (xs)") && text.contains("N as f32"), "{text}");
        // `M` is not the block's: left for the front end to reject.
        assert!(text.contains("Self :: M"), "{text}");
    }
}
