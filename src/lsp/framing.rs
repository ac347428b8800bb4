//! The LSP base protocol: `Content-Length: N\r\n\r\n` headers, then N bytes of JSON.

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// A body larger than this is a broken server, not a diagnostics list.
const MAX_BODY: usize = 64 * 1024 * 1024;
/// A header line longer than this is not a header.
const MAX_HEADER_LINE: usize = 4096;

/// Why a message could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FramingError {
    #[error("language server stream failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("bad language server header: {0}")]
    Header(String),
    #[error("language server sent invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Reads one message; `Ok(None)` at a clean end of stream between messages.
pub async fn read_message<R: AsyncBufRead + Unpin>(
    reader: &mut R,
) -> Result<Option<Value>, FramingError> {
    let mut length: Option<usize> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = (&mut *reader)
            .take(MAX_HEADER_LINE as u64)
            .read_until(b'\n', &mut line)
            .await?;
        if n == 0 {
            return if first {
                Ok(None)
            } else {
                Err(FramingError::Header(
                    "stream ended inside the headers".into(),
                ))
            };
        }
        first = false;
        if line.last() != Some(&b'\n') {
            return Err(FramingError::Header(
                "header line too long or cut off".into(),
            ));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        let Some((name, value)) = text.split_once(':') else {
            return Err(FramingError::Header(format!("not a header: {text:?}")));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let n = value
                .trim()
                .parse::<usize>()
                .map_err(|_| FramingError::Header(format!("bad Content-Length {value:?}")))?;
            length = Some(n);
        }
    }
    let length = length.ok_or_else(|| FramingError::Header("no Content-Length".into()))?;
    if length > MAX_BODY {
        return Err(FramingError::Header(format!(
            "Content-Length {length} is over the {MAX_BODY}-byte limit"
        )));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await?;
    Ok(Some(serde_json::from_slice(&body)?))
}

/// Writes one message and flushes it.
pub async fn write_message<W: AsyncWrite + Unpin>(
    writer: &mut W,
    message: &Value,
) -> std::io::Result<()> {
    let body = serde_json::to_vec(message)?;
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(&body);
    writer.write_all(&frame).await?;
    writer.flush().await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;
    use tokio::io::BufReader;

    /// Two messages (one with a Content-Type header and a multi-byte body) read back the same whatever the
    /// buffer size, so chunk boundaries inside headers or bodies do not matter.
    #[tokio::test]
    async fn messages_survive_any_chunking() {
        let a = json!({"jsonrpc": "2.0", "id": 1, "result": {"text": "größer ✓"}});
        let b = json!({"jsonrpc": "2.0", "method": "x"});
        let mut bytes = Vec::new();
        write_message(&mut bytes, &a).await.unwrap();
        let body = serde_json::to_vec(&b).unwrap();
        bytes.extend_from_slice(
            format!(
                "content-length: {}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
                body.len()
            )
            .as_bytes(),
        );
        bytes.extend_from_slice(&body);
        for capacity in [1, 2, 3, 5, 16, 17, 4096] {
            let mut reader = BufReader::with_capacity(capacity, &bytes[..]);
            assert_eq!(read_message(&mut reader).await.unwrap(), Some(a.clone()));
            assert_eq!(read_message(&mut reader).await.unwrap(), Some(b.clone()));
            assert_eq!(read_message(&mut reader).await.unwrap(), None);
        }
    }

    #[tokio::test]
    async fn broken_frames_are_errors_not_hangs() {
        for bad in [
            &b"Content-Length: 10\r\n\r\n{}"[..],
            b"Content-Length: x\r\n\r\n{}",
            b"Content-Type: a\r\n\r\n{}",
            b"Content-Length: 2\r\n",
            b"garbage\r\n\r\n",
            b"Content-Length: 3\r\n\r\n{]}",
        ] {
            let mut reader = BufReader::new(bad);
            assert!(read_message(&mut reader).await.is_err(), "{bad:?}");
        }
    }
}
