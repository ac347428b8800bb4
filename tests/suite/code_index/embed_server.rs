//! A local stand-in for an OpenAI-compatible `POST /embeddings` server. It is NOT a language model: each text
//! becomes a deterministic bag-of-words vector (identifiers split into words, a crude suffix stemmer, each word
//! hashed into one of 512 buckets, counts weighted by a fixed list of common words). It only lets the tests
//! exercise the real client, storage and fusion paths with vectors that carry some lexical meaning.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use serde_json::{Value, json};

use paicli::index::words::{identifiers, split_identifier};

const DIMS: usize = 512;

/// The running stand-in; the thread serves until the process ends (each test binds its own port).
pub struct EmbedServer {
    pub url: String,
    requests: Arc<AtomicUsize>,
    failing: Arc<AtomicBool>,
}

impl EmbedServer {
    /// Starts serving on `127.0.0.1:0`.
    pub fn start() -> EmbedServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let failing = Arc::new(AtomicBool::new(false));
        let (count, fail) = (Arc::clone(&requests), Arc::clone(&failing));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                count.fetch_add(1, Ordering::SeqCst);
                let fail = fail.load(Ordering::SeqCst);
                std::thread::spawn(move || serve(stream, fail));
            }
        });
        EmbedServer {
            url,
            requests,
            failing,
        }
    }

    /// Requests served so far.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }

    /// From now on every request gets a 500.
    pub fn fail(&self) {
        self.failing.store(true, Ordering::SeqCst);
    }
}

fn serve(stream: TcpStream, fail: bool) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let (status, reply) = if fail {
        (
            "500 Internal Server Error",
            json!({"error": "model not loaded"}),
        )
    } else {
        let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let inputs: Vec<String> = match &request["input"] {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) => items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        let data: Vec<Value> = inputs
            .iter()
            .enumerate()
            .map(|(i, text)| json!({"object": "embedding", "index": i, "embedding": embed(text)}))
            .collect();
        (
            "200 OK",
            json!({"object": "list", "data": data, "model": request["model"]}),
        )
    };
    let body = reply.to_string();
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
}

/// Words that carry little meaning, weighted down.
const COMMON: &[&str] = &[
    "the", "a", "an", "to", "of", "and", "or", "is", "in", "it", "self", "fn", "let", "pub", "use",
    "mut", "for", "if", "return", "this", "that", "be", "on", "with", "as", "by", "are", "from",
    "not", "impl",
];

/// `connections` → `connection`, `waiting` → `wait`: enough for questions and code to meet.
fn stem(word: &str) -> String {
    for suffix in ["ing", "ed", "es", "s"] {
        if word.len() > suffix.len() + 3
            && let Some(stripped) = word.strip_suffix(suffix)
        {
            return stripped.to_string();
        }
    }
    word.to_string()
}

fn embed(text: &str) -> Vec<f32> {
    let mut vector = vec![0.0f32; DIMS];
    for ident in identifiers(text) {
        for word in split_identifier(ident) {
            let word = stem(&word);
            let weight = if COMMON.contains(&word.as_str()) {
                0.1
            } else {
                1.0
            };
            // FNV-1a: stable across runs and platforms.
            let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
            for b in word.bytes() {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
            vector[(hash % DIMS as u64) as usize] += weight;
        }
    }
    vector
}
