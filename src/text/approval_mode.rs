//! The approval modes' own texts: the label an editor's mode picker shows, and what each mode does. The mode's
//! name (`ask`, `auto`, …) is `ApprovalMode::name`, as `/mode`, `--approval` and the config spell it.

use super::Msg;
use crate::config::ApprovalMode;

/// What `mode` does, for `/mode` and an editor's mode picker.
pub fn mode_help(mode: ApprovalMode) -> Msg {
    match mode {
        ApprovalMode::Ask => Msg::ModeAsk,
        ApprovalMode::Auto => Msg::ModeAuto,
        ApprovalMode::Plan => Msg::ModePlan,
        ApprovalMode::Full => Msg::ModeFull,
    }
}

/// The mode's label in an editor's mode picker ("Ask", "询问").
pub fn mode_label(mode: ApprovalMode) -> Msg {
    match mode {
        ApprovalMode::Ask => Msg::ModeLabelAsk,
        ApprovalMode::Auto => Msg::ModeLabelAuto,
        ApprovalMode::Plan => Msg::ModeLabelPlan,
        ApprovalMode::Full => Msg::ModeLabelFull,
    }
}
