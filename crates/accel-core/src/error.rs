//! Compile-time errors: a message at a source span.

use proc_macro2::Span;
use std::fmt;

#[derive(Clone, Debug)]
pub struct CompileError {
    pub span: Span,
    pub message: String,
}

impl CompileError {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        CompileError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CompileError {}

impl From<syn::Error> for CompileError {
    fn from(e: syn::Error) -> Self {
        CompileError::new(e.span(), e.to_string())
    }
}

pub type CResult<T> = Result<T, CompileError>;

/// `Err(CompileError)` at `span`.
pub fn err<T>(span: Span, message: impl Into<String>) -> CResult<T> {
    Err(CompileError::new(span, message))
}
