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

/// The largest image a provider takes: the longest side in pixels and the size of the encoded file in bytes
/// (before base64). Larger images are scaled down, and re-encoded as JPEG when still over the byte limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageLimits {
    pub max_side: u32,
    pub max_bytes: usize,
}

const MB: usize = 1024 * 1024;

/// For providers without a published figure (GLM, Qwen, Kimi, StepFun, Hunyuan, local servers): 2048 px and
/// 4 MB stay under every per-image limit we know of and keep a screenshot's text legible.
pub const DEFAULT_IMAGE_LIMITS: ImageLimits = ImageLimits {
    max_side: 2048,
    max_bytes: 4 * MB,
};

/// `(provider id, limits)` where the provider publishes them.
const IMAGE_LIMITS: &[(&str, ImageLimits)] = &[
    // OpenAI scales images to fit 2048 x 2048 and accepts files up to 20 MB.
    (
        "openai",
        ImageLimits {
            max_side: 2048,
            max_bytes: 20 * MB,
        },
    ),
    // OpenRouter forwards to OpenAI (2048 px) and Anthropic (8000 px, 5 MB per image) models alike: the
    // stricter of each.
    (
        "openrouter",
        ImageLimits {
            max_side: 2048,
            max_bytes: 5 * MB,
        },
    ),
];

/// The largest of every limit in the table: what an attachment is held to before the provider is applied.
pub const ATTACH_IMAGE_LIMITS: ImageLimits = ImageLimits {
    max_side: 2048,
    max_bytes: 20 * MB,
};

/// The image limits of provider `id` (the default when it publishes none).
pub fn image_limits(id: &str) -> ImageLimits {
    IMAGE_LIMITS
        .iter()
        .find(|(provider, _)| *provider == id)
        .map(|(_, limits)| *limits)
        .unwrap_or(DEFAULT_IMAGE_LIMITS)
}

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

    #[test]
    fn each_provider_has_image_limits_within_the_attachment_ceiling() {
        assert_eq!(image_limits("openai").max_bytes, 20 * MB);
        assert_eq!(image_limits("openrouter").max_bytes, 5 * MB);
        assert_eq!(image_limits("glm"), DEFAULT_IMAGE_LIMITS);
        for (_, limits) in IMAGE_LIMITS
            .iter()
            .chain([("default", DEFAULT_IMAGE_LIMITS)].iter())
        {
            assert!(limits.max_side <= ATTACH_IMAGE_LIMITS.max_side);
            assert!(limits.max_bytes <= ATTACH_IMAGE_LIMITS.max_bytes);
        }
    }
}
