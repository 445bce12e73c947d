export { rentalsRepository } from './rentals.repository';
export { RENTAL_TEMPLATES } from './rentals.templates';
