import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import { HOOK_DELIVERIES, HookDeliveryJob } from '../hooks.jobs';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';

/** Gauges read at scrape time: deliveries waiting in the queue and hooks disabled. */
@Injectable()
export class HookGauges implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue<HookDeliveryJob>,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  onModuleInit(): void {
    if (!this.metrics) return;
    const depth = this.metrics.gauge('system_hook_delivery_queue_depth', 'System hook delivery jobs by state (waiting, delayed for a retry, active)', ['state']);
    const disabled = this.metrics.gauge('system_hooks_disabled', 'System hooks not receiving deliveries, by alert_status', ['status']);
    Object.assign(depth, {
      collect: async () => {
        const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active').catch(() => null);
        if (!counts) return;
        depth.set({ state: 'waiting' }, (counts.waiting ?? 0) + (counts.prioritized ?? 0));
        depth.set({ state: 'delayed' }, counts.delayed ?? 0);
        depth.set({ state: 'active' }, counts.active ?? 0);
      },
    });
    Object.assign(disabled, {
      collect: async () => {
        const rows: Array<{ status: string; count: string }> = await this.dataSource
          .query(`SELECT alert_status AS status, count(*)::text AS count FROM system_hooks WHERE alert_status <> 'executable' GROUP BY 1`)
          .catch(() => []);
        disabled.set({ status: 'temporarily_disabled' }, Number(rows.find((r) => r.status === 'temporarily_disabled')?.count ?? 0));
        disabled.set({ status: 'disabled' }, Number(rows.find((r) => r.status === 'disabled')?.count ?? 0));
      },
    });
  }
}
