//! HTML → Markdown for `web_fetch`: the page's title and its main content, without scripts, navigation and forms.

use std::rc::Rc;

use htmd::{HtmlToMarkdown, Node};
use markup5ever_rcdom::NodeData;

/// Tags whose content is never page text.
const SKIPPED: &[&str] = &[
    "script", "style", "noscript", "nav", "header", "footer", "form", "aside", "iframe", "svg",
    "template", "button", "select", "head",
];

/// A converted page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageText {
    pub title: Option<String>,
    pub markdown: String,
}

/// Converts `html` to Markdown, preferring the `<article>` or `<main>` element when the page has one.
pub fn html_to_markdown(html: &str) -> PageText {
    let converter = HtmlToMarkdown::builder()
        .skip_tags(SKIPPED.to_vec())
        .build();
    let Ok(tree) = converter.html_to_tree(html) else {
        return PageText {
            title: None,
            markdown: String::new(),
        };
    };
    let title = find_element(&tree, "title")
        .map(|t| collapse_whitespace(&text_of(&t)))
        .filter(|t| !t.is_empty());
    // `tree` must outlive `content`: dropping an rcdom document empties every node under it.
    let content = find_element(&tree, "article")
        .or_else(|| find_element(&tree, "main"))
        .unwrap_or_else(|| Rc::clone(&tree));
    let markdown = converter.tree_to_markdown(&content);
    drop(content);
    drop(tree);
    PageText { title, markdown }
}

/// The first element named `tag` in document order.
fn find_element(node: &Rc<Node>, tag: &str) -> Option<Rc<Node>> {
    if let NodeData::Element { name, .. } = &node.data
        && name.local.as_ref() == tag
    {
        return Some(Rc::clone(node));
    }
    node.children
        .borrow()
        .iter()
        .find_map(|child| find_element(child, tag))
}

fn text_of(node: &Rc<Node>) -> String {
    let mut out = String::new();
    if let NodeData::Text { contents } = &node.data {
        out.push_str(&contents.borrow());
    }
    for child in node.children.borrow().iter() {
        out.push_str(&text_of(child));
    }
    out
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_article_and_drops_chrome() {
        let page = html_to_markdown(
            "<html><head><title> My  Page </title><style>p{}</style></head><body>\
             <nav><a href='/'>Home</a></nav><header>Site header</header>\
             <article><h1>Heading</h1><p>Body <b>text</b>.</p><script>evil()</script></article>\
             <aside>Related</aside><footer>Footer</footer></body></html>",
        );
        assert_eq!(page.title.as_deref(), Some("My Page"));
        assert_eq!(page.markdown, "# Heading\n\nBody **text**.");
    }

    #[test]
    fn falls_back_to_main_then_the_body() {
        let page = html_to_markdown(
            "<body><nav>x</nav><main><p>Main part</p></main><p>outside</p></body>",
        );
        assert_eq!(page.markdown, "Main part");
        let page = html_to_markdown("<body><form>login</form><p>Only <i>body</i></p></body>");
        assert_eq!(page.title, None);
        assert_eq!(page.markdown, "Only *body*");
    }
}
