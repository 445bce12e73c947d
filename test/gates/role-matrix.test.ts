import { roleMatrixGate } from './role-matrix-gate';

// Every hotel route of the registry × the seven roles (the gate is in role-matrix-gate.ts).
roleMatrixGate();
