//! `[tools]` and `[tools.offload]`: limits of the built-in tools.

use std::time::Duration;

use super::settings::{Clamped, Plain, Secs, declare_settings, setting};

declare_settings! {
    /// Tool execution settings.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ToolSettings in config.tools {
        /// execute_command's wall-clock limit; the command's whole process group is killed after it.
        pub command_timeout: Duration = setting("tools.command_timeout_secs", Secs(60))
            .env(&["PAICLI_COMMAND_TIMEOUT_SECS"]),
        /// execute_command output kept in the conversation; the rest is saved under .paicli/tool-outputs/.
        pub command_inline_chars: usize = setting("tools.command_inline_chars", Plain(8000)),
        /// Largest file write_file / edit_file will produce (bytes).
        pub max_write_bytes: usize = setting("tools.max_write_bytes", Plain(5 * 1024 * 1024)),
        /// Time limit for one batch of parallel read-only calls (at least command_timeout_secs + 5).
        pub batch_timeout: Duration = setting("tools.batch_timeout_secs", Secs(90)),
        /// Read-only tool calls run at most this many at a time (1-16).
        pub max_parallel: usize = setting("tools.max_parallel", Clamped::new(4, 1, 16)),
        /// Save long tool results to .paicli/tool-outputs/.
        pub offload_enabled: bool = setting("tools.offload.enabled", Plain(true))
            .env(&["PAICLI_TOOL_OFFLOAD_ENABLED"]),
        /// Results longer than this many characters are saved (minimum 2000).
        pub offload_threshold_chars: usize = setting("tools.offload.threshold_chars", Plain(32_000))
            .env(&["PAICLI_TOOL_OFFLOAD_THRESHOLD_CHARS"]),
    }
}
