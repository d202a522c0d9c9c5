-- Portable across SQLite and PostgreSQL: TEXT, BIGINT, no engine-specific types.
-- Times are unix milliseconds. JSON is stored as TEXT.

CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    allowed_origins TEXT NOT NULL,
    features TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE wallets (
    id TEXT PRIMARY KEY,
    -- Rank by (order, lower-case name, id), computed at import so paging is identical on both engines.
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    search_text TEXT NOT NULL,
    rdns TEXT,
    image_id TEXT NOT NULL,
    badge_type TEXT NOT NULL,
    doc TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX wallets_position ON wallets (position);
CREATE INDEX wallets_image_id ON wallets (image_id);
CREATE INDEX wallets_rdns ON wallets (rdns);

CREATE TABLE wallet_chains (
    wallet_id TEXT NOT NULL,
    chain TEXT NOT NULL,
    PRIMARY KEY (wallet_id, chain)
);
CREATE INDEX wallet_chains_chain ON wallet_chains (chain);

-- Logo bytes, base64 in TEXT (portable), keyed by the wallet's image id.
CREATE TABLE wallet_logos (
    image_id TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    data_base64 TEXT NOT NULL,
    etag TEXT NOT NULL
);

CREATE TABLE analytics_events (
    event_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    url TEXT NOT NULL,
    domain TEXT NOT NULL,
    event_timestamp BIGINT NOT NULL,
    props TEXT NOT NULL,
    sdk_type TEXT,
    sdk_version TEXT,
    client_address TEXT,
    received_at BIGINT NOT NULL
);
CREATE INDEX analytics_events_project ON analytics_events (project_id, received_at);
