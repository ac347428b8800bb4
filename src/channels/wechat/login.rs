//! `paicli channel wechat setup`: the QR login. A QR code from `get_bot_qrcode` is drawn in the terminal (its
//! link printed as a fallback), `get_qrcode_status` is polled through every state the protocol documents, and
//! the confirmed login is saved 0600 to `account.json`. Needs no terminal input unless WeChat asks for a
//! verification code, so it runs with stdin closed.

use std::io::{BufRead, Write};
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::CHANNEL;
use super::account::Account;
use super::client::{IlinkClient, REQUEST_TIMEOUT};
use super::qr;
use crate::channels::transport::ChannelError;
use crate::text::{Lang, Msg, tr, trf};

/// QR codes shown before giving up (the first and two refreshes after expiry).
const MAX_QR_CODES: usize = 3;
/// The whole login's limit.
const LOGIN_DEADLINE: Duration = Duration::from_secs(8 * 60);
/// The server holds a status poll up to ~35 s; a little more before the client gives up on one.
const STATUS_POLL_TIMEOUT: Duration = Duration::from_secs(40);
/// Pause before asking again when the status did not change (a server that answers at once is not hammered).
const UNCHANGED_PAUSE: Duration = Duration::from_secs(1);
/// Status polls in a row that may fail to complete (gateway timeouts) before the login gives up.
const MAX_FAILED_POLLS: usize = 5;

/// Where a verification code comes from when WeChat asks for one.
pub trait VerifyCodeSource: Send {
    /// The code the person typed, `None` when no one can type (stdin closed).
    fn verify_code(&mut self) -> Option<String>;
}

/// Reads the code from a line of stdin.
pub struct StdinCodes;

impl VerifyCodeSource for StdinCodes {
    fn verify_code(&mut self) -> Option<String> {
        let mut line = String::new();
        match std::io::stdin().lock().read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim().to_string()).filter(|c| !c.is_empty()),
        }
    }
}

/// Logs in by QR code at `base_url` and saves the account under `home`; ends when the login is confirmed,
/// fails, or `cancel` fires. Progress and the QR code go to `out`.
pub async fn setup(
    home: &Path,
    base_url: &str,
    lang: Lang,
    out: &mut (dyn Write + Send),
    codes: &mut dyn VerifyCodeSource,
    cancel: &CancellationToken,
) -> Result<Account, ChannelError> {
    let previous = Account::load(home).ok().flatten();
    let client = IlinkClient::new(base_url, None)?;
    let login = Login {
        client,
        lang,
        previous,
        cancel,
    };
    tokio::select! {
        biased;
        () = cancel.cancelled() => Err(failed("the login was cancelled")),
        r = tokio::time::timeout(LOGIN_DEADLINE, login.run(out, codes)) => match r {
            Ok(result) => {
                let account = result?;
                account.save(home)?;
                Ok(account)
            }
            Err(_) => Err(failed("no login was confirmed within 8 minutes")),
        },
    }
}

struct Login<'a> {
    client: IlinkClient,
    lang: Lang,
    previous: Option<Account>,
    cancel: &'a CancellationToken,
}

/// What one QR code's polling ended in.
enum QrEnd {
    Done(Account),
    /// Expired or blocked: show a new one.
    Refresh,
}

impl Login<'_> {
    async fn run(
        &self,
        out: &mut (dyn Write + Send),
        codes: &mut dyn VerifyCodeSource,
    ) -> Result<Account, ChannelError> {
        for shown in 1..=MAX_QR_CODES {
            if shown > 1 {
                say(
                    out,
                    &trf(
                        self.lang,
                        Msg::WechatQrRefreshed,
                        &[("count", &shown), ("max", &MAX_QR_CODES)],
                    ),
                );
            }
            let qrcode = self.show_qr_code(out).await?;
            if let QrEnd::Done(account) = self.poll_status(&qrcode, out, codes).await? {
                say(
                    out,
                    &trf(self.lang, Msg::WechatLinked, &[("user", &account.user_id)]),
                );
                return Ok(account);
            }
        }
        Err(failed(&format!(
            "the QR code expired {MAX_QR_CODES} times without a confirmed scan; run setup again"
        )))
    }

    /// Fetches a QR code, draws it and prints its link; returns the value to poll with.
    async fn show_qr_code(&self, out: &mut (dyn Write + Send)) -> Result<String, ChannelError> {
        let tokens: Vec<&str> = self.previous.iter().map(|a| a.bot_token.as_str()).collect();
        let body = self
            .client
            .post(
                "ilink/bot/get_bot_qrcode?bot_type=3",
                json!({ "local_token_list": tokens }),
                Some(REQUEST_TIMEOUT),
            )
            .await?;
        let qrcode =
            text_field(&body, "qrcode").ok_or_else(|| malformed("get_bot_qrcode", "no qrcode"))?;
        let link = text_field(&body, "qrcode_img_content")
            .ok_or_else(|| malformed("get_bot_qrcode", "no qrcode_img_content"))?;
        say(out, tr(self.lang, Msg::WechatScanQr));
        if let Some(art) = qr::draw(&link) {
            say(out, &art);
        }
        say(out, &trf(self.lang, Msg::WechatQrLink, &[("url", &link)]));
        Ok(qrcode)
    }

    async fn poll_status(
        &self,
        qrcode: &str,
        out: &mut (dyn Write + Send),
        codes: &mut dyn VerifyCodeSource,
    ) -> Result<QrEnd, ChannelError> {
        let mut client = self.client.clone();
        let mut last_status = String::new();
        let mut verify_code: Option<String> = None;
        let mut failed_polls = 0;
        loop {
            let mut query = vec![("qrcode", qrcode)];
            if let Some(code) = &verify_code {
                query.push(("verify_code", code.as_str()));
            }
            let body = match client
                .get("ilink/bot/get_qrcode_status", &query, STATUS_POLL_TIMEOUT)
                .await
            {
                Ok(body) => {
                    failed_polls = 0;
                    body
                }
                // A gateway timeout or dropped connection mid-poll is the server still waiting.
                Err(ChannelError::Http { .. }) if failed_polls + 1 < MAX_FAILED_POLLS => {
                    failed_polls += 1;
                    self.pause().await;
                    continue;
                }
                Err(e) => return Err(e),
            };
            let status = text_field(&body, "status").unwrap_or_default();
            let unchanged = status == last_status;
            match status.as_str() {
                "confirmed" => return self.confirmed(&body).map(QrEnd::Done),
                "scaned" if !unchanged => say(out, tr(self.lang, Msg::WechatScanned)),
                "expired" => return Ok(QrEnd::Refresh),
                "verify_code_blocked" => {
                    say(out, tr(self.lang, Msg::WechatVerifyBlocked));
                    return Ok(QrEnd::Refresh);
                }
                "need_verifycode" => {
                    if verify_code.is_some() {
                        say(out, tr(self.lang, Msg::WechatVerifyRejected));
                    }
                    say(out, tr(self.lang, Msg::WechatVerifyCode));
                    verify_code = Some(codes.verify_code().ok_or_else(|| {
                        failed("WeChat asks for the verification code shown on the phone, and no one can type it \
                                here (stdin is closed); run setup in a terminal")
                    })?);
                }
                "scaned_but_redirect" => {
                    if let Some(host) = text_field(&body, "redirect_host") {
                        client = client.at(&redirected(client.base_url(), &host));
                    }
                }
                "binded_redirect" => {
                    return match &self.previous {
                        Some(account) => {
                            say(out, tr(self.lang, Msg::WechatAlreadyBound));
                            Ok(QrEnd::Done(account.clone()))
                        }
                        None => Err(failed(
                            "this WeChat bot is already bound to another client; unbind it in WeChat and run setup again",
                        )),
                    };
                }
                // `wait`, an unchanged `scaned`, or a state newer than this client: keep polling.
                _ => {
                    if unchanged {
                        self.pause().await;
                    }
                }
            }
            last_status = status;
        }
    }

    async fn pause(&self) {
        tokio::select! {
            () = self.cancel.cancelled() => {}
            () = tokio::time::sleep(UNCHANGED_PAUSE) => {}
        }
    }

    fn confirmed(&self, body: &Value) -> Result<Account, ChannelError> {
        let field = |key: &str| {
            text_field(body, key)
                .ok_or_else(|| malformed("get_qrcode_status", &format!("confirmed without {key}")))
        };
        Ok(Account {
            bot_token: field("bot_token")?,
            bot_id: field("ilink_bot_id")?,
            user_id: field("ilink_user_id")?,
            base_url: text_field(body, "baseurl"),
            saved_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        })
    }
}

/// The polling host after a redirect: `redirect_host` under the scheme in use (https in production; a local
/// stand-in keeps http).
fn redirected(current: &str, host: &str) -> String {
    if host.contains("://") {
        return host.to_string();
    }
    let scheme = current
        .split("://")
        .next()
        .filter(|s| *s != current)
        .unwrap_or("https");
    format!("{scheme}://{}", host.trim_end_matches('/'))
}

fn text_field(body: &Value, key: &str) -> Option<String> {
    body.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Writes a line of progress; a closed output must not abort a login the person is completing on the phone.
fn say(out: &mut (dyn Write + Send), line: &str) {
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn failed(detail: &str) -> ChannelError {
    ChannelError::NotSetUp {
        channel: CHANNEL,
        detail: detail.to_string(),
    }
}

fn malformed(method: &str, detail: &str) -> ChannelError {
    ChannelError::Http {
        channel: CHANNEL,
        method: method.to_string(),
        detail: format!("unexpected answer: {detail}"),
    }
}

#[cfg(test)]
mod tests {
    use super::redirected;

    #[test]
    fn a_redirect_keeps_the_scheme_in_use() {
        assert_eq!(
            redirected("https://ilinkai.weixin.qq.com", "sh.weixin.qq.com"),
            "https://sh.weixin.qq.com"
        );
        assert_eq!(
            redirected("http://127.0.0.1:5000", "127.0.0.1:6000"),
            "http://127.0.0.1:6000"
        );
        assert_eq!(redirected("http://a", "https://b"), "https://b");
    }
}
