import { HookDeliveryEntity } from './hook-delivery.entity';
import { SystemHookEntity } from './system-hook.entity';

export { HookDeliveryEntity, SystemHookEntity };

/** The entities of the hooks library, listed in the data source's `ENTITIES`. */
export const HOOKS_ENTITIES = [SystemHookEntity, HookDeliveryEntity];
