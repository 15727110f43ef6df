import { describe, expect, it } from 'vitest';
import { endpointOrigin, fullPolicy, STATIC_POLICY } from '../../src/state/csp.ts';

describe('content security policy', () => {
  it('the static half never pins connections, and index.html carries it verbatim', async () => {
    expect(STATIC_POLICY).not.toMatch(/default-src|connect-src/);
    expect(STATIC_POLICY).toContain("script-src 'self'");
    expect(STATIC_POLICY).toContain("object-src 'none'");
    const { readFileSync } = await import('node:fs');
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    expect(html).toContain(`content="${STATIC_POLICY}"`);
  });

  it('the full policy connects to this origin, plus exactly one endpoint origin when allowed', () => {
    expect(fullPolicy(null)).toMatch(/default-src 'self'.*connect-src 'self'$/);
    expect(fullPolicy('https://api.openai.com')).toMatch(/connect-src 'self' https:\/\/api\.openai\.com$/);
  });

  it('endpoint URLs become origins, or say why they cannot', () => {
    expect(endpointOrigin('https://api.openai.com/v1/chat/completions')).toEqual({
      ok: true,
      origin: 'https://api.openai.com',
    });
    expect(endpointOrigin('http://127.0.0.1:8080/v1/messages')).toEqual({ ok: true, origin: 'http://127.0.0.1:8080' });
    expect(endpointOrigin('not a url')).toMatchObject({ ok: false, error: expect.stringMatching(/^Not a URL/) });
    expect(endpointOrigin('javascript:alert(1)')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/http\(s\)/),
    });
    expect(endpointOrigin('https://u:p@example.com/')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/API key/),
    });
  });
});
