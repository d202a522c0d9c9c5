-- Transaction history from a chain's history upstream (an explorer: Blockscout or Etherscan):
-- an address's history older than the index's first block is read once, into the history
-- tables, when its pages first reach the bottom of the index. One row per address asked:
-- claimed_until (unix milliseconds) is when the claim of a fill in progress, or the wait after
-- a failed one, ends; filled is 1 once its older history is stored (0: not yet).
CREATE TABLE history_upstream_fills (
    chain TEXT NOT NULL,
    address TEXT NOT NULL,
    claimed_until BIGINT NOT NULL,
    filled BIGINT NOT NULL,
    PRIMARY KEY (chain, address)
);
