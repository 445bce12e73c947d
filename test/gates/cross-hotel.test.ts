import { crossHotelGate } from './cross-hotel-gate';

// Every hotel route of the registry (the gate is in cross-hotel-gate.ts).
crossHotelGate();
