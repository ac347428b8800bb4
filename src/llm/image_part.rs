//! Image files as request content: the format checked by its bytes (PNG, JPEG, GIF, WebP), shrunk to what
//! providers accept, and sent as a base64 `data:` URL.

use std::io::Cursor;

use base64::Engine;
use image::{ImageFormat, ImageReader};

use crate::llm::ContentPart;

pub use crate::config::vision::{ATTACH_IMAGE_LIMITS, ImageLimits};

/// JPEG quality for re-encoding: high enough to keep screenshot text readable.
const JPEG_QUALITY: u8 = 85;

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
    #[error("the image does not fit in {max_bytes} bytes even scaled down")]
    TooLarge { max_bytes: usize },
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

/// Turns image file bytes into a content part, held to [`ATTACH_IMAGE_LIMITS`] (the agent then fits it to
/// the provider's limits with [`fit_part`]).
pub fn image_attachment(bytes: &[u8]) -> Result<ImageAttachment, ImageError> {
    image_attachment_within(bytes, ATTACH_IMAGE_LIMITS)
}

/// Turns image file bytes into a content part no larger than `limits`: scaled down to `max_side`, and
/// re-encoded as JPEG (smaller each try) when the file is still over `max_bytes`.
pub fn image_attachment_within(
    bytes: &[u8],
    limits: ImageLimits,
) -> Result<ImageAttachment, ImageError> {
    let format = image_format(bytes).ok_or(ImageError::NotAnImage)?;
    let reader = ImageReader::with_format(Cursor::new(bytes), format);
    let (width, height) = reader
        .into_dimensions()
        .map_err(|e| ImageError::Undecodable(e.to_string()))?;
    if width <= limits.max_side && height <= limits.max_side && bytes.len() <= limits.max_bytes {
        return Ok(ImageAttachment {
            part: data_url(mime(format), bytes),
            width,
            height,
            resized: false,
        });
    }
    let decoded = image::load_from_memory_with_format(bytes, format)
        .map_err(|e| ImageError::Undecodable(e.to_string()))?;
    let mut image = if width > limits.max_side || height > limits.max_side {
        decoded.resize(
            limits.max_side,
            limits.max_side,
            image::imageops::FilterType::Triangle,
        )
    } else {
        decoded
    };
    // Photos stay JPEG; screenshots and drawings go as PNG first, which keeps text sharp.
    if format != ImageFormat::Jpeg {
        let png = encode(&image, ImageFormat::Png)?;
        if png.len() <= limits.max_bytes {
            return Ok(resized(ImageFormat::Png, &png, &image));
        }
    }
    // Over the byte limit: JPEG, and each further try at three quarters of the size.
    for _ in 0..8 {
        let jpeg = encode(&image, ImageFormat::Jpeg)?;
        if jpeg.len() <= limits.max_bytes {
            return Ok(resized(ImageFormat::Jpeg, &jpeg, &image));
        }
        let (w, h) = (image.width() * 3 / 4, image.height() * 3 / 4);
        if w == 0 || h == 0 {
            break;
        }
        image = image.resize(w, h, image::imageops::FilterType::Triangle);
    }
    Err(ImageError::TooLarge {
        max_bytes: limits.max_bytes,
    })
}

/// `part` fitted to `limits`: an image `data:` URL over them is decoded and shrunk; anything else (text, a
/// remote URL, an image already within them, one that does not decode) is returned as it is.
pub fn fit_part(part: ContentPart, limits: ImageLimits) -> ContentPart {
    let ContentPart::ImageUrl { url } = &part else {
        return part;
    };
    let Some(encoded) = url
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"))
        .map(|(_, data)| data)
    else {
        return part;
    };
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(encoded) else {
        return part;
    };
    match image_attachment_within(&bytes, limits) {
        Ok(fitted) if fitted.resized => fitted.part,
        _ => part,
    }
}

fn encode(image: &image::DynamicImage, format: ImageFormat) -> Result<Vec<u8>, ImageError> {
    let mut out = Cursor::new(Vec::new());
    let result = if format == ImageFormat::Jpeg {
        let rgb = image::DynamicImage::ImageRgb8(image.to_rgb8());
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
        rgb.write_with_encoder(encoder)
    } else {
        image.write_to(&mut out, format)
    };
    result.map_err(|e| ImageError::Undecodable(e.to_string()))?;
    Ok(out.into_inner())
}

fn resized(format: ImageFormat, bytes: &[u8], image: &image::DynamicImage) -> ImageAttachment {
    ImageAttachment {
        part: data_url(mime(format), bytes),
        width: image.width(),
        height: image.height(),
        resized: true,
    }
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

    /// A PNG of noise, which compresses badly: `w`×`h` pixels, about 3 bytes each.
    fn noisy_png(w: u32, h: u32) -> Vec<u8> {
        let mut seed: u32 = 12345;
        let img = image::RgbImage::from_fn(w, h, |_, _| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let b = seed.to_le_bytes();
            image::Rgb([b[1], b[2], b[3]])
        });
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn decoded(part: &ContentPart) -> (String, Vec<u8>) {
        let ContentPart::ImageUrl { url } = part else {
            panic!("not an image part")
        };
        let (mime, data) = url
            .strip_prefix("data:")
            .and_then(|r| r.split_once(";base64,"))
            .unwrap();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        (mime.to_string(), bytes)
    }

    #[test]
    fn over_the_byte_limit_it_becomes_a_jpeg_within_it() {
        let bytes = noisy_png(600, 400);
        assert!(bytes.len() > 500_000, "{}", bytes.len());
        let limits = ImageLimits {
            max_side: 2048,
            max_bytes: 200_000,
        };
        let a = image_attachment_within(&bytes, limits).unwrap();
        let (mime, out) = decoded(&a.part);
        assert_eq!(mime, "image/jpeg");
        assert!(out.len() <= 200_000, "{}", out.len());
        assert!(a.resized);
        assert_eq!(image_format(&out), Some(ImageFormat::Jpeg));
    }

    #[test]
    fn a_part_is_fitted_to_a_providers_limits_and_left_alone_within_them() {
        let part = image_attachment(&png(3000, 1500)).unwrap().part;
        // Held to the attachment ceiling first.
        let (_, ceiling) = decoded(&part);
        let dims = |b: &[u8]| {
            image::load_from_memory(b)
                .map(|i| (i.width(), i.height()))
                .unwrap()
        };
        assert_eq!(dims(&ceiling), (2048, 1024));
        let small = ImageLimits {
            max_side: 1000,
            max_bytes: 4 * 1024 * 1024,
        };
        let fitted = fit_part(part, small);
        assert_eq!(dims(&decoded(&fitted).1), (1000, 500));
        // Within the limits, or not an inline image: unchanged.
        assert_eq!(fit_part(fitted.clone(), small), fitted);
        let remote = ContentPart::ImageUrl {
            url: "https://example.com/a.png".into(),
        };
        assert_eq!(fit_part(remote.clone(), small), remote);
        let text = ContentPart::Text { text: "hi".into() };
        assert_eq!(fit_part(text.clone(), small), text);
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
