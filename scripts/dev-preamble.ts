// The dev server's React Fast Refresh preamble as a same-origin module script, so `npm start` runs under the same
// `script-src 'self'` as production (src/lib/csp.ts). @vitejs/plugin-react writes the preamble into index.html as
// an inline <script>, which that policy blocks (a white page: "can't detect preamble"). This dev-only plugin takes
// that inline script out of the page and serves the same code from this origin instead; the production build has
// no preamble and is untouched (`apply: 'serve'`). Any other inline script left in the dev page is an error here,
// not a CSP violation found later in the browser.
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/** Where the page loads the preamble from (a module the dev server answers; never written to disk). */
const PREAMBLE_URL = '/@tierscope/react-preamble.js';

const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script>/gi;

export function sameOriginPreamble(): Plugin {
  let code = '';
  return {
    name: 'tierscope-same-origin-preamble',
    apply: 'serve',
    configResolved(config) {
      code = react.preambleCode.replace('__BASE__', config.base);
    },
    resolveId(id) {
      return id === PREAMBLE_URL ? id : undefined;
    },
    load(id) {
      return id === PREAMBLE_URL ? code : undefined;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        let moved = false;
        const out = html.replace(INLINE_SCRIPT, (tag, body: string) => {
          if (body.trim() === '') return tag;
          if (body.trim() !== code.trim())
            throw new Error(`the dev page has an inline script the CSP would block: ${tag.slice(0, 120)}`);
          moved = true;
          return `<script type="module" src="${PREAMBLE_URL}"></script>`;
        });
        return moved ? out : html;
      },
    },
  };
}
