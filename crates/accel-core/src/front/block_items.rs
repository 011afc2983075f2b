//! The items of an accel program (an `accel! { .. }` block, an `#[acc]`
//! function, a source text): its functions, and the constants and type
//! aliases they use, which stay Rust items and are substituted into the
//! functions before they compile, so that the compiler sees literals and the
//! types themselves. The macro, `compile_source` and the tools that read
//! programs from the repository all go through [`program_items`].
//!
//! A constant must be a literal (or a negated one) of a primitive type:
//! `const N: usize = 16;`, `const ALPHA: f32 = -1.5;`. A name that is a
//! constant in scope cannot be rebound by a `let` or a closure parameter in
//! Rust (it would be a pattern), so replacing every use of the name by its
//! value keeps the meaning.

use std::collections::HashMap;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};

const PRIMS: [&str; 13] = [
    "bool", "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
];

/// A program's items, sorted.
pub struct ProgramItems {
    /// The functions, with constants and aliases substituted.
    pub fns: Vec<syn::ItemFn>,
    /// The constants and type aliases, to emit as they were written.
    pub kept: Vec<syn::Item>,
    /// One per item that is none of these, or a constant or alias that
    /// cannot be substituted.
    pub errors: Vec<syn::Error>,
}

/// Sorts `items` into functions, constants and aliases, and errors.
pub fn program_items(items: Vec<syn::Item>) -> ProgramItems {
    let mut subst = BlockItems::default();
    let (mut fns, mut kept, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    for it in items {
        let taken = match &it {
            syn::Item::Fn(f) => {
                fns.push(f.clone());
                continue;
            }
            syn::Item::Const(c) => subst.add_const(c),
            syn::Item::Type(t) => subst.add_type(t),
            other => Err(syn::Error::new(
                other.span(),
                "an accel program holds functions, and constants and type aliases they use",
            )),
        };
        match taken {
            Ok(()) => kept.push(it),
            Err(e) => errors.push(e),
        }
    }
    let fns = fns.iter().map(|f| subst.substitute(f)).collect();
    ProgramItems { fns, kept, errors }
}

#[derive(Default)]
struct BlockItems {
    consts: HashMap<String, syn::Expr>,
    types: HashMap<String, syn::Type>,
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
        self.visit_type_mut(&mut ty);
        self.types.insert(t.ident.to_string(), ty);
        Ok(())
    }

    /// `f` with every constant and type alias replaced by what it stands for.
    fn substitute(&self, f: &syn::ItemFn) -> syn::ItemFn {
        let mut f = f.clone();
        if !self.consts.is_empty() || !self.types.is_empty() {
            let mut s = Subst(self);
            s.visit_item_fn_mut(&mut f);
        }
        f
    }

    fn visit_type_mut(&self, t: &mut syn::Type) {
        Subst(self).visit_type_mut(t);
    }
}

struct Subst<'a>(&'a BlockItems);

/// The single identifier a path is, if it is one.
fn single_ident(p: &syn::Path) -> Option<String> {
    (p.leading_colon.is_none() && p.segments.len() == 1 && p.segments[0].arguments.is_none())
        .then(|| p.segments[0].ident.to_string())
}

impl VisitMut for Subst<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
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

    fn visit_type_mut(&mut self, t: &mut syn::Type) {
        if let syn::Type::Path(p) = t {
            if p.qself.is_none() {
                if let Some(v) = single_ident(&p.path).and_then(|n| self.0.types.get(&n)) {
                    *t = v.clone();
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
