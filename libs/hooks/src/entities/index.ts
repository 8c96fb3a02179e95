import { HookDeliveryEntity } from './hook-delivery.entity';
import { HookEventEntity } from './hook-event.entity';
import { HookResendEntity } from './hook-resend.entity';
import { HookRetryEntity } from './hook-retry.entity';
import { SystemHookEntity } from './system-hook.entity';

export { HookDeliveryEntity, HookEventEntity, HookResendEntity, HookRetryEntity, SystemHookEntity };

/** The entities of the hooks library, listed in the data source's `ENTITIES`. */
export const HOOKS_ENTITIES = [SystemHookEntity, HookDeliveryEntity, HookEventEntity, HookRetryEntity, HookResendEntity];
