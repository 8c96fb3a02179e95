-- PREPARE alert_ingest_lock_open_alerts (int[], bpchar[]) AS
SELECT a.id, a.project_id, a.iid, a.title, a.description, a.severity, a.status, a.service, a.monitoring_tool,
  a.hosts, a.started_at, a.ended_at, a.event_count, a.fingerprint, a.environment, a.integration_id, a.last_received_at
  FROM unnest($1::int[], $2::bpchar[]) AS k(project_id, fingerprint)
  JOIN alerts a ON a.project_id = k.project_id AND a.fingerprint = k.fingerprint AND a.status <> 'resolved'
  ORDER BY a.id
  FOR UPDATE OF a
