//! NFT storage: every SQL statement of the area, beside its typed rows. Holdings are read from
//! the history index's transfers (the indexer writes them; this area only reads); metadata and
//! images are this area's own cache (migrations/0011_nfts.sql).

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::db::Db;

/// One ERC-1155 transfer touching an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NftTransfer {
    pub contract: String,
    pub token_id: String,
    pub sender: String,
    pub recipient: String,
    /// A count, decimal.
    pub amount: String,
}

/// A token an address may hold: an ERC-721 whose latest transfer touching the address is to
/// it (held), or an ERC-1155 it received (held if it received more than it sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// "erc721" or "erc1155".
    pub kind: String,
    pub contract: String,
    pub token_id: String,
    /// Where the address last received it: (block, transaction index, seq).
    pub acquired: (i64, i64, i64),
}

/// At most `limit` of `address`'s candidates on `chain` acquired before `before`, newest
/// acquisition first. One statement: the address's appearances (one index range) joined to
/// their transactions' NFT transfers, ranked per token (an ERC-1155's receipts ranked apart from
/// its sends, so its first row is its last receipt).
pub async fn candidates(db: &Db, chain: &str, address: &str, before: Option<(i64, i64, i64)>, limit: usize) -> Result<Vec<Candidate>, sqlx::Error> {
    let (block, index, seq) = before.unwrap_or((i64::MAX, i64::MAX, i64::MAX));
    let rows = sqlx::query(
        "SELECT kind, token, token_id, block, tx_index, seq FROM ( \
           SELECT tr.kind, tr.token, tr.token_id, tr.recipient, a.block, a.tx_index, tr.seq, \
             ROW_NUMBER() OVER (PARTITION BY tr.kind, tr.token, tr.token_id, \
               CASE WHEN tr.kind = 'erc1155' AND tr.recipient <> $1 THEN 1 ELSE 0 END \
               ORDER BY a.block DESC, a.tx_index DESC, tr.seq DESC) AS rn \
           FROM history_appearances a JOIN history_transfers tr ON tr.chain = a.chain AND tr.hash = a.hash \
           WHERE a.chain = $2 AND a.address = $3 AND tr.kind IN ('erc721', 'erc1155') AND (tr.sender = $4 OR tr.recipient = $5) \
         ) ranked \
         WHERE rn = 1 AND recipient = $6 \
           AND (block < $7 OR (block = $8 AND (tx_index < $9 OR (tx_index = $10 AND seq < $11)))) \
         ORDER BY block DESC, tx_index DESC, seq DESC LIMIT $12",
    )
    .bind(address)
    .bind(chain)
    .bind(address)
    .bind(address)
    .bind(address)
    .bind(address)
    .bind(block)
    .bind(block)
    .bind(index)
    .bind(index)
    .bind(seq)
    .bind(limit as i64)
    .fetch_all(db)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(Candidate {
                kind: r.try_get("kind")?,
                contract: r.try_get("token")?,
                token_id: r.try_get("token_id")?,
                acquired: (r.try_get("block")?, r.try_get("tx_index")?, r.try_get("seq")?),
            })
        })
        .collect()
}

/// `address`'s ERC-1155 transfers of `tokens` (contract, id) on `chain`, token by token, at
/// most `limit` rows: amounts are decimal text of up to 78 digits, which neither database sums
/// exactly in the same SQL, so they are added up by the caller.
pub async fn erc1155_transfers(db: &Db, chain: &str, address: &str, tokens: &[(String, String)], limit: usize) -> Result<Vec<NftTransfer>, sqlx::Error> {
    if tokens.is_empty() {
        return Ok(Vec::new());
    }
    let pairs = (0..tokens.len()).map(|i| format!("(tr.token = ${} AND tr.token_id = ${})", 6 + 2 * i, 7 + 2 * i)).collect::<Vec<_>>().join(" OR ");
    let sql = format!(
        "SELECT tr.token, tr.token_id, tr.sender, tr.recipient, tr.amount \
         FROM history_appearances a JOIN history_transfers tr ON tr.chain = a.chain AND tr.hash = a.hash \
         WHERE a.chain = $1 AND a.address = $2 AND tr.kind = 'erc1155' AND (tr.sender = $3 OR tr.recipient = $4) AND ({pairs}) \
         ORDER BY tr.token, tr.token_id LIMIT $5"
    );
    let mut q = sqlx::query(&sql).bind(chain).bind(address).bind(address).bind(address).bind(limit as i64);
    for (contract, id) in tokens {
        q = q.bind(contract).bind(id);
    }
    q.fetch_all(db)
        .await?
        .iter()
        .map(|r| {
            Ok(NftTransfer {
                contract: r.try_get("token")?,
                token_id: r.try_get("token_id")?,
                sender: r.try_get("sender")?,
                recipient: r.try_get("recipient")?,
                amount: r.try_get("amount")?,
            })
        })
        .collect()
}

/// Whether the history index has an ERC-721 or ERC-1155 transfer of (`contract`, `token_id`)
/// on `chain`: the tokens whose metadata and image this server fetches (index
/// history_transfers_token, migrations/0012_nft_token_index.sql).
pub async fn indexed(db: &Db, chain: &str, contract: &str, token_id: &str) -> Result<bool, sqlx::Error> {
    let row =
        sqlx::query("SELECT 1 AS found FROM history_transfers WHERE chain = $1 AND token = $2 AND token_id = $3 AND kind IN ('erc721', 'erc1155') LIMIT 1")
            .bind(chain)
            .bind(contract)
            .bind(token_id)
            .fetch_optional(db)
            .await?;
    Ok(row.is_some())
}

/// A collection's name and symbol as the indexer read them (ERC-1155 contracts often have none).
pub async fn collections(db: &Db, chain: &str, contracts: &[String]) -> Result<Vec<(String, String, String)>, sqlx::Error> {
    if contracts.is_empty() {
        return Ok(Vec::new());
    }
    let list = (2..2 + contracts.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
    let sql = format!("SELECT address, name, symbol FROM history_tokens WHERE chain = $1 AND address IN ({list})");
    let mut q = sqlx::query(&sql).bind(chain);
    for c in contracts {
        q = q.bind(c);
    }
    q.fetch_all(db).await?.iter().map(|r| Ok((r.try_get("address")?, r.try_get("name")?, r.try_get("symbol")?))).collect()
}

/// A token's cached metadata, and its image once fetched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetadataRow {
    pub contract: String,
    pub token_id: String,
    pub name: Option<String>,
    pub description: Option<String>,
    /// The image's URI as the metadata gives it, whole (a data: URI can be as long as the
    /// metadata's size limit); never served. (migrations/0011_nfts.sql calls it "shortened": it
    /// is not, and that shipped file is left as it is, sqlx checking its checksum.)
    pub image_uri: Option<String>,
    pub error: Option<String>,
    /// Unix milliseconds.
    pub fetched_at: i64,
    pub image: Option<ImageRow>,
}

/// A fetched image (base64 bytes as served), or why it could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageState {
    Ready { data: String, content_type: String, etag: String },
    Failed(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRow {
    pub state: ImageState,
    /// Unix milliseconds.
    pub fetched_at: i64,
}

const METADATA_COLUMNS: &str = "contract, token_id, name, description, image_uri, error, fetched_at";

fn metadata_from(r: &AnyRow, with_image: bool) -> Result<MetadataRow, sqlx::Error> {
    let image = if with_image {
        match r.try_get::<Option<i64>, _>("image_fetched_at")? {
            None => None,
            Some(fetched_at) => {
                let state = match (r.try_get::<Option<String>, _>("image_data")?, r.try_get::<Option<String>, _>("image_error")?) {
                    (Some(data), _) => ImageState::Ready {
                        data,
                        content_type: r.try_get::<Option<String>, _>("image_type")?.unwrap_or_default(),
                        etag: r.try_get::<Option<String>, _>("image_etag")?.unwrap_or_default(),
                    },
                    (None, error) => ImageState::Failed(error.unwrap_or_default()),
                };
                Some(ImageRow { state, fetched_at })
            }
        }
    } else {
        None
    };
    Ok(MetadataRow {
        contract: r.try_get("contract")?,
        token_id: r.try_get("token_id")?,
        name: r.try_get("name")?,
        description: r.try_get("description")?,
        image_uri: r.try_get("image_uri")?,
        error: r.try_get("error")?,
        fetched_at: r.try_get("fetched_at")?,
        image,
    })
}

/// The cached metadata (without image bytes) of those of `tokens` (contract, id) that have it.
pub async fn metadata(db: &Db, chain: &str, tokens: &[(String, String)]) -> Result<Vec<MetadataRow>, sqlx::Error> {
    if tokens.is_empty() {
        return Ok(Vec::new());
    }
    let pairs = (0..tokens.len()).map(|i| format!("(contract = ${} AND token_id = ${})", 2 + 2 * i, 3 + 2 * i)).collect::<Vec<_>>().join(" OR ");
    let sql = format!("SELECT {METADATA_COLUMNS} FROM nft_metadata WHERE chain = $1 AND ({pairs})");
    let mut q = sqlx::query(&sql).bind(chain);
    for (contract, id) in tokens {
        q = q.bind(contract).bind(id);
    }
    q.fetch_all(db).await?.iter().map(|r| metadata_from(r, false)).collect()
}

/// One token's cached metadata with its image.
pub async fn token(db: &Db, chain: &str, contract: &str, token_id: &str) -> Result<Option<MetadataRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {METADATA_COLUMNS}, image_data, image_type, image_etag, image_error, image_fetched_at \
         FROM nft_metadata WHERE chain = $1 AND contract = $2 AND token_id = $3"
    );
    sqlx::query(&sql).bind(chain).bind(contract).bind(token_id).fetch_optional(db).await?.map(|r| metadata_from(&r, true)).transpose()
}

/// Stores freshly fetched metadata; the image is forgotten when its URI changed (it is fetched
/// again on its next request).
pub async fn save_metadata(db: &Db, chain: &str, row: &MetadataRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO nft_metadata (chain, contract, token_id, name, description, image_uri, error, fetched_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (chain, contract, token_id) DO UPDATE SET \
         image_data = CASE WHEN nft_metadata.image_uri = excluded.image_uri THEN nft_metadata.image_data END, \
         image_type = CASE WHEN nft_metadata.image_uri = excluded.image_uri THEN nft_metadata.image_type END, \
         image_etag = CASE WHEN nft_metadata.image_uri = excluded.image_uri THEN nft_metadata.image_etag END, \
         image_error = CASE WHEN nft_metadata.image_uri = excluded.image_uri THEN nft_metadata.image_error END, \
         image_fetched_at = CASE WHEN nft_metadata.image_uri = excluded.image_uri THEN nft_metadata.image_fetched_at END, \
         name = excluded.name, description = excluded.description, image_uri = excluded.image_uri, \
         error = excluded.error, fetched_at = excluded.fetched_at",
    )
    .bind(chain)
    .bind(&row.contract)
    .bind(&row.token_id)
    .bind(&row.name)
    .bind(&row.description)
    .bind(&row.image_uri)
    .bind(&row.error)
    .bind(row.fetched_at)
    .execute(db)
    .await?;
    Ok(())
}

/// Stores a token's fetched image, or why it failed.
pub async fn save_image(db: &Db, chain: &str, contract: &str, token_id: &str, image: &ImageRow) -> Result<(), sqlx::Error> {
    let (data, content_type, etag, error) = match &image.state {
        ImageState::Ready { data, content_type, etag } => (Some(data.as_str()), Some(content_type.as_str()), Some(etag.as_str()), None),
        ImageState::Failed(why) => (None, None, None, Some(why.as_str())),
    };
    sqlx::query(
        "UPDATE nft_metadata SET image_data = $1, image_type = $2, image_etag = $3, image_error = $4, image_fetched_at = $5 \
         WHERE chain = $6 AND contract = $7 AND token_id = $8",
    )
    .bind(data)
    .bind(content_type)
    .bind(etag)
    .bind(error)
    .bind(image.fetched_at)
    .bind(chain)
    .bind(contract)
    .bind(token_id)
    .execute(db)
    .await?;
    Ok(())
}
