-- The relay's inbox on SQLite (issue 29): a publish is answered once its message is committed,
-- and a commit rewrites every page it touches. Written straight into relay_messages and
-- relay_acks, a batch of messages on different topics touches a page of each index per topic;
-- appended here it touches the last page or two. The writer files the inbox into those tables
-- in one transaction every second, and before anything reads them. Unused on PostgreSQL, whose
-- batches go straight to the tables. The same columns as the tables they feed, without their
-- keys and indexes.
CREATE TABLE relay_inbox_messages AS SELECT * FROM relay_messages WHERE 1 = 0;
CREATE TABLE relay_inbox_acks AS SELECT * FROM relay_acks WHERE 1 = 0;
