-- The embedded wallet's logins bound to the browser that proves them (issue 20). Times are unix
-- milliseconds.

-- A device is named by the sha256 of a secret that only its frame holds (earlier rows named it
-- by an id the frame sent as is: those devices approve again).
DELETE FROM wallet_devices;

-- A login code is for the device that asked for it; a device-approval link is a code row too
-- (purpose 'device', the link's secret hashed), so one statement both keeps the 30 s between
-- mails and issues it. `payload` of a link row describes the device for the approval page.
ALTER TABLE wallet_codes ADD COLUMN device_id TEXT NOT NULL DEFAULT '';
CREATE INDEX wallet_codes_hash ON wallet_codes (code_hash);

-- When the session's login was proved (a code, a social or Farcaster login); a refreshed token
-- keeps it. Adding an email to a wallet that has none needs a recent one.
ALTER TABLE wallet_sessions ADD COLUMN proved_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX wallet_sessions_expires ON wallet_sessions (expires_at);

-- A finished social login is claimed with a secret that only the browser which came back from
-- the provider was given (sha256 here).
ALTER TABLE wallet_social_flows ADD COLUMN claim_hash TEXT;

-- Why the latest message posted to a Farcaster channel was refused: shown to the frame waiting
-- on it, without ending the channel (anyone who sees its QR code can post to it).
ALTER TABLE wallet_social_flows ADD COLUMN refusal TEXT;
