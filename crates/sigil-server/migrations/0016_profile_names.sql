-- Account names (the profile area, /v1/profile/*): a name under one of the operator's zones,
-- registered by the address that signed for it. name is the whole name in its ENSIP-15 normal
-- form (alice.sigil.id) and the key that makes a registration race have one winner; zone is the
-- configured zone it is under; coin_type the ENSIP-11 coin type of the chain it was registered
-- for (60: Ethereum, 0x80000000 | chainId elsewhere) and address the EVM address it gives that
-- coin type, lower-case; attributes a JSON object of text records; times are unix seconds.
CREATE TABLE profile_names (
    name TEXT PRIMARY KEY,
    zone TEXT NOT NULL,
    coin_type BIGINT NOT NULL,
    address TEXT NOT NULL,
    attributes TEXT NOT NULL,
    registered_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX profile_names_address ON profile_names (address, zone);
