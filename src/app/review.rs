//! `/review` and `paicli review`: the built-in `reviewer` agent (or the user's own of that name) gets a diff in
//! its request, may read the files around it, and ends with its findings as JSON, which are parsed into typed
//! findings with a severity. By default the diff is what this branch changed since it left the default branch
//! (`origin/HEAD`, else `main`, else `master`), committed or not.

use std::path::Path;
use std::process::Command;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::agent::delegation::AgentRunner;
use crate::protocol::{EventSink, ToolOutcome};

/// The definition that reviews.
pub const REVIEWER: &str = "reviewer";
/// Most diff characters put in the request; a longer diff is cut with a note (the reviewer may read files).
const MAX_DIFF_CHARS: usize = 120_000;

/// How bad a finding is, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Blocking,
    Major,
    Minor,
    Nit,
}

/// One problem the reviewer found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub severity: Severity,
    pub path: String,
    #[serde(default)]
    pub line: Option<u64>,
    pub title: String,
    /// What is wrong and the suggested fix.
    #[serde(default)]
    pub body: String,
}

/// What a review found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    pub findings: Vec<Finding>,
}

impl Review {
    /// Whether any finding is at least as bad as `threshold` (`None`: never fails).
    pub fn fails_at(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| self.findings.iter().any(|f| f.severity <= t))
    }
}

/// Which changes to review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewTarget {
    /// Everything since the merge base with the default branch, committed or not.
    Default,
    /// The staged changes.
    Staged,
    /// Since the merge base with this branch, or this commit's own changes.
    Ref(String),
}

impl ReviewTarget {
    /// `""` → default, `--staged`, else a branch or commit.
    pub fn parse(args: &str) -> Self {
        match args.trim() {
            "" => ReviewTarget::Default,
            "--staged" | "--cached" => ReviewTarget::Staged,
            other => ReviewTarget::Ref(other.to_string()),
        }
    }
}

/// Why there is no review.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("git failed: {0}")]
    Git(String),
    #[error("there are no changes to review")]
    NoChanges,
    #[error("sub-agents are off ([agents] enabled = false)")]
    AgentsOff,
    #[error("the reviewer did not finish: {0}")]
    NotFinished(String),
    #[error("the reviewer's findings are not the JSON asked for: {0}")]
    Unreadable(String),
    #[error("agents.review_fail_on is {0:?}; expected blocking, major, minor, nit or never")]
    BadThreshold(String),
}

/// `[agents] review_fail_on` as the severity that fails a review (`never`: none does).
pub fn fail_threshold(text: &str) -> Result<Option<Severity>, ReviewError> {
    match text.trim() {
        "never" => Ok(None),
        "blocking" => Ok(Some(Severity::Blocking)),
        "major" => Ok(Some(Severity::Major)),
        "minor" => Ok(Some(Severity::Minor)),
        "nit" => Ok(Some(Severity::Nit)),
        other => Err(ReviewError::BadThreshold(other.to_string())),
    }
}

fn git(root: &Path, args: &[&str]) -> Result<String, ReviewError> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .map_err(|e| ReviewError::Git(e.to_string()))?;
    if !output.status.success() {
        return Err(ReviewError::Git(
            String::from_utf8_lossy(&output.stderr).trim().to_string(),
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Whether `name` is a branch (local or remote) rather than a commit.
fn is_branch(root: &Path, name: &str) -> bool {
    ["refs/heads/", "refs/remotes/"].iter().any(|prefix| {
        git(
            root,
            &[
                "show-ref",
                "--verify",
                "--quiet",
                &format!("{prefix}{name}"),
            ],
        )
        .is_ok()
    })
}

/// The default branch to compare with: `origin/HEAD`, else `main`, else `master`.
fn default_base(root: &Path) -> Option<String> {
    ["origin/HEAD", "main", "master"]
        .into_iter()
        .find(|b| git(root, &["rev-parse", "--verify", "--quiet", b]).is_ok())
        .map(str::to_string)
}

/// The diff `target` names in the repository at `root`.
pub fn diff_for(root: &Path, target: &ReviewTarget) -> Result<String, ReviewError> {
    let since = |base: &str| -> Result<String, ReviewError> {
        let merge_base = git(root, &["merge-base", "HEAD", base])?;
        git(root, &["diff", merge_base.trim()])
    };
    let diff = match target {
        ReviewTarget::Staged => git(root, &["diff", "--cached"])?,
        ReviewTarget::Ref(name) if is_branch(root, name) => since(name)?,
        ReviewTarget::Ref(commit) => git(root, &["show", "--format=", commit])?,
        ReviewTarget::Default => match default_base(root) {
            Some(base) => since(&base)?,
            // No default branch to compare with: what is not committed yet.
            None => git(root, &["diff", "HEAD"])?,
        },
    };
    if diff.trim().is_empty() {
        return Err(ReviewError::NoChanges);
    }
    Ok(diff)
}

/// The reviewer's task: the diff and the shape of its answer.
pub fn review_prompt(diff: &str) -> String {
    let (shown, note) = match diff.char_indices().nth(MAX_DIFF_CHARS) {
        Some((cut, _)) => (
            &diff[..cut],
            "\n[the diff is cut here; read the files for the rest]",
        ),
        None => (diff, ""),
    };
    format!(
        "Review this diff. Read the files around it when you need context.\n\n```diff\n{shown}\n```{note}\n\n\
         End your reply with one JSON object and nothing after it:\n\
         {{\"findings\": [{{\"severity\": \"blocking|major|minor|nit\", \"path\": \"file\", \"line\": 1, \
         \"title\": \"short\", \"body\": \"what is wrong and the suggested fix\"}}]}}\n\
         An empty list means you found nothing."
    )
}

/// The findings in the reviewer's reply: its last JSON object with a `findings` list.
pub fn parse_findings(reply: &str) -> Result<Review, ReviewError> {
    let start = reply
        .rfind("{\"findings\"")
        .or_else(|| reply.rfind("{ \"findings\""))
        .or_else(|| reply.find('{'))
        .ok_or_else(|| ReviewError::Unreadable("no JSON object".into()))?;
    let mut stream = serde_json::Deserializer::from_str(&reply[start..]).into_iter::<Review>();
    match stream.next() {
        Some(Ok(review)) => Ok(review),
        Some(Err(e)) => Err(ReviewError::Unreadable(e.to_string())),
        None => Err(ReviewError::Unreadable("no JSON object".into())),
    }
}

/// The reviewer's runner and its task for `target`: what a front-end runs when it must drive the run itself.
pub fn prepare_review(
    agent: &Agent,
    target: &ReviewTarget,
) -> Result<(AgentRunner, String), ReviewError> {
    let diff = diff_for(agent.project_root(), target)?;
    let runner = agent.agent_runner().ok_or(ReviewError::AgentsOff)?;
    Ok((runner, review_prompt(&diff)))
}

/// The review in the reviewer's outcome.
pub fn review_of(outcome: ToolOutcome) -> Result<Review, ReviewError> {
    match outcome {
        ToolOutcome::Ok(out) => parse_findings(&out.text),
        other => Err(ReviewError::NotFinished(other.model_text())),
    }
}

/// Reviews `target` with `agent`'s reviewer; its events go to `events`, its tokens to `agent`'s session.
pub async fn run_review(
    agent: &mut Agent,
    target: &ReviewTarget,
    events: &dyn EventSink,
    cancel: CancellationToken,
) -> Result<Review, ReviewError> {
    let (mut runner, prompt) = prepare_review(agent, target)?;
    let (outcome, spent) = runner.run(REVIEWER, &prompt, events, cancel).await;
    agent.record_side_usage(spent);
    review_of(outcome)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn findings_are_read_from_the_last_json_object_and_blocking_fails() {
        let reply = "Looked at it.\n```json\n{\"findings\": [{\"severity\": \"blocking\", \"path\": \"a.rs\", \
                     \"line\": 3, \"title\": \"panics\", \"body\": \"use ?\"}]}\n```";
        let review = parse_findings(reply).unwrap();
        assert_eq!(review.findings[0].severity, Severity::Blocking);
        assert_eq!(review.findings[0].line, Some(3));
        assert!(review.fails_at(Some(Severity::Blocking)));
        assert!(!review.fails_at(None));
        let nits = parse_findings(
            "{\"findings\": [{\"severity\": \"nit\", \"path\": \"a\", \"title\": \"t\"}]}",
        )
        .unwrap();
        assert!(!nits.fails_at(Some(Severity::Major)));
        assert!(parse_findings("nothing here").is_err());
        assert!(parse_findings("{\"findings\": [{\"severity\": \"awful\"}]}").is_err());
    }

    #[test]
    fn targets_parse() {
        assert_eq!(ReviewTarget::parse(""), ReviewTarget::Default);
        assert_eq!(ReviewTarget::parse("--staged"), ReviewTarget::Staged);
        assert_eq!(
            ReviewTarget::parse("main"),
            ReviewTarget::Ref("main".into())
        );
    }
}
