//! Account names' storage: every SQL statement of the area, beside its typed row. A
//! registration is one statement (`INSERT ... SELECT ... ON CONFLICT DO NOTHING` over the
//! name's primary key and the address's next slot, unique per address and zone), so of two
//! requests for one name exactly one stores it, and an address never holds more names in a zone
//! than allowed, on SQLite and PostgreSQL alike.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::db::Db;

/// A registered name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameRow {
    /// The whole name, ENSIP-15 normalised: alice.sigil.id.
    pub name: String,
    /// The configured zone it is under: sigil.id.
    pub zone: String,
    /// ENSIP-11 coin type of the chain it gives an address for.
    pub coin_type: u32,
    /// Lower-case 0x address.
    pub address: String,
    /// A JSON object of text records.
    pub attributes: String,
    /// Unix seconds.
    pub registered_at: i64,
    pub updated_at: i64,
}

/// What became of a registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registered {
    Stored,
    /// Someone holds the name already.
    Taken,
    /// The address holds as many names in the zone as it may.
    LimitReached,
}

const COLUMNS: &str = "name, zone, coin_type, address, attributes, registered_at, updated_at";

fn row(r: &AnyRow) -> Result<NameRow, sqlx::Error> {
    Ok(NameRow {
        name: r.try_get("name")?,
        zone: r.try_get("zone")?,
        coin_type: u32::try_from(r.try_get::<i64, _>("coin_type")?).unwrap_or_default(),
        address: r.try_get("address")?,
        attributes: r.try_get("attributes")?,
        registered_at: r.try_get("registered_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// Stores `name` unless it is taken or its address has `per_address` names in its zone: one
/// statement (the name's key and the address's next slot both unique), then, only when nothing
/// was stored, reads saying which it was. A slot lost to a registration of the same address at
/// the same moment is tried again with the next one.
pub async fn register(db: &Db, name: &NameRow, per_address: u32) -> Result<Registered, sqlx::Error> {
    for _ in 0..3 {
        let stored = sqlx::query(
            "INSERT INTO profile_names (name, zone, coin_type, address, attributes, registered_at, updated_at, slot) \
             SELECT $1, $2, $3, $4, $5, $6, $6, (SELECT COUNT(*) FROM profile_names WHERE address = $4 AND zone = $2) \
             WHERE (SELECT COUNT(*) FROM profile_names WHERE address = $4 AND zone = $2) < $7 \
             ON CONFLICT DO NOTHING",
        )
        .bind(&name.name)
        .bind(&name.zone)
        .bind(i64::from(name.coin_type))
        .bind(&name.address)
        .bind(&name.attributes)
        .bind(name.registered_at)
        .bind(i64::from(per_address))
        .execute(db)
        .await?
        .rows_affected();
        if stored == 1 {
            return Ok(Registered::Stored);
        }
        if by_name(db, &name.name).await?.is_some() {
            return Ok(Registered::Taken);
        }
        if names_in_zone(db, &name.address, &name.zone).await? >= i64::from(per_address) {
            return Ok(Registered::LimitReached);
        }
    }
    Ok(Registered::LimitReached)
}

/// How many names `address` holds in `zone`.
async fn names_in_zone(db: &Db, address: &str, zone: &str) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) AS n FROM profile_names WHERE address = $1 AND zone = $2").bind(address).bind(zone).fetch_one(db).await?.try_get("n")
}

/// The name's row, if registered.
pub async fn by_name(db: &Db, name: &str) -> Result<Option<NameRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM profile_names WHERE name = $1");
    sqlx::query(&sql).bind(name).fetch_optional(db).await?.as_ref().map(row).transpose()
}

/// Every name giving `address` (lower-case) an address, oldest first.
pub async fn by_address(db: &Db, address: &str) -> Result<Vec<NameRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM profile_names WHERE address = $1 ORDER BY registered_at, name");
    sqlx::query(&sql).bind(address).fetch_all(db).await?.iter().map(row).collect()
}

/// The first name registered for `address` (lower-case) and `coin_type` in one of `zones`: its
/// primary name on that chain.
pub async fn primary(db: &Db, address: &str, coin_type: u32, zones: &[String]) -> Result<Option<NameRow>, sqlx::Error> {
    let found = by_address(db, address).await?;
    Ok(found.into_iter().find(|n| n.coin_type == coin_type && zones.contains(&n.zone)))
}

/// Which of `names` are registered.
pub async fn taken(db: &Db, names: &[String]) -> Result<Vec<String>, sqlx::Error> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
    let sql = format!("SELECT name FROM profile_names WHERE name IN ({})", placeholders.join(", "));
    let mut query = sqlx::query(&sql);
    for name in names {
        query = query.bind(name);
    }
    query.fetch_all(db).await?.iter().map(|r| r.try_get("name")).collect()
}
