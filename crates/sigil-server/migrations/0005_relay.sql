-- WalletConnect relay mailbox: every published message waits here until its TTL ends or a
-- recipient acknowledges it. Times are unix milliseconds; seq orders a topic's messages.
CREATE TABLE relay_messages (
    topic TEXT NOT NULL,
    -- sha256 of the message text, hex: the same message published twice is one message.
    id TEXT NOT NULL,
    message TEXT NOT NULL,
    tag BIGINT NOT NULL,
    -- The dapp's Verify attestation, passed through unchanged ('' is a value; NULL: none).
    attestation TEXT,
    -- The publishing client's id (its JWT issuer): it never receives its own message.
    publisher TEXT NOT NULL,
    published_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    PRIMARY KEY (topic, id)
);
CREATE INDEX relay_messages_topic_seq ON relay_messages (topic, seq);
CREATE INDEX relay_messages_expires ON relay_messages (expires_at);
