//! Which models take images: a table of model-name prefixes per provider, overridden by `llm.vision`.

/// `(provider id, model prefixes)`: lower-case, matched against the start of the model name (after a gateway's
/// `vendor/` part). Listed only where the provider documents image input for that family.
const VISION_MODELS: &[(&str, &[&str])] = &[
    (
        "openai",
        &["gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4"],
    ),
    ("glm", &["glm-4v", "glm-4.1v", "glm-4.5v", "glm-5v"]),
    (
        "kimi",
        &[
            "moonshot-v1-8k-vision",
            "moonshot-v1-32k-vision",
            "moonshot-v1-128k-vision",
            "kimi-latest",
            "kimi-vl",
        ],
    ),
    (
        "qwen",
        &[
            "qwen-vl",
            "qwen2.5-vl",
            "qwen3-vl",
            "qvq",
            "qwen-omni",
            "qwen3-omni",
        ],
    ),
    ("step", &["step-1v", "step-1o", "step-r1-v", "step-3"]),
    (
        "hunyuan",
        &[
            "hunyuan-vision",
            "hunyuan-turbos-vision",
            "hunyuan-t1-vision",
        ],
    ),
    (
        "openrouter",
        &[
            "gpt-4o",
            "gpt-4.1",
            "gpt-5",
            "claude",
            "gemini",
            "qwen2.5-vl",
            "qwen3-vl",
        ],
    ),
    (
        "ollama",
        &[
            "llava",
            "llama3.2-vision",
            "qwen2.5vl",
            "gemma3",
            "minicpm-v",
        ],
    ),
];

/// Whether `model` at provider `id` takes image input, by the table.
pub fn model_takes_images(id: &str, model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    let name = model.rsplit('/').next().unwrap_or(&model);
    VISION_MODELS
        .iter()
        .filter(|(provider, _)| *provider == id)
        .flat_map(|(_, prefixes)| prefixes.iter())
        .any(|prefix| name.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vision_families_are_told_from_text_only_models() {
        assert!(model_takes_images("openai", "gpt-4o-mini"));
        assert!(model_takes_images("glm", "GLM-5V-turbo"));
        assert!(model_takes_images("qwen", "qwen3-vl-plus"));
        assert!(model_takes_images(
            "openrouter",
            "anthropic/claude-sonnet-4"
        ));
        assert!(!model_takes_images("deepseek", "deepseek-flash"));
        assert!(!model_takes_images("glm", "glm-5.1"));
        assert!(!model_takes_images("custom", "gpt-4o"));
    }
}
