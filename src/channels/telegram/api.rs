//! The Bot API's calls: `POST <base_url>/bot<token>/<method>` with a JSON body, answered by
//! `{"ok": true, "result": …}` or `{"ok": false, "error_code": …, "description": …}` (also with a non-2xx status).
//! The token is part of the path, so no URL of a request is ever logged or put in an error.

use std::time::Duration;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::channels::transport::ChannelError;

const CHANNEL: &str = "telegram";
/// The longest `retry_after` honoured before one retry of a rate-limited call.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

/// Every answer's envelope.
#[derive(Deserialize)]
struct Envelope {
    ok: bool,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error_code: Option<i64>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    parameters: Option<ResponseParameters>,
}

#[derive(Deserialize)]
struct ResponseParameters {
    #[serde(default)]
    retry_after: Option<u64>,
}

/// A bot's endpoint.
pub struct BotApi {
    client: reqwest::Client,
    /// `<base_url>/bot<token>/`.
    prefix: String,
}

impl BotApi {
    /// The API at `base_url` (without `/bot`) for the bot whose token is `token`.
    pub fn new(base_url: &str, token: &str) -> Result<BotApi, ChannelError> {
        let client = crate::llm::client::tls::client_builder(false)
            .connect_timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| http_error("client", e))?;
        Ok(BotApi {
            client,
            prefix: format!("{}/bot{token}/", base_url.trim_end_matches('/')),
        })
    }

    /// Calls `method` with `body`, waiting at most `timeout`; a 429 with `retry_after` is retried once.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        body: &Value,
        timeout: Duration,
    ) -> Result<T, ChannelError> {
        match self.call_once(method, body, timeout).await {
            Err(Retry::After(wait)) => {
                tokio::time::sleep(wait).await;
                self.call_once(method, body, timeout)
                    .await
                    .map_err(Retry::into_error)
            }
            other => other.map_err(Retry::into_error),
        }
    }

    async fn call_once<T: DeserializeOwned>(
        &self,
        method: &str,
        body: &Value,
        timeout: Duration,
    ) -> Result<T, Retry> {
        let response = self
            .client
            .post(format!("{}{method}", self.prefix))
            .json(body)
            .timeout(timeout)
            .send()
            .await
            .map_err(|e| Retry::No(http_error(method, e)))?;
        let status = response.status();
        let bytes = response
            .bytes()
            .await
            .map_err(|e| Retry::No(http_error(method, e)))?;
        let envelope: Envelope = serde_json::from_slice(&bytes).map_err(|e| {
            Retry::No(ChannelError::Http {
                channel: CHANNEL,
                method: method.to_string(),
                detail: format!("HTTP {status}, not a Bot API answer: {e}"),
            })
        })?;
        if !envelope.ok {
            let code = envelope.error_code.unwrap_or(i64::from(status.as_u16()));
            let retry_after = envelope.parameters.and_then(|p| p.retry_after);
            let error = ChannelError::Api {
                channel: CHANNEL,
                method: method.to_string(),
                code,
                message: envelope.description.unwrap_or_default(),
            };
            return Err(match retry_after {
                Some(secs) if code == 429 && Duration::from_secs(secs) <= MAX_RETRY_AFTER => {
                    Retry::After(Duration::from_secs(secs))
                }
                _ => Retry::No(error),
            });
        }
        let result = envelope.result.unwrap_or(Value::Null);
        serde_json::from_value(result).map_err(|e| {
            Retry::No(ChannelError::Http {
                channel: CHANNEL,
                method: method.to_string(),
                detail: format!("unexpected result: {e}"),
            })
        })
    }
}

enum Retry {
    After(Duration),
    No(ChannelError),
}

impl Retry {
    fn into_error(self) -> ChannelError {
        match self {
            Retry::No(e) => e,
            Retry::After(wait) => ChannelError::Api {
                channel: CHANNEL,
                method: "retry".to_string(),
                code: 429,
                message: format!("rate limited; retry after {} s", wait.as_secs()),
            },
        }
    }
}

/// A request that did not complete, worded without its URL (which holds the token).
fn http_error(method: &str, error: reqwest::Error) -> ChannelError {
    let error = error.without_url();
    let detail = if error.is_timeout() {
        "timed out".to_string()
    } else {
        let mut text = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(inner) = source {
            text.push_str(&format!(": {inner}"));
            source = inner.source();
        }
        text
    };
    ChannelError::Http {
        channel: CHANNEL,
        method: method.to_string(),
        detail,
    }
}
