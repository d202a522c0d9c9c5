//! GET /projects/v1/origins

use std::sync::Arc;

use axum::{Extension, Json};
use serde::Serialize;
use utoipa::ToSchema;

use super::Project;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OriginsResponse {
    /// Origins allowed to use this project: exact, `https://*.host` wildcards, or `*`.
    pub allowed_origins: Vec<String>,
}

/// The origins the project allows.
#[utoipa::path(get, path = "/projects/v1/origins", tag = "directory",
    params(crate::query::ProjectQuery),
    responses((status = 200, body = OriginsResponse), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn origins(Extension(project): Extension<Arc<Project>>) -> Json<OriginsResponse> {
    Json(OriginsResponse { allowed_origins: project.allowed_origins.iter().map(|o| o.to_string()).collect() })
}
