import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { MetricsService } from '@app/observability';
import { HOOK_DELIVERIES, HookDeliveryJob } from '../core/hooks.jobs';
import { SystemHooksRepository } from '../core/system-hooks.repository';
import type { Queue } from 'bullmq';

/** Gauges read at scrape time: deliveries waiting in the queue and hooks disabled. */
@Injectable()
export class HookGauges implements OnModuleInit {
  constructor(
    private readonly hooks: SystemHooksRepository,
    @InjectQueue(HOOK_DELIVERIES.name) private readonly queue: Queue<HookDeliveryJob>,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  onModuleInit(): void {
    if (!this.metrics) return;
    const depth = this.metrics.gauge('system_hook_delivery_queue_depth', 'System hook delivery jobs by state (waiting, delayed for a retry, active)', [
      'state',
    ]);
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
        const counts = await this.hooks.countNotExecutable().catch(() => new Map<string, number>());
        disabled.set({ status: 'temporarily_disabled' }, counts.get('temporarily_disabled') ?? 0);
        disabled.set({ status: 'disabled' }, counts.get('disabled') ?? 0);
      },
    });
  }
}
