//! Shrinks a failing random program to a small one that still fails:
//! hierarchical delta debugging over the token trees of the function's body.
//! Each step tries, on every node of the tree, to delete it (a statement up to
//! its `;`, or one token tree), or to replace a group by one of the groups it
//! holds (`(if c { a } else { b })` by `{ a }`), and keeps the first change
//! after which the program still fails, until no change helps. Changes that
//! do not compile are rejected by the front end in microseconds, so this
//! needs no knowledge of the language.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use std::str::FromStr;

/// A token tree with its groups opened.
#[derive(Clone)]
enum Node {
    Leaf(TokenTree),
    Group(Delimiter, Vec<Node>),
}

fn nodes(ts: TokenStream) -> Vec<Node> {
    ts.into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => Node::Group(g.delimiter(), nodes(g.stream())),
            t => Node::Leaf(t),
        })
        .collect()
}

fn stream(ns: &[Node]) -> TokenStream {
    ns.iter()
        .map(|n| match n {
            Node::Leaf(t) => t.clone(),
            Node::Group(d, inner) => TokenTree::Group(Group::new(*d, stream(inner))),
        })
        .collect()
}

fn size(ns: &[Node]) -> usize {
    ns.iter()
        .map(|n| match n {
            Node::Leaf(_) => 1,
            Node::Group(_, inner) => 2 + size(inner),
        })
        .sum()
}

/// Every sequence of sibling nodes in the tree, by its path of child positions.
fn sequences(ns: &[Node], path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    out.push(path.clone());
    for (i, n) in ns.iter().enumerate() {
        if let Node::Group(_, inner) = n {
            path.push(i);
            sequences(inner, path, out);
            path.pop();
        }
    }
}

fn seq_mut<'a>(ns: &'a mut Vec<Node>, path: &[usize]) -> &'a mut Vec<Node> {
    match path.split_first() {
        None => ns,
        Some((i, rest)) => match &mut ns[*i] {
            Node::Group(_, inner) => seq_mut(inner, rest),
            Node::Leaf(_) => unreachable!("paths lead through groups"),
        },
    }
}

fn is_semi(n: &Node) -> bool {
    matches!(n, Node::Leaf(TokenTree::Punct(p)) if p.as_char() == ';')
}

/// The candidates of one sequence: statements removed, single nodes removed,
/// groups replaced by a group they hold (largest changes first).
fn candidates(seq: &[Node]) -> Vec<Vec<Node>> {
    let mut out = Vec::new();
    // Statements: from after one `;` to the next, inclusive.
    let mut start = 0;
    for (i, n) in seq.iter().enumerate() {
        if is_semi(n) {
            let mut c = seq.to_vec();
            c.drain(start..=i);
            out.push(c);
            start = i + 1;
        }
    }
    for i in 0..seq.len() {
        if let Node::Group(_, inner) = &seq[i] {
            for g in inner.iter().filter(|n| matches!(n, Node::Group(..))) {
                let mut c = seq.to_vec();
                c[i] = g.clone();
                out.push(c);
            }
            // The group's content in place of the group.
            let mut c = seq.to_vec();
            c.splice(i..=i, inner.iter().cloned());
            out.push(c);
        }
        let mut c = seq.to_vec();
        c.remove(i);
        out.push(c);
    }
    out
}

/// `source` (one function) shrunk while `fails` holds, within `budget`
/// calls of `fails`: the function's signature is kept, its body shrinks.
pub fn shrink(source: &str, mut fails: impl FnMut(&str) -> bool, budget: usize) -> String {
    let Ok(ts) = TokenStream::from_str(source) else {
        return source.to_string();
    };
    let mut tree = nodes(ts);
    // The body: the last brace group.
    let Some(body) = tree
        .iter()
        .rposition(|n| matches!(n, Node::Group(Delimiter::Brace, _)))
    else {
        return source.to_string();
    };
    let mut calls = 0;
    loop {
        let mut paths = Vec::new();
        sequences(std::slice::from_ref(&tree[body]), &mut Vec::new(), &mut paths);
        let mut improved = false;
        'search: for path in paths.iter().filter(|p| !p.is_empty()) {
            let mut root = vec![tree[body].clone()];
            let seq = seq_mut(&mut root, path).clone();
            for c in candidates(&seq) {
                if calls >= budget {
                    break 'search;
                }
                let mut next = vec![tree[body].clone()];
                *seq_mut(&mut next, path) = c;
                if size(&next) >= size(std::slice::from_ref(&tree[body])) {
                    continue;
                }
                let mut whole = tree.clone();
                whole[body] = next.remove(0);
                let text = stream(&whole).to_string();
                calls += 1;
                if fails(&text) {
                    tree = whole;
                    improved = true;
                    break 'search;
                }
            }
        }
        if !improved || calls >= budget {
            break;
        }
    }
    stream(&tree).to_string()
}
