import type { ServiceTier } from '@app/config';

const RANK: Record<ServiceTier, number> = { free: 0, premium: 1, ultimate: 2 };

/** True when an instance of tier `actual` has the features of tier `required`. */
export const tierAtLeast = (actual: ServiceTier, required: ServiceTier): boolean => RANK[actual] >= RANK[required];
