export type { LockvendorService } from './lockvendor.service';
export type { CloudLock, LockConfig, RoomLock } from './lockvendor.types';
export { reencryptLockSecrets } from './lockvendor.rotation';
