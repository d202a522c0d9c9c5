-- Transaction history (issue: Activity): what the indexer read from each EVM chain. Amounts and
-- values are decimal strings of the smallest unit; addresses are 0x and lower-case hex; times
-- are unix seconds (block timestamps) or unix milliseconds (leases).

-- Top-level transactions. recipient is the created contract for a contract creation.
CREATE TABLE history_txs (
    chain TEXT NOT NULL,
    hash TEXT NOT NULL,
    block BIGINT NOT NULL,
    tx_index BIGINT NOT NULL,
    mined_at BIGINT NOT NULL,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    value TEXT NOT NULL,
    nonce BIGINT NOT NULL,
    -- 1 succeeded, 0 failed (reverted).
    status BIGINT NOT NULL,
    PRIMARY KEY (chain, hash)
);
CREATE INDEX history_txs_block ON history_txs (chain, block);

-- What moved in each transaction, and its approvals. seq orders them in the transaction: -1 the
-- transaction's own value, below that internal transfers (traces), from 0 log index x 1024 +
-- the item of an ERC-1155 batch. kind: native, internal, erc20, erc721, erc1155, approval.
CREATE TABLE history_transfers (
    chain TEXT NOT NULL,
    hash TEXT NOT NULL,
    seq BIGINT NOT NULL,
    block BIGINT NOT NULL,
    kind TEXT NOT NULL,
    -- The token contract; '' for the chain's coin.
    token TEXT NOT NULL,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    -- '' for fungible transfers.
    token_id TEXT NOT NULL,
    amount TEXT NOT NULL,
    PRIMARY KEY (chain, hash, seq)
);
CREATE INDEX history_transfers_block ON history_transfers (chain, block);

-- Each transaction once for every address it touches (sender, recipient, either side of a
-- transfer, an approval's owner): an account's pages are one index range, newest first.
-- spam: NULL, 'zero-value' or 'lookalike' (address poisoning), as judged for this address.
CREATE TABLE history_appearances (
    chain TEXT NOT NULL,
    address TEXT NOT NULL,
    block BIGINT NOT NULL,
    tx_index BIGINT NOT NULL,
    hash TEXT NOT NULL,
    spam TEXT,
    PRIMARY KEY (chain, address, block, tx_index)
);
CREATE INDEX history_appearances_block ON history_appearances (chain, block);

-- Token metadata, from the chain's token list or read once on chain.
CREATE TABLE history_tokens (
    chain TEXT NOT NULL,
    address TEXT NOT NULL,
    name TEXT NOT NULL,
    symbol TEXT NOT NULL,
    decimals BIGINT NOT NULL,
    PRIMARY KEY (chain, address)
);

-- Where each chain's indexing goes on: the next block to read.
CREATE TABLE history_cursors (
    chain TEXT PRIMARY KEY,
    next_block BIGINT NOT NULL
);

-- The hashes of the last blocks read (as deep as a reorganisation is followed back).
CREATE TABLE history_blocks (
    chain TEXT NOT NULL,
    number BIGINT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (chain, number)
);

-- One indexer per chain across processes: the holder renews its lease each cycle; another
-- process takes the chain over once it has expired.
CREATE TABLE history_leases (
    chain TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
