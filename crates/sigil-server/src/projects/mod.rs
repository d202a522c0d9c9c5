//! Projects: who may use this server. A project has an id (32 hex), a name, the origins its
//! pages may call from, and feature flags. Includes the project gate every directory route
//! passes through: project id check, origin check and CORS.

pub mod gate;
pub mod routes;

use serde::{Deserialize, Serialize};
use sigil_core::origin::OriginPattern;
use sqlx::Row;

use crate::db::{now_ms, Db};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Features {
    /// Whether the modal may send analytics events (`/e`).
    #[serde(default = "yes")]
    pub analytics: bool,
}

fn yes() -> bool {
    true
}

impl Default for Features {
    fn default() -> Self {
        Features { analytics: true }
    }
}

#[derive(Debug, Clone)]
pub struct Project {
    pub id: String,
    pub name: String,
    pub allowed_origins: Vec<OriginPattern>,
    pub features: Features,
    pub created_at: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("project name must be 1 to 100 characters")]
    Name,
    #[error(transparent)]
    Origin(#[from] sigil_core::origin::InvalidOrigin),
    #[error("a project needs at least one --origin")]
    NoOrigin,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

fn from_row(row: &sqlx::any::AnyRow) -> Result<Project, sqlx::Error> {
    let origins: String = row.try_get("allowed_origins")?;
    let features: String = row.try_get("features")?;
    let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    let origins: Vec<String> = serde_json::from_str(&origins).map_err(decode)?;
    Ok(Project {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        allowed_origins: origins.iter().filter_map(|o| o.parse().ok()).collect(),
        features: serde_json::from_str(&features).map_err(decode)?,
        created_at: row.try_get("created_at")?,
    })
}

/// Creates a project and returns it with its new id.
pub async fn create(db: &Db, name: &str, origins: &[String], features: Features) -> Result<Project, ProjectError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ProjectError::Name);
    }
    if origins.is_empty() {
        return Err(ProjectError::NoOrigin);
    }
    let allowed_origins = origins.iter().map(|o| o.parse::<OriginPattern>()).collect::<Result<Vec<_>, _>>()?;
    let project = Project { id: uuid::Uuid::new_v4().simple().to_string(), name: name.to_owned(), allowed_origins, features, created_at: now_ms() };
    let origins_json = serde_json::to_string(&project.allowed_origins.iter().map(|o| o.to_string()).collect::<Vec<_>>()).expect("strings serialize");
    sqlx::query("INSERT INTO projects (id, name, allowed_origins, features, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&project.id)
        .bind(&project.name)
        .bind(origins_json)
        .bind(serde_json::to_string(&project.features).expect("features serialize"))
        .bind(project.created_at)
        .execute(db)
        .await?;
    Ok(project)
}

/// Projects recently read, so the gate does not query storage on every request. Short-lived:
/// a project added or changed with the admin commands (another process) is seen within seconds.
/// Shared as `Arc`s: the gate hands one to every request.
pub struct ProjectCache(crate::cache::TtlCache<String, Option<std::sync::Arc<Project>>>);

impl Default for ProjectCache {
    fn default() -> Self {
        ProjectCache(crate::cache::TtlCache::new(std::time::Duration::from_secs(5), 10_000))
    }
}

impl ProjectCache {
    /// The remembered answer for `id`, if there is a fresh one (no database call).
    pub fn cached(&self, id: &str) -> Option<Option<std::sync::Arc<Project>>> {
        self.0.get(id)
    }

    pub async fn find(&self, db: &Db, id: &str) -> Result<Option<std::sync::Arc<Project>>, sqlx::Error> {
        if let Some(hit) = self.cached(id) {
            return Ok(hit);
        }
        let found = find(db, id).await?.map(std::sync::Arc::new);
        self.0.put(id.to_owned(), found.clone());
        Ok(found)
    }
}

pub async fn find(db: &Db, id: &str) -> Result<Option<Project>, sqlx::Error> {
    let row = sqlx::query("SELECT id, name, allowed_origins, features, created_at FROM projects WHERE id = $1").bind(id).fetch_optional(db).await?;
    row.as_ref().map(from_row).transpose()
}

pub async fn list(db: &Db) -> Result<Vec<Project>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, name, allowed_origins, features, created_at FROM projects ORDER BY created_at, id").fetch_all(db).await?;
    rows.iter().map(from_row).collect()
}

/// Project routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::origins))
}
