-- A transaction's nonce may be unknown: the indexer reads chains whose node traces (trace_filter)
-- without each transaction's body, and the history route asks for the nonces a page shows.
-- One table rebuild, which SQLite and PostgreSQL both run (SQLite cannot drop NOT NULL).
CREATE TABLE history_txs_next (
    chain TEXT NOT NULL,
    hash TEXT NOT NULL,
    block BIGINT NOT NULL,
    tx_index BIGINT NOT NULL,
    mined_at BIGINT NOT NULL,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    value TEXT NOT NULL,
    nonce BIGINT,
    -- 1 succeeded, 0 failed (reverted).
    status BIGINT NOT NULL,
    PRIMARY KEY (chain, hash)
);
INSERT INTO history_txs_next (chain, hash, block, tx_index, mined_at, sender, recipient, value, nonce, status)
    SELECT chain, hash, block, tx_index, mined_at, sender, recipient, value, nonce, status FROM history_txs;
DROP TABLE history_txs;
ALTER TABLE history_txs_next RENAME TO history_txs;
CREATE INDEX history_txs_block ON history_txs (chain, block);
