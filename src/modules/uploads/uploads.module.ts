import { uploadsFixtures } from './uploads.fixtures';
import { defineModule } from '../../platform/modules';
import { uploadsRoutes } from './uploads.routes';
import { createUploadsService } from './uploads.service';
import { uploadsEnv } from './uploads.env';

export const uploadsModule = defineModule({
  name: 'uploads',
  fixtures: uploadsFixtures,
  uses: [],
  config: uploadsEnv,
  create: ({ db, config, storage }) => createUploadsService(db, config, storage),
  routes: (uploads) => uploadsRoutes(uploads),
});
