//! A command line read with the bash grammar (`tree-sitter-bash`) into the simple commands it would run, each
//! with its words resolved statically (see [`super::words`]), its redirections, the directory it runs in
//! (`cd X && …`, `;` and subshells are followed), and whether its stdin comes from a pipe.
//!
//! `$PWD`, `${PWD}`, `~+`, `$(pwd)` and, after a `cd`, `$OLDPWD` and `~-` stand for the directory the command
//! runs in (see [`words::Places`]), unless the line assigns the variable; a `cd` to a directory that does not
//! exist leaves the place unknown (the `cd` fails and the next command after `;` runs where the last one did).
//! Line continuations are joined first ([`continuations`]).
//!
//! It never fails: a line the grammar cannot fully read is marked [`Script::incomplete`], and the commands it
//! could read are still listed so the rules see them.

use std::path::{Path, PathBuf};

use tree_sitter::{Node, Parser};

use super::words::{self, Places};

mod continuations;

/// How a command substitution stands in a word's `text` (its command line is in `substitutions`).
pub const SUBSTITUTION: &str = "$(…)";

/// One word after quote removal and static expansion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// Inner command lines of the `$(...)`, backticks and `<(...)` in the word.
    pub substitutions: Vec<String>,
    /// Part of the word is only known when the line runs (`$X`, `$(…)`, `~user`).
    pub dynamic: bool,
    /// The word is (or contains) a process substitution `<(…)` / `>(…)`.
    pub process_substitution: bool,
    /// Inner lines of its `>(…)`: they read what the command writes there.
    pub fed: Vec<String>,
    /// It starts with `~`, `~user`, `$HOME`, `$PWD`, `$OLDPWD` or `$(pwd)`, expanded in `text` (so it is not a
    /// literal `/tmp/…` path).
    pub from_home: bool,
}

impl Word {
    /// A literal word.
    pub fn literal(text: impl Into<String>) -> Self {
        Word {
            text: text.into(),
            ..Word::default()
        }
    }
}

/// An output or input redirection (`>`, `>>`, `<`, `&>`, `<<`, `<<<`, ...) and its target; for `<<` the target
/// is the here-document's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub target: Word,
}

/// Where a command runs, relative to the project root (or absolute); `None` when a `cd` target is not known.
pub type Cwd = Option<PathBuf>;

/// A command with its arguments and redirections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    pub cwd: Cwd,
    /// Its stdin is the output of an earlier command in the pipeline.
    pub piped: bool,
}

impl SimpleCommand {
    /// The words' texts.
    pub fn texts(&self) -> Vec<String> {
        self.words.iter().map(|w| w.text.clone()).collect()
    }
}

/// Commands joined by `|` or `|&`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub commands: Vec<SimpleCommand>,
}

/// A shell function defined in the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    /// The body's source text.
    pub body: String,
}

/// A parsed command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
    /// Inner command lines of every `$(...)`, backtick and `<(...)` in the line.
    pub substitutions: Vec<String>,
    /// Those of `substitutions` that are `>(…)`, whose stdin is fed by the line.
    pub fed: Vec<String>,
    pub functions: Vec<Function>,
    /// The grammar could not read all of the line.
    pub incomplete: bool,
}

impl Script {
    /// Every simple command, in order.
    pub fn commands(&self) -> impl Iterator<Item = &SimpleCommand> {
        self.pipelines.iter().flat_map(|p| p.commands.iter())
    }

    /// True when the line is exactly one command (no `&&`, `;`, pipes, substitutions).
    pub fn is_single_command(&self) -> bool {
        self.substitutions.is_empty() && !self.incomplete && self.commands().count() == 1
    }
}

/// Parses `line`, run from the project root.
pub fn parse(line: &str) -> Script {
    parse_in(line, Some(PathBuf::new()))
}

/// Parses `line`, run from `cwd`.
pub fn parse_in(line: &str, cwd: Cwd) -> Script {
    parse_at(line, cwd, None)
}

/// Parses `line`, run from `cwd` (relative to `root` when that is known, so `$PWD` becomes an absolute path).
pub fn parse_at(line: &str, cwd: Cwd, root: Option<&Path>) -> Script {
    let joined = continuations::join(line);
    let line = joined.as_ref();
    let mut parser = Parser::new();
    let tree = parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .ok()
        .and_then(|()| parser.parse(line, None));
    let Some(tree) = tree else {
        return Script {
            incomplete: true,
            ..Script::default()
        };
    };
    let node = tree.root_node();
    let mut walker = Walker {
        src: line,
        cwd,
        oldpwd: None,
        root: root.map(Path::to_path_buf),
        pinned: Pinned {
            pwd: names_bare(line, "PWD"),
            oldpwd: names_bare(line, "OLDPWD"),
        },
        script: Script {
            incomplete: node.has_error(),
            ..Script::default()
        },
        brace_prefix: false,
        depth: 0,
    };
    walker.statement(node);
    walker.script
}

/// Statements nested deeper than this (`((((…))))`) are not read; the line is then incomplete.
const MAX_NESTING: usize = 200;

/// Node kinds that are words (arguments, values), not statements.
const WORD_KINDS: [&str; 13] = [
    "word",
    "string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "concatenation",
    "simple_expansion",
    "expansion",
    "command_substitution",
    "process_substitution",
    "arithmetic_expansion",
    "number",
    "brace_expression",
];

struct Walker<'s> {
    src: &'s str,
    cwd: Cwd,
    /// The directory before the last `cd` in the line (`None`: not known, as at the start).
    oldpwd: Cwd,
    /// The project root, when known: `$PWD` is then absolute.
    root: Option<PathBuf>,
    pinned: Pinned,
    script: Script,
    /// A `{` the grammar split off the next command's name (`{rm,-rf,X}` at the start of a statement).
    brace_prefix: bool,
    /// How deep the walk is in the tree (bounded, so no line can exhaust the stack).
    depth: usize,
}

impl Walker<'_> {
    fn text(&self, node: Node) -> &str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    fn resolve(&mut self, node: Node) -> Vec<Word> {
        let words = words::resolve(node, self.src, &self.places());
        self.record(&words);
        words
    }

    fn record(&mut self, words: &[Word]) {
        // Brace expansion copies a word's substitutions into every alternative; they run once per copy, but
        // one check each is enough.
        for w in words.iter().take(1) {
            self.script
                .substitutions
                .extend(w.substitutions.iter().cloned());
            self.script.fed.extend(w.fed.iter().cloned());
        }
    }

    fn emit(&mut self, commands: Vec<SimpleCommand>) {
        if !commands.is_empty() {
            self.script.pipelines.push(Pipeline { commands });
        }
    }

    fn statement(&mut self, node: Node) {
        if self.depth >= MAX_NESTING {
            self.script.incomplete = true;
            return;
        }
        self.depth += 1;
        self.statement_inner(node);
        self.depth -= 1;
    }

    fn statement_inner(&mut self, node: Node) {
        match node.kind() {
            "command" | "declaration_command" | "unset_command" => {
                let command = self.command(node);
                self.emit(vec![command]);
            }
            "pipeline" => self.pipeline(node),
            "redirected_statement" => self.redirected(node),
            "subshell" => {
                let saved = self.saved();
                self.children(node);
                self.restore(saved);
            }
            "function_definition" => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| self.text(n).to_string())
                    .unwrap_or_default();
                let body = node.child_by_field_name("body");
                self.script.functions.push(Function {
                    name,
                    body: body.map(|b| self.text(b).to_string()).unwrap_or_default(),
                });
                let saved = self.saved();
                if let Some(body) = body {
                    self.statement(body);
                }
                self.restore(saved);
            }
            // A name the grammar could not attach to a command (`{rm,-rf,X}` at the start of a statement).
            "command_name" => {
                let mut command = SimpleCommand {
                    cwd: self.cwd.clone(),
                    ..SimpleCommand::default()
                };
                if let Some(word) = node.named_child(0) {
                    command.words = self.name_words(word);
                }
                self.emit(vec![command]);
            }
            "comment" | "heredoc_body" | "heredoc_start" | "heredoc_end" => {}
            kind if WORD_KINDS.contains(&kind) => {
                self.resolve(node);
            }
            _ => self.children(node),
        }
    }

    fn children(&mut self, node: Node) {
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        for (i, child) in children.iter().enumerate() {
            if node.kind() == "ERROR" && child.kind() == "{" && !child.is_named() {
                self.brace_prefix = children
                    .get(i + 1)
                    .is_some_and(|next| next.start_byte() == child.end_byte());
            }
            if child.is_named() {
                self.statement(*child);
            }
        }
    }

    /// Elements of a pipeline run in subshells: a `cd` in one does not move the others.
    fn pipeline(&mut self, node: Node) {
        let saved = self.saved();
        let mut commands = Vec::new();
        let mut cursor = node.walk();
        let elements: Vec<Node> = node.named_children(&mut cursor).collect();
        for (i, element) in elements.into_iter().enumerate() {
            let start = self.script.pipelines.len();
            self.statement(element);
            let produced: Vec<Pipeline> = self.script.pipelines.drain(start..).collect();
            for mut c in produced.into_iter().flat_map(|p| p.commands) {
                c.piped |= i > 0;
                commands.push(c);
            }
            self.restore(saved.clone());
        }
        self.emit(commands);
    }

    /// A statement with redirections; the grammar hangs what follows a here-document's start (`| sh`,
    /// `&& next`, `> f`) under the here-document node.
    fn redirected(&mut self, node: Node) {
        let start = self.script.pipelines.len();
        if let Some(body) = node.child_by_field_name("body") {
            self.statement(body);
        }
        let mut redirects = Vec::new();
        let mut piped_after = Vec::new();
        let mut following = Vec::new();
        let mut cursor = node.walk();
        for child in node.children_by_field_name("redirect", &mut cursor) {
            redirects.extend(self.redirect(child));
            if child.kind() != "heredoc_redirect" {
                continue;
            }
            let mut inner = child.walk();
            for (i, part) in child.children(&mut inner).enumerate() {
                match (child.field_name_for_child(i as u32), part.kind()) {
                    (Some("redirect"), _) => redirects.extend(self.redirect(part)),
                    (Some("right"), _) => following.push(part),
                    (None, "pipeline") => piped_after.push(part),
                    (None, kind) if part.is_named() && !kind.starts_with("heredoc") => {
                        piped_after.push(part)
                    }
                    _ => {}
                }
            }
        }
        for pipeline in &mut self.script.pipelines[start..] {
            for command in &mut pipeline.commands {
                command.redirects.extend(redirects.iter().cloned());
            }
        }
        if self.script.pipelines.len() == start && !redirects.is_empty() {
            // A bare redirection (`> f`, `2>> f`, `<<<x > f`) still opens, and truncates, its target.
            self.emit(vec![SimpleCommand {
                redirects: redirects.clone(),
                cwd: self.cwd.clone(),
                ..SimpleCommand::default()
            }]);
        }
        if !piped_after.is_empty() {
            let saved = self.saved();
            let mut commands: Vec<SimpleCommand> = self
                .script
                .pipelines
                .drain(start..)
                .flat_map(|p| p.commands)
                .collect();
            for part in piped_after {
                let mark = self.script.pipelines.len();
                self.statement(part);
                let produced: Vec<Pipeline> = self.script.pipelines.drain(mark..).collect();
                commands.extend(produced.into_iter().flat_map(|p| p.commands).map(|mut c| {
                    c.piped = true;
                    c
                }));
                self.restore(saved.clone());
            }
            self.emit(commands);
        }
        for part in following {
            self.statement(part);
        }
    }

    fn redirect(&mut self, node: Node) -> Vec<Redirect> {
        match node.kind() {
            "file_redirect" => {
                let mut op = String::new();
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if !child.is_named() {
                        op.push_str(child.kind());
                    }
                }
                // Words after the first destination are the command's arguments to bash (`> f arg`); they are
                // resolved for their substitutions.
                let mut cursor = node.walk();
                let dests: Vec<Node> = node
                    .children_by_field_name("destination", &mut cursor)
                    .collect();
                let mut targets = dests.into_iter().flat_map(|d| self.resolve(d));
                let Some(target) = targets.next() else {
                    return Vec::new();
                };
                targets.for_each(drop);
                vec![Redirect { op, target }]
            }
            "herestring_redirect" => {
                let mut cursor = node.walk();
                let value = node.named_children(&mut cursor).next();
                let target = value
                    .map(|v| self.resolve(v).into_iter().next().unwrap_or_default())
                    .unwrap_or_default();
                vec![Redirect {
                    op: "<<<".to_string(),
                    target,
                }]
            }
            "heredoc_redirect" => {
                let mut cursor = node.walk();
                let body = node
                    .children(&mut cursor)
                    .find(|c| c.kind() == "heredoc_body")
                    .map(|b| self.text(b).to_string())
                    .unwrap_or_default();
                vec![Redirect {
                    op: "<<".to_string(),
                    target: Word::literal(body),
                }]
            }
            _ => Vec::new(),
        }
    }

    /// The words of a command's name, with a `{` the grammar split off put back.
    fn name_words(&mut self, word: Node) -> Vec<Word> {
        if std::mem::take(&mut self.brace_prefix) {
            let words = words::resolve_prefixed(word, self.src, "{", &self.places());
            self.record(&words);
            words
        } else {
            self.resolve(word)
        }
    }

    fn command(&mut self, node: Node) -> SimpleCommand {
        let mut command = SimpleCommand {
            cwd: self.cwd.clone(),
            ..SimpleCommand::default()
        };
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        for (i, child) in children.into_iter().enumerate() {
            let field = node.field_name_for_child(i as u32);
            match (field, child.kind()) {
                (Some("name"), _) => {
                    let Some(word) = child.named_child(0) else {
                        continue;
                    };
                    let words = self.name_words(word);
                    command.words.extend(words);
                }
                (Some("redirect"), _) => command.redirects.extend(self.redirect(child)),
                (_, "variable_assignment") => {
                    if let Some(value) = child.child_by_field_name("value") {
                        self.resolve(value);
                    }
                    // Kept as written (`FOO=1`), as bash's own words would be; wrappers skip them.
                    command.words.push(Word::literal(self.text(child)));
                }
                (_, kind) if WORD_KINDS.contains(&kind) => {
                    command.words.extend(self.resolve(child))
                }
                // `export`, `local`, `unset`, ...: the keyword is the command's name.
                (None, kind) if !child.is_named() && command.words.is_empty() => {
                    command.words.push(Word::literal(kind))
                }
                _ => {}
            }
        }
        self.follow_cd(&command.words);
        command
    }

    /// `cd X` / `pushd X` move the commands after it (and set `$OLDPWD`); `cd -` goes back; `popd`, computed
    /// targets and directories that do not exist make the place unknown.
    fn follow_cd(&mut self, words: &[Word]) {
        let Some(first) = words.first() else { return };
        match first.text.as_str() {
            "cd" | "pushd" => {}
            "popd" => {
                self.oldpwd = self.cwd.take();
                return;
            }
            _ => return,
        }
        let target = words[1..]
            .iter()
            .find(|w| !(w.text.starts_with('-') && w.text.len() > 1) || w.text == "-");
        let next = match target {
            None => dirs::home_dir(),
            Some(w) if w.text == "-" && !w.dynamic => self.oldpwd.clone(),
            Some(w) if w.dynamic => None,
            Some(w) => self.cwd.as_ref().map(|cwd| cwd.join(Path::new(&w.text))),
        };
        let next = next.filter(|dir| self.exists(dir));
        self.oldpwd = std::mem::replace(&mut self.cwd, next);
    }

    /// False when `dir` (relative to the root) is known not to be a directory now: a `cd` there fails.
    fn exists(&self, dir: &Path) -> bool {
        match &self.root {
            Some(root) => root.join(dir).is_dir(),
            None => dir.is_relative() || dir.is_dir(),
        }
    }

    fn saved(&self) -> (Cwd, Cwd) {
        (self.cwd.clone(), self.oldpwd.clone())
    }

    fn restore(&mut self, (cwd, oldpwd): (Cwd, Cwd)) {
        self.cwd = cwd;
        self.oldpwd = oldpwd;
    }

    /// What `$PWD` and `$OLDPWD` hold where the next word is read.
    fn places(&self) -> Places {
        let absolute = |place: &Path| match &self.root {
            _ if place.is_absolute() => Some(place.display().to_string()),
            Some(root) if place.as_os_str().is_empty() => Some(root.display().to_string()),
            Some(root) => Some(root.join(place).display().to_string()),
            None => None,
        };
        let pwd = match &self.cwd {
            // The directory the command runs in is `.`, wherever that is.
            Some(cwd) => absolute(cwd).unwrap_or_else(|| ".".to_string()),
            None => ".".to_string(),
        };
        let oldpwd = self.oldpwd.as_deref().and_then(|old| {
            absolute(old).or_else(|| {
                // Without the root, a place relative to it can only be named from the root itself.
                let at_root = self.cwd.as_ref().is_some_and(|c| c.as_os_str().is_empty());
                at_root.then(|| {
                    let text = old.display().to_string();
                    if text.is_empty() {
                        ".".to_string()
                    } else {
                        text
                    }
                })
            })
        });
        Places {
            pwd: (!self.pinned.pwd).then_some(pwd),
            oldpwd: oldpwd.filter(|_| !self.pinned.oldpwd),
        }
    }
}

/// Variables whose value the line may set itself.
#[derive(Clone, Copy, Debug, Default)]
struct Pinned {
    pwd: bool,
    oldpwd: bool,
}

/// True when `line` names the variable `name` other than as `$name` or `${name}` (an assignment, `read`,
/// `unset`, `export`, `for … in`, `${name:-…}`, …): its value is then only known when the line runs.
fn names_bare(line: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(name).any(|(at, _)| {
        let before = &line[..at];
        let after = &line[at + name.len()..];
        if before.ends_with(is_word) || after.starts_with(is_word) {
            return false;
        }
        let plain = before.ends_with('$');
        let braced = before.ends_with("${") && after.starts_with('}');
        !(plain || braced)
    })
}

#[cfg(test)]
mod tests;
