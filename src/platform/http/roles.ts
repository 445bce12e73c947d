export const ROLES = [
  'super_admin',
  'hotel_admin',
  'manager',
  'receptionist',
  'accountant',
  'security',
  'technician',
  'housekeeper',
] as const;

export type Role = (typeof ROLES)[number];

/** Roles that exist inside a hotel (super_admin belongs to none). */
export const HOTEL_ROLES = ROLES.filter((role) => role !== 'super_admin');

/** Every member of a hotel's staff. */
export const ALL_STAFF: readonly Role[] = HOTEL_ROLES;

/** Those who manage the hotel: its owner and managers. */
export const HOTEL_MANAGEMENT: readonly Role[] = ['hotel_admin', 'manager'];
