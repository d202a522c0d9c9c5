//! The API's own extractors: their rejections are the API's JSON errors, in words that name the
//! bad field but no type of the server's.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::{describe_json_error, without_type_names, ApiError, ErrorCode};

/// The query string parsed into `T`; a bad value is named: "Invalid parameter 'page': ...".
/// Parameters `T` does not name are left alone (the project gate reads projectId).
pub struct Query<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parse_query(parts.uri.query().unwrap_or("")).map(Query)
    }
}

pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let pairs = serde_urlencoded::Deserializer::new(url::form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(pairs).map_err(|e| {
        let name = e.path().to_string();
        let why = without_type_names(&e.inner().to_string());
        if name == "." {
            ApiError::bad_request(ErrorCode::InvalidParameter, format!("Invalid query: {why}"))
        } else {
            ApiError::invalid_param(&name, why)
        }
    })
}

/// A JSON body, read within the body limit and parsed into `T`.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        // Bytes answers 413 past the body limit; the edge words that as JSON.
        let body = Bytes::from_request(req, state).await.map_err(|e| ApiError::new(e.status(), ErrorCode::from_status(e.status()), e.body_text()))?;
        parse(&body).map(Json)
    }
}

/// Parses a JSON body into `T`, or the API's error saying what is wrong with it.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        if e.is_data() {
            ApiError::bad_request(ErrorCode::InvalidBody, format!("Invalid request body: {}", describe_json_error(&e)))
        } else {
            ApiError::bad_request(ErrorCode::InvalidJson, format!("Request body is not valid JSON: {}", describe_json_error(&e)))
        }
    })
}
