//! The rules of spec §6.2, applied to every command a parsed line would run.

use std::sync::LazyLock;

use regex::Regex;

use super::GuardDenial;
use super::fence::WriteFence;
use super::parse::{self, Pipeline, SimpleCommand};
use super::unwrap::{is_shell, program_name, shell_script, unwrap_command};

/// Nesting of `bash -c` / `$(...)` / `eval` beyond which a line is refused rather than analysed.
const MAX_DEPTH: usize = 8;

/// `name(){ ... }` function definitions (for the fork-bomb check).
static FUNCTION_DEF: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"([A-Za-z_:.][A-Za-z0-9_:.]*)\s*\(\s*\)\s*\{([^}]*)\}").ok());

/// Checks `line` and everything nested in it.
pub fn check_line(line: &str, fence: &WriteFence, depth: usize) -> Result<(), GuardDenial> {
    if depth > MAX_DEPTH {
        return Err(GuardDenial::new(
            "nesting-too-deep",
            "the command nests shells or substitutions too deeply to be checked",
        ));
    }
    check_fork_bomb(line)?;
    let script = parse::parse(line);
    for inner in &script.substitutions {
        check_line(inner, fence, depth + 1)?;
    }
    for pipeline in &script.pipelines {
        check_pipe_to_shell(pipeline)?;
        for command in &pipeline.commands {
            check_command(command, fence, depth)?;
        }
    }
    Ok(())
}

fn check_fork_bomb(line: &str) -> Result<(), GuardDenial> {
    let Some(re) = FUNCTION_DEF.as_ref() else {
        return Ok(());
    };
    for caps in re.captures_iter(line) {
        let (Some(name), Some(body)) = (caps.get(1), caps.get(2)) else {
            continue;
        };
        let body: String = body.as_str().split_whitespace().collect();
        let name = name.as_str();
        if body.contains(&format!("{name}|{name}")) || body.contains(&format!("{name}&")) {
            return Err(GuardDenial::new(
                "fork-bomb",
                "a function that starts copies of itself (fork bomb) exhausts the machine",
            ));
        }
    }
    Ok(())
}

/// `curl … | sh`, `wget -O- … | bash`, and `bash <(curl …)` / `sh -c "$(curl …)"`.
fn check_pipe_to_shell(pipeline: &Pipeline) -> Result<(), GuardDenial> {
    let mut downloaded = false;
    for command in &pipeline.commands {
        let words = texts(command);
        let real = unwrap_command(&words);
        let Some(first) = real.first() else { continue };
        let name = program_name(first);
        let fetches_in_args = command
            .words
            .iter()
            .flat_map(|w| &w.substitutions)
            .any(|inner| fetches(inner));
        if is_shell(&name) && (downloaded || fetches_in_args) {
            return Err(GuardDenial::new(
                "pipe-to-shell",
                "running a downloaded script directly in a shell (curl/wget piped to sh/bash) is not allowed; \
                 download it to a file inside the project and show it to the user first",
            ));
        }
        if matches!(name.as_str(), "curl" | "wget") {
            downloaded = true;
        }
    }
    Ok(())
}

/// True when a nested line runs curl or wget.
fn fetches(line: &str) -> bool {
    parse::parse(line).commands().any(|c| {
        let words = texts(c);
        unwrap_command(&words)
            .first()
            .is_some_and(|w| matches!(program_name(w).as_str(), "curl" | "wget"))
    })
}

fn texts(command: &SimpleCommand) -> Vec<String> {
    command.words.iter().map(|w| w.text.clone()).collect()
}

fn check_command(
    command: &SimpleCommand,
    fence: &WriteFence,
    depth: usize,
) -> Result<(), GuardDenial> {
    for redirect in &command.redirects {
        let writes = redirect.op.contains('>') && redirect.op != ">&";
        if writes {
            fence_target(fence, &redirect.target.text, "redirect output to")?;
        }
    }
    let words = texts(command);
    if let Some(first) = words.first() {
        let name = program_name(first);
        if matches!(name.as_str(), "sudo" | "doas" | "su" | "pkexec") {
            return Err(GuardDenial::new(
                "sudo",
                format!("`{name}` runs commands with elevated privileges, which paicli never does"),
            ));
        }
    }
    let real = unwrap_command(&words);
    let Some(first) = real.first() else {
        return Ok(());
    };
    let name = program_name(first);
    let args = &real[1..];
    if matches!(name.as_str(), "sudo" | "doas" | "su" | "pkexec") {
        return Err(GuardDenial::new(
            "sudo",
            format!("`{name}` runs commands with elevated privileges, which paicli never does"),
        ));
    }
    if let Some(script) = shell_script(real) {
        return check_line(script, fence, depth + 1);
    }
    match name.as_str() {
        "eval" => check_line(&args.join(" "), fence, depth + 1),
        "rm" => check_rm(args, fence),
        "rmdir" | "touch" | "mkdir" | "tee" | "truncate" | "shred" | "unlink" => {
            for target in positionals(args) {
                fence_target(fence, target, &name)?;
            }
            Ok(())
        }
        "cp" | "mv" | "ln" | "install" | "rsync" => check_copy(&name, args, fence),
        "chmod" | "chown" | "chgrp" => check_chmod(&name, args, fence),
        "dd" => check_dd(args, fence),
        "find" => check_find(args),
        "shutdown" | "reboot" | "halt" | "poweroff" => Err(power_denial(&name)),
        "systemctl"
            if args.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "poweroff" | "reboot" | "halt" | "kexec" | "suspend" | "hibernate"
                )
            }) =>
        {
            Err(power_denial(&name))
        }
        "init" | "telinit" if args.iter().any(|a| a == "0" || a == "6") => Err(power_denial(&name)),
        n if n.starts_with("mkfs") || n == "mke2fs" || n == "wipefs" => Err(GuardDenial::new(
            "mkfs",
            format!("`{n}` formats or wipes a file system"),
        )),
        _ => Ok(()),
    }
}

fn power_denial(name: &str) -> GuardDenial {
    GuardDenial::new(
        "shutdown",
        format!("`{name}` shuts down or restarts the machine"),
    )
}

fn fence_target(fence: &WriteFence, target: &str, action: &str) -> Result<(), GuardDenial> {
    match fence.outside(target) {
        None => Ok(()),
        Some(resolved) => Err(GuardDenial::new(
            "write-outside-project",
            format!(
                "`{action} {target}` would write to {resolved}, outside the project directory; commands may \
                 only write inside the project (or under /tmp/ and $PAICLI_HOME)"
            ),
        )),
    }
}

/// Arguments that are not options (everything after `--` counts).
fn positionals(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut options_done = false;
    for a in args {
        if !options_done && a == "--" {
            options_done = true;
        } else if options_done || !a.starts_with('-') || a == "-" {
            out.push(a.as_str());
        }
    }
    out
}

/// Short flags (`-rf`) and long ones (`--recursive`) present in `args`.
fn has_flag(args: &[String], short: &[char], long: &str) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| {
        a == long
            || (a.starts_with('-')
                && !a.starts_with("--")
                && a.chars().skip(1).any(|c| short.contains(&c)))
    })
}

/// Targets whose recursive removal or mode change wrecks the system or the user's home: `/`, `/*`, a top-level
/// directory (`/usr`), `~`, `$HOME`, `..`; and the project itself (`.`, `*`).
fn catastrophic(target: &str) -> bool {
    let t = target.trim();
    let t = t.trim_end_matches("/*").trim_end_matches('*');
    let t = t.trim_end_matches('/');
    if matches!(
        t,
        "" | "~" | "$HOME" | "${HOME}" | "." | ".." | "./.." | "/." | "/.."
    ) {
        return true;
    }
    t.starts_with('/') && t.matches('/').count() == 1
}

fn check_rm(args: &[String], fence: &WriteFence) -> Result<(), GuardDenial> {
    if args.iter().any(|a| a == "--no-preserve-root") {
        return Err(GuardDenial::new(
            "rm-recursive-root",
            "`rm --no-preserve-root` removes the whole file system",
        ));
    }
    let recursive = has_flag(args, &['r', 'R'], "--recursive");
    let targets = positionals(args);
    if recursive && let Some(t) = targets.iter().find(|t| catastrophic(t)) {
        return Err(GuardDenial::new(
            "rm-recursive-root",
            format!(
                "recursive rm of `{t}` would delete the file system root, a system directory, your home \
                 directory or the whole project; name the specific subdirectory to remove (e.g. ./target)"
            ),
        ));
    }
    for t in targets {
        fence_target(fence, t, "rm")?;
    }
    Ok(())
}

fn check_copy(name: &str, args: &[String], fence: &WriteFence) -> Result<(), GuardDenial> {
    let mut targets: Vec<&str> = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if a == "-t" || a == "--target-directory" {
            targets.extend(iter.next().map(String::as_str));
        } else if let Some(dir) = a.strip_prefix("--target-directory=") {
            targets.push(dir);
        }
    }
    let pos = positionals(args);
    if targets.is_empty() && pos.len() >= 2 {
        targets.extend(pos.last().copied());
    }
    if name == "mv" {
        // Moving a file away deletes it from where it was.
        targets.extend(pos.iter().take(pos.len().saturating_sub(1)));
    }
    for t in targets {
        fence_target(fence, t, name)?;
    }
    Ok(())
}

fn check_chmod(name: &str, args: &[String], fence: &WriteFence) -> Result<(), GuardDenial> {
    let pos = positionals(args);
    let has_reference = args.iter().any(|a| a.starts_with("--reference"));
    let targets = if has_reference {
        &pos[..]
    } else {
        pos.get(1..).unwrap_or(&[])
    };
    if has_flag(args, &['R'], "--recursive")
        && let Some(t) = targets.iter().find(|t| catastrophic(t))
    {
        return Err(GuardDenial::new(
            "chmod-recursive-root",
            format!(
                "recursive `{name}` of `{t}` changes permissions of the whole system, home or project"
            ),
        ));
    }
    for t in targets {
        fence_target(fence, t, name)?;
    }
    Ok(())
}

fn check_dd(args: &[String], fence: &WriteFence) -> Result<(), GuardDenial> {
    for a in args {
        if let Some(out) = a.strip_prefix("of=") {
            if out.starts_with("/dev/") && out != "/dev/null" {
                return Err(GuardDenial::new(
                    "dd-device",
                    format!("`dd of={out}` writes straight to a device and can destroy a disk"),
                ));
            }
            fence_target(fence, out, "dd of=")?;
        }
    }
    Ok(())
}

fn check_find(args: &[String]) -> Result<(), GuardDenial> {
    let starts = args
        .iter()
        .take_while(|a| !(a.starts_with('-') || a.starts_with('(') || a.starts_with('!')));
    for s in starts {
        let t = s.trim_end_matches('/');
        if matches!(t, "" | "~" | "$HOME" | "${HOME}") {
            return Err(GuardDenial::new(
                "find-root",
                format!(
                    "`find {s}` walks the whole file system or home directory; search inside the project \
                     (e.g. `find . -name ...`) instead"
                ),
            ));
        }
    }
    Ok(())
}
