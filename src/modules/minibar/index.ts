export {
  consumptionsForTask,
  createMinibarService,
  hasActiveMinibarItems,
  minibarMessages,
  recordMinibarCheck,
  type MinibarService,
} from './minibar.service';
export { minibarRoutes } from './minibar.routes';
export { minibarCheckItems } from './minibar.schemas';
export type {
  MinibarCheck,
  MinibarCheckLine,
  MinibarConsumption,
  MinibarItem,
  StockLevel,
  StockMovement,
} from './minibar.types';
