//! The small HTML pages the frame origin shows at the top of a window: a social login's
//! outcome in its login window, and the device-approval page an emailed link opens. Text is
//! escaped; the only script is the login window's fixed one, allowed by its hash. The approval
//! pages are in the visitor's language (their Accept-Language; `mail_lang`), right to left in
//! Arabic and Hebrew, with the email and the device kept left to right.

use std::sync::LazyLock;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};

use super::mail_lang::Lang;
use super::APPROVE_PATH;
use sigil_core::template::fill;

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

fn document(lang: Lang, title: &str, head: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang={tag} dir={dir}><meta charset=utf-8><meta name=viewport content=\"width=device-width,initial-scale=1\"><title>{t}</title>\
         <style>{STYLE}</style>{head}<body><main><h1>{t}</h1>{body}</main>",
        t = escape(title),
        tag = lang.tag(),
        dir = if lang.rtl() { "rtl" } else { "ltr" },
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

/// A page that says one thing (no script), in English.
pub fn message(status: StatusCode, title: &str, text: &str) -> Response {
    message_in(Lang::En, status, title, text)
}

/// A page that says one thing (no script), marked as written in `lang`.
pub fn message_in(lang: Lang, status: StatusCode, title: &str, text: &str) -> Response {
    let body = document(lang, title, "", &format!("<p id=message>{}</p>", escape(text)));
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
    let body = document(Lang::En, title, &head, &format!("<p id=message>{}</p>", escape(text)));
    let policy = format!("default-src 'none'; style-src 'unsafe-inline'; script-src {}; frame-ancestors 'none'", *RETURNED_SCRIPT_HASH);
    respond(status, body, &policy)
}

/// The device-approval page: which device asks, and a button that approves it (a POST, so a
/// mail scanner that opens the link approves nothing), in `lang`. The email and the device
/// stay left to right in a right-to-left page.
pub fn approval(lang: Lang, email: &str, device: &str, secret: &str) -> Response {
    let t = lang.page();
    // The template is escaped as text, then the (escaped) email goes in, in one pass.
    let email = format!("<b><bdi dir=ltr>{}</bdi></b>", escape(email));
    let body = format!(
        "<p>{intro}</p><p id=device class=device dir=ltr>{device}</p>\
         <p>{warning}</p>\
         <form method=post action=\"{APPROVE_PATH}\"><input type=hidden name=token value=\"{secret}\">\
         <button type=submit>{button}</button></form>",
        intro = fill(&escape(t.approve_intro), &[("email", &email)]),
        device = escape(device),
        warning = escape(t.approve_warning),
        secret = escape(secret),
        button = escape(t.approve_button),
    );
    respond(
        StatusCode::OK,
        document(lang, t.approve_title, "", &body),
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

    fn html(res: Response) -> String {
        let bytes = futures::executor::block_on(axum::body::to_bytes(res.into_body(), usize::MAX)).unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn the_approval_page_is_in_every_language_with_the_values_escaped() {
        let email = "a<b>\"'&{device}@x.co";
        let device = "<script>alert(1)</script> on {email}";
        for (tag, lang) in Lang::all() {
            let res = approval(lang, email, device, "se\"cret");
            assert_eq!(res.status(), StatusCode::OK);
            let policy = res.headers()[header::CONTENT_SECURITY_POLICY].to_str().unwrap().to_owned();
            assert!(policy.starts_with("default-src 'none';") && policy.contains("form-action 'self'"), "{policy}");
            let page = html(res);
            let t = lang.page();
            let dir = if matches!(tag, "ar" | "he") { "rtl" } else { "ltr" };
            assert!(page.contains(&format!("<html lang={tag} dir={dir}>")), "{tag}: {page}");
            assert!(page.contains(&format!("<b><bdi dir=ltr>{}</bdi></b>", escape(email))), "{tag}: {page}");
            assert!(page.contains(&format!("<p id=device class=device dir=ltr>{}</p>", escape(device))), "{tag}: {page}");
            for text in [t.approve_title, t.approve_warning, t.approve_button] {
                assert!(page.contains(&escape(text)), "{tag}: {text} missing in {page}");
            }
            let (before, after) = t.approve_intro.split_once("{email}").unwrap();
            assert!(page.contains(&escape(before)) && page.contains(&escape(after)), "{tag}: {page}");
            // The values go in as they are, escaped, and are not filled in again.
            assert!(!page.contains("<script") && page.matches("{email}").count() == 1, "{tag}: {page}");
            assert!(page.contains("name=token value=\"se&quot;cret\""), "{tag}: {page}");
        }
    }

    #[test]
    fn an_arabic_page_is_right_to_left() {
        let page = html(approval(Lang::Ar, "a@b.co", "Chrome on Linux", "s"));
        assert!(page.starts_with("<!doctype html><html lang=ar dir=rtl>"), "{page}");
        assert!(page.contains(Lang::Ar.page().approve_button), "{page}");
        let page = html(message_in(Lang::He, StatusCode::NOT_FOUND, "<t>", "<x>"));
        assert!(page.contains("<html lang=he dir=rtl>") && page.contains("&lt;t&gt;") && page.contains("&lt;x&gt;"), "{page}");
        let page = html(message(StatusCode::OK, "t", "x"));
        assert!(page.contains("<html lang=en dir=ltr>"), "{page}");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("<a href=\"x\">'&"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;");
    }
}
