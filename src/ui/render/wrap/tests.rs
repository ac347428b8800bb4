use super::*;

#[test]
fn escapes_take_no_columns_and_cjk_takes_two() {
    assert_eq!(visible_width("\x1b[1mab\x1b[0m"), 2);
    assert_eq!(visible_width("中文"), 4);
}

#[test]
fn words_wrap_at_spaces_with_an_indent() {
    assert_eq!(
        wrap_plain("one two three four five", 10, 2),
        vec!["one two", "  three", "  four", "  five"]
    );
}

#[test]
fn cjk_breaks_between_characters_and_long_words_break_inside() {
    assert_eq!(wrap_plain("中文中文中文", 8, 0), vec!["中文中文", "中文"]);
    assert_eq!(wrap_plain("abcdefghijkl", 8, 0), vec!["abcdefgh", "ijkl"]);
}

#[test]
fn streamed_words_wrap_before_the_word_that_does_not_fit() {
    let mut w = StreamWrap::default();
    let mut out = w.push("one two thr", 12);
    assert_eq!(out, "one two");
    out.push_str(&w.push("ee four\nfive", 12));
    out.push_str(&w.finish(12));
    assert_eq!(out, "one two\nthree four\nfive");
    assert_eq!(w.column(), 4);
}

#[test]
fn folding_never_cuts_a_word() {
    assert_eq!(
        fold_words("the command guard refused this line", 20),
        "the command guard…"
    );
    assert_eq!(fold_words("short", 20), "short");
    assert_eq!(fold_words("    indented words here", 16), "    indented…");
}

#[test]
fn prose_breaks_at_spaces_and_never_inside_a_word() {
    let lines = wrap(
        "show the effective configuration and where each value came from",
        20,
    );
    assert_eq!(
        lines,
        vec![
            "show the effective",
            "configuration and",
            "where each value",
            "came from"
        ]
    );
    assert!(lines.iter().all(|l| visible_width(l) <= 20));
}

#[test]
fn chinese_breaks_between_characters_and_counts_double_width() {
    let lines = wrap("显示生效配置及来源；带过滤词时显示各项说明", 10);
    assert_eq!(
        lines,
        vec!["显示生效配", "置及来源；", "带过滤词时", "显示各项说", "明"]
    );
    let mixed = wrap("切换 model 后 /cost 仍然准确", 12);
    assert!(mixed.iter().all(|l| visible_width(l) <= 12), "{mixed:?}");
    assert!(mixed.iter().any(|l| l.contains("model")), "{mixed:?}");
}

#[test]
fn chinese_punctuation_stays_with_its_character() {
    // A closing mark never starts a line, an opening one never ends it.
    assert_eq!(wrap("来源；带过滤", 4), vec!["来", "源；", "带过", "滤"]);
    assert_eq!(wrap("新对话（清空）", 6), vec!["新对话", "（清", "空）"]);
}

#[test]
fn a_word_longer_than_the_line_is_cut() {
    assert_eq!(wrap("abcdefghij xy", 4), vec!["abcd", "efgh", "ij", "xy"]);
}

#[test]
fn indentation_is_kept() {
    assert_eq!(wrap("  * other-model", 40), vec!["  * other-model"]);
    // An indented word too long for the line is cut, not pushed below an empty line.
    assert_eq!(wrap("  abcdefgh", 6), vec!["  abcd", "efgh"]);
    assert_eq!(
        wrap_hanging("  id  one two three", 12, 4),
        vec!["  id  one", "    two", "    three"]
    );
}

#[test]
fn line_breaks_in_the_input_are_kept() {
    assert_eq!(wrap("one\n\ntwo", 10), vec!["one", "", "two"]);
}

#[test]
fn hanging_lines_are_indented() {
    let lines = wrap_hanging("- one two three four five", 12, 2);
    assert_eq!(lines, vec!["- one two", "  three four", "  five"]);
}

#[test]
fn a_space_that_fills_the_line_does_not_glue_the_next_word_on() {
    assert_eq!(wrap("ab c", 3), vec!["ab", "c"]);
    assert_eq!(wrap("ab  c d", 4), vec!["ab", "c d"]);
}

#[test]
fn tool_lines_keep_chinese_punctuation_with_its_character() {
    assert_eq!(wrap_plain("中文中文。", 8, 0), vec!["中文中", "文。"]);
    assert_eq!(
        tokens("说（明）"),
        vec![Token::Word("说"), Token::Word("（明）")]
    );
    assert_eq!(fold_words("一二三四五六。七八九十", 10), "一二三四…");
}

#[test]
fn streamed_chinese_keeps_punctuation_with_its_character() {
    let text = "一二三四五。六七";
    let mut w = StreamWrap::default();
    // A wide character waits for the next one: it may be punctuation that belongs with it.
    let mut out = w.push("一二三四五", 10);
    assert_eq!(out, "一二三四");
    for ch in text.chars().skip(5) {
        out.push_str(&w.push(ch.encode_utf8(&mut [0; 4]), 10));
    }
    out.push_str(&w.finish(10));
    assert_eq!(out, "一二三四\n五。六七");
    let mut whole = StreamWrap::default();
    assert_eq!(whole.push(text, 10) + &whole.finish(10), out);
}

#[test]
fn pack_breaks_only_between_items_and_wraps_an_item_wider_than_a_line() {
    let items: Vec<String> = ["ctx 1%", "turn in 10 out 5", "full mode (shift+tab)"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        pack(&items, " · ", 30),
        vec!["ctx 1% · turn in 10 out 5", "full mode (shift+tab)"]
    );
    assert_eq!(pack(&items, " · ", 80).len(), 1);
    let long = vec!["a b c d e f".to_string()];
    assert_eq!(pack(&long, " · ", 5), vec!["a b c", "d e f"]);
}

#[test]
fn a_path_too_long_for_a_line_breaks_after_its_separators() {
    let path = "/home/someone/projects/a-long-name/src/deeply/nested/module.rs";
    let lines = wrap_hanging(&format!("  writable: {path}"), 30, 4);
    for line in &lines {
        assert!(visible_width(line) <= 30, "{lines:?}");
    }
    // Every line but the last ends at a separator or a space: no name is cut in two.
    for line in &lines[..lines.len() - 1] {
        assert!(
            line.ends_with('/') || line.ends_with('-') || line.ends_with(':'),
            "{lines:?}"
        );
    }
    let rejoined: String = lines
        .iter()
        .map(|l| l.trim_start())
        .collect::<Vec<_>>()
        .join("");
    assert_eq!(
        rejoined.replace("writable:", "writable: "),
        format!("writable: {path}")
    );
    // A path that fits on a line of its own is moved there whole.
    assert_eq!(
        wrap_hanging("see the file /usr/local/doc", 20, 2),
        ["see the file", "  /usr/local/doc"]
    );
}
