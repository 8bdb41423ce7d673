// GET /api/avatar/{tag} — the profile's avatar, fetched by the app and served from its own origin
import { getServices } from '@/lib/http/services';
import { avatarHandlers } from './handlers';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = avatarHandlers(getServices);
