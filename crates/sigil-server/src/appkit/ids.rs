//! The image ids the AppKit client (up to 1.8.0) asks `/public/getAssetImage/{id}` for: its
//! networks' and its connectors' (facts from its sources: `PresetsUtil.NetworkImageIds` and
//! `ConnectorImageIds` in packages/appkit-utils, the namespace ids in
//! packages/controllers/src/utils/AssetUtil.ts). Each is drawn as this server draws the network
//! or wallet it stands for.

/// What an AppKit image id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A network, by CAIP-2 id: the image `/public/getAssetImage/{caip2}` gives.
    Network(&'static str),
    /// A connector: the icon set's wallet of that name, when there is one, else initials.
    Connector(Option<&'static str>),
}

/// One AppKit image id: what it stands for and the label its generated image shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageId {
    pub id: &'static str,
    pub target: Target,
    pub label: &'static str,
}

const fn network(id: &'static str, caip2: &'static str, label: &'static str) -> ImageId {
    ImageId { id, target: Target::Network(caip2), label }
}

const fn connector(id: &'static str, icon: Option<&'static str>, label: &'static str) -> ImageId {
    ImageId { id, target: Target::Connector(icon), label }
}

pub const IMAGE_IDS: &[ImageId] = &[
    network("ba0ba0cd-17c6-4806-ad93-f9d174f17900", "eip155:1", "Ethereum"),
    network("3bff954d-5cb0-47a0-9a23-d20192e74600", "eip155:42161", "Arbitrum"),
    network("30c46e53-e989-45fb-4549-be3bd4eb3b00", "eip155:43114", "Avalanche"),
    network("93564157-2e8e-4ce7-81df-b264dbee9b00", "eip155:56", "BNB Chain"),
    network("06b26297-fe0c-4733-5d6b-ffa5498aac00", "eip155:250", "Fantom"),
    network("ab9c186a-c52f-464b-2906-ca59d760a400", "eip155:10", "Optimism"),
    network("41d04d42-da3b-4453-8506-668cc0727900", "eip155:137", "Polygon"),
    network("e86fae9b-b770-4eea-e520-150e12c81100", "eip155:5000", "Mantle"),
    network("6a97d510-cac8-4e58-c7ce-e8681b044c00", "eip155:295", "Hedera"),
    network("e909ea0a-f92a-4512-c8fc-748044ea6800", "eip155:11155111", "Sepolia"),
    network("a18a7ecd-e307-4360-4746-283182228e00", "eip155:84532", "Base Sepolia"),
    network("4eeea7ef-0014-4649-5d1d-07271a80f600", "eip155:1301", "Unichain Sepolia"),
    network("2257980a-3463-48c6-cbac-a42d2a956e00", "eip155:130", "Unichain"),
    network("0a728e83-bacb-46db-7844-948f05434900", "eip155:10143", "Monad Testnet"),
    network("02b53f6a-e3d4-479e-1cb4-21178987d100", "eip155:100", "Gnosis"),
    network("f926ff41-260d-4028-635e-91913fc28e00", "eip155:9001", "Evmos"),
    network("b310f07f-4ef7-49f3-7073-2a0a39685800", "eip155:324", "zkSync"),
    network("5a73b3dd-af74-424e-cae0-0de859ee9400", "eip155:314", "Filecoin"),
    network("34e68754-e536-40da-c153-6ef2e7188a00", "eip155:4689", "IoTeX"),
    network("3897a66d-40b9-4833-162f-a2c90531c900", "eip155:1088", "Metis"),
    network("161038da-44ae-4ec7-1208-0ea569454b00", "eip155:1284", "Moonbeam"),
    network("f1d73bb6-5450-4e18-38f7-fb6484264a00", "eip155:1285", "Moonriver"),
    network("845c60df-d429-4991-e687-91ae45791600", "eip155:7777777", "Zora"),
    network("ab781bbc-ccc6-418d-d32d-789b15da1f00", "eip155:42220", "Celo"),
    network("7289c336-3981-4081-c5f4-efc26ac64a00", "eip155:8453", "Base"),
    network("3ff73439-a619-4894-9262-4470c773a100", "eip155:1313161554", "Aurora"),
    network("b8101fc0-9c19-4b6f-ec65-f6dfff106e00", "eip155:2020", "Ronin"),
    network("e329c2c9-59b0-4a02-83e4-212ff3779900", "eip155:80094", "Berachain"),
    network("fc2427d1-5af9-4a9c-8da5-6f94627cd900", "eip155:2741", "Abstract"),
    network("a1b58899-f671-4276-6a5e-56ca5bd59700", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "Solana"),
    network("0b4838db-0161-4ffe-022d-532bf03dba00", "bip122:000000000019d6689c085ae165831e93", "Bitcoin"),
    network("39354064-d79b-420b-065d-f980c4b78200", "bip122:000000000933ea01ad0ee984209779ba", "Bitcoin Testnet"),
    connector("0c2840c3-5b04-4c44-9661-fbd4b49e1800", Some("coinbase"), "Coinbase"),
    connector("461db637-8616-43ce-035a-d89b8a1d5800", Some("safe"), "Safe"),
    connector("54a1aa77-d202-4f8d-0fb2-5d2bb6db0300", Some("ledger"), "Ledger"),
    connector("ef1a1fcf-7fe8-4d69-bd6d-fda1345b4400", None, "WalletConnect"),
    connector("07ba87ed-43aa-4adf-4540-9e6a2b9cae00", None, "Browser Wallet"),
];

/// The AppKit image id `id`, when it is one (ids compare in any case).
pub fn image_id(id: &str) -> Option<&'static ImageId> {
    IMAGE_IDS.iter().find(|i| i.id.eq_ignore_ascii_case(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_resolve() {
        let mut ids: Vec<&str> = IMAGE_IDS.iter().map(|i| i.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), IMAGE_IDS.len());
        assert_eq!(image_id("BA0BA0CD-17C6-4806-AD93-F9D174F17900").map(|i| i.target), Some(Target::Network("eip155:1")));
        assert_eq!(image_id("eip155:1"), None);
        for i in IMAGE_IDS {
            if let Target::Connector(Some(icon)) = i.target {
                assert!(sigil_core::icons::wallet_named(icon).is_some(), "{icon}");
            }
        }
    }
}
