export {
  assertHotelUploads,
  createUploadsService,
  keyFromPublicUrl,
  UPLOAD_FOLDERS,
  type UploadsService,
} from './uploads.service';
export { uploadsRoutes } from './uploads.routes';
export { sniffImageType, IMAGE_TYPES, type SniffedType } from './uploads.sniff';
