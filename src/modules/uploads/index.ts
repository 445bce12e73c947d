export { UPLOAD_FOLDERS, type UploadsService } from './uploads.service';
