//! Cuts a file into the chunks the index stores: one per function, method, type, class or impl (with its symbol
//! path and lines), the top-level text between them, Markdown sections, and line windows for other text. A long
//! chunk is split into windows that overlap, so no answer falls between two of them.

use std::path::Path;

use tree_sitter::{Node, Parser};

use super::language::{DefKind, FileKind};
use super::relations::{self, Relation, RelationKind};
use crate::languages::Language;

/// Lines of one window when a chunk is split, and lines two windows share.
const WINDOW_LINES: usize = 60;
const OVERLAP_LINES: usize = 8;
/// A chunk longer than this (in lines or chars) is split.
const MAX_CHUNK_LINES: usize = 90;
const MAX_CHUNK_CHARS: usize = 4000;

/// One piece of a file the index stores and ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Symbol path (`Client::retry` inside `src/net.rs` is `crate`, `net`, `Client`, `retry` joined by `::`), a Markdown heading, or the file's module or name.
    pub symbol: String,
    /// `function`, `method`, `class`, `impl`, `type`, `top-level`, `section`, `text`…
    pub kind: &'static str,
    /// 1-based, inclusive.
    pub start_line: usize,
    pub end_line: usize,
    pub text: String,
}

/// A file cut into chunks, with the relations `/graph` reads.
#[derive(Debug, Default)]
pub struct Parsed {
    pub chunks: Vec<Chunk>,
    pub relations: Vec<Relation>,
}

/// Chunks and relations of `text`, the content of `rel` (relative to the project root).
pub fn parse_file(rel: &Path, kind: FileKind, text: &str) -> Parsed {
    let lines: Vec<&str> = text.lines().collect();
    match kind {
        FileKind::Code(language) => parse_code(rel, language, text, &lines),
        FileKind::Markdown => Parsed {
            chunks: markdown_sections(rel, &lines),
            relations: Vec::new(),
        },
        FileKind::Text => {
            let mut chunks = Vec::new();
            push_windows(
                &mut chunks,
                &lines,
                &file_label(rel),
                "text",
                0,
                lines.len(),
            );
            Parsed {
                chunks,
                relations: Vec::new(),
            }
        }
    }
}

fn parse_code(rel: &Path, language: Language, text: &str, lines: &[&str]) -> Parsed {
    let mut parser = Parser::new();
    let tree = parser
        .set_language(&language.grammar())
        .ok()
        .and_then(|()| parser.parse(text, None));
    let mut walker = Walker {
        language,
        src: text,
        lines,
        covered: vec![false; lines.len()],
        parsed: Parsed::default(),
    };
    let module = module_path(rel, language);
    if let Some(tree) = &tree {
        walker.walk(tree.root_node(), &module, None);
    }
    walker.emit_gaps(&module, rel);
    let mut parsed = walker.parsed;
    parsed.chunks.sort_by_key(|c| (c.start_line, c.end_line));
    parsed
}

/// Walks a syntax tree, collecting chunks and relations.
struct Walker<'a> {
    language: Language,
    src: &'a str,
    lines: &'a [&'a str],
    /// Lines already inside a chunk; the rest becomes top-level chunks.
    covered: Vec<bool>,
    parsed: Parsed,
}

impl Walker<'_> {
    /// Visits the definitions under `node`; `parent` is the symbol of the container they are members of.
    fn walk(&mut self, node: Node<'_>, prefix: &[String], parent: Option<&str>) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            let def = self.language.definition(child.kind());
            match def.zip(self.name(child)) {
                Some((def, name)) => self.definition(child, def, name, prefix, parent),
                None => self.walk(child, prefix, parent),
            }
        }
    }

    fn definition(
        &mut self,
        node: Node<'_>,
        def: DefKind,
        name: String,
        prefix: &[String],
        parent: Option<&str>,
    ) {
        let mut path = prefix.to_vec();
        path.push(name.clone());
        let symbol = path.join(self.language.separator());
        let (start, end) = self.span(node);
        let line = start + 1;
        self.relate(RelationKind::Defines, &symbol, &name, line);
        if let Some(parent) = parent {
            self.relate(RelationKind::Contains, parent, &symbol, line);
        }
        for (kind, target) in relations::heritage(self.language, node, self.src) {
            self.relate(kind, &symbol, &target, line);
        }
        match def {
            DefKind::Leaf(label) => {
                for (callee, at) in relations::calls(self.language, node, self.src) {
                    self.relate(RelationKind::Calls, &symbol, &callee, at);
                }
                self.emit(&symbol, label, start, end);
            }
            DefKind::Container(label) => {
                let before = self.parsed.chunks.len();
                self.walk(node, &path, Some(&symbol));
                let first_member = self.parsed.chunks[before..]
                    .iter()
                    .map(|c| c.start_line - 1)
                    .min();
                match first_member {
                    None => self.emit(&symbol, label, start, end),
                    // The head of a container (its signature, fields, docs) is worth a chunk of its own when it
                    // is more than the opening line.
                    Some(member) if member > start + 1 => {
                        self.emit(&symbol, label, start, member - 1)
                    }
                    Some(_) => {}
                }
            }
        }
    }

    fn relate(&mut self, kind: RelationKind, from: &str, to: &str, line: usize) {
        self.parsed.relations.push(Relation {
            kind,
            from: from.to_string(),
            to: to.to_string(),
            line,
        });
    }

    /// 0-based first and last line of a definition, with its doc comments, attributes and decorators.
    fn span(&self, node: Node<'_>) -> (usize, usize) {
        let mut top = node;
        while let Some(parent) = top.parent() {
            if matches!(
                parent.kind(),
                "decorated_definition" | "template_declaration" | "export_statement"
            ) {
                top = parent;
            } else {
                break;
            }
        }
        let mut start = top.start_position().row;
        let mut previous = top.prev_named_sibling();
        while let Some(p) = previous {
            let kind = p.kind();
            let attached =
                kind.contains("comment") || kind == "attribute_item" || kind == "decorator";
            // A comment node may end at column 0 of the line after it (it holds its line break).
            let end = p.end_position();
            let last_row = if end.column == 0 {
                end.row.saturating_sub(1)
            } else {
                end.row
            };
            if !attached || last_row + 1 < start {
                break;
            }
            start = p.start_position().row;
            previous = p.prev_named_sibling();
        }
        let mut end = node.end_position().row;
        // A node ending at column 0 ends with the line break before it.
        if node.end_position().column == 0 && end > start {
            end -= 1;
        }
        (start, end.min(self.lines.len().saturating_sub(1)))
    }

    /// The name of a definition, or `None` when the node is not one after all (`mod foo;`, `struct x *p`).
    fn name(&self, node: Node<'_>) -> Option<String> {
        let text = |n: Node<'_>| self.src[n.byte_range()].trim().to_string();
        let field = |f: &str| node.child_by_field_name(f);
        let name = match (self.language, node.kind()) {
            (Language::Rust, "impl_item") => field("type").map(|t| strip_generics(&text(t))),
            (Language::Rust, "mod_item") => field("body").and(field("name")).map(text),
            (Language::C | Language::Cpp, "function_definition") => {
                declarator_name(field("declarator")?, self.src)
            }
            (Language::C | Language::Cpp, "type_definition") => field("declarator").map(text),
            (
                Language::C | Language::Cpp,
                "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier",
            ) => field("body").and(field("name")).map(text),
            (Language::Cpp, "namespace_definition") => {
                Some(field("name").map_or_else(|| "(anonymous)".to_string(), text))
            }
            (Language::Go, "method_declaration") => {
                let receiver = field("receiver").map(text).unwrap_or_default();
                let receiver_type = receiver
                    .trim_matches(|c| c == '(' || c == ')')
                    .split_whitespace()
                    .last()
                    .map(|t| strip_generics(t.trim_start_matches('*')));
                let name = field("name").map(text)?;
                Some(match receiver_type {
                    Some(t) if !t.is_empty() => format!("{t}.{name}"),
                    _ => name,
                })
            }
            (Language::Go, "type_declaration") => {
                let mut cursor = node.walk();
                let spec = node
                    .named_children(&mut cursor)
                    .find(|c| matches!(c.kind(), "type_spec" | "type_alias"));
                spec.and_then(|s| s.child_by_field_name("name")).map(text)
            }
            (_, "lexical_declaration" | "variable_declaration") => {
                let mut cursor = node.walk();
                let declarator = node.named_children(&mut cursor).find(|d| {
                    d.child_by_field_name("value").is_some_and(|v| {
                        matches!(
                            v.kind(),
                            "arrow_function"
                                | "function_expression"
                                | "function"
                                | "generator_function"
                        )
                    })
                });
                declarator
                    .and_then(|d| d.child_by_field_name("name"))
                    .map(text)
            }
            _ => field("name").map(text),
        }?;
        (!name.is_empty()).then_some(name)
    }

    /// Records the chunk(s) for lines `start..=end` (0-based) and marks them covered.
    fn emit(&mut self, symbol: &str, kind: &'static str, start: usize, end: usize) {
        if start >= self.lines.len() || end < start {
            return;
        }
        for covered in &mut self.covered[start..=end] {
            *covered = true;
        }
        push_windows(
            &mut self.parsed.chunks,
            self.lines,
            symbol,
            kind,
            start,
            end + 1,
        );
    }

    /// Top-level text outside every definition (module docs, imports, constants, scripts) as chunks.
    fn emit_gaps(&mut self, module: &[String], rel: &Path) {
        let label = if module.is_empty() {
            file_label(rel)
        } else {
            module.join(self.language.separator())
        };
        let mut start = None;
        for i in 0..=self.lines.len() {
            let open = i < self.lines.len() && !self.covered[i];
            match (open, start) {
                (true, None) => start = Some(i),
                (false, Some(mut s)) => {
                    let mut e = i;
                    while s < e && self.lines[s].trim().is_empty() {
                        s += 1;
                    }
                    while e > s && self.lines[e - 1].trim().is_empty() {
                        e -= 1;
                    }
                    let i = e;
                    let meaningful = self.lines[s..i]
                        .iter()
                        .filter(|l| l.trim().len() > 2)
                        .count();
                    if meaningful >= 2 {
                        push_windows(
                            &mut self.parsed.chunks,
                            self.lines,
                            &label,
                            "top-level",
                            s,
                            i,
                        );
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
}

/// The name inside a C/C++ declarator: `*foo(int)` → `foo`, `Class::method` as written.
fn declarator_name(node: Node<'_>, src: &str) -> Option<String> {
    match node.kind() {
        "identifier"
        | "field_identifier"
        | "qualified_identifier"
        | "destructor_name"
        | "operator_name"
        | "type_identifier" => Some(src[node.byte_range()].to_string()),
        _ => declarator_name(node.child_by_field_name("declarator")?, src),
    }
}

fn strip_generics(name: &str) -> String {
    name.split('<').next().unwrap_or(name).trim().to_string()
}

/// The module path a file's definitions start from: `crate`, `net`, `client` for `src/net/client.rs`, the dotted
/// module for Python, nothing for languages whose definitions are named on their own.
fn module_path(rel: &Path, language: Language) -> Vec<String> {
    let parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    match language {
        Language::Rust => {
            let Some(src) = parts.iter().rposition(|p| p == "src") else {
                return parts.last().cloned().into_iter().collect();
            };
            let mut path = vec!["crate".to_string()];
            path.extend(parts[src + 1..].iter().cloned());
            if path.len() > 1
                && matches!(
                    path.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                )
            {
                path.pop();
            }
            path
        }
        Language::Python => {
            let mut path: Vec<String> = parts.into_iter().skip_while(|p| p == "src").collect();
            if path.last().is_some_and(|p| p == "__init__") {
                path.pop();
            }
            path
        }
        _ => Vec::new(),
    }
}

/// The file's path as written, for chunks with no better name.
fn file_label(rel: &Path) -> String {
    rel.to_string_lossy().replace('\\', "/")
}

/// Markdown cut at headings (outside code fences); a long section in windows.
fn markdown_sections(rel: &Path, lines: &[&str]) -> Vec<Chunk> {
    let mut chunks = Vec::new();
    let mut heading = file_label(rel);
    let mut start = 0;
    let mut fenced = false;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        }
        if !fenced && trimmed.starts_with('#') && i > start {
            push_windows(&mut chunks, lines, &heading, "section", start, i);
            start = i;
        }
        if !fenced && trimmed.starts_with('#') {
            heading = trimmed.trim_start_matches('#').trim().to_string();
        }
    }
    push_windows(&mut chunks, lines, &heading, "section", start, lines.len());
    chunks.retain(|c| !c.text.trim().is_empty());
    chunks
}

/// Pushes lines `start..end` (0-based, end exclusive) as one chunk, or as overlapping windows when long.
fn push_windows(
    chunks: &mut Vec<Chunk>,
    lines: &[&str],
    symbol: &str,
    kind: &'static str,
    start: usize,
    end: usize,
) {
    let end = end.min(lines.len());
    if start >= end {
        return;
    }
    let chars: usize = lines[start..end].iter().map(|l| l.len() + 1).sum();
    if end - start <= MAX_CHUNK_LINES && chars <= MAX_CHUNK_CHARS {
        chunks.push(chunk(lines, symbol, kind, start, end));
        return;
    }
    let mut from = start;
    loop {
        let mut to = from;
        let mut size = 0;
        while to < end
            && to - from < WINDOW_LINES
            && (size == 0 || size + lines[to].len() < MAX_CHUNK_CHARS)
        {
            size += lines[to].len() + 1;
            to += 1;
        }
        chunks.push(chunk(lines, symbol, kind, from, to));
        if to >= end {
            break;
        }
        from = (to.saturating_sub(OVERLAP_LINES)).max(from + 1);
    }
}

fn chunk(lines: &[&str], symbol: &str, kind: &'static str, start: usize, end: usize) -> Chunk {
    Chunk {
        symbol: symbol.to_string(),
        kind,
        start_line: start + 1,
        end_line: end,
        text: lines[start..end].join("\n"),
    }
}

#[cfg(test)]
mod tests;
