//! `browser_status`, `browser_connect` and `browser_disconnect`: the model's handles on the session's browser.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value};

use super::BROWSER_CONTROL;
use super::controller::{BrowserController, BrowserReport, DEFAULT_BROWSER_URL};
use crate::tools::fs::object_schema;
use crate::tools::{Tool, ToolContext, ToolOutcome, ToolTraits};

/// The three browser tools, sharing `browser`.
pub fn browser_tools(browser: &Arc<BrowserController>) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(BrowserStatus(Arc::clone(browser))),
        Arc::new(BrowserConnect(Arc::clone(browser))),
        Arc::new(BrowserDisconnect(Arc::clone(browser))),
    ]
}

fn report_outcome(report: &BrowserReport) -> ToolOutcome {
    ToolOutcome::ok(report.render())
}

/// `browser_status`.
pub struct BrowserStatus(Arc<BrowserController>);

#[async_trait]
impl Tool for BrowserStatus {
    fn name(&self) -> &str {
        "browser_status"
    }
    fn description(&self) -> &str {
        "Start the browser if needed and report its mode (isolated, or the user's Chrome), tabs and last error; \
         its page tools (mcp__chrome-devtools__*) appear once it runs. For pages that need JavaScript or a login."
    }
    fn parameters(&self) -> Value {
        object_schema(&[], &[])
    }
    fn traits(&self) -> ToolTraits {
        BROWSER_CONTROL
    }
    async fn execute(&self, _args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        report_outcome(&self.0.report(true, &ctx.cancel).await)
    }
}

/// `browser_connect`.
pub struct BrowserConnect(Arc<BrowserController>);

#[async_trait]
impl Tool for BrowserConnect {
    fn name(&self) -> &str {
        "browser_connect"
    }
    fn description(&self) -> &str {
        "Only when the user asks to use their browser: switch to their running Chrome (its logins apply) through \
         its debugging endpoint and list its tabs."
    }
    fn parameters(&self) -> Value {
        object_schema(
            &[("browser_url", "string", "Default http://127.0.0.1:9222.")],
            &[],
        )
    }
    fn traits(&self) -> ToolTraits {
        BROWSER_CONTROL
    }
    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        crate::tools::call_view::str_arg(args, "browser_url")
    }
    async fn execute(&self, args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        let url = args
            .get("browser_url")
            .and_then(Value::as_str)
            .filter(|u| !u.trim().is_empty())
            .unwrap_or(DEFAULT_BROWSER_URL);
        match self.0.connect(url.trim(), &ctx.cancel).await {
            Ok(_) => report_outcome(&self.0.report(false, &ctx.cancel).await),
            Err(e) => ToolOutcome::failed(e.to_string()),
        }
    }
}

/// `browser_disconnect`.
pub struct BrowserDisconnect(Arc<BrowserController>);

#[async_trait]
impl Tool for BrowserDisconnect {
    fn name(&self) -> &str {
        "browser_disconnect"
    }
    fn description(&self) -> &str {
        "Detach from the user's Chrome (it keeps running) and go back to the isolated browser."
    }
    fn parameters(&self) -> Value {
        object_schema(&[], &[])
    }
    fn traits(&self) -> ToolTraits {
        BROWSER_CONTROL
    }
    async fn execute(&self, _args: &Map<String, Value>, ctx: &ToolContext) -> ToolOutcome {
        match self.0.disconnect().await {
            Ok(()) => report_outcome(&self.0.report(false, &ctx.cancel).await),
            Err(e) => ToolOutcome::failed(e.to_string()),
        }
    }
}
