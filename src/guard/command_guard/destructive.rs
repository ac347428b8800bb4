//! Per-program rules: recursive removal or mode change of the system, the home directory or the project (in
//! every spelling: `.`, `./`, `..`, `../<project>`, its absolute path), `find -delete` / `-exec rm` not narrowed
//! by a name pattern inside the project, `xargs rm`, `dd` to devices, `mkfs`, power commands, and the write
//! targets of `cp`, `mv`, `tee`, `sed -i`, ….

use std::path::{Path, PathBuf};

use super::GuardDenial;
use super::parse::{Cwd, Word};
use super::rules::Checker;
use super::unwrap::{Unwrapped, program_name};

/// Programs that delete the files they are given.
const REMOVERS: [&str; 3] = ["rm", "unlink", "shred"];

/// Applies the rule for program `name` with `args` (the rest of `real.words`).
pub fn check(
    checker: &mut Checker<'_>,
    name: &str,
    args: &[Word],
    real: &Unwrapped,
    depth: usize,
) -> Result<(), GuardDenial> {
    let cwd = &real.cwd;
    if REMOVERS.contains(&name) && real.wrappers.iter().any(|w| w == "xargs") {
        // The catastrophic forms name their target; check those first for the clearer message.
        if name == "rm" {
            check_rm(checker, args, cwd)?;
        }
        return Err(GuardDenial::new(
            "xargs-rm",
            format!(
                "`xargs {name}` deletes whatever names reach it on stdin, which cannot be checked; list the \
                 files first and remove them by name"
            ),
        ));
    }
    match name {
        "rm" => check_rm(checker, args, cwd),
        "rmdir" | "touch" | "mkdir" | "tee" | "truncate" | "shred" | "unlink" => {
            for target in positionals(args) {
                checker.write(target, cwd, name)?;
            }
            Ok(())
        }
        "sed" | "perl" if in_place(args) => {
            let mut files =
                positionals_skipping(args, &["-e", "-f", "--expression", "--file", "-E"]);
            let has_script_option = args.iter().any(|a| {
                matches!(a.text.as_str(), "-e" | "-f" | "-E") || a.text.starts_with("--expression")
            });
            if !has_script_option && !files.is_empty() {
                files.remove(0);
            }
            for target in files {
                checker.write(target, cwd, name)?;
            }
            Ok(())
        }
        "curl" | "wget" => {
            let flags: &[&str] = if name == "curl" {
                &["-o", "--output"]
            } else {
                &["-O", "--output-document"]
            };
            for pair in args.windows(2) {
                if flags.contains(&pair[0].text.as_str()) && pair[1].text != "-" {
                    checker.write(&pair[1], cwd, name)?;
                }
            }
            Ok(())
        }
        "cp" | "mv" | "ln" | "install" | "rsync" => check_copy(checker, name, args, cwd),
        "git" => super::git_writes::check(checker, args, cwd),
        "chmod" | "chown" | "chgrp" => check_chmod(checker, name, args, cwd),
        "dd" => check_dd(checker, args, cwd),
        "find" => check_find(checker, args, cwd, depth),
        "shutdown" | "reboot" | "halt" | "poweroff" => Err(power_denial(name)),
        "systemctl"
            if args.iter().any(|a| {
                matches!(
                    a.text.as_str(),
                    "poweroff" | "reboot" | "halt" | "kexec" | "suspend" | "hibernate"
                )
            }) =>
        {
            Err(power_denial(name))
        }
        "init" | "telinit" if args.iter().any(|a| a.text == "0" || a.text == "6") => {
            Err(power_denial(name))
        }
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

/// Arguments that are not options (everything after `--` counts).
fn positionals(args: &[Word]) -> Vec<&Word> {
    positionals_skipping(args, &[])
}

/// Like [`positionals`], where options in `with_value` take the next word.
fn positionals_skipping<'a>(args: &'a [Word], with_value: &[&str]) -> Vec<&'a Word> {
    let mut out = Vec::new();
    let mut options_done = false;
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        let t = a.text.as_str();
        if !options_done && t == "--" {
            options_done = true;
        } else if options_done || !t.starts_with('-') || t == "-" {
            out.push(a);
        } else if with_value.contains(&t) {
            iter.next();
        }
    }
    out
}

/// Short flags (`-rf`) and long ones (`--recursive`) present in `args`.
fn has_flag(args: &[Word], short: &[char], long: &str) -> bool {
    args.iter().take_while(|a| a.text != "--").any(|a| {
        let a = a.text.as_str();
        a == long
            || (a.starts_with('-')
                && !a.starts_with("--")
                && a.chars().skip(1).any(|c| short.contains(&c)))
    })
}

fn in_place(args: &[Word]) -> bool {
    args.iter().any(|a| {
        let t = a.text.as_str();
        t.starts_with("--in-place")
            || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains('i'))
    })
}

/// Targets whose recursive removal or mode change wrecks the system, the user's home or the project: `/`, a
/// top-level directory (`/usr`), the home directory or any folder above it, and the project or any folder above
/// it, however they are spelled. A trailing `/*` or `*` means the folder's contents, judged like the folder.
fn catastrophic(checker: &Checker<'_>, target: &Word, cwd: &Cwd) -> bool {
    if target.dynamic {
        return false;
    }
    let t = target.text.trim();
    let folder = t.trim_end_matches("/*").trim_end_matches('*');
    let folder = if folder.is_empty() && !t.is_empty() && !t.starts_with('/') {
        "."
    } else {
        folder
    };
    if matches!(folder.trim_end_matches('/'), "" | "~" | "$HOME" | "${HOME}") {
        return true;
    }
    // `.`, `./`, `..`, `./..`: the folder the command runs in or one above it, wherever `cd` went.
    if folder.chars().all(|c| c == '.' || c == '/') && !folder.starts_with('/') {
        return true;
    }
    let Some(real) = checker.fence.locate(&Word::literal(folder), cwd) else {
        return false;
    };
    let top_level = real.components().count() <= 2;
    let holds = |inner: &Path| inner.starts_with(&real);
    top_level || holds(checker.fence.root()) || home().is_some_and(|h| holds(&h))
}

fn home() -> Option<PathBuf> {
    let home = dirs::home_dir()?;
    Some(std::fs::canonicalize(&home).unwrap_or(home))
}

fn check_rm(checker: &mut Checker<'_>, args: &[Word], cwd: &Cwd) -> Result<(), GuardDenial> {
    if args.iter().any(|a| a.text == "--no-preserve-root") {
        return Err(GuardDenial::new(
            "rm-recursive-root",
            "`rm --no-preserve-root` removes the whole file system",
        ));
    }
    let recursive = has_flag(args, &['r', 'R'], "--recursive");
    let targets = positionals(args);
    if recursive && let Some(t) = targets.iter().find(|t| catastrophic(checker, t, cwd)) {
        return Err(GuardDenial::new(
            "rm-recursive-root",
            format!(
                "recursive rm of `{}` would delete the file system root, a system directory, your home \
                 directory or the whole project (or a folder above it); name the specific subdirectory to \
                 remove (e.g. ./target)",
                t.text
            ),
        ));
    }
    for t in targets {
        checker.write(t, cwd, "rm")?;
    }
    Ok(())
}

fn check_copy(
    checker: &mut Checker<'_>,
    name: &str,
    args: &[Word],
    cwd: &Cwd,
) -> Result<(), GuardDenial> {
    let mut targets: Vec<Word> = Vec::new();
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        if a.text == "-t" || a.text == "--target-directory" {
            targets.extend(iter.next().cloned());
        } else if let Some(dir) = a.text.strip_prefix("--target-directory=") {
            let mut w = a.clone();
            w.text = dir.to_string();
            targets.push(w);
        }
    }
    let pos = positionals(args);
    if targets.is_empty() && pos.len() >= 2 {
        targets.extend(pos.last().map(|w| (*w).clone()));
    }
    if name == "mv" {
        // Moving a file away deletes it from where it was.
        targets.extend(
            pos.iter()
                .take(pos.len().saturating_sub(1))
                .map(|w| (*w).clone()),
        );
    }
    for t in &targets {
        checker.write(t, cwd, name)?;
    }
    Ok(())
}

fn check_chmod(
    checker: &mut Checker<'_>,
    name: &str,
    args: &[Word],
    cwd: &Cwd,
) -> Result<(), GuardDenial> {
    let pos = positionals(args);
    let has_reference = args.iter().any(|a| a.text.starts_with("--reference"));
    let targets = if has_reference {
        &pos[..]
    } else {
        pos.get(1..).unwrap_or(&[])
    };
    if has_flag(args, &['R'], "--recursive")
        && let Some(t) = targets.iter().find(|t| catastrophic(checker, t, cwd))
    {
        return Err(GuardDenial::new(
            "chmod-recursive-root",
            format!(
                "recursive `{name}` of `{}` changes permissions of the whole system, home or project",
                t.text
            ),
        ));
    }
    for t in targets {
        checker.write(t, cwd, name)?;
    }
    Ok(())
}

fn check_dd(checker: &mut Checker<'_>, args: &[Word], cwd: &Cwd) -> Result<(), GuardDenial> {
    for a in args {
        if let Some(out) = a.text.strip_prefix("of=") {
            if out.starts_with("/dev/") && out != "/dev/null" {
                return Err(GuardDenial::new(
                    "dd-device",
                    format!("`dd of={out}` writes straight to a device and can destroy a disk"),
                ));
            }
            let mut target = a.clone();
            target.text = out.to_string();
            checker.write(&target, cwd, "dd of=")?;
        }
    }
    Ok(())
}

fn find_delete(how: &str) -> GuardDenial {
    GuardDenial::new(
        "find-delete",
        format!(
            "`find … {how}` deletes every file it matches, which cannot be checked beforehand; list the \
             matches first (`find … -print`) and remove them by name"
        ),
    )
}

/// True when the expression only matches names a person can read off the line: a `-name`/`-path`/`-regex` test
/// whose pattern has a literal character (`'*.o'`, not `'*'`), and no `!`, `-not` or `-o` that could widen it.
/// `find . -name '*.pyc' -delete` is ordinary cleanup; `find . -delete` or `find . ! -name keep -delete` is not.
fn narrowed_by_name(expression: &[Word]) -> bool {
    let mut named = false;
    let mut words = expression.iter();
    while let Some(w) = words.next() {
        match w.text.as_str() {
            "!" | "-not" | "-o" | "-or" | "," => return false,
            "-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename" | "-regex"
            | "-iregex" => match words.next() {
                Some(p)
                    if !p.dynamic
                        && p.text
                            .chars()
                            .any(|c| !matches!(c, '*' | '?' | '.' | '[' | ']')) =>
                {
                    named = true;
                }
                _ => return false,
            },
            _ => {}
        }
    }
    named
}

/// A name-narrowed `find … -delete` deletes beneath its start folders: each must be inside the write fence
/// (the project, `/tmp/…`), so the project's parent or a folder outside is still refused.
fn delete_beneath(
    checker: &mut Checker<'_>,
    starts: &[&Word],
    cwd: &Cwd,
) -> Result<(), GuardDenial> {
    if starts.is_empty() {
        return checker.write(&Word::literal("."), cwd, "find -delete");
    }
    for start in starts {
        checker.write(start, cwd, "find -delete")?;
    }
    Ok(())
}

fn check_find(
    checker: &mut Checker<'_>,
    args: &[Word],
    cwd: &Cwd,
    depth: usize,
) -> Result<(), GuardDenial> {
    let starts: Vec<&Word> = args
        .iter()
        .take_while(|a| {
            !(a.text.starts_with('-') || a.text.starts_with('(') || a.text.starts_with('!'))
        })
        .collect();
    for s in &starts {
        let t = s.text.trim_end_matches('/');
        let real = checker.fence.locate(s, cwd);
        let whole = matches!(t, "" | "~" | "$HOME" | "${HOME}")
            || real
                .as_ref()
                .is_some_and(|r| r.as_path() == Path::new("/") || home().is_some_and(|h| &h == r));
        if whole {
            return Err(GuardDenial::new(
                "find-root",
                format!(
                    "`find {}` walks the whole file system or home directory; search inside the project \
                     (e.g. `find . -name ...`) instead",
                    s.text
                ),
            ));
        }
    }
    let narrowed = narrowed_by_name(&args[starts.len()..]);
    let mut iter = args.iter();
    while let Some(a) = iter.next() {
        match a.text.as_str() {
            "-delete" if !narrowed => return Err(find_delete("-delete")),
            "-delete" => delete_beneath(checker, &starts, cwd)?,
            how @ ("-exec" | "-execdir" | "-ok" | "-okdir") => {
                let words: Vec<Word> = iter
                    .by_ref()
                    .take_while(|w| w.text != ";" && w.text != "+")
                    .cloned()
                    .collect();
                let program = words.first().map(|w| program_name(&w.text));
                if program.is_some_and(|p| REMOVERS.contains(&p.as_str())) {
                    if !narrowed {
                        return Err(find_delete(&format!("{how} rm")));
                    }
                    delete_beneath(checker, &starts, cwd)?;
                }
                checker.words(words, cwd, depth)?;
            }
            "-fprint" | "-fprint0" | "-fls" | "-fprintf" => {
                if let Some(file) = iter.next() {
                    checker.write(file, cwd, a.text.as_str())?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}
