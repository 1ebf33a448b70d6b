import { describe, expect, it } from 'vitest';
import { appUrlProblem, leaveForApp, UNSAFE_APP_URL } from './app-url.ts';

describe('appUrlProblem: the consent page opens only https: (http: on loopback) app URLs', () => {
  it.each([
    'https://app.example.test/callback?code=abc',
    'HTTPS://App.Example.test/callback',
    'https://app.example.test:443/callback',
    'https://app.example.test:8443/callback#done',
    'http://localhost:4000/callback?code=abc',
    'http://127.0.0.1:4000/callback',
    'http://127.200.3.4/callback',
    'http://[::1]:4000/callback',
  ])('opens %s', (url) => {
    expect(appUrlProblem(url)).toBeNull();
  });

  it.each([
    'javascript:alert(document.cookie)',
    'JAVASCRIPT:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://app.example.test/1234',
    'ftp://app.example.test/',
    'http://example.com/callback',
    'http://localhost.example.com/callback',
    'http://127.0.0.1.example.com/callback',
    'http://[::2]/callback',
    'https://user:pass@app.example.test/callback',
    'https://@app.example.test/callback',
    'https://app.example.test\\@evil.example/',
    'https:\\\\evil.example/',
    'https:evil.example/callback',
    'https:/evil.example/callback',
    '//evil.example/callback',
    '/relative/path',
    'https://app.example.test/call\nback',
    'https://app.example.test/\u0000',
    'https://app.example.test/\u202ecallback',
    ' https://app.example.test/',
    'https://%65vil.example/',
    'http://127.1/callback',
    'https://',
    '',
  ])('refuses %j', (url) => {
    expect(appUrlProblem(url)).toBe(UNSAFE_APP_URL);
  });

  it('refuses what is not a string', () => {
    expect(appUrlProblem(undefined)).toBe(UNSAFE_APP_URL);
    expect(appUrlProblem({ href: 'https://app.example.test/' })).toBe(UNSAFE_APP_URL);
  });
});

describe('leaveForApp', () => {
  it('navigates to a safe URL and reports nothing', () => {
    const opened: string[] = [];
    expect(leaveForApp('https://app.example.test/callback?code=x', (u) => opened.push(u))).toBeNull();
    expect(opened).toEqual(['https://app.example.test/callback?code=x']);
  });

  it('does not navigate to an unsafe URL and returns the message to show', () => {
    const opened: string[] = [];
    expect(leaveForApp('javascript:alert(1)', (u) => opened.push(u))).toBe(UNSAFE_APP_URL);
    expect(opened).toEqual([]);
  });
});
