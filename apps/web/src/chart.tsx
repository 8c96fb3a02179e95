import type { Severity } from './api';
import { SEVERITIES, SEVERITY_META } from './format';

export type HourBucket = { hour: string; total: number } & Record<Severity, number>;

const WIDTH = 720;
const HEIGHT = 120;
const GAP = 2;

/** Alerts started per hour by severity, stacked bars (SVG; each bar says its figures on hover). */
export function HourlyChart({ buckets }: { buckets: HourBucket[] }) {
  const max = Math.max(1, ...buckets.map((b) => b.total));
  const total = buckets.reduce((n, b) => n + b.total, 0);
  const barWidth = WIDTH / Math.max(1, buckets.length);
  const hourLabel = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Alerts started per hour over the last ${buckets.length} hours: ${total} in all, at most ${max === 1 && total === 0 ? 0 : max} in one hour`}
      >
        {buckets.map((b, i) => {
          let y = HEIGHT;
          return (
            <g key={b.hour}>
              <title>{`${hourLabel(b.hour)}: ${b.total} alert${b.total === 1 ? '' : 's'}${SEVERITIES.filter((s) => b[s])
                .map((s) => `, ${b[s]} ${s}`)
                .join('')}`}</title>
              <rect x={i * barWidth} y={0} width={barWidth} height={HEIGHT} fill="transparent" />
              {SEVERITIES.map((s) => {
                if (!b[s]) return null;
                const h = (b[s] / max) * (HEIGHT - 4);
                y -= h;
                return <rect key={s} class={`bar-${s}`} x={i * barWidth + GAP / 2} y={y} width={barWidth - GAP} height={h} />;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        Alerts started per hour, last {buckets.length} hours
        <span class="legend">
          {SEVERITIES.map((s) => (
            <span key={s} class={`severity severity-${s}`}>
              <span aria-hidden="true">{SEVERITY_META[s].icon}</span> {SEVERITY_META[s].label}
            </span>
          ))}
        </span>
      </figcaption>
    </figure>
  );
}
