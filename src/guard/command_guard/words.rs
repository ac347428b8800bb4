//! Turns a word node of the bash grammar into the text the shell would pass: quotes removed, backslash escapes
//! and ANSI-C `$'…'` decoded, `~` / `$HOME` / `${HOME}` expanded, and brace expansion (`{rm,-rf,X}`) applied.
//! Anything else that is only known when the line runs (`$X`, `$(…)`, `` `…` ``) marks the word as dynamic.

use tree_sitter::Node;

use super::parse::{SUBSTITUTION, Word};

/// One character of a word (quoted characters take no part in brace or tilde expansion), or a piece only known
/// at run time, shown as its source text.
#[derive(Clone, Debug)]
enum Piece {
    Char { c: char, quoted: bool },
    Dynamic(String),
}

/// What resolving a word collected besides its text.
#[derive(Default)]
struct Collected {
    pieces: Vec<Piece>,
    substitutions: Vec<String>,
    fed: Vec<String>,
    process: bool,
    from_home: bool,
}

/// The words `node` stands for (several after brace expansion).
pub fn resolve(node: Node, src: &str) -> Vec<Word> {
    resolve_prefixed(node, src, "")
}

/// Like [`resolve`], with unquoted `prefix` text in front (a `{` the grammar split off).
pub fn resolve_prefixed(node: Node, src: &str, prefix: &str) -> Vec<Word> {
    let mut c = Collected::default();
    push_str(&mut c, prefix, false);
    collect(node, src, &mut c);
    c.from_home |= expand_tilde(&mut c.pieces);
    expand_braces(&c.pieces)
        .into_iter()
        .map(|pieces| word_of(&pieces, &c))
        .collect()
}

/// The inner source of a `$(…)`, `` `…` `` or `<(…)` node: its children between the delimiters.
pub fn inner_text(node: Node, src: &str) -> String {
    let count = node.child_count();
    if count < 2 {
        return String::new();
    }
    let (Some(first), Some(last)) = (node.child(0), node.child(count - 1)) else {
        return String::new();
    };
    src.get(first.end_byte()..last.start_byte())
        .unwrap_or("")
        .to_string()
}

fn text<'s>(node: Node, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

fn push_str(c: &mut Collected, s: &str, quoted: bool) {
    c.pieces
        .extend(s.chars().map(|ch| Piece::Char { c: ch, quoted }));
}

fn collect(node: Node, src: &str, c: &mut Collected) {
    match node.kind() {
        "word" => unquoted(text(node, src), c),
        "raw_string" => {
            let t = text(node, src);
            let inner = t
                .strip_prefix('\'')
                .and_then(|t| t.strip_suffix('\''))
                .unwrap_or(t);
            push_str(c, inner, true);
        }
        "ansi_c_string" => {
            let t = text(node, src);
            let inner = t
                .strip_prefix("$'")
                .and_then(|t| t.strip_suffix('\''))
                .unwrap_or(t);
            push_str(c, &decode_ansi_c(inner), true);
        }
        "string" | "translated_string" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                if child.kind() == "string_content" {
                    push_str(c, &unescape_double_quoted(text(child, src)), true);
                } else {
                    collect(child, src, c);
                }
            }
        }
        "concatenation" => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                collect(child, src, c);
            }
        }
        "simple_expansion" | "expansion" => match home_of(node, src) {
            Some(home) => {
                c.from_home |= c.pieces.is_empty();
                push_str(c, &home, true)
            }
            None => c.pieces.push(Piece::Dynamic(text(node, src).to_string())),
        },
        "command_substitution" => {
            c.substitutions.push(inner_text(node, src));
            c.pieces.push(Piece::Dynamic(SUBSTITUTION.to_string()));
        }
        "process_substitution" => {
            let inner = inner_text(node, src);
            if text(node, src).starts_with(">(") {
                c.fed.push(inner.clone());
            }
            c.substitutions.push(inner);
            c.process = true;
            c.pieces.push(Piece::Dynamic(SUBSTITUTION.to_string()));
        }
        "arithmetic_expansion" => c.pieces.push(Piece::Dynamic(text(node, src).to_string())),
        // Numbers, `{1..3}`, glob patterns, and anonymous tokens (`{`, `}`) split off a word: literal text.
        _ => push_str(c, text(node, src), false),
    }
}

/// `$HOME` and `${HOME}` (nothing else) expand to the user's home directory.
fn home_of(node: Node, src: &str) -> Option<String> {
    let t = text(node, src);
    if t != "$HOME" && t != "${HOME}" {
        return None;
    }
    dirs::home_dir().map(|h| h.display().to_string())
}

/// An unquoted word: `\x` is a quoted `x`, `\<newline>` disappears.
fn unquoted(t: &str, c: &mut Collected) {
    let mut chars = t.chars();
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            match chars.next() {
                Some('\n') | None => {}
                Some(next) => c.pieces.push(Piece::Char {
                    c: next,
                    quoted: true,
                }),
            }
        } else {
            c.pieces.push(Piece::Char {
                c: ch,
                quoted: false,
            });
        }
    }
}

/// Inside `"…"` a backslash escapes only `"`, `\`, `$`, `` ` `` and a newline.
fn unescape_double_quoted(t: &str) -> String {
    let mut out = String::new();
    let mut chars = t.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            match chars.peek().copied() {
                Some('\n') => {
                    chars.next();
                }
                Some(next @ ('"' | '\\' | '$' | '`')) => {
                    chars.next();
                    out.push(next);
                }
                _ => out.push('\\'),
            }
        } else {
            out.push(ch);
        }
    }
    out
}

/// Decodes the escapes of `$'…'` (`\n`, `\t`, `\xHH`, `\NNN`, `\uHHHH`, `\e`, …).
pub fn decode_ansi_c(t: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = t.chars().collect();
    let mut i = 0;
    let number = |i: &mut usize, radix: u32, max: usize| {
        let start = *i;
        while *i < chars.len() && *i - start < max && chars[*i].is_digit(radix) {
            *i += 1;
        }
        let digits: String = chars[start..*i].iter().collect();
        u32::from_str_radix(&digits, radix)
            .ok()
            .and_then(char::from_u32)
    };
    while i < chars.len() {
        let ch = chars[i];
        i += 1;
        if ch != '\\' || i >= chars.len() {
            out.push(ch);
            continue;
        }
        let esc = chars[i];
        i += 1;
        let decoded = match esc {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            '\\' | '\'' | '"' | '?' => Some(esc),
            'x' => number(&mut i, 16, 2),
            'u' => number(&mut i, 16, 4),
            'U' => number(&mut i, 16, 8),
            '0'..='7' => {
                i -= 1;
                number(&mut i, 8, 3)
            }
            _ => {
                out.push('\\');
                Some(esc)
            }
        };
        out.extend(decoded);
    }
    out
}

/// A leading unquoted `~` (alone or before `/`) is the home directory; `~user` is only known at run time.
/// True when it expanded.
fn expand_tilde(pieces: &mut Vec<Piece>) -> bool {
    if !pieces.first().is_some_and(|p| is_unquoted(p, '~')) {
        return false;
    }
    let rest_ok = matches!(pieces.get(1), None | Some(Piece::Char { c: '/', .. }));
    if !rest_ok {
        pieces[0] = Piece::Dynamic("~".to_string());
        return false;
    }
    let Some(home) = dirs::home_dir() else {
        return false;
    };
    let home: Vec<Piece> = home
        .display()
        .to_string()
        .chars()
        .map(|c| Piece::Char { c, quoted: true })
        .collect();
    pieces.splice(0..1, home);
    true
}

fn is_unquoted(p: &Piece, want: char) -> bool {
    matches!(p, Piece::Char { c, quoted: false } if *c == want)
}

/// Bash brace expansion of comma lists: `a{b,c}d` → `abd acd`, nested and repeated.
fn expand_braces(pieces: &[Piece]) -> Vec<Vec<Piece>> {
    let Some((open, close, commas)) = first_brace_list(pieces) else {
        return vec![pieces.to_vec()];
    };
    let prefix = &pieces[..open];
    let suffix = &pieces[close + 1..];
    let mut bounds = vec![open];
    bounds.extend(commas);
    bounds.push(close);
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let mut alt = prefix.to_vec();
        alt.extend_from_slice(&pieces[pair[0] + 1..pair[1]]);
        alt.extend_from_slice(suffix);
        out.extend(expand_braces(&alt));
    }
    out
}

/// The first `{…}` with a top-level comma: its open and close index and the commas between.
fn first_brace_list(pieces: &[Piece]) -> Option<(usize, usize, Vec<usize>)> {
    for open in (0..pieces.len()).filter(|&i| is_unquoted(&pieces[i], '{')) {
        let mut depth = 0usize;
        let mut commas = Vec::new();
        for (i, p) in pieces.iter().enumerate().skip(open + 1) {
            if is_unquoted(p, '{') {
                depth += 1;
            } else if is_unquoted(p, '}') {
                if depth == 0 {
                    if !commas.is_empty() {
                        return Some((open, i, commas));
                    }
                    break;
                }
                depth -= 1;
            } else if depth == 0 && is_unquoted(p, ',') {
                commas.push(i);
            }
        }
    }
    None
}

fn word_of(pieces: &[Piece], c: &Collected) -> Word {
    let mut text = String::new();
    let mut dynamic = false;
    for p in pieces {
        match p {
            Piece::Char { c, .. } => text.push(*c),
            Piece::Dynamic(s) => {
                dynamic = true;
                text.push_str(s);
            }
        }
    }
    Word {
        text,
        substitutions: c.substitutions.clone(),
        fed: c.fed.clone(),
        from_home: c.from_home,
        dynamic,
        process_substitution: c.process,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_c_escapes_decode() {
        assert_eq!(decode_ansi_c(r"\x72m"), "rm");
        assert_eq!(decode_ansi_c(r"\162\155"), "rm");
        assert_eq!(decode_ansi_c(r"a\tb\\"), "a\tb\\");
        assert_eq!(decode_ansi_c(r"\u0072"), "r");
    }
}
