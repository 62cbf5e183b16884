import { describe, expect, it } from 'vitest';
import {
  authResponseSchema,
  hubIdentitySchema,
  publicUserSchema,
  registrationStatusSchema,
  setupStatusSchema,
} from '@nexus/agent/contract';
import { parseShape } from '@/lib/answer-shape';
import { describeShapesAgainstSchemas, type ShapeCase } from '@/lib/answer-shape.testing';
import { authResponseShape, publicUserShape } from './auth-session';
import { registrationStatusShape } from './auth-sign-in';
import { hubIdentityShape, setupStatusShape } from './setup-status';

// The first page parses these answers with small shapes instead of zod (issue 26): each must agree
// with its contract schema, accepting the same answers, refusing the same, keeping the same keys.
const user = {
  id: 7,
  name: 'Ada',
  email: 'ada@example.com',
  role: 'admin',
  twoFactorEnabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  disabled: false,
};

const cases: ShapeCase[] = [
  {
    name: 'publicUser',
    shape: publicUserShape,
    schema: publicUserSchema,
    samples: [
      user,
      { ...user, passwordHash: 'secret', totpSecret: 'x' },
      { ...user, role: 'superadmin' },
      { ...user, role: 'root' },
      { ...user, id: 1.5 },
      { ...user, id: '7' },
      { ...user, id: 2 ** 60 },
      { ...user, disabled: undefined },
      { ...user, email: null },
      null,
      [],
      'user',
    ],
  },
  {
    name: 'authResponse',
    shape: authResponseShape,
    schema: authResponseSchema,
    samples: [{ user }, { user: { ...user, role: 'guest' } }, { user: null }, {}, { user, extra: 1 }],
  },
  {
    name: 'setupStatus',
    shape: setupStatusShape,
    schema: setupStatusSchema,
    samples: [
      { needsSetup: true, suggested: { hubName: 'nexus', timeZone: 'UTC' } },
      { needsSetup: false, suggested: null },
      { needsSetup: false },
      { needsSetup: 'no', suggested: null },
      { needsSetup: true, suggested: { hubName: 'nexus' } },
    ],
  },
  {
    name: 'hubIdentity',
    shape: hubIdentityShape,
    schema: hubIdentitySchema,
    samples: [{ hubName: 'Kitchen hub' }, { hubName: 3 }, {}, { hubName: 'x', secret: 'y' }],
  },
  {
    name: 'registrationStatus',
    shape: registrationStatusShape,
    schema: registrationStatusSchema,
    samples: [
      { mode: 'open', firstAccount: true },
      { mode: 'invite', firstAccount: false },
      { mode: 'anyone', firstAccount: false },
      { mode: 'closed' },
    ],
  },
];

describeShapesAgainstSchemas('first-page answer shapes', cases);

describe("the first page's user shape", () => {
  it('never hands on a key the schema would strip (a leaked secret stays out of the cache)', () => {
    const parsed = parseShape(publicUserShape, { ...user, passwordHash: 'secret' });
    expect(parsed).not.toHaveProperty('passwordHash');
  });
});
