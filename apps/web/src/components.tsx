import type { ComponentChildren } from 'preact';
import type { AlertStatus, Severity } from './api';
import { exactTime, SEVERITY_META, STATUS_LABEL, timeAgo } from './format';

export function SeverityBadge({ severity }: { severity: Severity }) {
  const meta = SEVERITY_META[severity] ?? SEVERITY_META.unknown;
  return (
    <span class={`severity severity-${severity}`}>
      <span class="severity-icon" aria-hidden="true">
        {meta.icon}
      </span>
      {meta.label}
    </span>
  );
}

export const StatusBadge = ({ status }: { status: AlertStatus }) => <span class={`status status-${status}`}>{STATUS_LABEL[status] ?? status}</span>;

export const Time = ({ iso }: { iso: string | null }) =>
  iso ? (
    <time dateTime={iso} title={exactTime(iso)}>
      {timeAgo(iso)}
    </time>
  ) : (
    <span>—</span>
  );

export const ErrorNote = ({ error }: { error: string | null }) =>
  error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;

export function CopyField({ label, value }: { label: string; value: string }) {
  const id = `copy-${label.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <div class="copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} readOnly value={value} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
        <button type="button" class="button" onClick={() => void navigator.clipboard?.writeText(value)}>
          Copy
        </button>
      </div>
    </div>
  );
}

export const Panel = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <section class="panel" aria-label={title}>
    <h2>{title}</h2>
    {children}
  </section>
);
