// Imported first by src/main.tsx: adds the page's full Content-Security-Policy before any other module of
// the app runs (see csp.ts for why it is added here and not written in index.html).
import { installPolicy } from './csp.ts';

installPolicy();
