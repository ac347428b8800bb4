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

fn cwds(script: &Script) -> Vec<Option<String>> {
    script
        .commands()
        .map(|c| c.cwd.as_ref().map(|p| p.display().to_string()))
        .collect()
}

#[test]
fn cd_is_followed_through_lists_and_undone_after_subshells() {
    let s = parse("cd src && ls; (cd x; ls); ls; cd $D; ls");
    assert_eq!(
        cwds(&s),
        vec![
            Some("".into()),
            Some("src".into()),
            Some("src".into()),
            Some("src/x".into()),
            Some("src".into()),
            Some("src".into()),
            None
        ]
    );
}

#[test]
fn words_are_resolved_statically() {
    let s = parse(r"{rm,-rf,x} $'a\tb' r''m a{b,c}d ~nobody");
    assert_eq!(words(&s)[0][..3], ["rm", "-rf", "x"]);
    let s = parse(r"echo $'a\tb' r''m a{b,c}d");
    assert_eq!(words(&s), vec![vec!["echo", "a\tb", "rm", "abd", "acd"]]);
    let c = parse("echo ~no-such-user-paicli $X").pipelines[0].commands[0].clone();
    assert!(c.words[1].dynamic && c.words[2].dynamic);
    let c = parse("echo ~root/x $PWD ${PWD}/y").pipelines[0].commands[0].clone();
    assert_eq!(c.texts(), ["echo", "/root/x", ".", "./y"]);
}

#[test]
fn places_follow_cd_and_the_root() {
    let root = std::env::temp_dir();
    let s = parse_at(
        "echo $PWD; cd / && echo $PWD $OLDPWD ~- ~+",
        Some(PathBuf::new()),
        Some(&root),
    );
    let root = root.display().to_string();
    assert_eq!(words(&s)[0], ["echo", root.as_str()]);
    assert_eq!(
        words(&s)[2],
        ["echo", "/", root.as_str(), root.as_str(), "/"]
    );
    let s = parse_at("PWD=/x; echo $PWD", Some(PathBuf::new()), None);
    assert!(s.pipelines[0].commands[0].words[1].dynamic);
}

#[test]
fn a_bare_redirection_is_a_command_without_words() {
    let s = parse("> out.txt; 2>>err.log");
    let redirects: Vec<(&str, &str)> = s
        .commands()
        .flat_map(|c| &c.redirects)
        .map(|r| (r.op.as_str(), r.target.text.as_str()))
        .collect();
    assert_eq!(redirects, [(">", "out.txt"), (">>", "err.log")]);
    assert!(s.commands().all(|c| c.words.is_empty()));
}

#[test]
fn line_continuations_are_joined_before_parsing() {
    assert_eq!(
        words(&parse("r\\\nm -r\\\nf x")),
        vec![vec!["rm", "-rf", "x"]]
    );
}

#[test]
fn a_heredoc_piped_on_feeds_the_next_command() {
    let s = parse("cat <<EOF | sh\nrm -rf /\nEOF");
    assert_eq!(words(&s), vec![vec!["cat"], vec!["sh"]]);
    let cat = &s.pipelines[0].commands[0];
    assert_eq!(cat.redirects[0].op, "<<");
    assert_eq!(cat.redirects[0].target.text, "rm -rf /\n");
    assert!(s.pipelines[0].commands[1].piped);
}

#[test]
fn very_deep_nesting_is_cut_off_not_a_crash() {
    let depth = 20_000;
    let line = format!("{}rm -rf /{}", "(".repeat(depth), ")".repeat(depth));
    let s = parse(&line);
    assert!(s.incomplete);
    let shallow = parse("( (rm -rf x) )");
    assert!(!shallow.incomplete);
    assert_eq!(words(&shallow), vec![vec!["rm", "-rf", "x"]]);
}
