export { assertMayOverride, mayOverride, type RestrictionsService } from './restrictions.service';
export type { RestrictedStay, RestrictionOverride } from './restrictions.types';
export { MAX_SHIFT_DAYS, shifted, type Offering, type StayDates, type StayVerdict } from './restrictions.offering';
export { brokenRestrictionSchema, restrictionNightKeys, stayVerdictKeys } from './restrictions.schemas';
export { inForce } from './restrictions.rules';
