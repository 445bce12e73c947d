import { sessionsGate } from './sessions-gate';

// Every route of the registry that takes a credential (the gate is in sessions-gate.ts).
sessionsGate();
