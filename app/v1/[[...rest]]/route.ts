// /v1 and any /v1 path no route names, any method — the envelope's 404 instead of Next.js's HTML page
import { unknownPath } from '@/lib/http/v1-route';

export const dynamic = 'force-dynamic';

export {
  unknownPath as GET,
  unknownPath as HEAD,
  unknownPath as POST,
  unknownPath as PUT,
  unknownPath as PATCH,
  unknownPath as DELETE,
  unknownPath as OPTIONS,
};
