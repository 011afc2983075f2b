//! The `name::dist` entry of a program: the program SPMD over
//! block-distributed arrays (`accel::dist::DistArray`) or over each rank's
//! parts of its sequences, run as `accel_core::dist::split` decided: on
//! each rank's blocks of rows or parts, as a fold whose ranks' values
//! combine in rank order, or whole on every rank.

use accel_core::dist::{FoldOp, Split};
use accel_core::front::Param;
use accel_core::ir::Ty;
use accel_core::Program;
use accel_kernels::host::rust_ty;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

/// How one parameter reaches `dist` and `on`.
enum Arg {
    /// An array of rank 1 or more: a `DistArray`.
    Distributed { ident: syn::Ident, by_ref: bool },
    /// Anything else, passed to `on` as the caller gave it.
    Plain(syn::Ident),
}

/// The `dist` function and `explain_dist`, or nothing for a program that
/// has neither an array to distribute nor a sequence, returns a tuple or a
/// sequence, or names its own struct types (`dist` would need their wire
/// form). Programs over sequences: [`seq_items`].
pub fn items(
    program: &Program,
    params: &[(syn::Ident, bool)],
    user_types: bool,
    phases: Option<&(syn::Ident, syn::Ident)>,
) -> TokenStream {
    let distributed = |p: &Param| matches!(p.ty, Ty::Array(_, r) if r >= 1);
    let (Ty::Array(result_elem, result_rank), false) = (&program.result, user_types) else {
        return quote!();
    };
    if !accel_core::dist::has_entry(program) {
        return quote!();
    }
    let split = accel_core::dist::split(program);
    let names: Vec<String> = program.params.iter().map(|p| p.name.clone()).collect();
    let explain = split.explain(&names);
    if accel_core::dist::streams(program) {
        return seq_items(program, params, &split, &explain);
    }
    if let (Some((first, rest)), Some(ph)) = (phases, accel_core::dist::phases(program)) {
        return phased_items(program, params, first, rest, &ph.explain());
    }

    let args: Vec<Arg> = program
        .params
        .iter()
        .zip(params)
        .map(|(p, (ident, by_ref))| {
            if distributed(p) {
                Arg::Distributed {
                    ident: ident.clone(),
                    by_ref: *by_ref,
                }
            } else {
                Arg::Plain(ident.clone())
            }
        })
        .collect();
    let sig = signature(program, params);
    let result = result_ty(result_elem, *result_rank);
    let dist_idents: Vec<&syn::Ident> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Distributed { ident, .. } => Some(ident),
            Arg::Plain(_) => None,
        })
        .collect();
    let first = dist_idents[0];

    // The whole program on every rank, every array gathered.
    let gathered: Vec<TokenStream> = dist_idents
        .iter()
        .map(|d| {
            let w = whole_ident(d);
            quote!(let #w = #d.to_array()?;)
        })
        .collect();
    let whole_call = call(&args, |_, ident, by_ref| {
        let w = whole_ident(ident);
        if by_ref {
            quote!(&#w)
        } else {
            quote!(#w.clone())
        }
    });
    let whole_result = if *result_rank == 0 {
        quote!(::accel::dist::auto::agreed(&__comm, #whole_call))
    } else {
        quote!(::accel::dist::auto::own_rows(&__comm, #whole_call))
    };
    let by_rows = match &split {
        Split::Whole { .. } | Split::SeqFold { .. } | Split::SeqCollect { .. } | Split::SeqWhole { .. } => {
            quote!()
        }
        Split::Rows { whole, .. } | Split::FoldRows { whole, .. } | Split::ScanRows { whole, .. } => {
            let halo = match split {
                Split::Rows { halo, .. } => halo,
                _ => 0,
            };
            let rows_of: Vec<TokenStream> = args
                .iter()
                .zip(whole)
                .filter_map(|(a, w)| match a {
                    Arg::Distributed { ident, .. } if !w => Some(quote!(#ident.shape()[0])),
                    _ => None,
                })
                .collect();
            let prepare: Vec<TokenStream> = args
                .iter()
                .zip(whole)
                .filter_map(|(a, w)| match a {
                    Arg::Distributed { ident, .. } if *w => {
                        let g = whole_ident(ident);
                        Some(quote!(let #g = #ident.to_array()?;))
                    }
                    Arg::Distributed { ident, .. } => {
                        let b = block_ident(ident);
                        Some(quote!(let #b = ::accel::dist::auto::aligned(#ident, &__starts)?;))
                    }
                    Arg::Plain(_) => None,
                })
                .collect();
            // The program on each block as it is, or on windows of rows of
            // the blocks with their halos (`__range`).
            let on_blocks = |windows: bool| {
                call(&args, |k, ident, by_ref| {
                    let (w, h, b) = (whole_ident(ident), halo_ident(ident), block_ident(ident));
                    match (whole[k], windows, by_ref) {
                        (true, _, true) => quote!(&#w),
                        (true, _, false) => quote!(#w.clone()),
                        (false, true, true) => quote!(&#h.window(__range.clone())?),
                        (false, true, false) => quote!(#h.window(__range.clone())?),
                        (false, false, true) => quote!(#b.part()),
                        (false, false, false) => quote!(#b.part().clone()),
                    }
                })
            };
            let block_call = on_blocks(false);
            // The first array that stays in rows sets the layout.
            let lead = args
                .iter()
                .zip(whole)
                .find_map(|(a, w)| match a {
                    Arg::Distributed { ident, .. } if !w => Some(ident),
                    _ => None,
                })
                .unwrap_or(first);
            let run = match &split {
                Split::FoldRows { op, .. } => {
                    let lead_block = block_ident(lead);
                    let combine = combine(*op);
                    quote! {
                        let __value = if #lead_block.part().shape()[0] == 0 {
                            ::core::result::Result::Ok(::core::option::Option::None)
                        } else {
                            #block_call.map(::core::option::Option::Some)
                        };
                        // Every rank folded nothing: the program's own answer
                        // for no rows (its initial value, or its error).
                        return match ::accel::dist::auto::fold(&__comm, __value, #combine)? {
                            ::core::option::Option::Some(__v) => ::core::result::Result::Ok(__v),
                            ::core::option::Option::None => #block_call,
                        };
                    }
                }
                Split::ScanRows { op, .. } => {
                    let combine = combine(*op);
                    quote!(return ::accel::dist::auto::scan(&__comm, #block_call, #combine);)
                }
                _ if halo > 0 => {
                    // As `DistArray::stencil_parts`: the program on the
                    // blocks is right but within `halo` rows of an edge with
                    // a halo; those rows come from the program on windows
                    // across the edges.
                    let lead_block = block_ident(lead);
                    let halos: Vec<&syn::Ident> = args
                        .iter()
                        .zip(whole)
                        .filter_map(|(a, w)| match a {
                            Arg::Distributed { ident, .. } if !w => Some(ident),
                            _ => None,
                        })
                        .collect();
                    let (h, b): (Vec<syn::Ident>, Vec<syn::Ident>) =
                        halos.iter().map(|d| (halo_ident(d), block_ident(d))).unzip();
                    let on_windows = on_blocks(true);
                    quote! {
                        #(let #h = ::accel::dist::auto::Halo::new(&#b, #halo)?;)*
                        let __above = 0 #(.max(#h.above()))*;
                        let __below = 0 #(.max(#h.below()))*;
                        let __rows = #lead_block.part().shape()[0];
                        let __part = (|| -> ::accel::Result<_> {
                            if __above == 0 && __below == 0 {
                                return #block_call;
                            }
                            if __rows < 2 * #halo {
                                let __range = 0..__above + __rows + __below;
                                let __out = #on_windows?;
                                return ::accel::dist::auto::rows_of(&__out, __above..__above + __rows);
                            }
                            let mut __out = #block_call?;
                            if __above > 0 {
                                let __range = 0..__above + 2 * #halo;
                                let __top = #on_windows?;
                                __out = ::accel::dist::auto::splice(__out, 0, &__top, __above..__above + #halo)?;
                            }
                            if __below > 0 {
                                let __range = __above + __rows - 2 * #halo..__above + __rows + __below;
                                let __bottom = #on_windows?;
                                __out = ::accel::dist::auto::splice(__out, __rows - #halo, &__bottom, #halo..2 * #halo)?;
                            }
                            ::core::result::Result::Ok(__out)
                        })();
                        return ::accel::dist::auto::rows(&__comm, __part);
                    }
                }
                _ => quote!(return ::accel::dist::auto::rows(&__comm, #block_call);),
            };
            quote! {
                if ::accel::dist::auto::same_rows(&[#(#rows_of),*]) {
                    let __starts: ::std::vec::Vec<usize> = #lead.starts().to_vec();
                    #(#prepare)*
                    #run
                }
            }
        }
    };
    quote! {
        /// Runs the program SPMD on block-distributed arrays (every rank
        /// calls it, with its `DistArray`s of one communicator): on each
        /// rank's blocks of rows where the program allows it, else whole
        /// on every rank. `explain_dist()` says which.
        #[allow(unused_variables, unused_mut, unreachable_code, clippy::all)]
        pub fn dist(__backend: &::accel::Backend, #(#sig),*) -> ::accel::Result<#result> {
            let __comm = ::std::sync::Arc::clone(#first.comm());
            #by_rows
            #(#gathered)*
            #whole_result
        }

        /// How `dist` runs the program over ranks.
        pub fn explain_dist() -> ::std::string::String {
            ::std::string::String::from(#explain)
        }
    }
}

/// What `dist` returns for a program of this result: a `Scalar` (the
/// same on every rank) or a `DistArray`.
fn result_ty(elem: &Ty, rank: usize) -> TokenStream {
    let (t, r) = (rust_ty(elem), Literal::usize_unsuffixed(rank));
    if rank == 0 {
        quote!(::accel::Scalar<#t>)
    } else {
        quote!(::accel::dist::DistArray<#t, #r>)
    }
}

/// The parameters of `dist`: those of `on`, with each array of rank 1 or
/// more a `&DistArray`.
fn signature(program: &Program, params: &[(syn::Ident, bool)]) -> Vec<TokenStream> {
    program
        .params
        .iter()
        .zip(params)
        .map(|(p, (ident, by_ref))| match &p.ty {
            Ty::Array(e, r) if *r >= 1 => {
                let (t, r) = (rust_ty(e), Literal::usize_unsuffixed(*r));
                quote!(#ident: &::accel::dist::DistArray<#t, #r>)
            }
            _ => {
                let t = super::emit::api_ty(&p.ty);
                if *by_ref {
                    quote!(#ident: &#t)
                } else {
                    quote!(#ident: #t)
                }
            }
        })
        .collect()
}

/// `on(__backend, ..)` with each distributed parameter given by `array(k,
/// ident, by_ref)`.
fn call(args: &[Arg], array: impl Fn(usize, &syn::Ident, bool) -> TokenStream) -> TokenStream {
    let a: Vec<TokenStream> = args
        .iter()
        .enumerate()
        .map(|(k, a)| match a {
            Arg::Distributed { ident, by_ref } => array(k, ident, *by_ref),
            // A call may be written twice (a fold's fallback): by value,
            // cloned (a `Scalar` is not `Copy`).
            Arg::Plain(ident) => quote!(::core::clone::Clone::clone(&#ident)),
        })
        .collect();
    quote!(on(__backend, #(#a),*))
}

fn whole_ident(ident: &syn::Ident) -> syn::Ident {
    format_ident!("__whole_{}", ident)
}

fn block_ident(ident: &syn::Ident) -> syn::Ident {
    format_ident!("__block_{}", ident)
}

/// A block with its halos.
fn halo_ident(ident: &syn::Ident) -> syn::Ident {
    format_ident!("__halo_{}", ident)
}

/// The fold's operation as a Rust closure (accel's arithmetic: integers
/// wrap).
fn combine(op: FoldOp) -> TokenStream {
    let ops = quote!(::accel::__rt::ops::ScalarOps);
    match op {
        FoldOp::Add => quote!(|a, b| #ops::acc_add(a, b)),
        FoldOp::Mul => quote!(|a, b| #ops::acc_mul(a, b)),
        FoldOp::Min => quote!(|a, b| #ops::acc_min(a, b)),
        FoldOp::Max => quote!(|a, b| #ops::acc_max(a, b)),
        FoldOp::And => quote!(|a, b| a & b),
        FoldOp::Or => quote!(|a, b| a | b),
        FoldOp::Xor => quote!(|a, b| a ^ b),
    }
}

/// `dist` of a program over sequences: each rank streams its own part of
/// each sequence, the ranks' parts one after the other in rank order. It
/// takes the communicator, as a program may have no distributed array to
/// name one. Array parameters are gathered whole on every rank.
fn seq_items(program: &Program, params: &[(syn::Ident, bool)], split: &Split, explain: &str) -> TokenStream {
    let Ty::Array(result_elem, result_rank) = &program.result else {
        return quote!();
    };
    let sig = signature(program, params);
    // Streams converted, arrays gathered; then each stream per the split.
    let mut prepare = Vec::new();
    let mut args = Vec::new();
    for (p, (ident, by_ref)) in program.params.iter().zip(params) {
        match &p.ty {
            Ty::Seq(e) => {
                let Ty::Array(t, r) = &**e else { return quote!() };
                let (t, r1, r) = (
                    rust_ty(t),
                    Literal::usize_unsuffixed(r + 1),
                    Literal::usize_unsuffixed(*r),
                );
                prepare.push(
                    quote!(let #ident: ::accel::Stream<'__s, #t, #r> = ::core::convert::Into::into(#ident);),
                );
                if matches!(split, Split::SeqWhole { .. }) {
                    prepare.push(quote!(let #ident = ::accel::dist::auto::whole_stream::<#t, #r, #r1>(&__comm, #ident);));
                }
                args.push(quote!(#ident));
            }
            Ty::Array(_, r) if *r >= 1 => {
                let w = whole_ident(ident);
                prepare.push(quote!(let #w = #ident.to_array()?;));
                args.push(if *by_ref { quote!(&#w) } else { quote!(#w) });
            }
            _ => args.push(quote!(#ident)),
        }
    }
    // Zipped streams are tallied, to check that the ranks' parts line up.
    let zipped: Vec<&syn::Ident> = match split {
        Split::SeqFold { streams, .. } | Split::SeqCollect { streams, .. } if streams.len() > 1 => {
            streams.iter().map(|&k| &params[k].0).collect()
        }
        _ => Vec::new(),
    };
    let tallies: Vec<syn::Ident> = zipped.iter().map(|i| format_ident!("__tally_{}", i)).collect();
    let names: Vec<String> = zipped.iter().map(|i| i.to_string()).collect();
    let value = quote! {
        #(let (#zipped, #tallies) = #zipped.tallied();)*
        let __value = on(__backend, #(#args),*);
    };
    let check = if zipped.is_empty() {
        quote!()
    } else {
        // An error here is every rank's (the check is a collective): each
        // returns it at once.
        quote!(let __value = ::core::result::Result::Ok(::accel::dist::auto::zipped(&__comm, __value, &[#((#names, #tallies.part())),*])?);)
    };
    // A fold's result is a scalar, a collect's an array.
    let result = result_ty(result_elem, *result_rank);
    let finish = match (split, *result_rank) {
        (Split::SeqFold { op, .. }, _) => {
            let combine = combine(*op);
            quote!(::accel::dist::auto::seq_fold(&__comm, __value, #combine))
        }
        (Split::SeqCollect { tabulate: true, .. }, _) => {
            quote!(::accel::dist::auto::stacked(&__comm, __value))
        }
        (Split::SeqCollect { .. }, _) => quote!(::accel::dist::auto::rows(&__comm, __value)),
        (_, 0) => quote!(::accel::dist::auto::agreed(&__comm, __value)),
        _ => quote!(::accel::dist::auto::own_rows(&__comm, __value)),
    };
    // `comm`, unless the program has a parameter of that name.
    let comm = if params.iter().any(|(i, _)| i == "comm") {
        format_ident!("__accel_comm")
    } else {
        format_ident!("comm")
    };
    quote! {
        /// Runs the program SPMD over sequences (every rank calls it, with
        /// its own part of each sequence: the sequence is the ranks' parts
        /// in rank order) and block-distributed arrays of the communicator
        /// `comm`. `explain_dist()` says how.
        #[allow(unused_variables, unused_mut, clippy::all)]
        pub fn dist<'__s>(
            __backend: &::accel::Backend,
            #comm: &impl ::accel::dist::SharedComm,
            #(#sig),*
        ) -> ::accel::Result<#result> {
            let __comm: ::std::sync::Arc<dyn ::accel::dist::Comm> = ::accel::dist::SharedComm::to_dyn(#comm);
            #(#prepare)*
            #value
            #check
            #finish
        }

        /// How `dist` runs the program over ranks.
        pub fn explain_dist() -> ::std::string::String {
            ::std::string::String::from(#explain)
        }
    }
}

/// `dist` of a program that runs in phases: the hidden program `first`
/// (the fold, by rows) on every rank, then `rest` with the fold's value.
fn phased_items(
    program: &Program,
    params: &[(syn::Ident, bool)],
    first: &syn::Ident,
    rest: &syn::Ident,
    explain: &str,
) -> TokenStream {
    let Ty::Array(result_elem, result_rank) = &program.result else {
        return quote!();
    };
    let sig = signature(program, params);
    let result = result_ty(result_elem, *result_rank);
    // Distributed arrays are references; other parameters by value are
    // passed twice.
    let twice: Vec<TokenStream> = program
        .params
        .iter()
        .zip(params)
        .map(|(p, (ident, by_ref))| match &p.ty {
            Ty::Array(_, r) if *r >= 1 => quote!(#ident),
            _ if *by_ref => quote!(#ident),
            _ => quote!(::core::clone::Clone::clone(&#ident)),
        })
        .collect();
    let idents = params.iter().map(|(i, _)| i);
    quote! {
        /// Runs the program SPMD on block-distributed arrays (every rank
        /// calls it, with its `DistArray`s of one communicator), in
        /// phases: a fold by rows first, then the rest with its value.
        /// `explain_dist()` says how.
        #[allow(unused_variables, clippy::all)]
        pub fn dist(__backend: &::accel::Backend, #(#sig),*) -> ::accel::Result<#result> {
            let __value = super::#first::dist(__backend, #(#twice),*)?;
            super::#rest::dist(__backend, #(#idents,)* __value)
        }

        /// How `dist` runs the program over ranks.
        pub fn explain_dist() -> ::std::string::String {
            ::std::string::String::from(#explain)
        }
    }
}

/// The hidden programs of function `fns[i]` in phases, where
/// `accel_core::dist::phases` finds some and the `let` it cuts at is a
/// top-level statement of its own name: `first` is the function up to the
/// `let`, returning its value; `rest` the function without it, taking the
/// value as its last parameter. `None` for any other function.
pub(crate) fn phases(
    fns: &[syn::ItemFn],
    i: usize,
    users: &super::emit::Users,
) -> Option<(syn::ItemFn, syn::ItemFn)> {
    let f = &fns[i];
    let name = f.sig.ident.to_string();
    let user_types =
        users.result(f).is_some() || (0..f.sig.inputs.len()).any(|k| users.param(f, k).is_some());
    if user_types
        || name.starts_with(accel_core::front::METHOD_PREFIX)
        || accel_core::front::returned::returns_seq(f)
    {
        return None;
    }
    let program = accel_core::check(fns, i).ok()?;
    let ph = accel_core::dist::phases(&program)?;
    let Ty::Array(elem, 0) = &ph.ty else { return None };
    // The one top-level `let` of that name, and its pattern without a type.
    let lets: Vec<(usize, &syn::Pat, &syn::Expr)> = f
        .block
        .stmts
        .iter()
        .enumerate()
        .filter_map(|(k, st)| match st {
            syn::Stmt::Local(syn::Local {
                pat,
                init: Some(syn::LocalInit {
                    expr, diverge: None, ..
                }),
                ..
            }) => {
                let pat = match pat {
                    syn::Pat::Type(t) => &*t.pat,
                    p => p,
                };
                match pat {
                    syn::Pat::Ident(pi) if pi.ident == ph.name && pi.subpat.is_none() => {
                        Some((k, pat, &**expr))
                    }
                    _ => None,
                }
            }
            _ => None,
        })
        .collect();
    let [(k, pat, value)] = lets[..] else { return None };
    let (vis, inputs, output) = (&f.vis, &f.sig.inputs, &f.sig.output);
    let (before, after) = (&f.block.stmts[..k], &f.block.stmts[k + 1..]);
    let t = rust_ty(elem);
    // `__accel_f_first` and `__accel_f_rest`; cut again, `__accel_f_rest_first`, ..
    let base = name.strip_prefix("__accel_").unwrap_or(&name);
    let first_name = format_ident!("__accel_{}_first", base);
    let rest_name = format_ident!("__accel_{}_rest", base);
    let first: syn::ItemFn = syn::parse_quote! {
        #[doc(hidden)]
        #vis fn #first_name(#inputs) -> Scalar<#t> {
            #(#before)*
            #value
        }
    };
    let comma = (!inputs.empty_or_trailing()).then(|| quote!(,));
    let rest: syn::ItemFn = syn::parse_quote! {
        #[doc(hidden)]
        #vis fn #rest_name(#inputs #comma #pat: Scalar<#t>) #output {
            #(#before)*
            #(#after)*
        }
    };
    // Both must compile as programs (they are the function's own code, cut
    // at a statement): anything else, and the function runs whole.
    let mut with = fns.to_vec();
    with.push(first.clone());
    with.push(rest.clone());
    let n = with.len();
    if accel_core::check(&with, n - 2).is_err() || accel_core::check(&with, n - 1).is_err() {
        return None;
    }
    Some((first, rest))
}
