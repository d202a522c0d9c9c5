//! Account data: balances (native and configured ERC-20 tokens, with fiat values) and prices.

pub mod evm;
pub mod prices;
pub mod routes;
