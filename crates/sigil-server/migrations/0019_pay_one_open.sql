-- At most one open deposit session per recipient and asset (the asset is CAIP-19, so it names
-- its chain too): a session's status compares the recipient's balance with the one stored at its
-- start, so two open sessions for the same pair would both turn SUCCESS on one deposit.
-- reown_getExchangePayUrl marks the older open one FAILED before it inserts the new one; this
-- index makes that hold under concurrency. Older duplicates (made before this migration) are
-- closed first, the newest of each pair kept open.
UPDATE pay_sessions SET status = 'FAILED'
WHERE status = 'IN_PROGRESS'
  AND EXISTS (
    SELECT 1 FROM pay_sessions AS newer
    WHERE newer.recipient = pay_sessions.recipient
      AND newer.asset = pay_sessions.asset
      AND newer.status = 'IN_PROGRESS'
      AND (newer.created_at > pay_sessions.created_at OR (newer.created_at = pay_sessions.created_at AND newer.id > pay_sessions.id))
  );
CREATE UNIQUE INDEX pay_sessions_one_open ON pay_sessions (recipient, asset) WHERE status = 'IN_PROGRESS';
