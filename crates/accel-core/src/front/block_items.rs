//! The items of an accel program (an `accel! { .. }` block, an `#[acc]`
//! function, a source text): its functions, and the constants and type
//! aliases they use, which stay Rust items and are substituted into the
//! functions before they compile, so that the compiler sees literals and the
//! types themselves. The macro, `compile_source` and the tools that read
//! programs from the repository all go through [`program_items`].
//!
//! A struct with `#[derive(accel::Elem)]` is an element type: the compiler
//! sees the tuple of its fields. Its name becomes that tuple type, its
//! literals (`P { x: 1.0, y }`, `P(a, b)`) tuples in field order, its patterns
//! tuple patterns. Field access (`p.x`) needs the type of `p`, so it is left
//! to the front end, which reads the program's structs from an
//! `#[accel_struct(..)]` attribute that every function carries
//! ([`StructDecl`]).
//!
//! A constant must be a literal (or a negated one) of a primitive type:
//! `const N: usize = 16;`, `const ALPHA: f32 = -1.5;`. A name that is a
//! constant in scope cannot be rebound by a `let` or a closure parameter in
//! Rust (it would be a pattern), so replacing every use of the name by its
//! value keeps the meaning.

use std::collections::HashMap;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};

/// The most fields a struct that derives `accel::Elem` may have: the
/// largest tuple `Elem` is stored as.
pub const MAX_STRUCT_FIELDS: usize = 5;

const PRIMS: [&str; 13] = [
    "bool", "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
];

/// A program's items, sorted.
pub struct ProgramItems {
    /// The functions, with constants, aliases and structs substituted.
    pub fns: Vec<syn::ItemFn>,
    /// The signatures of `fns` as written: what the generated functions take
    /// and return where a type names one of the program's structs.
    pub user_sigs: Vec<syn::Signature>,
    /// The names of the program's structs, and of the type aliases that
    /// name one.
    pub structs: Vec<String>,
    /// The constants, type aliases and structs, to emit as they were written.
    pub kept: Vec<syn::Item>,
    /// One per item that is none of these, or a constant or alias that
    /// cannot be substituted.
    pub errors: Vec<syn::Error>,
}

/// Sorts `items` into functions, constants and aliases, and errors.
pub fn program_items(items: Vec<syn::Item>) -> ProgramItems {
    let mut subst = BlockItems::default();
    let (mut fns, mut kept, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    let mut impls = Vec::new();
    for it in items {
        let taken = match &it {
            syn::Item::Fn(f) => {
                fns.push(f.clone());
                continue;
            }
            syn::Item::Const(c) => subst.add_const(c),
            syn::Item::Type(t) => subst.add_type(t),
            syn::Item::Struct(st) => subst.add_struct(st),
            syn::Item::Impl(imp) => {
                impls.push(imp.clone());
                continue;
            }
            other => Err(syn::Error::new(
                other.span(),
                "an accel program holds functions, and the constants, type aliases and structs (with their \
                 `impl` blocks) they use",
            )),
        };
        match taken {
            Ok(()) => kept.push(it),
            Err(e) => errors.push(e),
        }
    }
    // After every struct is known: a struct's `impl` may come first.
    // Kept for Rust code too, where accel takes them.
    for imp in impls {
        match subst.methods(&imp) {
            Ok(ms) => {
                fns.extend(ms);
                kept.push(syn::Item::Impl(imp));
            }
            Err(e) => errors.push(e),
        }
    }
    let user_sigs = fns.iter().map(|f| f.sig.clone()).collect();
    let fns = fns.iter().map(|f| subst.substitute(f)).collect();
    let structs = subst.struct_names();
    ProgramItems {
        fns,
        user_sigs,
        structs,
        kept,
        errors,
    }
}

/// A struct of the program, as its functions carry it:
/// `#[accel_struct(Name: (f32, f32) => x, y)]`: the tuple type it stands for
/// (its only field's type for a struct of one field), then its fields in
/// order (`0, 1, ..` for a tuple struct).
#[derive(Clone, Debug)]
pub struct StructDecl {
    pub name: syn::Ident,
    pub repr: syn::Type,
    pub fields: Vec<syn::Member>,
}

/// The attribute's name.
pub const STRUCT_ATTR: &str = "accel_struct";

impl syn::parse::Parse for StructDecl {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let name = input.parse()?;
        input.parse::<syn::Token![:]>()?;
        let repr = input.parse()?;
        input.parse::<syn::Token![=>]>()?;
        let fields = syn::punctuated::Punctuated::<syn::Member, syn::Token![,]>::parse_terminated(input)?;
        Ok(StructDecl {
            name,
            repr,
            fields: fields.into_iter().collect(),
        })
    }
}

impl StructDecl {
    /// The position of field `m`.
    fn position(&self, m: &syn::Member) -> Option<usize> {
        self.fields.iter().position(|f| f == m)
    }
}

/// The name of the function that method (or associated function) `m` of
/// struct `s` compiles as: called by `p.m(..)` or `S::m(..)`, inlined only
/// (not a program of its own).
pub fn method_fn_name(s: &str, m: &str) -> String {
    format!("{METHOD_PREFIX}{s}_{m}")
}

/// The prefix of [`method_fn_name`]s.
pub const METHOD_PREFIX: &str = "__accel_method_";

/// How a struct names its fields: `x`, `y` or `0`, `1` (a tuple struct).
pub fn field_members(fields: &syn::Fields) -> Vec<syn::Member> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| match &f.ident {
            Some(id) => syn::Member::Named(id.clone()),
            None => syn::Member::Unnamed(syn::Index::from(i)),
        })
        .collect()
}

/// The structs function `f` carries.
pub fn struct_decls(f: &syn::ItemFn) -> syn::Result<Vec<StructDecl>> {
    f.attrs
        .iter()
        .filter(|a| a.path().is_ident(STRUCT_ATTR))
        .map(|a| a.parse_args())
        .collect()
}

#[derive(Default)]
struct BlockItems {
    consts: HashMap<String, syn::Expr>,
    types: HashMap<String, syn::Type>,
    /// The aliases as written.
    aliases: Vec<(String, syn::Type)>,
    structs: Vec<StructDecl>,
}

/// Whether type `t` mentions one of `names`.
pub fn names_any(t: &syn::Type, names: &[String]) -> bool {
    struct Find<'a>(&'a [String], bool);
    impl<'a> syn::visit::Visit<'a> for Find<'_> {
        fn visit_path(&mut self, p: &'a syn::Path) {
            self.1 |= p.get_ident().is_some_and(|id| self.0.iter().any(|s| id == s));
            syn::visit::visit_path(self, p);
        }
    }
    let mut find = Find(names, false);
    syn::visit::Visit::visit_type(&mut find, t);
    find.1
}

impl BlockItems {
    /// Takes a constant: its value as a literal with the constant's type.
    fn add_const(&mut self, c: &syn::ItemConst) -> syn::Result<()> {
        let ty = match &*c.ty {
            syn::Type::Path(p) if p.qself.is_none() && PRIMS.iter().any(|t| p.path.is_ident(t)) => {
                p.path.segments[0].ident.to_string()
            }
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "a constant in an accel program must have a primitive type (`usize`, `i32`, `f32`, `bool`, ..)",
                ))
            }
        };
        let value = typed_literal(&c.expr, &ty).ok_or_else(|| {
            syn::Error::new(
                c.expr.span(),
                format!("a constant in an accel program must be a literal of its type `{ty}` (like `16`, `-1.5` or `true`)"),
            )
        })?;
        self.consts.insert(c.ident.to_string(), value);
        Ok(())
    }

    /// Takes a type alias without parameters.
    fn add_type(&mut self, t: &syn::ItemType) -> syn::Result<()> {
        if !t.generics.params.is_empty() {
            return Err(syn::Error::new(
                t.generics.span(),
                "a type alias in an accel program cannot have parameters: write the type itself",
            ));
        }
        let mut ty = (*t.ty).clone();
        self.aliases.push((t.ident.to_string(), ty.clone()));
        self.visit_type_mut(&mut ty);
        self.types.insert(t.ident.to_string(), ty);
        Ok(())
    }

    /// The names of the structs, and of the aliases whose type names one
    /// (directly or through another alias).
    fn struct_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.structs.iter().map(|d| d.name.to_string()).collect();
        loop {
            let before = names.len();
            for (alias, ty) in &self.aliases {
                if !names.contains(alias) && names_any(ty, &names) {
                    names.push(alias.clone());
                }
            }
            if names.len() == before {
                return names;
            }
        }
    }

    /// Takes a struct that derives `Elem`: its name stands for the tuple of
    /// its fields' types.
    fn add_struct(&mut self, st: &syn::ItemStruct) -> syn::Result<()> {
        let derives_elem = st.attrs.iter().filter(|a| a.path().is_ident("derive")).any(|a| {
            a.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|ps| {
                    ps.iter()
                        .any(|p| p.segments.last().is_some_and(|s| s.ident == "Elem"))
                })
        });
        if !derives_elem {
            return Err(syn::Error::new(
                st.ident.span(),
                "a struct in an accel program is an element type: add \
                 `#[derive(Clone, Copy, Debug, Default, PartialEq, accel::Elem)]`",
            ));
        }
        let n = st.fields.len();
        if !st.generics.params.is_empty() || n == 0 || n > MAX_STRUCT_FIELDS {
            // `derive(Elem)` says what is wrong; the struct is not known here.
            return Ok(());
        }
        // Field types are replaced when used: a struct may name one declared after it.
        let mut tys: Vec<syn::Type> = st.fields.iter().map(|f| f.ty.clone()).collect();
        let repr: syn::Type = if n == 1 {
            tys.pop().unwrap_or_else(|| syn::parse_quote!(()))
        } else {
            syn::parse_quote!((#(#tys),*))
        };
        let fields = field_members(&st.fields);
        self.types.insert(st.ident.to_string(), repr.clone());
        self.structs.push(StructDecl {
            name: st.ident.clone(),
            repr,
            fields,
        });
        Ok(())
    }

    /// `f` with every constant, type alias and struct replaced by what it
    /// stands for, carrying the program's structs.
    fn substitute(&self, f: &syn::ItemFn) -> syn::ItemFn {
        let mut f = f.clone();
        if !self.consts.is_empty() || !self.types.is_empty() {
            let mut s = Subst(self, 0);
            s.visit_item_fn_mut(&mut f);
        }
        for d in &self.structs {
            let (name, mut repr, fields) = (&d.name, d.repr.clone(), &d.fields);
            self.visit_type_mut(&mut repr);
            f.attrs
                .push(syn::parse_quote!(#[accel_struct(#name: #repr => #(#fields),*)]));
        }
        f
    }

    /// The functions of an `impl` block of one of the program's structs: a
    /// method taking `self` or `&self` becomes a function whose first
    /// parameter is the struct, and `Self` is the struct.
    fn methods(&self, imp: &syn::ItemImpl) -> syn::Result<Vec<syn::ItemFn>> {
        let s = match &*imp.self_ty {
            syn::Type::Path(p) if p.qself.is_none() => single_ident(&p.path)
                .filter(|n| self.structs.iter().any(|d| d.name == n))
                .ok_or_else(|| {
                    syn::Error::new(p.span(), "an `impl` in an accel program is of one of its structs")
                })?,
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "an `impl` in an accel program is of one of its structs",
                ))
            }
        };
        if let Some((_, t, _)) = &imp.trait_ {
            return Err(syn::Error::new(
                t.span(),
                "a trait `impl` is not part of an accel program: put it outside the block",
            ));
        }
        if let Some(g) = imp.generics.params.first() {
            return Err(syn::Error::new(
                g.span(),
                "an `impl` in an accel program has no generic parameters",
            ));
        }
        let ty = syn::Ident::new(&s, imp.self_ty.span());
        let mut out = Vec::new();
        for item in &imp.items {
            let syn::ImplItem::Fn(f) = item else {
                return Err(syn::Error::new(
                    item.span(),
                    "an `impl` in an accel program holds functions (methods and associated functions)",
                ));
            };
            let mut sig = f.sig.clone();
            sig.ident = syn::Ident::new(&method_fn_name(&s, &f.sig.ident.to_string()), f.sig.ident.span());
            if let Some(syn::FnArg::Receiver(r)) = sig.inputs.first() {
                if r.mutability.is_some() || r.colon_token.is_some() {
                    return Err(syn::Error::new(
                        r.span(),
                        "a method in an accel program takes `self` or `&self`",
                    ));
                }
                let first: syn::FnArg = syn::parse_quote_spanned!(r.span()=> __accel_self: #ty);
                sig.inputs[0] = first;
            }
            let mut g = syn::ItemFn {
                attrs: Vec::new(),
                vis: syn::Visibility::Inherited,
                sig,
                block: Box::new(f.block.clone()),
            };
            SelfIsStruct(&ty).visit_item_fn_mut(&mut g);
            out.push(g);
        }
        Ok(out)
    }

    fn struct_named(&self, p: &syn::Path) -> Option<&StructDecl> {
        let name = single_ident(p)?;
        self.structs.iter().find(|d| d.name == name)
    }

    fn visit_type_mut(&self, t: &mut syn::Type) {
        Subst(self, 0).visit_type_mut(t);
    }
}

/// In a method: `self` is the function's first parameter, `Self` the
/// struct (as a type, in literals and patterns, and in `Self::f(..)`).
struct SelfIsStruct<'a>(&'a syn::Ident);

impl VisitMut for SelfIsStruct<'_> {
    fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
        if p.qself.is_none() && p.path.is_ident("self") {
            p.path = syn::parse_quote_spanned!(p.path.span()=> __accel_self);
        }
        visit_mut::visit_expr_path_mut(self, p);
    }

    fn visit_path_mut(&mut self, p: &mut syn::Path) {
        if let Some(first) = p.segments.first_mut() {
            if first.ident == "Self" {
                first.ident = syn::Ident::new(&self.0.to_string(), first.ident.span());
            }
        }
        visit_mut::visit_path_mut(self, p);
    }
}

/// Replaces what the block declares; `depth` bounds the replacement of a
/// name inside what a name stands for (a cycle of aliases stays unknown).
struct Subst<'a>(&'a BlockItems, usize);

impl Subst<'_> {
    /// A struct literal (`P { x: a, y }`, `P { x: a, ..p }`, `P(a, b)`) as
    /// the tuple of its fields in order, or as an expression that fails to
    /// compile with the reason.
    fn struct_literal(&self, e: &syn::Expr) -> Option<syn::Expr> {
        let (d, parts): (&StructDecl, Vec<(syn::Member, syn::Expr)>) = match e {
            syn::Expr::Struct(s) if s.qself.is_none() => {
                let d = self.0.struct_named(&s.path)?;
                (
                    d,
                    s.fields
                        .iter()
                        .map(|f| (f.member.clone(), f.expr.clone()))
                        .collect(),
                )
            }
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else { return None };
                // `S::f(..)`: the associated function of a struct.
                if let (None, [s, f]) = (&p.qself, &p.path.segments.iter().collect::<Vec<_>>()[..]) {
                    if self.0.structs.iter().any(|d| d.name == s.ident) && s.arguments.is_none() {
                        let mut call = c.clone();
                        let name = syn::Ident::new(
                            &method_fn_name(&s.ident.to_string(), &f.ident.to_string()),
                            f.ident.span(),
                        );
                        *call.func = syn::parse_quote!(#name);
                        return Some(syn::Expr::Call(call));
                    }
                }
                let d = self.0.struct_named(&p.path)?;
                let parts = c.args.iter().enumerate();
                (
                    d,
                    parts
                        .map(|(i, a)| (syn::Member::Unnamed(syn::Index::from(i)), a.clone()))
                        .collect(),
                )
            }
            _ => return None,
        };
        let rest = match e {
            syn::Expr::Struct(s) => s.rest.as_deref(),
            _ => None,
        };
        Some(tuple_of_fields(d, parts, rest, e.span()).unwrap_or_else(|e| {
            let (msg, span) = (e.to_string(), e.span());
            syn::parse_quote_spanned!(span=> ::core::compile_error!(#msg))
        }))
    }

    /// A struct pattern (`P { x, y: b, .. }`, `P(a, b)`) as a tuple pattern.
    fn struct_pattern(&self, p: &syn::Pat) -> Option<syn::Result<syn::Pat>> {
        let (d, parts, rest): (&StructDecl, Vec<(syn::Member, syn::Pat)>, bool) = match p {
            syn::Pat::Struct(s) if s.qself.is_none() => {
                let d = self.0.struct_named(&s.path)?;
                let parts = s
                    .fields
                    .iter()
                    .map(|f| (f.member.clone(), (*f.pat).clone()))
                    .collect();
                (d, parts, s.rest.is_some())
            }
            syn::Pat::TupleStruct(s) if s.qself.is_none() => {
                let d = self.0.struct_named(&s.path)?;
                if s.elems.iter().any(|p| matches!(p, syn::Pat::Rest(_))) {
                    return Some(Err(syn::Error::new(
                        s.span(),
                        "write every field of the struct, or `_` for one",
                    )));
                }
                let parts = s.elems.iter().enumerate();
                (
                    d,
                    parts
                        .map(|(i, p)| (syn::Member::Unnamed(syn::Index::from(i)), p.clone()))
                        .collect(),
                    false,
                )
            }
            _ => return None,
        };
        let mut slots: Vec<Option<syn::Pat>> = vec![None; d.fields.len()];
        for (m, pat) in parts {
            let Some(k) = d.position(&m) else {
                return Some(Err(no_field(d, &m)));
            };
            slots[k] = Some(pat);
        }
        let mut pats = Vec::new();
        for (slot, m) in slots.into_iter().zip(&d.fields) {
            match slot {
                Some(p) => pats.push(p),
                None if rest => pats.push(syn::parse_quote!(_)),
                None => {
                    return Some(Err(syn::Error::new(
                        p.span(),
                        format!(
                            "pattern does not mention field `{}`; add it, or `..`",
                            member_name(m)
                        ),
                    )))
                }
            }
        }
        Some(Ok(if pats.len() == 1 {
            pats.remove(0)
        } else {
            syn::parse_quote!((#(#pats),*))
        }))
    }
}

/// A struct literal's fields as a tuple in declaration order; the fields
/// the literal does not give come from `rest` (`..base`), bound once.
fn tuple_of_fields(
    d: &StructDecl,
    parts: Vec<(syn::Member, syn::Expr)>,
    rest: Option<&syn::Expr>,
    span: proc_macro2::Span,
) -> syn::Result<syn::Expr> {
    let mut slots: Vec<Option<syn::Expr>> = vec![None; d.fields.len()];
    for (m, x) in parts {
        let k = d.position(&m).ok_or_else(|| no_field(d, &m))?;
        if slots[k].replace(x).is_some() {
            return Err(syn::Error::new(
                m.span(),
                format!("field `{}` is given twice", member_name(&m)),
            ));
        }
    }
    let base: syn::Ident = syn::Ident::new("__accel_struct_base", span);
    let mut elems = Vec::new();
    for (k, (slot, m)) in slots.into_iter().zip(&d.fields).enumerate() {
        match slot {
            Some(x) => elems.push(x),
            None if rest.is_some() => {
                let at = syn::Index::from(k);
                elems.push(if d.fields.len() == 1 {
                    syn::parse_quote!(#base)
                } else {
                    syn::parse_quote!(#base.#at)
                })
            }
            None => {
                return Err(syn::Error::new(
                    span,
                    format!("missing field `{}` in `{}`", member_name(m), d.name),
                ))
            }
        }
    }
    // Typed by a `let`, as Rust types a struct literal's fields by the
    // declaration: `0.0` in a field of type `f32` is an `f32`.
    let name = &d.name;
    let typed: syn::Ident = syn::Ident::new("__accel_struct", span);
    let tuple: syn::Expr = if elems.len() == 1 {
        let x = elems.remove(0);
        syn::parse_quote!((#x))
    } else {
        syn::parse_quote!((#(#elems),*))
    };
    Ok(match rest {
        Some(r) => syn::parse_quote!({ let #base = #r; let #typed: #name = #tuple; #typed }),
        None => syn::parse_quote!({ let #typed: #name = #tuple; #typed }),
    })
}

/// The first error that substitution left in `f` (as `compile_error!`, in
/// an expression or a pattern), for the front end to report at its span.
pub fn deferred_error(f: &syn::ItemFn) -> Option<syn::Error> {
    struct Find(Option<syn::Error>);
    impl<'a> syn::visit::Visit<'a> for Find {
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            if self.0.is_none() && m.path.segments.last().is_some_and(|s| s.ident == "compile_error") {
                let msg = m
                    .parse_body::<syn::LitStr>()
                    .map(|l| l.value())
                    .unwrap_or_default();
                self.0 = Some(syn::Error::new(m.span(), msg));
            }
        }
    }
    let mut find = Find(None);
    syn::visit::Visit::visit_item_fn(&mut find, f);
    find.0
}

fn member_name(m: &syn::Member) -> String {
    match m {
        syn::Member::Named(id) => id.to_string(),
        syn::Member::Unnamed(i) => i.index.to_string(),
    }
}

fn no_field(d: &StructDecl, m: &syn::Member) -> syn::Error {
    let names: Vec<String> = d.fields.iter().map(member_name).collect();
    syn::Error::new(
        m.span(),
        format!(
            "struct `{}` has no field `{}`; its fields: {}",
            d.name,
            member_name(m),
            names.join(", ")
        ),
    )
}

/// The single identifier a path is, if it is one.
fn single_ident(p: &syn::Path) -> Option<String> {
    (p.leading_colon.is_none() && p.segments.len() == 1 && p.segments[0].arguments.is_none())
        .then(|| p.segments[0].ident.to_string())
}

impl VisitMut for Subst<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let Some(t) = self.struct_literal(e) {
            *e = t;
            visit_mut::visit_expr_mut(self, e);
            return;
        }
        if let syn::Expr::Path(p) = e {
            if p.qself.is_none() {
                if let Some(v) = single_ident(&p.path).and_then(|n| self.0.consts.get(&n)) {
                    *e = v.clone();
                    return;
                }
            }
        }
        visit_mut::visit_expr_mut(self, e);
    }

    fn visit_pat_mut(&mut self, p: &mut syn::Pat) {
        match self.struct_pattern(p) {
            Some(Ok(q)) => *p = q,
            Some(Err(e)) => {
                let (msg, span) = (e.to_string(), e.span());
                *p = syn::parse_quote_spanned!(span=> ::core::compile_error!(#msg));
            }
            None => {}
        }
        visit_mut::visit_pat_mut(self, p);
    }

    fn visit_type_mut(&mut self, t: &mut syn::Type) {
        if let syn::Type::Path(p) = t {
            if p.qself.is_none() {
                if let Some(v) = single_ident(&p.path).and_then(|n| self.0.types.get(&n)) {
                    *t = v.clone();
                    if self.1 < 16 {
                        self.1 += 1;
                        self.visit_type_mut(t);
                        self.1 -= 1;
                    }
                    return;
                }
            }
        }
        visit_mut::visit_type_mut(self, t);
    }
}

/// `e` as a literal suffixed with `ty` (negated in parentheses for `-x`), if
/// it is a literal that type can hold.
fn typed_literal(e: &syn::Expr, ty: &str) -> Option<syn::Expr> {
    let float = ty.starts_with('f');
    match e {
        syn::Expr::Lit(l) => {
            let span = l.lit.span();
            let lit: syn::Lit = match &l.lit {
                syn::Lit::Bool(b) if ty == "bool" => syn::Lit::Bool(b.clone()),
                syn::Lit::Int(i) if !float && ty != "bool" && (i.suffix().is_empty() || i.suffix() == ty) => {
                    syn::Lit::Int(syn::LitInt::new(&format!("{}{ty}", i.base10_digits()), span))
                }
                syn::Lit::Float(x) if float && (x.suffix().is_empty() || x.suffix() == ty) => {
                    syn::Lit::Float(syn::LitFloat::new(&format!("{}{ty}", x.base10_digits()), span))
                }
                _ => return None,
            };
            Some(syn::parse_quote!(#lit))
        }
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) && !ty.starts_with('u') && ty != "bool" => {
            let inner = typed_literal(&u.expr, ty)?;
            Some(syn::parse_quote!((-#inner)))
        }
        syn::Expr::Paren(p) => typed_literal(&p.expr, ty),
        syn::Expr::Group(g) => typed_literal(&g.expr, ty),
        _ => None,
    }
}
