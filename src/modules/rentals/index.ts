export { RENTAL_TEMPLATES } from './rentals.templates';
