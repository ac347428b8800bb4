//! Reads the submitted text for the turn's web stance (spec §5): explicit no-web, headline only, local text
//! transform, or allowed. These rules only ever take web tools away.

use std::sync::LazyLock;

use regex::Regex;

use super::literal_regex;
use crate::guard::constant_regex::constant_regex;
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
/// The first character of every match of [`NO_WEB_ZH`].
const NO_WEB_ZH_FIRST: [char; 10] = ['不', '别', '禁', '无', '请', '勿', '只', '仅', '离', '断'];

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
/// Every match of [`NO_WEB_EN`] holds one of these (lower case; "no" is also in "not").
const NO_WEB_EN_WORDS: &[&str] = &["no", "don", "never", "without", "offline", "only"];

/// Asking words: a text with one of these is a request, not a bare headline.
const REQUEST_ZH: &[&str] = &[
    "请",
    "帮我",
    "帮忙",
    "麻烦",
    "能否",
    "能不能",
    "可否",
    "可以帮",
    "给我",
    "写一",
    "总结",
    "翻译",
    "解释",
    "分析",
    "生成",
    "改成",
    "修复",
    "实现",
    "运行",
    "查看",
];

static REQUEST_EN: LazyLock<Regex> = LazyLock::new(|| {
    literal_regex(concat!(
        r"(?i-u)^\s*(please|pls|help\s+me|could\s+you|can\s+you|would\s+you|i\s+want|i\s+need|i'd\s+like|let's)(?-u:\b)",
        r"|(?i-u)(?-u:\b)(please|summari[sz]e|explain|translate|write|fix|implement|run|review)(?-u:\b)"
    ))
});
const REQUEST_EN_WORDS: &[&str] = &[
    "please",
    "pls",
    "help",
    "could",
    "can",
    "would",
    "want",
    "need",
    "like",
    "let",
    "summari",
    "explain",
    "translate",
    "write",
    "fix",
    "implement",
    "run",
    "review",
];

/// Starts with 《 or 【 (checked before the pattern runs).
static WRAPPED_TITLE: LazyLock<Regex> =
    LazyLock::new(|| literal_regex(r"^(《[^《》\n]+》|【[^【】\n]+】[^\n？?。]*)$"));

/// Starts with `#` (checked before the pattern runs).
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

/// A piece of text the user gave (Chinese words, or English words as whole words).
const LOCAL_OBJECT_ZH: &[&str] = &[
    "标题", "这段", "段落", "文案", "这句", "句子", "这篇", "文章", "摘要", "文本", "短文", "作文",
    "邮件",
];
const LOCAL_OBJECT_EN: Words = Words(&[
    "title",
    "headline",
    "paragraph",
    "passage",
    "sentence",
    "essay",
    "copy",
    "blurb",
    "text below",
    "following text",
]);
static LOCAL_OBJECT_EN_PATTERN: LazyLock<Regex> = LazyLock::new(|| LOCAL_OBJECT_EN.pattern());

/// Something to do to that text.
const LOCAL_VERB_ZH: &[&str] = &[
    "润色",
    "改写",
    "重写",
    "翻译",
    "删除",
    "删掉",
    "删减",
    "评分",
    "打分",
    "精简",
    "缩写",
    "扩写",
    "校对",
    "修改措辞",
    "优化表达",
];
const LOCAL_VERB_EN: Words = Words(&[
    "polish",
    "rewrite",
    "rephrase",
    "reword",
    "translate",
    "proofread",
    "shorten",
    "rate",
    "grade",
    "paraphrase",
]);
static LOCAL_VERB_EN_PATTERN: LazyLock<Regex> = LazyLock::new(|| LOCAL_VERB_EN.pattern());

/// Words that ask for something only the web has; they keep a text transform from turning web off.
const WEB_REQUEST_ZH: &[&str] = &[
    "搜索",
    "搜一下",
    "查一下",
    "查找",
    "联网",
    "上网",
    "网上",
    "最新",
    "新闻",
    "官网",
];
const WEB_REQUEST_EN: Words = Words(&[
    "search", "look up", "browse", "online", "latest", "news", "web",
]);
static WEB_REQUEST_EN_PATTERN: LazyLock<Regex> = LazyLock::new(|| WEB_REQUEST_EN.pattern());

/// English words or phrases, matched whole with ASCII case folded; a space stands for any run of white space.
struct Words(&'static [&'static str]);

impl Words {
    /// Any of the phrases, as whole words.
    fn pattern(&self) -> Regex {
        let phrases: Vec<String> = self.0.iter().map(|p| p.replace(' ', r"\s+")).collect();
        constant_regex(&format!(r"(?i-u)(?-u:\b)({})(?-u:\b)", phrases.join("|")))
    }

    /// Whether `lower` (a text with ASCII in lower case) holds a phrase's first word, as every match does.
    fn may_match(&self, lower: &str) -> bool {
        self.0
            .iter()
            .any(|phrase| lower.contains(phrase.split(' ').next().unwrap_or(phrase)))
    }
}

/// Compiles every pattern now. Called on a background thread at start-up, so the first turn's classification
/// does not wait for the compilation (a thread that gets there first waits for the one compiling).
pub fn prewarm() {
    for pattern in [
        &NO_WEB_ZH,
        &NO_WEB_EN,
        &REQUEST_EN,
        &WRAPPED_TITLE,
        &MARKDOWN_HEADING,
        &LOCAL_OBJECT_EN_PATTERN,
        &LOCAL_VERB_EN_PATTERN,
        &WEB_REQUEST_EN_PATTERN,
    ] {
        LazyLock::force(pattern);
    }
    crate::guard::urls::prewarm();
}

/// The submitted text, with its ASCII letters in lower case for the word checks that guard each pattern: a
/// pattern is run (and compiled) only when the text holds what every match of it holds, so a plain coding task
/// is classified without compiling the patterns at all.
struct Text<'a> {
    text: &'a str,
    lower: String,
}

impl Text<'_> {
    fn has_word(&self, words: &[&str]) -> bool {
        words.iter().any(|word| self.lower.contains(word))
    }

    fn has_literal(&self, literals: &[&str]) -> bool {
        literals.iter().any(|literal| self.text.contains(literal))
    }

    /// `pattern` matches, asked only when `may` (the check of what every match holds) passed.
    fn matches(&self, may: bool, pattern: &LazyLock<Regex>) -> bool {
        may && pattern.is_match(self.text)
    }

    fn forbids_web(&self) -> bool {
        self.matches(self.text.contains(NO_WEB_ZH_FIRST), &NO_WEB_ZH)
            || self.matches(self.has_word(NO_WEB_EN_WORDS), &NO_WEB_EN)
    }

    fn is_request(&self) -> bool {
        self.has_literal(REQUEST_ZH) || self.matches(self.has_word(REQUEST_EN_WORDS), &REQUEST_EN)
    }

    fn names_local_object(&self) -> bool {
        self.has_literal(LOCAL_OBJECT_ZH)
            || self.matches(
                LOCAL_OBJECT_EN.may_match(&self.lower),
                &LOCAL_OBJECT_EN_PATTERN,
            )
    }

    fn asks_local_verb(&self) -> bool {
        self.has_literal(LOCAL_VERB_ZH)
            || self.matches(LOCAL_VERB_EN.may_match(&self.lower), &LOCAL_VERB_EN_PATTERN)
    }

    fn asks_web(&self) -> bool {
        self.has_literal(WEB_REQUEST_ZH)
            || self.matches(
                WEB_REQUEST_EN.may_match(&self.lower),
                &WEB_REQUEST_EN_PATTERN,
            )
    }

    fn is_headline_only(&self) -> bool {
        let text = self.text;
        if text.is_empty() || self.is_request() {
            return false;
        }
        let single_line = !text.contains('\n');
        (single_line
            && (self.matches(text.starts_with(['《', '【']), &WRAPPED_TITLE)
                || self.matches(text.starts_with('#'), &MARKDOWN_HEADING)))
            || has_attachment_suffix(text)
            || (single_line && text.chars().count() <= 220 && is_colon_question(text))
    }
}

/// Classifies the text the user submitted.
pub fn classify(submitted: &str) -> TurnExposure {
    let text = submitted.trim();
    let grounded = urls_in_text(text);
    let text = Text {
        text,
        lower: text.to_ascii_lowercase(),
    };
    let stance = if text.forbids_web() {
        WebStance::Forbidden
    } else if grounded.is_empty() && text.is_headline_only() {
        WebStance::HeadlineOnly
    } else if text.names_local_object() && text.asks_local_verb() && !text.asks_web() {
        WebStance::LocalTransform
    } else {
        WebStance::Allowed
    };
    TurnExposure { stance, grounded }
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

    /// A text for each alternative of each guarded pattern, in several cases, and texts near them.
    const SAMPLES: &[&str] = &[
        "不要联网",
        "别搜索了",
        "禁止使用浏览器",
        "无需联网",
        "不需要上网",
        "不用搜",
        "不必查资料",
        "请勿访问网页",
        "勿联网",
        "不准上网",
        "不许搜索",
        "不能联网",
        "不可以上网",
        "只用我提供的资料",
        "仅根据我给的文档",
        "离线完成",
        "断网",
        "要联网",
        "do not browse",
        "DON'T search",
        "dont google",
        "Never go online",
        "no need to use the internet",
        "please don't access the web",
        "don't look it up online",
        "without web",
        "Without any internet access",
        "offline only",
        "only offline",
        "stay offline",
        "work offline",
        "no browsing",
        "No network access",
        "only use the docs I gave",
        "do browse",
        "please fix it",
        "Pls look",
        "Help me",
        "could you",
        "Can you",
        "would you",
        "I want x",
        "i need y",
        "I'd like z",
        "let's go",
        "summarise this",
        "Summarize",
        "explain",
        "Translate",
        "write",
        "FIX",
        "implement",
        "run",
        "review",
        "《深入理解》",
        "【干货】标题",
        "# Title",
        "### x",
        "#nope",
        "title",
        "Headline",
        "paragraph",
        "passage",
        "sentence",
        "essay",
        "copy",
        "blurb",
        "text below",
        "the following text",
        "polish",
        "rewrite",
        "rephrase",
        "reword",
        "proofread",
        "shorten",
        "rate",
        "grade",
        "paraphrase",
        "search",
        "look up",
        "browse",
        "online",
        "latest",
        "news",
        "the web",
    ];

    /// A pattern and the check that decides whether it is asked.
    type Guarded = (&'static LazyLock<Regex>, fn(&Text) -> bool);

    #[test]
    fn every_pattern_is_asked_whenever_it_could_match() {
        let guarded: [Guarded; 8] = [
            (&NO_WEB_ZH, |t| t.text.contains(NO_WEB_ZH_FIRST)),
            (&NO_WEB_EN, |t| t.has_word(NO_WEB_EN_WORDS)),
            (&REQUEST_EN, |t| t.has_word(REQUEST_EN_WORDS)),
            (&WRAPPED_TITLE, |t| t.text.starts_with(['《', '【'])),
            (&MARKDOWN_HEADING, |t| t.text.starts_with('#')),
            (&LOCAL_OBJECT_EN_PATTERN, |t| {
                LOCAL_OBJECT_EN.may_match(&t.lower)
            }),
            (&LOCAL_VERB_EN_PATTERN, |t| {
                LOCAL_VERB_EN.may_match(&t.lower)
            }),
            (&WEB_REQUEST_EN_PATTERN, |t| {
                WEB_REQUEST_EN.may_match(&t.lower)
            }),
        ];
        for (index, (pattern, may)) in guarded.iter().enumerate() {
            let mut matched = 0;
            for sample in SAMPLES {
                let text = Text {
                    text: sample,
                    lower: sample.to_ascii_lowercase(),
                };
                if pattern.is_match(sample) {
                    matched += 1;
                    assert!(
                        may(&text),
                        "pattern {index} matches {sample:?}, its check says it cannot"
                    );
                }
            }
            assert!(matched >= 2, "pattern {index} matched {matched} samples");
        }
    }

    #[test]
    fn a_plain_task_asks_no_pattern() {
        let task = "把 Hello.java 里的 Hello World 改成 Hello PaiCLI";
        let text = Text {
            text: task,
            lower: task.to_ascii_lowercase(),
        };
        assert!(!task.contains(NO_WEB_ZH_FIRST) && !text.has_word(NO_WEB_EN_WORDS));
        assert!(
            text.has_literal(REQUEST_ZH),
            "a request, found without a pattern"
        );
        assert_eq!(classify(task).stance, WebStance::Allowed);
    }

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
