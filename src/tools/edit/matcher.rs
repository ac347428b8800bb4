//! The three-stage text matcher behind `edit_file` (spec §1.1).
//!
//! Tried in order, each a little more forgiving than the last:
//! 1. exact, counting overlapping occurrences; an LF-only snippet in a CRLF file is retried in CRLF;
//! 2. line-wise normalized: trailing whitespace dropped, each code point NFKC-folded, curly quotes, dashes and
//!    exotic spaces made plain; the match is mapped back to the original bytes;
//! 3. when every non-empty line of `old` carries a `read_file` line-number prefix, the prefixes are stripped and
//!    stages 1–2 run once more.
//!
//! `replace_all` uses exact, non-overlapping matches only: a fuzzy match applied everywhere is too easy to get wrong.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;

/// Which stage found the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Exact,
    /// Exact after converting an LF-only snippet to the file's CRLF line endings.
    Crlf,
    /// Matched after whitespace and Unicode normalization.
    Normalized,
    /// Matched after stripping `read_file` line-number prefixes.
    PrefixStripped,
}

/// A successful edit: the new content and how it was found.
#[derive(Debug, PartialEq, Eq)]
pub struct Edit {
    pub content: String,
    pub replacements: usize,
    pub stage: Stage,
}

/// Why no edit was made.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// No stage found `old`.
    #[error("old_text not found")]
    NotFound,
    /// `old` occurs more than once; `lines` holds up to three 1-based start lines.
    #[error("old_text matches {count} places")]
    Ambiguous { count: usize, lines: Vec<usize> },
}

/// Replaces `old` with `new` in `content` using the stages above.
pub fn apply_edit(
    content: &str,
    old: &str,
    new: &str,
    replace_all: bool,
) -> Result<Edit, MatchError> {
    if old.is_empty() {
        return Err(MatchError::NotFound);
    }
    if replace_all {
        return replace_every(content, old, new);
    }
    let original = match replace_once(content, old, new) {
        Err(MatchError::NotFound) => MatchError::NotFound,
        found => return found,
    };
    let Some(stripped_old) = strip_prefixes(old).filter(|o| !o.trim().is_empty()) else {
        return Err(original);
    };
    let stripped_new = strip_prefixes(new).unwrap_or_else(|| new.to_string());
    match replace_once(content, &stripped_old, &stripped_new) {
        Ok(edit) => Ok(Edit {
            stage: Stage::PrefixStripped,
            ..edit
        }),
        Err(_) => Err(original),
    }
}

/// Stages 1 and 2 for a single replacement.
fn replace_once(content: &str, old: &str, new: &str) -> Result<Edit, MatchError> {
    if let Some(at) = unique(content, find_overlapping(content, old))? {
        return Ok(splice(content, at..at + old.len(), new, Stage::Exact));
    }
    if let Some((old_crlf, new_crlf)) = crlf_variant(content, old, new) {
        let starts = find_overlapping(content, &old_crlf);
        if let Some(at) = unique(content, starts)? {
            return Ok(splice(
                content,
                at..at + old_crlf.len(),
                &new_crlf,
                Stage::Crlf,
            ));
        }
    }
    let ranges = find_normalized(content, old);
    let starts = ranges.iter().map(|r| r.start).collect();
    if unique(content, starts)?.is_some() {
        let new = if content.contains("\r\n") {
            to_crlf(new)
        } else {
            new.to_string()
        };
        return Ok(splice(content, ranges[0].clone(), &new, Stage::Normalized));
    }
    Err(MatchError::NotFound)
}

/// `replace_all`: every exact, non-overlapping occurrence (in CRLF when the snippet needs it).
fn replace_every(content: &str, old: &str, new: &str) -> Result<Edit, MatchError> {
    let count = content.matches(old).count();
    if count > 0 {
        return Ok(Edit {
            content: content.replace(old, new),
            replacements: count,
            stage: Stage::Exact,
        });
    }
    let (old_crlf, new_crlf) = crlf_variant(content, old, new).ok_or(MatchError::NotFound)?;
    match content.matches(old_crlf.as_str()).count() {
        0 => Err(MatchError::NotFound),
        count => Ok(Edit {
            content: content.replace(&old_crlf, &new_crlf),
            replacements: count,
            stage: Stage::Crlf,
        }),
    }
}

/// One start → `Some`, none → `None`, several → `Ambiguous` with up to three start lines.
fn unique(content: &str, starts: Vec<usize>) -> Result<Option<usize>, MatchError> {
    match starts.as_slice() {
        [] => Ok(None),
        [at] => Ok(Some(*at)),
        _ => Err(MatchError::Ambiguous {
            count: starts.len(),
            lines: starts
                .iter()
                .take(3)
                .map(|&at| line_of(content, at))
                .collect(),
        }),
    }
}

/// Start offsets of every occurrence, overlapping ones included (`aa` occurs twice in `aaa`).
fn find_overlapping(haystack: &str, needle: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(found) = haystack.get(from..).and_then(|rest| rest.find(needle)) {
        let at = from + found;
        starts.push(at);
        from = at + haystack[at..].chars().next().map_or(1, char::len_utf8);
    }
    starts
}

/// The snippet and replacement in CRLF, when the file uses CRLF and the snippet is LF-only.
fn crlf_variant(content: &str, old: &str, new: &str) -> Option<(String, String)> {
    let applies = content.contains("\r\n") && old.contains('\n') && !old.contains("\r\n");
    applies.then(|| (to_crlf(old), to_crlf(new)))
}

fn to_crlf(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\n', "\r\n")
}

fn splice(content: &str, range: Range<usize>, new: &str, stage: Stage) -> Edit {
    let mut out = String::with_capacity(content.len() + new.len());
    out.push_str(&content[..range.start]);
    out.push_str(new);
    out.push_str(&content[range.end..]);
    Edit {
        content: out,
        replacements: 1,
        stage,
    }
}

/// The 1-based line holding byte `at`.
fn line_of(content: &str, at: usize) -> usize {
    content[..at].matches('\n').count() + 1
}

/// Stage 2: original byte ranges whose normalized form equals the normalized snippet.
///
/// A match that starts or ends inside the expansion of one original character (`ﬁ` → `fi`) is rejected: it
/// cannot be mapped back to whole original characters.
fn find_normalized(content: &str, old: &str) -> Vec<Range<usize>> {
    let needle = normalize(old).text;
    if needle.trim().is_empty() {
        return Vec::new();
    }
    let hay = normalize(content);
    find_overlapping(&hay.text, &needle)
        .into_iter()
        .filter_map(|start| hay.original_range(start..start + needle.len()))
        .collect()
}

/// Normalized text with, for each of its bytes, where it came from in the original.
#[derive(Default)]
struct Normalized {
    text: String,
    /// Original byte range of the character each normalized byte came from.
    origin: Vec<Range<usize>>,
    /// True where a normalized byte begins an original character's expansion.
    starts_glyph: Vec<bool>,
}

impl Normalized {
    fn push(&mut self, c: char, origin: Range<usize>, first: bool) {
        for i in 0..c.len_utf8() {
            self.origin.push(origin.clone());
            self.starts_glyph.push(first && i == 0);
        }
        self.text.push(c);
    }

    /// Drops trailing whitespace after `line_start` (the normalized offset where the current line began).
    fn trim_line_end(&mut self, line_start: usize) {
        let keep = line_start + self.text[line_start..].trim_end().len();
        self.text.truncate(keep);
        self.origin.truncate(keep);
        self.starts_glyph.truncate(keep);
    }

    /// Maps a normalized range back to the original, if it covers whole original characters.
    fn original_range(&self, range: Range<usize>) -> Option<Range<usize>> {
        let ends_on_glyph = range.end == self.text.len() || self.starts_glyph[range.end];
        if !self.starts_glyph[range.start] || !ends_on_glyph {
            return None;
        }
        Some(self.origin[range.start].start..self.origin[range.end - 1].end)
    }
}

/// Line-wise normalization: per-line trailing whitespace dropped, each code point folded.
fn normalize(text: &str) -> Normalized {
    let mut out = Normalized::default();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let line_start = out.text.len();
        for (i, c) in body.char_indices() {
            let origin = offset + i..offset + i + c.len_utf8();
            for (k, folded) in fold_char(c).enumerate() {
                out.push(folded, origin.clone(), k == 0);
            }
        }
        out.trim_line_end(line_start);
        if body.len() < line.len() {
            let at = offset + body.len();
            out.push('\n', at..at + 1, true);
        }
        offset += line.len();
    }
    out
}

/// NFKC of one code point, then plain quotes, dashes and spaces.
fn fold_char(c: char) -> impl Iterator<Item = char> {
    std::iter::once(c).nfkc().map(|c| match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' => '-',
        '\t' | '\n' | '\r' => c,
        c if c.is_whitespace() => ' ',
        c => c,
    })
}

/// Stage 3: `old` without `read_file` prefixes, if every non-empty line has one (`  12 | `, `12→`, `12\t`).
fn strip_prefixes(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut stripped_any = false;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let newline = &line[body.len()..];
        if body.trim().is_empty() {
            out.push_str(line);
            continue;
        }
        out.push_str(strip_line_prefix(body)?);
        out.push_str(newline);
        stripped_any = true;
    }
    stripped_any.then_some(out)
}

fn strip_line_prefix(line: &str) -> Option<&str> {
    let rest = line.trim_start_matches(' ');
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = &rest[digits..];
    rest.strip_prefix(" | ")
        .or_else(|| {
            rest.strip_prefix(" |")
                .filter(|tail| tail.is_empty() || *tail == "\r")
        })
        .or_else(|| rest.strip_prefix('→'))
        .or_else(|| rest.strip_prefix('\t'))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn edit(content: &str, old: &str, new: &str) -> Result<Edit, MatchError> {
        apply_edit(content, old, new, false)
    }

    #[test]
    fn stage1_exact_single_match() {
        let out = edit("a\nHello World\nb\n", "Hello World", "Hello PaiCLI").unwrap();
        assert_eq!(out.content, "a\nHello PaiCLI\nb\n");
        assert_eq!(out.stage, Stage::Exact);
    }

    #[test]
    fn stage1_ambiguous_reports_count_and_first_three_lines() {
        let content = "x\nfoo\nfoo\ny\nfoo\nfoo\n";
        let err = edit(content, "foo", "bar").unwrap_err();
        assert_eq!(
            err,
            MatchError::Ambiguous {
                count: 4,
                lines: vec![2, 3, 5]
            }
        );
    }

    #[test]
    fn stage1_counts_overlapping_occurrences() {
        let err = edit("aaa", "aa", "b").unwrap_err();
        assert_eq!(
            err,
            MatchError::Ambiguous {
                count: 2,
                lines: vec![1, 1]
            }
        );
    }

    #[test]
    fn stage1_lf_snippet_matches_crlf_file_and_keeps_crlf() {
        let content = "one\r\ntwo\r\nthree\r\n";
        let out = edit(content, "one\ntwo\n", "uno\ndos\n").unwrap();
        assert_eq!(out.content, "uno\r\ndos\r\nthree\r\n");
        assert_eq!(out.stage, Stage::Crlf);
    }

    #[test]
    fn stage2_ignores_trailing_whitespace() {
        let content = "fn a() {   \n    body();\t\n}\n";
        let out = edit(content, "fn a() {\n    body();\n}", "fn b() {}").unwrap();
        assert_eq!(out.content, "fn b() {}\n");
        assert_eq!(out.stage, Stage::Normalized);
    }

    #[test]
    fn stage2_folds_quotes_dashes_spaces_and_nfkc() {
        let content = "say(\u{201C}hi\u{201D});\nx = a \u{2014} b\u{00A0}\u{2212} 1;\nＡＢＣ\n";
        let out = edit(
            content,
            "say(\"hi\");\nx = a - b - 1;\nABC",
            "say(\"bye\");",
        )
        .unwrap();
        assert_eq!(out.content, "say(\"bye\");\n");
        assert_eq!(out.stage, Stage::Normalized);
    }

    #[test]
    fn stage2_keeps_crlf_line_endings() {
        let content = "a = 1;  \r\nb = 2;\r\n";
        let out = edit(content, "a = 1;\nb = 2;", "a = 10;\nb = 20;").unwrap();
        assert_eq!(out.content, "a = 10;\r\nb = 20;\r\n");
    }

    #[test]
    fn stage2_rejects_match_inside_an_expanded_glyph() {
        // "ﬁ" normalizes to "fi"; "ile" would start inside it.
        assert_eq!(edit("pro\u{FB01}le", "ile", "x"), Err(MatchError::NotFound));
        let out = edit("pro\u{FB01}le", "profile", "x").unwrap();
        assert_eq!(out.content, "x");
    }

    #[test]
    fn stage2_ambiguous_is_reported() {
        let err = edit("a \u{2013} b\nz\na \u{2014} b  \n", "a - b", "c").unwrap_err();
        assert_eq!(
            err,
            MatchError::Ambiguous {
                count: 2,
                lines: vec![1, 3]
            }
        );
    }

    #[test]
    fn stage3_strips_read_file_prefixes() {
        let content = "class Hello {\n    void run() {}\n}\n";
        let old = "    1 | class Hello {\n    2 |     void run() {}\n";
        let new = "    1 | class Hello {\n    2 |     void go() {}\n";
        let out = edit(content, old, new).unwrap();
        assert_eq!(out.content, "class Hello {\n    void go() {}\n}\n");
        assert_eq!(out.stage, Stage::PrefixStripped);
    }

    #[test]
    fn stage3_accepts_arrow_and_tab_prefixes() {
        let content = "alpha\nbeta\n";
        assert_eq!(
            edit(content, "1→alpha\n2→beta", "x").unwrap().content,
            "x\n"
        );
        assert_eq!(edit(content, "2\tbeta", "y").unwrap().content, "alpha\ny\n");
    }

    #[test]
    fn stage3_needs_every_line_prefixed_and_reports_original_error() {
        assert_eq!(
            edit("alpha\nbeta\n", "1 | alpha\nbeta\nzzz", "x"),
            Err(MatchError::NotFound)
        );
        assert_eq!(
            edit("alpha\n", "    9 | gamma", "x"),
            Err(MatchError::NotFound)
        );
    }

    #[test]
    fn replace_all_is_exact_and_non_overlapping() {
        let out = apply_edit("aaa aaa", "aa", "b", true).unwrap();
        assert_eq!(out.content, "ba ba");
        assert_eq!(out.replacements, 2);
        // No fuzzy stage for replace_all.
        assert_eq!(
            apply_edit("a \u{2013} b", "a - b", "c", true),
            Err(MatchError::NotFound)
        );
    }

    #[test]
    fn replace_all_converts_to_crlf() {
        let out = apply_edit("x\r\ny\r\nx\r\ny\r\n", "x\ny", "z", true).unwrap();
        assert_eq!(out.content, "z\r\nz\r\n");
        assert_eq!(out.replacements, 2);
    }

    #[test]
    fn missing_text_is_not_found() {
        assert_eq!(edit("abc", "xyz", "q"), Err(MatchError::NotFound));
        assert_eq!(edit("abc", "   ", "q"), Err(MatchError::NotFound));
        assert_eq!(edit("", "", "q"), Err(MatchError::NotFound));
        // A bare prefix strips to nothing and must not match an empty file.
        assert_eq!(edit("", "    1 | ", "q"), Err(MatchError::NotFound));
    }
}
