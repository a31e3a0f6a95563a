-- The cached caller (identity/caller-cache.ts) now carries its named organization's additional
-- contacts (users/me's profile): a change to them empties every server's caller cache, as a
-- change to the organization itself does (0005).
CREATE TRIGGER participant_contacts_caller_changes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON participant_contacts
  FOR EACH STATEMENT EXECUTE FUNCTION caller_changes_notify();
