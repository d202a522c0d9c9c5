//! Directory queries that go to the database: logos. Lists are served from the snapshot.

use sqlx::Row;

use crate::db::Db;

/// A wallet's name and logo (content type, base64 data, etag) by image id or wallet id.
pub struct LogoRow {
    pub id: String,
    pub name: String,
    pub logo: Option<(String, String, String)>,
}

pub async fn logo(db: &Db, image_or_wallet_id: &str) -> Result<Option<LogoRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT w.id, w.name, l.content_type, l.data_base64, l.etag FROM wallets w \
         LEFT JOIN wallet_logos l ON l.image_id = w.image_id \
         WHERE w.image_id = $1 OR w.id = $1 ORDER BY w.position LIMIT 1",
    )
    .bind(image_or_wallet_id)
    .fetch_optional(db)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let content_type: Option<String> = row.try_get("content_type")?;
    let logo = match content_type {
        Some(ct) => Some((ct, row.try_get("data_base64")?, row.try_get("etag")?)),
        None => None,
    };
    Ok(Some(LogoRow { id: row.try_get("id")?, name: row.try_get("name")?, logo }))
}
