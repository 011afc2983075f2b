//! `#[derive(accel::Elem)]`: a struct of element types as an array element.
//!
//! The struct is stored as the tuple of its fields (its `Elem::Repr`), one
//! column per primitive leaf, and the compiler sees it as that tuple; the
//! derive only converts between the two. Named fields and tuple structs of
//! one to five fields (the tuple arities `Elem` has), without generics.

use accel_core::front::MAX_STRUCT_FIELDS as MAX_FIELDS;
use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

pub fn expand(input: syn::DeriveInput) -> TokenStream {
    match impl_elem(&input) {
        Ok(ts) => ts,
        Err(e) => e.to_compile_error(),
    }
}

fn impl_elem(input: &syn::DeriveInput) -> syn::Result<TokenStream> {
    let name = &input.ident;
    if let Some(g) = input.generics.params.first() {
        return Err(syn::Error::new(
            g.span(),
            "`#[derive(accel::Elem)]` needs a struct without generic parameters: element types are fixed",
        ));
    }
    let fields = match &input.data {
        syn::Data::Struct(s) => &s.fields,
        syn::Data::Enum(e) => return Err(syn::Error::new(
            e.enum_token.span(),
            "`#[derive(accel::Elem)]` takes a struct; an enum is not an array element (use an integer tag)",
        )),
        syn::Data::Union(u) => {
            return Err(syn::Error::new(
                u.union_token.span(),
                "`#[derive(accel::Elem)]` takes a struct, not a union",
            ))
        }
    };
    let n = fields.len();
    if n == 0 || n > MAX_FIELDS {
        return Err(syn::Error::new(
            if n == 0 { name.span() } else { fields.span() },
            format!(
                "`#[derive(accel::Elem)]` needs 1 to {MAX_FIELDS} fields, found {n}: group fields into \
                 structs of their own (a field may be a struct that derives `Elem`)"
            ),
        ));
    }
    let rt = quote!(::accel::__rt);
    let tys: Vec<&syn::Type> = fields.iter().map(|f| &f.ty).collect();
    // How the struct names its fields, and builds itself from its parts.
    let members = accel_core::front::field_members(fields);
    // Spanned at each field's type: a field that is not an element type is
    // reported there.
    let field_reprs: Vec<TokenStream> = tys
        .iter()
        .map(|t| quote::quote_spanned!(t.span()=> <#t as #rt::Elem>::Repr))
        .collect();
    let intos: Vec<TokenStream> = tys
        .iter()
        .zip(&members)
        .map(|(t, m)| quote::quote_spanned!(t.span()=> <#t as #rt::Elem>::into_repr(self.#m)))
        .collect();
    let (repr, into, from) = if n == 1 {
        let (t, m, r) = (tys[0], &members[0], &field_reprs[0]);
        (
            quote!(#r),
            intos[0].clone(),
            quote!(#name { #m: <#t as #rt::Elem>::from_repr(__r) }),
        )
    } else {
        let idx = (0..n).map(syn::Index::from);
        (
            quote!((#(#field_reprs,)*)),
            quote!((#(#intos,)*)),
            quote!(#name { #(#members: <#tys as #rt::Elem>::from_repr(__r.#idx),)* }),
        )
    };
    Ok(quote! {
        impl #rt::Elem for #name {
            type Repr = #repr;
            type Columns = <#repr as #rt::Elem>::Columns;
            #[inline(always)]
            fn into_repr(self) -> Self::Repr {
                #into
            }
            #[inline(always)]
            fn from_repr(__r: Self::Repr) -> Self {
                #from
            }
            type Lanes = <#repr as #rt::Elem>::Lanes;
            #[inline(always)]
            fn splat(v: Self) -> Self::Lanes {
                <#repr as #rt::Elem>::splat(#rt::Elem::into_repr(v))
            }
            #[inline(always)]
            fn lane(l: &Self::Lanes, k: usize) -> Self {
                #rt::Elem::from_repr(<#repr as #rt::Elem>::lane(l, k))
            }
            #[inline(always)]
            fn set_lane(l: &mut Self::Lanes, k: usize, v: Self) {
                <#repr as #rt::Elem>::set_lane(l, k, #rt::Elem::into_repr(v))
            }
            fn leaves(out: &mut ::std::vec::Vec<#rt::Prim>) {
                <#repr as #rt::Elem>::leaves(out)
            }
            fn to_value(self) -> #rt::dynamic::Value {
                #rt::Elem::to_value(#rt::Elem::into_repr(self))
            }
            fn from_value(v: &#rt::dynamic::Value) -> ::core::option::Option<Self> {
                <#repr as #rt::Elem>::from_value(v).map(#rt::Elem::from_repr)
            }
        }

        // The reference interpreter's arguments and results.
        impl #rt::dynamic::ToDyn for #name {
            fn to_dyn(&self) -> #rt::dynamic::Dyn {
                #rt::dynamic::ToDyn::to_dyn(&#rt::Elem::into_repr(*self))
            }
        }
        impl #rt::interp::FromDyn for #name {
            fn from_dyn(d: #rt::dynamic::Dyn) -> ::core::option::Option<Self> {
                <#repr as #rt::interp::FromDyn>::from_dyn(d).map(#rt::Elem::from_repr)
            }
        }
    })
}
