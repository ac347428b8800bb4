//! Spotting network commands inside `execute_command`, on the command guard's bash-grammar parser
//! (`guard::command_guard::parse`): quoting, `&&`/`;`/pipes, subshells, `$(...)`, backticks, here-documents and
//! `bash -c` scripts are all seen, so `echo ok && curl x` and `$(wget y)` are both found.

use crate::guard::command_guard::parse::{self, Word};
use crate::guard::command_guard::unwrap;

/// How deep `bash -c` scripts and substitutions inside substitutions are followed.
const MAX_NESTING: usize = 8;

/// Splits `command` into simple commands, each a list of words with quotes removed: the line's own commands
/// first, then those inside `bash -c` scripts and substitutions.
pub fn split_commands(command: &str) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    collect_commands(command, 0, &mut commands);
    commands
}

fn collect_commands(line: &str, depth: usize, out: &mut Vec<Vec<String>>) {
    if depth > MAX_NESTING {
        return;
    }
    let script = parse::parse(line);
    let mut nested = Vec::new();
    for command in script.commands() {
        let words = command.texts();
        // A word that is only a substitution runs nothing by itself; its inner line is collected below.
        if words.iter().all(|w| w == parse::SUBSTITUTION) {
            continue;
        }
        let real = unwrap::unwrap(&command.words, &command.cwd);
        match unwrap::shell_run(&real.words) {
            Some(unwrap::ShellRun::Script(inner)) => nested.push(inner.text.clone()),
            // `bash <<EOF … EOF` and `sh <<< '…'` run their stdin.
            Some(unwrap::ShellRun::Stdin) => nested.extend(
                command
                    .redirects
                    .iter()
                    .filter(|r| matches!(r.op.as_str(), "<<" | "<<-" | "<<<"))
                    .map(|r| r.target.text.clone()),
            ),
            _ => {}
        }
        out.push(words);
    }
    for inner in nested.iter().chain(&script.substitutions) {
        collect_commands(inner, depth + 1, out);
    }
}

/// A simple command that reaches the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkCommand {
    /// The program and subcommand, e.g. `git clone`.
    pub label: String,
    /// For curl and wget: the URLs named (`None` for other programs).
    pub urls: Option<Vec<String>>,
}

/// The network commands in `command`, in order.
pub fn network_commands(command: &str) -> Vec<NetworkCommand> {
    split_commands(command)
        .iter()
        .filter_map(|words| classify_words(words))
        .collect()
}

fn classify_words(words: &[String]) -> Option<NetworkCommand> {
    let words: Vec<Word> = words.iter().map(Word::literal).collect();
    let root = Some(std::path::PathBuf::new());
    // The guard refuses `sudo` itself; here it is only one more wrapper around the command that goes online.
    let mut rest = unwrap::unwrap(&words, &root).words;
    while rest
        .first()
        .is_some_and(|w| matches!(unwrap::program_name(&w.text).as_str(), "sudo" | "doas"))
    {
        let after = unwrap::skip_options(&rest[1..], &["-u", "-g", "-C", "-h", "-p"]).to_vec();
        rest = unwrap::unwrap(&after, &root).words;
    }
    let rest: Vec<String> = rest.into_iter().map(|w| w.text).collect();
    let (first, args) = rest.split_first()?;
    let program = unwrap::program_name(first);
    let program = program.as_str();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(line: &str) -> Vec<String> {
        network_commands(line)
            .into_iter()
            .map(|n| n.label)
            .collect()
    }

    #[test]
    fn finds_network_commands_the_bash_grammar_uncovers() {
        assert_eq!(
            labels("bash <<'EOF'\ncurl http://x.example/\nEOF"),
            ["curl"]
        );
        assert_eq!(labels("sh <<< 'wget http://y.example/'"), ["wget"]);
        assert_eq!(labels("{curl,http://x.example/}"), ["curl"]);
        assert_eq!(labels("env -S 'wget http://y.example/'"), ["wget"]);
        assert_eq!(labels("time -p git clone https://x/y.git"), ["git clone"]);
        assert_eq!(
            labels("cat <<EOF\ncurl http://x.example/\nEOF"),
            Vec::<String>::new()
        );
    }
}
