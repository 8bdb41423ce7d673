// /v1 and any /v1 path no route names, any method — the envelope's 404 instead of Next.js's HTML page
import { HTTP_METHODS, unknownPath } from '@/lib/api/methods';

const handler = () => unknownPath();

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = Object.fromEntries(HTTP_METHODS.map((m) => [m, handler])) as Record<
  (typeof HTTP_METHODS)[number],
  typeof handler
>;
