//! The error texts users see (spec section 8). One place, so server and tests agree.

pub const PROJECT_ID_NOT_CONFIGURED: &str = "Project ID Not Configured";
pub const INVALID_PROJECT_ID: &str = "Invalid Project ID";
pub const INVALID_APP_CONFIGURATION: &str = "Invalid App Configuration";
pub const ANALYTICS_DISABLED: &str = "Analytics is disabled for this project";
pub const NOT_FOUND: &str = "Not found";
pub const METHOD_NOT_ALLOWED: &str = "Method not allowed";
pub const TOO_MANY_REQUESTS: &str = "Too many requests, please try again later";
pub const INTERNAL: &str = "An internal error occurred";
pub const UNKNOWN_ERROR: &str = "Unknown error";
pub const UNAVAILABLE: &str = "The service is temporarily unavailable";
pub const TIMEOUT: &str = "The request took too long to respond.";
pub const NETWORK_NOT_SUPPORTED_FOR_SWAPS: &str = "Network not supported for Swaps";
pub const NETWORK_NOT_SUPPORTED_FOR_GAS_PRICE: &str = "Network not supported for Gas Price";

/// A request body over `limit` bytes.
pub fn body_too_large(limit: usize) -> String {
    format!("Request body is larger than {limit} bytes")
}

/// A JSON-RPC method the proxy does not forward.
pub fn rpc_method_not_allowed(method: &str) -> String {
    format!("The method {method} is not available through this RPC proxy")
}
