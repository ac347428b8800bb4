#![allow(clippy::unwrap_used)]

use serde_json::json;

use super::*;
use crate::llm::providers::lookup;

#[test]
fn the_list_keeps_the_servers_order_and_vllms_window() {
    let list = json!({"object": "list", "data": [
        {"id": "qwen", "max_model_len": 32768},
        {"id": "qwen"},
        {"id": " "},
        {"id": "llama"},
    ]});
    assert_eq!(
        parse_listed(&list).unwrap(),
        vec![
            ListedModel {
                id: "qwen".into(),
                window: Some(32768)
            },
            ListedModel {
                id: "llama".into(),
                window: None
            },
        ]
    );
    assert_eq!(parse_listed(&json!({"data": 3})), None);
}

#[test]
fn each_engine_reports_its_window_in_its_own_field() {
    let props = json!({"default_generation_settings": {"n_ctx": 16384}, "total_slots": 1});
    assert_eq!(llamacpp_context(&props), Some(16384));
    assert_eq!(llamacpp_context(&json!({"n_ctx": 4096})), Some(4096));
    assert_eq!(llamacpp_context(&json!({"n_ctx": 0})), None);

    let show = json!({
        "parameters": "stop \"<|im_end|>\"\nnum_ctx 8192",
        "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 32768},
    });
    assert_eq!(
        ollama_context(&show),
        Some(8192),
        "num_ctx is what it runs with"
    );
    let show = json!({"model_info": {"qwen2.context_length": 32768}});
    assert_eq!(ollama_context(&show), Some(32768));

    let list = json!({"data": [
        {"id": "a", "max_context_length": 32768},
        {"id": "b", "max_context_length": 131072, "loaded_context_length": 4096},
    ]});
    assert_eq!(lmstudio_context(&list, "a"), Some(32768));
    assert_eq!(lmstudio_context(&list, "b"), Some(4096));
    assert_eq!(lmstudio_context(&list, "c"), None);
}

#[test]
fn the_root_drops_the_openai_path() {
    let info = lookup("ollama").unwrap();
    let at = |url: &str| root_url(&ResolvedProvider::new(info, "m", Some(url), None));
    assert_eq!(at("http://h:11434/v1"), "http://h:11434");
    assert_eq!(at("http://h:8080/v1/chat/completions"), "http://h:8080");
    assert_eq!(at("http://h:8080"), "http://h:8080");
}
