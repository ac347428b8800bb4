//! The login QR code drawn with half-block characters, two modules per character cell, light modules drawn so a
//! dark terminal shows dark-on-light as a phone expects.

use qrcode::QrCode;
use qrcode::render::unicode::Dense1x2;

/// `content` as a QR code in text, `None` when it is too long for one.
pub fn draw(content: &str) -> Option<String> {
    let code = QrCode::new(content.as_bytes()).ok()?;
    Some(
        code.render::<Dense1x2>()
            .dark_color(Dense1x2::Light)
            .light_color(Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::draw;

    #[test]
    fn a_link_draws_as_a_square_of_block_characters() {
        let art = draw("https://liteapp.weixin.qq.com/q/7GiQu1?qrcode=abc&bot_type=3").unwrap();
        let lines: Vec<&str> = art.lines().collect();
        let width = lines[0].chars().count();
        assert!(width >= 25, "{width}");
        assert!(lines.iter().all(|l| l.chars().count() == width));
        // Two modules per line: about half as many lines as columns.
        assert!(lines.len() * 2 >= width && lines.len() * 2 <= width + 2);
        assert!(art.contains('█'));
    }
}
