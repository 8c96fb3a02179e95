-- PREPARE alert_ingest_lock_counters (int[]) AS
INSERT INTO alert_iid_counters (project_id, last_iid)
  SELECT project_id, 0 FROM unnest($1::int[]) AS project_id ORDER BY project_id
  ON CONFLICT (project_id) DO UPDATE SET last_iid = alert_iid_counters.last_iid
