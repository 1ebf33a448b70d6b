-- The audit trail is append-only (issue 8 §1): an access log or admin log row, once written, is never
-- changed or removed, whoever asks.
CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER admin_logs_no_update_delete
  BEFORE UPDATE OR DELETE ON admin_logs
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();--> statement-breakpoint
CREATE TRIGGER admin_logs_no_truncate
  BEFORE TRUNCATE ON admin_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();--> statement-breakpoint
CREATE TRIGGER access_logs_no_update_delete
  BEFORE UPDATE OR DELETE ON access_logs
  FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();--> statement-breakpoint
CREATE TRIGGER access_logs_no_truncate
  BEFORE TRUNCATE ON access_logs
  FOR EACH STATEMENT EXECUTE FUNCTION audit_logs_append_only();
