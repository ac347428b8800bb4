//! ANSI styling that turns into plain text when colours are off (`NO_COLOR`, not a terminal).

/// Colours on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    color: bool,
}

impl Style {
    /// Styling with colours when `color` is true.
    pub fn new(color: bool) -> Style {
        Style { color }
    }

    /// Whether ANSI codes are emitted.
    pub fn color(self) -> bool {
        self.color
    }

    fn wrap(self, code: &str, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn bold(self, t: &str) -> String {
        self.wrap("1", t)
    }
    pub fn dim(self, t: &str) -> String {
        self.wrap("2", t)
    }
    pub fn italic(self, t: &str) -> String {
        self.wrap("3", t)
    }
    pub fn strike(self, t: &str) -> String {
        self.wrap("9", t)
    }
    pub fn red(self, t: &str) -> String {
        self.wrap("31", t)
    }
    pub fn green(self, t: &str) -> String {
        self.wrap("32", t)
    }
    pub fn yellow(self, t: &str) -> String {
        self.wrap("33", t)
    }
    pub fn blue(self, t: &str) -> String {
        self.wrap("34", t)
    }
    pub fn cyan(self, t: &str) -> String {
        self.wrap("36", t)
    }
    pub fn heading(self, t: &str) -> String {
        self.wrap("1;36", t)
    }
}
