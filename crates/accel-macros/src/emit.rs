//! The items generated for each function of an accel program.

use accel_core::front::returned;
use accel_core::ir::Ty;
use accel_core::Options;
use accel_kernels::host::rust_ty;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;

/// The body of `accel! { .. }`: functions, after an optional
/// `#![acc(..)]` with the options for all of them.
pub fn block(item: TokenStream) -> TokenStream {
    let file: syn::File = match syn::parse2(item) {
        Ok(f) => f,
        Err(e) => return e.to_compile_error(),
    };
    let mut opts = Options::default();
    let mut out = TokenStream::new();
    for attr in &file.attrs {
        let parsed = if attr.path().is_ident("acc") {
            match &attr.meta {
                syn::Meta::List(l) => crate::options::parse(l.tokens.clone()),
                _ => Ok(Options::default()),
            }
        } else {
            Err(syn::Error::new(
                attr.span(),
                "the only inner attribute of `accel!` is `#![acc(fusion = .., sharing = ..)]`",
            ))
        };
        match parsed {
            Ok(o) => opts = o,
            Err(e) => out.extend(e.to_compile_error()),
        }
    }
    let items = file.items;
    out.extend(programs(quote!(#(#items)*), opts));
    out
}

/// `#[acc] mod name { .. }`: the module, its `use` declarations kept, its
/// other items compiled as an `accel!` block's.
pub fn module(m: syn::ItemMod, opts: Options) -> TokenStream {
    let syn::ItemMod {
        attrs,
        vis,
        ident,
        content,
        ..
    } = m;
    let items = content.map(|(_, items)| items).unwrap_or_default();
    let (uses, rest): (Vec<syn::Item>, Vec<syn::Item>) =
        items.into_iter().partition(|i| matches!(i, syn::Item::Use(_)));
    let body = programs(quote!(#(#rest)*), opts);
    quote! {
        #(#attrs)*
        #vis mod #ident {
            #(#uses)*
            #body
        }
    }
}

/// Parses `item` as one or more functions and emits, for each, the function,
/// its module (`on`, `explain`) and any errors.
pub fn programs(item: TokenStream, opts: Options) -> TokenStream {
    let file: syn::File = match syn::parse2(item) {
        Ok(f) => f,
        Err(e) => return e.to_compile_error(),
    };
    let mut out = TokenStream::new();
    // Constants and type aliases stay Rust items (used by the program only,
    // they would look dead to rustc), and the functions see what they stand for.
    let items = accel_core::front::program_items(file.items);
    for it in &items.kept {
        out.extend(quote!(#[allow(dead_code)] #it));
    }
    for e in &items.errors {
        out.extend(e.to_compile_error());
    }
    let mut users = Users {
        sigs: items
            .fns
            .iter()
            .zip(&items.user_sigs)
            .map(|(f, s)| (f.sig.ident.to_string(), s.clone()))
            .collect(),
        structs: items.structs.clone(),
    };
    let mut fns = items.fns;
    // A method: its fallback would be a module inside an `impl` (which rustc
    // refuses, a second error that misleads); the error alone says what to do.
    fns.retain(|f| match f.sig.receiver() {
        Some(r) => {
            let msg = "accel programs take arrays and scalars, not `self`; in an `impl` block, make this \
                       an associated function and put `#[acc]` on the `impl` block";
            out.extend(syn::Error::new(r.span(), msg).to_compile_error());
            false
        }
        None => true,
    });
    // A function that returns a sequence runs as a second program, over one
    // chunk of its streams at a time (`front::returned`).
    let mut chunk_fns = Vec::new();
    for f in fns.iter().filter(|f| returned::returns_seq(f)) {
        match returned::chunk_program(f) {
            Ok(mut g) => {
                g.attrs.retain(|a| !a.path().is_ident("doc"));
                g.attrs.push(syn::parse_quote!(#[doc(hidden)]));
                // Its signature as written, where that names a struct.
                let user = syn::ItemFn {
                    sig: users.sig(f),
                    ..f.clone()
                };
                if let Ok(u) = returned::chunk_program(&user) {
                    users.sigs.insert(g.sig.ident.to_string(), u.sig);
                }
                chunk_fns.push(g);
            }
            Err(e) => out.extend(syn::Error::new(e.span, e.message).to_compile_error()),
        }
    }
    fns.extend(chunk_fns);
    // A program that would run whole over ranks but can run in phases gets
    // two hidden programs, its fold and the rest (`crate::dist::phases`);
    // the rest may be cut again.
    let mut phased = std::collections::HashMap::new();
    let mut i = 0;
    while i < fns.len() {
        if let Some((first, rest)) = crate::dist::phases(&fns, i, &users) {
            phased.insert(
                fns[i].sig.ident.to_string(),
                (first.sig.ident.clone(), rest.sig.ident.clone()),
            );
            fns.push(first);
            fns.push(rest);
        }
        i += 1;
    }
    let source = quote!(#(#fns)*).to_string();
    // `ACCEL_DUMP=fusion,clustering` (or `all`): the IR after those passes,
    // on the build's standard error, for whoever works on the compiler.
    let dump = std::env::var("ACCEL_DUMP").unwrap_or_default();
    let wanted = |pass: &str| dump.split(',').any(|w| w.trim() == pass || w.trim() == "all");
    // Functions returning a sequence that failed their checks: their chunk
    // programs are not compiled (their errors would say it again, worse).
    let mut failed = std::collections::HashSet::new();
    for (i, f) in fns.iter().enumerate() {
        // A struct's method is inlined where it is called, not a program.
        if f.sig
            .ident
            .to_string()
            .starts_with(accel_core::front::METHOD_PREFIX)
        {
            continue;
        }
        if returned::returns_seq(f) {
            out.extend(match accel_core::check(&fns, i) {
                Ok(program) => returned_seq_items(f, &program, &source, &users),
                Err(e) => {
                    failed.insert(returned::chunk_name(f));
                    let mut ts = syn::Error::new(e.span, e.message).to_compile_error();
                    ts.extend(fallback_items(f, &users));
                    ts
                }
            });
            continue;
        }
        if failed.contains(&f.sig.ident) {
            out.extend(fallback_items(f, &users));
            continue;
        }
        let mut show = |pass: &'static str, ir: accel_core::Stage<'_>| {
            if wanted(pass) {
                eprintln!("== {} after {pass}\n{ir}", f.sig.ident);
            }
        };
        out.extend(match accel_core::compile_traced(&fns, i, opts, &mut show) {
            Ok((program, plan)) => {
                let phases = phased.get(&f.sig.ident.to_string());
                program_items(f, &program, &plan, &source, &users, phases)
            }
            Err(e) => {
                let mut ts = syn::Error::new(e.span, e.message).to_compile_error();
                ts.extend(fallback_items(f, &users));
                ts
            }
        });
    }
    out
}

/// The functions' signatures as written, and the program's structs: the
/// compiler sees a struct as the tuple of its fields, the generated
/// functions take and return the struct where the signature names it.
pub(crate) struct Users {
    sigs: std::collections::HashMap<String, syn::Signature>,
    structs: Vec<String>,
}

impl Users {
    fn sig(&self, f: &syn::ItemFn) -> syn::Signature {
        self.sigs
            .get(&f.sig.ident.to_string())
            .cloned()
            .unwrap_or_else(|| f.sig.clone())
    }

    /// Whether `t` names one of the program's structs (or an alias of one).
    fn names_struct(&self, t: &syn::Type) -> bool {
        accel_core::front::names_any(t, &self.structs)
    }

    /// The type of parameter `k` as written, where it names a struct.
    pub(crate) fn param(&self, f: &syn::ItemFn, k: usize) -> Option<syn::Type> {
        match self.sig(f).inputs.iter().nth(k)? {
            syn::FnArg::Typed(pt) if self.names_struct(&pt.ty) => Some((*pt.ty).clone()),
            _ => None,
        }
    }

    /// The result type as written, where it names a struct.
    pub(crate) fn result(&self, f: &syn::ItemFn) -> Option<syn::Type> {
        match self.sig(f).output {
            syn::ReturnType::Type(_, t) if self.names_struct(&t) => Some(*t),
            _ => None,
        }
    }

    /// The element type `E` of a sequence `Seq<Vector<E>>` as written,
    /// where it names a struct.
    fn seq_elem(&self, t: Option<&syn::Type>) -> Option<syn::Type> {
        let t = t?;
        let x = returned::seq_elem(t)?;
        let syn::Type::Path(p) = x else { return None };
        match &p.path.segments.last()?.arguments {
            syn::PathArguments::AngleBracketed(a) => match a.args.first()? {
                syn::GenericArgument::Type(e) if self.names_struct(e) => Some(e.clone()),
                _ => None,
            },
            _ => None,
        }
    }
}

/// Attributes of a function that stay on the generated one (not the
/// compiler's `#[accel_struct]`).
fn user_attrs(f: &syn::ItemFn) -> Vec<&syn::Attribute> {
    f.attrs
        .iter()
        .filter(|a| !a.path().is_ident(accel_core::front::STRUCT_ATTR))
        .collect()
}

/// The Rust type of an IR type, with arrays by the names users write
/// (`Scalar<T>`, `Vector<T>`, `Matrix<T>`, `Array<T, R>` from rank 3): what
/// rustdoc and the IDE show for the generated functions.
pub(crate) fn api_ty(t: &Ty) -> TokenStream {
    match t {
        Ty::Array(e, r) => {
            let e = rust_ty(e);
            match r {
                0 => quote!(::accel::Scalar<#e>),
                1 => quote!(::accel::Vector<#e>),
                2 => quote!(::accel::Matrix<#e>),
                _ => {
                    let r = proc_macro2::Literal::usize_unsuffixed(*r);
                    quote!(::accel::Array<#e, #r>)
                }
            }
        }
        Ty::Seq(e) => {
            let stream = stream_ty(e, quote!('__s), None);
            quote!(impl ::core::convert::Into<#stream>)
        }
        Ty::Tuple(ts) if ts.iter().any(Ty::has_array) => {
            let ts = ts.iter().map(api_ty);
            quote!((#(#ts,)*))
        }
        other => rust_ty(other),
    }
}

/// `accel::Stream<'lifetime, T, R>`, what feeds a sequence of `Array<T, R>`
/// (`T` as written, `user`, where that is a struct).
fn stream_ty(elem: &Ty, lifetime: TokenStream, user: Option<&syn::Type>) -> TokenStream {
    let (t, r) = elem_and_rank(elem, user);
    quote!(::accel::Stream<#lifetime, #t, #r>)
}

/// `accel::SeqOut<'__s, T, R>`, what a program returning a sequence of
/// `Array<T, R>` returns.
fn seq_out_ty(elem: &Ty, user: Option<&syn::Type>) -> TokenStream {
    let (t, r) = elem_and_rank(elem, user);
    quote!(::accel::SeqOut<'__s, #t, #r>)
}

fn elem_and_rank(elem: &Ty, user: Option<&syn::Type>) -> (TokenStream, proc_macro2::Literal) {
    let (t, r) = match elem {
        Ty::Array(t, r) => (rust_ty(t), *r),
        other => (rust_ty(other), 0),
    };
    let t = user.map_or(t, |u| quote!(#u));
    (t, proc_macro2::Literal::usize_unsuffixed(r))
}

/// A parameter's name in the generated code, at its span in the source.
fn param_ident(p: &accel_core::front::Param) -> syn::Ident {
    syn::Ident::new(&p.name, p.span.resolved_at(Span::call_site()))
}

fn program_items(
    f: &syn::ItemFn,
    program: &accel_core::Program,
    plan: &accel_core::Plan,
    source: &str,
    users: &Users,
    phases: Option<&(syn::Ident, syn::Ident)>,
) -> TokenStream {
    let name = &f.sig.ident;
    let name_str = name.to_string();
    let vis = &f.vis;
    let attrs = user_attrs(f);
    // The result as the compiler types it, and as the signature names it.
    let compiled_result = api_ty(&program.result);
    let (result, retype) = match users.result(f) {
        Some(t) if program.result.is_elem() => (owned_type(&t), quote!(.map(::accel::__rt::Elem::from_repr))),
        Some(t) => (owned_type(&t), quote!(.map(::accel::__rt::Retype::retype))),
        None => (compiled_result.clone(), quote!()),
    };
    // Parameters keep their names and their by-reference or by-value form.
    let params: Vec<TokenStream> = f
        .sig
        .inputs
        .iter()
        .zip(&program.params)
        .enumerate()
        .map(|(k, (input, p))| {
            let ident = param_ident(p);
            if let Some(t) = users.param(f, k) {
                return match &p.ty {
                    Ty::Seq(e) => {
                        let stream = stream_ty(e, quote!('__s), users.seq_elem(Some(&t)).as_ref());
                        quote!(#ident: impl ::core::convert::Into<#stream>)
                    }
                    _ => quote!(#ident: #t),
                };
            }
            let by_ref = matches!(input, syn::FnArg::Typed(pt) if matches!(*pt.ty, syn::Type::Reference(_)));
            let t = api_ty(&p.ty);
            if by_ref {
                quote!(#ident: &#t)
            } else {
                quote!(#ident: #t)
            }
        })
        .collect();
    // Struct scalars as the tuples the program reads.
    let struct_scalars: Vec<TokenStream> = program
        .params
        .iter()
        .enumerate()
        .filter(|(k, p)| p.ty.is_elem() && users.param(f, *k).is_some())
        .map(|(_, p)| {
            let ident = param_ident(p);
            quote!(let #ident = ::accel::__rt::Elem::into_repr(#ident);)
        })
        .collect();
    let args: Vec<syn::Ident> = program.params.iter().map(param_ident).collect();
    // Scalars passed by reference are read once, up front.
    let deref_scalars: Vec<TokenStream> = f
        .sig
        .inputs
        .iter()
        .zip(&program.params)
        .filter(|(input, p)| {
            !p.ty.is_array()
                && matches!(input, syn::FnArg::Typed(pt) if matches!(*pt.ty, syn::Type::Reference(_)))
        })
        .map(|(_, p)| {
            let ident = param_ident(p);
            quote!(let #ident = *#ident;)
        })
        .collect();
    // Streams are converted once, up front; the interpreter reads them whole.
    let streams: Vec<TokenStream> = program
        .params
        .iter()
        .enumerate()
        .filter_map(|(k, p)| {
            let e = p.ty.seq_elem()?;
            let ident = param_ident(p);
            let t = stream_ty(e, quote!('_), users.seq_elem(users.param(f, k).as_ref()).as_ref());
            Some(quote!(let mut #ident: #t = ::core::convert::Into::into(#ident);))
        })
        .collect();
    let interp_args: Vec<TokenStream> = program
        .params
        .iter()
        .map(|p| {
            let ident = param_ident(p);
            if matches!(p.ty, Ty::Seq(_)) {
                quote!(::accel::__rt::seq::collect_arg(&mut #ident)?)
            } else {
                quote!(::accel::__rt::interp::arg(&#ident))
            }
        })
        .collect();
    // Streams may borrow (an iterator over the caller's data): one lifetime.
    let generics = if streams.is_empty() {
        quote!()
    } else {
        quote!(<'__s>)
    };
    // The chunk length of sequences, for programs that chunk one.
    let chunks = if plan.params.iter().any(|p| p.name == accel_core::seq::CHUNK_LEN) {
        quote! {
            let __chunk_len: usize = ::accel::__rt::seq::chunk_len();
            let __chunk_elems: usize = ::accel::__rt::seq::chunk_elems(__backend);
        }
    } else {
        quote!()
    };
    // `dist`: over block-distributed arrays.
    let by_ref: Vec<(syn::Ident, bool)> = f
        .sig
        .inputs
        .iter()
        .zip(&program.params)
        .map(|(input, p)| {
            let r = matches!(input, syn::FnArg::Typed(pt) if matches!(*pt.ty, syn::Type::Reference(_)));
            (param_ident(p), r)
        })
        .collect();
    let user_types =
        users.result(f).is_some() || (0..program.params.len()).any(|k| users.param(f, k).is_some());
    let dist = crate::dist::items(program, &by_ref, user_types, phases);
    let rt = quote!(::accel::__rt);
    let body = accel_kernels::cpu::program_body(plan, &rt);
    // The GPU path: the same plan as PTX kernels launched on the backend's
    // device. A program the PTX back end cannot compile yet still compiles; its
    // GPU path returns a `BackendUnavailable` error naming what is missing.
    let (ptx_text, gpu_body) = gpu_items(plan, &rt);
    let explain = plan.explain();
    let explain_dot = plan.explain_dot();
    let doc = format!(
        "The accel program `{name_str}`: `on` runs it on a chosen backend, `explain` shows its kernels."
    );
    quote! {
        #(#attrs)*
        #[allow(clippy::too_many_arguments)]
        #vis fn #name #generics(#(#params),*) -> ::accel::Result<#result> {
            #name::on(&::accel::Backend::default(), #(#args),*)
        }

        #[doc = #doc]
        #[allow(non_snake_case, unused_imports, clippy::all)]
        #vis mod #name {
            use super::*;

            /// Runs the program on `backend`.
            #[allow(unused_variables, unused_mut, unused_braces, unused_parens, clippy::all)]
            pub fn on #generics(__backend: &::accel::Backend, #(#params),*) -> ::accel::Result<#result> {
                __backend.check_usable(#name_str)?;
                #(#deref_scalars)*
                #(#struct_scalars)*
                #(#streams)*
                #chunks
                if __backend.is_interp() {
                    let __args = [#(#interp_args),*];
                    return ::accel::__rt::interp::run(SOURCE, #name_str, &__args).map_err(|e| e.in_program(#name_str));
                }
                let mut __run = || -> ::accel::Result<#compiled_result> {
                    match __backend.device() {
                        ::core::option::Option::Some(__dev) => #gpu_body,
                        ::core::option::Option::None => #body,
                    }
                };
                __run()#retype.map_err(|e| e.in_program(#name_str))
            }

            /// Runs the program on `backend` and puts its result in `out`, whose
            /// storage the program reuses for it (on the CPU back end, where
            /// the result's arrays have the sizes of `out`'s, within an eighth):
            /// a program called in a loop then allocates nothing for its
            /// result. `out`'s old contents are given up first, so after an
            /// error it is empty.
            #[allow(unused_variables, unused_mut, clippy::all)]
            pub fn on_into #generics(__backend: &::accel::Backend, __out: &mut #result, #(#params),*) -> ::accel::Result<()> {
                let __pool = ::accel::__rt::cpu::pool::Scope::enter();
                ::accel::__rt::Output::give_storage(::core::mem::replace(__out, ::accel::__rt::Output::empty()));
                *__out = on(__backend, #(#args),*)?;
                ::core::result::Result::Ok(())
            }

            /// Runs the program once on a profiling PTX simulator: per kernel,
            /// its warp instructions, coalescing, DRAM bytes, bank conflicts and
            /// atomics, and the model's time on an H100 and an H200 (needs
            /// accel's `ptx-sim` feature).
            #[allow(unused_variables, unused_mut, clippy::all)]
            pub fn profile #generics(#(#params),*) -> ::accel::Result<::accel::profile::CallProfile> {
                ::accel::profile::call(|__backend| on(__backend, #(#args),*).map(|_| ()))
            }

            /// The kernel plan: each kernel, the operations fused into it, and the
            /// arrays materialised.
            pub fn explain() -> ::std::string::String {
                ::std::string::String::from(#explain)
            }

            /// The kernel plan as a Graphviz graph (`dot -Tsvg`): kernels, the
            /// arrays they read and write, control flow as clusters.
            pub fn explain_dot() -> ::std::string::String {
                ::std::string::String::from(#explain_dot)
            }

            /// The PTX module of the program's kernels (Volta and newer); only a
            /// comment when `accel`'s `gpu` feature is off.
            pub fn ptx() -> &'static str {
                __ACCEL_PTX
            }

            // A `static`: devices cache loaded modules by the text's address.
            #[doc(hidden)]
            static __ACCEL_PTX: &str = #ptx_text;

            #dist

            /// The program's source text (for the reference interpreter in tests).
            #[doc(hidden)]
            pub const SOURCE: &str = #source;
        }
    }
}

/// The items of a function that returns a sequence: it returns an iterator
/// (`accel::SeqOut`) that computes a chunk of elements at a time, pulling
/// a chunk of each stream and running the chunk program on them (all at
/// once when it has no streams). Arrays by reference and the streams live
/// as long as the iterator (`'__s`).
fn returned_seq_items(
    f: &syn::ItemFn,
    program: &accel_core::Program,
    source: &str,
    users: &Users,
) -> TokenStream {
    let name = &f.sig.ident;
    let name_str = name.to_string();
    let vis = &f.vis;
    let attrs = user_attrs(f);
    let chunk = returned::chunk_name(f);
    let out_ty = match &program.result {
        Ty::Seq(e) => seq_out_ty(e, users.seq_elem(users.result(f).as_ref()).as_ref()),
        other => rust_ty(other),
    };
    let by_ref = |input: &syn::FnArg| matches!(input, syn::FnArg::Typed(pt) if matches!(*pt.ty, syn::Type::Reference(_)));
    let mut params = Vec::new();
    let mut args = Vec::new();
    let mut setup = Vec::new();
    let mut pulls = Vec::new();
    let mut pulled = Vec::new();
    let mut chunk_args = Vec::new();
    for (k, (input, p)) in f.sig.inputs.iter().zip(&program.params).enumerate() {
        let id = param_ident(p);
        let user = users.param(f, k);
        // The type as written where it names a struct (the chunk program
        // takes it too), without its `&`.
        let t = match &user {
            Some(u) => owned_type(u),
            None => api_ty(&p.ty),
        };
        args.push(quote!(#id));
        match &p.ty {
            Ty::Seq(e) => {
                let st = stream_ty(e, quote!('__s), users.seq_elem(user.as_ref()).as_ref());
                params.push(quote!(#id: impl ::core::convert::Into<#st>));
                setup.push(quote!(let mut #id: #st = ::core::convert::Into::into(#id);));
                let rank = e.elem_and_rank().map_or(0, |(_, r)| r);
                let (r, r1) = (
                    proc_macro2::Literal::usize_unsuffixed(rank),
                    proc_macro2::Literal::usize_unsuffixed(rank + 1),
                );
                let c = quote::format_ident!("__chunk_{}", p.name);
                pulls.push(quote! {
                    let #c = match ::accel::__rt::seq::next_chunk::<_, #r, #r1>(&mut #id, __len, __elems)? {
                        ::core::option::Option::Some(__x) => __x,
                        ::core::option::Option::None => return ::core::result::Result::Ok(::core::option::Option::None),
                    };
                });
                pulled.push((id.clone(), c.clone()));
                chunk_args.push(quote!(&#c));
            }
            _ if by_ref(input) && p.ty.is_array() => {
                params.push(quote!(#id: &'__s #t));
                chunk_args.push(quote!(#id));
            }
            _ if by_ref(input) => {
                params.push(quote!(#id: &#t));
                setup.push(quote!(let #id = *#id;));
                chunk_args.push(quote!(#id));
            }
            _ => {
                params.push(quote!(#id: #t));
                chunk_args.push(quote!(#id));
            }
        }
    }
    // Chunks of several streams: cut to the shortest (as a loop's pulls).
    let cut = if pulled.len() > 1 {
        let cs: Vec<&syn::Ident> = pulled.iter().map(|(_, c)| c).collect();
        let cuts = pulled
            .iter()
            .map(|(s, c)| quote!(let #c = ::accel::__rt::seq::cut(&mut #s, #c, __n)?;));
        quote! {
            let __n = [#(#cs.shape()[0]),*].into_iter().min().unwrap_or(0);
            #(#cuts)*
        }
    } else {
        quote!()
    };
    let next_chunk = if pulled.is_empty() {
        // No streams: every element at once, the first time.
        quote! {
            if !::core::mem::replace(&mut __first, false) {
                return ::core::result::Result::Ok(::core::option::Option::None);
            }
            let __pulled = usize::MAX;
        }
    } else {
        let first = &pulled[0].1;
        quote! {
            if __last {
                return ::core::result::Result::Ok(::core::option::Option::None);
            }
            let __len = ::accel::__rt::seq::chunk_len();
            let __elems = ::accel::__rt::seq::chunk_elems(&__backend);
            #(#pulls)*
            #cut
            let __pulled = #first.shape()[0];
        }
    };
    let doc = format!(
        "The accel program `{name_str}`, which returns a sequence: `on` runs it on a chosen backend, a chunk \
         of elements at a time as they are asked for; `explain` shows the kernels of a chunk."
    );
    quote! {
        #(#attrs)*
        #[allow(clippy::too_many_arguments)]
        #vis fn #name<'__s>(#(#params),*) -> ::accel::Result<#out_ty> {
            #name::on(&::accel::Backend::default(), #(#args),*)
        }

        #[doc = #doc]
        #[allow(non_snake_case, unused_imports, clippy::all)]
        #vis mod #name {
            use super::*;

            /// Runs the program on `backend`: the elements of the returned
            /// sequence, computed a chunk at a time as they are asked for.
            #[allow(unused_variables, unused_mut, unused_braces, unused_parens, clippy::all)]
            pub fn on<'__s>(__backend: &::accel::Backend, #(#params),*) -> ::accel::Result<#out_ty> {
                __backend.check_usable(#name_str)?;
                #(#setup)*
                let __backend = __backend.clone();
                let mut __first = true;
                // The elements returned so far: where the next chunk's
                // slices of arrays start.
                let mut __start = 0usize;
                // Set when a chunk's slices ran out before its streams'
                // elements: the sequence ends with it.
                let mut __last = false;
                ::core::result::Result::Ok(::accel::SeqOut::new(move || {
                    #next_chunk
                    let __c = super::#chunk::on(&__backend, #(#chunk_args,)* __start)?;
                    let __n = __c.shape()[0];
                    if __n == 0 {
                        return ::core::result::Result::Ok(::core::option::Option::None);
                    }
                    __last = __n < __pulled;
                    __start += __n;
                    ::core::result::Result::Ok(::core::option::Option::Some(__c))
                }))
            }

            /// The kernel plan of one chunk.
            pub fn explain() -> ::std::string::String {
                super::#chunk::explain()
            }

            /// The kernel plan of one chunk as a Graphviz graph (`dot -Tsvg`).
            pub fn explain_dot() -> ::std::string::String {
                super::#chunk::explain_dot()
            }

            /// The PTX module of one chunk's kernels; only a comment when
            /// `accel`'s `gpu` feature is off.
            pub fn ptx() -> &'static str {
                super::#chunk::ptx()
            }

            /// The program's source text (for the reference interpreter in tests).
            #[doc(hidden)]
            pub const SOURCE: &str = #source;
        }
    }
}

/// The PTX module and the GPU path's body. A panic in the PTX back end (a bug
/// in accel) must not stop the program from compiling for the CPU: its GPU path
/// then returns an error that says so.
fn gpu_items(plan: &accel_core::Plan, rt: &TokenStream) -> (String, TokenStream) {
    if !cfg!(feature = "gpu") {
        // `accel` without its `gpu` feature: no PTX in the binary, and no time
        // spent making it.
        let name = &plan.name;
        let why = "this build of accel has no GPU path (the `gpu` feature of `accel` is off)";
        let body = quote!(::core::result::Result::Err(#rt::Error::with_kind(
            #rt::ErrorKind::BackendUnavailable,
            #name,
            #why,
        )));
        return (format!("// not compiled: {why}\n"), body);
    }
    let built = std::panic::catch_unwind(|| {
        let ptx = accel_kernels::ptx::program(plan);
        let body = accel_kernels::gpu::program_body(plan, &ptx, rt);
        (ptx.text, body)
    });
    built.unwrap_or_else(|e| {
        let what = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let why = format!("internal error in accel's PTX back end ({what}); please report it");
        let name = &plan.name;
        let body = quote!(::core::result::Result::Err(#rt::gpu::error_word::unsupported(#name, #why)));
        (format!("// not compiled: {why}\n"), body)
    })
}

/// Result type `t` without references (an error already says results are
/// returned by value; the fallback must not add rustc's lifetime errors).
fn owned_type(t: &syn::Type) -> TokenStream {
    match t {
        syn::Type::Reference(r) => owned_type(&r.elem),
        syn::Type::Paren(p) => owned_type(&p.elem),
        syn::Type::Group(g) => owned_type(&g.elem),
        syn::Type::Tuple(tt) => {
            let elems = tt.elems.iter().map(owned_type);
            quote!((#(#elems,)*))
        }
        _ => quote!(#t),
    }
}

/// What a function that failed to compile still provides, so that its callers
/// type-check: the same signature, returning an error.
fn fallback_items(f: &syn::ItemFn, users: &Users) -> TokenStream {
    let sig = users.sig(f);
    let name = &sig.ident;
    let name_str = name.to_string();
    let vis = &f.vis;
    let inputs = &sig.inputs;
    let result = match &sig.output {
        syn::ReturnType::Type(_, t) => owned_type(t),
        syn::ReturnType::Default => quote!(()),
    };
    let names: Vec<TokenStream> = inputs
        .iter()
        .filter_map(|i| match i {
            syn::FnArg::Typed(pt) => match &*pt.pat {
                syn::Pat::Ident(pi) => {
                    let id = &pi.ident;
                    Some(quote!(#id))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    let msg = format!("`{name_str}` did not compile");
    let span = Span::call_site();
    let err = quote::quote_spanned!(span=> ::core::result::Result::Err(::accel::Error::new(#name_str, #msg)));
    quote! {
        #[allow(unused_variables, unused_mut, clippy::all)]
        #vis fn #name(#inputs) -> ::accel::Result<#result> {
            let _ = (#(&#names,)*);
            #err
        }
        #[allow(non_snake_case, unused_imports, unused_variables, unused_mut, clippy::all)]
        #vis mod #name {
            use super::*;
            pub fn on(__backend: &::accel::Backend, #inputs) -> ::accel::Result<#result> {
                #err
            }
            pub fn on_into(__backend: &::accel::Backend, __out: &mut #result, #inputs) -> ::accel::Result<()> {
                #err
            }
            pub fn profile(#inputs) -> ::accel::Result<::accel::profile::CallProfile> {
                #err
            }
            pub fn explain() -> ::std::string::String {
                ::std::string::String::from(#msg)
            }
            pub fn explain_dot() -> ::std::string::String {
                ::std::string::String::from(#msg)
            }
        }
    }
}
