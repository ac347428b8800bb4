//! The message table, one file per feature. Each file is one `messages!` block of rows:
//!
//! ```text
//! Name => en: "English text", zh: "中文文本",
//! ```
//!
//! A row declares the constant `Msg::Name` (its doc shows the English text) and joins its file's `ROWS`. The macro
//! takes no row without both languages, so a missing translation does not compile; two rows with one name do not
//! either (two definitions of one constant). Adding a text is adding a row.

/// Declares the rows of one feature file: a `Msg` constant per row, and `ROWS`, the file's messages in order.
macro_rules! messages {
    ($($name:ident => en: $en:literal, zh: $zh:literal),* $(,)?) => {
        // The rows read like enum variants at their call sites (`Msg::Bye`), hence the case.
        #[allow(non_upper_case_globals)]
        impl crate::text::Msg {
            $(
                #[doc = concat!("```text\n", $en, "\n```")]
                pub const $name: crate::text::Msg = crate::text::Msg::row(stringify!($name), $en, $zh);
            )*
        }

        /// This file's messages, in table order.
        pub(super) const ROWS: &[crate::text::Msg] = &[$(crate::text::Msg::$name),*];
    };
    // Only when the rows above did not parse: find the first row that lacks a language and name it.
    (@find $name:ident => en: $en:literal, zh: $zh:literal $(, $($rest:tt)*)?) => {
        messages!(@find $($($rest)*)?);
    };
    (@find $name:ident $($rest:tt)*) => {
        compile_error!(concat!(
            "the message `", stringify!($name), "` needs both languages: `", stringify!($name),
            " => en: \"…\", zh: \"…\",`"
        ));
    };
    (@find) => {
        compile_error!("a message row does not read `Name => en: \"…\", zh: \"…\",`");
    };
    ($($rows:tt)*) => {
        messages!(@find $($rows)*);
    };
}

/// Declares the feature files and `ALL`, their rows, so no file can be left out of the table test.
macro_rules! features {
    ($($file:ident),* $(,)?) => {
        $(mod $file;)*

        /// Every feature file's rows.
        pub(super) const ALL: &[&[crate::text::Msg]] = &[$($file::ROWS),*];
    };
}

features![
    startup, repl, input, output, turn, hints, model, modes, approvals, sandbox, sessions,
    snapshots, memory, skills, mcp, browser, lsp, index, plan, tasks, serve, hooks, channels,
    wechat, headless, delegation,
];
