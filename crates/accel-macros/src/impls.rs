//! `#[acc]` on an `impl` block: its functions become programs, called as
//! associated functions.
//!
//! Rust allows no module inside an `impl`, and a program's items live in one
//! (`name::on`, `name::explain`). So the functions are compiled as in an
//! `accel!` block, into a hidden module beside the `impl`
//! (`__accel_impl_<Type>_<first function>`), and the `impl` gets functions
//! that call them:
//! `Type::name(..)`, `Type::name_on(&backend, ..)`, `Type::name_on_into(..)`
//! and `Type::name_explain()`. Inside the block, `Self::f` names another
//! function or an associated constant of the block, as Rust requires.

use accel_core::front::impl_program;
use accel_core::Options;
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// The items for `#[acc(opts)] impl Type { .. }`: the `impl` with its
/// constants and the functions that call the programs, and the programs in a
/// hidden module beside it. A block that cannot be compiled is only its
/// error (without its functions the `impl` would add "no function" errors at
/// every call).
pub fn expand(imp: syn::ItemImpl, opts: Options) -> TokenStream {
    let program = match impl_program(&imp) {
        Ok(p) => p,
        Err(e) => return e.to_compile_error(),
    };
    // Named after the type and its first function, so that two `#[acc]`
    // blocks of one type (with different functions) get two modules.
    let first = imp.items.iter().find_map(|i| match i {
        syn::ImplItem::Fn(f) => Some(f.sig.ident.to_string()),
        _ => None,
    });
    let module = format_ident!("__accel_impl_{}_{}", program.ty, first.unwrap_or_default());
    let items = &program.items;
    let compiled = crate::emit::programs(quote!(#(#items)*), opts);
    // The `impl`'s functions copy the signatures of the generated ones.
    let generated: syn::File = match syn::parse2(compiled.clone()) {
        Ok(f) => f,
        Err(e) => return e.to_compile_error(),
    };
    let mut members = TokenStream::new();
    for item in &imp.items {
        match item {
            syn::ImplItem::Fn(f) => members.extend(delegates(f, &module, &generated)),
            other => members.extend(quote!(#other)),
        }
    }
    let impl_attrs = &imp.attrs;
    let self_ty = &imp.self_ty;
    quote! {
        #(#impl_attrs)*
        impl #self_ty {
            #members
        }

        #[doc(hidden)]
        #[allow(non_snake_case, unused_imports)]
        mod #module {
            use super::*;
            #compiled
        }
    }
}

/// The associated functions of program `f`: `f`, `f_on`, `f_on_into` and
/// `f_explain`, each calling the item of the same signature in `module`
/// (those that the generated code has: a program returning a sequence has no
/// `on_into`).
fn delegates(f: &syn::ImplItemFn, module: &Ident, generated: &syn::File) -> TokenStream {
    let name = &f.sig.ident;
    let vis = &f.vis;
    let attrs: Vec<&syn::Attribute> = f.attrs.iter().filter(|a| a.path().is_ident("doc")).collect();
    let mut out = TokenStream::new();
    let top = generated.items.iter().find_map(|i| match i {
        syn::Item::Fn(g) if g.sig.ident == *name => Some(g),
        _ => None,
    });
    if let Some(g) = top {
        let call = call(&g.sig, quote!(#module::#name));
        let sig = &g.sig;
        out.extend(quote! {
            #(#attrs)*
            #[allow(clippy::too_many_arguments)]
            #vis #sig { #call }
        });
    }
    let inner = generated.items.iter().find_map(|i| match i {
        syn::Item::Mod(m) if m.ident == *name => m.content.as_ref().map(|(_, items)| items),
        _ => None,
    });
    let docs = [
        ("on", format!("Runs [`Self::{name}`] on `backend`.")),
        (
            "on_into",
            format!("Runs [`Self::{name}`] on `backend`, its result in `out` (whose storage it reuses)."),
        ),
        ("explain", format!("The kernel plan of [`Self::{name}`].")),
    ];
    for (entry, doc) in docs {
        let found = inner.into_iter().flatten().find_map(|i| match i {
            syn::Item::Fn(g) if g.sig.ident == entry => Some(g),
            _ => None,
        });
        let Some(g) = found else { continue };
        let mut sig = g.sig.clone();
        sig.ident = format_ident!("{}_{}", name, entry, span = name.span());
        let target = Ident::new(entry, Span::call_site());
        let call = call(&g.sig, quote!(#module::#name::#target));
        out.extend(quote! {
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            #vis #sig { #call }
        });
    }
    out
}

/// `path(a, b, ..)` with the parameters of `sig` (all plain names in the
/// generated code).
fn call(sig: &syn::Signature, path: TokenStream) -> TokenStream {
    let args = sig.inputs.iter().filter_map(|i| match i {
        syn::FnArg::Typed(pt) => match &*pt.pat {
            syn::Pat::Ident(pi) => Some(&pi.ident),
            _ => None,
        },
        syn::FnArg::Receiver(_) => None,
    });
    quote!(#path(#(#args),*))
}
