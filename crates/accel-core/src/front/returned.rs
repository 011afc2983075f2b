//! Programs that return a sequence (the paper's `streamOut`). Such a program
//! runs a chunk at a time, as its caller asks for elements: `accel!` compiles
//! it as a second program over one chunk of each stream, whose result is the
//! chunk of returned elements. That program is this rewrite of the source:
//! each streamed parameter `xs: Seq<X>` becomes a chunk `__chunk_xs: &X'`
//! (one rank higher) read as `let xs = __chunk_xs.rows()`, a last parameter
//! [`START`] counts the elements of the chunks before, and the returned
//! sequence is tabulated. Slices of arrays in the returned sequence are read
//! from element [`START`] on (`seq::lower`): a chunk zips the next elements
//! of the streams with the next slices.

use crate::error::{CResult, CompileError};
use proc_macro2::Span;
use quote::{format_ident, quote};
use syn::spanned::Spanned;

/// The chunk program's last parameter: the number of elements returned
/// before its chunk.
pub const START: &str = "__start";
/// The variable the chunk program binds its returned sequence to.
pub const RETURNED: &str = "__returned";
/// The prefix of a chunk program's parameter that holds a chunk of a stream.
pub const CHUNK_PARAM: &str = "__chunk_";

/// The element type `X` of `Seq<X>`, if `t` is one.
pub fn seq_elem(t: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(p) = t else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Seq" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
            syn::GenericArgument::Type(x) => Some(x),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `f` returns a sequence.
pub fn returns_seq(f: &syn::ItemFn) -> bool {
    matches!(&f.sig.output, syn::ReturnType::Type(_, t) if seq_elem(t).is_some())
}

/// The name of `f`'s program over one chunk.
pub fn chunk_name(f: &syn::ItemFn) -> syn::Ident {
    format_ident!("__{}_chunk", f.sig.ident)
}

/// Array type `x` one rank higher: `Scalar<T>` is `Vector<T>`, `Vector<T>` is
/// `Matrix<T>`, `Matrix<T>` and `Array<T, N>` are `Array<T, 3>` and
/// `Array<T, N + 1>`.
fn rank_up(x: &syn::Type) -> CResult<syn::Type> {
    let bad = || {
        CompileError::new(
            x.span(),
            "the elements of a returned or streamed sequence are written `Scalar<T>`, `Vector<T>`, \
             `Matrix<T>` or `Array<T, N>` here",
        )
    };
    let syn::Type::Path(p) = x else { return Err(bad()) };
    let last = p.path.segments.last().ok_or_else(bad)?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return Err(bad());
    };
    let Some(syn::GenericArgument::Type(t)) = args.args.first() else {
        return Err(bad());
    };
    let up = match last.ident.to_string().as_str() {
        "Scalar" => quote!(Vector<#t>),
        "Vector" => quote!(Matrix<#t>),
        "Matrix" => quote!(Array<#t, 3>),
        "Array" => {
            let n = match args.args.iter().nth(1) {
                Some(syn::GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }))) => n.base10_parse::<usize>().map_err(|_| bad())?,
                _ => return Err(bad()),
            };
            let n = proc_macro2::Literal::usize_unsuffixed(n + 1);
            quote!(Array<#t, #n>)
        }
        _ => return Err(bad()),
    };
    syn::parse2(up).map_err(|_| bad())
}

/// `f`, returning `Seq<Y>`, as the program over one chunk of each of its
/// streams that returns the chunk of its elements (a `Y` one rank higher).
pub fn chunk_program(f: &syn::ItemFn) -> CResult<syn::ItemFn> {
    let syn::ReturnType::Type(arrow, out) = &f.sig.output else {
        return Err(CompileError::new(
            f.sig.ident.span(),
            "expected a function returning a sequence",
        ));
    };
    let y = seq_elem(out).ok_or_else(|| CompileError::new(out.span(), "expected `Seq<..>`"))?;
    let mut g = f.clone();
    g.sig.ident = chunk_name(f);
    g.sig.output = syn::ReturnType::Type(*arrow, Box::new(rank_up(y)?));
    let mut rows = Vec::new();
    for input in g.sig.inputs.iter_mut() {
        let syn::FnArg::Typed(pt) = input else { continue };
        let Some(x) = seq_elem(&pt.ty) else { continue };
        let chunk = rank_up(x)?;
        *pt.ty = syn::parse_quote!(&#chunk);
        let syn::Pat::Ident(name) = &*pt.pat else {
            return Err(CompileError::new(
                pt.pat.span(),
                "a streamed parameter is a plain name",
            ));
        };
        let name = name.ident.clone();
        let chunk = format_ident!("{CHUNK_PARAM}{name}");
        *pt.pat = syn::parse_quote!(#chunk);
        rows.push(quote!(let #name = #chunk.rows();));
    }
    let start = format_ident!("{START}");
    g.sig.inputs.push(syn::parse_quote!(#start: usize));
    // The body's statements, then its last expression tabulated.
    let mut stmts = f.block.stmts.clone();
    let last = match stmts.pop() {
        Some(syn::Stmt::Expr(e, None)) => e,
        _ => {
            return Err(CompileError::new(
                f.block.span(),
                "the body must end with the returned sequence",
            ))
        }
    };
    let seq = syn::Ident::new(RETURNED, Span::call_site());
    g.block = Box::new(syn::parse_quote!({
        #(#rows)*
        #(#stmts)*
        let #seq = #last;
        #seq.tabulate()
    }));
    Ok(g)
}
