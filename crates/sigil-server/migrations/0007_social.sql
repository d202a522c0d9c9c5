-- Social login (and Sign In With Farcaster) for the embedded wallet. Times are unix milliseconds.

-- A user who came by a social login that gave no verified email has none: wallet_users.email
-- becomes nullable (rebuilt, as SQLite cannot drop a NOT NULL).
CREATE TABLE wallet_users_new (
    id TEXT PRIMARY KEY,
    email TEXT UNIQUE,
    created_at BIGINT NOT NULL
);
INSERT INTO wallet_users_new (id, email, created_at) SELECT id, email, created_at FROM wallet_users;
DROP TABLE wallet_users;
ALTER TABLE wallet_users_new RENAME TO wallet_users;

-- Social logins: the provider's account (its subject) and the user it is.
CREATE TABLE wallet_socials (
    provider TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id TEXT NOT NULL,
    username TEXT,
    PRIMARY KEY (provider, subject)
);

-- A social login (or a Farcaster channel) under way: single use, 10 minutes. The state is
-- stored hashed; the PKCE verifier and nonce never leave the server and are emptied once the
-- provider has answered; the result waits here for the frame on the device that started it.
CREATE TABLE wallet_social_flows (
    state_hash TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    pkce_verifier TEXT NOT NULL,
    nonce TEXT NOT NULL,
    device_id TEXT NOT NULL,
    -- Where a full-page login returns to (an allowed origin of the project), or NULL (popup).
    return_url TEXT,
    created_at BIGINT NOT NULL,
    -- Set when the provider came back, so a callback is handled once.
    returned_at BIGINT,
    -- The outcome: the user and name, or why it failed.
    user_id TEXT,
    username TEXT,
    failure TEXT,
    claimed_at BIGINT
);
