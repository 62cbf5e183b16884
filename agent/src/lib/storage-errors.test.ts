import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { storageError } from './storage-errors.js';

const sqliteError = (code: string) => Object.assign(new Error('sqlite says no'), { code });

describe('storageError', () => {
  it('answers 507 for a full disk, also through drizzle’s wrapper and for files', () => {
    for (const error of [
      new DrizzleQueryError('insert into flows …', ['secret value'], sqliteError('SQLITE_FULL')),
      sqliteError('SQLITE_IOERR_SHMSIZE'),
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
    ]) {
      const answer = storageError(error);
      expect(answer?.status).toBe(507);
      expect(answer?.message).toMatch(/^The hub's disk is full: the change was not saved/);
      // Nothing of the query or its values reaches the answer.
      expect(JSON.stringify(answer?.details)).not.toContain('secret value');
    }
  });

  it('answers 503 for a database it cannot write, open or read', () => {
    expect(storageError(sqliteError('SQLITE_READONLY_DBMOVED'))?.status).toBe(503);
    expect(storageError(sqliteError('SQLITE_CANTOPEN'))?.status).toBe(503);
    expect(storageError(sqliteError('SQLITE_IOERR_WRITE'))?.message).toMatch(/disk error/);
    expect(storageError(sqliteError('SQLITE_BUSY'))?.headers).toEqual({ 'Retry-After': '5' });
  });

  it('leaves other errors (a constraint, a bug) to the 500 path', () => {
    expect(storageError(sqliteError('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storageError(new TypeError('x is undefined'))).toBeNull();
    expect(storageError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBeNull();
  });
});
