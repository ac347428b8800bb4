//! Markdown reduced to plain text: WeChat shows a message's characters as they are, so `**bold**`, fences and
//! link syntax would reach the person as noise. Structure that carries meaning stays in plain form: list
//! markers, quote markers, a link's address after its text, table cells separated by ` | `.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// `markdown` as plain text.
pub fn markdown_to_plain(markdown: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut out = PlainWriter::default();
    for event in Parser::new_ext(markdown, options) {
        out.event(event);
    }
    out.finish()
}

#[derive(Default)]
struct PlainWriter {
    text: String,
    /// One entry per open list: the next number of an ordered list, `None` for bullets.
    lists: Vec<Option<u64>>,
    /// Open links and images: where their text starts and where they point.
    links: Vec<(usize, String)>,
    quote_depth: usize,
    /// Cells written in the current table row.
    cells: usize,
}

impl PlainWriter {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                self.write(&t)
            }
            Event::Html(t) | Event::InlineHtml(t) => self.write(&t),
            Event::SoftBreak | Event::HardBreak => self.newline(),
            Event::Rule => {
                self.block_break();
                self.write("──────────");
                self.block_break();
            }
            Event::TaskListMarker(done) => self.write(if done { "[x] " } else { "[ ] " }),
            Event::FootnoteReference(name) => self.write(&format!("[{name}]")),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            // A paragraph directly inside a list item continues the item's line.
            Tag::Paragraph | Tag::Heading { .. } | Tag::CodeBlock(_) | Tag::HtmlBlock
                if !self.at_item_start() =>
            {
                self.block_break()
            }
            Tag::BlockQuote(_) => {
                self.block_break();
                self.quote_depth += 1;
            }
            Tag::List(first) => {
                if self.lists.is_empty() {
                    self.block_break();
                }
                self.lists.push(first);
            }
            Tag::Item => {
                self.newline();
                let depth = self.lists.len().saturating_sub(1);
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let marker = format!("{n}. ");
                        *n += 1;
                        marker
                    }
                    _ => "- ".to_string(),
                };
                self.write(&format!("{}{marker}", "  ".repeat(depth)));
            }
            Tag::Table(_) => self.block_break(),
            Tag::TableHead | Tag::TableRow => {
                self.newline();
                self.cells = 0;
            }
            Tag::TableCell => {
                if self.cells > 0 {
                    self.write(" | ");
                }
                self.cells += 1;
            }
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.links.push((self.text.len(), dest_url.to_string()));
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::HtmlBlock
                if self.lists.is_empty() =>
            {
                self.block_break()
            }
            TagEnd::BlockQuote(_) => {
                self.quote_depth = self.quote_depth.saturating_sub(1);
                self.block_break();
            }
            TagEnd::List(_) => {
                self.lists.pop();
                if self.lists.is_empty() {
                    self.block_break();
                }
            }
            TagEnd::Table => self.block_break(),
            TagEnd::Link | TagEnd::Image => {
                if let Some((start, url)) = self.links.pop() {
                    let shown = self.text.get(start..).unwrap_or("").trim();
                    if !url.is_empty() && shown != url && !url.starts_with('#') {
                        self.write(&format!(" ({url})"));
                    }
                }
            }
            _ => {}
        }
    }

    /// Writes `text`, starting each new line with the quote markers in force.
    fn write(&mut self, text: &str) {
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.text.push('\n');
            }
            if !line.is_empty() && self.at_line_start() && self.quote_depth > 0 {
                self.text.push_str(&"> ".repeat(self.quote_depth));
            }
            self.text.push_str(line);
        }
    }

    fn at_line_start(&self) -> bool {
        self.text.is_empty() || self.text.ends_with('\n')
    }

    /// Whether the text ends with a list marker just written (`- `, `2. `).
    fn at_item_start(&self) -> bool {
        if self.lists.is_empty() {
            return false;
        }
        let line = self.text.rsplit('\n').next().unwrap_or("").trim_start();
        line == "-"
            || line == "- "
            || line
                .strip_suffix(". ")
                .is_some_and(|n| n.parse::<u64>().is_ok())
    }

    fn newline(&mut self) {
        if !self.at_line_start() {
            self.text.push('\n');
        }
    }

    /// Ends the line and leaves one blank line before the next block.
    fn block_break(&mut self) {
        if self.text.is_empty() || self.text.ends_with("\n\n") {
            return;
        }
        self.newline();
        self.text.push('\n');
    }

    fn finish(self) -> String {
        let lines: Vec<&str> = self.text.lines().map(str::trim_end).collect();
        let mut out = String::new();
        let mut blank_run = 0;
        for line in lines {
            if line.is_empty() {
                blank_run += 1;
                if blank_run > 1 {
                    continue;
                }
            } else {
                blank_run = 0;
            }
            out.push_str(line);
            out.push('\n');
        }
        out.trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::markdown_to_plain;
    use pretty_assertions::assert_eq;

    #[test]
    fn emphasis_headings_and_code_lose_their_marks() {
        let md = "# Result\n\nThe **build** is *green* and `cargo test` passes.\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n";
        assert_eq!(
            markdown_to_plain(md),
            "Result\n\nThe build is green and cargo test passes.\n\nfn main() {\n    println!(\"hi\");\n}"
        );
    }

    #[test]
    fn lists_keep_their_markers_and_numbers() {
        let md = "Steps:\n\n1. read *a*\n2. edit b\n   - nested\n\n- done\n";
        assert_eq!(
            markdown_to_plain(md),
            "Steps:\n\n1. read a\n2. edit b\n  - nested\n\n- done"
        );
    }

    #[test]
    fn links_show_their_address_and_quotes_their_marker() {
        let md = "See [the docs](https://example.com/d) or <https://example.com/x>.\n\n> quoted **text**\n> more\n";
        assert_eq!(
            markdown_to_plain(md),
            "See the docs (https://example.com/d) or https://example.com/x.\n\n> quoted text\n> more"
        );
    }

    #[test]
    fn tables_become_rows_of_cells() {
        let md = "| file | lines |\n|---|---|\n| a.rs | 10 |\n| b.rs | 20 |\n";
        assert_eq!(markdown_to_plain(md), "file | lines\na.rs | 10\nb.rs | 20");
    }

    #[test]
    fn plain_text_and_chinese_pass_through() {
        let text = "已完成：修改了 3 个文件。\n第二行";
        assert_eq!(markdown_to_plain(text), text);
    }
}
