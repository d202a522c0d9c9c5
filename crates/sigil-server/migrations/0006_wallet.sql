-- Embedded wallets: users by email, their keys (encrypted; the key-encryption key is never
-- here), the devices they approved, one-time codes (hashed) and sessions (token hashes).
-- Times are unix milliseconds.
CREATE TABLE wallet_users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE wallet_keys (
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    address TEXT NOT NULL,
    -- base64(nonce || AES-256-GCM ciphertext), bound to user id and kind.
    sealed TEXT NOT NULL,
    kek_id TEXT NOT NULL,
    PRIMARY KEY (user_id, kind)
);

CREATE TABLE wallet_devices (
    email TEXT NOT NULL,
    device_id TEXT NOT NULL,
    -- sha256 of the approval link's token.
    approve_hash TEXT NOT NULL,
    approved_at BIGINT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (email, device_id)
);

CREATE TABLE wallet_codes (
    email TEXT NOT NULL,
    purpose TEXT NOT NULL,
    -- sha256 of the code with its email and purpose.
    code_hash TEXT NOT NULL,
    sent_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    tries BIGINT NOT NULL,
    -- What confirming it does (the new address of an email change).
    payload TEXT,
    PRIMARY KEY (email, purpose)
);

CREATE TABLE wallet_sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX wallet_sessions_user ON wallet_sessions (user_id);
