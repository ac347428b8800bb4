//! Text from outside (a project's file, a model, a server) made safe to print: control, bidi and invisible
//! characters become visible `<U+XXXX>` marks, so nothing can move the cursor, recolour or rewrite the screen,
//! or hide what it says. Below `app`, so every front-end and every notice can use the same one.

/// `text` with control, bidi and invisible characters replaced by `<U+XXXX>` (tabs included); one line.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A character that would act on the terminal or hide itself instead of showing.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}
