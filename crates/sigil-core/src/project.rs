//! Project ids: 32 lower-case hex characters.

/// True when `id` has the shape of a project id (32 hex digits).
pub fn is_project_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_id_shape() {
        assert!(is_project_id("0123456789abcdef0123456789abcdef"));
        assert!(!is_project_id("0123456789abcdef0123456789abcde"));
        assert!(!is_project_id("0123456789abcdef0123456789abcdeg"));
        assert!(!is_project_id(""));
    }
}
