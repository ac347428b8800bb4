//! A small shell word splitter for spotting network commands inside `execute_command`.
//!
//! Enough for this check only: quotes and backslashes, and `; | & ( ) \n`, `$(` and backticks as command
//! separators, so `echo ok && curl x` and `$(wget y)` are both seen. It can move onto the shared shell tokenizer
//! (`policy::command_guard`) once that exists.

/// Splits `command` into simple commands, each a list of words with quotes removed.
pub fn split_commands(command: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars().peekable();
    let end_word = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        // A substitution inside quotes still runs: leave the quotes and split there, so
                        // `echo "$(curl x)"` shows `curl x`. The closing quote then opens a harmless empty word.
                        '`' | '$' if q == '`' || chars.peek() == Some(&'(') => {
                            if q == '$' {
                                chars.next();
                            }
                            end_word(&mut word, &mut in_word, &mut words);
                            if !words.is_empty() {
                                commands.push(std::mem::take(&mut words));
                            }
                            break;
                        }
                        '\\' => {
                            if let Some(n) = chars.next() {
                                word.push(n);
                            }
                        }
                        _ => word.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            ';' | '|' | '&' | '(' | ')' | '\n' | '`' | '{' | '}' => {
                end_word(&mut word, &mut in_word, &mut words);
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            '$' if chars.peek() == Some(&'(') => {
                chars.next();
                end_word(&mut word, &mut in_word, &mut words);
                if !words.is_empty() {
                    commands.push(std::mem::take(&mut words));
                }
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, &mut words),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut words);
    if !words.is_empty() {
        commands.push(words);
    }
    commands
}

/// A simple command that reaches the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkCommand {
    /// The program and subcommand, e.g. `git clone`.
    pub label: String,
    /// For curl and wget: the URLs named (`None` for other programs).
    pub urls: Option<Vec<String>>,
}

/// Programs that wrap another command (`sudo curl ...`, `timeout 5 wget ...`).
const WRAPPERS: &[&str] = &[
    "sudo", "env", "nohup", "time", "timeout", "command", "exec", "nice", "xargs", "stdbuf",
];

/// The network commands in `command`, in order.
pub fn network_commands(command: &str) -> Vec<NetworkCommand> {
    split_commands(command)
        .iter()
        .filter_map(|words| classify_words(words))
        .collect()
}

fn classify_words(words: &[String]) -> Option<NetworkCommand> {
    let mut i = 0;
    // Skip `VAR=value` prefixes and wrapper programs with their options (`timeout -s KILL 5 curl ...`).
    while let Some(word) = words.get(i) {
        if is_assignment(word) {
            i += 1;
        } else if WRAPPERS.contains(&program_name(word)) {
            i += 1;
            while let Some(arg) = words.get(i) {
                if matches!(
                    arg.as_str(),
                    "-u" | "-g" | "-s" | "-k" | "-n" | "-C" | "--signal"
                ) {
                    i += 2;
                } else if arg.starts_with('-') || is_assignment(arg) || is_duration(arg) {
                    i += 1;
                } else {
                    break;
                }
            }
        } else {
            break;
        }
    }
    let rest = words.get(i..).unwrap_or_default();
    let (first, args) = rest.split_first()?;
    let program = program_name(first);
    let sub = subcommand(args);
    let label = |s: &str| Some(format!("{program} {s}").trim_end().to_string());
    let found = match program {
        "curl" | "wget" => {
            let urls = args.iter().filter(|a| a.contains("://")).cloned().collect();
            return Some(NetworkCommand {
                label: program.to_string(),
                urls: Some(urls),
            });
        }
        "ssh" | "scp" | "sftp" | "ftp" | "telnet" | "nc" | "ncat" | "netcat" | "rsync"
        | "aria2c" | "http" | "https" | "lynx" | "w3m" => label(""),
        "git" if matches!(sub, "clone" | "fetch" | "pull" | "push" | "ls-remote") => label(sub),
        "pip" | "pip3" | "pipx" | "uv" | "poetry"
            if matches!(sub, "install" | "download" | "add" | "pip") =>
        {
            label(sub)
        }
        "python" | "python3"
            if args
                .windows(3)
                .any(|w| w[0] == "-m" && w[1] == "pip" && w[2] == "install") =>
        {
            label("-m pip install")
        }
        "npm" | "pnpm" | "yarn" | "bun"
            if matches!(sub, "install" | "i" | "ci" | "add" | "update") =>
        {
            label(sub)
        }
        "cargo" if matches!(sub, "install" | "add" | "fetch" | "update") => label(sub),
        "go" if matches!(sub, "get" | "install") => label(sub),
        "gem" | "brew" | "apt" | "apt-get" | "dnf" | "yum" | "apk"
            if matches!(sub, "install" | "update" | "upgrade") =>
        {
            label(sub)
        }
        _ => None,
    };
    found.map(|label| NetworkCommand { label, urls: None })
}

/// The first word that is not an option; `-C dir` and `-c key=value` (git) take a value.
fn subcommand(args: &[String]) -> &str {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if matches!(
            arg.as_str(),
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--prefix"
        ) {
            iter.next();
        } else if !arg.starts_with('-') {
            return arg;
        }
    }
    ""
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `5`, `2.5`, `10s`, `1m` (a `timeout` or `nice` argument).
fn is_duration(word: &str) -> bool {
    let digits = word.trim_end_matches(['s', 'm', 'h', 'd']);
    !digits.is_empty() && digits.parse::<f64>().is_ok()
}

/// `/usr/bin/curl` → `curl`.
fn program_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}
