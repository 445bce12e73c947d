import { uploadsFixtures } from './uploads.fixtures';
import { defineModule } from '../../platform/modules';
import { createStorage } from '../../platform/storage';
import { uploadsRoutes } from './uploads.routes';
import { createUploadsService } from './uploads.service';

export const uploadsModule = defineModule({
  name: 'uploads',
  fixtures: uploadsFixtures,
  uses: [],
  create: ({ db, config }) => createUploadsService(db, config, createStorage(config.storage)),
  routes: (uploads) => uploadsRoutes(uploads),
});
