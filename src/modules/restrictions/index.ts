export { assertMayOverride, type RestrictionsService } from './restrictions.service';
export type { RestrictedStay, RestrictionOverride } from './restrictions.types';
