//! Splits a batch into steps: runs of consecutive parallel-safe calls, and side-effecting calls one at a time.

use std::ops::Range;

use crate::llm::ToolCall;

/// One step of a batch, as indexes into the call list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    /// Consecutive parallel-safe calls that may run side by side.
    Parallel(Range<usize>),
    /// A call with side effects (or an unknown tool), run alone.
    Serial(usize),
}

/// Plans `calls` in model order; `parallel_safe(i)` says whether call `i`'s tool may run beside others.
pub(super) fn plan(calls: &[ToolCall], parallel_safe: impl Fn(usize) -> bool) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut run_start: Option<usize> = None;
    for i in 0..calls.len() {
        if parallel_safe(i) {
            run_start.get_or_insert(i);
            continue;
        }
        if let Some(start) = run_start.take() {
            steps.push(Step::Parallel(start..i));
        }
        steps.push(Step::Serial(i));
    }
    if let Some(start) = run_start {
        steps.push(Step::Parallel(start..calls.len()));
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn calls(names: &[&str]) -> Vec<ToolCall> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| ToolCall {
                id: format!("call_{i}"),
                name: (*n).to_string(),
                arguments: "{}".into(),
            })
            .collect()
    }

    fn plan_names(names: &[&str]) -> Vec<Step> {
        let calls = calls(names);
        plan(&calls, |i| calls[i].name.starts_with('r'))
    }

    #[test]
    fn groups_consecutive_reads_and_isolates_writes() {
        assert_eq!(
            plan_names(&["r", "r", "w", "r"]),
            [Step::Parallel(0..2), Step::Serial(2), Step::Parallel(3..4)]
        );
        assert_eq!(
            plan_names(&["w", "w", "r", "r", "r"]),
            [Step::Serial(0), Step::Serial(1), Step::Parallel(2..5)]
        );
        assert_eq!(plan_names(&["r"; 6]), [Step::Parallel(0..6)]);
        assert_eq!(plan_names(&[]), []);
    }
}
