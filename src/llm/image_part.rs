//! Image files as request content: the format checked by its bytes (PNG, JPEG, GIF, WebP), shrunk to what
//! providers accept, and sent as a base64 `data:` URL.

use std::io::Cursor;

use base64::Engine;
use image::{ImageFormat, ImageReader};

use crate::llm::ContentPart;

/// Longest side sent, in pixels. OpenAI scales larger images down to 2048 px anyway, Qwen-VL and GLM-4V accept
/// that size, and it keeps a screenshot well under every provider's per-image byte limit.
pub const MAX_SIDE: u32 = 2048;
/// Largest file sent unchanged; larger ones are re-encoded even when small enough in pixels.
pub const MAX_BYTES: usize = 4 * 1024 * 1024;

/// An image ready for a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageAttachment {
    pub part: ContentPart,
    pub width: u32,
    pub height: u32,
    /// Whether it was scaled down or re-encoded.
    pub resized: bool,
}

/// Why a file cannot be sent as an image.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("not a PNG, JPEG, GIF or WebP image")]
    NotAnImage,
    #[error("cannot decode the image: {0}")]
    Undecodable(String),
}

/// The format of `bytes` when it is one we attach, judged by its magic bytes.
pub fn image_format(bytes: &[u8]) -> Option<ImageFormat> {
    match image::guess_format(bytes).ok()? {
        f @ (ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::WebP) => {
            Some(f)
        }
        _ => None,
    }
}

/// Turns image file bytes into a content part, scaled down to [`MAX_SIDE`] when larger.
pub fn image_attachment(bytes: &[u8]) -> Result<ImageAttachment, ImageError> {
    let format = image_format(bytes).ok_or(ImageError::NotAnImage)?;
    let reader = ImageReader::with_format(Cursor::new(bytes), format);
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| ImageError::Undecodable(e.to_string()))?;
    if width <= MAX_SIDE && height <= MAX_SIDE && bytes.len() <= MAX_BYTES {
        return Ok(ImageAttachment {
            part: data_url(mime(format), bytes),
            width,
            height,
            resized: false,
        });
    }
    let decoded = image::load_from_memory_with_format(bytes, format)
        .map_err(|e| ImageError::Undecodable(e.to_string()))?;
    let scaled = if width > MAX_SIDE || height > MAX_SIDE {
        decoded.resize(MAX_SIDE, MAX_SIDE, image::imageops::FilterType::Triangle)
    } else {
        decoded
    };
    // Photos stay JPEG; screenshots and drawings (anything else) go as PNG, which keeps text sharp.
    let (out_format, image) = if format == ImageFormat::Jpeg {
        (
            ImageFormat::Jpeg,
            image::DynamicImage::ImageRgb8(scaled.to_rgb8()),
        )
    } else {
        (ImageFormat::Png, scaled)
    };
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, out_format)
        .map_err(|e| ImageError::Undecodable(e.to_string()))?;
    Ok(ImageAttachment {
        part: data_url(mime(out_format), out.get_ref()),
        width: image.width(),
        height: image.height(),
        resized: true,
    })
}

fn mime(format: ImageFormat) -> &'static str {
    match format {
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::Gif => "image/gif",
        ImageFormat::WebP => "image/webp",
        _ => "image/png",
    }
}

fn data_url(mime: &str, bytes: &[u8]) -> ContentPart {
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    ContentPart::ImageUrl {
        url: format!("data:{mime};base64,{encoded}"),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A PNG of `w`×`h` pixels.
    pub(crate) fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbImage::from_pixel(w, h, image::Rgb([200, 10, 10]));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn a_small_png_is_sent_as_it_is() {
        let bytes = png(4, 3);
        let a = image_attachment(&bytes).unwrap();
        assert_eq!((a.width, a.height, a.resized), (4, 3, false));
        let ContentPart::ImageUrl { url } = a.part else {
            panic!("not an image part")
        };
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        assert_eq!(url, format!("data:image/png;base64,{encoded}"));
    }

    #[test]
    fn a_large_image_is_scaled_to_the_limit_keeping_its_shape() {
        let a = image_attachment(&png(4096, 1024)).unwrap();
        assert_eq!((a.width, a.height, a.resized), (2048, 512, true));
    }

    #[test]
    fn text_and_other_binaries_are_not_images() {
        assert_eq!(
            image_attachment(b"hello").unwrap_err(),
            ImageError::NotAnImage
        );
        assert!(image_format(b"%PDF-1.7\n").is_none());
        let mut broken = png(4, 4);
        broken.truncate(20);
        assert!(matches!(
            image_attachment(&broken),
            Err(ImageError::Undecodable(_))
        ));
    }
}
