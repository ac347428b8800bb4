//! Audit lines for what MCP servers bring in outside tool calls: `@server:uri` mentions (`approver = "mention"`)
//! and elicitation answers (`approver = "hitl"` from the REPL's form, `"policy"` from `-p`'s defaults). The values
//! a person typed are not logged, only the field names.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use serde_json::json;

use crate::config::Config;
use crate::guard::redact::Redactor;
use crate::mcp::{ElicitAnswer, ElicitRequest, Elicitor, MentionRead};
use crate::policy::audit::{ApprovedBy, AuditLog, AuditOutcome, CallRecord};

/// The tool name of mention lines.
pub const MENTION_TOOL: &str = "mcp_mention";
/// The tool name of elicitation lines.
pub const ELICIT_TOOL: &str = "mcp_elicitation";

/// The session's audit log, for MCP events that are not tool calls.
#[derive(Clone)]
pub struct McpAudit {
    log: Arc<AuditLog>,
}

impl McpAudit {
    /// The audit log of `config` (`audit.dir`), masking its configured secrets.
    pub fn new(config: &Config) -> Self {
        let secrets = super::sessions::configured_secrets(config);
        McpAudit {
            log: Arc::new(AuditLog::new(
                super::audit_dir(config),
                Redactor::new(secrets),
            )),
        }
    }

    /// One line for a mention read into the user's message.
    pub fn mention(&self, read: &MentionRead) {
        let args = json!({"server": read.server, "uri": read.uri});
        let (outcome, reason) = match &read.error {
            None => (AuditOutcome::Allow, String::new()),
            Some(e) => (AuditOutcome::Error, e.clone()),
        };
        self.log.record(&self.log.entry(CallRecord {
            tool: MENTION_TOOL,
            args: &args,
            outcome,
            reason: &reason,
            approver: ApprovedBy::Mention,
            duration_ms: read.duration_ms,
            metadata: serde_json::Value::Null,
        }));
    }

    /// One line for an elicitation and how it was answered.
    fn elicitation(&self, request: &ElicitRequest, answer: &ElicitAnswer, by: ApprovedBy, ms: u64) {
        let fields: Vec<String> = match answer {
            ElicitAnswer::Accept(values) => values.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let args = json!({"server": request.server, "message": request.message});
        let outcome = match answer {
            ElicitAnswer::Accept(_) => AuditOutcome::Allow,
            ElicitAnswer::Decline | ElicitAnswer::Cancel => AuditOutcome::Deny,
        };
        self.log.record(&self.log.entry(CallRecord {
            tool: ELICIT_TOOL,
            args: &args,
            outcome,
            reason: answer.action(),
            approver: by,
            duration_ms: ms,
            metadata: json!({"fields": fields}),
        }));
    }

    /// `inner` with every answer audited as given by `by`.
    pub fn elicitor(&self, inner: Arc<dyn Elicitor>, by: ApprovedBy) -> Arc<dyn Elicitor> {
        Arc::new(AuditedElicitor {
            inner,
            audit: self.clone(),
            by,
        })
    }
}

struct AuditedElicitor {
    inner: Arc<dyn Elicitor>,
    audit: McpAudit,
    by: ApprovedBy,
}

#[async_trait]
impl Elicitor for AuditedElicitor {
    async fn elicit(&self, request: &ElicitRequest) -> ElicitAnswer {
        let started = Instant::now();
        let answer = self.inner.elicit(request).await;
        let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.audit.elicitation(request, &answer, self.by, ms);
        answer
    }
}
