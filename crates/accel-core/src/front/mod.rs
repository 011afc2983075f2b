//! Front end: Rust syntax (syn's AST, which serves as the surface AST) → typed IR.
//!
//! Lowering and type inference are one pass because the types flow from the
//! signature into closures: a closure's parameter types come from the array it
//! is applied to, and an unsuffixed literal takes the type its context expects
//! (as in Rust; otherwise `i32` or `f64`). Calls to other functions of the same
//! `acc!` block, and to closures bound with `let`, are inlined here.

mod block_items;
mod consts;
mod expr;
mod impl_block;
mod library;
mod matches;
mod ops;
mod random;
pub mod returned;
pub(crate) mod seq;
mod stencil;
mod stmt;
mod types;

pub use block_items::{
    field_members, method_fn_name, names_any, program_items, struct_decls, ProgramItems, StructDecl,
    MAX_STRUCT_FIELDS, METHOD_PREFIX, STRUCT_ATTR,
};
pub use impl_block::{impl_program, ImplProgram};
pub use library::LIBRARY_METHODS;
pub use ops::ARRAY_METHODS;
pub use seq::SEQ_METHODS;

/// The array operations called as functions.
pub const FREE_FUNCTIONS: &str = "generate, fill, iota, uniform, random_bits";
pub use types::lower_type;

use crate::error::{err, CResult, CompileError};
use crate::ir::{Arena, Ty, VarId, H};
use proc_macro2::Span;
use quote::ToTokens;
use std::rc::Rc;
use syn::spanned::Spanned;

/// One `#[acc]` function after lowering: parameters, body, result type.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub arena: Arena,
    pub params: Vec<Param>,
    pub body: H,
    pub result: Ty,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub var: VarId,
    pub ty: Ty,
    pub span: Span,
}

/// Parses source text holding one or more functions (what the macros see).
pub fn parse_source(source: &str) -> CResult<Vec<syn::ItemFn>> {
    let file: syn::File = syn::parse_str(source)?;
    let items = program_items(file.items);
    match items.errors.into_iter().next() {
        Some(e) => Err(e.into()),
        None => Ok(items.fns),
    }
}

/// A function's parameters (name, type, span) and result type.
pub type Signature = (Vec<(String, Ty, Span)>, Ty);

/// Checks the signature of `f` without lowering its body.
pub fn signature(f: &syn::ItemFn) -> CResult<Signature> {
    let sig = &f.sig;
    if let Some(g) = sig.generics.params.first() {
        return err(
            g.span(),
            "accel functions cannot be generic: element types are fixed at build time",
        );
    }
    if let Some(a) = &sig.asyncness {
        return err(a.span(), "accel functions cannot be async");
    }
    if let Some(u) = &sig.unsafety {
        return err(u.span(), "accel functions need no `unsafe`");
    }
    let mut params = Vec::new();
    for input in &sig.inputs {
        let syn::FnArg::Typed(pt) = input else {
            return err(input.span(), "accel functions cannot take `self`");
        };
        let name = match &*pt.pat {
            syn::Pat::Ident(pi) if pi.subpat.is_none() && pi.by_ref.is_none() => {
                if pi.mutability.is_some() {
                    return err(pi.span(), "parameters of accel functions cannot be `mut`");
                }
                pi.ident.to_string()
            }
            other => {
                return err(
                    other.span(),
                    "parameters must be plain names (`xs: &Vector<f32>`)",
                )
            }
        };
        let ty = lower_type(&pt.ty)?;
        if let (Ty::Seq(_), syn::Type::Reference(r)) = (&ty, &*pt.ty) {
            return err(
                r.span(),
                format!("a sequence is passed by value (the program consumes it): write `{ty}`, not `&{ty}`"),
            );
        }
        if !(ty.is_array() || ty.is_elem() || matches!(ty, Ty::Seq(_))) {
            return err(
                pt.ty.span(),
                "parameters are arrays or scalars (primitives or tuples of them)",
            );
        }
        params.push((name, ty, pt.span()));
    }
    let result = match &sig.output {
        syn::ReturnType::Default => {
            return err(
                sig.ident.span(),
                "accel functions must return a value (an array, a scalar, or a tuple of arrays)",
            )
        }
        syn::ReturnType::Type(_, t) => {
            if let Some(r) = reference_in(t) {
                let owned = match lower_type(&r.elem) {
                    Ok(ty) => ty.to_string(),
                    Err(_) => r.elem.to_token_stream().to_string(),
                };
                return err(
                    r.span(),
                    format!(
                        "results are returned by value (the program makes new arrays): write `{owned}`, not `&{owned}`"
                    ),
                );
            }
            let ty = lower_type(t)?;
            let ok = matches!(&ty, Ty::Seq(e) if e.is_array())
                || ty.is_array()
                || ty.is_elem()
                || matches!(&ty, Ty::Tuple(ts) if !ts.is_empty() && ts.iter().all(Ty::is_array));
            if !ok {
                return err(
                    t.span(),
                    "the result must be an array, a scalar, or a tuple of arrays",
                );
            }
            ty
        }
    };
    Ok((params, result))
}

/// Lowers function `fns[which]`, inlining calls to the others.
pub fn lower_program(fns: &[syn::ItemFn], which: usize) -> CResult<Program> {
    let f = &fns[which];
    if let Some(e) = block_items::deferred_error(f) {
        return Err(e.into());
    }
    let (sig_params, result) = signature(f)?;
    let mut lw = Lowerer {
        fns,
        structs: Rc::new(StructTable::of(f)?),
        arena: Arena::default(),
        scope: Vec::new(),
        calls: vec![],
        closure_depth: 0,
        closure_base: 0,
        element_program: false,
    };
    let mut params = Vec::new();
    for (name, ty, span) in sig_params {
        let var = lw.arena.new_var(&name, ty.clone());
        lw.bind(&name, var, false);
        params.push(Param { name, var, ty, span });
    }
    lw.calls.push(f.sig.ident.to_string());
    let body = lw.block(&f.block, Some(&result))?;
    lw.expect_ty(body, &result, f.block.span())?;
    Ok(Program {
        name: f.sig.ident.to_string(),
        arena: lw.arena,
        params,
        body,
        result,
    })
}

/// A name in scope.
#[derive(Clone)]
pub(crate) struct Binding {
    name: String,
    kind: BindingKind,
    mutable: bool,
    /// The declaration this binding belongs to: an assignment rebinds the name
    /// with the declaration of the variable it assigns, a `let` starts a new one
    /// (which may shadow a variable that a loop or branch is assigning).
    decl: u32,
}

#[derive(Clone)]
pub(crate) enum BindingKind {
    Var(VarId),
    /// A closure bound with `let`: lowered afresh at each use, in the scope it was
    /// defined in, with the argument types of that use.
    Closure(Rc<(syn::ExprClosure, Vec<Binding>)>),
    /// `let a = 0.5;`: an unsuffixed literal takes its type at each use, as
    /// Rust would infer it from the uses.
    Literal(Rc<syn::Expr>),
}

pub(crate) struct Lowerer<'a> {
    fns: &'a [syn::ItemFn],
    /// The program's structs, for field access.
    structs: Rc<StructTable>,
    pub(crate) arena: Arena,
    scope: Vec<Binding>,
    /// Functions being inlined, to reject recursion.
    calls: Vec<String>,
    /// > 0 inside a scalar closure, where array operations are not allowed.
    closure_depth: usize,
    /// Scope entries below this index belong outside the innermost closure:
    /// the closure may read them but not assign them.
    closure_base: usize,
    /// The next closure lowered is a sequence's per-element program (array
    /// code), not an element function.
    element_program: bool,
}

impl Lowerer<'_> {
    fn bind(&mut self, name: &str, var: VarId, mutable: bool) {
        self.scope.push(Binding {
            name: name.to_string(),
            kind: BindingKind::Var(var),
            mutable,
            decl: var.0,
        });
    }

    /// Binds `name` to `var`, the new value of the mutable variable `name` now
    /// refers to (the same declaration).
    fn bind_again(&mut self, name: &str, var: VarId) {
        let decl = self.lookup(name).map_or(var.0, |b| b.decl);
        self.scope.push(Binding {
            name: name.to_string(),
            kind: BindingKind::Var(var),
            mutable: true,
            decl,
        });
    }

    /// The declarations `names` refer to now.
    fn decls(&self, names: &[String]) -> Vec<u32> {
        names
            .iter()
            .map(|n| self.lookup(n).map_or(u32::MAX, |b| b.decl))
            .collect()
    }

    fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scope.iter().rev().find(|b| b.name == name)
    }

    /// `Err` unless `h` has type `want`.
    fn expect_ty(&self, h: H, want: &Ty, span: Span) -> CResult<()> {
        let got = self.arena.ty(h);
        if got != want {
            return err(span, mismatch(want, got));
        }
        Ok(())
    }

    fn array_ty(&self, h: H, span: Span, what: &str) -> CResult<(Ty, usize)> {
        match self.arena.ty(h) {
            Ty::Array(e, r) => Ok(((**e).clone(), *r)),
            other => err(span, format!("{what} expects an array, found `{other}`")),
        }
    }

    fn new_error(span: Span, message: impl Into<String>) -> CompileError {
        CompileError::new(span, message)
    }
}

/// The structs of a program (`block_items::StructDecl`), with the types
/// they stand for lowered.
#[derive(Default)]
pub(crate) struct StructTable(Vec<(StructDecl, Ty)>);

impl StructTable {
    fn of(f: &syn::ItemFn) -> CResult<StructTable> {
        let mut table = Vec::new();
        for d in struct_decls(f)? {
            let t = lower_type(&d.repr)?;
            table.push((d, t));
        }
        Ok(StructTable(table))
    }

    /// The function that method `name` of a struct of type `ty` compiles
    /// as, if one of the program's structs of that type has it.
    pub(crate) fn method(&self, ty: &Ty, name: &str, fns: &[syn::ItemFn]) -> Option<String> {
        self.0
            .iter()
            .filter(|(_, t)| t == ty)
            .map(|(d, _)| block_items::method_fn_name(&d.name.to_string(), name))
            .find(|f| fns.iter().any(|g| g.sig.ident == f))
    }

    /// Field `m` of a value of type `ty`: its position and the struct's
    /// number of fields, or the error to report.
    pub(crate) fn field(&self, ty: &Ty, m: &syn::Member) -> Result<(usize, usize), String> {
        let name = match m {
            syn::Member::Named(id) => id.to_string(),
            syn::Member::Unnamed(i) => i.index.to_string(),
        };
        let having: Vec<&(StructDecl, Ty)> = self.0.iter().filter(|(d, _)| d.fields.contains(m)).collect();
        let fitting: Vec<&(StructDecl, Ty)> = having.iter().copied().filter(|(_, t)| t == ty).collect();
        let position = |d: &StructDecl| d.fields.iter().position(|f| f == m).unwrap_or(0);
        match fitting.as_slice() {
            [] if having.is_empty() => match self.0.iter().find(|(_, t)| t == ty) {
                Some((d, _)) => {
                    let names: Vec<String> = d.fields.iter().map(|f| f.to_token_stream().to_string()).collect();
                    Err(format!(
                        "no field `{name}` on `{}` (`{ty}`); its fields: {}",
                        d.name,
                        names.join(", ")
                    ))
                }
                None => Err(format!(
                "no field `{name}` on `{ty}`: tuples have `.0`, `.1`, ..\nhelp: a program sees the fields of the \
                 structs declared with it (in its `accel!` block or `#[acc] mod`, with `#[derive(accel::Elem)]`)"
                )),
            },
            [] => {
                let names: Vec<String> = having.iter().map(|(d, t)| format!("`{}` (`{t}`)", d.name)).collect();
                Err(format!(
                    "`.{name}` needs a value of {}, found `{ty}`",
                    names.join(" or ")
                ))
            }
            [(d, _), rest @ ..] => match rest.iter().find(|(e, _)| position(e) != position(d)) {
                Some((e, _)) => Err(format!(
                    "`.{name}` is ambiguous: structs `{}` and `{}` are both `{ty}` to accel, with `{name}` at \
                     different places; name the fields apart",
                    d.name, e.name
                )),
                None => Ok((position(d), d.fields.len())),
            },
        }
    }
}

/// A reference in result type `t` (at the top or in a tuple), if any.
fn reference_in(t: &syn::Type) -> Option<&syn::TypeReference> {
    match t {
        syn::Type::Reference(r) => Some(r),
        syn::Type::Paren(p) => reference_in(&p.elem),
        syn::Type::Group(g) => reference_in(&g.elem),
        syn::Type::Tuple(tt) => tt.elems.iter().find_map(reference_in),
        _ => None,
    }
}

/// "mismatched types", with the fix when a `Scalar` stands where its element
/// is wanted (`x / s` for `s = xs.sum()`).
pub(crate) fn mismatch(want: &Ty, got: &Ty) -> String {
    let mut m = format!("mismatched types: expected `{want}`, found `{got}`");
    if matches!(got, Ty::Array(e, 0) if **e == *want) {
        m += "\nhelp: a `Scalar` is an array of rank 0: read its element with `.value()`";
    }
    m
}
