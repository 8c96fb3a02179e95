-- PREPARE alert_ingest_write (jsonb, jsonb, jsonb, jsonb, jsonb, jsonb, text) AS
WITH counter_input AS MATERIALIZED (
    SELECT x.project_id, x.created FROM jsonb_to_recordset($3::jsonb) AS x(project_id int, created int)
  ), counters AS (
    INSERT INTO alert_iid_counters AS c (project_id, last_iid)
    SELECT project_id, created FROM counter_input ORDER BY project_id
    ON CONFLICT (project_id) DO UPDATE SET last_iid = c.last_iid + excluded.last_iid
    RETURNING c.project_id, c.last_iid
  ), bases AS MATERIALIZED (
    SELECT c.project_id, c.last_iid - i.created AS base FROM counters c JOIN counter_input i ON i.project_id = c.project_id
  ), new_alerts AS MATERIALIZED (
    SELECT x.*, (x.relative_iid + b.base)::int AS iid, nextval(pg_get_serial_sequence('alerts', 'id'))::int AS id
    FROM jsonb_to_recordset($1::jsonb) AS x(ref int, project_id int, relative_iid int, integration_id int, title text,
      description text, severity text, status text, service text, monitoring_tool text, hosts jsonb, started_at timestamptz,
      ended_at timestamptz, event_count int, last_received_at timestamptz, fingerprint text, environment text, details jsonb)
    JOIN bases b ON b.project_id = x.project_id
  ), inserted AS (
    INSERT INTO alerts (id, project_id, iid, integration_id, title, description, severity, status, service, monitoring_tool,
      hosts, started_at, ended_at, event_count, last_received_at, fingerprint, environment, details)
    SELECT id, project_id, iid, integration_id, title, description, severity, status, service, monitoring_tool,
      ARRAY(SELECT jsonb_array_elements_text(hosts)), started_at, ended_at, event_count, last_received_at, fingerprint,
      environment, details
    FROM new_alerts ORDER BY ref
  ), updated AS (
    UPDATE alerts AS a SET status = x.status, ended_at = x.ended_at, event_count = x.event_count,
      last_received_at = x.last_received_at, updated_at = now()
    FROM jsonb_to_recordset($2::jsonb) AS x(id int, status text, ended_at timestamptz, event_count int, last_received_at timestamptz)
    WHERE a.id = x.id
  ), recovery_input AS MATERIALIZED (
    SELECT x.*, nextval(pg_get_serial_sequence('alert_unmatched_recoveries', 'id'))::int AS id
    FROM jsonb_to_recordset($4::jsonb) AS x(ref int, project_id int, integration_id int, fingerprint text, title text,
      ended_at timestamptz, payload jsonb)
  ), recoveries AS (
    INSERT INTO alert_unmatched_recoveries (id, project_id, integration_id, fingerprint, title, ended_at, payload)
    SELECT id, project_id, integration_id, fingerprint, title, ended_at, payload FROM recovery_input ORDER BY ref
  ), notes AS (
    INSERT INTO alert_notes (alert_id, author_id, body, system)
    SELECT coalesce(n.alert_id, na.id), n.author_id, n.body, true
    FROM jsonb_to_recordset($5::jsonb) AS n(ord int, alert_id int, alert_ref int, author_id int, body text)
    LEFT JOIN new_alerts na ON na.ref = n.alert_ref
    ORDER BY n.ord
  ), events AS (
    INSERT INTO outbox_events (id, topic, message_key, payload, headers)
    SELECT e.id, e.topic, e.message_key,
      CASE WHEN na.id IS NOT NULL THEN jsonb_set(jsonb_set(jsonb_set(jsonb_set(e.payload, '{target,id}', to_jsonb(na.id)),
             '{target,iid}', to_jsonb(na.iid)), '{data,alert_id}', to_jsonb(na.id)), '{data,iid}', to_jsonb(na.iid))
           WHEN ri.id IS NOT NULL THEN jsonb_set(e.payload, '{data,recovery_id}', to_jsonb(ri.id))
           ELSE e.payload END,
      e.headers
    FROM jsonb_to_recordset($6::jsonb) AS e(ord int, id uuid, topic text, message_key text, payload jsonb, headers jsonb,
      alert_ref int, recovery_ref int)
    LEFT JOIN new_alerts na ON na.ref = e.alert_ref
    LEFT JOIN recovery_input ri ON ri.ref = e.recovery_ref
    ORDER BY e.ord
  )
  SELECT 'alert' AS kind, ref, id, iid FROM new_alerts
  UNION ALL SELECT 'recovery', ref, id, 0 FROM recovery_input
  UNION ALL SELECT 'notify', 0, 0, 0 FROM (SELECT pg_notify($7::text, '')) AS wake
