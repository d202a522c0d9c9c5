-- Account names: each of an address's names in a zone holds a slot (0, 1, ...), unique per
-- address and zone. A registration writes the count of the address's names there, so of two
-- registrations by one address at once only one takes a given slot, and --names-per-address
-- holds under concurrency on PostgreSQL too (where two statements may count the same rows).
ALTER TABLE profile_names ADD COLUMN slot BIGINT NOT NULL DEFAULT 0;
UPDATE profile_names SET slot = (
    SELECT COUNT(*) FROM profile_names p
    WHERE p.address = profile_names.address AND p.zone = profile_names.zone
      AND (p.registered_at < profile_names.registered_at OR (p.registered_at = profile_names.registered_at AND p.name < profile_names.name))
);
CREATE UNIQUE INDEX profile_names_slot ON profile_names (address, zone, slot);
