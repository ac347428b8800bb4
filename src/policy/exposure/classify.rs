//! Reads the submitted text for the turn's web stance (spec §5): explicit no-web, headline only, local text
//! transform, or allowed. These rules only ever take web tools away.

use std::sync::LazyLock;

use regex::Regex;

use super::literal_regex;
use crate::guard::urls::urls_in_text;

/// What the user's text says about going online this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebStance {
    /// Nothing against it.
    Allowed,
    /// The user said not to go online.
    Forbidden,
    /// Only a headline was pasted: ask what to do instead of researching it.
    HeadlineOnly,
    /// A local edit of text the user gave (polish, translate, rate ...).
    LocalTransform,
}

/// The classification of one submitted text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnExposure {
    pub stance: WebStance,
    /// Normalized http(s) URLs the user wrote.
    pub grounded: Vec<String>,
}

static NO_WEB_ZH: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"(不要|别|禁止|无需|不需要|不用|不必|请勿|勿|不准|不许|不能|不可以)\s*",
        r"(再|去|使用|用|进行|上|打开)?\s*",
        r"(联网|上网|网上|网络|互联网|在线搜索|网络搜索|搜索|搜|浏览器|浏览网页|访问网页|访问网络|查网页|网页|查资料)",
        r"|(只|仅)(用|使用|根据|基于|参考)我(提供|给)的(资料|材料|内容|信息|文档)",
        r"|离线(完成|回答|处理|模式)|断网"
    ))
});

// English patterns fold case in ASCII only (`(?i-u)`): with Unicode case folding these regexes were the costliest
// step between process start and the first request.
static NO_WEB_EN: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"(?i-u)(?-u:\b)(do\s+not|don'?t|never|no\s+need\s+to|please\s+don'?t)\s+",
        r"(browse|search|google|go\s+online|look\s+(it|this|things)\s+up\s+online",
        r"|use\s+(the\s+)?(internet|web|network|browser|web\s+search|online\s+search)",
        r"|access\s+(the\s+)?(internet|web|network))(?-u:\b)",
        r"|(?-u:\b)without\s+(any\s+)?(web|internet|online|network)(\s+(search|searches|access|browsing|lookups?))?(?-u:\b)",
        r"|(?-u:\b)(offline\s+only|only\s+offline|stay\s+offline|work\s+offline)(?-u:\b)",
        r"|(?-u:\b)no\s+(web|internet|browsing|online\s+search|web\s+search|network\s+access)(?-u:\b)",
        r"|(?-u:\b)only\s+use\s+the\s+(material|materials|docs|documents|text)\s+I\s+(gave|provided)(?-u:\b)"
    ))
});

/// Asking words: a text with one of these is a request, not a bare headline.
static REQUEST_ZH: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(
        r"请|帮我|帮忙|麻烦|能否|能不能|可否|可以帮|给我|写一|总结|翻译|解释|分析|生成|改成|修复|实现|运行|查看",
    )
});

static REQUEST_EN: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"(?i-u)^\s*(please|pls|help\s+me|could\s+you|can\s+you|would\s+you|i\s+want|i\s+need|i'd\s+like|let's)(?-u:\b)",
        r"|(?i-u)(?-u:\b)(please|summari[sz]e|explain|translate|write|fix|implement|run|review)(?-u:\b)"
    ))
});

static WRAPPED_TITLE: LazyLock<Regex> =
    LazyLock::new(|| literal_regex(r"^(《[^《》\n]+》|【[^【】\n]+】[^\n？?。]*)$"));

static MARKDOWN_HEADING: LazyLock<Regex> = LazyLock::new(|| literal_regex(r"^#{1,6}\s+\S[^\n]*$"));

/// Keywords of an attachment suffix such as "（附面试题）".
const ATTACHMENT_KEYWORDS: &[&str] = &[
    "面试题",
    "源码",
    "答案",
    "pdf",
    "代码",
    "资料",
    "下载",
    "题库",
    "笔记",
];

static LOCAL_OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"标题|这段|段落|文案|这句|句子|这篇|文章|摘要|文本|短文|作文|邮件",
        r"|(?i-u)(?-u:\b)(title|headline|paragraph|passage|sentence|essay|copy|blurb|text\s+below|following\s+text)(?-u:\b)"
    ))
});

static LOCAL_VERB: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"润色|改写|重写|翻译|删除|删掉|删减|评分|打分|精简|缩写|扩写|校对|修改措辞|优化表达",
        r"|(?i-u)(?-u:\b)(polish|rewrite|rephrase|reword|translate|proofread|shorten|rate|grade|paraphrase)(?-u:\b)"
    ))
});

/// Words that ask for something only the web has; they keep a text transform from turning web off.
static WEB_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"搜索|搜一下|查一下|查找|联网|上网|网上|最新|新闻|官网",
        r"|(?i-u)(?-u:\b)(search|look\s+up|browse|online|latest|news|web)(?-u:\b)"
    ))
});

/// Compiles every pattern now. Called on a background thread at start-up, so the first turn's classification
/// does not wait for the compilation (a thread that gets there first waits for the one compiling).
pub fn prewarm() {
    for pattern in [
        &NO_WEB_ZH,
        &NO_WEB_EN,
        &REQUEST_ZH,
        &REQUEST_EN,
        &WRAPPED_TITLE,
        &MARKDOWN_HEADING,
        &LOCAL_OBJECT,
        &LOCAL_VERB,
        &WEB_REQUEST,
    ] {
        LazyLock::force(pattern);
    }
    crate::guard::urls::prewarm();
}

/// Classifies the text the user submitted.
pub fn classify(submitted: &str) -> TurnExposure {
    let text = submitted.trim();
    let grounded = urls_in_text(text);
    let stance = if NO_WEB_ZH.is_match(text) || NO_WEB_EN.is_match(text) {
        WebStance::Forbidden
    } else if grounded.is_empty() && is_headline_only(text) {
        WebStance::HeadlineOnly
    } else if LOCAL_OBJECT.is_match(text)
        && LOCAL_VERB.is_match(text)
        && !WEB_REQUEST.is_match(text)
    {
        WebStance::LocalTransform
    } else {
        WebStance::Allowed
    };
    TurnExposure { stance, grounded }
}

fn is_headline_only(text: &str) -> bool {
    if text.is_empty() || REQUEST_ZH.is_match(text) || REQUEST_EN.is_match(text) {
        return false;
    }
    let single_line = !text.contains('\n');
    (single_line && (WRAPPED_TITLE.is_match(text) || MARKDOWN_HEADING.is_match(text)))
        || has_attachment_suffix(text)
        || (single_line && text.chars().count() <= 220 && is_colon_question(text))
}

// The two shapes below are length rules. As regexes (`[^（）()\n]{0,40}`, `[^\n]{4,180}`) every repetition copies
// a Unicode class's automaton, which made compiling them the largest cost of a turn's start; plain code is exact
// and cheap.

/// Ends with a bracketed suffix `（附 … keyword … ）`: at most 40 characters between 附 and the keyword, at most 10
/// after it, no brackets or newlines inside.
fn has_attachment_suffix(text: &str) -> bool {
    let text = text.trim_end();
    let Some(inner) = text.strip_suffix('）').or_else(|| text.strip_suffix(')')) else {
        return false;
    };
    let Some(open) = inner.rfind(['（', '(']) else {
        return false;
    };
    let content = &inner[open..];
    let content = content
        .strip_prefix('（')
        .or_else(|| content.strip_prefix('('))
        .unwrap_or(content);
    if content.contains(['）', ')', '\n']) {
        return false;
    }
    let Some(after_fu) = content.trim_start().strip_prefix('附') else {
        return false;
    };
    let lower = after_fu.to_lowercase();
    ATTACHMENT_KEYWORDS.iter().any(|keyword| {
        lower.match_indices(keyword).any(|(at, kw)| {
            lower[..at].chars().count() <= 40 && lower[at + kw.len()..].chars().count() <= 10
        })
    })
}

/// One line `X：Y？`: 2–48 characters before the first full-width colon, 4–180 after it, then a question mark.
fn is_colon_question(text: &str) -> bool {
    let Some((before, after)) = text.split_once('：') else {
        return false;
    };
    let Some(body) = after.strip_suffix('？').or_else(|| after.strip_suffix('?')) else {
        return false;
    };
    let (b, a) = (before.chars().count(), body.chars().count());
    !text.contains('\n') && (2..=48).contains(&b) && (4..=180).contains(&a)
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    #[test]
    fn attachment_suffix_limits() {
        assert!(has_attachment_suffix("Java 并发编程（附面试题）"));
        assert!(has_attachment_suffix("Spring 源码解析 (附 完整源码下载)  "));
        assert!(
            has_attachment_suffix("指南（附PDF）"),
            "keywords match in any case"
        );
        let before_ok = format!("标题（附{}答案{}）", "字".repeat(40), "尾".repeat(10));
        assert!(has_attachment_suffix(&before_ok));
        let before_long = format!("标题（附{}答案）", "字".repeat(41));
        assert!(!has_attachment_suffix(&before_long));
        let after_long = format!("标题（附答案{}）", "尾".repeat(11));
        assert!(!has_attachment_suffix(&after_long));
        assert!(!has_attachment_suffix("标题（面试题）"), "附 is required");
        assert!(
            !has_attachment_suffix("标题（附a)面试题）"),
            "no brackets inside"
        );
        assert!(!has_attachment_suffix("（附面试题）之后还有字"));
    }

    #[test]
    fn colon_question_limits() {
        assert!(is_colon_question("Redis：为什么这么快？"));
        assert!(is_colon_question("JVM：how does GC work?"));
        let ok = format!("{}：{}？", "前".repeat(48), "后".repeat(180));
        assert!(is_colon_question(&ok));
        assert!(!is_colon_question(&format!(
            "{}：四个字啊？",
            "前".repeat(49)
        )));
        assert!(!is_colon_question(&format!("前：{}？", "后".repeat(181))));
        assert!(
            !is_colon_question("前：三个字？"),
            "one character before the colon is too few"
        );
        assert!(
            !is_colon_question("前缀：三个字？"),
            "three after the colon are too few"
        );
        assert!(!is_colon_question("前缀：没有问号的句子"));
        assert!(!is_colon_question("前缀：第一行\n第二行？"));
    }
}
