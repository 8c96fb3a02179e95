// libs/hooks: folders import only the folders below them, from the top down:
//   use-cases/ -> delivery/ -> core/ (URL rules, token cipher, events, queues, hook health, SystemHooksRepository) -> dto/, entities/
// The files directly in src/ (this index, the module, ...) compose them and are imported by none.
// Check: `node scripts/folder-cycles.mjs hooks`.
//
// Other libs, the apps and the tests use these names only.
export { chainFromHeaders } from './delivery/hook-chain.interceptor';
export { HookDeliveriesRepository } from './delivery/hook-deliveries.repository';
export { HookDeliveryLog } from './delivery/hook-delivery-log';
export type { NewHookDelivery } from './delivery/hook-delivery-log';
export { HookDispatcher } from './delivery/hook-dispatcher';
export { hookEventOf } from './delivery/hook-payloads';
export { deliveryHeaders, redactHeaders } from './delivery/hook-signature';
export { checkOutbound, systemResolver } from './delivery/outbound-policy';
export type { OutboundSettings, ResolvedAddress, Resolver } from './delivery/outbound-policy';
export { HookTokenCipher } from './core/hook-token-cipher';
export { HOOK_DELIVERIES, HOOK_MAINTENANCE } from './core/hooks.jobs';
export { HooksModule } from './hooks.module';
export { HOOKS_ENTITIES } from './entities';
