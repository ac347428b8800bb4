//! Turns a word node of the bash grammar into the text the shell would pass: quotes removed, backslash escapes
//! and ANSI-C `$'…'` decoded, `~` / `$HOME` / `${HOME}` expanded, the shell's places (`$PWD`, `~+`, `$(pwd)`,
//! `$OLDPWD`, `~-`) and other users' homes (`~root`) expanded, and brace expansion (`{rm,-rf,X}`) applied.
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

/// What the shell's own place variables hold where a word is read, as path text; `None` when only known when
/// the line runs.
#[derive(Clone, Debug, Default)]
pub struct Places {
    /// `$PWD`, `${PWD}`, `~+`, `$(pwd)`.
    pub pwd: Option<String>,
    /// `$OLDPWD`, `${OLDPWD}`, `~-`.
    pub oldpwd: Option<String>,
}

/// The words `node` stands for (several after brace expansion).
pub fn resolve(node: Node, src: &str, places: &Places) -> Vec<Word> {
    resolve_prefixed(node, src, "", places)
}

/// Like [`resolve`], with unquoted `prefix` text in front (a `{` the grammar split off).
pub fn resolve_prefixed(node: Node, src: &str, prefix: &str, places: &Places) -> Vec<Word> {
    let mut c = Collected::default();
    push_str(&mut c, prefix, false);
    collect(node, src, places, &mut c);
    c.from_home |= expand_tilde(&mut c.pieces, places);
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

fn collect(node: Node, src: &str, places: &Places, c: &mut Collected) {
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
                    collect(child, src, places, c);
                }
            }
        }
        "concatenation" => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                collect(child, src, places, c);
            }
        }
        "simple_expansion" | "expansion" => {
            let t = text(node, src);
            match plain_expansion(t).unwrap_or_default() {
                "HOME" => match dirs::home_dir() {
                    Some(home) => {
                        c.from_home |= c.pieces.is_empty();
                        push_str(c, &home.display().to_string(), true)
                    }
                    None => c.pieces.push(Piece::Dynamic(t.to_string())),
                },
                "PWD" => push_place(c, places.pwd.as_deref(), t),
                "OLDPWD" => push_place(c, places.oldpwd.as_deref(), t),
                _ => c.pieces.push(Piece::Dynamic(t.to_string())),
            }
        }
        "command_substitution" => {
            let inner = inner_text(node, src);
            let prints_pwd = matches!(
                inner.split_whitespace().collect::<Vec<_>>()[..],
                ["pwd"] | ["pwd", "-L" | "-P"] | ["/bin/pwd"] | ["builtin", "pwd"]
            );
            c.substitutions.push(inner);
            match places.pwd.as_deref() {
                Some(pwd) if prints_pwd => push_place(c, Some(pwd), ""),
                _ => c.pieces.push(Piece::Dynamic(SUBSTITUTION.to_string())),
            }
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

/// The name in `$NAME` or `${NAME}`, nothing more (`${PWD:-x}`, `${PWD%/*}` are only known when the line runs).
fn plain_expansion(t: &str) -> Option<&str> {
    let name = t
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .or_else(|| t.strip_prefix('$'))?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// A place variable's value, or the variable itself (dynamic) when it is not known. Like `~`, a word that starts
/// with one is not a literal `/tmp/…` path (see `WriteFence::judge`).
fn push_place(c: &mut Collected, value: Option<&str>, source: &str) {
    match value {
        Some(value) => {
            c.from_home |= c.pieces.is_empty();
            push_str(c, value, true)
        }
        None => c.pieces.push(Piece::Dynamic(source.to_string())),
    }
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

/// A leading unquoted `~` (alone or before `/`) is the home directory, `~+` and `~-` are `$PWD` and `$OLDPWD`,
/// `~user` is that user's home (from the user database); anything else is only known at run time. True when it
/// expanded.
fn expand_tilde(pieces: &mut Vec<Piece>, places: &Places) -> bool {
    if !pieces.first().is_some_and(|p| is_unquoted(p, '~')) {
        return false;
    }
    let end = pieces
        .iter()
        .position(|p| matches!(p, Piece::Char { c: '/', .. }))
        .unwrap_or(pieces.len());
    let name: Option<String> = pieces[1..end]
        .iter()
        .map(|p| match p {
            Piece::Char { c, quoted: false } => Some(*c),
            _ => None,
        })
        .collect();
    let home = match name.as_deref() {
        Some("") => dirs::home_dir().map(|h| h.display().to_string()),
        Some("+") => places.pwd.clone(),
        Some("-") => places.oldpwd.clone(),
        Some(user) => user_home(user).map(|h| h.display().to_string()),
        None => None,
    };
    let Some(home) = home else {
        let source: String = pieces[..end]
            .iter()
            .map(|p| match p {
                Piece::Char { c, .. } => c.to_string(),
                Piece::Dynamic(s) => s.clone(),
            })
            .collect();
        pieces.splice(0..end, [Piece::Dynamic(source)]);
        return false;
    };
    let home: Vec<Piece> = home
        .chars()
        .map(|c| Piece::Char { c, quoted: true })
        .collect();
    pieces.splice(0..end, home);
    true
}

/// Bytes of the user database read at most (it is a few kilobytes on any real system).
const PASSWD_CAP: u64 = 4 << 20;

/// The home directory of user `name`, from `/etc/passwd`; `None` when there is no such user there.
pub fn user_home(name: &str) -> Option<std::path::PathBuf> {
    use std::io::Read;
    if name.is_empty() || name.contains([':', '/', '\n']) {
        return None;
    }
    let mut text = String::new();
    std::fs::File::open("/etc/passwd")
        .ok()?
        .take(PASSWD_CAP)
        .read_to_string(&mut text)
        .ok()?;
    home_in_passwd(&text, name)
}

/// The home field of `name`'s line in passwd-format `text`.
fn home_in_passwd(text: &str, name: &str) -> Option<std::path::PathBuf> {
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        match fields[..] {
            [user, _, _, _, _, home, ..] if user == name && home.starts_with('/') => {
                Some(std::path::PathBuf::from(home))
            }
            _ => None,
        }
    })
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

    #[test]
    fn a_user_s_home_comes_from_the_passwd_line() {
        let text =
            "root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice,,,:/home/alice:/bin/sh\n";
        assert_eq!(home_in_passwd(text, "alice"), Some("/home/alice".into()));
        assert_eq!(home_in_passwd(text, "root"), Some("/root".into()));
        assert_eq!(home_in_passwd(text, "bob"), None);
        assert_eq!(user_home("a:b"), None);
    }
}
