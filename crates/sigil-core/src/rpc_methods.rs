//! Which JSON-RPC methods the public proxy forwards, per chain namespace. The proxy is reachable
//! from any page a project allows (with `*`, any page), so it forwards reads, filters and the
//! broadcast of transactions signed elsewhere, never a method that signs with a key the node
//! holds or changes the node itself.

use crate::caip::Namespace;

/// EVM reads (spec section 6: account, block, call, estimate, logs, receipts, balance), filters
/// and the broadcast of a signed transaction.
const EVM: &[&str] = &[
    "web3_clientVersion",
    "web3_sha3",
    "net_version",
    "net_listening",
    "eth_chainId",
    "eth_syncing",
    "eth_blockNumber",
    "eth_gasPrice",
    "eth_maxPriorityFeePerGas",
    "eth_blobBaseFee",
    "eth_feeHistory",
    "eth_getBalance",
    "eth_getStorageAt",
    "eth_getTransactionCount",
    "eth_getCode",
    "eth_getProof",
    "eth_call",
    "eth_estimateGas",
    "eth_createAccessList",
    "eth_simulateV1",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getBlockReceipts",
    "eth_getBlockTransactionCountByHash",
    "eth_getBlockTransactionCountByNumber",
    "eth_getUncleCountByBlockHash",
    "eth_getUncleCountByBlockNumber",
    "eth_getUncleByBlockHashAndIndex",
    "eth_getUncleByBlockNumberAndIndex",
    "eth_getTransactionByHash",
    "eth_getTransactionByBlockHashAndIndex",
    "eth_getTransactionByBlockNumberAndIndex",
    "eth_getTransactionReceipt",
    "eth_getLogs",
    "eth_newFilter",
    "eth_newBlockFilter",
    "eth_newPendingTransactionFilter",
    "eth_getFilterChanges",
    "eth_getFilterLogs",
    "eth_uninstallFilter",
    "eth_sendRawTransaction",
];

/// Solana reads and the broadcast or simulation of a signed transaction.
const SOLANA: &[&str] = &[
    "getAccountInfo",
    "getBalance",
    "getBlock",
    "getBlockHeight",
    "getBlockTime",
    "getEpochInfo",
    "getFeeForMessage",
    "getGenesisHash",
    "getHealth",
    "getLatestBlockhash",
    "getMinimumBalanceForRentExemption",
    "getMultipleAccounts",
    "getRecentPrioritizationFees",
    "getSignatureStatuses",
    "getSignaturesForAddress",
    "getSlot",
    "getTokenAccountBalance",
    "getTokenAccountsByOwner",
    "getTokenSupply",
    "getTransaction",
    "getVersion",
    "isBlockhashValid",
    "sendTransaction",
    "simulateTransaction",
];

/// The methods the proxy forwards by default for chains of `namespace`.
pub fn default_allowed(namespace: Namespace) -> &'static [&'static str] {
    match namespace {
        Namespace::Eip155 => EVM,
        Namespace::Solana => SOLANA,
        Namespace::Polkadot | Namespace::Bip122 | Namespace::Cosmos => &[],
    }
}

/// Methods that sign with a node-held key, or administer, mine, debug or rewrite the node:
/// refused even when an operator lists them.
pub fn is_never_allowed(method: &str) -> bool {
    const EXACT: &[&str] = &["eth_sendTransaction", "eth_accounts", "eth_requestAccounts", "eth_coinbase"];
    const PREFIXES: &[&str] = &[
        "eth_sign",
        "personal_",
        "wallet_",
        "anvil_",
        "evm_",
        "hardhat_",
        "ganache_",
        "debug_",
        "admin_",
        "miner_",
        "engine_",
        "clique_",
        "txpool_",
        "parity_",
        "signer_",
    ];
    EXACT.contains(&method) || PREFIXES.iter().any(|p| method.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_never_hold_a_forbidden_method() {
        for ns in Namespace::ALL {
            for m in default_allowed(ns) {
                assert!(!is_never_allowed(m), "{m}");
            }
        }
    }

    #[test]
    fn signing_and_node_admin_methods_are_forbidden() {
        for m in [
            "eth_sendTransaction",
            "eth_sign",
            "eth_signTypedData_v4",
            "eth_signTransaction",
            "personal_sign",
            "personal_unlockAccount",
            "anvil_setBalance",
            "anvil_impersonateAccount",
            "evm_mine",
            "evm_snapshot",
            "hardhat_setCode",
            "debug_traceTransaction",
            "debug_setHead",
            "admin_addPeer",
            "miner_start",
            "eth_accounts",
            "wallet_addEthereumChain",
        ] {
            assert!(is_never_allowed(m), "{m}");
        }
        for m in ["eth_call", "eth_sendRawTransaction", "eth_getLogs", "getBalance", "sendTransaction", "trace_block", "requestAirdrop"] {
            assert!(!is_never_allowed(m), "{m}");
        }
    }
}
