import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type MetricKind = 'counter' | 'gauge' | 'histogram';
type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;

interface Registered {
  kind: MetricKind;
  labelNames: readonly string[];
  metric: AnyMetric;
}

export class MetricConflictError extends Error {
  constructor(name: string, reason: string) {
    super(`Metric "${name}" is already registered ${reason}`);
    this.name = 'MetricConflictError';
  }
}

/**
 * The process's Prometheus registry (default process and Node.js metrics included) and
 * the way other libraries add theirs. Registration is idempotent by name: asking again for
 * `counter('hook_deliveries_total', ...)` returns the same counter, so a module may
 * register in its constructor without caring who came first. Asking for an existing name
 * with another kind or other label names is a programming error and throws.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly metrics = new Map<string, Registered>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return this.register('counter', name, labelNames, () => new Counter({ name, help, labelNames, registers: [this.registry] })) as Counter<L>;
  }

  gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return this.register('gauge', name, labelNames, () => new Gauge({ name, help, labelNames, registers: [this.registry] })) as Gauge<L>;
  }

  /** `buckets` in the metric's unit (seconds for durations); prom-client's defaults when omitted. */
  histogram<L extends string = never>(name: string, help: string, labelNames: readonly L[] = [], buckets?: number[]): Histogram<L> {
    return this.register(
      'histogram',
      name,
      labelNames,
      () => new Histogram({ name, help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) }),
    ) as Histogram<L>;
  }

  /** Every metric in the Prometheus text exposition format. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private register(kind: MetricKind, name: string, labelNames: readonly string[], create: () => AnyMetric): AnyMetric {
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.kind !== kind) throw new MetricConflictError(name, `as a ${existing.kind}`);
      if (!sameLabels(existing.labelNames, labelNames)) {
        throw new MetricConflictError(name, `with labels [${existing.labelNames.join(', ')}]`);
      }
      return existing.metric;
    }
    if (this.registry.getSingleMetric(name)) throw new MetricConflictError(name, 'by the default metrics');
    const metric = create();
    this.metrics.set(name, { kind, labelNames: [...labelNames], metric });
    return metric;
  }
}

const sameLabels = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().every((label, i) => label === [...b].sort()[i]);
