-- Sign-in with the wallet: single-use nonces and sessions. Times are unix milliseconds.

CREATE TABLE auth_nonces (
    nonce TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);

CREATE TABLE auth_sessions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    -- sha256 of the bearer token; the token itself is never stored.
    token_hash TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL,
    chain_id TEXT NOT NULL,
    message TEXT NOT NULL,
    signature TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX auth_sessions_account ON auth_sessions (project_id, account, chain_id);
