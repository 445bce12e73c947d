export { createHotelsService, type HotelsService } from './hotels.service';
export { hotelsRoutes } from './hotels.routes';
export { hotelsRepository } from './hotels.repository';
export { Hotel } from './hotels.model';
export { slugify, firstFreeSlug } from './hotels.slug';
export { slugParams } from './hotels.schemas';
export { settingsRepository, type HotelSettingsRow } from './hotels.settings';
