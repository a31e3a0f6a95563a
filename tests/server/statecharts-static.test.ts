// The statechart explorer (visualizations/, written by `npm run visualize`) as the registry server
// serves it: static pages at /registry/statecharts/ for anyone without a session, under the CSP
// (its scripts are files of the same origin), never the web app's index.html in their place.
import { describe, expect, it } from 'vitest';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();

describe('/registry/statecharts/', () => {
  it('serves the explorer index to a visitor without a session', async () => {
    const response = await server.anonymous.get('/registry/statecharts/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<h1>Statechart explorer</h1>');
    expect(response.body).toContain('href="session.html"');
  });

  it('redirects the bare path to the index', async () => {
    const response = await server.anonymous.get('/registry/statecharts');
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/registry/statecharts/');
  });

  it('serves a machine page, its script and its style sheet, which the CSP allows', async () => {
    const page = await server.anonymous.get('/registry/statecharts/deactivation.html');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Deactivation statechart explorer');
    expect(page.body).toContain('<script src="explorer.js" defer></script>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    // No inline script runs: the page's data is a JSON script element, which no CSP blocks.
    expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
    const script = await server.anonymous.get('/registry/statecharts/explorer.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    const css = await server.anonymous.get('/registry/statecharts/explorer.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('answers 404, not the web app, for a page that does not exist', async () => {
    for (const url of ['/registry/statecharts/no-such-machine.html', '/registry/statecharts/no-such-machine']) {
      const response = await server.anonymous.get(url, { headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<div id="root">');
    }
  });
});
