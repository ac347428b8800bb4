//! Diagnostics injection: what the last edits broke, shown to the model before its next request.

use tokio_util::sync::CancellationToken;

use crate::agent::Agent;
use crate::protocol::{AgentEvent, DiagnosticsFile, EventSink};

impl Agent {
    /// Shows the model what its last edits broke: queued texts plus a check of the files changed since the
    /// last request (bounded by the source's own wait, so a slow language server cannot stall the turn).
    pub(in crate::agent) async fn inject_pending_diagnostics(
        &mut self,
        events: &dyn EventSink,
        cancel: &CancellationToken,
    ) {
        let files = std::mem::take(&mut self.unchecked_files);
        if let Some(source) = self.diagnostics.clone()
            && !files.is_empty()
            && let Some(report) = source.check(&files, cancel).await
        {
            events.emit(AgentEvent::DiagnosticsInjected {
                files: report
                    .files
                    .iter()
                    .map(|(path, problems)| DiagnosticsFile {
                        path: path.display().to_string(),
                        problems: *problems,
                    })
                    .collect(),
                text: report.text.clone(),
            });
            self.pending_diagnostics.push(report.text);
        }
        if self.pending_diagnostics.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.pending_diagnostics).join("\n\n");
        self.conversation.push_user(text);
    }
}
