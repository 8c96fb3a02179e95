import { MetricConflictError, MetricsService } from './metrics.service';

describe(MetricsService.name, () => {
  let sut: MetricsService;

  beforeEach(() => {
    sut = new MetricsService();
  });

  afterEach(() => {
    sut.registry.clear();
  });

  it('returns the same counter when the same name is registered twice', () => {
    const first = sut.counter('jobs_total', 'Jobs', ['queue']);
    const second = sut.counter('jobs_total', 'Jobs again', ['queue']);
    expect(second).toBe(first);
  });

  it('accepts the same label names in another order', () => {
    const first = sut.histogram('job_seconds', 'Job duration', ['queue', 'name']);
    expect(sut.histogram('job_seconds', 'Job duration', ['name', 'queue'])).toBe(first);
  });

  it('refuses a name already used by another kind of metric', () => {
    sut.counter('things', 'Things');
    expect(() => sut.gauge('things', 'Things')).toThrow(MetricConflictError);
  });

  it('refuses a name already used with other label names', () => {
    sut.gauge('depth', 'Depth', ['queue']);
    expect(() => sut.gauge('depth', 'Depth', ['queue', 'state'])).toThrow(/already registered with labels \[queue\]/);
  });

  it('refuses the name of a default process metric', () => {
    expect(() => sut.counter('process_cpu_user_seconds_total', 'CPU')).toThrow(MetricConflictError);
  });

  it('exposes registered metrics and the default process metrics in the Prometheus text format', async () => {
    sut.counter('jobs_total', 'Jobs', ['queue']).inc({ queue: 'maintenance' }, 2);
    const { contentType, body } = await sut.exposition();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('# TYPE jobs_total counter');
    expect(body).toContain('jobs_total{queue="maintenance"} 2');
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_heap_size_total_bytes');
  });
});
