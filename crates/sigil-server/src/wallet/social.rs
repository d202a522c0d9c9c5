//! Social login (issue 14): Google and Apple over OpenID Connect, X, Discord, GitHub and
//! Facebook over OAuth 2 with PKCE, and any other OpenID Connect issuer, each declared in the
//! socials file (`--socials`). Endpoints default to each provider's real ones and can be
//! overridden, so a self-hosted or test identity provider stands in.
//!
//! The flow: the frame asks for the provider's authorization URL (a state, PKCE verifier and
//! nonce are stored, single use, 10 minutes, bound to the frame's device); the modal opens it
//! in a popup or the page goes there; the provider returns to [`CALLBACK_PATH`] on the frame
//! origin, where the code is exchanged and the answer verified; the frame on the same device
//! then claims the result and gets a session. One provider account is one wallet; a verified
//! email that an email user already has joins that user.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use oauth2::basic::BasicClient;
use openidconnect::core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata};
use openidconnect::{
    AuthType, AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, IssuerUrl, Nonce, OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier,
    RedirectUrl, RequestTokenError, Scope, TokenResponse, TokenUrl,
};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::OnceCell;

/// Where providers send the browser back to, on the frame origin.
pub const CALLBACK_PATH: &str = "/wallet/v1/social/callback";
/// A login started and not finished within this long is refused.
pub const FLOW_TTL_MS: i64 = 10 * 60 * 1000;

/// The built-in providers, in the spec's order (farcaster is not configured here: it is
/// served from the chain, see farcaster.rs).
pub const BUILT_IN: [&str; 6] = ["google", "x", "discord", "github", "apple", "facebook"];

/// One `[[provider]]` of the socials file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    /// google, apple, x, discord, github, facebook, or a name of your own for an OpenID
    /// Connect issuer (lower-case letters, digits and '-').
    pub id: String,
    /// Shown on the button ("Continue with {label}"); the provider's name by default.
    pub label: Option<String>,
    pub client_id: String,
    pub client_secret: Option<String>,
    /// Apple: the client secret is a JWT signed with this key (the .p8 file), for this team
    /// and key id.
    pub team_id: Option<String>,
    pub key_id: Option<String>,
    pub key_file: Option<PathBuf>,
    /// OpenID Connect issuer (its discovery document is read from
    /// `{issuer}/.well-known/openid-configuration`).
    pub issuer: Option<String>,
    /// OAuth 2 endpoints (X, Discord, GitHub, Facebook, or your own).
    pub auth_url: Option<String>,
    pub token_url: Option<String>,
    /// Answers the user's id, name and email for the access token.
    pub user_url: Option<String>,
    /// GitHub's list of the user's emails with their verified flags.
    pub emails_url: Option<String>,
    pub scopes: Option<Vec<String>>,
    /// JSON pointers into the user endpoint's answer.
    pub fields: Option<Fields>,
}

/// Where a provider's user endpoint keeps each value (JSON pointers, e.g. "/data/id").
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Fields {
    pub id: String,
    pub username: Option<String>,
    pub email: Option<String>,
    /// A boolean; without it an email is taken as unverified.
    pub email_verified: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SocialsFile {
    #[serde(default, rename = "provider")]
    providers: Vec<ProviderConfig>,
}

#[derive(Debug, Clone)]
enum Protocol {
    Oidc { issuer: String },
    OAuth2 { auth_url: String, token_url: String, user_url: String, emails_url: Option<String>, fields: Fields },
}

/// A configured provider.
pub struct Provider {
    pub id: String,
    pub label: String,
    client_id: String,
    secret: Secret,
    protocol: Protocol,
    scopes: Vec<String>,
    auth_type: AuthType,
    /// Apple returns the code by a form POST when names or emails are asked for.
    form_post: bool,
    metadata: OnceCell<CoreProviderMetadata>,
}

enum Secret {
    None,
    Static(String),
    /// Apple's client secret: an ES256 JWT made from the team's key.
    AppleKey {
        team_id: String,
        key_id: String,
        key: p256::ecdsa::SigningKey,
    },
}

/// Why a provider's configuration or a login with it did not work, in words (a login's
/// reason is shown to the person).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SocialError(pub String);

impl From<String> for SocialError {
    fn from(s: String) -> SocialError {
        SocialError(s)
    }
}

impl From<&str> for SocialError {
    fn from(s: &str) -> SocialError {
        SocialError(s.to_owned())
    }
}

impl From<SocialError> for String {
    fn from(e: SocialError) -> String {
        e.0
    }
}

/// What a provider told us about the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub subject: String,
    pub username: Option<String>,
    pub email: Option<String>,
    pub email_verified: bool,
}

fn oauth2_defaults(id: &str) -> Option<(Protocol, Vec<&'static str>, AuthType)> {
    let fields = |id: &str, username: &str, email: Option<&str>, verified: Option<&str>| Fields {
        id: id.into(),
        username: Some(username.into()),
        email: email.map(Into::into),
        email_verified: verified.map(Into::into),
    };
    let oauth2 = |auth: &str, token: &str, user: &str, emails: Option<&str>, fields: Fields| Protocol::OAuth2 {
        auth_url: auth.into(),
        token_url: token.into(),
        user_url: user.into(),
        emails_url: emails.map(Into::into),
        fields,
    };
    Some(match id {
        "google" => (Protocol::Oidc { issuer: "https://accounts.google.com".into() }, vec!["openid", "email", "profile"], AuthType::BasicAuth),
        "apple" => (Protocol::Oidc { issuer: "https://appleid.apple.com".into() }, vec!["openid", "email", "name"], AuthType::RequestBody),
        "github" => (
            oauth2(
                "https://github.com/login/oauth/authorize",
                "https://github.com/login/oauth/access_token",
                "https://api.github.com/user",
                Some("https://api.github.com/user/emails"),
                fields("/id", "/login", None, None),
            ),
            vec!["read:user", "user:email"],
            AuthType::BasicAuth,
        ),
        "discord" => (
            oauth2(
                "https://discord.com/oauth2/authorize",
                "https://discord.com/api/oauth2/token",
                "https://discord.com/api/users/@me",
                None,
                fields("/id", "/username", Some("/email"), Some("/verified")),
            ),
            vec!["identify", "email"],
            AuthType::BasicAuth,
        ),
        "x" => (
            oauth2(
                "https://x.com/i/oauth2/authorize",
                "https://api.x.com/2/oauth2/token",
                "https://api.x.com/2/users/me",
                None,
                fields("/data/id", "/data/username", None, None),
            ),
            vec!["users.read", "tweet.read"],
            AuthType::BasicAuth,
        ),
        // Facebook gives no verified flag: its email never joins an existing user.
        "facebook" => (
            oauth2(
                "https://www.facebook.com/v21.0/dialog/oauth",
                "https://graph.facebook.com/v21.0/oauth/access_token",
                "https://graph.facebook.com/me?fields=id,name,email",
                None,
                fields("/id", "/name", Some("/email"), None),
            ),
            vec!["email", "public_profile"],
            AuthType::RequestBody,
        ),
        _ => return None,
    })
}

fn default_label(id: &str) -> String {
    match id {
        "google" => "Google".into(),
        "apple" => "Apple".into(),
        "github" => "GitHub".into(),
        "discord" => "Discord".into(),
        "x" => "X".into(),
        "facebook" => "Facebook".into(),
        other => other.into(),
    }
}

fn check_url(what: &str, url: &str) -> Result<String, SocialError> {
    let parsed = url::Url::parse(url).map_err(|e| SocialError(format!("{what} {url:?}: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("{what} {url:?}: not an http(s) URL").into());
    }
    Ok(url.trim_end_matches('/').to_owned())
}

impl Provider {
    /// A provider from its configuration, checked; the file's folder resolves `key_file`.
    pub fn new(c: ProviderConfig, base: &Path) -> Result<Provider, SocialError> {
        let id = c.id.trim().to_owned();
        if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
            return Err(format!("provider id {id:?}: 1 to 32 lower-case letters, digits or '-'").into());
        }
        if id == "farcaster" || id == "email" {
            return Err(format!("provider id {id:?} is reserved (Farcaster needs no configuration)").into());
        }
        let defaults = oauth2_defaults(&id);
        let own_oauth2 = c.auth_url.is_some() || c.token_url.is_some() || c.user_url.is_some();
        let protocol = match (&c.issuer, &defaults) {
            (Some(issuer), _) => Protocol::Oidc { issuer: check_url("issuer", issuer)? },
            (None, Some((Protocol::Oidc { issuer }, ..))) if !own_oauth2 => Protocol::Oidc { issuer: issuer.clone() },
            _ => {
                let default = match &defaults {
                    Some((Protocol::OAuth2 { auth_url, token_url, user_url, emails_url, fields }, ..)) => {
                        Some((auth_url.clone(), token_url.clone(), user_url.clone(), emails_url.clone(), fields.clone()))
                    }
                    _ => None,
                };
                let pick = |given: &Option<String>, default: Option<String>, what: &str| -> Result<String, SocialError> {
                    match given.clone().or(default) {
                        Some(url) => check_url(what, &url),
                        None => Err(format!("provider {id:?}: needs issuer (OpenID Connect) or auth_url, token_url and user_url (OAuth 2)").into()),
                    }
                };
                let d = default.clone();
                Protocol::OAuth2 {
                    auth_url: pick(&c.auth_url, d.as_ref().map(|d| d.0.clone()), "auth_url")?,
                    token_url: pick(&c.token_url, d.as_ref().map(|d| d.1.clone()), "token_url")?,
                    user_url: pick(&c.user_url, d.as_ref().map(|d| d.2.clone()), "user_url")?,
                    // Overriding the user endpoint drops the built-in emails endpoint unless given.
                    emails_url: match (&c.emails_url, c.user_url.is_some()) {
                        (Some(url), _) => Some(check_url("emails_url", url)?),
                        (None, false) => d.as_ref().and_then(|d| d.3.clone()),
                        (None, true) => None,
                    },
                    fields: c
                        .fields
                        .clone()
                        .or(d.map(|d| d.4))
                        .ok_or_else(|| format!("provider {id:?}: an OAuth 2 provider of your own needs [provider.fields] (id, username, email)"))?,
                }
            }
        };
        let secret = match (&c.client_secret, &c.key_file) {
            (Some(secret), _) => Secret::Static(secret.clone()),
            (None, Some(file)) => {
                use p256::pkcs8::DecodePrivateKey;
                let path = if file.is_absolute() { file.clone() } else { base.join(file) };
                let pem = std::fs::read_to_string(&path).map_err(|e| format!("provider {id:?}: key_file {}: {e}", path.display()))?;
                let key = p256::ecdsa::SigningKey::from_pkcs8_pem(&pem).map_err(|e| format!("provider {id:?}: key_file {}: {e}", path.display()))?;
                let (Some(team_id), Some(key_id)) = (c.team_id.clone(), c.key_id.clone()) else {
                    return Err(format!("provider {id:?}: key_file needs team_id and key_id").into());
                };
                Secret::AppleKey { team_id, key_id, key }
            }
            (None, None) => Secret::None,
        };
        if c.client_id.trim().is_empty() {
            return Err(format!("provider {id:?}: client_id is empty").into());
        }
        let scopes = match &c.scopes {
            Some(scopes) => scopes.clone(),
            None => match &defaults {
                Some((_, scopes, _)) if c.issuer.is_none() || matches!(id.as_str(), "google" | "apple") => scopes.iter().map(|s| s.to_string()).collect(),
                _ if matches!(protocol, Protocol::Oidc { .. }) => vec!["openid".into(), "email".into(), "profile".into()],
                _ => Vec::new(),
            },
        };
        if matches!(protocol, Protocol::Oidc { .. }) && !scopes.iter().any(|s| s == "openid") {
            return Err(format!("provider {id:?}: an OpenID Connect provider needs the openid scope").into());
        }
        let auth_type = defaults.as_ref().map(|d| d.2.clone()).unwrap_or(AuthType::BasicAuth);
        Ok(Provider {
            label: c.label.clone().unwrap_or_else(|| default_label(&id)),
            form_post: id == "apple" && scopes.iter().any(|s| s == "email" || s == "name"),
            id,
            client_id: c.client_id.trim().to_owned(),
            secret,
            protocol,
            scopes,
            auth_type,
            metadata: OnceCell::new(),
        })
    }

    pub fn is_oidc(&self) -> bool {
        matches!(self.protocol, Protocol::Oidc { .. })
    }

    fn client_secret(&self) -> Option<ClientSecret> {
        match &self.secret {
            Secret::None => None,
            Secret::Static(s) => Some(ClientSecret::new(s.clone())),
            Secret::AppleKey { team_id, key_id, key } => Some(ClientSecret::new(apple_client_secret(team_id, key_id, &self.client_id, key))),
        }
    }

    async fn metadata(&self, http: &reqwest::Client) -> Result<&CoreProviderMetadata, SocialError> {
        let Protocol::Oidc { issuer } = &self.protocol else { return Err("not an OpenID Connect provider".into()) };
        self.metadata
            .get_or_try_init(|| async {
                let issuer = IssuerUrl::new(issuer.clone()).map_err(|e| SocialError(e.to_string()))?;
                CoreProviderMetadata::discover_async(issuer, http)
                    .await
                    .map_err(|e| SocialError(format!("reading {}'s discovery document: {}", self.label, error_chain(&e))))
            })
            .await
    }

    async fn oidc_client(
        &self,
        http: &reqwest::Client,
        callback: &str,
    ) -> Result<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
        String,
    > {
        let meta = self.metadata(http).await?.clone();
        Ok(CoreClient::from_provider_metadata(meta, ClientId::new(self.client_id.clone()), self.client_secret())
            .set_auth_type(self.auth_type.clone())
            .set_redirect_uri(RedirectUrl::new(callback.to_owned()).map_err(|e| SocialError(e.to_string()))?))
    }

    fn oauth2_client(
        &self,
        callback: &str,
    ) -> Result<
        BasicClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointSet,
        >,
        String,
    > {
        let Protocol::OAuth2 { auth_url, token_url, .. } = &self.protocol else { return Err("not an OAuth 2 provider".into()) };
        let mut client = BasicClient::new(ClientId::new(self.client_id.clone()))
            .set_auth_uri(AuthUrl::new(auth_url.clone()).map_err(|e| SocialError(e.to_string()))?)
            .set_token_uri(TokenUrl::new(token_url.clone()).map_err(|e| SocialError(e.to_string()))?)
            .set_redirect_uri(RedirectUrl::new(callback.to_owned()).map_err(|e| SocialError(e.to_string()))?)
            .set_auth_type(self.auth_type.clone());
        if let Some(secret) = self.client_secret() {
            client = client.set_client_secret(secret);
        }
        Ok(client)
    }

    /// The URL that starts the login at the provider.
    pub async fn authorize_url(&self, http: &reqwest::Client, callback: &str, state: &str, nonce: &str, verifier: &str) -> Result<String, SocialError> {
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(verifier.to_owned()));
        let scopes = self.scopes.iter().map(|s| Scope::new(s.clone()));
        let url = if self.is_oidc() {
            let client = self.oidc_client(http, callback).await?;
            let (state, nonce) = (state.to_owned(), nonce.to_owned());
            let mut request = client
                .authorize_url(CoreAuthenticationFlow::AuthorizationCode, move || CsrfToken::new(state), move || Nonce::new(nonce))
                .add_scopes(scopes.filter(|s| s.as_str() != "openid"))
                .set_pkce_challenge(challenge);
            if self.form_post {
                request = request.add_extra_param("response_mode", "form_post");
            }
            request.url().0
        } else {
            self.oauth2_client(callback)?.authorize_url(|| CsrfToken::new(state.to_owned())).add_scopes(scopes).set_pkce_challenge(challenge).url().0
        };
        Ok(url.to_string())
    }

    /// Exchanges the code and reads who logged in. Errors are for the person (the catalogue's
    /// wording with the provider's reason).
    pub async fn identify(&self, http: &reqwest::Client, callback: &str, code: &str, verifier: &str, nonce: &str) -> Result<Identity, SocialError> {
        let refused = |e: String| SocialError(format!("{} refused the login: {e}", self.label));
        let unverified = |e: String| SocialError(format!("{}'s answer did not verify: {e}", self.label));
        match &self.protocol {
            Protocol::Oidc { .. } => {
                let client = self.oidc_client(http, callback).await?;
                let token = client
                    .exchange_code(AuthorizationCode::new(code.to_owned()))
                    .map_err(|e| refused(e.to_string()))?
                    .set_pkce_verifier(PkceCodeVerifier::new(verifier.to_owned()))
                    .request_async(http)
                    .await
                    .map_err(|e| refused(token_error(&e)))?;
                let id_token = token.id_token().ok_or_else(|| unverified("no ID token".into()))?;
                let claims = id_token.claims(&client.id_token_verifier(), &Nonce::new(nonce.to_owned())).map_err(|e| unverified(e.to_string()))?;
                let mut identity = Identity {
                    subject: claims.subject().to_string(),
                    username: claims.preferred_username().map(|u| u.to_string()).or_else(|| claims.name().and_then(|n| n.get(None)).map(|n| n.to_string())),
                    email: claims.email().map(|e| e.to_string()),
                    email_verified: claims.email_verified() == Some(true),
                };
                // Many providers give the email only from the user-info endpoint.
                if identity.email.is_none() || identity.username.is_none() {
                    if let Ok(request) = client.user_info(token.access_token().clone(), Some(claims.subject().clone())) {
                        if let Ok(info) = request.request_async::<openidconnect::EmptyAdditionalClaims, _, openidconnect::core::CoreGenderClaim>(http).await {
                            let info: openidconnect::UserInfoClaims<_, openidconnect::core::CoreGenderClaim> = info;
                            if identity.email.is_none() {
                                identity.email = info.email().map(|e| e.to_string());
                                identity.email_verified = info.email_verified() == Some(true);
                            }
                            if identity.username.is_none() {
                                identity.username =
                                    info.preferred_username().map(|u| u.to_string()).or_else(|| info.name().and_then(|n| n.get(None)).map(|n| n.to_string()));
                            }
                        }
                    }
                }
                Ok(identity)
            }
            Protocol::OAuth2 { user_url, emails_url, fields, .. } => {
                let token = self
                    .oauth2_client(callback)?
                    .exchange_code(AuthorizationCode::new(code.to_owned()))
                    .set_pkce_verifier(PkceCodeVerifier::new(verifier.to_owned()))
                    .request_async(http)
                    .await
                    .map_err(|e| refused(token_error(&e)))?;
                let bearer = token.access_token().secret();
                let user = get_json(http, user_url, bearer).await.map_err(|e| refused(e.0))?;
                let text = |pointer: &Option<String>| pointer.as_deref().and_then(|p| user.pointer(p)).and_then(json_text);
                let subject = user.pointer(&fields.id).and_then(json_text).ok_or_else(|| unverified(format!("no user id at {}", fields.id)))?;
                let mut identity = Identity {
                    subject,
                    username: text(&fields.username),
                    email: text(&fields.email),
                    email_verified: fields.email_verified.as_deref().and_then(|p| user.pointer(p)).and_then(Value::as_bool) == Some(true),
                };
                if let Some(emails_url) = emails_url {
                    // GitHub: the primary address and whether it is verified.
                    if let Ok(Value::Array(list)) = get_json(http, emails_url, bearer).await {
                        if let Some(primary) = list.iter().find(|e| e["primary"] == true) {
                            identity.email = primary["email"].as_str().map(Into::into);
                            identity.email_verified = primary["verified"] == true;
                        }
                    }
                }
                Ok(identity)
            }
        }
    }
}

fn json_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

fn token_error<RE: std::error::Error + 'static, T: oauth2::ErrorResponse + 'static>(e: &RequestTokenError<RE, T>) -> String {
    match e {
        RequestTokenError::ServerResponse(r) => {
            let value = serde_json::to_value(r).unwrap_or_default();
            match value["error_description"].as_str() {
                Some(d) => format!("{} ({d})", value["error"].as_str().unwrap_or("error")),
                None => value["error"].as_str().unwrap_or("error").to_owned(),
            }
        }
        other => error_chain(other),
    }
}

async fn get_json(http: &reqwest::Client, url: &str, bearer: &str) -> Result<Value, SocialError> {
    let res = http
        .get(url)
        .bearer_auth(bearer)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| format!("the user endpoint did not answer ({})", error_chain(&e)))?;
    if !res.status().is_success() {
        return Err(format!("the user endpoint answered {}", res.status()).into());
    }
    res.json().await.map_err(|e| SocialError(format!("the user endpoint's answer is not JSON ({e})")))
}

/// Apple's client secret: a JWT `{iss: team, sub: client, aud: appleid.apple.com}` signed
/// ES256 with the team's key, valid for 5 minutes (made for each exchange).
fn apple_client_secret(team_id: &str, key_id: &str, client_id: &str, key: &p256::ecdsa::SigningKey) -> String {
    use p256::ecdsa::signature::Signer;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_secs();
    let claims = serde_json::json!({"iss": team_id, "iat": now, "exp": now + 300, "aud": "https://appleid.apple.com", "sub": client_id});
    sigil_core::jwt::write("ES256", Some(key_id), &claims, |signed| {
        let signature: p256::ecdsa::Signature = key.sign(signed);
        signature.to_bytes().to_vec()
    })
}

/// The configured providers, in the file's order.
pub struct Socials {
    pub providers: Vec<Provider>,
    pub http: reqwest::Client,
}

impl std::fmt::Debug for Socials {
    /// Provider ids only: the configuration holds client secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.providers.iter().map(|p| &p.id)).finish()
    }
}

impl Socials {
    /// Reads the socials file; an empty list when there is none.
    pub fn load(file: Option<&Path>) -> Result<Socials, SocialError> {
        let http = reqwest::Client::builder()
            // A token endpoint that redirects is refused, not followed (RFC 6749 sends no redirects).
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(10))
            .user_agent("sigil")
            .build()
            .map_err(|e| SocialError(e.to_string()))?;
        let Some(file) = file else { return Ok(Socials { providers: Vec::new(), http }) };
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let parsed: SocialsFile = toml::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let base = file.parent().unwrap_or(Path::new("."));
        let mut seen = HashSet::new();
        let mut providers = Vec::new();
        for c in parsed.providers {
            let p = Provider::new(c, base).map_err(|e| format!("{}: {e}", file.display()))?;
            if !seen.insert(p.id.clone()) {
                return Err(format!("{}: provider {:?} is listed twice", file.display(), p.id).into());
            }
            providers.push(p);
        }
        Ok(Socials { providers, http })
    }

    pub fn get(&self, id: &str) -> Option<&Provider> {
        self.providers.iter().find(|p| p.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Socials, SocialError> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("socials.toml");
        std::fs::write(&file, text).unwrap();
        Socials::load(Some(&file))
    }

    #[test]
    fn built_in_providers_take_their_real_endpoints() {
        let s = parse(
            "[[provider]]\nid = \"github\"\nclient_id = \"a\"\nclient_secret = \"b\"\n[[provider]]\nid = \"google\"\nclient_id = \"c\"\nclient_secret = \"d\"\n",
        )
        .unwrap();
        assert_eq!(s.providers.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["github", "google"]);
        let github = s.get("github").unwrap();
        assert_eq!(github.label, "GitHub");
        let Protocol::OAuth2 { auth_url, emails_url, fields, .. } = &github.protocol else { panic!("github is OAuth 2") };
        assert_eq!(auth_url, "https://github.com/login/oauth/authorize");
        assert_eq!(emails_url.as_deref(), Some("https://api.github.com/user/emails"));
        assert_eq!(fields.username.as_deref(), Some("/login"));
        let Protocol::Oidc { issuer } = &s.get("google").unwrap().protocol else { panic!("google is OpenID Connect") };
        assert_eq!(issuer, "https://accounts.google.com");
        assert_eq!(s.get("google").unwrap().scopes, ["openid", "email", "profile"]);
    }

    #[test]
    fn endpoints_can_be_overridden_and_own_issuers_added() {
        let s = parse(
            r#"
[[provider]]
id = "google"
client_id = "c"
client_secret = "d"
issuer = "http://127.0.0.1:9999/"

[[provider]]
id = "github"
client_id = "a"
client_secret = "b"
auth_url = "http://127.0.0.1:9999/auth"
token_url = "http://127.0.0.1:9999/token"
user_url = "http://127.0.0.1:9999/me"
fields = { id = "/sub", username = "/preferred_username", email = "/email", email_verified = "/email_verified" }

[[provider]]
id = "company"
label = "Company login"
client_id = "e"
client_secret = "f"
issuer = "https://login.example.com/realms/main"
"#,
        )
        .unwrap();
        let Protocol::Oidc { issuer } = &s.get("google").unwrap().protocol else { panic!() };
        assert_eq!(issuer, "http://127.0.0.1:9999");
        let Protocol::OAuth2 { user_url, emails_url, fields, .. } = &s.get("github").unwrap().protocol else { panic!() };
        assert_eq!(user_url, "http://127.0.0.1:9999/me");
        assert_eq!(*emails_url, None, "an overridden user endpoint drops GitHub's emails endpoint");
        assert_eq!(fields.id, "/sub");
        let company = s.get("company").unwrap();
        assert!(company.is_oidc());
        assert_eq!(company.label, "Company login");
        assert_eq!(company.scopes, ["openid", "email", "profile"]);
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let base = "client_id = \"a\"\nclient_secret = \"b\"\n";
        for (text, expected) in [
            (format!("[[provider]]\nid = \"Google\"\n{base}"), "lower-case"),
            (format!("[[provider]]\nid = \"farcaster\"\n{base}"), "reserved"),
            (format!("[[provider]]\nid = \"mine\"\n{base}"), "needs issuer"),
            (format!("[[provider]]\nid = \"mine\"\n{base}auth_url = \"http://a/x\"\ntoken_url = \"http://a/t\"\nuser_url = \"http://a/u\"\n"), "fields"),
            (format!("[[provider]]\nid = \"x\"\n{base}[[provider]]\nid = \"x\"\n{base}"), "listed twice"),
            (format!("[[provider]]\nid = \"mine\"\n{base}issuer = \"ftp://a\"\n"), "not an http"),
            (format!("[[provider]]\nid = \"x\"\n{base}colour = 1\n"), "unknown field"),
            ("[[provider]]\nid = \"x\"\nclient_id = \" \"\n".to_owned(), "client_id is empty"),
            (format!("[[provider]]\nid = \"mine\"\n{base}issuer = \"http://a\"\nscopes = [\"email\"]\n"), "openid scope"),
        ] {
            let err = parse(&text).err().unwrap_or_else(|| panic!("accepted: {text}"));
            assert!(err.0.contains(expected), "{err} should say {expected}");
        }
    }

    #[test]
    fn apple_client_secret_is_an_es256_jwt_for_apple() {
        use base64::Engine;
        use p256::ecdsa::signature::Verifier;
        let key = p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap();
        let jwt = apple_client_secret("TEAM123456", "KEY1234567", "com.example.web", &key);
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let header: Value = serde_json::from_slice(&b64.decode(parts[0]).unwrap()).unwrap();
        let claims: Value = serde_json::from_slice(&b64.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(header, serde_json::json!({"alg": "ES256", "kid": "KEY1234567"}));
        assert_eq!(
            (claims["iss"].as_str(), claims["sub"].as_str(), claims["aud"].as_str()),
            (Some("TEAM123456"), Some("com.example.web"), Some("https://appleid.apple.com"))
        );
        let signature = p256::ecdsa::Signature::from_slice(&b64.decode(parts[2]).unwrap()).unwrap();
        key.verifying_key().verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &signature).unwrap();
    }
}
