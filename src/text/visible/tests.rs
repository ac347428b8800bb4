//! One test per class of sequence: each is shown, never passed through raw.

use std::borrow::Cow;

use super::*;

/// Whether `text` holds nothing a terminal would act on (line breaks allowed).
fn inert(text: &str) -> bool {
    !text.chars().any(|c| c != '\n' && is_hidden(c))
}

#[test]
fn plain_text_is_borrowed_not_copied() {
    let text = "cargo test --quiet · 中文\nsecond line";
    assert!(matches!(visible_lines(text), Cow::Borrowed(_)));
    assert!(matches!(visible("cargo test 中文"), Cow::Borrowed(_)));
    assert!(matches!(strip_sgr(text), Cow::Borrowed(_)));
}

#[test]
fn osc_52_clipboard_writes_are_shown_with_bel_or_st() {
    assert_eq!(
        visible_lines("a\x1b]52;c;cHduZWQ=\x07b"),
        "a<U+001B>]52;c;cHduZWQ=<U+0007>b"
    );
    assert_eq!(
        visible_lines("\x1b]52;c;eA==\x1b\\"),
        "<U+001B>]52;c;eA==<U+001B>\\"
    );
}

#[test]
fn osc_8_links_and_osc_0_titles_are_shown() {
    let link = visible_lines("\x1b]8;;https://evil.example\x07click\x1b]8;;\x07");
    assert_eq!(
        link,
        "<U+001B>]8;;https://evil.example<U+0007>click<U+001B>]8;;<U+0007>"
    );
    assert_eq!(
        visible_lines("\x1b]0;pwned\x07"),
        "<U+001B>]0;pwned<U+0007>"
    );
}

#[test]
fn csi_screen_clears_and_cursor_moves_are_shown() {
    assert_eq!(
        visible("\x1b[2J\x1b[H\x1b[2K\x1b[1G● execute_command cargo test"),
        "<U+001B>[2J<U+001B>[H<U+001B>[2K<U+001B>[1G● execute_command cargo test"
    );
}

#[test]
fn c1_controls_are_shown_even_as_single_characters() {
    // U+009B is CSI and U+009D is OSC in terminals that read 8-bit controls.
    assert_eq!(
        visible_lines("\u{9b}2J\u{9d}0;t\u{9c}\u{85}"),
        "<U+009B>2J<U+009D>0;t<U+009C><U+0085>"
    );
}

#[test]
fn a_bare_carriage_return_is_a_line_break_never_an_overwrite() {
    assert_eq!(visible_lines("rm -rf /\rls  "), "rm -rf /\nls  ");
    assert_eq!(visible_lines("one\r\ntwo\r\n"), "one\ntwo\n");
    // A delta may end between `\r` and `\n`: the `\r` is dropped, not doubled into a blank line.
    assert_eq!(visible_lines("one\r"), "one");
    // One line shows it.
    assert_eq!(visible("a\rb\nc"), "a<U+000D>b<U+000A>c");
}

#[test]
fn backspace_delete_and_other_c0_are_shown() {
    assert_eq!(
        visible_lines("ab\x08\x08cd\x7f\x00"),
        "ab<U+0008><U+0008>cd<U+007F><U+0000>"
    );
}

#[test]
fn tabs_become_spaces_to_the_next_stop_in_text_and_marks_on_one_line() {
    assert_eq!(visible_lines("\tx\nab\tc"), "    x\nab  c");
    assert_eq!(visible_lines("abcd\te"), "abcd    e");
    assert_eq!(visible("a\tb"), "a<U+0009>b");
}

#[test]
fn bidi_overrides_and_zero_width_characters_are_shown() {
    assert_eq!(
        visible_lines("safe\u{202E}txt.exe\u{200B}\u{2066}x\u{FEFF}"),
        "safe<U+202E>txt.exe<U+200B><U+2066>x<U+FEFF>"
    );
}

#[test]
fn only_pure_colour_sequences_are_stripped() {
    assert_eq!(
        strip_sgr("\x1b[31mred\x1b[0m \x1b[1;38;5;208mx\x1b[m"),
        "red x"
    );
    assert_eq!(strip_sgr("\x1b[38:2:1:2:3mrgb"), "rgb");
    // Not colours: a clear, a cursor move, an OSC, an unfinished sequence and a private mode stay for `visible`.
    let kept = "\x1b[2J\x1b[1G\x1b]0;t\x07\x1b[?25l\x1b[31";
    assert_eq!(strip_sgr(kept), kept);
    let shown = visible_lines(&strip_sgr("\x1b[32mok\x1b[0m\x1b[2J")).into_owned();
    assert_eq!(shown, "ok<U+001B>[2J");
}

#[test]
fn nothing_hidden_survives_any_input() {
    let nasty: String = (0u32..0x250)
        .chain(0x2000..0x2070)
        .chain([0xFEFF, 0xE0001])
        .filter_map(char::from_u32)
        .collect();
    assert!(inert(&visible_lines(&nasty)));
    assert!(inert(&visible_lines(&strip_sgr(&nasty))));
    assert!(!visible(&nasty).chars().any(is_hidden));
}

#[test]
fn lines_paicli_coloured_keep_their_colours_and_nothing_else() {
    let painted = "\x1b[2mmemory: x\x1b]0;t\x07 \x1b[2J\x1b[0m";
    assert_eq!(
        visible_lines_but_sgr(painted),
        "\x1b[2mmemory: x<U+001B>]0;t<U+0007> <U+001B>[2J\x1b[0m"
    );
    assert!(matches!(
        visible_lines_but_sgr("\x1b[1mbold\x1b[0m\nnext"),
        Cow::Borrowed(_)
    ));
}

#[test]
fn a_tab_that_becomes_one_space_still_counts_as_a_change() {
    assert_eq!(visible_lines_but_sgr("abc\t\x1b[1mx"), "abc \x1b[1mx");
}
