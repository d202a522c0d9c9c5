//! Generated placeholder logos: a rounded square in a colour derived from the id, with up to
//! two initials of the label. Deterministic, so caches and ETags stay stable.

use sha2::{Digest, Sha256};

/// Up to two initials: first letters of the first two words, else the first two characters.
pub fn initials(label: &str) -> String {
    let words: Vec<&str> = label.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let picked: String = match words.as_slice() {
        [] => "?".to_owned(),
        [one] => one.chars().take(2).collect(),
        [a, b, ..] => a.chars().take(1).chain(b.chars().take(1)).collect(),
    };
    picked.to_uppercase()
}

/// HSL hue (0..360) derived from the id.
pub fn hue(id: &str) -> u16 {
    let d = Sha256::digest(id.as_bytes());
    u16::from_be_bytes([d[0], d[1]]) % 360
}

fn escape_xml(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '&' => "&amp;".to_owned(),
            '<' => "&lt;".to_owned(),
            '>' => "&gt;".to_owned(),
            '"' => "&quot;".to_owned(),
            '\'' => "&apos;".to_owned(),
            c => c.to_string(),
        })
        .collect()
}

/// An SVG logo for `id` labelled with the initials of `label`.
pub fn svg(id: &str, label: &str) -> String {
    let h = hue(id);
    let text = escape_xml(&initials(label));
    format!(
        concat!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"96\" height=\"96\" viewBox=\"0 0 96 96\">",
            "<rect width=\"96\" height=\"96\" rx=\"24\" fill=\"hsl({h},62%,46%)\"/>",
            "<text x=\"48\" y=\"50\" dominant-baseline=\"middle\" text-anchor=\"middle\" ",
            "font-family=\"system-ui,-apple-system,sans-serif\" font-size=\"36\" font-weight=\"600\" fill=\"#ffffff\">{text}</text>",
            "</svg>"
        ),
        h = h,
        text = text
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initials_rules() {
        assert_eq!(initials("Trust Wallet"), "TW");
        assert_eq!(initials("metamask"), "ME");
        assert_eq!(initials("1inch-Wallet"), "1W");
        assert_eq!(initials("  "), "?");
    }

    #[test]
    fn svg_is_deterministic_and_escaped() {
        assert_eq!(svg("abc", "A&B"), svg("abc", "A&B"));
        assert!(svg("abc", "A&B").contains(">AB<"));
        assert!(svg("x", "<script>").contains("SC"));
        assert!(!svg("x", "<b> <i>").contains("<b>"));
        assert_ne!(hue("a"), hue("b"));
    }
}
