//! Strips wrappers (`env`, `env -S`, `nohup`, `timeout`, `xargs`, `nice`, `command`, `exec`, `time -p`,
//! `chroot`, `taskset`, `flock`, `stdbuf`, `busybox`, ...) and leading variable assignments so the rules see the
//! command that really runs, and reads how a shell is asked to run a script (`bash -o posix -c -- '…'`).

use std::path::PathBuf;

use super::parse::{self, Cwd, Word};

/// The lower-cased file name of a program (`/bin/RM` → `rm`).
pub fn program_name(word: &str) -> String {
    word.rsplit('/').next().unwrap_or(word).to_ascii_lowercase()
}

/// True for `NAME=value`.
fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Skips a wrapper's options; those in `with_value` take a separate value. Stops after `--`.
pub fn skip_options<'a, W: AsRef<str>>(words: &'a [W], with_value: &[&str]) -> &'a [W] {
    let mut rest = words;
    while let Some(first) = rest.first() {
        let first = first.as_ref();
        if first == "--" {
            return &rest[1..];
        }
        if !first.starts_with('-') || first == "-" {
            break;
        }
        let takes_value = with_value.contains(&first);
        rest = &rest[if takes_value { 2.min(rest.len()) } else { 1 }..];
    }
    rest
}

impl AsRef<str> for Word {
    fn as_ref(&self) -> &str {
        &self.text
    }
}

/// The command that really runs behind the wrappers.
#[derive(Clone, Debug, Default)]
pub struct Unwrapped {
    /// Its words; empty when the wrapper only prints (`command -v x`) or runs nothing.
    pub words: Vec<Word>,
    /// Where it runs (`env -C dir` moves it).
    pub cwd: Cwd,
    /// The wrappers passed, by name (`xargs`, `chroot`, ...).
    pub wrappers: Vec<String>,
}

/// Unwraps `words` run from `cwd`.
pub fn unwrap(words: &[Word], cwd: &Cwd) -> Unwrapped {
    let mut out = Unwrapped {
        words: words.to_vec(),
        cwd: cwd.clone(),
        wrappers: Vec::new(),
    };
    // Each round removes one wrapper; the bound keeps `env env env …` finite.
    for _ in 0..64 {
        let skip = out
            .words
            .iter()
            .take_while(|w| !w.dynamic && is_assignment(&w.text))
            .count();
        out.words.drain(..skip);
        let Some(first) = out.words.first() else {
            return out;
        };
        if first.dynamic {
            return out;
        }
        let name = program_name(&first.text);
        let Some(rest) = strip_wrapper(&name, &out.words[1..], &mut out.cwd) else {
            return out;
        };
        out.words = rest;
        out.wrappers.push(name);
    }
    out
}

/// The words after wrapper `name`, or `None` when `name` is not a wrapper.
fn strip_wrapper(name: &str, args: &[Word], cwd: &mut Cwd) -> Option<Vec<Word>> {
    let rest: &[Word] = match name {
        "env" => return Some(strip_env(args, cwd)),
        "nohup" | "builtin" | "setsid" | "coproc" | "busybox" | "unbuffer" => args,
        "time" => skip_options(args, &["-f", "--format", "-o", "--output"]),
        "nice" => skip_options(args, &["-n", "--adjustment"]),
        "ionice" => skip_options(args, &["-c", "-n", "-p", "--class", "--classdata"]),
        "stdbuf" => skip_options(args, &["-i", "-o", "-e"]),
        "chrt" => skip_options(args, &[]).get(1..).unwrap_or(&[]),
        "timeout" => {
            let after = skip_options(args, &["-s", "--signal", "-k", "--kill-after"]);
            after.get(1..).unwrap_or(&[])
        }
        "taskset" => {
            let after = skip_options(args, &[]);
            if args.iter().any(|a| a.text == "-p" || a.text == "--pid") {
                &[]
            } else {
                after.get(1..).unwrap_or(&[])
            }
        }
        "chroot" => {
            *cwd = Some(PathBuf::from("/"));
            let after = skip_options(args, &["--userspec", "--groups"]);
            after.get(1..).unwrap_or(&[])
        }
        "flock" => {
            let after = skip_options(args, &["-w", "--timeout", "-E", "--conflict-exit-code"]);
            let after = after.get(1..).unwrap_or(&[]);
            // `flock FILE -c 'script'` runs the script with `sh -c`.
            return Some(match after.first().map(|w| w.text.as_str()) {
                Some("-c" | "--command") => {
                    let mut shell = vec![Word::literal("sh"), Word::literal("-c")];
                    shell.extend(after[1..].iter().cloned());
                    shell
                }
                _ => skip_options(after, &[]).to_vec(),
            });
        }
        "script" => return Some(strip_script(args)),
        "command" => {
            if args
                .first()
                .is_some_and(|w| w.text == "-v" || w.text == "-V")
            {
                &[]
            } else {
                skip_options(args, &[])
            }
        }
        "exec" => skip_options(args, &["-a"]),
        "xargs" => skip_options(
            args,
            &[
                "-a", "-d", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "-P", "-s",
            ],
        ),
        _ => return None,
    };
    Some(rest.to_vec())
}

/// `env [-i] [-u NAME] [-C DIR] [-S 'words'] [NAME=value]… command`.
fn strip_env(args: &[Word], cwd: &mut Cwd) -> Vec<Word> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let a = arg.text.as_str();
        if a == "--" {
            return args[i + 1..].to_vec();
        }
        if a == "-C" || a == "--chdir" || a.starts_with("--chdir=") {
            let dir = if a.starts_with("--chdir=") {
                args.get(i).map(|w| {
                    let mut w = w.clone();
                    w.text = a.trim_start_matches("--chdir=").to_string();
                    w
                })
            } else {
                i += 1;
                args.get(i).cloned()
            };
            *cwd = match dir {
                Some(d) if !d.dynamic => cwd.as_ref().map(|c| c.join(&d.text)),
                _ => None,
            };
        } else if let Some(split) = split_string_option(a) {
            // `-S 'rm -rf X'` splits its argument into words, which take the place of the option.
            let text = if split.is_empty() {
                i += 1;
                args.get(i).cloned().unwrap_or_default()
            } else {
                Word::literal(split)
            };
            let mut words: Vec<Word> = parse::parse(&text.text)
                .commands()
                .next()
                .map(|c| c.words.clone())
                .unwrap_or_default();
            if text.dynamic {
                words.insert(0, text);
            }
            words.extend(args[i + 1..].iter().cloned());
            return strip_env(&words, cwd);
        } else if a == "-u" || a == "--unset" {
            i += 1;
        } else if !a.starts_with('-') || a == "-" {
            return args[i..].to_vec();
        }
        i += 1;
    }
    Vec::new()
}

/// The text after `-S` / `--split-string` (`Some("")` when it is the next word).
fn split_string_option(arg: &str) -> Option<&str> {
    if arg == "-S" || arg == "--split-string" {
        return Some("");
    }
    arg.strip_prefix("--split-string=").or_else(|| {
        arg.strip_prefix("-S")
            .or_else(|| arg.strip_prefix("-iS"))
            .filter(|_| !arg.starts_with("--"))
    })
}

/// `script [-q] [-c COMMAND] [FILE]` runs COMMAND with the user's shell.
fn strip_script(args: &[Word]) -> Vec<Word> {
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        let t = a.text.as_str();
        let short_c = t.starts_with('-') && !t.starts_with("--") && t.ends_with('c');
        if short_c || t == "--command" {
            let mut shell = vec![Word::literal("sh"), Word::literal("-c")];
            shell.extend(iter.next().cloned());
            return shell;
        }
        if let Some(command) = t.strip_prefix("--command=") {
            return vec![
                Word::literal("sh"),
                Word::literal("-c"),
                Word::literal(command),
            ];
        }
    }
    Vec::new()
}

/// How a shell was asked to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShellRun<'a> {
    /// `bash -c SCRIPT`.
    Script(&'a Word),
    /// `bash FILE`.
    File(&'a Word),
    /// Reads its script from stdin (`bash`, `bash -s`).
    Stdin,
}

/// How `words` (already unwrapped) runs a shell, or `None` when it is not a shell.
pub fn shell_run(words: &[Word]) -> Option<ShellRun<'_>> {
    let name = program_name(&words.first()?.text);
    if !is_shell(&name) {
        return None;
    }
    let mut command_mode = false;
    let mut stdin_mode = false;
    let mut iter = words[1..].iter();
    while let Some(w) = iter.next() {
        let t = w.text.as_str();
        if t == "--" {
            break;
        }
        if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
            iter.next();
        } else if t.starts_with("--") {
        } else if (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 {
            command_mode |= t.contains('c');
            stdin_mode |= t.contains('s');
        } else {
            return Some(first_operand(w, command_mode, stdin_mode));
        }
    }
    match iter.next() {
        Some(w) => Some(first_operand(w, command_mode, stdin_mode)),
        None => Some(ShellRun::Stdin),
    }
}

fn first_operand(w: &Word, command_mode: bool, stdin_mode: bool) -> ShellRun<'_> {
    if command_mode {
        ShellRun::Script(w)
    } else if stdin_mode {
        ShellRun::Stdin
    } else {
        ShellRun::File(w)
    }
}

/// The script of `bash -c SCRIPT`, if that is how `words` runs a shell.
pub fn shell_script(words: &[Word]) -> Option<&str> {
    match shell_run(words)? {
        ShellRun::Script(w) => Some(&w.text),
        _ => None,
    }
}

/// Shells that run a script given to them.
pub fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "mksh" | "fish" | "csh" | "tcsh" | "ash" | "yash"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        parse::parse(line)
            .commands()
            .next()
            .map(|c| c.words.clone())
            .unwrap_or_default()
    }

    fn real(line: &str) -> Vec<String> {
        let root = Some(PathBuf::new());
        unwrap(&words(line), &root)
            .words
            .iter()
            .map(|w| w.text.clone())
            .collect()
    }

    #[test]
    fn unwraps_nested_wrappers() {
        let cases = [
            "FOO=1 env -i A=b nohup timeout -s KILL 10 nice -n 5 /bin/rm -rf /",
            "env -S 'rm -rf /'",
            "env -S\"rm -rf\" /",
            "time -p rm -rf /",
            "chroot / rm -rf /",
            "taskset -c 0 rm -rf /",
            "taskset 0x1 rm -rf /",
            "flock /tmp/l rm -rf /",
            "stdbuf -o0 rm -rf /",
        ];
        for line in cases {
            let got = real(line);
            assert_eq!(&got[got.len() - 2..], ["-rf", "/"], "{line}: {got:?}");
            assert_eq!(program_name(&got[0]), "rm", "{line}: {got:?}");
        }
    }

    #[test]
    fn wrappers_that_run_a_script_become_sh_c() {
        assert_eq!(
            real("script -qc 'rm -rf /' /dev/null"),
            ["sh", "-c", "rm -rf /"]
        );
        assert_eq!(real("flock /tmp/l -c 'rm x'"), ["sh", "-c", "rm x"]);
    }

    #[test]
    fn env_chdir_moves_the_command() {
        let root = Some(PathBuf::new());
        let u = unwrap(&words("env -C sub rm -rf ."), &root);
        assert_eq!(u.cwd, Some(PathBuf::from("sub")));
    }

    #[test]
    fn reads_every_way_a_shell_runs_a_script() {
        for line in [
            "bash -lc 'rm -rf /'",
            "bash -o posix -c 'rm -rf /'",
            "bash -c -- 'rm -rf /'",
            "sh -e -c 'rm -rf /'",
        ] {
            assert_eq!(shell_script(&words(line)), Some("rm -rf /"), "{line}");
        }
        assert!(matches!(
            shell_run(&words("bash script.sh")),
            Some(ShellRun::File(_))
        ));
        assert_eq!(shell_run(&words("bash")), Some(ShellRun::Stdin));
        assert_eq!(shell_run(&words("bash -s -- --yes")), Some(ShellRun::Stdin));
        assert_eq!(shell_run(&words("ls -la")), None);
    }
}
