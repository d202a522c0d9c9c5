//! Sign In With Farcaster, served by Sigil itself (the channel flow): the frame opens a
//! channel and shows its URL as a QR code; the Farcaster app signs a SIWE-shaped message with
//! the fid's custody key and posts it to the channel; the message is verified here against
//! the custody address that the ID registry contract holds for that fid (read through the
//! RPC proxy), and the frame on the device that opened the channel claims the login.

use std::sync::Arc;

use serde::Deserialize;
use sigil_core::evm;
use sigil_core::siwx::{self, SignInMessage};
use utoipa::ToSchema;

use super::login::{random_token, FARCASTER};
use super::social::{Identity, FLOW_TTL_MS};
use super::{device_id, hash, store, Wallets};
use crate::db::now_ms;
use crate::error::{ApiError, ErrorCode};
use crate::rpc::calls::{eth_call, hex_result};
use crate::rpc::Rpc;

/// Where the Farcaster app posts the signed message (on the frame origin).
pub const AUTHENTICATE_PATH: &str = "/farcaster/v1/channel/authenticate";
/// Sign In With Farcaster messages name OP Mainnet, where the ID registry lives.
pub const SIWF_CHAIN_ID: &str = "10";

/// Where the custody addresses are read.
pub struct Registry<'a> {
    /// CAIP-2 chain served by the proxy.
    pub chain: &'a str,
    /// The ID registry contract.
    pub address: &'a str,
}

/// What the Farcaster app posts (the channel token is its bearer token).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Authenticate {
    pub message: String,
    /// 65-byte EIP-191 signature, hex.
    pub signature: String,
    pub fid: u64,
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub bio: Option<String>,
    pub pfp_url: Option<String>,
}

fn refused(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(ErrorCode::InvalidSignature, message)
}

impl Wallets {
    /// Opens a channel: the URL for the Farcaster app (shown as a QR code and a link) and the
    /// channel token the frame claims the login with.
    pub async fn farcaster_start(&self, device_secret: &str, app_url: &str) -> Result<(String, String), ApiError> {
        let device = device_id(device_secret)?;
        let (token, nonce) = (random_token(32), random_token(12).replace(['-', '_'], "0"));
        store::flows::start(&self.db, &hash(&token), FARCASTER, "channel", &nonce, &device, None, now_ms()).await?;
        let mut url = url::Url::parse(app_url).map_err(ApiError::internal)?;
        url.query_pairs_mut()
            .append_pair("channelToken", &token)
            .append_pair("nonce", &nonce)
            .append_pair("domain", &self.frame_authority())
            .append_pair("siweUri", &self.frame_url)
            .append_pair("relay", &format!("{}{AUTHENTICATE_PATH}", self.frame_url));
        Ok((url.to_string(), token))
    }

    fn frame_authority(&self) -> String {
        url::Url::parse(&self.frame_url).ok().map(|u| u.authority().to_owned()).unwrap_or_default()
    }

    /// The Farcaster app's signed message for a channel: verified (domain, URI, nonce, fid
    /// resource, times, and a signature by the fid's custody address), then the login is done.
    pub async fn farcaster_authenticate(&self, rpc: &Arc<Rpc>, registry: &Registry<'_>, token: &str, req: &Authenticate) -> Result<String, ApiError> {
        let Some(flow) = store::flows::get(&self.db, &hash(token)).await?.filter(|f| f.provider == FARCASTER) else { return Err(ApiError::unauthorized()) };
        if flow.user_id.is_some() || flow.failure.is_some() {
            return Err(ApiError::bad_request(ErrorCode::NonceUsed, "This channel is already completed"));
        }
        let (nonce, created_at) = (flow.nonce, flow.created_at);
        if now_ms() - created_at > FLOW_TTL_MS {
            return Err(ApiError::bad_request(ErrorCode::NonceExpired, "This channel expired: open a new one"));
        }
        // A refused message does not end the channel: anyone who saw its QR code holds its token.
        // Its reason is kept for the frame waiting on it, which shows it while the channel stays
        // open for the app's own message (the app is told too).
        if let Err(refusal) = self.verify_farcaster(rpc, registry, &nonce, req).await {
            if matches!(refusal.code, ErrorCode::InvalidMessage | ErrorCode::InvalidSignature) {
                store::flows::set_refusal(&self.db, &hash(token), &refusal.message).await?;
                self.flow_done.notify_waiters();
            }
            return Err(refusal);
        }
        let username = req.username.clone().filter(|u| !u.trim().is_empty()).unwrap_or_else(|| format!("fid:{}", req.fid));
        let identity = Identity { subject: req.fid.to_string(), username: Some(username.clone()), email: None, email_verified: false };
        let user_id = self.social_user(FARCASTER, &identity).await?;
        if !self.finish_flow(token, Ok((&user_id, Some(&username), None))).await? {
            return Err(ApiError::bad_request(ErrorCode::NonceUsed, "This channel is already completed"));
        }
        Ok(username)
    }

    /// Checks the app's signed message against the channel: domain, URI, nonce, chain, fid
    /// resource, times, and a signature by the fid's custody address.
    async fn verify_farcaster(&self, rpc: &Arc<Rpc>, registry: &Registry<'_>, nonce: &str, req: &Authenticate) -> Result<(), ApiError> {
        let message = SignInMessage::parse(&req.message).map_err(|e| ApiError::bad_request(ErrorCode::InvalidMessage, e.to_string()))?;
        let expected_domain = self.frame_authority();
        if message.domain != expected_domain {
            return Err(refused(format!("The message is for {}, not {expected_domain}", message.domain)));
        }
        if message.uri != self.frame_url {
            return Err(refused(format!("The message's URI is {}, not {}", message.uri, self.frame_url)));
        }
        if message.nonce != nonce {
            return Err(refused("The message's nonce is not this channel's"));
        }
        if message.chain_id != SIWF_CHAIN_ID {
            return Err(refused(format!("Sign In With Farcaster messages name chain {SIWF_CHAIN_ID}, not {}", message.chain_id)));
        }
        let resource = format!("farcaster://fid/{}", req.fid);
        if !message.resources.contains(&resource) {
            return Err(refused(format!("The message does not name {resource}")));
        }
        message.check_time(siwx::OffsetDateTime::now_utc()).map_err(|e| refused(e.to_string()))?;
        let signature = siwx::decode_hex(&req.signature).map_err(|e| refused(e.to_string()))?;
        let signer = evm::recover_personal_sign(req.message.as_bytes(), &signature).map_err(|e| refused(e.to_string()))?;
        let custody = self.custody_of(rpc, registry, req.fid).await?;
        if custody != Some(signer) || evm::parse_address(&message.address) != Some(signer) {
            return Err(refused(format!("The message is not signed by the custody address of fid {}", req.fid)));
        }
        Ok(())
    }

    /// The fid's custody address in the ID registry; None when it has none.
    async fn custody_of(&self, rpc: &Arc<Rpc>, registry: &Registry<'_>, fid: u64) -> Result<Option<evm::Address>, ApiError> {
        if rpc.chains().get(registry.chain).is_none() {
            return Err(ApiError::unavailable(format!("the Farcaster ID registry's chain {} is not served here", registry.chain)));
        }
        let call = eth_call(registry.address, &evm::call_data(&evm::custodyOfCall { fid: evm::U256::from(fid) }));
        let reply = rpc
            .call(registry.chain, &call.method, call.params.as_deref())
            .await
            .map_err(|e| ApiError::new(axum::http::StatusCode::BAD_GATEWAY, ErrorCode::UpstreamUnavailable, e.to_string()))?;
        let custody = hex_result(&reply).as_deref().and_then(evm::decode_return::<evm::custodyOfCall>);
        Ok(custody.filter(|a| !a.is_zero()))
    }
}
