//! Line continuations joined before the line is parsed, as bash does: an unescaped backslash-newline disappears,
//! even inside a word (`r\⏎m` is `rm`), where the grammar would split the word in two. Two places keep it:
//! comments (a comment ends at its newline, so joining would hide the next line inside it) and the bodies of
//! here-documents whose delimiter is quoted (bash reads those literally, so joining could hide the terminator
//! and whatever follows it inside the body).

use std::borrow::Cow;
use std::ops::Range;

use tree_sitter::{Node, Parser};

/// `line` with its line continuations joined.
pub fn join(line: &str) -> Cow<'_, str> {
    if !line.contains("\\\n") {
        return Cow::Borrowed(line);
    }
    let kept = literal_ranges(line);
    let mut out = String::with_capacity(line.len());
    // Length of the run of backslashes just pushed outside kept ranges: an odd run ends in an unescaped one.
    let mut run = 0usize;
    for (i, c) in line.char_indices() {
        let in_kept = kept.iter().any(|r| r.contains(&i));
        if c == '\n' && run % 2 == 1 && !in_kept {
            out.pop();
            run = 0;
            continue;
        }
        run = if c == '\\' && !in_kept { run + 1 } else { 0 };
        out.push(c);
    }
    Cow::Owned(out)
}

/// Byte ranges where a backslash-newline stays: comments and quoted here-document bodies.
fn literal_ranges(line: &str) -> Vec<Range<usize>> {
    let mut parser = Parser::new();
    let tree = parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .ok()
        .and_then(|()| parser.parse(line, None));
    let mut out = Vec::new();
    if let Some(tree) = tree {
        collect(tree.root_node(), line, &mut out, 0);
    }
    out
}

fn collect(node: Node, src: &str, out: &mut Vec<Range<usize>>, depth: usize) {
    // Deep enough for any real line; the parse that follows marks a deeper one incomplete anyway.
    if depth > 200 {
        return;
    }
    match node.kind() {
        "comment" => out.push(node.byte_range()),
        "heredoc_redirect" if quoted_delimiter(node, src) => {
            let mut cursor = node.walk();
            out.extend(
                node.children(&mut cursor)
                    .filter(|c| c.kind() == "heredoc_body")
                    .map(|b| b.byte_range()),
            );
        }
        _ => {}
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect(child, src, out, depth + 1);
    }
}

/// `<<'EOF'`, `<<"EOF"`, `<<\EOF`: the body is read literally.
fn quoted_delimiter(node: Node, src: &str) -> bool {
    let mut cursor = node.walk();
    let start = node
        .children(&mut cursor)
        .find(|c| c.kind() == "heredoc_start");
    start
        .and_then(|s| src.get(s.byte_range()))
        .is_some_and(|t| t.contains(['\'', '"', '\\']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_continuation_is_joined_inside_a_word_and_between_words() {
        assert_eq!(join("r\\\nm -rf x"), "rm -rf x");
        assert_eq!(
            join("cargo build \\\n  --release"),
            "cargo build   --release"
        );
        assert_eq!(join("echo \"a\\\nb\""), "echo \"ab\"");
    }

    #[test]
    fn an_escaped_backslash_before_a_newline_is_not_a_continuation() {
        assert_eq!(join("echo a\\\\\nls"), "echo a\\\\\nls");
        assert_eq!(join("echo a\\\\\\\nb"), "echo a\\\\b");
    }

    #[test]
    fn comments_and_quoted_heredoc_bodies_keep_it() {
        assert_eq!(join("ls # note \\\nrm x"), "ls # note \\\nrm x");
        let quoted = "cat <<'EOF'\nfoo\\\nEOF\nrm -rf x\nEOF\n";
        assert_eq!(join(quoted), quoted);
        assert_eq!(
            join("cat <<EOF\nfoo\\\nbar\nEOF\n"),
            "cat <<EOF\nfoobar\nEOF\n"
        );
    }
}
