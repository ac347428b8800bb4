//! Combining the tool filters of a turn's scopes.

use crate::protocol::{ToolSpec, TurnScope};

/// Applies every scope's filter in order.
pub(crate) fn filter_tools(scopes: &[TurnScope], tools: &[ToolSpec]) -> Vec<ToolSpec> {
    let mut offered = tools.to_vec();
    for filter in scopes.iter().filter_map(|s| s.filter.as_ref()) {
        offered = filter.filter(&offered);
    }
    offered
}
