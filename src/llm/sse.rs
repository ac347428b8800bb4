//! WHATWG event-stream framing: bytes in, events out.
//!
//! Follows <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>
//! with one deliberate deviation: at end of input, [`SseDecoder::finish`] still dispatches a pending
//! event whose data is non-empty (the spec discards it). Several providers close the connection right
//! after `data: [DONE]\n` without the final blank line, and dropping that event would turn a complete
//! reply into an "interrupted" one.

/// Longest line (and longest event data) kept in memory; anything longer is dropped with a warning
/// instead of growing without bound.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One dispatched server-sent event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if any.
    pub event: Option<String>,
    /// The joined `data:` lines.
    pub data: String,
}

/// Incremental SSE decoder; feed it bytes in any split.
#[derive(Debug)]
pub struct SseDecoder {
    /// Bytes of the current, not yet terminated line.
    line: Vec<u8>,
    /// The current line passed `max_line_bytes`; its bytes are skipped up to the next line end.
    discarding: bool,
    /// The previous byte was a CR, so an immediately following LF belongs to the same line end.
    after_cr: bool,
    /// Still at the start of the stream, where a UTF-8 BOM may sit (possibly split across feeds).
    at_start: bool,
    /// The `event:` field of the event being built.
    event_type: Option<String>,
    /// The data buffer of the event being built; each `data:` line adds its value plus `\n`.
    data: String,
    /// Whether any `data:` line arrived for the event being built.
    has_data: bool,
    /// The event being built outgrew the limit; its remaining lines are ignored until the blank line.
    dropping_event: bool,
    max_line_bytes: usize,
}

impl Default for SseDecoder {
    fn default() -> Self {
        Self::with_max_line_bytes(DEFAULT_MAX_LINE_BYTES)
    }
}

impl SseDecoder {
    /// A decoder with the default line-length cap.
    pub fn new() -> Self {
        Self::default()
    }

    /// A decoder that drops (with a warning) any line or event data longer than `max_line_bytes`.
    pub fn with_max_line_bytes(max_line_bytes: usize) -> Self {
        SseDecoder {
            line: Vec::new(),
            discarding: false,
            after_cr: false,
            at_start: true,
            event_type: None,
            data: String::new(),
            has_data: false,
            dropping_event: false,
            max_line_bytes,
        }
    }

    /// Feeds bytes; returns the events completed by them.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        let mut rest = bytes;
        if self.at_start {
            rest = self.skip_bom(rest);
            if self.at_start {
                // Everything seen so far is a BOM prefix; wait for more bytes.
                return events;
            }
        }
        while !rest.is_empty() {
            if self.after_cr {
                self.after_cr = false;
                if rest[0] == b'\n' {
                    rest = &rest[1..];
                    continue;
                }
            }
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    self.append_to_line(&rest[..end]);
                    self.after_cr = rest[end] == b'\r';
                    rest = &rest[end + 1..];
                    self.end_line(&mut events);
                }
                None => {
                    self.append_to_line(rest);
                    rest = &[];
                }
            }
        }
        events
    }

    /// End of input: returns a final event if the stream ended without a blank line after it.
    ///
    /// An unterminated last line is interpreted as if a line end followed it. The decoder is reset,
    /// so it can be reused for a new stream.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if !self.line.is_empty() || self.discarding {
            self.end_line(&mut events);
        }
        if self.has_data && self.data.len() > 1 {
            self.dispatch(&mut events);
        }
        *self = Self::with_max_line_bytes(self.max_line_bytes);
        events
    }

    /// Consumes a leading BOM (or the part of it seen so far); clears `at_start` once decided.
    fn skip_bom<'a>(&mut self, bytes: &'a [u8]) -> &'a [u8] {
        // `line` doubles as the buffer for a BOM split across feeds.
        let seen = self.line.len();
        let wanted = BOM.len() - seen;
        let take = wanted.min(bytes.len());
        if bytes[..take] == BOM[seen..seen + take] {
            if take == wanted {
                self.line.clear();
                self.at_start = false;
            } else {
                self.line.extend_from_slice(&bytes[..take]);
            }
            return &bytes[take..];
        }
        // Not a BOM after all: the held-back bytes are ordinary line content.
        self.at_start = false;
        bytes
    }

    fn append_to_line(&mut self, bytes: &[u8]) {
        if self.discarding {
            return;
        }
        if self.line.len() + bytes.len() > self.max_line_bytes {
            tracing::warn!(
                limit = self.max_line_bytes,
                "SSE line longer than the limit; dropping it"
            );
            self.line.clear();
            self.discarding = true;
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    /// Interprets the completed line and resets the line buffer.
    fn end_line(&mut self, events: &mut Vec<SseEvent>) {
        if self.discarding {
            self.discarding = false;
            self.line.clear();
            return;
        }
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            self.dispatch(events);
        } else {
            self.process_field(&line);
        }
        // Give the allocation back for reuse unless one huge line inflated it.
        let mut line = line;
        if line.capacity() <= 64 * 1024 {
            line.clear();
            self.line = line;
        }
    }

    fn process_field(&mut self, line: &[u8]) {
        if line[0] == b':' {
            return; // comment, e.g. `: keep-alive`
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match name {
            b"data" => {
                if self.dropping_event {
                    return;
                }
                if self.data.len() + value.len() >= self.max_line_bytes {
                    tracing::warn!(
                        limit = self.max_line_bytes,
                        "SSE event data longer than the limit; dropping the event"
                    );
                    self.data.clear();
                    self.has_data = false;
                    self.dropping_event = true;
                    return;
                }
                self.data.push_str(&String::from_utf8_lossy(value));
                self.data.push('\n');
                self.has_data = true;
            }
            b"event" => self.event_type = Some(String::from_utf8_lossy(value).into_owned()),
            // `id` and `retry` matter only for reconnecting EventSource clients; unknown fields are ignored.
            _ => {}
        }
    }

    /// Blank line: emits the event being built if it has data, then starts a new one.
    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        let event = self.event_type.take();
        self.dropping_event = false;
        if !self.has_data {
            return;
        }
        self.has_data = false;
        let mut data = std::mem::take(&mut self.data);
        data.pop(); // the `\n` added after the last data line
        events.push(SseEvent { event, data });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn data(text: &str) -> SseEvent {
        SseEvent {
            event: None,
            data: text.to_owned(),
        }
    }

    fn decode_all(bytes: &[u8]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut events = decoder.feed(bytes);
        events.extend(decoder.finish());
        events
    }

    fn decode_bytewise(bytes: &[u8]) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut events = Vec::new();
        for b in bytes {
            events.extend(decoder.feed(std::slice::from_ref(b)));
        }
        events.extend(decoder.finish());
        events
    }

    #[test]
    fn dispatches_on_blank_line() {
        let mut decoder = SseDecoder::new();
        assert_eq!(decoder.feed(b"data: one\n"), vec![]);
        assert_eq!(decoder.feed(b"\n"), vec![data("one")]);
        assert_eq!(decoder.finish(), vec![]);
    }

    #[test]
    fn accepts_lf_crlf_and_cr_line_ends() {
        let expected = vec![data("a"), data("b")];
        assert_eq!(decode_all(b"data: a\n\ndata: b\n\n"), expected);
        assert_eq!(decode_all(b"data: a\r\n\r\ndata: b\r\n\r\n"), expected);
        assert_eq!(decode_all(b"data: a\r\rdata: b\r\r"), expected);
        assert_eq!(decode_bytewise(b"data: a\r\n\r\ndata: b\r\r"), expected);
    }

    #[test]
    fn crlf_split_between_feeds_is_one_line_end() {
        let mut decoder = SseDecoder::new();
        assert_eq!(decoder.feed(b"data: a\r"), vec![]);
        // The LF completes the CRLF; only the next CR is the blank line.
        assert_eq!(decoder.feed(b"\n"), vec![]);
        assert_eq!(decoder.feed(b"\r"), vec![data("a")]);
    }

    #[test]
    fn skips_leading_bom_even_when_split() {
        assert_eq!(decode_all(b"\xEF\xBB\xBFdata: x\n\n"), vec![data("x")]);
        assert_eq!(decode_bytewise(b"\xEF\xBB\xBFdata: x\n\n"), vec![data("x")]);
        // Only at the very start: a later BOM is content.
        assert_eq!(
            decode_all(b"data: x\n\ndata: \xEF\xBB\xBFy\n\n"),
            vec![data("x"), data("\u{feff}y")]
        );
    }

    #[test]
    fn partial_bom_prefix_is_ordinary_content() {
        assert_eq!(
            decode_bytewise(b"\xEFdata: x\n\ndata: y\n\n"),
            vec![data("y")]
        );
    }

    #[test]
    fn comments_are_ignored() {
        assert_eq!(
            decode_all(b": keep-alive\n\n:\ndata: x\n: mid-event comment\n\n"),
            vec![data("x")]
        );
    }

    #[test]
    fn space_after_colon_is_optional_and_only_one_is_stripped() {
        assert_eq!(
            decode_all(b"data:x\n\ndata: x\n\ndata:  x\n\n"),
            vec![data("x"), data("x"), data(" x")]
        );
    }

    #[test]
    fn multi_line_data_is_joined_with_newline() {
        assert_eq!(
            decode_all(b"data: {\"a\":\ndata: 1}\n\n"),
            vec![data("{\"a\":\n1}")]
        );
    }

    #[test]
    fn line_without_colon_is_a_field_with_empty_value() {
        // `data` alone adds an empty line to the data buffer; other bare names are ignored.
        assert_eq!(decode_all(b"data\ndata\n\n"), vec![data("\n")]);
        assert_eq!(decode_all(b"foo\n\ndata: x\n\n"), vec![data("x")]);
    }

    #[test]
    fn event_field_is_kept_and_id_retry_ignored() {
        assert_eq!(
            decode_all(b"event: error\nid: 7\nretry: 100\ndata: boom\n\ndata: next\n\n"),
            vec![
                SseEvent {
                    event: Some("error".to_owned()),
                    data: "boom".to_owned()
                },
                data("next")
            ]
        );
    }

    #[test]
    fn blank_line_without_data_dispatches_nothing() {
        assert_eq!(decode_all(b"\n\n\nevent: ping\n\n\r\n"), vec![]);
    }

    #[test]
    fn empty_data_line_dispatches_an_empty_event() {
        assert_eq!(decode_all(b"data:\n\n"), vec![data("")]);
    }

    #[test]
    fn finish_dispatches_event_missing_its_blank_line() {
        let mut decoder = SseDecoder::new();
        assert_eq!(decoder.feed(b"data: a\n\ndata: [DONE]\n"), vec![data("a")]);
        assert_eq!(decoder.finish(), vec![data("[DONE]")]);
    }

    #[test]
    fn finish_interprets_unterminated_last_line() {
        assert_eq!(decode_all(b"data: [DONE]"), vec![data("[DONE]")]);
        assert_eq!(
            decode_all(b"data: x\n\n: trailing comment"),
            vec![data("x")]
        );
    }

    #[test]
    fn finish_drops_event_with_empty_data() {
        let mut decoder = SseDecoder::new();
        assert_eq!(decoder.feed(b"data:\n"), vec![]);
        assert_eq!(decoder.finish(), vec![]);
    }

    #[test]
    fn utf8_split_inside_a_character_survives() {
        let text = "data: héllo — 世界 🦀\n\n".as_bytes();
        assert_eq!(decode_bytewise(text), vec![data("héllo — 世界 🦀")]);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        assert_eq!(decode_all(b"data: a\xFFb\n\n"), vec![data("a\u{FFFD}b")]);
    }

    #[test]
    fn overlong_line_is_dropped_and_decoding_continues() {
        let mut decoder = SseDecoder::with_max_line_bytes(16);
        let mut events = decoder.feed(b"data: 0123456789");
        events.extend(decoder.feed(b"abcdef\ndata: ok\n\n"));
        assert_eq!(events, vec![data("ok")]);
    }

    #[test]
    fn overlong_event_data_is_dropped_and_decoding_continues() {
        let mut decoder = SseDecoder::with_max_line_bytes(16);
        let events = decoder.feed(b"data: 0123456\ndata: 789abcd\ndata: x\n\ndata: ok\n\n");
        assert_eq!(events, vec![data("ok")]);
    }

    #[test]
    fn decoder_is_reusable_after_finish() {
        let mut decoder = SseDecoder::new();
        assert_eq!(decoder.feed(b"data: a"), vec![]);
        assert_eq!(decoder.finish(), vec![data("a")]);
        assert_eq!(decoder.feed(b"\xEF\xBB\xBFdata: b\n\n"), vec![data("b")]);
    }
}
