//! What `/graph` knows, read from the same syntax trees the chunker walks: definitions, what a container holds,
//! what a type extends or implements, and the names a function calls. Best effort: names are matched as written,
//! without type resolution.

use tree_sitter::Node;

use crate::languages::Language;

/// How two symbols are related.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelationKind {
    /// `from` is defined here (`to` is its short name).
    Defines,
    /// The container `from` holds the definition `to`.
    Contains,
    /// `from` extends `to` (a superclass, supertrait or base class).
    Extends,
    /// `from` implements `to` (an interface or trait).
    Implements,
    /// The function `from` calls something named `to`.
    Calls,
}

impl RelationKind {
    /// The name stored in the index.
    pub fn name(self) -> &'static str {
        match self {
            RelationKind::Defines => "defines",
            RelationKind::Contains => "contains",
            RelationKind::Extends => "extends",
            RelationKind::Implements => "implements",
            RelationKind::Calls => "calls",
        }
    }

    /// The kind stored as `name`.
    pub fn parse(name: &str) -> Option<RelationKind> {
        [
            RelationKind::Defines,
            RelationKind::Contains,
            RelationKind::Extends,
            RelationKind::Implements,
            RelationKind::Calls,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// One relation found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    pub kind: RelationKind,
    /// The symbol path it starts from (`Client::retry` with its module path in front).
    pub from: String,
    /// A symbol path (`contains`) or a name as written (`extends`, `implements`, `calls`, `defines`).
    pub to: String,
    /// 1-based line where it is written.
    pub line: usize,
}

/// Calls recorded per function at most: a generated giant must not flood the table.
const MAX_CALLS_PER_DEFINITION: usize = 200;

/// The heritage of the type definition `node`: `(kind, name)` pairs.
pub fn heritage(language: Language, node: Node<'_>, src: &str) -> Vec<(RelationKind, String)> {
    let mut found = Vec::new();
    let mut add = |kind: RelationKind, of: Option<Node<'_>>| {
        if let Some(of) = of {
            for name in type_names(of, src) {
                found.push((kind, name));
            }
        }
    };
    match (language, node.kind()) {
        (Language::Rust, "impl_item") => {
            add(RelationKind::Implements, node.child_by_field_name("trait"))
        }
        (Language::Rust, "trait_item") => {
            add(RelationKind::Extends, node.child_by_field_name("bounds"))
        }
        (Language::Java, _) => {
            add(
                RelationKind::Extends,
                node.child_by_field_name("superclass"),
            );
            add(
                RelationKind::Implements,
                node.child_by_field_name("interfaces"),
            );
            add(
                RelationKind::Extends,
                named_child_of_kind(node, "extends_interfaces"),
            );
        }
        (Language::Python, _) => add(
            RelationKind::Extends,
            node.child_by_field_name("superclasses"),
        ),
        (Language::JavaScript | Language::TypeScript | Language::Tsx, _) => {
            if let Some(heritage) = named_child_of_kind(node, "class_heritage") {
                let extends = named_child_of_kind(heritage, "extends_clause");
                let implements = named_child_of_kind(heritage, "implements_clause");
                if extends.is_none() && implements.is_none() {
                    add(RelationKind::Extends, Some(heritage));
                }
                add(RelationKind::Extends, extends);
                add(RelationKind::Implements, implements);
            }
            add(
                RelationKind::Extends,
                named_child_of_kind(node, "extends_type_clause"),
            );
        }
        (Language::Cpp, _) => add(
            RelationKind::Extends,
            named_child_of_kind(node, "base_class_clause"),
        ),
        _ => {}
    }
    found
}

/// The names the definition `node` calls, each once, with the line of its first call.
pub fn calls(language: Language, node: Node<'_>, src: &str) -> Vec<(String, usize)> {
    let mut found: Vec<(String, usize)> = Vec::new();
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(current) = stack.pop() {
        if found.len() >= MAX_CALLS_PER_DEFINITION {
            break;
        }
        if language.is_call(current.kind()) {
            let callee = ["function", "name", "macro", "constructor", "type"]
                .iter()
                .find_map(|field| current.child_by_field_name(field));
            if let Some(name) = callee.and_then(|c| last_segment(&src[c.byte_range()]))
                && !found.iter().any(|(n, _)| *n == name)
            {
                found.push((name, current.start_position().row + 1));
            }
        }
        stack.extend(current.named_children(&mut cursor));
    }
    found
}

/// The last identifier of a callee as written: `self.client.retry` → `retry`, `Foo::new::<T>` → `new`.
pub fn last_segment(text: &str) -> Option<String> {
    let text = text.split('<').next().unwrap_or(text);
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .rfind(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
        .map(str::to_string)
}

/// Node kinds that name a type as written.
const NAMES: &[&str] = &[
    "type_identifier",
    "identifier",
    "scoped_type_identifier",
    "scoped_identifier",
    "qualified_identifier",
    "attribute",
    "member_expression",
    "nested_type_identifier",
];

/// The type names a heritage clause (or a type name itself) holds, generics dropped (`Base<T>` → `Base`).
fn type_names(node: Node<'_>, src: &str) -> Vec<String> {
    if NAMES.contains(&node.kind()) {
        return vec![src[node.byte_range()].trim().to_string()];
    }
    if node.kind() == "generic_type" {
        return node
            .named_child(0)
            .map(|base| type_names(base, src))
            .unwrap_or_default();
    }
    let mut names = Vec::new();
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.kind() {
            kind if NAMES.contains(&kind) => {
                names.push(src[child.byte_range()].trim().to_string());
            }
            "generic_type" => {
                if let Some(base) = child.named_child(0) {
                    names.push(src[base.byte_range()].trim().to_string());
                }
            }
            "keyword_argument" | "lifetime" | "type_arguments" | "comment" | "access_specifier" => {
            }
            _ => names.extend(type_names(child, src)),
        }
    }
    names
}

fn named_child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind() == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callee_names_keep_their_last_segment() {
        assert_eq!(last_segment("self.client.retry").as_deref(), Some("retry"));
        assert_eq!(last_segment("Foo::new::<T>").as_deref(), Some("new"));
        assert_eq!(last_segment("println").as_deref(), Some("println"));
        assert_eq!(last_segment("(*f)").as_deref(), Some("f"));
        assert_eq!(last_segment("()"), None);
    }
}
