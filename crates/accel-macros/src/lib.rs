//! `#[acc]` and `accel! { .. }`: compile accel programs at build time.
//!
//! The macros only translate: `accel-core` parses, checks, recovers sharing and
//! fuses; `accel-kernels` generates the code; this crate wires the result into
//! the user's items and turns every error into a `compile_error!` at its span.
//! When a function fails to compile, its signature is still emitted (with a body
//! that returns an error) so that the rest of the crate type-checks and reports
//! its own errors readably.

mod derive_elem;
mod dist;
mod emit;
mod impls;
mod options;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;

/// Compiles one function into a data-parallel program.
///
/// ```text
/// #[acc]
/// pub fn dotp(xs: &Vector<f32>, ys: &Vector<f32>) -> Scalar<f32> {
///     xs.zip_with(ys, |x, y| x * y).fold(0.0, |a, b| a + b)
/// }
/// ```
/// generates `dotp(&xs, &ys) -> accel::Result<Scalar<f32>>` (default backend),
/// `dotp::on(&backend, &xs, &ys)` and `dotp::explain()`.
///
/// `#[acc(fusion = false)]` and `#[acc(sharing = false)]` build the program
/// without fusion or without sharing recovery, to measure what they gain.
///
/// On an inline module, `#[acc] mod kernels { .. }`, the module is an
/// `accel!` block written as Rust (rustfmt and the IDE see it): its functions
/// are programs that may call each other, beside the constants and type
/// aliases they use and the module's `use` declarations.
///
/// On an `impl` block, every function in it is a program (they may call each
/// other as `Self::name`), called as an associated function: `Type::name(..)`,
/// `Type::name_on(&backend, ..)`, `Type::name_on_into(..)` and
/// `Type::name_explain()`.
#[proc_macro_attribute]
pub fn acc(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr: TokenStream2 = attr.into();
    let item: TokenStream2 = item.into();
    guarded(move || match options::parse(attr) {
        Ok(opts) => match syn::parse2::<syn::Item>(item.clone()) {
            Ok(syn::Item::Impl(imp)) => impls::expand(imp, opts),
            Ok(syn::Item::Mod(m)) if m.content.is_some() => emit::module(m, opts),
            _ => emit::programs(item, opts),
        },
        Err(e) => e.to_compile_error(),
    })
    .into()
}

/// Compiles several functions that may call each other; calls are inlined and
/// fused into the caller. An inner attribute first in the block,
/// `#![acc(fusion = false, sharing = false)]`, applies to every function.
///
/// ```text
/// accel! {
///     fn norm2(xs: &Vector<f32>) -> Scalar<f32> { xs.map(|x| x * x).sum() }
///     pub fn rms(xs: &Vector<f32>) -> Scalar<f32> {
///         let n = xs.len() as f32;
///         norm2(xs).map(|s| (s / n).sqrt())
///     }
/// }
/// ```
#[proc_macro]
pub fn accel(item: TokenStream) -> TokenStream {
    let item: TokenStream2 = item.into();
    guarded(move || emit::block(item)).into()
}

/// Makes a struct of element types an array element: `Vector<Particle>` is
/// stored as one column per primitive field (struct of arrays), and programs
/// read fields (`p.x`), build structs (`Particle { x, y }`) and match them.
///
/// ```text
/// #[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]
/// struct Particle { x: f32, y: f32, mass: f32 }
/// ```
///
/// A program sees a struct's fields when the struct is declared with it:
/// inside the `accel! { .. }` block or the `#[acc] mod`.
#[proc_macro_derive(Elem)]
pub fn derive_elem(item: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(item) {
        Ok(input) => derive_elem::expand(input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Runs `f`, turning a panic (a bug in accel) into a compile error instead of
/// a crashed macro.
fn guarded(f: impl FnOnce() -> TokenStream2 + std::panic::UnwindSafe) -> TokenStream2 {
    match std::panic::catch_unwind(f) {
        Ok(ts) => ts,
        Err(e) => {
            let what = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            let msg = format!("internal compiler error in accel: {what}; please report it");
            quote::quote!(::core::compile_error!(#msg);)
        }
    }
}
