// libs/hooks: folders import only the folders below them, from the top down:
//   use-cases/ -> delivery/ -> core/ (URL rules, token cipher, events, queues, hook health, SystemHooksRepository) -> dto/, entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs hooks`.
export * from './delivery/hook-chain.interceptor';
export * from './delivery/hook-deliveries.repository';
export * from './delivery/hook-delivery-log';
export * from './delivery/hook-deliverer';
export * from './delivery/hook-delivery-recovery';
export * from './delivery/hook-dispatcher';
export * from './delivery/hook-events.repository';
export * from './delivery/hook-jobs';
export * from './core/hook-health';
export * from './delivery/hook-http-client';
export * from './delivery/hook-payloads';
export * from './delivery/hook-signature';
export * from './delivery/outbound-policy';
export * from './dto/system-hook.dto';
export * from './core/hook-token-cipher';
export * from './core/hook-url';
export * from './core/hooks.jobs';
export * from './hooks.module';
export * from './core/hooks.events';
export * from './system-hook.presenter';
export * from './core/system-hooks.repository';
export * from './use-cases/create-system-hook.use-case';
export * from './use-cases/delete-system-hook.use-case';
export * from './use-cases/resend-hook-delivery.use-case';
export * from './use-cases/test-system-hook.use-case';
export * from './use-cases/update-system-hook.use-case';
export * from './entities';
