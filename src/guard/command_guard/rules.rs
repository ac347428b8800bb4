//! The rules of spec §6.2, applied to every command a parsed line would run, nested lines (`bash -c`, `$(…)`,
//! `eval`, `find -exec`) included. Refusals are errors; what cannot be known, and writes to control files, are
//! collected as findings for the assessment.

use super::destructive;
use super::fence::{Place, WriteFence};
use super::parse::{self, Cwd, Pipeline, SimpleCommand, Word};
use super::unwrap::{ShellRun, program_name, shell_run, unwrap};
use super::{CommandAssessment, GuardDenial};
use crate::guard::control_files::ControlKind;

/// Nesting of `bash -c` / `$(...)` / `eval` beyond which a line is refused rather than analysed.
const MAX_DEPTH: usize = 8;

/// Programs that run anything as another user.
const ELEVATORS: [&str; 5] = ["sudo", "doas", "su", "pkexec", "run0"];

/// Walks a line and everything nested in it.
pub struct Checker<'a> {
    pub fence: &'a WriteFence,
    opaque: Option<String>,
    control: Option<(String, ControlKind)>,
}

impl<'a> Checker<'a> {
    pub fn new(fence: &'a WriteFence) -> Self {
        Checker {
            fence,
            opaque: None,
            control: None,
        }
    }

    /// What was found besides refusals: a control-file write weighs more than an unknown.
    pub fn assessment(self) -> CommandAssessment {
        match (self.control, self.opaque) {
            (Some((path, kind)), _) => CommandAssessment::ControlFile { path, kind },
            (None, Some(why)) => CommandAssessment::Opaque { why },
            (None, None) => CommandAssessment::Known,
        }
    }

    /// Notes something that cannot be known before the line runs (the first reason is kept).
    pub fn opaque(&mut self, why: impl Into<String>) {
        self.opaque.get_or_insert_with(|| why.into());
    }

    /// Notes a write to a control path, named as the person should read it (the first is kept).
    pub fn control_write(&mut self, path: impl Into<String>, kind: ControlKind) {
        self.control.get_or_insert_with(|| (path.into(), kind));
    }

    /// Checks `line`, run from `cwd`.
    pub fn line(&mut self, line: &str, cwd: &Cwd, depth: usize) -> Result<(), GuardDenial> {
        if depth > MAX_DEPTH {
            return Err(GuardDenial::new(
                "nesting-too-deep",
                "the command nests shells or substitutions too deeply to be checked",
            ));
        }
        let root = Some(self.fence.root());
        self.script(parse::parse_at(line, cwd.clone(), root), cwd, depth)
    }

    fn script(
        &mut self,
        script: parse::Script,
        cwd: &Cwd,
        depth: usize,
    ) -> Result<(), GuardDenial> {
        if script.incomplete {
            self.opaque("the shell grammar could not read all of the line");
        }
        for function in &script.functions {
            check_fork_bomb(function)?;
        }
        for inner in &script.substitutions {
            if !script.fed.contains(inner) {
                self.line(inner, cwd, depth + 1)?;
                continue;
            }
            // `tee >(sh)`: the inner line reads what the outer command writes into it.
            let mut fed = parse::parse_at(inner, cwd.clone(), Some(self.fence.root()));
            for pipeline in &mut fed.pipelines {
                if let Some(first) = pipeline.commands.first_mut() {
                    first.piped = true;
                }
            }
            self.script(fed, cwd, depth + 1)?;
        }
        for pipeline in &script.pipelines {
            check_pipe_to_shell(pipeline)?;
            for command in &pipeline.commands {
                self.command(command, depth)?;
            }
        }
        Ok(())
    }

    /// Judges a write to `target` from `cwd`.
    pub fn write(&mut self, target: &Word, cwd: &Cwd, action: &str) -> Result<(), GuardDenial> {
        match self.fence.judge(target, cwd) {
            Place::Allowed => Ok(()),
            Place::Control(path, kind) => {
                self.control_write(path, kind);
                Ok(())
            }
            Place::Unknown(why) => {
                self.opaque(why);
                Ok(())
            }
            Place::Outside(resolved) => Err(GuardDenial::new(
                "write-outside-project",
                format!(
                    "`{action} {}` would write to {resolved}, outside the project directory; commands may \
                     only write inside the project (or under /tmp/)",
                    target.text
                ),
            )),
        }
    }

    /// Checks `words` as one command run from `cwd` (for `find -exec`).
    pub fn words(&mut self, words: Vec<Word>, cwd: &Cwd, depth: usize) -> Result<(), GuardDenial> {
        let command = SimpleCommand {
            words,
            cwd: cwd.clone(),
            ..SimpleCommand::default()
        };
        self.command(&command, depth + 1)
    }

    fn command(&mut self, command: &SimpleCommand, depth: usize) -> Result<(), GuardDenial> {
        for redirect in &command.redirects {
            if writes(redirect) {
                self.write(&redirect.target, &command.cwd, "redirect output to")?;
            }
        }
        if let Some(first) = command.words.first() {
            check_elevation(&program_name(&first.text))?;
        }
        let real = unwrap(&command.words, &command.cwd);
        let Some(first) = real.words.first() else {
            return Ok(());
        };
        if first.dynamic {
            self.opaque(format!(
                "the command name `{}` is only known when the line runs",
                first.text
            ));
            return Ok(());
        }
        let name = program_name(&first.text);
        check_elevation(&name)?;
        if let Some(run) = shell_run(&real.words) {
            return self.shell(run, &name, command, &real.cwd, depth);
        }
        let args = &real.words[1..];
        match name.as_str() {
            "eval" => {
                check_fetch_into_shell(args)?;
                let text: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
                self.line(&text.join(" "), &real.cwd, depth + 1)?;
                self.opaque("`eval` runs text that is only put together when the line runs");
                Ok(())
            }
            "source" | "." => {
                check_fetch_into_shell(args)?;
                match args.first() {
                    Some(w) if w.process_substitution => self.opaque(format!(
                        "`{name}` runs the output of a process substitution"
                    )),
                    Some(w) if w.dynamic => self.opaque(format!(
                        "`{name} {}` runs a file whose name is only known when the line runs",
                        w.text
                    )),
                    _ => {}
                }
                Ok(())
            }
            "alias" if args.iter().any(|a| a.text.contains('=')) => {
                for (_, value) in args.iter().filter_map(|a| a.text.split_once('=')) {
                    self.line(value, &real.cwd, depth + 1)?;
                }
                self.opaque("`alias` changes what later command names mean");
                Ok(())
            }
            _ => destructive::check(self, &name, args, &real, depth),
        }
    }

    /// `bash -c SCRIPT`, `bash FILE`, or a shell reading its script from stdin.
    fn shell(
        &mut self,
        run: ShellRun<'_>,
        name: &str,
        command: &SimpleCommand,
        cwd: &Cwd,
        depth: usize,
    ) -> Result<(), GuardDenial> {
        match run {
            ShellRun::Script(script) => {
                check_fetch_into_shell(std::slice::from_ref(script))?;
                self.line(&script.text, cwd, depth + 1)?;
                if script.dynamic {
                    self.opaque(format!(
                        "the script given to `{name} -c` is only known when the line runs"
                    ));
                }
            }
            ShellRun::File(file) => {
                check_fetch_into_shell(std::slice::from_ref(file))?;
                if file.process_substitution || file.dynamic {
                    self.opaque(format!(
                        "`{name}` runs a script that is only known when the line runs"
                    ));
                }
            }
            ShellRun::Stdin => {
                for redirect in &command.redirects {
                    match redirect.op.as_str() {
                        "<<" | "<<-" | "<<<" => {
                            // The body is checked for what is refused anyway; it still runs unseen by a person.
                            self.line(&redirect.target.text, cwd, depth + 1)?;
                            self.opaque(format!("a script is fed to `{name}` on stdin"));
                        }
                        "<" if redirect.target.dynamic => self.opaque(format!(
                            "`{name}` reads a script whose name is only known when the line runs"
                        )),
                        _ => {}
                    }
                }
                if command.piped {
                    self.opaque(format!(
                        "`{name}` runs whatever the commands before it in the pipe print"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// True for redirections that write a file (`>`, `>>`, `&>`, `>|`, `<>`, `>&file`), not fd duplication (`2>&1`).
fn writes(redirect: &parse::Redirect) -> bool {
    let op = redirect.op.as_str();
    if !op.contains('>') {
        return false;
    }
    let target = redirect.target.text.as_str();
    let duplicates = matches!(op, ">&" | "<&" | ">&-")
        && (target == "-" || target.chars().all(|c| c.is_ascii_digit()));
    !duplicates
}

fn check_elevation(name: &str) -> Result<(), GuardDenial> {
    if ELEVATORS.contains(&name) {
        return Err(GuardDenial::new(
            "sudo",
            format!("`{name}` runs commands with elevated privileges, which paicli never does"),
        ));
    }
    Ok(())
}

/// `name(){ …name|name& … }`: a function that starts copies of itself.
fn check_fork_bomb(function: &parse::Function) -> Result<(), GuardDenial> {
    let body: String = function.body.split_whitespace().collect();
    let name = &function.name;
    if !name.is_empty()
        && (body.contains(&format!("{name}|{name}")) || body.contains(&format!("{name}&")))
    {
        return Err(GuardDenial::new(
            "fork-bomb",
            "a function that starts copies of itself (fork bomb) exhausts the machine",
        ));
    }
    Ok(())
}

fn pipe_to_shell() -> GuardDenial {
    GuardDenial::new(
        "pipe-to-shell",
        "running a downloaded script directly in a shell (curl/wget piped to sh/bash) is not allowed; \
         download it to a file inside the project and show it to the user first",
    )
}

/// `sh -c "$(curl …)"`, `bash <(curl …)`, `. <(wget …)`, `eval "$(curl …)"`.
fn check_fetch_into_shell(words: &[Word]) -> Result<(), GuardDenial> {
    let fetched = words
        .iter()
        .flat_map(|w| &w.substitutions)
        .any(|inner| fetches(inner));
    if fetched {
        return Err(pipe_to_shell());
    }
    Ok(())
}

/// `curl … | sh`, `wget -O- … | bash -s`, `curl x | tee f | zsh`.
fn check_pipe_to_shell(pipeline: &Pipeline) -> Result<(), GuardDenial> {
    let mut downloaded = false;
    for command in &pipeline.commands {
        let real = unwrap(&command.words, &command.cwd);
        let Some(first) = real.words.first() else {
            continue;
        };
        if downloaded && command.piped && shell_run(&real.words) == Some(ShellRun::Stdin) {
            return Err(pipe_to_shell());
        }
        if is_fetcher(&first.text) {
            downloaded = true;
        }
    }
    Ok(())
}

fn is_fetcher(word: &str) -> bool {
    matches!(program_name(word).as_str(), "curl" | "wget")
}

/// True when a nested line runs curl or wget.
fn fetches(line: &str) -> bool {
    parse::parse(line).commands().any(|c| {
        unwrap(&c.words, &c.cwd)
            .words
            .first()
            .is_some_and(|w| is_fetcher(&w.text))
    })
}
