-- The relay's mailbox limits and acknowledgements per subscriber (issue 20). Times are unix
-- milliseconds.

-- Each message's size and the address it was published from: what one client identity and one
-- address may hold in the mailbox is limited.
ALTER TABLE relay_messages ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE relay_messages ADD COLUMN publisher_address TEXT NOT NULL DEFAULT '';
UPDATE relay_messages SET bytes = LENGTH(message);

-- A client's acknowledgement (or receipt) of a message is its own: the message is never sent
-- to that client again and stays for the topic's other subscribers until its TTL ends.
CREATE TABLE relay_acks (
    topic TEXT NOT NULL,
    id TEXT NOT NULL,
    client TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (topic, id, client)
);
CREATE INDEX relay_acks_expires ON relay_acks (expires_at);

-- Clients another client has acknowledged a message from: their undelivered messages keep
-- their whole TTL; an unknown client's live at most --relay-unknown-client-ttl.
CREATE TABLE relay_clients (
    client TEXT PRIMARY KEY,
    known_at BIGINT NOT NULL
);
