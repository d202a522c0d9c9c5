-- The wallet directory's version: every import that changes something bumps it, and each server
-- process reloads its in-memory copy of the directory when it sees a new one.
CREATE TABLE directory_meta (
    id BIGINT PRIMARY KEY,
    version BIGINT NOT NULL
);
INSERT INTO directory_meta (id, version) VALUES (1, 1);
