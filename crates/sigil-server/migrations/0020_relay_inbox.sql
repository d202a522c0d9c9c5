-- The relay's inbox on SQLite (issue 29): a publish is answered once its message is committed,
-- and a commit rewrites every page it touches. Written straight into relay_messages and
-- relay_acks, a batch of messages on different topics touches a page of each index per topic;
-- appended here it touches the last page or two. The writer moves the inbox into those tables
-- in one transaction every second, and before anything reads them. Unused on
-- PostgreSQL, whose batches go straight to the tables.
CREATE TABLE relay_inbox_messages (
    topic TEXT NOT NULL,
    id TEXT NOT NULL,
    message TEXT NOT NULL,
    tag BIGINT NOT NULL,
    attestation TEXT,
    publisher TEXT NOT NULL,
    publisher_address TEXT NOT NULL,
    published_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    bytes BIGINT NOT NULL
);
CREATE TABLE relay_inbox_acks (
    topic TEXT NOT NULL,
    id TEXT NOT NULL,
    client TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
