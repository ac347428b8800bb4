//! `/graph <Symbol>`: where a symbol is defined, what it contains, what it extends or implements (and what
//! extends or implements it), who calls it and what it calls. Read from tree-sitter syntax, matched by name:
//! best effort, without type resolution.

use super::IndexError;
use super::relations::RelationKind;
use super::store::{RelationRow, Store};

/// Everything `/graph` shows about one name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Definitions matching the name: symbol path, file, line.
    pub definitions: Vec<RelationRow>,
    pub contains: Vec<RelationRow>,
    pub contained_in: Vec<RelationRow>,
    pub extends: Vec<RelationRow>,
    pub implements: Vec<RelationRow>,
    /// Types that extend or implement it.
    pub subtypes: Vec<RelationRow>,
    pub callers: Vec<RelationRow>,
    pub calls: Vec<RelationRow>,
}

impl Graph {
    /// Nothing is known about the name.
    pub fn is_empty(&self) -> bool {
        *self == Graph::default()
    }
}

/// The graph of `symbol` (a short name like `retry` or a path like `Client::retry`).
pub fn graph(store: &Store, symbol: &str) -> Result<Graph, IndexError> {
    let symbol = symbol.trim();
    let definitions = store.definitions_named(symbol)?;
    let short = symbol
        .rsplit([':', '.'])
        .next()
        .unwrap_or(symbol)
        .to_string();
    let mut names: Vec<String> = definitions.iter().map(|d| d.source.clone()).collect();
    names.push(short);
    names.push(symbol.to_string());
    names.dedup();
    let is_ours = |name: &str| names.iter().any(|n| n == name);
    let mut graph = Graph {
        definitions,
        ..Graph::default()
    };
    for row in store.relations_about(&names)? {
        let from_us = is_ours(&row.source);
        let to_us = is_ours(&row.target);
        let list = match row.kind {
            RelationKind::Defines => continue,
            RelationKind::Contains if from_us => &mut graph.contains,
            RelationKind::Contains if to_us => &mut graph.contained_in,
            RelationKind::Extends if from_us => &mut graph.extends,
            RelationKind::Implements if from_us => &mut graph.implements,
            RelationKind::Extends | RelationKind::Implements if to_us => &mut graph.subtypes,
            RelationKind::Calls if from_us => &mut graph.calls,
            RelationKind::Calls if to_us => &mut graph.callers,
            _ => continue,
        };
        if !list.contains(&row) {
            list.push(row);
        }
    }
    Ok(graph)
}
