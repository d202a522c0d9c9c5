-- NFTs (issue: NFTs tab): each token's metadata and image as fetched by the server, so a page of
-- holdings does not fetch its URLs on every request. Holdings themselves come from the history
-- index (history_transfers). Keyed by chain, contract (0x, lower-case hex) and token id (decimal).
-- Times are unix milliseconds; a row is fetched again after the configured time to live (an
-- error after a few minutes).
CREATE TABLE nft_metadata (
    chain TEXT NOT NULL,
    contract TEXT NOT NULL,
    token_id TEXT NOT NULL,
    -- From the metadata JSON, shortened; NULL when it has none.
    name TEXT,
    description TEXT,
    -- The image's URI as the metadata gives it (ipfs://, https://, data:), shortened; never served.
    image_uri TEXT,
    -- Why the metadata could not be had (shown to nobody; it ends in the fallback name).
    error TEXT,
    fetched_at BIGINT NOT NULL,
    -- The image as served (PNG for an SVG): base64 bytes, its type and ETag; or why it failed.
    image_data TEXT,
    image_type TEXT,
    image_etag TEXT,
    image_error TEXT,
    image_fetched_at BIGINT,
    PRIMARY KEY (chain, contract, token_id)
);
