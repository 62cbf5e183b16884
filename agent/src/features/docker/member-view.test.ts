import { describe, expect, it } from 'vitest';
import { hideSecretLabels, HIDDEN } from './member-view.js';

describe('labels members see', () => {
  it('hides labels whose key or value looks like a credential and keeps the rest', () => {
    expect(
      hideSecretLabels({
        'com.docker.compose.project': 'media',
        'org.opencontainers.image.authors': 'Jane',
        'traefik.http.middlewares.auth.basicauth.users': 'admin:$apr1$x',
        'app.api_key': 'abc',
        'app.SSH_KEY': 'abc',
        'app.monkey': 'banana',
        'app.upstream': 'https://u:p@example.invalid/',
        'app.header': 'Bearer abcdefghijkl',
      }),
    ).toEqual({
      'com.docker.compose.project': 'media',
      'org.opencontainers.image.authors': 'Jane',
      'traefik.http.middlewares.auth.basicauth.users': HIDDEN,
      'app.api_key': HIDDEN,
      'app.SSH_KEY': HIDDEN,
      'app.monkey': 'banana',
      'app.upstream': HIDDEN,
      'app.header': HIDDEN,
    });
  });
});
