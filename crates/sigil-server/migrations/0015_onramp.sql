-- Onramp sessions (POST /v1/generators/onrampurl): one buy a person was sent to a provider for.
-- id is the random, unguessable session id (also the provider's partner reference); amounts are
-- decimal strings (fiat in its currency, the purchase in the asset's units); times are unix
-- milliseconds. status: pending, paying (the sandbox is sending), completed or failed; failure
-- says why a failed one failed.
CREATE TABLE onramp_sessions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    address TEXT NOT NULL,
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    fiat_amount TEXT NOT NULL,
    fiat_currency TEXT NOT NULL,
    purchase_amount TEXT,
    status TEXT NOT NULL,
    tx_hash TEXT,
    failure TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
