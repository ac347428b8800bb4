//! Images in the conversation: the user's attachments join the turn after its text; at request time images
//! older than the last two turns become placeholders, and a model that takes no images gets a note instead.
//! The history itself keeps every image (the ledger stays complete), so only the request changes.

use std::borrow::Cow;

use crate::agent::Agent;
use crate::llm::image_part::{ImageLimits, fit_part};
use crate::llm::{Content, ContentPart, Message};

/// Turns whose images are sent; older ones are replaced, so an image is not paid for on every request.
pub const IMAGE_TURNS_KEPT: usize = 2;

/// Stands for an image of an older turn.
pub const OLD_IMAGE_PLACEHOLDER: &str = "[image from an earlier turn omitted to save context]";
/// Stands for an image the model cannot take.
pub const NO_VISION_PLACEHOLDER: &str = "[image not sent: this model does not take images]";

impl Agent {
    /// Whether the model takes images (from the provider's vision capability); without it images are
    /// replaced by a note in every request.
    pub fn set_vision(&mut self, vision: bool) {
        self.vision = vision;
    }

    /// Whether images reach the model.
    pub fn takes_images(&self) -> bool {
        self.vision
    }

    /// The largest image the provider takes (see `ResolvedProvider::image_limits`).
    pub fn set_image_limits(&mut self, limits: ImageLimits) {
        self.image_limits = limits;
    }

    /// `images` scaled down (and re-encoded when too big) to the provider's limits, as they join the history.
    pub(in crate::agent) fn fit_images(&self, images: Vec<ContentPart>) -> Vec<ContentPart> {
        images
            .into_iter()
            .map(|part| fit_part(part, self.image_limits))
            .collect()
    }

    /// Images (e.g. `@image:shot.png`) to send with the next user turn, after its text.
    pub fn queue_images(&mut self, images: Vec<ContentPart>) {
        self.pending_images.extend(images);
    }
}

/// The messages to send: `messages` with images outside the last [`IMAGE_TURNS_KEPT`] turns (every image when
/// `vision` is false) replaced by placeholder text. Borrowed unchanged when there is nothing to replace, so the
/// common request costs no copy.
pub fn for_request<'a>(
    messages: &'a [Message],
    turn_starts: &[usize],
    vision: bool,
) -> Cow<'a, [Message]> {
    let keep_from = if vision {
        turn_starts
            .len()
            .checked_sub(IMAGE_TURNS_KEPT)
            .and_then(|i| turn_starts.get(i))
            .copied()
            .unwrap_or(0)
    } else {
        usize::MAX
    };
    let has_image = |m: &Message| matches!(&m.content, Content::Parts(parts) if parts.iter().any(|p| matches!(p, ContentPart::ImageUrl { .. })));
    if !messages
        .iter()
        .take(keep_from.min(messages.len()))
        .any(has_image)
    {
        return Cow::Borrowed(messages);
    }
    let placeholder = if vision {
        OLD_IMAGE_PLACEHOLDER
    } else {
        NO_VISION_PLACEHOLDER
    };
    let mut out = messages.to_vec();
    for message in out.iter_mut().take(keep_from.min(messages.len())) {
        if let Content::Parts(parts) = &mut message.content {
            for part in parts.iter_mut() {
                if matches!(part, ContentPart::ImageUrl { .. }) {
                    *part = ContentPart::Text {
                        text: placeholder.to_string(),
                    };
                }
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image() -> ContentPart {
        ContentPart::ImageUrl {
            url: "data:image/png;base64,AAAA".into(),
        }
    }

    fn with_image(text: &str) -> Message {
        Message {
            content: Content::Parts(vec![ContentPart::Text { text: text.into() }, image()]),
            ..Message::user("")
        }
    }

    /// system, then three turns of (user with image, answer).
    fn three_turns() -> (Vec<Message>, Vec<usize>) {
        let mut m = vec![Message::system("rules")];
        let mut starts = Vec::new();
        for t in ["one", "two", "three"] {
            starts.push(m.len());
            m.push(with_image(t));
            m.push(Message::assistant("ok"));
        }
        (m, starts)
    }

    fn images_in(messages: &[Message]) -> Vec<bool> {
        messages
            .iter()
            .map(|m| matches!(&m.content, Content::Parts(p) if p.contains(&image())))
            .collect()
    }

    #[test]
    fn images_older_than_two_turns_become_placeholders() {
        let (messages, starts) = three_turns();
        let sent = for_request(&messages, &starts, true);
        assert_eq!(
            images_in(&sent),
            [false, false, false, true, false, true, false]
        );
        assert_eq!(sent[0], messages[0], "the system prefix is unchanged");
        assert_eq!(
            sent[1].content,
            Content::Parts(vec![
                ContentPart::Text { text: "one".into() },
                ContentPart::Text {
                    text: OLD_IMAGE_PLACEHOLDER.into()
                },
            ])
        );
        // Two turns or fewer: nothing to replace, nothing copied.
        assert!(matches!(
            for_request(&messages[..5], &starts[..2], true),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_history_with_nothing_to_replace_is_borrowed_not_copied() {
        // Three turns, images only in the last two: those are sent as they are.
        let (mut messages, starts) = three_turns();
        messages[1] = Message::user("one");
        let sent = for_request(&messages, &starts, true);
        assert!(matches!(sent, Cow::Borrowed(_)));
        assert_eq!(
            images_in(&sent),
            [false, false, false, true, false, true, false]
        );
        // A text-only model and no image anywhere.
        let plain = [
            Message::system("rules"),
            Message::user("hi"),
            Message::assistant("ok"),
        ];
        assert!(matches!(for_request(&plain, &[1], false), Cow::Borrowed(_)));
    }

    #[test]
    fn a_text_only_model_gets_a_note_for_every_image() {
        let (messages, starts) = three_turns();
        let sent = for_request(&messages, &starts, false);
        assert!(images_in(&sent).iter().all(|has| !has));
        assert_eq!(
            sent[5].content.text(),
            format!("three\n{NO_VISION_PLACEHOLDER}")
        );
    }
}
