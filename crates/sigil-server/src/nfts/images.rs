//! NFT images as this server serves them: PNG, JPEG, GIF and WebP as fetched (recognised by
//! their bytes, whatever they were declared as), SVG rasterised to PNG with resvg, so no script,
//! external reference or font of the token's author ever reaches a page. The rasteriser reads
//! nothing outside the document (no files, no URLs; embedded `data:` rasters within a pixel
//! budget, never another SVG), refuses DTD entities and deep or huge documents, and draws at
//! most `RASTER_SIDE` pixels a side. Text in an SVG is not drawn (no fonts).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use base64::Engine;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use super::fetch::{FetchError, Fetched};

/// The media types an image may be declared as.
pub const ALLOWED: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"];
const PNG: &str = "image/png";
const SVG: &str = "image/svg+xml";

/// The longer side of a rasterised SVG, in pixels.
pub const RASTER_SIDE: f32 = 512.0;

/// An image ready to serve: base64 of its bytes, its type and ETag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    pub data: String,
    pub content_type: String,
    pub etag: String,
}

/// The raster type of `bytes` by their signature.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(PNG)
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Whether `bytes` look like an SVG document (text starting with a tag, an `<svg` early on).
fn looks_like_svg(bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
    let head = &text[start..text.len().min(start + 4096)];
    head.starts_with(b"<") && head.windows(4).any(|w| w.eq_ignore_ascii_case(b"<svg"))
}

/// What a fetched image is served as: rasters as they are, SVG drawn to PNG.
pub fn prepare(fetched: Fetched) -> Result<Prepared, FetchError> {
    let (bytes, content_type) = match sniff(&fetched.bytes) {
        Some(kind) => (fetched.bytes, kind),
        None if fetched.declared == SVG || looks_like_svg(&fetched.bytes) => (rasterise(&fetched.bytes)?, PNG),
        None => return Err(FetchError::MediaType(if fetched.declared.is_empty() { "unknown".into() } else { fetched.declared })),
    };
    let etag = format!("\"n-{}\"", &hex::encode(Sha256::digest(&bytes))[..24]);
    Ok(Prepared { data: base64::engine::general_purpose::STANDARD.encode(&bytes), content_type: content_type.to_owned(), etag })
}

/// Elements nested this deep at most in an SVG drawn (usvg's own limit is 1024).
pub const MAX_DEPTH: usize = 128;
/// Elements at most in an SVG drawn (usvg's own limit is a million).
pub const MAX_ELEMENTS: usize = 50_000;

/// Whether an XML text stays within `MAX_DEPTH` and `MAX_ELEMENTS`, by its tags (quoted
/// attribute values, comments, CDATA and declarations skipped).
fn within_shape(text: &str) -> bool {
    let bytes = text.as_bytes();
    let (mut depth, mut elements, mut i) = (0usize, 0usize, 0usize);
    let skip_to = |from: usize, end: &[u8]| bytes[from..].windows(end.len()).position(|w| w == end).map(|p| from + p + end.len());
    while let Some(p) = bytes[i..].iter().position(|b| *b == b'<') {
        i += p + 1;
        match bytes.get(i) {
            Some(b'/') => depth = depth.saturating_sub(1),
            Some(b'!') if bytes[i..].starts_with(b"!--") => {
                let Some(next) = skip_to(i, b"-->") else { return true };
                i = next;
                continue;
            }
            Some(b'!') if bytes[i..].starts_with(b"![CDATA[") => {
                let Some(next) = skip_to(i, b"]]>") else { return true };
                i = next;
                continue;
            }
            Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                elements += 1;
                // The tag's end, outside quoted values: `/>` closes it at once.
                let mut quote = None;
                let mut closed = false;
                while let Some(&c) = bytes.get(i) {
                    match (quote, c) {
                        (Some(q), c) if c == q => quote = None,
                        (Some(_), _) => {}
                        (None, b'"' | b'\'') => quote = Some(c),
                        (None, b'>') => {
                            closed = bytes[i - 1] == b'/';
                            break;
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if !closed {
                    depth += 1;
                }
                if depth > MAX_DEPTH || elements > MAX_ELEMENTS {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// Pixels of the raster images embedded in one SVG, all together, decoded at most (64 MiB).
pub const MAX_EMBEDDED_PIXELS: u64 = 16 * 1024 * 1024;

/// What an SVG's `data:` images may be: PNG, JPEG, GIF or WebP by their bytes (never another
/// SVG), whose dimensions, read before anything is decoded, fit the document's pixel budget.
fn embedded_rasters() -> resvg::usvg::ImageHrefDataResolverFn<'static> {
    use resvg::usvg::ImageKind;
    let budget = AtomicU64::new(MAX_EMBEDDED_PIXELS);
    Box::new(move |_declared, data, _| {
        let kind: fn(Arc<Vec<u8>>) -> ImageKind = match sniff(&data)? {
            PNG => ImageKind::PNG,
            "image/jpeg" => ImageKind::JPEG,
            "image/gif" => ImageKind::GIF,
            _ => ImageKind::WEBP,
        };
        let size = imagesize::blob_size(&data).ok()?;
        let pixels = (size.width as u64).checked_mul(size.height as u64).filter(|p| *p > 0)?;
        budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(pixels)).ok()?;
        Some(kind(data))
    })
}

/// An SVG drawn to a PNG whose longer side is `RASTER_SIDE`.
pub fn rasterise(svg: &[u8]) -> Result<Vec<u8>, FetchError> {
    let text = std::str::from_utf8(svg.strip_prefix(b"\xef\xbb\xbf").unwrap_or(svg)).map_err(|_| FetchError::BadImage)?;
    // Entities (a DTD's) could expand a small document into a huge one; deep nesting would
    // take the (recursive) parser's stack, many elements the drawing's time.
    if text.contains("<!ENTITY") || !within_shape(text) {
        return Err(FetchError::BadImage);
    }
    let options = resvg::usvg::Options {
        resources_dir: None,
        image_href_resolver: resvg::usvg::ImageHrefResolver { resolve_data: embedded_rasters(), resolve_string: Box::new(|_, _| None) },
        ..Default::default()
    };
    let tree = resvg::usvg::Tree::from_str(text, &options).map_err(|_| FetchError::BadImage)?;
    let size = tree.size();
    let scale = RASTER_SIDE / size.width().max(size.height());
    if !scale.is_finite() || scale <= 0.0 {
        return Err(FetchError::BadImage);
    }
    let side = |v: f32| ((v * scale).ceil() as u32).clamp(1, RASTER_SIDE as u32);
    let mut pixmap = resvg::tiny_skia::Pixmap::new(side(size.width()), side(size.height())).ok_or(FetchError::BadImage)?;
    resvg::render(&tree, resvg::tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|_| FetchError::BadImage)
}

/// `prepare` off the async threads (drawing an SVG is CPU work), within `deadline`, holding one
/// of `drawings`' permits for as long as the work runs: the permit moves into the blocking task,
/// so a drawing the deadline gave up on still holds it until it ends, and no more than the
/// semaphore's permits ever draw at once.
pub async fn prepare_blocking(fetched: Fetched, drawings: Arc<Semaphore>, deadline: std::time::Duration) -> Result<Prepared, FetchError> {
    let work = async move {
        let permit = drawings.acquire_owned().await.map_err(|_| FetchError::BadImage)?;
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            prepare(fetched)
        });
        task.await.map_err(|_| FetchError::BadImage)?
    };
    tokio::time::timeout(deadline, work).await.map_err(|_| FetchError::Timeout)?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rasters_are_recognised_by_their_bytes() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\nrest"), Some(PNG));
        assert_eq!(sniff(b"GIF89a..."), Some("image/gif"));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(sniff(b"<svg"), None);
    }

    #[test]
    fn svg_is_drawn_without_its_script() {
        let svg = br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="20" onload="alert(1)"><script>alert(2)</script><rect width="10" height="20" fill="red"/><image href="/etc/passwd" width="5" height="5"/><foreignObject><div>x</div></foreignObject></svg>"#;
        let prepared = prepare(Fetched { bytes: svg.to_vec(), declared: String::new() }).unwrap();
        assert_eq!(prepared.content_type, PNG);
        let png = base64::engine::general_purpose::STANDARD.decode(&prepared.data).unwrap();
        assert_eq!(sniff(&png), Some(PNG));
        assert!(!png.windows(6).any(|w| w == b"script"));
        // 10x20 drawn 256x512.
        assert_eq!(&png[16..24], &[0, 0, 1, 0, 0, 0, 2, 0]);
    }

    /// The RGBA of the pixel at (x, y) of a PNG.
    fn pixel(png: &[u8], x: u32, y: u32) -> [u8; 4] {
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(png).unwrap();
        let p = pixmap.pixel(x, y).unwrap();
        [p.red(), p.green(), p.blue(), p.alpha()]
    }

    #[test]
    fn embedded_rasters_are_drawn_within_the_budget() {
        let mut red = resvg::tiny_skia::Pixmap::new(2, 2).unwrap();
        red.fill(resvg::tiny_skia::Color::from_rgba8(255, 0, 0, 255));
        let red = red.encode_png().unwrap();
        let svg = |png: &[u8]| {
            let b64 = base64::engine::general_purpose::STANDARD.encode(png);
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect width="2" height="2" fill="blue"/><image width="2" height="2" href="data:image/png;base64,{b64}"/></svg>"#
            )
        };
        assert_eq!(pixel(&rasterise(svg(&red).as_bytes()).unwrap(), 256, 256), [255, 0, 0, 255]);
        // Dimensions are read before decoding: what would pass the document's budget is refused.
        let sized = |side: u32| {
            let mut png = red.clone();
            png[16..20].copy_from_slice(&side.to_be_bytes());
            png[20..24].copy_from_slice(&side.to_be_bytes());
            Arc::new(png)
        };
        let options = resvg::usvg::Options::default();
        let resolve = embedded_rasters();
        assert!(resolve("image/png", sized(100_000), &options).is_none());
        assert!(resolve("image/png", sized(4096), &options).is_some());
        assert!(resolve("image/png", sized(2), &options).is_none(), "the budget is spent");
        assert!(resolve("image/png", Arc::new(b"<svg/>".to_vec()), &options).is_none());
        // Another SVG inside is not drawn.
        let inner = base64::engine::general_purpose::STANDARD
            .encode(br#"<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect width="2" height="2" fill="red"/></svg>"#);
        let nested = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><rect width="2" height="2" fill="blue"/><image width="2" height="2" href="data:image/svg+xml;base64,{inner}"/></svg>"#
        );
        assert_eq!(pixel(&rasterise(nested.as_bytes()).unwrap(), 256, 256), [0, 0, 255, 255]);
    }

    #[tokio::test]
    async fn drawings_hold_their_permit_past_the_deadline() {
        let svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">{}</svg>"#, "<rect width='8' height='8' fill='red'/>".repeat(2000));
        let drawings = Arc::new(Semaphore::new(1));
        let fetched = Fetched { bytes: svg.into_bytes(), declared: SVG.into() };
        let result = prepare_blocking(fetched, drawings.clone(), std::time::Duration::from_millis(1)).await;
        assert_eq!(result.unwrap_err(), FetchError::Timeout);
        // The drawing goes on after the timeout, with its permit: none is free until it ends.
        assert_eq!(drawings.available_permits(), 0);
        let _free = tokio::time::timeout(std::time::Duration::from_secs(60), drawings.acquire()).await.expect("the drawing ends and frees its permit");
    }

    #[test]
    fn bad_images_are_refused() {
        let html = Fetched { bytes: b"<html><body>hi</body></html>".to_vec(), declared: "text/html".into() };
        assert_eq!(prepare(html).unwrap_err(), FetchError::MediaType("text/html".into()));
        let bomb = br#"<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>"#;
        assert_eq!(rasterise(bomb).unwrap_err(), FetchError::BadImage);
        assert_eq!(rasterise(b"<svg").unwrap_err(), FetchError::BadImage);
        // Nesting: as deep as allowed is drawn on a 2 MiB stack (a test thread's); deeper is refused.
        let nested = |n: usize| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2">{}<rect width="2" height="2" fill="red"/>{}</svg>"#,
                "<g>".repeat(n),
                "</g>".repeat(n)
            )
        };
        assert!(rasterise(nested(MAX_DEPTH - 2).as_bytes()).is_ok());
        assert_eq!(rasterise(nested(5000).as_bytes()).unwrap_err(), FetchError::BadImage);
        let many = format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{}</svg>"#, "<rect width='1' height='1'/>".repeat(MAX_ELEMENTS + 1));
        assert_eq!(rasterise(many.as_bytes()).unwrap_err(), FetchError::BadImage);
        // Quoted '>' and self-closing tags do not count as nesting; comments are skipped.
        assert!(within_shape(r#"<svg><!-- <g><g> --><rect title="a>b"/><g/></svg>"#));
    }
}
