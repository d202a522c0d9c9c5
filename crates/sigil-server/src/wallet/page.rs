//! The small HTML pages the frame origin shows at the top of a window: a social login's
//! outcome in its login window, and the device-approval page an emailed link opens. Text is
//! escaped; the only script is the login window's fixed one, allowed by its hash.

use std::sync::LazyLock;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};

use super::APPROVE_PATH;

/// Text escaped for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// The login window's script: tells the Sigil frames of the page that opened the window that
/// the provider sent the person back, with the claim secret when it succeeded. The message is
/// addressed to this origin, so only Sigil's own frames (never the host page) can read it.
const RETURNED_SCRIPT: &str = "(function(){var m=document.querySelector('meta[name=\"sigil-returned\"]');var o=window.opener;if(!m||!o)return;\
var p=m.getAttribute('content').split(' ');var msg={type:'SIGIL_SOCIAL_RETURNED',state:p[0]};if(p[1])msg.claim=p[1];\
function tell(w,depth){for(var i=0;i<w.frames.length;i++){try{w.frames[i].postMessage(msg,location.origin)}catch(e){}if(depth<2){try{tell(w.frames[i],depth+1)}catch(e){}}}}\
tell(o,0)})();";

static RETURNED_SCRIPT_HASH: LazyLock<String> =
    LazyLock::new(|| format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(RETURNED_SCRIPT.as_bytes()))));

/// One small stylesheet for every page: a card in the middle, light or dark as the system is,
/// the same blue as the modal's buttons.
const STYLE: &str = ":root{color-scheme:light dark;--bg:#f3f4f6;--card:#fff;--fg:#141414;--muted:#5f6368;--line:rgba(127,127,127,.25)}\
@media(prefers-color-scheme:dark){:root{--bg:#0b0c0c;--card:#1b1c1d;--fg:#e4e7e7;--muted:#9aa0a6}}\
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;\
background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}\
main{width:100%;max-width:400px;background:var(--card);border:1px solid var(--line);border-radius:24px;padding:28px 24px;text-align:center}\
h1{margin:0 0 12px;font-size:19px;line-height:1.3}p{margin:0 0 12px;color:var(--muted);overflow-wrap:anywhere}\
p b{color:var(--fg);font-weight:600}.device{padding:12px;border-radius:14px;background:var(--line);color:var(--fg)}\
button{width:100%;margin-top:8px;padding:12px 16px;border:0;border-radius:14px;background:#3b6cf6;color:#fff;font:inherit;font-weight:600;cursor:pointer}\
button:focus-visible{outline:2px solid #3b6cf6;outline-offset:2px}";

fn document(title: &str, head: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content=\"width=device-width,initial-scale=1\"><title>{t}</title>\
         <style>{STYLE}</style>{head}<body><main><h1>{t}</h1>{body}</main>",
        t = escape(title)
    )
}

fn respond(status: StatusCode, body: String, policy: &str) -> Response {
    let mut res = (status, Html(body)).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_str(policy).expect("the policy is ASCII"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    res
}

/// A page that says one thing (no script).
pub fn message(status: StatusCode, title: &str, text: &str) -> Response {
    let body = document(title, "", &format!("<p id=message>{}</p>", escape(text)));
    respond(status, body, "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
}

/// A social login's outcome in its login window: the text, and the frames of the window's
/// opener told (with the claim secret on success).
pub fn login_returned(status: StatusCode, title: &str, text: &str, state: &str, claim: Option<&str>) -> Response {
    let content = match claim {
        Some(claim) => format!("{state} {claim}"),
        None => state.to_owned(),
    };
    let head = format!("<meta name=sigil-returned content=\"{}\"><script>{RETURNED_SCRIPT}</script>", escape(&content));
    let body = document(title, &head, &format!("<p id=message>{}</p>", escape(text)));
    let policy = format!("default-src 'none'; style-src 'unsafe-inline'; script-src {}; frame-ancestors 'none'", *RETURNED_SCRIPT_HASH);
    respond(status, body, &policy)
}

/// The device-approval page: which device asks, and a button that approves it (a POST, so a
/// mail scanner that opens the link approves nothing).
pub fn approval(email: &str, device: &str, secret: &str) -> Response {
    let body = format!(
        "<p>A new device wants to log in to the wallet of <b>{email}</b>:</p><p id=device class=device>{device}</p>\
         <p>Approve it only if this is you, logging in right now.</p>\
         <form method=post action=\"{APPROVE_PATH}\"><input type=hidden name=token value=\"{secret}\">\
         <button type=submit>Approve this device</button></form>",
        email = escape(email),
        device = escape(device),
        secret = escape(secret),
    );
    respond(
        StatusCode::OK,
        document("Approve the device?", "", &body),
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_hash_is_the_scripts() {
        let hash = RETURNED_SCRIPT_HASH.as_str();
        assert!(hash.starts_with("'sha256-") && hash.ends_with('\''));
        let res = login_returned(StatusCode::OK, "Logged in", "ok", "st<ate", Some("cl\"aim"));
        let policy = res.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(policy.contains(hash), "{policy}");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("<a href=\"x\">'&"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;");
    }
}
