//! Directory queries. Filters become SQL so paging and counts come from one consistent query.

use sqlx::Row;

use super::Wallet;
use crate::db::Db;

/// Search results are capped (spec: at most 100).
pub const SEARCH_LIMIT: i64 = 100;

#[derive(Debug, Default, Clone)]
pub struct WalletFilter {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub chains: Vec<String>,
    pub rdns: Vec<String>,
    /// Lower-cased search text.
    pub search: Option<String>,
    pub badge_type: Option<String>,
}

/// A WHERE clause with `$n` placeholders and its values, in order.
struct Clause {
    sql: String,
    binds: Vec<String>,
}

impl Clause {
    fn placeholders(&mut self, values: &[String]) -> String {
        let list: Vec<String> = values
            .iter()
            .map(|v| {
                self.binds.push(v.clone());
                format!("${}", self.binds.len())
            })
            .collect();
        list.join(", ")
    }

    fn build(f: &WalletFilter) -> Clause {
        let mut c = Clause { sql: String::from("1 = 1"), binds: Vec::new() };
        if !f.include.is_empty() {
            let p = c.placeholders(&f.include);
            c.sql += &format!(" AND w.id IN ({p})");
        }
        if !f.exclude.is_empty() {
            let p = c.placeholders(&f.exclude);
            c.sql += &format!(" AND w.id NOT IN ({p})");
        }
        if !f.chains.is_empty() {
            let p = c.placeholders(&f.chains);
            c.sql += &format!(" AND EXISTS (SELECT 1 FROM wallet_chains c WHERE c.wallet_id = w.id AND c.chain IN ({p}))");
        }
        if !f.rdns.is_empty() {
            let p = c.placeholders(&f.rdns);
            c.sql += &format!(" AND w.rdns IN ({p})");
        }
        if let Some(search) = &f.search {
            let p = c.placeholders(&[format!("%{}%", escape_like(search))]);
            c.sql += &format!(" AND w.search_text LIKE {p} ESCAPE '\\'");
        }
        if let Some(badge) = &f.badge_type {
            let p = c.placeholders(std::slice::from_ref(badge));
            c.sql += &format!(" AND w.badge_type = {p}");
        }
        c
    }
}

fn escape_like(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if matches!(ch, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// One page of wallets (1-based `page`) and the filtered total.
pub async fn list(db: &Db, filter: &WalletFilter, page: u32, entries: u32) -> Result<(i64, Vec<Wallet>), sqlx::Error> {
    let clause = Clause::build(filter);
    let count_sql = format!("SELECT COUNT(*) AS n FROM wallets w WHERE {}", clause.sql);
    let mut count_query = sqlx::query(&count_sql);
    for b in &clause.binds {
        count_query = count_query.bind(b);
    }
    let mut count: i64 = count_query.fetch_one(db).await?.try_get("n")?;

    let mut offset = i64::from(page - 1) * i64::from(entries);
    let mut limit = i64::from(entries);
    if filter.search.is_some() {
        count = count.min(SEARCH_LIMIT);
        limit = limit.min((SEARCH_LIMIT - offset).max(0));
    }
    if limit == 0 || offset >= count {
        return Ok((count, Vec::new()));
    }
    offset = offset.max(0);

    let n = clause.binds.len();
    let sql = format!("SELECT w.doc FROM wallets w WHERE {} ORDER BY w.position, w.id LIMIT ${} OFFSET ${}", clause.sql, n + 1, n + 2);
    let mut query = sqlx::query(&sql);
    for b in &clause.binds {
        query = query.bind(b);
    }
    let rows = query.bind(limit).bind(offset).fetch_all(db).await?;
    let wallets = rows
        .iter()
        .map(|r| {
            let doc: String = r.try_get("doc")?;
            serde_json::from_str::<Wallet>(&doc).map_err(|e| sqlx::Error::Decode(Box::new(e)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((count, wallets))
}

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
