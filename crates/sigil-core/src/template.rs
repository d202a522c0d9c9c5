//! Texts with `{name}` placeholders (emails, pages, URL templates).

/// `template` with each `{name}` replaced by its value, in one pass: a value that itself holds
/// `{code}` (an email address, a browser's name) is not filled in again; an unknown `{name}`
/// stays as it is.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}').and_then(|close| values.iter().find(|(name, _)| *name == &after[..close]).map(|(_, v)| (close, *v))) {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_once_and_leaves_unknown_names() {
        assert_eq!(fill("to {to}, code {code}", &[("to", "{code}@x.y"), ("code", "123456")]), "to {code}@x.y, code 123456");
        assert_eq!(fill("{unknown} {code} {", &[("code", "1")]), "{unknown} 1 {");
    }
}
