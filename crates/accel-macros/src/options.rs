//! The arguments of `#[acc(..)]`: `fusion = bool`, `sharing = bool` (and
//! `expand_fusion = bool`, `horizontal_fusion = bool`, for measuring those
//! fusions).

use accel_core::Options;
use proc_macro2::TokenStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

pub fn parse(attr: TokenStream) -> syn::Result<Options> {
    let mut opts = Options::default();
    if attr.is_empty() {
        return Ok(opts);
    }
    let usage = "`#[acc]` takes `fusion = bool` and `sharing = bool`";
    let args = syn::parse::Parser::parse2(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated, attr)?;
    for arg in args {
        let arg = match arg {
            syn::Meta::NameValue(nv) => nv,
            other => {
                return Err(syn::Error::new(
                    other.path().span(),
                    format!("unknown option: {usage}"),
                ))
            }
        };
        let value = match &arg.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            }) => b.value,
            other => return Err(syn::Error::new(other.span(), "expected `true` or `false`")),
        };
        if arg.path.is_ident("fusion") {
            opts.fusion = value;
        } else if arg.path.is_ident("sharing") {
            opts.sharing = value;
        } else if arg.path.is_ident("expand_fusion") {
            // Undocumented in the usage line: for measuring the expand fusion.
            opts.expand_fusion = value;
        } else if arg.path.is_ident("horizontal_fusion") {
            // Undocumented in the usage line: for measuring horizontal fusion.
            opts.horizontal_fusion = value;
        } else {
            return Err(syn::Error::new(
                arg.path.span(),
                format!("unknown option: {usage}"),
            ));
        }
    }
    Ok(opts)
}
