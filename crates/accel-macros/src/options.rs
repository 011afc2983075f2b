//! The arguments of `#[acc(..)]`: `fusion = "optimal" | "greedy" | bool`,
//! `sharing = bool` (and `expand_fusion = bool`, `horizontal_fusion = bool`,
//! for measuring those fusions).

use accel_core::plan::horizontal::Clustering;
use accel_core::Options;
use proc_macro2::TokenStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

pub fn parse(attr: TokenStream) -> syn::Result<Options> {
    let mut opts = Options::default();
    if attr.is_empty() {
        return Ok(opts);
    }
    let usage = "`#[acc]` takes `fusion = \"optimal\" | \"greedy\" | bool` and `sharing = bool`";
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
        if arg.path.is_ident("fusion") {
            // `true` is "optimal"; "greedy" keeps the fusion of producers
            // into consumers and clusters kernels greedily.
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &arg.value
            {
                opts.clustering = match s.value().as_str() {
                    "optimal" => Clustering::Optimal,
                    "greedy" => Clustering::Greedy,
                    _ => {
                        return Err(syn::Error::new(
                            s.span(),
                            "expected `\"optimal\"`, `\"greedy\"`, `true` or `false`",
                        ))
                    }
                };
                continue;
            }
        }
        let value = match &arg.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Bool(b),
                ..
            }) => b.value,
            other if arg.path.is_ident("fusion") => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected `\"optimal\"`, `\"greedy\"`, `true` or `false`",
                ))
            }
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
            // Undocumented in the usage line: for measuring clustering.
            if !value {
                opts.clustering = Clustering::Off;
            }
        } else {
            return Err(syn::Error::new(
                arg.path.span(),
                format!("unknown option: {usage}"),
            ));
        }
    }
    Ok(opts)
}
