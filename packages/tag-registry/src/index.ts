/**
 * The tag registry program's ABI for TypeScript, on @solana/kit. `generated/` is rendered by
 * Codama from program/idl/tag_registry.json (`npm run abi:generate`; never edit it by hand):
 * the instruction builders and parsers, the TagRecord codec, the error codes with
 * `isTagRegistryError`, the PDA. Beside it, what the IDL cannot say: the program's
 * strictness when reading data back, the error found in any client's failure, the localnet
 * address. Every caller is on kit: there is no web3.js v1 adapter.
 */
export * from './generated';
export * from './instructions';
export * from './localnet';
export * from './program-errors';
export * from './tag-record';
