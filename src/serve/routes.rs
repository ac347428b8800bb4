//! The routes of the runtime API and the bearer check in front of them.

use std::collections::HashMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::Stream;
use serde::Deserialize;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::api_error::{ApiError, parse_body};
use super::approver::{AnswerBody, AnswerError};
use super::auth::ApiKey;
use super::event_log::{EventLog, StoredEvent};
use super::thread::{Thread, thread_config};
use crate::config::Overrides;

/// What every handler shares.
pub struct ServerState {
    pub key: ApiKey,
    /// The server's own flags (provider, model, base URL, budgets, approval mode).
    pub overrides: Overrides,
    /// The project of a thread that names none.
    pub default_project: PathBuf,
    pub threads: Mutex<HashMap<String, Arc<Thread>>>,
    /// Cancelled on shutdown: ends every event stream.
    pub shutdown: CancellationToken,
}

impl ServerState {
    fn thread(&self, id: &str) -> Result<Arc<Thread>, ApiError> {
        self.lock()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::UnknownThread(id.to_string()))
    }

    /// Every open thread.
    pub fn all_threads(&self) -> Vec<Arc<Thread>> {
        self.lock().values().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Thread>>> {
        self.threads
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The API's router, every route behind the bearer check.
pub fn router(state: Arc<ServerState>) -> Router {
    Router::new()
        .route("/v1/threads", post(create_thread))
        .route("/v1/threads/{id}", get(show_thread))
        .route("/v1/threads/{id}/turns", post(create_turn))
        .route("/v1/threads/{id}/events", get(events))
        .route("/v1/threads/{id}/cancel", post(cancel))
        .route("/v1/threads/{id}/mode", post(set_mode))
        .route(
            "/v1/threads/{id}/approvals/{request_id}",
            post(answer_approval),
        )
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                axum::Json(json!({"error": {"code": "not_found", "message": "no such route"}})),
            )
        })
        .layer(middleware::from_fn_with_state(
            Arc::clone(&state),
            require_key,
        ))
        .with_state(state)
}

async fn require_key(
    State(state): State<Arc<ServerState>>,
    request: Request,
    next: Next,
) -> Response {
    let header = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    if !state.key.accepts(header) {
        return ApiError::Unauthorized.into_response();
    }
    next.run(request).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateThread {
    /// The project folder (absolute, or relative to the server's `-C`).
    #[serde(default)]
    project: Option<PathBuf>,
    #[serde(default)]
    model: Option<String>,
    /// `ask`, `auto`, `plan` or `full`.
    #[serde(default)]
    approval: Option<String>,
    /// A session id (or unique prefix) to resume instead of starting a new one.
    #[serde(default)]
    resume: Option<String>,
}

async fn create_thread(
    State(state): State<Arc<ServerState>>,
    body: Bytes,
) -> Result<impl IntoResponse, ApiError> {
    let body: CreateThread = parse_body(&body)?;
    let project = match body.project {
        Some(p) if p.is_absolute() => p,
        Some(p) => state.default_project.join(p),
        None => state.default_project.clone(),
    };
    if !project.is_dir() {
        return Err(ApiError::BadRequest(format!(
            "the project folder {} does not exist",
            project.display()
        )));
    }
    let config = thread_config(
        &project,
        &state.overrides,
        body.model,
        body.approval.as_deref(),
    )?;
    if let Some(prefix) = &body.resume
        && let Some(open) = state
            .all_threads()
            .into_iter()
            .find(|t| t.id.starts_with(prefix.as_str()) && t.project == config.project_root)
    {
        return Ok((StatusCode::OK, axum::Json(thread_json(&open))));
    }
    let thread = Arc::new(Thread::start(config, body.resume)?);
    state.lock().insert(thread.id.clone(), Arc::clone(&thread));
    Ok((StatusCode::CREATED, axum::Json(thread_json(&thread))))
}

fn thread_json(thread: &Thread) -> serde_json::Value {
    json!({
        "id": thread.id,
        "project": thread.project,
        "model": thread.model,
        "approval": thread.approval_mode().name(),
        "running_turn": thread.running_turn(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetMode {
    /// `ask`, `auto`, `plan` or `full`.
    approval: String,
}

/// Switches the thread's approval mode (back to `plan` after a plan ran, say); a running turn's next calls are
/// judged by it.
async fn set_mode(
    State(state): State<Arc<ServerState>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<impl IntoResponse, ApiError> {
    let thread = state.thread(&id)?;
    let body: SetMode = parse_body(&body)?;
    let mode = body.approval.parse().map_err(ApiError::BadRequest)?;
    thread.set_approval_mode(mode);
    Ok(axum::Json(thread_json(&thread)))
}

async fn show_thread(
    State(state): State<Arc<ServerState>>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let thread = state.thread(&id)?;
    Ok(axum::Json(thread_json(&thread)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateTurn {
    text: String,
}

async fn create_turn(
    State(state): State<Arc<ServerState>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<impl IntoResponse, ApiError> {
    let thread = state.thread(&id)?;
    let body: CreateTurn = parse_body(&body)?;
    if body.text.trim().is_empty() {
        return Err(ApiError::BadRequest("the turn's text is empty".into()));
    }
    let turn_id = thread.start_turn(body.text)?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(json!({"turn_id": turn_id})),
    ))
}

async fn cancel(
    State(state): State<Arc<ServerState>>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let turn_id = state.thread(&id)?.cancel()?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(json!({"cancelled": turn_id})),
    ))
}

async fn answer_approval(
    State(state): State<Arc<ServerState>>,
    Path((id, request_id)): Path<(String, String)>,
    body: Bytes,
) -> Result<impl IntoResponse, ApiError> {
    let thread = state.thread(&id)?;
    let body: AnswerBody = parse_body(&body)?;
    thread
        .approver
        .answer(&request_id, body)
        .map_err(|e| match e {
            AnswerError::Unknown(_) => ApiError::UnknownApproval(request_id.clone()),
            AnswerError::Invalid(why) => ApiError::BadRequest(why),
        })?;
    Ok(axum::Json(
        json!({"request_id": request_id, "answered": true}),
    ))
}

async fn events(
    State(state): State<Arc<ServerState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    let thread = state.thread(&id)?;
    let after = match headers.get("last-event-id") {
        None => 0,
        Some(value) => value
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .ok_or_else(|| ApiError::BadRequest("Last-Event-ID is not an event id".into()))?,
    };
    let stream = event_stream(Arc::clone(&thread.events), after, state.shutdown.clone());
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

/// The events after `after`, then each new one as it is pushed, until shutdown.
fn event_stream(
    log: Arc<EventLog>,
    after: u64,
    shutdown: CancellationToken,
) -> impl Stream<Item = Result<Event, Infallible>> {
    let rx = log.subscribe();
    let start = (
        log,
        rx,
        after,
        std::collections::VecDeque::<StoredEvent>::new(),
    );
    futures_util::stream::unfold(start, move |(log, mut rx, mut cursor, mut pending)| {
        let shutdown = shutdown.clone();
        async move {
            loop {
                if let Some(e) = pending.pop_front() {
                    let event = Event::default()
                        .id(e.id.to_string())
                        .event(e.kind)
                        .data(e.data);
                    return Some((Ok(event), (log, rx, cursor, pending)));
                }
                let fresh = log.after(cursor);
                if let Some(last) = fresh.last() {
                    cursor = last.id;
                    pending.extend(fresh);
                    continue;
                }
                tokio::select! {
                    changed = rx.changed() => if changed.is_err() { return None },
                    () = shutdown.cancelled() => return None,
                }
            }
        }
    })
}
