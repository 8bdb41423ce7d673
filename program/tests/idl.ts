/**
 * The IDL's tables by name, for tests that name an error or an instruction as the program's
 * logs do (Anchor's "Error Code: <Name>"). The app never names them: it uses the generated
 * code constants of packages/tag-registry.
 */
import idl from '../idl/tag_registry.json';

export { idl as IDL };

/** The IDL's error table: `code` is what the program returns as `Custom(code)`. */
export const REGISTRY_ERRORS: readonly { code: number; name: string; msg: string }[] = idl.errors;
export type RegistryErrorName = string;

/** The custom error code for a name; throws on an unknown name (a typo in a test, not input). */
export function registryErrorCode(name: RegistryErrorName): number {
  const entry = REGISTRY_ERRORS.find((e) => e.name === name);
  if (!entry) throw new Error(`unknown registry error ${name}`);
  return entry.code;
}

/** An instruction's name as the IDL spells it (snake_case). */
export type RegistryInstructionName = string;

/** Every instruction's discriminator by its IDL name. */
export const INSTRUCTION_DISCRIMINATORS: Readonly<Record<RegistryInstructionName, Uint8Array>> = Object.fromEntries(
  idl.instructions.map((ix) => [ix.name, Uint8Array.from(ix.discriminator)]),
);
