import { z } from 'zod';

// zod compiles object parsers with new Function() where eval is allowed, deciding when each schema
// is built; the console's Content-Security-Policy forbids eval, and zod's probe for it is reported
// as a violation. Imported first by main.tsx, so it runs before any schema module.
z.config({ jitless: true });
