//! The iLink HTTP client: every request with the protocol's headers, every authenticated request with
//! `base_info`, and every answer's body checked for `ret`/`errcode` before it is read (the server answers
//! HTTP 200 with its errors in the body).

use std::time::Duration;

use serde_json::{Value, json};

use super::CHANNEL;
use crate::channels::transport::ChannelError;
use crate::llm::client::tls;

/// The documented API host; the QR login starts here unless the user's settings name another.
pub const DEFAULT_BASE_URL: &str = "https://ilinkai.weixin.qq.com";

/// `iLink-App-Id`, as the protocol document gives it.
const APP_ID: &str = "bot";
/// The server's "session expired" answer: the account must log in again.
pub const SESSION_EXPIRED: i64 = -14;
/// The server's answer when a reply's context token is stale or its reply quota is used up.
pub const REPLY_REFUSED: i64 = -2;
/// The server's generic "system error, try again".
pub const SYSTEM_BUSY: i64 = -1;

/// Timeout of ordinary requests (sendmessage, the QR code).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);
/// Timeout of light requests (getconfig, sendtyping, notify).
pub const LIGHT_TIMEOUT: Duration = Duration::from_secs(10);

/// A client for one API host, authenticated once a bot token is known.
#[derive(Clone)]
pub struct IlinkClient {
    http: reqwest::Client,
    base_url: String,
    token: Option<String>,
}

impl IlinkClient {
    pub fn new(base_url: &str, token: Option<String>) -> Result<IlinkClient, ChannelError> {
        let http = tls::client_builder(false)
            .build()
            .map_err(|e| http_error("client", &e))?;
        Ok(IlinkClient {
            http,
            base_url: base_url.trim_end_matches('/').to_string(),
            token,
        })
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The same client at another host (a login redirected to another data centre).
    pub fn at(&self, base_url: &str) -> IlinkClient {
        IlinkClient {
            base_url: base_url.trim_end_matches('/').to_string(),
            ..self.clone()
        }
    }

    /// POSTs `body` to `endpoint` (with `base_info` when authenticated) and returns the checked answer.
    /// `timeout: None` leaves the timing to the caller (the long poll).
    pub async fn post(
        &self,
        endpoint: &str,
        mut body: Value,
        timeout: Option<Duration>,
    ) -> Result<Value, ChannelError> {
        if self.token.is_some()
            && let Some(fields) = body.as_object_mut()
        {
            fields.insert("base_info".into(), base_info());
        }
        let mut request = self
            .http
            .post(format!("{}/{endpoint}", self.base_url))
            .header("Content-Type", "application/json")
            .header("AuthorizationType", "ilink_bot_token")
            .header("X-WECHAT-UIN", random_uin())
            .header("iLink-App-Id", APP_ID)
            .header("iLink-App-ClientVersion", client_version())
            .body(body.to_string());
        if let Some(token) = &self.token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        if let Some(timeout) = timeout {
            request = request.timeout(timeout);
        }
        let response = request.send().await.map_err(|e| http_error(endpoint, &e))?;
        checked_body(endpoint, response).await
    }

    /// GETs `endpoint` with `query` and the application headers only (the QR status: no token, no body).
    pub async fn get(
        &self,
        endpoint: &str,
        query: &[(&str, &str)],
        timeout: Duration,
    ) -> Result<Value, ChannelError> {
        let mut url = url::Url::parse(&format!("{}/{endpoint}", self.base_url)).map_err(|e| {
            ChannelError::Http {
                channel: CHANNEL,
                method: endpoint.to_string(),
                detail: format!("bad base URL: {e}"),
            }
        })?;
        url.query_pairs_mut().extend_pairs(query);
        let response = self
            .http
            .get(url)
            .header("iLink-App-Id", APP_ID)
            .header("iLink-App-ClientVersion", client_version())
            .timeout(timeout)
            .send()
            .await
            .map_err(|e| http_error(endpoint, &e))?;
        checked_body(endpoint, response).await
    }
}

/// The body of a 2xx answer, as JSON, with a non-zero `ret` or `errcode` turned into its typed error.
async fn checked_body(endpoint: &str, response: reqwest::Response) -> Result<Value, ChannelError> {
    let status = response.status();
    let text = response
        .text()
        .await
        .map_err(|e| http_error(endpoint, &e))?;
    if !status.is_success() {
        return Err(ChannelError::Http {
            channel: CHANNEL,
            method: endpoint.to_string(),
            detail: format!("HTTP {status}: {}", clip(&text)),
        });
    }
    let body: Value = serde_json::from_str(&text).map_err(|e| ChannelError::Http {
        channel: CHANNEL,
        method: endpoint.to_string(),
        detail: format!("the answer is not JSON ({e}): {}", clip(&text)),
    })?;
    check_body(endpoint, body)
}

/// A non-zero `ret` or `errcode` is an error; `-14` in either pauses the account.
pub fn check_body(endpoint: &str, body: Value) -> Result<Value, ChannelError> {
    let codes: Vec<i64> = ["ret", "errcode"]
        .iter()
        .filter_map(|k| body.get(*k).and_then(Value::as_i64))
        .filter(|c| *c != 0)
        .collect();
    // Either field may carry the expiry (`ret: -1, errcode: -14`); it decides over a generic code.
    let Some(code) = codes
        .iter()
        .copied()
        .find(|c| *c == SESSION_EXPIRED)
        .or_else(|| codes.first().copied())
    else {
        return Ok(body);
    };
    let message = body
        .get("errmsg")
        .and_then(Value::as_str)
        .filter(|m| !m.is_empty())
        .unwrap_or("(no errmsg)")
        .to_string();
    if code == SESSION_EXPIRED {
        return Err(ChannelError::Paused {
            channel: CHANNEL,
            detail: format!("{endpoint} answered {code}: {message}"),
        });
    }
    Err(ChannelError::Api {
        channel: CHANNEL,
        method: endpoint.to_string(),
        code,
        message,
    })
}

/// Whether repeating the same request once may succeed: the request did not complete, or the server was busy.
pub fn worth_retrying(error: &ChannelError) -> bool {
    match error {
        ChannelError::Http { .. } => true,
        ChannelError::Api { code, .. } => *code == SYSTEM_BUSY,
        _ => false,
    }
}

/// `base_info`: the client's version and a user-agent-like identity (observability only).
pub fn base_info() -> Value {
    let version = env!("CARGO_PKG_VERSION");
    json!({ "channel_version": version, "bot_agent": format!("paicli/{version}") })
}

/// `iLink-App-ClientVersion`: the version as `0x00MMNNPP`, sent in decimal.
pub fn client_version() -> String {
    encode_version(env!("CARGO_PKG_VERSION")).to_string()
}

fn encode_version(version: &str) -> u32 {
    let mut parts = version
        .split(['.', '-', '+'])
        .map(|p| p.parse::<u32>().unwrap_or(0) & 0xff);
    let (major, minor, patch) = (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    );
    (major << 16) | (minor << 8) | patch
}

/// `X-WECHAT-UIN`: a random uint32 written in decimal, then base64.
fn random_uin() -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(fastrand::u32(..).to_string())
}

fn http_error(endpoint: &str, error: &reqwest::Error) -> ChannelError {
    // The URL can hold the QR value; it never goes into an error.
    let detail = if error.is_timeout() {
        "timed out".to_string()
    } else {
        let mut text = error.to_string();
        if let Some(url) = error.url() {
            text = text.replace(url.as_str(), "<url>");
        }
        text
    };
    ChannelError::Http {
        channel: CHANNEL,
        method: endpoint.to_string(),
        detail,
    }
}

/// A bounded excerpt of a body for an error message.
fn clip(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_version_is_encoded_as_the_protocol_says() {
        assert_eq!(encode_version("1.0.11"), 0x0001_000B);
        assert_eq!(encode_version("0.1.0"), 256);
        assert_eq!(encode_version("2.4.8-beta"), (2 << 16) | (4 << 8) | 8);
    }

    #[test]
    fn the_uin_is_base64_of_a_decimal_number() {
        use base64::Engine as _;
        let raw = base64::engine::general_purpose::STANDARD
            .decode(random_uin())
            .unwrap();
        let text = String::from_utf8(raw).unwrap();
        assert!(text.parse::<u32>().is_ok(), "{text}");
    }

    #[test]
    fn errors_in_a_200_body_are_typed() {
        assert!(check_body("x", json!({"ret": 0, "msgs": []})).is_ok());
        assert!(matches!(
            check_body("x", json!({"ret": -14, "errmsg": "session timeout"})),
            Err(ChannelError::Paused { .. })
        ));
        assert!(matches!(
            check_body("x", json!({"errcode": -14})),
            Err(ChannelError::Paused { .. })
        ));
        assert!(matches!(
            check_body("x", json!({"ret": -1, "errcode": -14})),
            Err(ChannelError::Paused { .. })
        ));
        match check_body("x", json!({"ret": 0, "errcode": 40013, "errmsg": "bad"})) {
            Err(ChannelError::Api { code, message, .. }) => {
                assert_eq!((code, message.as_str()), (40013, "bad"));
            }
            other => panic!("{other:?}"),
        }
    }
}
