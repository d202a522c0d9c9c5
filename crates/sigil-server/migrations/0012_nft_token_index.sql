-- NFTs: the image route fetches metadata and images only for tokens the history index has seen
-- moving (one indexed look-up by chain, contract and token id).
CREATE INDEX history_transfers_token ON history_transfers (chain, token, token_id);
