//! Strips wrappers (`env`, `nohup`, `timeout`, `xargs`, `nice`, `command`, `exec`, `time`, `stdbuf`) and leading
//! variable assignments so the rules see the command that really runs.

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

/// Options of a wrapper that take a separate value.
pub fn skip_options<'a>(words: &'a [String], with_value: &[&str]) -> &'a [String] {
    let mut rest = words;
    while let Some(first) = rest.first() {
        if first == "--" {
            return &rest[1..];
        }
        if !first.starts_with('-') || first == "-" {
            break;
        }
        let takes_value = with_value.contains(&first.as_str());
        rest = &rest[if takes_value { 2.min(rest.len()) } else { 1 }..];
    }
    rest
}

/// The words of the command that actually runs; a wrapper that only prints (`command -v x`) yields nothing.
pub fn unwrap_command(words: &[String]) -> &[String] {
    let mut rest = words;
    loop {
        while rest.first().is_some_and(|w| is_assignment(w)) {
            rest = &rest[1..];
        }
        let Some(first) = rest.first() else {
            return rest;
        };
        rest = match program_name(first).as_str() {
            "env" => skip_options(&rest[1..], &["-u", "--unset", "-C", "--chdir", "-S"]),
            "nohup" | "time" | "builtin" | "setsid" => &rest[1..],
            "nice" => skip_options(&rest[1..], &["-n", "--adjustment"]),
            "ionice" => skip_options(&rest[1..], &["-c", "-n", "-p"]),
            "stdbuf" => skip_options(&rest[1..], &["-i", "-o", "-e"]),
            "timeout" => {
                let after = skip_options(&rest[1..], &["-s", "--signal", "-k", "--kill-after"]);
                after.get(1..).unwrap_or(&[])
            }
            "command" => {
                let after = &rest[1..];
                if after.first().is_some_and(|w| w == "-v" || w == "-V") {
                    return &[];
                }
                skip_options(after, &[])
            }
            "exec" => skip_options(&rest[1..], &["-a"]),
            "xargs" => skip_options(
                &rest[1..],
                &["-a", "-d", "-E", "-e", "-I", "-L", "-l", "-n", "-P", "-s"],
            ),
            _ => return rest,
        };
    }
}

/// The script of `bash -c SCRIPT` (also `sh`, `zsh`, `dash`, `ksh`, `fish`, combined flags like `-lc`).
pub fn shell_script(words: &[String]) -> Option<&str> {
    let name = program_name(words.first()?);
    if !is_shell(&name) {
        return None;
    }
    let mut iter = words[1..].iter();
    while let Some(w) = iter.next() {
        if w.starts_with('-') && !w.starts_with("--") && w.contains('c') {
            return iter.next().map(String::as_str);
        }
        if !w.starts_with('-') {
            return None;
        }
    }
    None
}

/// Shells that run a script given to them.
pub fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish" | "csh" | "tcsh"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn unwraps_nested_wrappers() {
        let words = owned(&[
            "FOO=1", "env", "-i", "A=b", "nohup", "timeout", "-s", "KILL", "10", "nice", "-n", "5",
            "/bin/rm", "-rf", "/",
        ]);
        assert_eq!(unwrap_command(&words), &owned(&["/bin/rm", "-rf", "/"])[..]);
    }

    #[test]
    fn finds_shell_scripts() {
        assert_eq!(
            shell_script(&owned(&["bash", "-lc", "rm -rf /"])),
            Some("rm -rf /")
        );
        assert_eq!(shell_script(&owned(&["bash", "script.sh"])), None);
    }
}
