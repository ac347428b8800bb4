//! A small shell tokenizer and parser: enough of bash's grammar (quoting, escapes, operators, redirections,
//! here-documents, `$(...)`, backticks, process substitution) to see every command a line would run.
//!
//! It never fails: text it does not understand stays part of a word, so the rules see it rather than skip it.

/// How a substitution stands in a word's `text` (its command line is in `substitutions`).
pub const SUBSTITUTION: &str = "$(…)";

/// One word after quote removal. Substitutions are kept as `$(…)` in `text`; their inner command lines are in
/// `substitutions` so the rules can check them too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub substitutions: Vec<String>,
}

/// An output or input redirection (`>`, `>>`, `<`, `&>`, ...) and its target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub target: Word,
}

/// A command with its arguments and redirections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

/// Commands joined by `|` or `|&`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub commands: Vec<SimpleCommand>,
}

/// A parsed command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
    /// Inner command lines of every `$(...)`, backtick and `<(...)` in the line.
    pub substitutions: Vec<String>,
}

impl Script {
    /// Every simple command, in order.
    pub fn commands(&self) -> impl Iterator<Item = &SimpleCommand> {
        self.pipelines.iter().flat_map(|p| p.commands.iter())
    }

    /// True when the line is exactly one command (no `&&`, `;`, pipes, substitutions).
    pub fn is_single_command(&self) -> bool {
        self.substitutions.is_empty() && self.commands().count() == 1
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(Word),
    /// `&&`, `||`, `;`, `&`, `|`, `|&`, `(`, `)`.
    Op(&'static str),
    Redir(String),
}

/// Parses `line`.
pub fn parse(line: &str) -> Script {
    let (tokens, substitutions) = Lexer::new(line).run();
    let mut script = Script {
        pipelines: Vec::new(),
        substitutions,
    };
    let mut pipeline = Pipeline::default();
    let mut command = SimpleCommand::default();
    let mut tokens = tokens.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            Token::Word(w) => command.words.push(w),
            Token::Redir(op) => {
                if let Some(Token::Word(target)) = tokens.peek().cloned() {
                    tokens.next();
                    command.redirects.push(Redirect { op, target });
                }
            }
            Token::Op(op) => {
                end_command(&mut pipeline, &mut command);
                if op != "|" && op != "|&" {
                    end_pipeline(&mut script, &mut pipeline);
                }
            }
        }
    }
    end_command(&mut pipeline, &mut command);
    end_pipeline(&mut script, &mut pipeline);
    script
}

fn end_command(pipeline: &mut Pipeline, command: &mut SimpleCommand) {
    // `{` and `}` group commands; they are not commands themselves.
    command
        .words
        .retain(|w| !(w.text == "{" || w.text == "}") || !w.substitutions.is_empty());
    if !command.words.is_empty() || !command.redirects.is_empty() {
        pipeline.commands.push(std::mem::take(command));
    }
}

fn end_pipeline(script: &mut Script, pipeline: &mut Pipeline) {
    if !pipeline.commands.is_empty() {
        script.pipelines.push(std::mem::take(pipeline));
    }
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
    tokens: Vec<Token>,
    substitutions: Vec<String>,
    word: Word,
    /// True once the current word has any content (even an empty `""`).
    in_word: bool,
    /// Here-document delimiters waiting for the next newline.
    heredocs: Vec<String>,
    expect_heredoc_word: bool,
}

impl Lexer {
    fn new(line: &str) -> Self {
        Lexer {
            chars: line.chars().collect(),
            i: 0,
            tokens: Vec::new(),
            substitutions: Vec::new(),
            word: Word::default(),
            in_word: false,
            heredocs: Vec::new(),
            expect_heredoc_word: false,
        }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    fn run(mut self) -> (Vec<Token>, Vec<String>) {
        while let Some(c) = self.peek(0) {
            match c {
                ' ' | '\t' => {
                    self.end_word();
                    self.i += 1;
                }
                '\n' => {
                    self.end_word();
                    self.i += 1;
                    self.tokens.push(Token::Op(";"));
                    self.skip_heredoc_bodies();
                }
                '#' if !self.in_word => self.skip_comment(),
                '\'' => {
                    self.in_word = true;
                    self.i += 1;
                    while let Some(c) = self.peek(0) {
                        self.i += 1;
                        if c == '\'' {
                            break;
                        }
                        self.word.text.push(c);
                    }
                }
                '"' => {
                    self.in_word = true;
                    self.i += 1;
                    self.double_quoted();
                }
                '\\' => {
                    self.i += 1;
                    match self.peek(0) {
                        Some('\n') => self.i += 1,
                        Some(c) => {
                            self.in_word = true;
                            self.word.text.push(c);
                            self.i += 1;
                        }
                        None => {}
                    }
                }
                '$' => self.dollar(),
                '`' => {
                    self.in_word = true;
                    self.backtick();
                }
                '<' | '>' if self.peek(1) == Some('(') => {
                    // Process substitution: `<(cmd)` / `>(cmd)`.
                    self.i += 2;
                    let inner = self.balanced_parens();
                    self.substitute(inner);
                }
                '&' | '|' | ';' | '(' | ')' | '<' | '>' => self.operator(c),
                _ => {
                    self.in_word = true;
                    self.word.text.push(c);
                    self.i += 1;
                }
            }
        }
        self.end_word();
        (self.tokens, self.substitutions)
    }

    fn end_word(&mut self) {
        if self.in_word {
            let word = std::mem::take(&mut self.word);
            if self.expect_heredoc_word {
                self.expect_heredoc_word = false;
                self.heredocs.push(word.text.clone());
            }
            self.tokens.push(Token::Word(word));
            self.in_word = false;
        }
    }

    fn skip_comment(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            self.i += 1;
        }
    }

    /// Skips the bodies of pending here-documents (data, not commands).
    fn skip_heredoc_bodies(&mut self) {
        for delimiter in std::mem::take(&mut self.heredocs) {
            loop {
                let start = self.i;
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                let line: String = self.chars[start..self.i].iter().collect();
                if self.peek(0).is_some() {
                    self.i += 1;
                }
                if line.trim_start_matches('\t') == delimiter || self.peek(0).is_none() {
                    break;
                }
            }
        }
    }

    fn double_quoted(&mut self) {
        while let Some(c) = self.peek(0) {
            match c {
                '"' => {
                    self.i += 1;
                    return;
                }
                '\\' => {
                    self.i += 1;
                    if let Some(next) = self.peek(0) {
                        if !matches!(next, '"' | '\\' | '$' | '`' | '\n') {
                            self.word.text.push('\\');
                        }
                        if next != '\n' {
                            self.word.text.push(next);
                        }
                        self.i += 1;
                    }
                }
                '$' => self.dollar(),
                '`' => self.backtick(),
                _ => {
                    self.word.text.push(c);
                    self.i += 1;
                }
            }
        }
    }

    fn dollar(&mut self) {
        self.in_word = true;
        match (self.peek(1), self.peek(2)) {
            (Some('('), Some('(')) => {
                // Arithmetic `$((...))`: kept as text.
                self.i += 1;
                let start = self.i;
                self.i += 1;
                let _ = self.balanced_parens();
                let text: String = self.chars[start..self.i].iter().collect();
                self.word.text.push('$');
                self.word.text.push_str(&text);
            }
            (Some('('), _) => {
                self.i += 2;
                let inner = self.balanced_parens();
                self.substitute(inner);
            }
            (Some('{'), _) => {
                let start = self.i;
                self.i += 2;
                while let Some(c) = self.peek(0) {
                    self.i += 1;
                    if c == '}' {
                        break;
                    }
                }
                let text: String = self.chars[start..self.i].iter().collect();
                self.word.text.push_str(&text);
            }
            _ => {
                self.word.text.push('$');
                self.i += 1;
            }
        }
    }

    fn backtick(&mut self) {
        self.i += 1;
        let mut inner = String::new();
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '`' => break,
                '\\' => {
                    if let Some(next) = self.peek(0) {
                        inner.push(next);
                        self.i += 1;
                    }
                }
                _ => inner.push(c),
            }
        }
        self.substitute(inner);
    }

    fn substitute(&mut self, inner: String) {
        self.in_word = true;
        self.word.text.push_str(SUBSTITUTION);
        self.word.substitutions.push(inner.clone());
        self.substitutions.push(inner);
    }

    /// Reads up to the `)` matching an already consumed `(`, skipping quoted text; returns the inside.
    fn balanced_parens(&mut self) -> String {
        let start = self.i;
        let mut depth = 1usize;
        while let Some(c) = self.peek(0) {
            match c {
                '\\' => self.i += 1,
                '\'' => {
                    self.i += 1;
                    while self.peek(0).is_some_and(|c| c != '\'') {
                        self.i += 1;
                    }
                }
                '"' => {
                    self.i += 1;
                    while let Some(c) = self.peek(0) {
                        if c == '\\' {
                            self.i += 1;
                        } else if c == '"' {
                            break;
                        }
                        self.i += 1;
                    }
                }
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        let inner: String = self.chars[start..self.i].iter().collect();
                        self.i += 1;
                        return inner;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
        self.chars[start.min(self.chars.len())..].iter().collect()
    }

    fn operator(&mut self, c: char) {
        // Digits right before a redirection are a file descriptor (`2>`), not a word.
        let fd_prefix = matches!(c, '<' | '>')
            && self.in_word
            && !self.word.text.is_empty()
            && self.word.text.chars().all(|d| d.is_ascii_digit());
        if fd_prefix {
            self.word = Word::default();
            self.in_word = false;
        } else {
            self.end_word();
        }
        let rest: String = self.chars[self.i..].iter().take(3).collect();
        const OPS: [&str; 8] = ["&&", "||", "|&", ";;", ";", "|", "(", ")"];
        const REDIRS: [&str; 12] = [
            "&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<&", "<>", "<<", ">", "<",
        ];
        if let Some(op) = REDIRS.iter().find(|r| rest.starts_with(**r)) {
            self.i += op.chars().count();
            if op.starts_with("<<") && *op != "<<<" {
                self.expect_heredoc_word = true;
            }
            self.tokens.push(Token::Redir((*op).to_string()));
            return;
        }
        if let Some(op) = OPS.iter().find(|o| rest.starts_with(**o)) {
            self.i += op.len();
            self.tokens
                .push(Token::Op(if *op == ";;" { ";" } else { op }));
            return;
        }
        // A lone `&` (background).
        self.i += 1;
        self.tokens.push(Token::Op("&"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &Script) -> Vec<Vec<String>> {
        script
            .commands()
            .map(|c| c.words.iter().map(|w| w.text.clone()).collect())
            .collect()
    }

    #[test]
    fn splits_on_operators_and_removes_quotes() {
        let s = parse(r#"cd a && echo "x y" 'z'|wc -l; ls\ x &"#);
        assert_eq!(
            words(&s),
            vec![
                vec!["cd", "a"],
                vec!["echo", "x y", "z"],
                vec!["wc", "-l"],
                vec!["ls x"]
            ]
        );
        assert_eq!(s.pipelines.len(), 3);
    }

    #[test]
    fn collects_substitutions_and_redirections() {
        let s = parse("echo $(rm -rf /) `id` > out.txt 2>&1 <(curl x)");
        assert_eq!(s.substitutions, vec!["rm -rf /", "id", "curl x"]);
        let c = &s.pipelines[0].commands[0];
        assert_eq!(c.redirects[0].op, ">");
        assert_eq!(c.redirects[0].target.text, "out.txt");
        assert_eq!(c.redirects[1].op, ">&");
        assert_eq!(c.redirects[1].target.text, "1");
    }

    #[test]
    fn heredoc_bodies_are_data() {
        let s = parse("cat <<EOF > f\nrm -rf /\nEOF\necho done");
        assert_eq!(words(&s), vec![vec!["cat"], vec!["echo", "done"]]);
    }

    #[test]
    fn subshells_and_groups_are_flattened() {
        let s = parse("(cd x; make) || { echo no; }");
        assert_eq!(
            words(&s),
            vec![vec!["cd", "x"], vec!["make"], vec!["echo", "no"]]
        );
    }
}
