-- Deposits from an exchange (the pay area, JSON-RPC reown_getExchangePayUrl): one deposit a
-- visitor was sent to an exchange for. id is the random, unguessable session id (also in the
-- exchange's URL); asset is CAIP-19, amount a decimal string in the asset's units and
-- amount_units the same in its smallest unit; start_balance is the recipient's balance of the
-- asset (smallest unit, decimal) when the session was made, which the status compares with the
-- balance now. status: IN_PROGRESS, SUCCESS or FAILED (the last two final). deposit is the
-- sandbox exchange's own step: NULL, sending, sent, cancelled or failed. Times are unix ms.
CREATE TABLE pay_sessions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    exchange_id TEXT NOT NULL,
    network TEXT NOT NULL,
    asset TEXT NOT NULL,
    amount TEXT NOT NULL,
    amount_units TEXT NOT NULL,
    recipient TEXT NOT NULL,
    start_balance TEXT NOT NULL,
    status TEXT NOT NULL,
    deposit TEXT,
    tx_hash TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX pay_sessions_project ON pay_sessions (project_id, created_at);

-- Sessions started per project and hour (--pay-sessions-per-hour): one row per project and
-- hour, raised by one statement that refuses past the limit, so it holds under concurrency.
CREATE TABLE pay_quota (
    project_id TEXT NOT NULL,
    hour BIGINT NOT NULL,
    used BIGINT NOT NULL,
    PRIMARY KEY (project_id, hour)
);
