export { consumptionSchema, minibarCheckItems } from './minibar.schemas';
export type { MinibarService } from './minibar.service';
export type {
  MinibarCharge,
  MinibarCheck,
  MinibarCheckLine,
  MinibarConsumption,
  MinibarItem,
  StockLevel,
  StockMovement,
} from './minibar.types';
