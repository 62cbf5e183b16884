import { describe, expect, it } from 'vitest';
import { DRAFT_STORAGE_KEY, EMPTY_DRAFT, clearDraft, loadDraft, saveDraft } from './wizard-draft';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('the wizard draft', () => {
  it('round-trips the answers and never holds a password', () => {
    const storage = memoryStorage();
    saveDraft(storage, {
      step: 'hub',
      name: 'Ada',
      email: 'ada@example.com',
      hubName: 'Kitchen',
      timeZone: 'UTC',
    });
    expect(loadDraft(storage)).toEqual({
      step: 'hub',
      name: 'Ada',
      email: 'ada@example.com',
      hubName: 'Kitchen',
      timeZone: 'UTC',
    });
    // Extra fields (such as a password a caller passed by mistake) are dropped by the schema.
    saveDraft(storage, { ...EMPTY_DRAFT, password: 'secret' } as never);
    expect(storage.data.get(DRAFT_STORAGE_KEY)).not.toContain('secret');
  });

  it('starts empty without storage, with garbage, or after clearing', () => {
    expect(loadDraft(undefined)).toEqual(EMPTY_DRAFT);
    const storage = memoryStorage();
    storage.setItem(DRAFT_STORAGE_KEY, '{not json');
    expect(loadDraft(storage)).toEqual(EMPTY_DRAFT);
    storage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ step: 'services' }));
    expect(loadDraft(storage)).toEqual(EMPTY_DRAFT);
    saveDraft(storage, { ...EMPTY_DRAFT, step: 'owner' });
    clearDraft(storage);
    expect(loadDraft(storage)).toEqual(EMPTY_DRAFT);
  });
});
