/** The tag registry program's ABI (DESIGN.md "The on-chain program"). */
export * from './account';
export * from './errors';
export * from './instruction';
export * from './pda';
export * from './program-id';
