-- An event id is unique per project, not across projects: one project's ids can no longer
-- shadow another's events. SQLite cannot change a primary key in place, so the table is rebuilt.

CREATE TABLE analytics_events_new (
    event_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    url TEXT NOT NULL,
    domain TEXT NOT NULL,
    event_timestamp BIGINT NOT NULL,
    props TEXT NOT NULL,
    sdk_type TEXT,
    sdk_version TEXT,
    client_address TEXT,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, event_id)
);
INSERT INTO analytics_events_new SELECT event_id, project_id, url, domain, event_timestamp, props, sdk_type, sdk_version, client_address, received_at FROM analytics_events;
DROP TABLE analytics_events;
ALTER TABLE analytics_events_new RENAME TO analytics_events;
CREATE INDEX analytics_events_project ON analytics_events (project_id, received_at);
-- Retention deletes by age across projects.
CREATE INDEX analytics_events_received ON analytics_events (received_at);
