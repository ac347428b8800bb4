//! Error bodies that are HTML pages (a proxy's 502, a gateway's 501): reduced to the page title and one line of
//! its text, so a terminal shows a sentence instead of markup.

/// Longest summary line kept from the page text.
const MAX_SUMMARY_CHARS: usize = 160;

/// `title: first line of text` when `body` is an HTML page, else `None`.
pub fn summarize_html(body: &str) -> Option<String> {
    let head: String = body.trim_start().chars().take(512).collect();
    let lower = head.to_ascii_lowercase();
    if !(lower.starts_with("<!doctype html")
        || lower.starts_with("<html")
        || lower.contains("<body"))
    {
        return None;
    }
    let title = element_text(body, "title").filter(|t| !t.is_empty());
    let text = visible_text(body_part(body));
    let summary: Option<String> = text
        .split('\n')
        .map(str::trim)
        .filter(|line| !line.is_empty() && Some(*line) != title.as_deref())
        .map(|line| cut(line, MAX_SUMMARY_CHARS))
        .next();
    Some(match (title, summary) {
        (Some(t), Some(s)) => format!("{t}: {s} (HTML page)"),
        (Some(t), None) => format!("{t} (HTML page)"),
        (None, Some(s)) => format!("{s} (HTML page)"),
        (None, None) => "an HTML page without text".to_string(),
    })
}

/// The text inside the first `<name …>…</name>`, whitespace collapsed.
fn element_text(html: &str, name: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = lower.find(&format!("<{name}"))?;
    let start = open + lower[open..].find('>')? + 1;
    let end = start + lower[start..].find(&format!("</{name}"))?;
    Some(collapse(&decode_entities(&html[start..end])))
}

/// From `<body` on when there is one (the head holds the title and styles).
fn body_part(html: &str) -> &str {
    let lower = html.to_ascii_lowercase();
    match lower.find("<body") {
        Some(i) => &html[i..],
        None => html,
    }
}

/// The page text with tags, scripts and styles dropped; block tags become line breaks.
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let Some(close) = after.find('>') else {
            rest = "";
            break;
        };
        let tag = after[1..close].to_ascii_lowercase();
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        rest = &after[close + 1..];
        if (name == "script" || name == "style") && !tag.starts_with('/') {
            let lower = rest.to_ascii_lowercase();
            rest = match lower.find(&format!("</{name}")) {
                Some(end) => &rest[end..],
                None => "",
            };
            continue;
        }
        if matches!(
            name.as_str(),
            "br" | "p" | "div" | "h1" | "h2" | "h3" | "h4" | "li" | "tr" | "hr" | "center" | "pre"
        ) {
            out.push('\n');
        }
    }
    out.push_str(rest);
    decode_entities(&out)
        .split('\n')
        .map(collapse)
        .collect::<Vec<_>>()
        .join("\n")
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn decode_entities(text: &str) -> String {
    text.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_nginx_502_page_becomes_its_title() {
        let page = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n\
                    <center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n\
                    </body>\r\n</html>\r\n";
        assert_eq!(
            summarize_html(page).as_deref(),
            Some("502 Bad Gateway: nginx/1.25.3 (HTML page)")
        );
    }

    #[test]
    fn a_page_with_styles_and_scripts_keeps_its_first_sentence() {
        let page = "<!DOCTYPE html><html><head><title>Not Implemented</title><style>body{color:red}</style>\
                    </head><body><script>var x = '<p>no</p>';</script><h1>Not Implemented</h1>\
                    <p>The method POST is not supported &amp; never was.</p></body></html>";
        assert_eq!(
            summarize_html(page).as_deref(),
            Some("Not Implemented: The method POST is not supported & never was. (HTML page)")
        );
    }

    #[test]
    fn json_and_plain_text_are_not_pages() {
        assert_eq!(summarize_html(r#"{"error":"x"}"#), None);
        assert_eq!(summarize_html("gateway down"), None);
    }
}
