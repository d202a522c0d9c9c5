//! Pure domain logic shared by the Sigil server and tools. Nothing here does I/O.

pub mod amount;
pub mod caip;
pub mod catalogue;
pub mod ccip;
pub mod ens;
pub mod errors;
pub mod evm;
pub mod icons;
pub mod jwt;
pub mod logo;
pub mod origin;
pub mod project;
pub mod relay_auth;
pub mod rpc_methods;
pub mod siwx;
pub mod template;
pub mod wallet_id;
