//! Issue 35's guard gaps: the project named through `$PWD`, `$OLDPWD`, `~+`/`~-` and `$(pwd)`, other users'
//! homes (`~root`), bare redirections and here-strings before the command, and backslash-newline line
//! continuations, inside a word too. Each is refused (nothing is left to `--approval full`), beside harmless
//! look-alikes that stay allowed.

use super::variants::{Fixture, V, fill, fixture, verdict};
use std::path::Path;

use super::*;
use V::*;

/// `{root}` is the project, `{outside}` a folder outside it.
const CASES: &[(&str, V)] = &[
    // the project through $PWD, in every spelling
    ("rm -rf \"$PWD\"", Refused("rm-recursive-root")),
    ("rm -rf $PWD", Refused("rm-recursive-root")),
    ("rm -rf ${PWD}", Refused("rm-recursive-root")),
    ("rm -rf \"${PWD}\"/", Refused("rm-recursive-root")),
    ("rm -rf -- \"$PWD/\"", Refused("rm-recursive-root")),
    ("rm -rf \"$PWD\"/*", Refused("rm-recursive-root")),
    ("rm -rf \"$PWD/..\"", Refused("rm-recursive-root")),
    ("rm -rf ~+", Refused("rm-recursive-root")),
    ("rm -rf ~+/", Refused("rm-recursive-root")),
    ("rm -rf \"$(pwd)\"", Refused("rm-recursive-root")),
    ("rm -rf `pwd`/", Refused("rm-recursive-root")),
    ("cd src && rm -rf \"$PWD/..\"", Refused("rm-recursive-root")),
    ("cd .. && rm -rf \"$OLDPWD\"", Refused("rm-recursive-root")),
    ("cd src && rm -rf \"$OLDPWD\"", Refused("rm-recursive-root")),
    (
        "cd /tmp; rm -rf \"${OLDPWD}\"",
        Refused("rm-recursive-root"),
    ),
    ("cd src && cd - && rm -rf .", Refused("rm-recursive-root")),
    ("cd /tmp && cd - && rm -rf src", Allowed),
    ("cd .. && rm -rf ~-", Refused("rm-recursive-root")),
    ("bash -c 'rm -rf \"$PWD\"'", Refused("rm-recursive-root")),
    // an assignment to PWD makes it unknown, never trusted
    ("cd /tmp; PWD={root}; rm -rf \"$PWD\"", Opaque),
    ("rm -rf \"$OLDPWD\"", Opaque),
    // harmless uses of $PWD
    ("rm -rf \"$PWD/target\"", Allowed),
    ("rm -rf ${PWD}/target/debug", Allowed),
    ("echo x > \"$PWD/out.txt\"", Allowed),
    ("cd src && rm -rf \"$OLDPWD/target\"", Allowed),
    (
        "echo x > \"$PWD/../leak\"",
        Refused("write-outside-project"),
    ),
    ("cp a \"$(pwd)/../leak\"", Refused("write-outside-project")),
    // other users' homes
    ("rm -rf ~root", Refused("rm-recursive-root")),
    ("rm -rf ~root/", Refused("rm-recursive-root")),
    ("echo x > ~root/.bashrc", Refused("write-outside-project")),
    ("cd ~root && rm -rf .ssh", Refused("write-outside-project")),
    ("rm -rf ~no-such-user-paicli", Opaque),
    // bare redirections (no command word) and redirections before a here-string
    (">{outside}/file", Refused("write-outside-project")),
    ("> {outside}/file", Refused("write-outside-project")),
    (">>{outside}/file", Refused("write-outside-project")),
    ("2>{outside}/file", Refused("write-outside-project")),
    ("&>{outside}/file", Refused("write-outside-project")),
    ("true; >{outside}/file", Refused("write-outside-project")),
    (": > {outside}/x", Refused("write-outside-project")),
    ("<<<x cat >{outside}/y", Refused("write-outside-project")),
    ("<<<x >{outside}/y cat", Refused("write-outside-project")),
    (
        "<<EOF >{outside}/y\nx\nEOF",
        Refused("write-outside-project"),
    ),
    (
        "<<EOF cat >{outside}/y\nx\nEOF",
        Refused("write-outside-project"),
    ),
    (">out.txt", Allowed),
    (": > out.txt", Allowed),
    ("<<<x cat >out.txt", Allowed),
    // line continuations are joined, inside a word too
    ("r\\\nm -rf {outside}", Refused("write-outside-project")),
    ("r\\\nm -rf /", Refused("rm-recursive-root")),
    ("rm -r\\\nf /", Refused("rm-recursive-root")),
    ("rm -rf \\\n/", Refused("rm-recursive-root")),
    ("rm -rf /\\\nusr", Refused("rm-recursive-root")),
    ("su\\\ndo ls", Refused("sudo")),
    ("echo x >\\\n {outside}/f", Refused("write-outside-project")),
    ("echo x > {out\\\nside}/f", Refused("write-outside-project")),
    ("\"r\\\nm\" -rf /", Refused("rm-recursive-root")),
    // a backslash-newline inside single quotes is data
    ("echo 'a\\\nb'", Allowed),
    ("cargo build \\\n  --release", Allowed),
    ("echo a\\\\\nls", Allowed),
];

#[test]
fn issue_35_guard_gaps_are_refused() {
    let f: Fixture = fixture();
    // Not under /tmp, where the fixture's project is: literal `/tmp/…` paths are scratch space.
    let outside = Path::new("/var/lib/paicli-guard-probe/outside");
    let g = CommandGuard::new(
        Arc::new(PathGuard::new(&f.root).unwrap()),
        Some(f.home.clone()),
    );
    let mut wrong = Vec::new();
    for (line, expected) in CASES {
        let line = fill(line, &f).replace("{outside}", &outside.display().to_string());
        // `{out\⏎side}` spells the outside folder with a line continuation inside the word.
        let line = line.replace(
            "{out\\\nside}",
            &outside
                .display()
                .to_string()
                .replacen("outside", "out\\\nside", 1),
        );
        let got = g.check(&line);
        if verdict(got.clone()) != *expected {
            wrong.push(format!("{line:?}: expected {expected:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "wrong verdicts:\n{}", wrong.join("\n"));
}

#[test]
fn nobody_s_home_is_judged_like_any_folder_outside() {
    let f = fixture();
    let g = CommandGuard::new(Arc::new(PathGuard::new(&f.root).unwrap()), None);
    let got = g.check("rm -rf ~nobody");
    match super::super::words::user_home("nobody") {
        // `/nonexistent` on Debian: a top-level folder.
        Some(_) => assert!(got.is_err(), "{got:?}"),
        None => assert!(
            matches!(got, Ok(CommandAssessment::Opaque { .. })),
            "{got:?}"
        ),
    }
}
