#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use super::*;

/// `(symbol, kind, start, end)` of each chunk.
fn outline(path: &str, text: &str) -> Vec<(String, &'static str, usize, usize)> {
    let kind = FileKind::of(Path::new(path)).unwrap();
    parse_file(Path::new(path), kind, text)
        .chunks
        .into_iter()
        .map(|c| (c.symbol, c.kind, c.start_line, c.end_line))
        .collect()
}

fn owned(
    items: &[(&str, &'static str, usize, usize)],
) -> Vec<(String, &'static str, usize, usize)> {
    items
        .iter()
        .map(|(s, k, a, b)| (s.to_string(), *k, *a, *b))
        .collect()
}

#[test]
fn rust_chunks_carry_module_paths_docs_and_impl_members() {
    let text = "\
//! Network client.
use std::io;

/// A client.
pub struct Client {
    retries: u32,
}

impl Client {
    /// Retries a failed upload.
    pub fn retry(&self) -> io::Result<()> {
        self.send()
    }

    fn send(&self) -> io::Result<()> {
        Ok(())
    }
}

mod helpers;
";
    assert_eq!(
        outline("src/net.rs", text),
        owned(&[
            ("crate::net", "top-level", 1, 2),
            ("crate::net::Client", "type", 4, 7),
            ("crate::net::Client::retry", "function", 10, 13),
            ("crate::net::Client::send", "function", 15, 17),
        ])
    );
}

#[test]
fn python_classes_methods_and_decorators() {
    let text = "\
import os

class Uploader(Base):
    \"\"\"Uploads files.\"\"\"
    limit = 3

    @retrying
    def upload(self, path):
        return os.path.exists(path)

def main():
    Uploader().upload('x')
";
    assert_eq!(
        outline("pkg/up.py", text),
        owned(&[
            ("pkg.up.Uploader", "class", 3, 6),
            ("pkg.up.Uploader.upload", "function", 7, 9),
            ("pkg.up.main", "function", 11, 12),
        ])
    );
}

#[test]
fn java_javascript_typescript_go_c_and_cpp_definitions() {
    let java = "class A extends B implements C {\n  int x;\n  void f() {\n    g();\n  }\n}\n";
    assert_eq!(
        outline("A.java", java),
        owned(&[("A", "class", 1, 2), ("A.f", "method", 3, 5)])
    );
    let js =
        "const h = () => 1;\nexport function f() {\n  return h();\n}\nclass K {\n  m() {}\n}\n";
    assert_eq!(
        outline("a.js", js),
        owned(&[
            ("h", "function", 1, 1),
            ("f", "function", 2, 4),
            ("K.m", "method", 6, 6)
        ])
    );
    let ts = "interface P {\n  x: number;\n}\nfunction f(p: P): number {\n  return p.x;\n}\n";
    assert_eq!(
        outline("a.ts", ts),
        owned(&[("P", "type", 1, 3), ("f", "function", 4, 6)])
    );
    let go = "package main\n\ntype S struct {\n\tn int\n}\n\nfunc (s *S) Run() {\n}\n\nfunc main() {\n}\n";
    assert_eq!(
        outline("m.go", go),
        owned(&[
            ("S", "type", 3, 5),
            ("S.Run", "method", 7, 8),
            ("main", "function", 10, 11)
        ])
    );
    let c = "struct point {\n  int x;\n};\n\nstatic int *make(int n) {\n  return 0;\n}\n";
    assert_eq!(
        outline("p.c", c),
        owned(&[("point", "type", 1, 3), ("make", "function", 5, 7)])
    );
    let cpp = "namespace net {\nclass Client {\n public:\n  void retry() { send(); }\n};\n}\n";
    assert_eq!(
        outline("c.cpp", cpp),
        owned(&[
            ("net::Client", "class", 2, 3),
            ("net::Client::retry", "function", 4, 4)
        ])
    );
}

#[test]
fn a_long_function_is_split_into_overlapping_windows() {
    let body: String = (0..150).map(|i| format!("    let v{i} = {i};\n")).collect();
    let text = format!("fn long() {{\n{body}}}\n");
    let chunks = outline("src/lib.rs", &text);
    assert_eq!(
        chunks,
        owned(&[
            ("crate::long", "function", 1, 60),
            ("crate::long", "function", 53, 112),
            ("crate::long", "function", 105, 152),
        ])
    );
}

#[test]
fn markdown_is_cut_at_headings_but_not_inside_code_fences() {
    let text = "# Title\nintro\n\n## Install\n```sh\n# not a heading\n```\n## Use\nrun it\n";
    assert_eq!(
        outline("README.md", text),
        owned(&[
            ("Title", "section", 1, 3),
            ("Install", "section", 4, 7),
            ("Use", "section", 8, 9)
        ])
    );
}

#[test]
fn other_text_is_cut_into_line_windows() {
    let text: String = (0..100).map(|i| format!("key{i} = {i}\n")).collect();
    assert_eq!(
        outline("conf/app.toml", &text),
        owned(&[
            ("conf/app.toml", "text", 1, 60),
            ("conf/app.toml", "text", 53, 100),
        ])
    );
}

#[test]
fn relations_name_containers_heritage_and_calls() {
    let text = "trait Retry: Send {}\nstruct C;\nimpl Retry for C {\n    fn go(&self) { self.send(); helper::run(); }\n}\n";
    let parsed = parse_file(
        Path::new("src/lib.rs"),
        FileKind::of(Path::new("a.rs")).unwrap(),
        text,
    );
    let got: Vec<(&str, &str, &str)> = parsed
        .relations
        .iter()
        .filter(|r| r.kind != RelationKind::Defines)
        .map(|r| (r.kind.name(), r.from.as_str(), r.to.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("extends", "crate::Retry", "Send"),
            ("implements", "crate::C", "Retry"),
            ("contains", "crate::C", "crate::C::go"),
            ("calls", "crate::C::go", "run"),
            ("calls", "crate::C::go", "send"),
        ]
    );
}
