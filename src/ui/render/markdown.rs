//! Markdown → terminal lines: headings, nested lists, quotes, code blocks and width-fitted tables.

use std::borrow::Cow;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::Style;
use super::table::render_table;
use super::wrap::{Token, tokens, visible_width};
use crate::text::{visible, visible_lines};

/// Renders complete Markdown blocks as lines (no line endings). Every top-level block is followed by one blank
/// line, so rendering a document in block-aligned pieces gives the same lines as rendering it whole.
pub fn render_markdown(text: &str, width: usize, style: Style) -> Vec<String> {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut r = Renderer::new(width, style);
    for event in Parser::new_ext(text, options) {
        r.event(event);
    }
    r.flush_line();
    r.lines
}

/// Parsed text outside code blocks, made visible on one line (a decoded `&#10;` is a space, not a raw break).
fn inline(text: &str) -> Cow<'_, str> {
    match visible_lines(text) {
        Cow::Borrowed(t) if !t.contains('\n') => Cow::Borrowed(t),
        shown => Cow::Owned(shown.replace('\n', " ")),
    }
}

#[derive(Default)]
struct TableState {
    aligns: Vec<Alignment>,
    rows: Vec<Vec<String>>,
    header_rows: usize,
    cell: String,
}

struct ListLevel {
    next_number: Option<u64>,
}

struct Renderer {
    width: usize,
    style: Style,
    lines: Vec<String>,
    line: String,
    /// Whether `line` holds anything worth emitting (a bullet alone counts).
    line_started: bool,
    /// Whether `line` holds a word (a line with only its bullet or indent is not broken before the first word).
    line_has_words: bool,
    lists: Vec<ListLevel>,
    /// Indentation of continuation lines inside the current list item.
    item_indent: usize,
    quote_depth: usize,
    inline: Vec<Inline>,
    heading: Option<HeadingLevel>,
    code: Option<(String, String)>,
    table: Option<TableState>,
    links: Vec<String>,
}

/// How a run of wrapped text is styled.
enum Paint {
    Inline { spans: Vec<Inline>, heading: bool },
    Code,
    Dim,
}

impl Paint {
    fn apply(&self, s: Style, text: &str) -> String {
        match self {
            Paint::Code => s.cyan(text),
            Paint::Dim => s.dim(text),
            Paint::Inline { spans, heading } => {
                let mut out = text.to_string();
                for i in spans {
                    out = match i {
                        Inline::Emphasis => s.italic(&out),
                        Inline::Strong => s.bold(&out),
                        Inline::Strike => s.strike(&out),
                        Inline::Link => s.blue(&out),
                    };
                }
                if *heading {
                    out = s.heading(&out);
                }
                out
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Inline {
    Emphasis,
    Strong,
    Strike,
    Link,
}

impl Renderer {
    fn new(width: usize, style: Style) -> Self {
        Renderer {
            width: width.max(20),
            style,
            lines: Vec::new(),
            line: String::new(),
            line_started: false,
            line_has_words: false,
            lists: Vec::new(),
            item_indent: 0,
            quote_depth: 0,
            inline: Vec::new(),
            heading: None,
            code: None,
            table: None,
            links: Vec::new(),
        }
    }

    fn prefix(&self) -> String {
        let mut p = String::new();
        for _ in 0..self.quote_depth {
            p.push_str(&self.style.dim("│ "));
        }
        p
    }

    fn push_line(&mut self, text: String) {
        let line = format!("{}{text}", self.prefix());
        self.lines.push(line.trim_end().to_string());
    }

    fn flush_line(&mut self) {
        let text = std::mem::take(&mut self.line);
        if self.line_started || !text.trim().is_empty() {
            self.push_line(text);
        }
        self.line_started = false;
        self.line_has_words = false;
    }

    fn blank(&mut self) {
        if self.lines.last().is_some_and(|l| !l.is_empty()) {
            self.lines.push(String::new());
        }
    }

    /// Starts a continuation line inside a list item.
    fn newline_in_block(&mut self) {
        self.flush_line();
        self.line = " ".repeat(self.item_indent);
    }

    /// How text at this point is styled: the open inline spans, and the heading colour.
    fn paint(&self) -> Paint {
        Paint::Inline {
            spans: self.inline.clone(),
            heading: self.heading.is_some(),
        }
    }

    /// Columns a line may use inside the current quotes.
    fn columns(&self) -> usize {
        self.width.saturating_sub(self.quote_depth * 2).max(10)
    }

    /// Appends `text` to the current line, word-wrapping at the width; continuation lines are indented under
    /// the list item's text. Runs of text on one line are styled together.
    fn push_wrapped(&mut self, text: &str, paint: &Paint) {
        let columns = self.columns();
        let mut segment = String::new();
        let mut col = visible_width(&self.line);
        for token in tokens(text) {
            let word = match token {
                Token::Space => {
                    if self.line_has_words || !segment.is_empty() {
                        segment.push(' ');
                        col += 1;
                    }
                    continue;
                }
                Token::Word(word) => word,
            };
            let w = visible_width(word);
            let has_words = self.line_has_words || !segment.trim().is_empty();
            if col + w > columns && has_words {
                self.break_line(&mut segment, paint);
                col = visible_width(&self.line);
            }
            for ch in word.chars() {
                let cw = visible_width(ch.encode_utf8(&mut [0; 4]));
                let has_words = self.line_has_words || !segment.trim().is_empty();
                if col + cw > columns && has_words {
                    self.break_line(&mut segment, paint);
                    col = visible_width(&self.line);
                }
                segment.push(ch);
                col += cw;
            }
        }
        self.append_segment(&segment, paint);
    }

    fn append_segment(&mut self, segment: &str, paint: &Paint) {
        if segment.is_empty() {
            return;
        }
        let styled = paint.apply(self.style, segment);
        self.line.push_str(&styled);
        self.line_started = true;
        if !segment.trim().is_empty() {
            self.line_has_words = true;
        }
    }

    fn break_line(&mut self, segment: &mut String, paint: &Paint) {
        let text = std::mem::take(segment);
        self.append_segment(text.trim_end(), paint);
        self.newline_in_block();
    }

    fn text(&mut self, text: &str) {
        if let Some((_, code)) = &mut self.code {
            code.push_str(text);
            return;
        }
        if let Some(t) = &mut self.table {
            t.cell.push_str(text);
            return;
        }
        let paint = self.paint();
        self.push_wrapped(text, &paint);
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            // The parser decodes entities (`&#27;` is ESC), so its text is made visible here, after parsing and
            // before any colour is added; code blocks keep their lines.
            Event::Text(t) if self.code.is_some() => self.text(&visible_lines(&t)),
            Event::Text(t) => self.text(&inline(&t)),
            Event::Code(t) => {
                let t = inline(&t);
                if let Some(table) = &mut self.table {
                    table.cell.push_str(&t);
                } else if self.style.color() {
                    self.push_wrapped(&t, &Paint::Code);
                } else {
                    self.push_wrapped(&format!("`{t}`"), &Paint::Code);
                }
            }
            Event::Html(t) | Event::InlineHtml(t) => self.text(&inline(&t)),
            Event::SoftBreak | Event::HardBreak => {
                if let Some(t) = &mut self.table {
                    t.cell.push(' ');
                } else {
                    self.newline_in_block();
                }
            }
            Event::Rule => {
                self.flush_line();
                let rule = "─".repeat(self.width.min(40));
                self.push_line(self.style.dim(&rule));
                self.blank();
            }
            Event::TaskListMarker(done) => self.text(if done { "[x] " } else { "[ ] " }),
            Event::FootnoteReference(t) => self.text(&format!("[^{}]", inline(&t))),
            Event::InlineMath(t) | Event::DisplayMath(t) => self.text(&inline(&t)),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {}
            Tag::Heading { level, .. } => {
                self.flush_line();
                self.heading = Some(level);
                if !self.style.color() {
                    self.line = format!("{} ", "#".repeat(level as usize));
                }
            }
            Tag::BlockQuote(_) => {
                self.flush_line();
                self.quote_depth += 1;
            }
            Tag::CodeBlock(kind) => {
                self.flush_line();
                let lang = match kind {
                    CodeBlockKind::Fenced(lang) => visible(&lang).into_owned(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                self.flush_line();
                self.lists.push(ListLevel { next_number: start });
            }
            Tag::Item => {
                self.flush_line();
                let depth = self.lists.len().saturating_sub(1);
                let bullet = match self.lists.last_mut().and_then(|l| l.next_number.as_mut()) {
                    Some(n) => {
                        let b = format!("{n}. ");
                        *n += 1;
                        b
                    }
                    None => "• ".to_string(),
                };
                let indent = depth * 2;
                self.item_indent = indent + bullet.chars().count();
                self.line = format!("{}{}", " ".repeat(indent), self.style.dim(&bullet));
                self.line_started = true;
            }
            Tag::Table(aligns) => {
                self.flush_line();
                self.table = Some(TableState {
                    aligns,
                    ..TableState::default()
                });
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = &mut self.table {
                    t.rows.push(Vec::new());
                }
            }
            Tag::TableCell => {
                if let Some(t) = &mut self.table {
                    t.cell.clear();
                }
            }
            Tag::Emphasis => self.inline.push(Inline::Emphasis),
            Tag::Strong => self.inline.push(Inline::Strong),
            Tag::Strikethrough => self.inline.push(Inline::Strike),
            Tag::Link { dest_url, .. } => {
                self.inline.push(Inline::Link);
                self.links.push(visible(&dest_url).into_owned());
            }
            Tag::Image { dest_url, .. } => {
                self.text("[image: ");
                self.links.push(visible(&dest_url).into_owned());
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush_line();
                if self.lists.is_empty() {
                    self.blank();
                } else {
                    // A loose list item: keep its paragraphs apart, indented under the bullet.
                    self.lines.push(String::new());
                    self.line = " ".repeat(self.item_indent);
                }
            }
            TagEnd::Heading(_) => {
                self.heading = None;
                self.flush_line();
                self.blank();
            }
            TagEnd::BlockQuote(_) => {
                self.flush_line();
                self.quote_depth = self.quote_depth.saturating_sub(1);
                self.blank();
            }
            TagEnd::CodeBlock => self.end_code_block(),
            TagEnd::List(_) => {
                self.flush_line();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.item_indent = 0;
                    // A loose list's last paragraph left an empty line behind.
                    while self.lines.last().is_some_and(String::is_empty) {
                        self.lines.pop();
                    }
                    self.blank();
                }
            }
            TagEnd::Item => {
                if self.line.trim().is_empty() && !self.line_started {
                    self.line.clear();
                }
                self.flush_line();
                while self.lines.last().is_some_and(String::is_empty) && !self.lists.is_empty() {
                    self.lines.pop();
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    let lines = render_table(
                        &t.rows,
                        &t.aligns,
                        t.header_rows,
                        self.width.saturating_sub(self.quote_depth * 2),
                        self.style,
                    );
                    for line in lines {
                        self.push_line(line);
                    }
                    self.blank();
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = &mut self.table {
                    t.header_rows = t.rows.len();
                }
            }
            TagEnd::TableCell => {
                if let Some(t) = &mut self.table {
                    let cell = std::mem::take(&mut t.cell).trim().to_string();
                    if let Some(row) = t.rows.last_mut() {
                        row.push(cell);
                    }
                }
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.inline.pop();
            }
            TagEnd::Link => {
                self.inline.pop();
                if let Some(url) = self.links.pop()
                    && !url.is_empty()
                    && !self.line.contains(&url)
                {
                    self.push_wrapped(&format!(" ({url})"), &Paint::Dim);
                }
            }
            TagEnd::Image => {
                if let Some(url) = self.links.pop() {
                    self.text(&format!(" {url}]"));
                }
            }
            _ => {}
        }
    }

    fn end_code_block(&mut self) {
        let Some((lang, code)) = self.code.take() else {
            return;
        };
        let indent = " ".repeat(self.item_indent);
        self.push_line(format!("{indent}{}", self.style.dim(&format!("```{lang}"))));
        for line in code.strip_suffix('\n').unwrap_or(&code).split('\n') {
            let styled = self.style.yellow(line);
            self.push_line(format!("{indent}{styled}"));
        }
        self.push_line(format!("{indent}{}", self.style.dim("```")));
        if self.lists.is_empty() {
            self.blank();
        } else {
            self.line = indent;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> String {
        render_markdown(text, 60, Style::new(false)).join("\n")
    }

    #[test]
    fn blocks_are_separated_by_one_blank_line() {
        assert_eq!(
            plain("# Title\n\nSome *text*.\n"),
            "# Title\n\nSome text.\n"
        );
    }

    #[test]
    fn nested_lists_indent_and_number() {
        let out = plain("1. one\n2. two\n   - inner\n3. three\n");
        assert_eq!(out, "1. one\n2. two\n  • inner\n3. three\n");
    }

    #[test]
    fn code_blocks_keep_their_lines() {
        let out = plain("```rust\nfn main() {\n    x();\n}\n```\n");
        assert_eq!(out, "```rust\nfn main() {\n    x();\n}\n```\n");
    }
}
