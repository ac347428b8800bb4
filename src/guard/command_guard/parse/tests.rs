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
